"""The base game's parts of ``alhambra_ai.env`` (docs/env.md): its half of the action index and the
observation vector (the ``spaces`` hook) and its OpenSpiel facts (the ``openspiel`` hook). See
``alhambra_ai.env.parts``.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING, Any

from alhambra_ai import count_cards, tile_info
from alhambra_ai.env.parts import TYPES, Block, Field, GameSpaces, OpenSpielFacts, View
from alhambra_ai.env.spaces import CITY_CHANNELS

if TYPE_CHECKING:
    from alhambra_ai.env.spaces import ActionSpace, ObservationEncoder

PHASES = ("action", "place", "final", "over", "interrupt", "falcons", "resident", "disc", "figures")
NCARDS = 36                      # money cards: code currency * 9 + value - 1
CURRENCIES = "ygbo"
#: card text ('g3') -> code 0..35
CARD = {f"{c}{v}": i * 9 + v - 1 for i, c in enumerate(CURRENCIES) for v in range(1, 10)}
#: the dearest tile (13, a tower): a payment pays at most this (a bazaar's price is a market tile's cost)
MAX_COST = max(tile_info(t)[1] for t in range(1, 71))


@cache
def payments(change: bool) -> tuple[tuple[int, int], ...]:
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


class AlhambraSpaces(GameSpaces):
    """The base game with its options: the market, money and payments, the modules' blocks and fields.

    ``payments``: the payment table ``(card field, coins)`` (a payment's index is its position);
    ``figures``: the Residents' 20 figure masks in order (``ActionSpace`` shows both as its own attributes).
    """

    phases = PHASES
    cell_blocks = ("put", "remove", "falcon", "disc")

    def __init__(self, options: dict[str, Any]) -> None:
        super().__init__(options)
        self.payments = payments(bool(options.get("change")))
        self.payment_index = {p: i for i, p in enumerate(self.payments)}
        self.figures = [sum(1 << t for t in c) for c in combinations(range(6), 3)]
        self.figure_index = {m: i for i, m in enumerate(self.figures)}

    def tiles(self) -> list[int]:
        on = self.options.get
        if on("camps") or on("bazaars"):
            return list(range(1, 71))           # camps 55..62, bazaars 63..70: one range, simpler to read
        return list(range(1, 55))

    # ------------------------------------------------------------ actions

    def action_blocks(self, space: ActionSpace) -> list[Block]:
        on, nt, npay = self.options.get, len(space.tiles), len(self.payments)
        blocks = [("take", 15, "display positions mask 1-15: index = mask - 1"),
                  ("buy", 4 * npay, "slot * payments + payment (payment table: (card field, coins))")]
        blocks += self.city_blocks(space)
        blocks.append(("pass", 1, "pass (only when nothing else is legal)"))
        if on("bazaars"):
            blocks.append(("bazaar", 8 * npay, "bazaar (tile - 63) * payments + payment"))
        if on("vizier"):
            blocks.append(("wake", 1, "wake the vizier"))
        if any(on(m) for m in ("vizier", "falcons", "thief", "residents")):
            blocks.append(("done", 1, "done (decline the window, stop buying falcons, no resident)"))
        if on("falcons"):
            blocks.append(("falcon", 15 * NCARDS * space.cells, "(falcon * 36 + card) * cells + corner"))
        if on("thief"):
            blocks.append(("thief", 4, "display position taken"))
        if on("walls"):
            blocks.append(("wall", 8 * (nt + 1), "card * (tiles + 1) + (0 fountain, tile index + 1)"))
        if on("residents"):
            blocks += [("resident", nt, "tile index (the tile that lifted the disc)"),
                       ("exchange", 36, "type given * 6 + type taken"),
                       ("disc", space.cells, "cell"),
                       ("figures", 20, "the 3 types chosen (combinations of 6 types in order)")]
        return blocks

    def action_index(self, space: ActionSpace, code: int) -> int:
        city = self.city_index(space, code)
        if city is not None:
            return city
        kind, off, ti = code & 15, space.offset, space.tile_index
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
            c = space.packed_cell(code >> 14)
            if c < 0:
                return -1
            return off["falcon"] + (((code >> 4) & 15) * NCARDS + ((code >> 8) & 63)) * space.cells + c
        if kind == 14:
            return off["thief"] + ((code >> 4) & 3)
        sub = (code >> 4) & 15
        if sub == 0:
            t = (code >> 11) & 127
            return off["wall"] + ((code >> 8) & 7) * (len(space.tiles) + 1) + (0 if t == 0 else ti[t] + 1)
        if sub == 1:
            return off["resident"] + ti[(code >> 8) & 255]
        if sub == 2:
            return off["exchange"] + ((code >> 8) & 7) * 6 + ((code >> 11) & 7)
        if sub == 3:
            c = space.packed_cell(code >> 8)
            return -1 if c < 0 else off["disc"] + c
        if sub == 4:
            return off["figures"] + self.figure_index[(code >> 8) & 63]
        raise KeyError(code)

    # ------------------------------------------------------------ observation

    def layout(self, enc: ObservationEncoder) -> list[Field]:

        on, n, nt, w = self.options.get, enc.n, len(enc.tiles), enc.width
        layout: list[Field] = [
            ("phase", (len(PHASES),)), ("to_act", (n,)), ("start_player", (n,)),
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
        return layout

    def encode(self, enc: ObservationEncoder, obs: dict[str, Any], v: View, rel: list[int]) -> None:
        n, ti = enc.n, enc.tile_index
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
        enc.mark_tiles(v("pending"), obs["pending"])
        res = v("reserves")
        for k in range(n):
            enc.mark_tiles(res[rel[k]], obs["reserves"][k])
        enc.mark_tiles(v("dirk_tiles"), obs["dirk_tiles"] or ())
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
        enc.mark_cities(v("cities"), obs["cities"], rel)
        mods = obs.get("modules")
        if mods:
            self._encode_modules(enc, mods, v, rel)

    def _encode_modules(self, enc: ObservationEncoder, m: dict[str, Any], v: View, rel: list[int]) -> None:
        on, n, ti = self.options.get, enc.n, enc.tile_index
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
                enc.mark_tiles(res[rel[k]], tiles)
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
                lv[1 + len(enc.tiles) + ("action", "place", "final").index(lifted["resume"])] = 1
            v("setup_left")[0] = m.get("setup_left", 0)


def spaces(game: str, options: dict[str, Any]) -> AlhambraSpaces:
    """The ``spaces`` part (``alhambra_ai.env.parts``)."""
    return AlhambraSpaces(options)


def _forget_history(obs: dict[str, Any]) -> None:
    obs["hands"] = count_cards(obs)        # every hand the history reveals stays
    del obs["history"]


#: the ``openspiel`` part: no chance after the deal; states serialize through the position format
OPENSPIEL = OpenSpielFacts(short_name="alhambra", long_name="Alhambra", max_game_length=20000,
                           forget_history=_forget_history)


def openspiel(game: str) -> OpenSpielFacts:
    """The ``openspiel`` part (``alhambra_ai.env.parts``)."""
    return OPENSPIEL
