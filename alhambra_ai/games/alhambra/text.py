"""The base game's table in text: the market, the money, every seat's hand size, city and reserve, the
modules' pieces, and the scoring breakdowns (``play``, ``replay``).

Everything shown comes from the public API: an observation dict and ``score_breakdown()`` entries. The shared
pieces (cities, tiles, widths) are in ``alhambra_ai.terminal.text``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from alhambra_ai._core import (
    CURRENCY_LETTERS,
    CURRENCY_NAMES,
    TYPE_NAMES,
    majority_points,
    majority_shares,
    tile_info,
)
from alhambra_ai.games.alhambra.modules import SCORE_COLUMNS, in_play
from alhambra_ai.terminal.text import (
    ABBREV,
    CUT,
    LEGEND_ASCII,
    LEGEND_TINY,
    LEGEND_UNICODE,
    MIN_WIDTH,
    WIDTH,
    as_observation,
    card_paint,
    city_block,
    city_title,
    city_whole,
    clip,
    clip_event,
    count,
    fit_blocks,
    fit_city,
    render_city_tiny,
    render_totals,
    seat_name,
    short_seat,
    tile_label,
    tile_long,
    visible_len,
    wall_length,
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


def type_counts(tiles: Iterable[int]) -> list[int]:
    """Buildings of each type (TYPE_NAMES order) among ``tiles``: the fountain, camps and bazaars are none.

    >>> type_counts([0, 17, 18, 33, 63])
    [0, 0, 2, 0, 1, 0]
    """
    counts = [0] * len(TYPE_NAMES)
    for t in tiles:
        name = tile_info(t)[0]
        if name in TYPE_NAMES:
            counts[TYPE_NAMES.index(name)] += 1
    return counts


def majority_rows(obs: Mapping[str, Any]) -> list[list[int]]:
    """Buildings per type in each seat's city (reserves never count), then Dirk's tiles' where he plays: the
    rows the majorities are scored over."""
    rows = [type_counts(cell[2] for cell in cells) for cells in obs["cities"]]
    if obs.get("dirk_tiles") is not None:
        rows.append(type_counts(obs["dirk_tiles"]))
    return rows


_PLACES = ("1st", "2nd", "3rd")
_BODY_MIN = 8         # the decision screen's lines for the city and the news before it drops the pays line
_LABEL_MIN = 9        # "Buildings" over the labels, "Round 3: 1st/2nd/3rd" over the labels and two columns


def _count_cell(count: int, lead: bool, color: bool) -> str:
    """A building count in 8 columns, ``*`` after the most of a type (bold with ``color``)."""
    if not lead:
        return f"{(str(count) if count else '.'):>7} "
    mark = f"{count}*"
    return " " * (8 - len(mark)) + (f"\x1b[1m{mark}\x1b[0m" if color else mark)


def majority_table(obs: Mapping[str, Any], names: Sequence[str] | None = None, you: int | None = None,
                   width: int = WIDTH, pays: bool = True, long_names: bool = False,
                   color: bool = False) -> list[str]:
    """The majorities at a glance (issue 55): a row per seat (and Dirk) with its score, its cards in hand,
    its buildings of each type (``*``: the most of that type, ties all marked), its longest outer wall and
    the majority points the next scoring would give it now (``now``, the core's ``majority_shares``:
    shared places split their points, rounded down); then the next scoring's points per place (``pays``).
    Once the game is over, the final counts and what scoring round 3 gave (``got``).

    >>> from alhambra_ai import new_game
    >>> print("\\n".join(majority_table(new_game(3, 1).observation(0), you=0)))
    Buildings score cards    pav     ser     arc     cha     gar     tow  wall  now
    you           0     6      .       .       .       .       .       .     0    .
    s2            0     5      .       .       .       .       .       .     0    .
    s3            0     3      .       .       .       .       .       .     0    .
    Round 1: 1st               1       2       3       4       5       6
    """
    n = obs["num_players"]
    over = obs.get("phase") == "over"
    rnd = min(3, obs.get("scoring_rounds_done", 0) + (0 if over else 1))
    rows = majority_rows(obs)
    shares = majority_shares(rows, rnd)
    best = [max(row[t] for row in rows) for t in range(len(TYPE_NAMES))]
    scores = obs.get("scores") or [0] * n
    sizes = obs.get("hand_sizes") or []
    walls = [wall_length(cells) for cells in obs["cities"]]
    label_sets = ([[seat_name(p, names, you) for p in range(n)]] if long_names else []) + [
        [short_seat(p, names, you) for p in range(n)], [short_seat(p, None, you) for p in range(n)]]
    for labels in label_sets:
        w = max(_LABEL_MIN, *map(len, labels))
        if w + 70 <= width:
            break
    head = ("Buildings".ljust(w) + f"{'score':>6}{'cards':>6}"
            + "".join(f"{ABBREV[t]:>7} " for t in TYPE_NAMES) + f"{'wall':>5}{'got' if over else 'now':>5}")
    out = [head]
    for i, row in enumerate(rows):
        dirk = i == n
        label = "Dirk" if dirk else labels[i]
        score = obs.get("dirk_score") if dirk else scores[i]
        cards = "-" if dirk else str(sizes[i]) if i < len(sizes) else "?"
        wall = "-" if dirk or walls[i] is None else str(walls[i])
        cells = "".join(_count_cell(c, bool(c) and c == best[t], color) for t, c in enumerate(row))
        now = sum(shares[i])
        out.append(label.ljust(w) + f"{score or 0:>6}{cards:>6}" + cells + f"{wall:>5}"
                   + f"{(f'+{now}' if now else '.'):>5}")
    if pays:
        points = majority_points()[rnd - 1]
        out.append(f"Round {rnd}: {'/'.join(_PLACES[:rnd])}".ljust(w + 12)
                   + "".join(f"{'/'.join(map(str, points[t])):>7} " for t in range(len(TYPE_NAMES))).rstrip())
    return [line.rstrip() for line in out]


def render_table(obs_like: Any, seat: int, names: Sequence[str] | None = None, unicode: bool = False,
                 color: bool = False, width: int = WIDTH, compact: bool = False,
                 hands: Sequence[Sequence[str]] | None = None) -> str:
    """Everything a player at ``seat`` (0-based) sees at the table: market, money display, their own hand,
    the other hands' sizes, every city and reserve, scores, draw pile and bag, the next scoring (and Dirk).

    ``obs_like``: a State (rendered from ``state.observation(seat)``), an Observation or an observation dict.
    ``names``: bot/player name per seat, shown as ``seat 2 (mcts)``. Every line fits in ``width`` columns
    (at least 80): long lines fold, cities stand side by side while they fit, else one under another.
    ``compact`` (a screen of about 24 lines): the seat's own city only, in narrow cells, the others' in the
    majority table (buildings, wall) and one line naming ``city N``, no legend. ``hands``: a spectator's view
    (a replay): every seat's hand, no seat is "you". The majority table (``majority_table``) stands in for
    a line of scores.
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
    if compact:     # one line: a short screen (the counts' nouns are the full table's)
        out += wrap(f"Money display: {disp} | draw pile {obs.get('draw_pile_size', 0)}, discard "
                    f"{len(obs.get('discard') or [])}, tile bag {obs.get('bag_size', 0)}", width)
    else:
        out += wrap(f"Money display: {disp}   draw pile: {pile}, discard: {discard}, tile bag: {bag}", width)

    out += majority_table(obs, names, you, width, long_names=True, color=color)

    for line in module_table_lines(obs, names, you):
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
        if others and not compact:      # (compact: the majority table's cards column)
            out += wrap("Cards in other hands: " + ", ".join(others), width)
    out += [line for text in module_hand_lines(obs, names, you) for line in wrap(text, width)]
    pending = obs.get("pending") or []
    if pending:
        who = "you" if cur == you and you is not None else seat_name(cur, names, you)
        tiles = ", ".join(tile_long(t, color) for t in pending)
        out += wrap(f"Bought this turn, to place ({who}): {tiles}", width)
    dirk = obs.get("dirk_tiles")
    if dirk is not None:
        counts: dict[str, int] = {}
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
        if order[1:]:       # their buildings and walls are in the majority table
            which = " or ".join(f"city {s + 1}" for s in order[1:])
            out += wrap(f"The other cities: type {which} to see one." if len(order) > 2 else
                        f"The other city: type {which} to see it.", width)
        return "\n".join(out).rstrip() + "\n" + rule
    out += wrap(LEGEND_UNICODE if unicode else LEGEND_ASCII, width)
    out.append("")
    blocks = [city_block(obs, s, names, you, unicode, color, width) for s in order]
    out += fit_blocks(blocks, width)
    return "\n".join(out).rstrip() + "\n" + rule


