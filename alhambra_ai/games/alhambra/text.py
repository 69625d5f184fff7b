"""The base game's table in text: the market, the money, every seat's hand size, city and reserve, the
modules' pieces, and the scoring breakdowns (``play``, ``replay``).

Everything shown comes from the public API: an observation dict and ``score_breakdown()`` entries. The shared
pieces (cities, tiles, widths) are in ``alhambra_ai.text``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from alhambra_ai._core import (
    CURRENCY_LETTERS,
    CURRENCY_NAMES,
    TYPE_NAMES,
    tile_info,
    wall_card_sides,
)
from alhambra_ai.text import (
    ABBREV,
    LEGEND_ASCII,
    LEGEND_UNICODE,
    MIN_WIDTH,
    MODULE_COLUMNS,
    WIDTH,
    as_observation,
    card_paint,
    city_block,
    city_title,
    count,
    fit_blocks,
    seat_name,
    tile_label,
    tile_long,
    visible_len,
    wrap,
)


def _card_value(card: str) -> int:
    return int(card[1:])


def hand_by_currency(hand: Iterable[str], color: bool = False) -> str:
    """``'florin y3 y5 =8 | dirham - | denar b2 =2 | ducat -'``: cards grouped by currency with their sum."""
    hand = list(hand)
    parts = []
    for letter, name in zip(CURRENCY_LETTERS, CURRENCY_NAMES, strict=True):
        cards = sorted((c for c in hand if c[:1] == letter), key=_card_value)
        if cards:
            total = sum(_card_value(c) for c in cards)
            parts.append(f"{name} " + " ".join(card_paint(c, color) for c in cards) + f" ={total}")
        else:
            parts.append(f"{name} -")
    return " | ".join(parts)


def _scoring_line(obs: dict) -> str:
    done = obs.get("scoring_rounds_done", 0)
    if obs.get("phase") == "over":
        return "Game over: all three scoring rounds done"
    cards = {c.get("round"): c for c in obs.get("scoring_cards") or []}
    nxt = done + 1
    if nxt >= 3:
        return "Next scoring: round 3, at the end of the game"
    card = cards.get(nxt)
    where = ""
    if card and not card.get("drawn") and card.get("positions"):
        first, last = card["positions"]
        where = f", its card lies at draw-pile position {first + 1}-{last + 1} (1 = top)"
    return f"Next scoring: round {nxt}{where}"


def _change_walls_lines(obs: dict, names, you) -> list[str]:
    """The Change and Walls modules' public table: coins per seat and in the bag, face-up wall cards with the
    sides they add, and the pieces wall cards put on tiles (empty without those modules)."""
    mods = obs.get("modules") or {}
    out = []
    coins = mods.get("coins")
    if coins is not None:
        def held(row: Sequence[int]) -> str:
            return " ".join(f"{CURRENCY_LETTERS[k]}c x{v}" for k, v in enumerate(row) if v) or "none"
        seats = ", ".join(f"{seat_name(p, names, you)} {held(row)}" for p, row in enumerate(coins))
        out.append(f"Coins (value 1, pay like cards, e.g. buy 2 g4 gc): {seats}; bag {sum(mods['coin_bag'])}")
    walls = mods.get("walls")
    if walls is not None:
        up = ", ".join(f"{c} {wall_card_sides(c)}" for c in walls["face_up"]) or "none"
        line = f"Wall cards face up (wall <card> <tile>): {up}"
        placed = [f"{seat_name(p, names, you)} " + " ".join(f"{t or 'fountain'}+{w}" for t, w in row)
                  for p, row in enumerate(walls["pieces"]) if row]
        if placed:
            line += "; pieces on: " + ", ".join(placed)
        out.append(line)
    return out


def render_table(obs_like: Any, seat: int, names: Sequence[str] | None = None, unicode: bool = False,
                 color: bool = False, width: int = WIDTH, compact: bool = False,
                 hands: Sequence[Sequence[str]] | None = None) -> str:
    """Everything a player at ``seat`` (0-based) sees at the table: market, money display, their own hand,
    the other hands' sizes, every city and reserve, scores, draw pile and bag, the next scoring (and Dirk).

    ``obs_like``: a State (rendered from ``state.observation(seat)``), an Observation or an observation dict.
    ``names``: bot/player name per seat, shown as ``seat 2 (mcts)``. Every line fits in ``width`` columns
    (at least 80): long lines fold, cities stand side by side while they fit, else one under another.
    ``compact`` (a screen of about 24 lines): the seat's own city only, in narrow cells, the others as one
    line each, no legend. ``hands``: a spectator's view (a replay): every seat's hand, no seat is "you".
    """
    width = max(MIN_WIDTH, width)
    obs = as_observation(obs_like, seat)
    you = None if hands is not None else obs.get("seat", seat)
    n = obs["num_players"]
    out: list[str] = []
    rule = "=" * width if not unicode else "═" * width
    cur = obs.get("current_player", -1)
    head = f"Turn {obs.get('turn', 0) + 1}"
    if obs.get("phase") == "over":
        head += " - game over"
    elif cur is not None and cur >= 0:
        head += f" - {seat_name(cur, names, you)} to act ({obs.get('phase')} phase)"
    out += [rule, *wrap(head, width), *wrap(_scoring_line(obs), width)]

    if not compact:
        out.append("Market (slot, currency: building [walls] cost):")
    market = obs.get("market") or [None] * 4
    slots = []
    for i, tile in enumerate(market):
        cur_txt = f"{i + 1} {CURRENCY_NAMES[i]} ({CURRENCY_LETTERS[i]})"
        shown = tile_long(tile, color, cost=True) if tile is not None else "(empty)"
        slots.append(f"  {cur_txt:<13} {shown}")
    for i in range(0, len(slots), 2):
        left = slots[i]
        pad = 38 - visible_len(left)
        out.append(left + " " * max(pad, 2) + (slots[i + 1] if i + 1 < len(slots) else ""))
    display = obs.get("display") or []
    disp = " ".join(card_paint(c, color) if c else "--" for c in display) or "(empty)"
    pile = count(obs.get("draw_pile_size", 0), "card")
    discard = count(len(obs.get("discard") or []), "card")
    bag = count(obs.get("bag_size", 0), "tile")
    out += wrap(f"Money display: {disp}   draw pile: {pile}, discard: {discard}, tile bag: {bag}", width)

    scores = obs.get("scores") or [0] * n
    score_txt = ", ".join(f"{seat_name(s, names, you)} {scores[s]}" for s in range(n))
    if obs.get("dirk_score") is not None:
        score_txt += f", Dirk {obs['dirk_score']}"
    out += wrap("Scores: " + score_txt, width)

    for line in _change_walls_lines(obs, names, you):
        out += wrap(line, width)

    if hands is not None:
        for s, cards in enumerate(hands):
            out += wrap(f"{seat_name(s, names, None)} ({count(len(cards), 'card')}): "
                        + hand_by_currency(cards, color), width)
    else:
        hand = obs.get("hand") or []
        out += wrap(f"Your hand ({count(len(hand), 'card')}): " + hand_by_currency(hand, color), width)
        sizes = obs.get("hand_sizes") or []
        others = [f"{seat_name(s, names, you)} {sizes[s]}" for s in range(n) if s != you and s < len(sizes)]
        if others:
            out += wrap("Cards in other hands: " + ", ".join(others), width)
    out += [line for text in thief_residents_lines(obs, names, you) for line in wrap(text, width)]
    pending = obs.get("pending") or []
    if pending:
        who = "you" if cur == you and you is not None else seat_name(cur, names, you)
        tiles = ", ".join(tile_long(t, color) for t in pending)
        out += wrap(f"Bought this turn, to place ({who}): {tiles}", width)
    dirk = obs.get("dirk_tiles")
    if dirk is not None:
        counts = {}
        for t in dirk:
            name = tile_info(t)[0]
            counts[name] = counts.get(name, 0) + 1
        summary = ", ".join(f"{name} {counts[name]}" for name in TYPE_NAMES if name in counts) or "none"
        labels = " ".join(tile_label(t).replace(" ", "") for t in dirk)
        out += wrap(f"Dirk's tiles ({len(dirk)}): {summary} - {labels}", width)

    first = you if you is not None else seat
    order = [first] + [s for s in range(n) if s != first]
    if compact:
        out += city_block(obs, first, names, you, unicode, color, width, widest=5, margin=0)
        out += [city_title(obs, s, names, you) + " (city N to see it)" for s in order[1:]]
        return "\n".join(out).rstrip() + "\n" + rule
    out += wrap(LEGEND_UNICODE if unicode else LEGEND_ASCII, width)
    out.append("")
    blocks = [city_block(obs, s, names, you, unicode, color, width) for s in order]
    out += fit_blocks(blocks, width)
    return "\n".join(out).rstrip() + "\n" + rule


def thief_residents_lines(obs: Mapping, names: Sequence[str] | None = None,
                          you: int | None = None) -> list[str]:
    """The Thief's and the Residents' table (RULES §9.6, §9.8) as the seat ``you`` sees it: its own thieves
    and disc, the others' thief counts, the residents, the discs' cells, the supply. [] without those modules.

    >>> thief_residents_lines({"modules": {"thieves": ["y", "b"], "thief_counts": [2, 3],
    ...                                    "thieves_played": []}}, you=0)
    ['Your thieves: y b (seat 2 holds 3)']
    """
    m = obs.get("modules") or {}
    out = []
    counts = m.get("thief_counts")
    if counts is not None:
        others = ", ".join(f"{seat_name(s, names, you)} holds {k}" for s, k in enumerate(counts) if s != you)
        own = " ".join(m.get("thieves") or []) or "none"
        played = " ".join(m.get("thieves_played") or [])
        out.append(f"Your thieves: {own} ({others})" if you is not None else f"Thieves held: {others}")
        if played:
            out[-1] += f"; played: {played}"
    discs = m.get("discs")
    if discs is not None:
        if you is not None:
            cell = discs[you]["cell"]
            where = f"at {cell[0]},{cell[1]}" if cell is not None else \
                "not set up yet" if m.get("setup_left") else "lifted"
            out.append(f"Your disc ({where}): " + (", ".join(m.get("disc") or []) or "empty"))
        res = m.get("residents") or []
        out.append("Residents: " + ", ".join(
            f"{seat_name(s, names, you)} " + (" ".join(ABBREV[tile_info(t)[0]] for t in tiles) or "-")
            for s, tiles in enumerate(res)))
        supply = m.get("supply") or []
        out.append("Figures in the supply: " + " ".join(f"{ABBREV[t]} {k}" for t, k in zip(TYPE_NAMES, supply,
                                                                                           strict=False)))
    return out


def render_scoring(breakdown: Mapping | Sequence[Mapping], names: Sequence[str] | None = None,
                   you: int | None = None) -> str:
    """A scoring round (one ``score_breakdown()`` entry) or several, as a table per player::

        Scoring round 1               pav ser arc cha gar tow  wall  round
        seat 1                          1   .   .   .   5   .     4     10
    """
    if isinstance(breakdown, Mapping):
        entries = [breakdown]
    else:
        entries = list(breakdown)
    out = []
    for entry in entries:
        rnd = entry.get("round", "?")
        title = f"Scoring round {rnd}" + (" (final)" if rnd == 3 else "")
        rows = [(seat_name(s, names, you), d) for s, d in enumerate(entry.get("seats") or [])]
        if entry.get("dirk"):
            rows.append(("Dirk", entry["dirk"]))
        w = max([len(title)] + [len(r[0]) for r in rows]) + 2
        # the modules' columns (camps, bazaars, falcons, residents) appear in games with those modules only
        extra = [(k, h) for k, h in MODULE_COLUMNS if any(k in d for _n, d in rows)]
        out.append(title.ljust(w) + "".join(f"{ABBREV[t]:>4}" for t in TYPE_NAMES) + "  wall"
                   + "".join(f"{h:>5}" for _k, h in extra) + "  round")
        for name, d in rows:
            maj = d.get("majorities") or [0] * 6
            cells = "".join(f"{(str(p) if p else '.'):>4}" for p in maj)
            wall = d.get("wall")
            wall_txt = "-" if wall is None else str(wall)
            mods = "".join(f"{(str(d[k]) if k in d else '-'):>5}" for k, _h in extra)
            out.append(name.ljust(w) + cells + f"{wall_txt:>6}" + mods + f"{d.get('total', 0):>7}")
    return "\n".join(out)


def spectator(state: Any, names: Sequence[str], width: int = WIDTH) -> str:
    """The table as a spectator of a record sees it: every hand, seats by name, nobody "you" (``replay``)."""
    return render_table(state, max(state.current_player, 0), names=names, width=width,
                        hands=[state.hand(p) for p in range(state.num_players)])
