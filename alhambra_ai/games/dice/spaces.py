"""The dice games' parts of ``alhambra_ai.env`` (docs/env.md): their half of the action index and the
observation vector (the ``spaces`` hook) and their OpenSpiel facts (the ``openspiel`` hook). See
``alhambra_ai.env.parts``.

The two games share the dice, the columns and the evaluation; the basic game adds the bonus fields and the
clock, Alcazaba the cities, the reserves and the column items.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from alhambra_ai import DiceState
from alhambra_ai.env.parts import TYPES, Block, Field, GameSpaces, OpenSpielFacts, View
from alhambra_ai.env.spaces import CITY_CHANNELS

if TYPE_CHECKING:
    from alhambra_ai.env.spaces import ActionSpace, ObservationEncoder

PHASES = ("roll", "after_roll", "reward", "name", "pick", "place", "over")
BONUS = ("points1", "points2", "points3", "void", "convert", "black", "push", "start")
EXTRA_TOWER = 71                 # Alcazaba's extra tower (rules.md D23)
START_ITEM = 254                 # Alcazaba's pick of the start-player tile
ROLL = 1                         # the roll / re-roll kind (code & 15)
MAX_ROLL_OUTCOMES = 1287         # multisets of 8 dice faces: C(13, 5)


class DiceSpaces(GameSpaces):
    """*Alhambra: The Dice Game*: the dice blocks and fields, the bonus fields and the clock."""

    phases = PHASES

    def tiles(self) -> list[int]:
        return list(range(1, 55)) + [EXTRA_TOWER]

    def tile_kind(self, t: int) -> tuple[int, str]:
        return (TYPES.index("tower"), "") if t == EXTRA_TOWER else super().tile_kind(t)

    # ------------------------------------------------------------ actions

    def action_blocks(self, space: ActionSpace) -> list[Block]:
        return [("roll", 255, "dice mask 1-255 (roll 1: 255; re-rolls: the dice rolled again)"),
                ("stop", 16, "type + 8 * push back"),
                ("void", 1, "void roll"),
                ("black", 6, "black die face (type)"),
                ("reward", 16, "bit 0: tile (else 2 points); bits 1-3: convert to type + 1"),
                ("name", 6, "start player named: seat (absolute, 0-based)"),
                ("pick", len(space.tiles) + 1, "tile index; last: the start-player tile")]

    def action_index(self, space: ActionSpace, code: int) -> int:
        city = self.city_index(space, code)
        if city is not None:
            return city
        kind, off = code & 15, space.offset
        p = (code >> 4) & 255
        if kind == 1:
            return off["roll"] + p - 1
        if kind == 2:
            return off["stop"] + (p & 15)
        if kind == 9:
            return off["void"]
        if kind == 10:
            return off["black"] + (p & 7)
        if kind == 11:
            return off["reward"] + (p & 15)
        if kind == 12:
            return off["name"] + (p & 7)
        if kind == 13:
            return off["pick"] + (len(space.tiles) if p == START_ITEM else space.tile_index[p])
        raise KeyError(code)

    # ------------------------------------------------------------ observation

    def rows(self, enc: ObservationEncoder) -> int:
        """Rows of the per-owner fields: the seats, then Dirk (2 players)."""
        return enc.n + (1 if enc.dirk else 0)

    def layout(self, enc: ObservationEncoder) -> list[Field]:
        n, rows = enc.n, self.rows(enc)
        return [("phase", (len(PHASES),)), ("to_act", (n,)), ("start_player", (n,)),
                ("round_start", (n,)), ("counters", (8,)), ("dice", (8, 7)), ("prev_dice", (8, 7)),
                ("black", (7,)), ("black_used", (n,)), ("columns", (6, 24, rows)), ("fallen", (rows,)),
                ("aside", (rows,)), ("evaluation", (3,)), ("scores", (n,)), ("dirk", (2,))]

    def encode(self, enc: ObservationEncoder, obs: dict[str, Any], v: View, rel: list[int]) -> None:
        n = enc.n
        rows = list(rel) + ([n] if enc.dirk else [])   # absolute row (seats, then Dirk) -> relative row

        def row_of(owner: Any) -> int:
            return n if owner == "dirk" else rel[owner]

        v("round_start")[rel[obs["round_start"]]] = 1
        v("counters")[:] = (obs["round"], obs["turn"], obs["turn_in_round"], obs["markers"], obs["rolls"],
                            obs["prev_rolls"], 1 if obs["can_void"] else 0, obs["scored"])
        for name in ("dice", "prev_dice"):
            d = v(name)
            for i, f in enumerate(obs[name]):
                d[i, 6 if f is None else f] = 1
        v("black")[6 if obs["black"] is None else obs["black"]] = 1
        for k in obs["black_used"]:
            v("black_used")[rel[k]] = 1
        cols = v("columns")
        for t, fields in enumerate(obs["columns"]):
            for i, owner in enumerate(fields):
                if owner is not None:
                    cols[t, i, row_of(owner)] = 1
        for name in ("fallen", "aside"):
            out = v(name)
            for k, x in enumerate(obs[name]):
                out[rows[k]] = x
        ev = obs["evaluation"]
        v("evaluation")[:] = (ev["column"], ev["rank"], ev["first"])
        self.encode_own(enc, obs, v, rel, rows)

    def encode_own(self, enc: ObservationEncoder, obs: dict[str, Any], v: View, rel: list[int],
                   rows: list[int]) -> None:
        """The basic game's own fields: the bonus fields and tiles, building points, arrivals, the clock."""
        bf = v("bonus_fields")
        for t, name in enumerate(obs["bonus_fields"]):
            if name is not None:
                bf[t, BONUS.index(name)] = 1
        for name in ("bonus_tiles", "building_points", "arrivals"):
            out = v(name)
            for k, row in enumerate(obs[name]):
                out[rows[k]] = row
        v("clock")[0] = obs["clock"]
        v("bonus_unrevealed")[:] = obs["bonus_unrevealed"]