def module_words(obs: Mapping, names: Sequence[str] | None = None, you: int | None = None) -> list[str]:
    """The state of the modules in play in few words, one item each (the decision screen joins them with
    ``|``): each module's ``screen_words`` (the vizier, the bazaars and falcons waiting, camps left, coins,
    wall cards, thieves, the residents' disc), in the rulebook's order."""
    return [item for m in in_play(obs.get("options")) for item in m.screen_words(obs, names, you)]


def module_table_lines(obs: Mapping, names: Sequence[str] | None = None, you: int | None = None) -> list[str]:
    """The public table of the modules in play as the seat ``you`` sees it (each module's ``table_lines``:
    coins, the wall cards face up, ...); [] without modules."""
    return [line for m in in_play(obs.get("options")) for line in m.table_lines(obs, names, you)]


def module_hand_lines(obs: Mapping, names: Sequence[str] | None = None, you: int | None = None) -> list[str]:
    """What the modules in play put beside the hands (each module's ``hand_lines``: the seat's own thieves
    and disc, the others' counts, the residents), as the seat ``you`` sees it; [] without modules.

    >>> obs = {"options": {"thief": True},
    ...        "modules": {"thieves": ["y", "b"], "thief_counts": [2, 3], "thieves_played": []}}
    >>> module_hand_lines(obs, you=0)
    ['Your thieves: y b (seat 2 holds 3)']
    """
    return [line for m in in_play(obs.get("options")) for line in m.hand_lines(obs, names, you)]


