"""Plain-text rendering of cities, the table and scoring breakdowns (the terminal game, issue 6).

Everything shown comes from the public API: a ``City`` (or the ``[x, y, tile, walls]`` cells of an
observation), an observation dict and ``score_breakdown()`` entries. Nothing here knows a rule of the game.

A city is a grid with one text line per row of cells and one line per row of cell edges::

    >>> print(render_city([(0, 0, 0, 0), (1, 0, 17, 6)], margin=0))   # 17 with walls E and S
     y\\x     0       1
         +-------+-------+
       0 | FOUNT   arc17 #
         +-------+#######+

Edges: ``#`` outer wall, ``=`` / ``H`` inner wall (a wall between two tiles), ``-`` / ``|`` tile edge
without a wall, blank between two tiles = open passage. Rows are labelled with y (north on top), columns
with x (east right): the same ``x,y`` the commands use.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from alhambra_ai._core import (
    CURRENCY_LETTERS,
    CURRENCY_NAMES,
    TYPE_NAMES,
    City,
    tile_info,
    wall_card_sides,
    walls_to_text,
)

WIDTH = 100                      # the default width when the terminal's is unknown
MIN_WIDTH = 80                   # narrower requests are drawn at this width
COMPACT_HEIGHT = 40              # a terminal with fewer lines gets the compact table
CELL = 7                         # characters inside a cell (" gar33 "); 5 in the compact form
LABEL = 5                        # row-label margin ("  -2 ")
WALL_N, WALL_E, WALL_S, WALL_W = 1, 2, 4, 8

# Edge glyphs by kind: outer wall, inner wall, plain tile edge (no wall), open passage between two tiles.
_ASCII = {"outer": ("#", "#"), "inner": ("=", "H"), "plain": ("-", "|"), "open": (" ", " "),
          "none": (" ", " ")}
_UNICODE = {"outer": ("━", "┃"), "inner": ("═", "║"), "plain": ("─", "│"), "open": (" ", " "),
            "none": (" ", " ")}
# Box-drawing corners by the edges that meet there (up, right, down, left), in three weights: heavy where only
# outer walls meet, double where only inner walls meet, light otherwise.
_CORNER_KEYS = [(1, 1, 1, 1), (1, 1, 1, 0), (1, 0, 1, 1), (0, 1, 1, 1), (1, 1, 0, 1),
                (0, 1, 1, 0), (0, 0, 1, 1), (1, 1, 0, 0), (1, 0, 0, 1), (1, 0, 1, 0),
                (0, 1, 0, 1), (1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1)]
_CORNERS = {
    "light": dict(zip(_CORNER_KEYS, "┼├┤┬┴┌┐└┘│─╵╶╷╴", strict=True)),
    "heavy": dict(zip(_CORNER_KEYS, "╋┣┫┳┻┏┓┗┛┃━╹╺╻╸", strict=True)),
    "double": dict(zip(_CORNER_KEYS, "╬╠╣╦╩╔╗╚╝║═║═║═", strict=True)),
}


# ANSI colours: building types as on the tiles, currencies as on the cards.
_TYPE_COLOUR = {"pavilion": "34", "seraglio": "31", "arcades": "33", "chambers": "37", "garden": "32",
                "tower": "35", "fountain": "36", "camp": "90", "bazaar": "95"}
_CURRENCY_COLOUR = {"y": "93", "g": "32", "b": "34", "o": "38;5;208"}
_ANSI = re.compile(r"\x1b\[[0-9;]*m")

# pav ser arc cha gar tow, and the modules' camps and bazaars (unique; the play screen's labels parse back)
ABBREV = {**{name: name[:3] for name in TYPE_NAMES}, "camp": "cmp", "bazaar": "baz"}


def screen_size(width: int | None = None, tty: bool = True) -> tuple[int, int]:
    """The columns and lines to draw for: ``COLUMNS`` / ``LINES`` if set, else the terminal's when ``tty``,
    else 100 x 50; ``width`` overrides the columns; never fewer than 80 columns."""
    import os
    import shutil

    if tty or "COLUMNS" in os.environ or "LINES" in os.environ:
        cols, lines = shutil.get_terminal_size((WIDTH, 50))
    else:
        cols, lines = WIDTH, 50
    return max(MIN_WIDTH, width or cols), lines


def visible_len(text: str) -> int:
    """Length of ``text`` as the terminal shows it (ANSI colour codes take no room)."""
    return len(_ANSI.sub("", text))


def _paint(text: str, code: str | None, color: bool) -> str:
    return f"\x1b[{code}m{text}\x1b[0m" if color and code else text


def tile_label(tile: int) -> str:
    """Short cell label: ``tile_label(33) == 'gar33'``, ``tile_label(5) == 'pav 5'``, fountain ``'FOUNT'``."""
    name = tile_info(tile)[0]
    return "FOUNT" if tile == 0 else f"{ABBREV[name]}{tile:>2}"


def tile_words(tile: int) -> str:
    """``tile_words(17) == 'arcades 17'``."""
    return "fountain" if tile == 0 else f"{tile_info(tile)[0]} {tile}"


def tile_long(tile: int, color: bool = False, cost: bool = False) -> str:
    """Tile and walls (and cost): ``tile_long(17) == 'arc17 [SW]'``; with cost ``'arc17 [SW] cost 6'``."""
    name, price, walls = tile_info(tile)
    text = _paint(tile_label(tile), _TYPE_COLOUR[name], color) + f" [{walls}]"
    return text + f" cost {price}" if cost else text


def card_paint(card: str, color: bool = False) -> str:
    """A money card's text (``'g3'``), coloured by currency on request."""
    return _paint(card, _CURRENCY_COLOUR.get(card[:1]), color)


