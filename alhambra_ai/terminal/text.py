"""The text view's shared parts: the terminal's size, widths and wrapping, seats' names, tiles and cities in
text. Both game families draw cities (Alcazaba's are the base game's), so cities are drawn here; each
family's own table is its package's ``text.py``.

Everything shown comes from the public API: a ``City`` (or the ``[x, y, tile, walls]`` cells of an
observation) and observation dicts. Nothing here knows a rule of the game.

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

import os
import re
import shutil
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Literal

from alhambra_ai._core import (
    TYPE_NAMES,
    City,
    tile_info,
    walls_to_text,
)

WIDTH = 80                       # the default width when the terminal's is unknown (a pipe, a file)
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
_CORNER_KEYS: list[tuple[int, ...]] = [(1, 1, 1, 1), (1, 1, 1, 0), (1, 0, 1, 1), (0, 1, 1, 1), (1, 1, 0, 1),
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
    else 80 x 50 (a pipe or a file: ``WIDTH``, the conventional width); ``width`` overrides the columns;
    never fewer than 80 columns."""
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
    if a is not None and b is not None:
        return "inner" if (a[1] & a_side or b[1] & b_side) else "open"
    if a is not None:
        return "outer" if a[1] & a_side else "plain"
    if b is not None:
        return "outer" if b[1] & b_side else "plain"
    return "none"


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


def render_city_dense(city: Any, margin: int = 0) -> str:
    """The city in one text line per row of cells, for a screen too short for the grid: a cell is its tile
    (``gar33``) followed by its north and south walls (``N``, ``S``); east and west walls stand between the
    cells as in the grid (``#`` outer, ``H`` inner, ``|`` edge, blank open)::

        >>> print(render_city_dense([(0, 0, 0, 0), (1, 0, 17, 6)]))   # 17 with walls E and S
         y\\x     0       1
           0 |FOUNT   arc17 S#
    """
    return _city_lines(city, margin, 7, tile_label)


def render_city_tiny(city: Any, margin: int = 0) -> str:
    """The narrowest drawing: one text line per row, a cell its building type in three letters (``FNT`` the
    fountain) and its north and south walls (``N``, ``S``), east and west walls between the cells as in
    ``render_city_dense``: six columns a cell, for a city that is wide on a narrow screen (the tile numbers
    are in ``city N``)::

        >>> print(render_city_tiny([(0, 0, 0, 0), (1, 0, 17, 6)]))   # 17 with walls E and S
         y\\x    0     1
           0 |FNT   arc S#
    """
    return _city_lines(city, margin, 5, lambda t: "FNT" if t == 0 else ABBREV[tile_info(t)[0]])


def _city_lines(city: Any, margin: int, cell: int, label: Callable[[int], str]) -> str:
    """One text line per row of cells: each cell ``label(tile)`` and its north and south walls in ``cell``
    columns, the east and west walls between the cells (render_city_dense, render_city_tiny)."""
    cells = {(x, y): (t, w) for x, y, t, w in _cells_of(city)} or {(0, 0): (0, 0)}
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    x0, x1 = min(xs) - margin, max(xs) + margin
    y0, y1 = min(ys) - margin, max(ys) + margin

    def v_edge(x: int, y: int) -> str:          # the edge between (x - 1, y) and (x, y)
        return _ASCII[_edge_kind(cells.get((x - 1, y)), cells.get((x, y)), WALL_E, WALL_W)][1]

    head = "y\\x".rjust(LABEL - 1) + " " + "".join(" " + str(x).center(cell) for x in range(x0, x1 + 1))
    lines = [head.rstrip()]
    for y in range(y1, y0 - 1, -1):
        line = str(y).rjust(LABEL - 1) + " "
        for x in range(x0, x1 + 1):
            here = cells.get((x, y))
            text = " " * cell
            if here is not None:
                t, w = here
                text = label(t) + ("N" if w & WALL_N else " ") + ("S" if w & WALL_S else " ")
            line += v_edge(x, y) + text
        lines.append((line + v_edge(x1 + 1, y)).rstrip())
    return "\n".join(lines)


LEGEND_DENSE = "N S after a tile: its walls north, south; # outer wall, H inner, | edge"
LEGEND_TINY = "N S: walls north, south; # outer wall, H inner, | edge; FNT fountain"


