"""Fixed-size numeric views of the engine for learning code: the action index and the observation vector.

Both are pure numpy and shared by the PettingZoo environment and the OpenSpiel game (docs/env.md).

* ``ActionSpace``: every action code the engine can list for a game and its options gets one index in
  ``0 .. n - 1`` (``Discrete(n)``). The index keeps the meaning of the code (kind, tile, cell, payment), so a
  policy sees the same move at the same index in every position. Cells are those within ``radius`` of the
  fountain; a legal action farther out has no index (``index`` gives -1) and the wrappers end the game as
  truncated there (never seen in random games at the default radius: docs/env.md).
* ``ObservationEncoder``: a float32 vector computed from one seat's bot-API observation
  (``State.observation(seat)``) and nothing else, so it carries no more than the seat may know. Seats are
  relative: index 0 is the observing seat, 1 the next one, and so on.

>>> from alhambra_ai import new_game
>>> s = new_game(2, seed=1)
>>> space = ActionSpace("alhambra", 2, s.options)
>>> mask, codes = space.mask(s.legal_actions())
>>> int(mask.sum()) == len(s.legal_actions()) and all(space.index(codes[i]) == i for i in codes)
True
>>> enc = ObservationEncoder("alhambra", 2, s.options)
>>> enc.encode(s.observation(0)).shape == (enc.size,)
True
"""

from __future__ import annotations

from functools import cache
from itertools import combinations
from typing import Any

import numpy as np

from alhambra_ai import new_game, tile_info

__all__ = ["DEFAULT_RADIUS", "ActionSpace", "ObservationEncoder", "OutsideWindow", "game_options"]

#: cells within this distance of the fountain (in x and in y) are in the action space and the city planes
DEFAULT_RADIUS = 12

TYPES = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")
BASE_PHASES = ("action", "place", "final", "over", "interrupt", "falcons", "resident", "disc", "figures")
DICE_PHASES = ("roll", "after_roll", "reward", "name", "pick", "place", "over")
BONUS = ("points1", "points2", "points3", "void", "convert", "black", "push", "start")
CITY_CHANNELS = ("occupied",) + TYPES + ("fountain", "camp", "bazaar", "wall_n", "wall_e", "wall_s", "wall_w",
                                         "tile_id")
NCARDS = 36                      # money cards: code currency * 9 + value - 1
EXTRA_TOWER = 71                 # Alcazaba's extra tower (DICE-RULES D23)
START_ITEM = 254                 # Alcazaba's pick of the start-player tile
CURRENCIES = "ygbo"


#: the dearest tile (13, a tower): a payment pays at most this (a bazaar's price is a market tile's cost)
MAX_COST = max(tile_info(t)[1] for t in range(1, 71))


def game_options(game: str, num_players: int, options: dict | None) -> dict:
    """The options as the engine normalises them (Dirk's default, module names checked)."""
    return dict(new_game(num_players, seed=0, options=options, game=game).options)


def _tile_kind(t: int) -> tuple[int, str]:
    """(type index 0-5 or -1, special name '' / fountain / camp / bazaar) of a tile id."""
    if t == EXTRA_TOWER:
        return TYPES.index("tower"), ""
    name = tile_info(t)[0]
    return (TYPES.index(name), "") if name in TYPES else (-1, name)


@cache
def _payments(change: bool) -> tuple[tuple[int, int], ...]:
    """Every (card field, coins) a listed payment can have. Cards alone: the minimal payments of some cost up
    to MAX_COST (no card can be dropped: total - smallest card < cost). With coins (Change): exact payments,
    so the cards add up to cost - coins. Fields as in the code: 2 bits per value 1..9."""
    found = []

    def rec(v: int, field: int, total: int, smallest: int) -> None:
        if v == 0:
            found.append((field, total, smallest))
            return
        for k in range(4):                       # 3 copies of each card per currency
            t = total + k * v
            if t > MAX_COST - 1 + 9:             # total - smallest < MAX_COST, smallest <= 9
                break
            rec(v - 1, field | k << (2 * (v - 1)), t, v if k else smallest)

    rec(9, 0, 0, 0)                              # values 9 down to 1: the last one added is the smallest
    out = [(f, 0) for f, total, smallest in found if f and total - smallest < MAX_COST]
    if change:
        out += [(f, c) for c in range(1, 7) for f, total, _s in found if total + c <= MAX_COST]
    return tuple(sorted(out, key=lambda p: (p[1], p[0])))