def _cells_of(city: Any) -> list[tuple[int, int, int, int]]:
    """(x, y, tile, walls) cells of a City value or of an observation's cell list."""
    cells = city.cells() if hasattr(city, "cells") else city
    return [(int(x), int(y), int(t), int(w)) for x, y, t, w in cells]


def _edge_kind(a: tuple[int, int] | None, b: tuple[int, int] | None, a_side: int, b_side: int) -> str:
    """Kind of the edge between cell ``a`` and cell ``b`` (each ``(tile, walls)`` or None when empty)."""
    if a is None and b is None:
        return "none"
    if a is not None and b is not None:
        return "inner" if (a[1] & a_side or b[1] & b_side) else "open"
    tile = a if a is not None else b
    side = a_side if a is not None else b_side
    return "outer" if tile[1] & side else "plain"


def render_city(city: Any, unicode: bool = False, color: bool = False, margin: int = 1,
                cell: int = CELL) -> str:
    """The city as a text grid (see the module docstring); ``margin`` empty cells are shown around it.

    ``city`` is a ``City`` or a list of ``(x, y, tile, walls)`` cells (as in an observation); ``cell`` is the
    width inside a cell (7, or 5 for the compact form).
    """
    cells = {(x, y): (t, w) for x, y, t, w in _cells_of(city)}
    if not cells:
        cells = {(0, 0): (0, 0)}
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    x0, x1 = min(xs) - margin, max(xs) + margin
    y0, y1 = min(ys) - margin, max(ys) + margin
    glyph = _UNICODE if unicode else _ASCII

    def edge_text(kind: str, horizontal: bool) -> str:
        ch = glyph[kind][0 if horizontal else 1]
        return _paint(ch * cell if horizontal else ch, "1", color and kind in ("outer", "inner"))

    def h_kind(x: int, y: int) -> str:          # the edge between (x, y) and (x, y - 1) below it
        return _edge_kind(cells.get((x, y)), cells.get((x, y - 1)), WALL_S, WALL_N)

    def v_kind(x: int, y: int) -> str:          # the edge between (x - 1, y) and (x, y) to its right
        return _edge_kind(cells.get((x - 1, y)), cells.get((x, y)), WALL_E, WALL_W)

    def corner(x: int, y: int) -> str:          # the corner at the top-left of cell (x, y)
        kinds = [v_kind(x, y + 1), h_kind(x, y + 1), v_kind(x, y), h_kind(x - 1, y + 1)]  # up right down left
        drawn = tuple(int(k not in ("none", "open")) for k in kinds)
        if not any(drawn):
            return " "
        if not unicode:
            return "+"
        styles = {k for k, d in zip(kinds, drawn, strict=True) if d}
        weight = "heavy" if styles == {"outer"} else "double" if styles == {"inner"} else "light"
        return _CORNERS[weight][drawn]

    head = "y\\x".rjust(LABEL - 1) + " " + "".join(" " + str(x).center(cell) for x in range(x0, x1 + 1))
    lines = [head.rstrip()]
    for y in range(y1, y0 - 2, -1):
        # The edge line above row y (for y == y0 - 1: the bottom edge of the last row).
        line = " " * LABEL
        for x in range(x0, x1 + 1):
            line += corner(x, y) + edge_text(h_kind(x, y + 1), True)
        lines.append((line + corner(x1 + 1, y)).rstrip())
        if y < y0:
            break
        line = str(y).rjust(LABEL - 1) + " "
        for x in range(x0, x1 + 1):
            line += edge_text(v_kind(x, y), False)
            here = cells.get((x, y))
            if here is None:
                line += " " * cell
            else:
                kind = "fountain" if here[0] == 0 else tile_info(here[0])[0]
                line += _paint(tile_label(here[0]).center(cell), _TYPE_COLOUR[kind], color)
        lines.append((line + edge_text(v_kind(x1 + 1, y), False)).rstrip())
    # The edge lines above the first and below the last row are blank when those rows are an empty margin.
    if len(lines) > 1 and not lines[1]:
        del lines[1]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