class BasicDiceSpaces(DiceSpaces):
    """The basic dice game: no tiles are placed, so no city blocks."""

    def layout(self, enc: ObservationEncoder) -> list[Field]:
        rows = self.rows(enc)
        return super().layout(enc) + [
            ("bonus_fields", (6, len(BONUS))), ("bonus_tiles", (rows, len(BONUS))),
            ("building_points", (rows, 6)), ("arrivals", (rows, 6)), ("clock", (1,)),
            ("bonus_unrevealed", (len(BONUS),))]


class AlcazabaSpaces(DiceSpaces):
    """*Alcazaba*: the dice game with cities: the city blocks and planes, reserves, column items."""

    cell_blocks = ("put", "remove")

    def action_blocks(self, space: ActionSpace) -> list[Block]:
        return super().action_blocks(space) + self.city_blocks(space)

    def layout(self, enc: ObservationEncoder) -> list[Field]:

        n, nt, w = enc.n, len(enc.tiles), enc.width
        return super().layout(enc) + [
            ("cities", (n, len(CITY_CHANNELS), w, w)), ("reserves", (n, nt)), ("dirk_tiles", (nt,)),
            ("column_items", (6, nt + 1)), ("aside_tiles", (nt,)), ("pending", (nt,)), ("bag_size", (1,))]

    def encode_own(self, enc: ObservationEncoder, obs: dict[str, Any], v: View, rel: list[int],
                   rows: list[int]) -> None:
        enc.mark_cities(v("cities"), obs["cities"], rel)
        res = v("reserves")
        for k in range(enc.n):
            enc.mark_tiles(res[rel[k]], obs["reserves"][k])
        enc.mark_tiles(v("dirk_tiles"), obs["dirk_tiles"] or ())
        items = v("column_items")
        for t, col in enumerate(obs["column_items"]):
            for item in col:
                items[t, len(enc.tiles) if item == "start" else enc.tile_index[item]] = 1
        enc.mark_tiles(v("aside_tiles"), obs["aside_tiles"])
        enc.mark_tiles(v("pending"), obs["pending"])
        v("bag_size")[0] = obs["bag_size"]


_SPACES: dict[str, type[DiceSpaces]] = {"dice": BasicDiceSpaces, "alcazaba": AlcazabaSpaces}


def spaces(game: str, options: dict[str, Any]) -> DiceSpaces:
    """The ``spaces`` part (``alhambra_ai.env.parts``)."""
    return _SPACES[game](options)


def _dice_rolled(code: int) -> int:
    return bin(code >> 4 & 255).count("1")      # a roll's outcomes depend only on how many dice it rolls


def _facts(short_name: str, long_name: str) -> OpenSpielFacts:
    return OpenSpielFacts(short_name=short_name, long_name=long_name, max_game_length=5000,
                          chance_kind=ROLL, max_chance_outcomes=MAX_ROLL_OUTCOMES, chance_key=_dice_rolled,
                          from_observation=DiceState.from_observation)


#: the ``openspiel`` parts: every roll a chance node; states serialize as their origin and the moves since
OPENSPIEL = {"dice": _facts("alhambra_dice", "Alhambra: The Dice Game"),
             "alcazaba": _facts("alhambra_alcazaba", "Alhambra: The Dice Game (Alcazaba)")}


def openspiel(game: str) -> OpenSpielFacts:
    """The ``openspiel`` part (``alhambra_ai.env.parts``)."""
    return OPENSPIEL[game]