class ActionSpace:
    """The index of every action code of one game with its options (docs/env.md "Action space").

    ``blocks``: ``[(name, start, size, meaning)]`` in index order; ``n``: their total.
    ``index(code)``: the index, or -1 for a cell beyond the radius. ``mask(legal)``: the int8 mask and
    ``{index: code}`` for a position's legal codes (decoding goes through it: a few blocks merge codes that
    are never legal together, e.g. ``place``, ``build`` and ``swap`` of one tile to one cell).
    """

    def __init__(self, game: str = "alhambra", num_players: int = 2, options: dict | None = None,
                 radius: int = DEFAULT_RADIUS) -> None:
        self.game = game
        self.num_players = num_players
        self.options = game_options(game, num_players, options)
        self.radius = radius
        self.width = w = 2 * radius + 1
        self.cells = w * w
        on = self.options.get
        if game == "alhambra":
            self.tiles = list(range(1, 55))
            if on("camps") or on("bazaars"):
                self.tiles = list(range(1, 71))  # camps 55..62, bazaars 63..70: one range, simpler to read
        else:
            self.tiles = list(range(1, 55)) + [EXTRA_TOWER]
        self.tile_index = {t: i for i, t in enumerate(self.tiles)}
        nt = len(self.tiles)
        self.payments = _payments(bool(on("change")))
        self.payment_index = {p: i for i, p in enumerate(self.payments)}
        self.figures = [sum(1 << t for t in c) for c in combinations(range(6), 3)]
        self.figure_index = {m: i for i, m in enumerate(self.figures)}
        blocks: list[tuple[str, int, str]] = []
        if game == "alhambra":
            npay = len(self.payments)
            blocks += [("take", 15, "display positions mask 1-15: index = mask - 1"),
                       ("buy", 4 * npay, "slot * payments + payment (payment table: (card field, coins))")]
        else:
            blocks += [("roll", 255, "dice mask 1-255 (roll 1: 255; re-rolls: the dice rolled again)"),
                       ("stop", 16, "type + 8 * push back"),
                       ("void", 1, "void roll"),
                       ("black", 6, "black die face (type)"),
                       ("reward", 16, "bit 0: tile (else 2 points); bits 1-3: convert to type + 1"),
                       ("name", 6, "start player named: seat (absolute, 0-based)"),
                       ("pick", nt + 1, "tile index; last: the start-player tile")]
        if game != "dice":
            blocks += [("put", nt * self.cells, "tile index * cells + cell: place (pending), build (reserve "
                                                 "to an empty cell) or swap (reserve to an occupied cell)"),
                       ("remove", self.cells, "cell"),
                       ("reserve", nt, "place tile index in the reserve")]
            if self.options.get("dirk"):
                blocks.append(("dirk", nt, "give tile index to Dirk"))
        if game == "alhambra":
            blocks.append(("pass", 1, "pass (only when nothing else is legal)"))
            if on("bazaars"):
                blocks.append(("bazaar", 8 * len(self.payments), "bazaar (tile - 63) * payments + payment"))
            if on("vizier"):
                blocks.append(("wake", 1, "wake the vizier"))
            if any(on(m) for m in ("vizier", "falcons", "thief", "residents")):
                blocks.append(("done", 1, "done (decline the window, stop buying falcons, no resident)"))
            if on("falcons"):
                blocks.append(("falcon", 15 * NCARDS * self.cells, "(falcon * 36 + card) * cells + corner"))
            if on("thief"):
                blocks.append(("thief", 4, "display position taken"))
            if on("walls"):
                blocks.append(("wall", 8 * (nt + 1), "card * (tiles + 1) + (0 fountain, tile index + 1)"))
            if on("residents"):
                blocks += [("resident", nt, "tile index (the tile that lifted the disc)"),
                           ("exchange", 36, "type given * 6 + type taken"),
                           ("disc", self.cells, "cell"),
                           ("figures", 20, "the 3 types chosen (combinations of 6 types in order)")]
        self.blocks: list[tuple[str, int, int, str]] = []
        start = 0
        for name, size, meaning in blocks:
            self.blocks.append((name, start, size, meaning))
            start += size
        self.n = start
        self.offset = {name: s for name, s, _size, _m in self.blocks}
        self._known: dict[int, int] = {}     # code -> index, filled as codes come (a game repeats most)

    def block_of(self, index: int) -> str:
        """The name of the block holding ``index``."""
        for name, start, size, _m in self.blocks:
            if start <= index < start + size:
                return name
        raise ValueError(f"index {index} outside 0..{self.n - 1}")

    def cell(self, x: int, y: int) -> int:
        """Row-major cell index, north row first (the city planes' layout); -1 beyond the radius."""
        r = self.radius
        if -r <= x <= r and -r <= y <= r:
            return (r - y) * self.width + x + r
        return -1

    def _packed(self, p: int) -> int:
        return self.cell((p & 255) - 128, ((p >> 8) & 255) - 128)

    def index(self, code: int) -> int:
        """The index of an action code; -1 when its cell lies beyond the radius. Raises KeyError for a code
        this game and these options never list."""
        i = self._known.get(code)
        if i is None:
            i = self._known[code] = self._index(code)
        return i

    def _index(self, code: int) -> int:
        kind, off, ti = code & 15, self.offset, self.tile_index
        if self.game != "alhambra" and kind not in (3, 4, 5, 6, 7, 8):
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
                return off["pick"] + (len(self.tiles) if p == START_ITEM else ti[p])
            raise KeyError(code)
        if kind in (3, 6, 8):
            c = self._packed(code >> 12)
            return -1 if c < 0 else off["put"] + ti[(code >> 4) & 255] * self.cells + c
        if kind == 7:
            c = self._packed(code >> 12)
            return -1 if c < 0 else off["remove"] + c
        if kind == 4:
            return off["reserve"] + ti[(code >> 4) & 255]
        if kind == 5:
            return off["dirk"] + ti[(code >> 4) & 255]
        if kind == 1:
            return off["take"] + ((code >> 4) & 15) - 1
        if kind == 2:
            pay = self.payment_index[((code >> 6) & 0x3FFFF, (code >> 24) & 7)]
            return off["buy"] + ((code >> 4) & 3) * len(self.payments) + pay
        if kind == 9:
            return off["pass"]
        if kind == 10:
            pay = self.payment_index[((code >> 7) & 0x3FFFF, (code >> 25) & 7)]
            return off["bazaar"] + ((code >> 4) & 7) * len(self.payments) + pay
        if kind == 11:
            return off["wake"]
        if kind == 12:
            return off["done"]
        if kind == 13:
            c = self._packed(code >> 14)
            if c < 0:
                return -1
            return off["falcon"] + (((code >> 4) & 15) * NCARDS + ((code >> 8) & 63)) * self.cells + c
        if kind == 14:
            return off["thief"] + ((code >> 4) & 3)
        sub = (code >> 4) & 15
        if sub == 0:
            t = (code >> 11) & 127
            return off["wall"] + ((code >> 8) & 7) * (len(self.tiles) + 1) + (0 if t == 0 else ti[t] + 1)
        if sub == 1:
            return off["resident"] + ti[(code >> 8) & 255]
        if sub == 2:
            return off["exchange"] + ((code >> 8) & 7) * 6 + ((code >> 11) & 7)
        if sub == 3:
            c = self._packed(code >> 8)
            return -1 if c < 0 else off["disc"] + c
        if sub == 4:
            return off["figures"] + self.figure_index[(code >> 8) & 63]
        raise KeyError(code)

    def indices(self, legal: list[int]) -> dict[int, int]:
        """``{index: code}`` of a position's legal codes; raises OutsideWindow when some legal code has no
        index (a cell beyond the radius)."""
        known = self._known
        codes = {}
        for code in legal:
            i = known.get(code)
            if i is None:
                i = self.index(code)
            if i < 0:
                raise OutsideWindow(f"legal action {code} has a cell beyond radius {self.radius}")
            codes[i] = code
        if len(codes) != len(legal):      # two legal codes on one index would make decoding ambiguous
            raise RuntimeError(f"action index collision among {sorted(legal)}")
        return codes

    def mask(self, legal: list[int]) -> tuple[np.ndarray, dict[int, int]]:
        """The int8 mask over the n indices and ``indices(legal)``."""
        codes = self.indices(legal)
        m = np.zeros(self.n, dtype=np.int8)
        if codes:
            m[np.fromiter(codes, dtype=np.int64, count=len(codes))] = 1
        return m, codes