LEGEND_ASCII = "walls: # outer wall, = H inner wall (between two tiles), - | tile edge, blank = open"
LEGEND_UNICODE = "walls: ━ ┃ outer wall, ═ ║ inner wall (between two tiles), ─ │ tile edge, blank = open"


# ----------------------------------------------------------------------------------------------------------
# The table


def _as_dict(obj: Any, seat: int) -> dict:
    """An observation dict from a State (``state.observation(seat)``), an Observation or a dict."""
    if isinstance(obj, Mapping):
        return dict(obj)
    if hasattr(obj, "to_dict"):
        return obj.to_dict()
    return obj.observation(seat)


def seat_name(seat: int, names: Sequence[str] | None, you: int | None) -> str:
    """``'seat 2 (mcts)'``; the human's seat reads ``'you (seat 1)'``. Seats are 0-based in, 1-based out."""
    if seat == you:
        return f"you (seat {seat + 1})"
    if names and seat < len(names) and names[seat]:
        return f"seat {seat + 1} ({names[seat]})"
    return f"seat {seat + 1}"


def count(n: int, noun: str) -> str:
    """``count(1, 'card') == '1 card'``, ``count(2, 'card') == '2 cards'``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


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


def fit_blocks(blocks: list[list[str]], width: int, gap: int = 3) -> list[str]:
    """Lay text blocks side by side while they fit in ``width``, else one under another."""
    out: list[str] = []
    row: list[list[str]] = []
    row_width = 0

    def flush() -> None:
        if not row:
            return
        widths = [max(visible_len(line) for line in b) for b in row]
        for i in range(max(len(b) for b in row)):
            parts = []
            for b, w in zip(row, widths, strict=True):
                line = b[i] if i < len(b) else ""
                parts.append(line + " " * (w - visible_len(line)))
            out.append((" " * gap).join(parts).rstrip())
        out.append("")

    for block in blocks:
        w = max(visible_len(line) for line in block)
        if row and row_width + gap + w > width:
            flush()
            row, row_width = [], 0
        row_width = w if not row else row_width + gap + w
        row.append(block)
    flush()
    return out


def city_title(obs: dict, seat: int, names, you) -> str:
    """``seat 2 (mcts): 5 buildings, wall 3``."""
    cells = obs["cities"][seat]
    built = sum(1 for c in cells if c[2] != 0)
    title = f"{seat_name(seat, names, you)}: {count(built, 'building')}"
    wall = _wall_length(cells)
    return title if wall is None else title + f", wall {wall}"


def city_block(obs: dict, seat: int, names, you, unicode: bool, color: bool, width: int,
               widest: int = CELL, margin: int = 1) -> list[str]:
    """Seat ``seat``'s city as the table draws it: its title, the grid (compact cells when the full ones do
    not fit ``width``) and its reserve."""
    cells = obs["cities"][seat]
    reserve = (obs.get("reserves") or [[]] * (seat + 1))[seat]
    title = city_title(obs, seat, names, you)
    for cell in sorted({widest, 5}, reverse=True):    # the compact cells only when the full ones do not fit
        grid = render_city(cells, unicode=unicode, color=color, cell=cell, margin=margin).split("\n")
        wide = max(visible_len(line) for line in grid)
        if wide <= width:
            break
    block = [title]
    if wide > width:
        block.append(f"(this city is {wide} columns wide, more than {width}: "
                     "widen the terminal to see it whole)")
    block += grid
    res = "reserve: " + (", ".join(tile_long(t, color) for t in reserve) if reserve else "empty")
    block += wrap(res, max(wide, 40) if wide <= width else width, indent="  ")
    return block


def _wall_length(cells: Any) -> int | None:
    """The longest outer wall, from the engine's City (None if the cells do not make a City)."""
    try:
        text = " ".join(f"{x},{y}:{t}/{walls_to_text(w)}" for x, y, t, w in _cells_of(cells))
        return City.from_text(text).wall_score()
    except Exception:  # a display helper: a city the engine cannot read is still drawn, without its wall
        return None