def market_lines(obs: Mapping[str, Any], width: int, color: bool = False) -> list[str]:
    """The market with prices, two slots a line (one where two do not fit ``width``), and the money display
    with the draw pile and the bag: what a decision is chosen from, on the player's and the spectator's
    screens.

    >>> from alhambra_ai import new_game
    >>> [line[:22] for line in market_lines(new_game(2, 1).observation(0), 80)]
    ['Market 1 florin (y) ga', '       3 denar (b) cha', 'Money display: b4 o6 o']
    """
    slots = []
    for i, tile in enumerate(obs.get("market") or [None] * 4):
        shown = tile_long(tile, color, cost=True) if tile is not None else "(empty)"
        slots.append(f"{i + 1} {CURRENCY_NAMES[i]} ({CURRENCY_LETTERS[i]}) {shown}")
    half = max(visible_len(x) for x in slots[0::2]) + 3
    lines: list[str] = []
    for k, first in enumerate(("Market ", "       ")):
        pair = slots[2 * k:2 * k + 2]
        line = first + pair[0] + " " * (half - visible_len(pair[0])) + (pair[1] if len(pair) > 1 else "")
        lines += [line] if visible_len(line) <= width else [first + pair[0], "       " + pair[1]]
    display = " ".join(card_paint(c, color) if c else "--" for c in obs.get("display") or []) or "(empty)"
    return lines + wrap(f"Money display: {display} | draw pile {obs.get('draw_pile_size', 0)}, "
                        f"tile bag {obs.get('bag_size', 0)}", width)