class OutsideWindow(Exception):
    """A legal action's cell lies beyond the action space's radius: the game cannot go on in this space."""


class ObservationEncoder:
    """One seat's observation dict -> float32 vector (docs/env.md "Observation").

    ``layout``: ``[(name, shape)]`` in vector order; ``slices[name]``: where each lies; ``view(vec, name)``
    reshapes a part. Raw counts and scores (no scaling), one-hots for categories; relative seats.
    """

    def __init__(self, game: str = "alhambra", num_players: int = 2, options: dict | None = None,
                 radius: int = DEFAULT_RADIUS) -> None:
        self.game = game
        self.n = n = num_players
        self.options = game_options(game, num_players, options)
        self.radius = radius
        self.width = w = 2 * radius + 1
        on = self.options.get
        self.tiles = ActionSpace(game, num_players, options, radius).tiles
        self.tile_index = {t: i for i, t in enumerate(self.tiles)}
        nt = len(self.tiles)
        kinds = {t: _tile_kind(t) for t in self.tiles}
        kinds[0] = (-1, "fountain")
        self._type = kinds
        self.dirk = bool(on("dirk"))
        layout: list[tuple[str, tuple[int, ...]]] = []
        if game == "alhambra":
            layout += [("phase", (len(BASE_PHASES),)), ("to_act", (n,)), ("start_player", (n,)),
                       ("counters", (5,)), ("scoring_cards", (2, 3)), ("scores", (n,)), ("dirk", (2,)),
                       ("hand_sizes", (n,)), ("hands", (n, NCARDS)), ("display", (4, NCARDS)),
                       ("discard", (NCARDS,)), ("market", (4, nt)), ("pending", (nt,)), ("reserves", (n, nt)),
                       ("dirk_tiles", (nt,)), ("final", (1 + n,)), ("final_tiles", (4, nt)),
                       ("final_receivers", (4, n)), ("cities", (n, len(CITY_CHANNELS), w, w))]
            if on("vizier"):
                layout += [("vizier_awake", (n,)), ("window_order", (n,))]
            if on("bazaars"):
                layout.append(("bazaars_waiting", (8,)))
            if on("camps") or on("bazaars"):
                layout.append(("bag_modules", (2,)))
            if on("falcons"):
                layout.append(("falcons", (15, n + 3)))
            if on("change"):
                layout += [("coins", (n, 4)), ("coin_bag", (4,))]
            if on("walls"):
                layout += [("wall_cards", (2, 8)), ("wall_pieces", (nt, 4)), ("fountain_walls", (n, 4)),
                           ("wall_piles", (4, 3))]
            if on("thief"):
                layout += [("thief_counts", (n,)), ("thieves_played", (4,)), ("thieves", (4,))]
            if on("residents"):
                layout += [("supply", (6,)), ("residents", (n, nt)), ("discs", (n, 16)), ("disc", (6,)),
                           ("lifted", (1 + nt + 3,)), ("setup_left", (1,))]
        else:
            rows = n + (1 if self.dirk else 0)
            layout += [("phase", (len(DICE_PHASES),)), ("to_act", (n,)), ("start_player", (n,)),
                       ("round_start", (n,)), ("counters", (8,)), ("dice", (8, 7)), ("prev_dice", (8, 7)),
                       ("black", (7,)), ("black_used", (n,)), ("columns", (6, 24, rows)), ("fallen", (rows,)),
                       ("aside", (rows,)), ("evaluation", (3,)), ("scores", (n,)), ("dirk", (2,))]
            if game == "dice":
                layout += [("bonus_fields", (6, len(BONUS))), ("bonus_tiles", (rows, len(BONUS))),
                           ("building_points", (rows, 6)), ("arrivals", (rows, 6)), ("clock", (1,)),
                           ("bonus_unrevealed", (len(BONUS),))]
            else:
                layout += [("cities", (n, len(CITY_CHANNELS), w, w)), ("reserves", (n, nt)),
                           ("dirk_tiles", (nt,)), ("column_items", (6, nt + 1)), ("aside_tiles", (nt,)),
                           ("pending", (nt,)), ("bag_size", (1,))]
        self.layout = layout
        self.slices: dict[str, slice] = {}
        start = 0
        for name, shape in layout:
            size = int(np.prod(shape))
            self.slices[name] = slice(start, start + size)
            start += size
        self.size = start
        self.shapes = dict(layout)

    def view(self, vec: np.ndarray, name: str) -> np.ndarray:
        """The part ``name`` of an encoded vector, in its shape (a view: writing to it writes the vector)."""
        return vec[self.slices[name]].reshape(self.shapes[name])

    def encode(self, obs: dict[str, Any]) -> np.ndarray:
        """The vector of one observation dict (``State.observation(seat)``); reads nothing else."""
        vec = np.zeros(self.size, dtype=np.float32)
        v = lambda name: self.view(vec, name)  # noqa: E731
        n, seat = self.n, obs["seat"]
        rel = [(k - seat) % n for k in range(n)]          # absolute seat -> relative index
        phases = BASE_PHASES if self.game == "alhambra" else DICE_PHASES
        v("phase")[phases.index(obs["phase"])] = 1
        if obs["current_player"] >= 0:
            v("to_act")[rel[obs["current_player"]]] = 1
        v("start_player")[rel[obs["start_player"]]] = 1
        scores = v("scores")
        for k in range(n):
            scores[rel[k]] = obs["scores"][k]
        if obs.get("dirk_score") is not None:
            v("dirk")[:] = (1, obs["dirk_score"])
        if self.game == "alhambra":
            self._encode_base(obs, v, rel)
        else:
            self._encode_dice(obs, v, rel)
        return vec

    # ------------------------------------------------------------ parts

    def _tiles(self, out: np.ndarray, tiles) -> None:
        ti = self.tile_index
        for t in tiles:
            if t is not None:
                out[ti[t]] = 1

    def _cities(self, planes: np.ndarray, cities, rel) -> None:
        r, ch_wall = self.radius, CITY_CHANNELS.index("wall_n")
        for k, cells in enumerate(cities):
            p = planes[rel[k]]
            for x, y, t, walls in cells:
                if not (-r <= x <= r and -r <= y <= r):
                    raise OutsideWindow(f"city tile at {x},{y} beyond radius {r}")
                row, col = r - y, x + r
                typ, special = self._type[t]
                p[0, row, col] = 1
                p[1 + typ if typ >= 0 else CITY_CHANNELS.index(special), row, col] = 1
                for b in range(4):
                    if walls >> b & 1:
                        p[ch_wall + b, row, col] = 1
                p[-1, row, col] = t

    def _encode_base(self, obs: dict, v, rel) -> None:
        from alhambra_ai import count_cards

        n, ti = self.n, self.tile_index
        pile = obs["draw_pile_size"]
        v("counters")[:] = (obs["turn"], obs["actions_this_turn"], obs["scoring_rounds_done"], pile,
                            obs["bag_size"])
        sc = v("scoring_cards")
        for i, card in enumerate(obs["scoring_cards"][:2]):
            first, last = card["positions"] or (0, 0)
            sc[i] = (1 if card["drawn"] else 0, first, last)
        hands, sizes = v("hands"), v("hand_sizes")
        for k, cards in enumerate(count_cards(obs)):      # the own hand, and the others' as the history tells
            for c in cards:
                hands[rel[k], CARD[c]] += 1
            sizes[rel[k]] = obs["hand_sizes"][k]
        disp = v("display")
        for i, c in enumerate(obs["display"]):
            if c is not None:
                disp[i, CARD[c]] = 1
        disc = v("discard")
        for c in obs["discard"]:
            disc[CARD[c]] += 1
        market = v("market")
        for i, t in enumerate(obs["market"]):
            if t is not None:
                market[i, ti[t]] = 1
        self._tiles(v("pending"), obs["pending"])
        res = v("reserves")
        for k in range(n):
            self._tiles(res[rel[k]], obs["reserves"][k])
        self._tiles(v("dirk_tiles"), obs["dirk_tiles"] or ())
        final = obs.get("final")
        if final:
            v("final")[0] = 1
            v("final")[1 + rel[final["ender"]]] = 1
            ft, fr = v("final_tiles"), v("final_receivers")
            for i, (t, who) in enumerate(zip(final["tiles"], final["seats"], strict=True)):
                if t is not None:
                    ft[i, ti[t]] = 1
                if who is not None:
                    fr[i, rel[who]] = 1
        self._cities(v("cities"), obs["cities"], rel)
        mods = obs.get("modules")
        if mods:
            self._encode_modules(mods, v, rel)

    def _encode_modules(self, m: dict, v, rel) -> None:
        on, n, ti = self.options.get, self.n, self.tile_index
        if on("vizier"):
            va, wo = v("vizier_awake"), v("window_order")
            for k, awake in enumerate(m["vizier_awake"] or ()):
                va[rel[k]] = awake
            for pos, k in enumerate(m["window_order"]):
                wo[rel[k]] = pos + 1
        if on("bazaars"):
            for t in m["bazaars_waiting"]:
                v("bazaars_waiting")[t - 63] = 1
        if on("camps") or on("bazaars"):
            v("bag_modules")[:] = (m.get("bag_camps", 0), m.get("bag_bazaars", 0))
        if on("falcons"):
            f = v("falcons")
            f[:, n] = 1                                      # in the supply unless someone holds it
            for falcon, k, x, y in m["falcons"] or ():
                f[falcon - 1, n] = 0
                f[falcon - 1, rel[k]] = 1
                f[falcon - 1, n + 1:] = (x, y)
        if on("change"):
            coins = v("coins")
            for k, row in enumerate(m["coins"]):
                coins[rel[k]] = row
            v("coin_bag")[:] = m["coin_bag"]
        if on("walls"):
            w = m["walls"]
            cards = v("wall_cards")
            for c in w["face_up"]:
                cards[0, c - 1] = 1
            for c in w["used"]:
                cards[1, c - 1] = 1
            pieces, fountain = v("wall_pieces"), v("fountain_walls")
            for k, seat_pieces in enumerate(w["pieces"]):
                for t, sides in seat_pieces:
                    row = fountain[rel[k]] if t == 0 else pieces[ti[t]]
                    for ch in sides:
                        row["NESW".index(ch)] = 1
            piles = v("wall_piles")
            for i, p in enumerate(w["piles"]):
                if p is not None:
                    piles[i] = p
        if on("thief"):
            tc = v("thief_counts")
            for k, c in enumerate(m["thief_counts"] or ()):
                tc[rel[k]] = c
            for c in m["thieves_played"] or ():
                v("thieves_played")[CURRENCIES.index(c)] += 1
            for c in m.get("thieves") or ():
                v("thieves")[CURRENCIES.index(c)] += 1
        if on("residents"):
            v("supply")[:] = m["supply"]
            res = v("residents")
            for k, tiles in enumerate(m["residents"]):
                self._tiles(res[rel[k]], tiles)
            discs = v("discs")
            for k, d in enumerate(m["discs"]):
                row = discs[rel[k]]
                if d["cell"] is not None:
                    row[0:3] = (1, d["cell"][0], d["cell"][1])
                for t in d["seen"]:
                    row[3 + TYPES.index(t)] += 1
                row[9] = d["hidden"]
                for t in d["gone"]:
                    row[10 + TYPES.index(t)] += 1
            for t in m.get("disc") or ():
                v("disc")[TYPES.index(t)] = 1
            lifted = m.get("lifted")
            if lifted:
                lv = v("lifted")
                lv[0] = 1
                lv[1 + ti[lifted["tile"]]] = 1
                lv[1 + len(self.tiles) + ("action", "place", "final").index(lifted["resume"])] = 1
            v("setup_left")[0] = m.get("setup_left", 0)

    def _encode_dice(self, obs: dict, v, rel) -> None:
        n = self.n
        rows = list(rel) + ([n] if self.dirk else [])   # absolute row (seats, then Dirk) -> relative row

        def row_of(owner):
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
        if self.game == "dice":
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
            return
        self._cities(v("cities"), obs["cities"], rel)
        res = v("reserves")
        for k in range(n):
            self._tiles(res[rel[k]], obs["reserves"][k])
        self._tiles(v("dirk_tiles"), obs["dirk_tiles"] or ())
        items = v("column_items")
        for t, col in enumerate(obs["column_items"]):
            for item in col:
                items[t, len(self.tiles) if item == "start" else self.tile_index[item]] = 1
        self._tiles(v("aside_tiles"), obs["aside_tiles"])
        self._tiles(v("pending"), obs["pending"])
        v("bag_size")[0] = obs["bag_size"]


#: card text ('g3') -> code 0..35
CARD = {f"{c}{v}": i * 9 + v - 1 for i, c in enumerate(CURRENCIES) for v in range(1, 10)}
