"""The base game's parts of ``alhambra_ai.env`` (docs/env.md): its half of the action index and the
observation vector (the ``spaces`` hook) and its OpenSpiel facts (the ``openspiel`` hook). See
``alhambra_ai.env.parts``.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from alhambra_ai import count_cards, tile_info
from alhambra_ai._core import CURRENCY_LETTERS
from alhambra_ai.env.parts import Block, Field, GameSpaces, OpenSpielFacts, View
from alhambra_ai.env.spaces import CITY_CHANNELS
from alhambra_ai.games.alhambra.modules import BLOCK_ORDER, FIELD_ORDER, MODULES, in_play, ordered
from alhambra_ai.games.alhambra.modules.parts import NCARDS

if TYPE_CHECKING:
    from alhambra_ai.env.spaces import ActionSpace, ObservationEncoder

#: the phases of the base game, then the modules' (``phases`` of each, in the rulebook's order)
PHASES = ("action", "place", "final", "over", "interrupt", *(p for m in MODULES for p in m.phases))
CURRENCIES = CURRENCY_LETTERS
#: card text ('g3') -> code 0..35
CARD = {f"{c}{v}": i * 9 + v - 1 for i, c in enumerate(CURRENCIES) for v in range(1, 10)}
#: the dearest tile (13, a tower): a payment pays at most this (a bazaar's price is a market tile's cost)
MAX_COST = max(tile_info(t)[1] for t in range(1, 71))


@cache
def payments(coins: bool) -> tuple[tuple[int, int], ...]:
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
    if coins:
        out += [(f, c) for c in range(1, 7) for f, total, _s in found if total + c <= MAX_COST]
    return tuple(sorted(out, key=lambda p: (p[1], p[0])))


class AlhambraSpaces(GameSpaces):
    """The base game with its options: the market, money and payments, and the blocks and fields of the
    modules in play (each module's part: ``alhambra_ai.games.alhambra.modules``).

    ``payments``: the payment table ``(card field, coins)`` (a payment's index is its position); the modules'
    constant tables (the Residents' 20 figure masks, ``figures``) are attributes too (``ActionSpace`` shows
    them as its own).
    """

    phases = PHASES
    cell_blocks = ("put", "remove", *(b for m in MODULES for b in m.cell_blocks))

    def __init__(self, options: dict[str, Any]) -> None:
        super().__init__(options)
        self.modules = in_play(options)
        self.payments = payments(any(m.pays_coins for m in self.modules))
        self.payment_index = {p: i for i, p in enumerate(self.payments)}
        for m in MODULES:
            for name, table in m.attributes.items():
                setattr(self, name, table)

    def tiles(self) -> list[int]:
        extra = {t for m in self.modules for t in m.tiles}
        return list(range(1, 55)) + sorted(extra)

    # ------------------------------------------------------------ actions

    def action_blocks(self, space: ActionSpace) -> list[Block]:
        npay = len(self.payments)
        blocks = [("take", 15, "display positions mask 1-15: index = mask - 1"),
                  ("buy", 4 * npay, "slot * payments + payment (payment table: (card field, coins))")]
        blocks += self.city_blocks(space)
        blocks.append(("pass", 1, "pass (only when nothing else is legal)"))
        modules = [b for m in self.modules for b in m.action_blocks(space)]
        return blocks + ordered(modules, BLOCK_ORDER)

    def action_index(self, space: ActionSpace, code: int) -> int:
        city = self.city_index(space, code)
        if city is not None:
            return city
        kind, off = code & 15, space.offset
        if kind == 1:
            return off["take"] + ((code >> 4) & 15) - 1
        if kind == 2:
            pay = self.payment_index[((code >> 6) & 0x3FFFF, (code >> 24) & 7)]
            return off["buy"] + ((code >> 4) & 3) * len(self.payments) + pay
        if kind == 9:
            return off["pass"]
        for m in self.modules:
            i = m.action_index(space, code)
            if i is not None:
                return i
        raise KeyError(code)

    # ------------------------------------------------------------ observation

    def layout(self, enc: ObservationEncoder) -> list[Field]:

        n, nt, w = enc.n, len(enc.tiles), enc.width
        layout: list[Field] = [
            ("phase", (len(PHASES),)), ("to_act", (n,)), ("start_player", (n,)),
            ("counters", (5,)), ("scoring_cards", (2, 3)), ("scores", (n,)), ("dirk", (2,)),
            ("hand_sizes", (n,)), ("hands", (n, NCARDS)), ("display", (4, NCARDS)),
            ("discard", (NCARDS,)), ("market", (4, nt)), ("pending", (nt,)), ("reserves", (n, nt)),
            ("dirk_tiles", (nt,)), ("final", (1 + n,)), ("final_tiles", (4, nt)),
            ("final_receivers", (4, n)), ("cities", (n, len(CITY_CHANNELS), w, w))]
        modules = [f for m in self.modules for f in m.fields(enc)]
        return layout + ordered(modules, FIELD_ORDER)

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
            for m in self.modules:
                m.encode(enc, mods, v, rel)


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