def render_screen(obs_like: Any, seat: int, names: Sequence[str] | None = None, width: int = 80,
                  height: int = 24, events: Sequence[str] = (), unicode: bool = False,
                  color: bool = False, asking: str = "") -> list[str]:
    """The decision screen of ``play`` (issue 44): at most ``height`` lines of at most ``width`` columns
    holding the turn line, the market with prices, the money display, the seat's hand, the majority table
    (``majority_table``: scores, cards, buildings per type with the leaders, walls, what the next scoring
    would give; its points per place unless the screen is too short for them), the modules in few words,
    the seat's city and reserve, and ``events`` (what the others
    did since the seat's last move, one line each). A wide screen adds the other cities beside the seat's
    own while they fit. Lines for the prompt and messages are the caller's: ``height`` excludes them.
    ``asking``: what the prompt asks in the window between turns (``between turns: thief, or done``), said
    on the turn line instead of "to act".

    >>> from alhambra_ai import new_game
    >>> lines = render_screen(new_game(2, 1), 0, ["", "random"], 80, 21, ["Seat 2 (random): takes y3."])
    >>> len(lines) <= 21 and max(map(len, lines)) <= 80 and lines[0].startswith("Turn 1")
    True
    """
    obs = as_observation(obs_like, seat)
    you = obs.get("seat", seat)
    cur = obs.get("current_player", -1)
    head: list[str] = []
    turn = f"Turn {obs.get('turn', 0) + 1}"
    if obs.get("phase") == "over":
        turn += ": game over"
    elif obs.get("phase") == "interrupt" and cur is not None and cur >= 0:
        what = asking.partition(": ")[2] or "a piece there, or done"
        turn = (f"Between turns after turn {obs.get('turn', 0) + 1}: "
                f"{short_seat(cur, names, you)} may use {what}")
    elif cur is not None and cur >= 0:
        turn += f": {short_seat(cur, names, you)} to act"
    nxt = _scoring_line(obs).replace(", its card lies at draw-pile position", ", card at pile")
    line = f"{turn} | {nxt}"
    if len(line) > width and obs.get("phase") == "interrupt":     # one line, the window's words first
        short = nxt.replace("Next scoring: round ", "scoring ").replace(", card", "")
        turn = turn.replace(f" after turn {obs.get('turn', 0) + 1}", "")
        line = f"{turn} | {short.replace(' (1 = top)', '')}"
        line = line if len(line) <= width else turn
    head += wrap(line, width)
    if obs.get("phase") == "final" and all(t is None for t in obs.get("market") or []):
        display = " ".join(card_paint(c, color) if c else "--" for c in obs.get("display") or []) or "(empty)"
        head += wrap(f"Market 1 to 4 empty (leftovers given out) | Money display: {display}", width)
    else:
        head += market_lines(obs, width, color)
    hand = obs.get("hand") or []
    cards = wrap(f"Your hand ({count(len(hand), 'card')}): " + hand_by_currency(hand, color), width)
    if len(cards) > 2:      # a hoard: cards and sum per currency ('table' lists every card)
        per = {letter: [_card_value(c) for c in hand if c[0] == letter] for letter in CURRENCY_LETTERS}
        sums = " | ".join(f"{name} {len(per[k])} cards ={sum(per[k])}" if per[k] else f"{name} -"
                          for k, name in zip(CURRENCY_LETTERS, CURRENCY_NAMES, strict=True))
        cards = wrap(f"Your hand ({len(hand)} cards, table: each): {sums}", width)
    table = majority_table(obs, names, you, width, color=color)    # scores, cards, majorities (issue 55)
    pending = obs.get("pending") or []
    place: list[str] = []
    if pending:
        who = "you" if cur == you else short_seat(cur, names, you)
        place = wrap(f"To place ({who}): " + ", ".join(tile_long(t, color) for t in pending), width)
    mods = module_words(obs, names, you)
    mod_lines = wrap(" | ".join(mods), width, indent="  ") if mods else []
    hoard = []
    if len(cards) > 1:      # the hand in one line, cards and sum per currency, when the city needs the room
        per = {letter: [_card_value(c) for c in hand if c[0] == letter] for letter in CURRENCY_LETTERS}
        hoard = wrap(f"Your hand ({len(hand)} cards): " + " | ".join(
            f"{CURRENCY_NAMES[k]} ={sum(per[x])}" if per[x] else f"{CURRENCY_NAMES[k]} -"
            for k, x in enumerate(CURRENCY_LETTERS)), width)
    # The richest screen first; while the own city or the news do not fit whole, the header gives up room:
    # the points per place (on the table page), the modules' line (beside the city), the hand's single cards,
    # then the modules' words (on the table page)
    body: list[str] = []
    for level in range(5):
        pays = level == 0
        top = [*head, *(hoard if level >= 3 and hoard and len(hoard) < len(cards) else cards),
               *(table if pays else table[:-1]), *place, *(mod_lines if level < 2 else [])]
        room = height - len(top)
        if pays and room < _BODY_MIN:   # a short screen: the next scoring's points per place on the table
            continue
        body, whole = _screen_body(obs, you, names, width, room, list(events), unicode, color,
                                   side_extra=mods if 2 <= level < 4 else [])
        if whole:
            break
    return top + body