LEGEND_ASCII = "walls: # outer wall, = H inner wall (between two tiles), - | tile edge, blank = open"
LEGEND_UNICODE = "walls: ━ ┃ outer wall, ═ ║ inner wall (between two tiles), ─ │ tile edge, blank = open"


# ----------------------------------------------------------------------------------------------------------
# Seats, cities and fitting text to the screen


def as_observation(obj: Any, seat: int) -> dict:
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


def short_seat(seat: int, names: Sequence[str] | None, you: int | None) -> str:
    """``you``, ``s2 mcts``: a seat in the screen's few words."""
    if seat == you:
        return "you"
    name = names[seat] if names and seat < len(names) and names[seat] else ""
    return f"s{seat + 1} {name}".rstrip()


def winner_words(state: Any, names: Sequence[str]) -> str:
    """``'s1 greedy wins with 96'``, ``'s1 a and s3 c share the win with 80'`` (Dirk is never ranked)."""
    ranking, scores = list(state.ranking()), list(state.scores())
    first = [p for p in range(len(ranking)) if ranking[p] == 1]
    who = " and ".join(f"s{p + 1} {names[p]}".rstrip() if p < len(names) else f"s{p + 1}" for p in first)
    return f"{who} {'wins' if len(first) == 1 else 'share the win'} with {scores[first[0]]}"