def wrap(text: str, width: int, indent: str = "    ") -> list[str]:
    """Word wrap by visible width (colour codes take no room), breaking after ``,`` ``|`` ``:`` ``=N`` where
    possible so that items stay whole, else at any space; continuation lines are indented."""
    pieces = []
    for chunk in re.split(r"(?<=[,|:]) |(?<==\d) |(?<==\d\d) ", text):
        if visible_len(chunk) > width - len(indent):
            pieces += chunk.split(" ")
        else:
            pieces.append(chunk)
    lines, line = [], ""
    for piece in pieces:
        candidate = f"{line} {piece}" if line else piece
        if line.strip() and visible_len(candidate) > width:
            lines.append(line)
            line = indent + piece
        else:
            line = candidate
    lines.append(line)
    return lines


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
    obs = _as_dict(obs_like, seat)
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


# ----------------------------------------------------------------------------------------------------------
# Scoring


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


MODULE_COLUMNS = (("camps", "camp"), ("bazaars", "bzr"), ("falcons", "flc"), ("residents", "res"))


def summed_breakdown(breakdown: Sequence[Mapping], seat: int | str) -> dict:
    """One seat's points (or ``"dirk"``'s) summed over the scoring rounds of ``score_breakdown()``: per
    building type, walls, and each module that scored.

    >>> summed_breakdown([{"seats": [{"majorities": [1, 0, 0, 0, 0, 0], "wall": 2, "camps": 1}]},
    ...                   {"seats": [{"majorities": [8, 0, 0, 0, 0, 1], "wall": 3}]}], 0)
    {'majorities': [9, 0, 0, 0, 0, 1], 'wall': 5, 'camps': 1}
    """
    sums: dict = {"majorities": [0] * 6, "wall": 0}
    for entry in breakdown:
        seats = entry.get("seats") or []
        d = (entry.get("dirk") or {}) if seat == "dirk" else seats[seat] if seat < len(seats) else {}
        sums["majorities"] = [a + b for a, b in zip(sums["majorities"], d.get("majorities") or [0] * 6,
                                                    strict=True)]
        sums["wall"] += d.get("wall") or 0
        for k, _h in MODULE_COLUMNS:
            if k in d:
                sums[k] = sums.get(k, 0) + d[k]
    return sums


def render_totals(breakdown: Sequence[Mapping], scores: Sequence[int], ranking: Sequence[int] | None = None,
                  names: Sequence[str] | None = None, you: int | None = None,
                  dirk_score: int | None = None) -> str:
    """Every seat's points so far, summed over the scoring rounds done: per building type, walls and each
    module, best first when ``ranking`` is given (the end screen; ``scores`` in play)::

        After 3 rounds      pav ser arc cha gar tow  wall  total
        1. seat 2 (mcts)     16   2  10   4   5  17    12    112
    """
    rounds = len(breakdown)
    seats = range(len(scores))
    rows = []
    for seat in sorted(seats, key=lambda p: (ranking[p], p)) if ranking else seats:
        label = (f"{ranking[seat]}. " if ranking else "") + seat_name(seat, names, you)
        rows.append((label, summed_breakdown(breakdown, seat), scores[seat]))
    if dirk_score is not None:
        rows.append(("(Dirk, not ranked)" if ranking else "Dirk", summed_breakdown(breakdown, "dirk"),
                     dirk_score))
    title = f"After {count(rounds, 'round')}" if rounds else "No scoring yet"  # short: 4 module columns fit
    extra = [(k, h) for k, h in MODULE_COLUMNS if any(k in d for _n, d, _t in rows)]
    w = max([len(title)] + [len(r[0]) for r in rows]) + 2
    out = [title.ljust(w) + "".join(f"{ABBREV[t]:>4}" for t in TYPE_NAMES) + "  wall"
           + "".join(f"{h:>5}" for _k, h in extra) + "  total"]
    for name, d, total in rows:
        cells = "".join(f"{(str(p) if p else '.'):>4}" for p in d["majorities"])
        mods = "".join(f"{(str(d[k]) if k in d else '-'):>5}" for k, _h in extra)
        out.append(name.ljust(w) + cells + f"{d['wall']:>6}" + mods + f"{total:>7}")
    return "\n".join(out)


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