def cities_beside(obs: dict, city: list[str], others: Sequence[int], names, you: int | None, width: int,
                  room: int, unicode: bool, color: bool) -> tuple[list[list[str]], list[int], int]:
    """``city`` (drawn) and, while they fit in ``width`` whole, the ``others``' cities beside it in narrow
    cells: a wide screen's cities. Returns the blocks, the seats of the others drawn, and the width used."""
    blocks, drawn, used = [city], [], max(visible_len(x) for x in city)
    for p in others:
        other = fit_city(obs, p, names, you, width - used - 3, room, unicode, color, margins=(0,))
        w = max(visible_len(x) for x in other)
        if used + 3 + w > width or CUT in other or any(x.endswith("...") for x in other):
            break       # (only whole cities stand beside the own)
        blocks.append(other)
        drawn.append(p)
        used += 3 + w
    return blocks, drawn, used


def _screen_body(obs: dict, you: int, names, width: int, room: int, events: list[str], unicode: bool,
                 color: bool, side_extra: Sequence[str] = ()) -> tuple[list[str], bool]:
    """The seat's city beside the events (below them when the city leaves too little room), and, while they
    fit, the other cities beside it; ``side_extra`` (the modules' words) below the events. Returns the lines
    and whether the city and every event line are on them whole."""
    if room <= 0:
        return [], False
    title = "Since your last move:" if events else "Nothing happened since your last move."
    for side_min in (34, 22):       # the events' column: a narrower one beside a wide city
        city = fit_city(obs, you, names, you, width - side_min - 3, room, unicode, color)
        whole = city_whole(city)
        if whole or side_min == 22:
            break
    if max(visible_len(x) for x in city) <= width - side_min - 3 and not city[-1].endswith("..."):
        others = [p for p in range(obs["num_players"]) if p != you]
        blocks, _drawn, used = cities_beside(obs, city, others, names, you, width - side_min - 3, room,
                                             unicode, color)
        side = width - used - 3
        extra = [x for item in side_extra for x in wrap(item, side, indent="  ")]
        fits = room - 1 - len(extra)
        shown = events[-fits:] if fits > 0 else []
        lines = [x.replace("\xa0", " ") for e in shown                            # whole while they fit
                 for x in wrap(e.strip().replace(": ", ":\xa0", 1), side, indent="  ")]   # (seat and move)
        if len(lines) > fits or max((visible_len(x) for x in lines), default=0) > side:
            lines = [clip_event(e.strip(), side) for e in shown]
        blocks.append([title, *lines, *extra] if len(events) <= fits else
                      [f"Since your last move ({len(events) - len(shown)} earlier: log):", *lines, *extra])
        out = fit_blocks(blocks, width)
        while out and not out[-1].strip():
            out.pop()
        if whole and len(events) <= fits and len(out) <= room:
            return out, True
        tall = _tall_city(obs, you, names, width, room, events, title)
        return (tall, not side_extra) if tall else (out[:room], False)
    # A tall city: its grid alone on the left, its title and reserve above the events beside it
    tall = _tall_city(obs, you, names, width, room, events, title)
    if tall:
        return tall, not side_extra
    # A narrow screen: the events full width above the city (the last few when the city needs the room).
    extra = [" | ".join(side_extra)] if side_extra else []
    for n_ev in dict.fromkeys((len(events), min(len(events), max(1, room // 4), 4))):
        ev = [title, *(clip_event(e.strip(), width) for e in events[-n_ev:])] if n_ev else [title]
        mods = [clip(x, width) for x in extra]
        city = fit_city(obs, you, names, you, width, room - len(ev) - len(mods), unicode, color)
        whole = city_whole(city) and n_ev == len(events)
        if whole:
            break
    return (ev + city + mods)[:room], whole and not any(x.endswith("...") for x in mods)


def _tall_city(obs: dict, you: int, names, width: int, room: int, events: list[str],
               title: str) -> list[str] | None:
    """The city's narrowest drawing (one line per row) with its title, reserve and legend beside it, above
    the events: for a city taller than the room left under the header; None when it does not fit."""
    cells = obs["cities"][you]
    grid = render_city_tiny(cells).split("\n")
    side = width - max(visible_len(x) for x in grid) - 3
    if len(grid) > room or side < 22:
        return None
    reserve = (obs.get("reserves") or [[]] * (you + 1))[you]
    res = "reserve: " + (", ".join(tile_long(t) for t in reserve) if reserve else "empty")
    head = city_title(obs, you, names, you)
    head = head if len(head) <= side else head.replace(f"you (seat {you + 1})", "you")
    column = [*wrap(head, side, indent="  "), *wrap(res, side, indent="  ")]
    news = [title, *(clip_event(e.strip(), side) for e in events)]
    if len(column) + len(news) > room:
        return None
    legend = wrap(LEGEND_TINY, side, indent="  ")
    if len(column) + len(legend) + len(news) <= room:
        column += legend
    out = fit_blocks([grid, column + news], width)
    while out and not out[-1].strip():
        out.pop()
    return out if len(out) <= room else None      # (side by side, not one under the other)


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
        extra = [(k, h) for k, h in SCORE_COLUMNS if any(k in d for _n, d in rows)]
        columns = ("".join(f"{ABBREV[t]:>4}" for t in TYPE_NAMES) + "  wall"
                   + "".join(f"{h:>5}" for _k, h in extra) + "  round")
        if w + len(columns) > MIN_WIDTH:      # (a long title with every module: the title on its own line)
            w = max(len(r[0]) for r in rows) + 2
            out.append(title)
            title = ""
        out.append(title.ljust(w) + columns)
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


def score_table(state: Any, names: Sequence[str] | None = None, you: int | None = None,
                final: bool = False) -> str:
    """Every seat's points so far (``scores``, the end screen, ``replay``'s scores): per building type, the
    wall and each module's column, summed over the scoring rounds (``render_totals``); best first when
    ``final``."""
    return render_totals(state.score_breakdown(), state.scores(), state.ranking() if final else None, names,
                         you, state.dirk_score, SCORE_COLUMNS)