def count(n: int, noun: str) -> str:
    """``count(1, 'card') == '1 card'``, ``count(2, 'card') == '2 cards'``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


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
    wall = wall_length(cells)
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
    legend: list[str] = []
    for draw, words in ((render_city_dense, LEGEND_DENSE), (render_city_tiny, LEGEND_TINY)):
        if wide > width:        # one line per row (tile numbers, then types only) before a cut
            grid = draw(cells, margin=margin).split("\n")
            wide = max(visible_len(line) for line in grid)
            legend = wrap(words, width, indent="  ")
    block = [title]
    if wide > width:
        block.append(f"(this city is {wide} columns wide, more than {width}: "
                     "widen the terminal to see it whole)")
    block += grid + legend
    res = "reserve: " + (", ".join(tile_long(t, color) for t in reserve) if reserve else "empty")
    block += wrap(res, max(wide, 40) if wide <= width else width, indent="  ")
    return block


def fit_city(obs: dict, seat: int, names, you, width: int, height: int, unicode: bool = False,
             color: bool = False, margins: Sequence[int] = (1, 0), widest: int = CELL) -> list[str]:
    """Seat ``seat``'s city block (title, grid, reserve) in the richest drawing that fits ``width`` x
    ``height``: full cells, then narrow cells (each with an empty rim to place into, then without), then one
    line per row (``render_city_dense``); the densest one, cut to ``height``, when none fits."""
    cells = obs["cities"][seat]
    reserve = (obs.get("reserves") or [[]] * (seat + 1))[seat]
    title = city_title(obs, seat, names, you)
    res = "reserve: " + (", ".join(tile_long(t, color) for t in reserve) if reserve else "empty")
    block: list[str] = []
    grid: list[str] = []
    for kind, _margin, grid in city_grids(cells, unicode, color, margins, widest):
        wide = max(max(visible_len(line) for line in grid), 40)
        block = [title, *grid, *wrap(res, min(width, max(wide, 40)), indent="  ")]
        if kind != "cells":
            block += [LEGEND_DENSE] if kind == "dense" else wrap(LEGEND_TINY, width, indent="  ")
        if max(visible_len(line) for line in block) <= width and len(block) <= height:
            return block
    # None fits: the narrowest drawing without its legend, else the title, the rows that fit, the reserve
    # (the whole city: ``city``)
    reserve_lines = wrap(res, width, indent="  ")
    if max(visible_len(line) for line in grid) <= width and len(grid) + 1 + len(reserve_lines) <= height:
        return [title, *grid, *reserve_lines]
    rows = grid if len(grid) <= height - 2 else [*grid[:max(0, height - 3)], CUT]
    cut = [title, *rows, res]
    return [clip(line, width) for line in cut[:max(1, height)]]


#: the line that says a city is not drawn whole (the screens avoid it; the screen tests look for it)
CUT = "(cut: city N shows it whole)"


def city_whole(block: Sequence[str]) -> bool:
    """Whether a ``fit_city`` block holds its city whole: the grid and the reserve, nothing cut or clipped."""
    return (CUT not in block and not any(x.endswith("...") for x in block)
            and any("y\\x" in x for x in block) and any(x.startswith("reserve:") for x in block))


def city_grids(cells: Any, unicode: bool = False, color: bool = False, margins: Sequence[int] = (1, 0),
               widest: int = CELL) -> Iterator[tuple[str, int, list[str]]]:
    """The city's drawings from the richest to the narrowest: ``("cells", margin, lines)`` in full
    (``widest``) then narrow cells for each margin (an empty rim to place into, then none), then ``"dense"``
    (one line per row, tile numbers) and ``"tiny"`` (one line per row, types only) for each margin."""
    for margin in margins:
        for cell in sorted({widest, 5}, reverse=True):
            yield "cells", margin, render_city(cells, unicode=unicode, color=color, cell=cell,
                                               margin=margin).split("\n")
    for kind, draw in (("dense", render_city_dense), ("tiny", render_city_tiny)):
        for margin in margins:
            yield kind, margin, draw(cells, margin=margin).split("\n")


def clip(line: str, width: int) -> str:
    """``line`` cut to ``width`` visible columns, ``...`` marking the cut (colour codes are dropped from a cut
    line)."""
    if visible_len(line) <= width:
        return line
    plain = _ANSI.sub("", line)
    return plain[:max(0, width - 3)].rstrip() + "..."


def clip_event(line: str, width: int) -> str:
    """A seat's line of moves (``s2: takes y3; buys ...; places ...``) cut to ``width`` from the front, so
    that its newest moves stay: ``'s2: ...; places arcades 17 at 1,0'``; any other line as ``clip``.

    >>> clip_event("s2: takes y3; buys arcades 17 with y3 g4 exactly; places arcades 17 at 1,0", 40)
    's2: ...; places arcades 17 at 1,0'
    """
    if visible_len(line) <= width:
        return line
    who, sep, rest = _ANSI.sub("", line).partition(": ")
    if not sep or not re.fullmatch(r"you|s\d+( \S+)?", who):
        return clip(line, width)
    items = rest.split("; ")
    kept: list[str] = []
    while items and len(f"{who}: ...; " + "; ".join([items[-1], *kept])) <= width:
        kept.insert(0, items.pop())
    if not kept:
        return clip(f"{who}: ...; {items[-1]}", width)
    return f"{who}: " + ("...; " if items else "") + "; ".join(kept)


def wall_length(cells: Any) -> int | None:
    """The longest outer wall, from the engine's City (None if the cells do not make a City)."""
    try:
        text = " ".join(f"{x},{y}:{t}/{walls_to_text(w)}" for x, y, t, w in _cells_of(cells))
        return City.from_text(text).wall_score()
    except Exception:  # a display helper: a city the engine cannot read is still drawn, without its wall
        return None


def wrap(text: str, width: int, indent: str = "    ") -> list[str]:
    """Word wrap by visible width (colour codes take no room), breaking after ``,`` ``|`` ``:`` ``=N`` where
    possible so that items stay whole, else at any space; continuation lines are indented."""
    pieces: list[str] = []
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


# ----------------------------------------------------------------------------------------------------------
# Scores (both families' breakdowns have the same shape; a game's own columns, e.g. the base game's modules',
# are ``columns``: (key in a breakdown, header of at most 4 letters))


def _score_keys(breakdown: Sequence[Mapping], columns: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """The columns other than the majorities that some row of ``breakdown`` scored in, in order: the wall,
    the game's ``columns``, then any other key a row holds (headed by its name), so that the columns always
    add up to the total."""
    keys: list[str] = []
    for entry in breakdown:
        for d in [*(entry.get("seats") or []), entry.get("dirk") or {}]:
            keys += [k for k in d if k not in ("majorities", "total") and k not in keys]
    heads = {"wall": "wall", **dict(columns)}
    ordered = [k for k in heads if k in keys] + [k for k in keys if k not in heads]
    return [(k, heads.get(k, k)) for k in ordered]


def summed_breakdown(breakdown: Sequence[Mapping], seat: int | Literal["dirk"],
                     columns: Sequence[tuple[str, str]] = ()) -> dict:
    """One seat's points (or ``"dirk"``'s) summed over the scoring rounds of ``score_breakdown()``: per
    building type, walls, and each of the game's ``columns`` that scored.

    >>> summed_breakdown([{"seats": [{"majorities": [1, 0, 0, 0, 0, 0], "wall": 2, "camps": 1}]},
    ...                   {"seats": [{"majorities": [8, 0, 0, 0, 0, 1], "wall": 3}]}], 0, [("camps", "camp")])
    {'majorities': [9, 0, 0, 0, 0, 1], 'wall': 5, 'camps': 1}
    """
    sums: dict = {"majorities": [0] * 6, "wall": 0}
    for entry in breakdown:
        seats = entry.get("seats") or []
        d = (entry.get("dirk") or {}) if isinstance(seat, str) else seats[seat] if seat < len(seats) else {}
        sums["majorities"] = [a + b for a, b in zip(sums["majorities"], d.get("majorities") or [0] * 6,
                                                    strict=True)]
        sums["wall"] += d.get("wall") or 0
        for k, _h in columns:
            if k in d:
                sums[k] = sums.get(k, 0) + d[k]
    return sums


def render_totals(breakdown: Sequence[Mapping], scores: Sequence[int], ranking: Sequence[int] | None = None,
                  names: Sequence[str] | None = None, you: int | None = None,
                  dirk_score: int | None = None, columns: Sequence[tuple[str, str]] = (),
                  title: str | None = None) -> str:
    """Every seat's points so far, summed over the scoring rounds done: per building type, then every other
    column some row scored in (the wall, each of the game's ``columns`` with its header, any other key of
    the breakdown under its own name; ``-`` where a row cannot score in it, as Dirk's wall), best first
    when ``ranking`` is given (the end screen; ``scores`` in play). ``title``: the top left corner (by
    default ``After N rounds``, the base game's scoring rounds)::

        After 3 rounds      pav ser arc cha gar tow  wall  total
        1. seat 2 (mcts)     16   2  10   4   5  17    12    112
    """
    rounds = len(breakdown)
    seats = range(len(scores))
    extra = _score_keys(breakdown, columns)

    def sums(row: int | Literal["dirk"]) -> dict:
        summed = summed_breakdown(breakdown, row, [(k, h) for k, h in extra if k != "wall"])
        held = {k for entry in breakdown
                for k in ((entry.get("dirk") or {}) if row == "dirk" else
                          ((entry.get("seats") or [])[row] if row < len(entry.get("seats") or []) else {}))}
        return {k: v for k, v in summed.items() if k == "majorities" or k in held}

    rows = []
    for seat in sorted(seats, key=lambda p: (ranking[p], p)) if ranking else seats:
        label = (f"{ranking[seat]}. " if ranking else "") + seat_name(seat, names, you)
        rows.append((label, sums(seat), scores[seat]))
    if dirk_score is not None:
        rows.append(("(Dirk, not ranked)" if ranking else "Dirk", sums("dirk"), dirk_score))
    if title is None:
        title = f"After {count(rounds, 'round')}" if rounds else "No scoring yet"  # short: 4 modules' columns
    widths = [6 if k == "wall" else max(5, len(h) + 1) for k, h in extra]
    w = max([len(title)] + [len(r[0]) for r in rows]) + 2
    if w + 24 + sum(widths) + 7 > MIN_WIDTH:      # long names with every module: 's2 expectimax'
        rows = [(re.sub(r"seat (\d+) \((.*)\)", r"s\1 \2", name), d, t) for name, d, t in rows]
        w = max([len(title)] + [len(r[0]) for r in rows]) + 2
    out = [title.ljust(w) + "".join(f"{ABBREV[t]:>4}" for t in TYPE_NAMES)
           + "".join(f"{h:>{cw}}" for (_k, h), cw in zip(extra, widths, strict=True)) + "  total"]
    for name, d, total in rows:
        cells = "".join(f"{(str(p) if p else '.'):>4}" for p in d["majorities"])
        mods = "".join(f"{(str(d[k]) if k in d else '-'):>{cw}}"
                       for (k, _h), cw in zip(extra, widths, strict=True))
        out.append(name.ljust(w) + cells + mods + f"{total:>7}")
    return "\n".join(out)
