"""A brute-force oracle for city legality and wall scoring, written from rules.md §4-5 alone.

Deliberately slow and obvious: every question is answered by building the resulting city and checking it
from scratch. It shares no code with the compiled core, so the two can be compared.

A city is a dict ``{(x, y): walls}`` with walls a mask N=1, E=2, S=4, W=8; y grows to the north, so the N
side of (x, y) touches (x, y + 1). The fountain is the cell (0, 0) with no walls.

>>> city = {(0, 0): 0}
>>> sorted(legal_placements(city, walls_of("N")))  # not south: its N wall would face the open fountain
[(-1, 0), (0, 1), (1, 0)]
>>> is_valid({(0, 0): 0, (1, 0): walls_of("E")})
True
>>> wall_score({(0, 0): 0, (1, 0): walls_of("NES")})
3
"""

from __future__ import annotations

import csv
import itertools
from collections.abc import Iterable
from pathlib import Path

City = dict[tuple[int, int], int]
Cell = tuple[int, int]

N, E, S, W = 1, 2, 4, 8
FOUNTAIN: Cell = (0, 0)

# side bit -> (dx, dy, opposite side bit)
SIDES: dict[int, tuple[int, int, int]] = {
    N: (0, 1, S),
    E: (1, 0, W),
    S: (0, -1, N),
    W: (-1, 0, E),
}

DATA = Path(__file__).resolve().parent.parent / "alhambra_ai" / "data" / "buildings.csv"


def walls_of(text: str) -> int:
    """Wall mask of a ``NESW`` subset text ("" or "-" for none).

    >>> walls_of("NW"), walls_of("-")
    (9, 0)
    """
    mask = 0
    for ch in text.strip():
        if ch == "-":
            continue
        mask |= {"N": N, "E": E, "S": S, "W": W}[ch]
    return mask


TYPES = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")


def _rows() -> list[dict[str, str]]:
    with DATA.open(newline="") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


# tile id -> wall mask (tile 0 = the fountain, no walls) and tile id -> type index (buildings only)
TILE_WALLS: dict[int, int] = {0: 0, **{int(r["id"]): walls_of(r["wall_sides"]) for r in _rows()}}
TILE_TYPE: dict[int, int] = {int(r["id"]): TYPES.index(r["type"]) for r in _rows()}


def neighbours(cell: Cell) -> list[tuple[int, Cell, int]]:
    """(side, neighbour cell, opposite side) for the 4 sides of a cell."""
    x, y = cell
    return [(side, (x + dx, y + dy), opp) for side, (dx, dy, opp) in SIDES.items()]


# ---------------------------------------------------------------------------------------------------------
# validity (rules.md §4)
# ---------------------------------------------------------------------------------------------------------


def sides_match(city: City) -> bool:
    """Wherever two tiles touch, both sides have a wall or neither has."""
    for cell, walls in city.items():
        for side, nb, opp in neighbours(cell):
            if nb in city and bool(walls & side) != bool(city[nb] & opp):
                return False
    return True


def reachable_on_foot(city: City) -> set[Cell]:
    """Tiles reachable from the fountain, stepping only across sides open on both tiles."""
    if FOUNTAIN not in city:
        return set()
    seen = {FOUNTAIN}
    todo = [FOUNTAIN]
    while todo:
        cell = todo.pop()
        for side, nb, opp in neighbours(cell):
            if nb in city and nb not in seen and not city[cell] & side and not city[nb] & opp:
                seen.add(nb)
                todo.append(nb)
    return seen


def all_reachable(city: City) -> bool:
    """Every tile reachable on foot from the fountain (this also implies side contact)."""
    return reachable_on_foot(city) == set(city)


def holes(city: City) -> set[Cell]:
    """Empty cells that cannot reach the unbounded outside through side-adjacent empty cells.

    Flood fill over the empty cells of the bounding box grown by a margin of 1; the margin ring is all
    empty and connected, and it is the outside.
    """
    xs = [x for x, _ in city]
    ys = [y for _, y in city]
    x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    start = (x0, y0)
    seen = {start}
    todo = [start]
    while todo:
        cell = todo.pop()
        for _, nb, _ in neighbours(cell):
            x, y = nb
            if x0 <= x <= x1 and y0 <= y <= y1 and nb not in city and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return {
        (x, y)
        for x in range(x0, x1 + 1)
        for y in range(y0, y1 + 1)
        if (x, y) not in city and (x, y) not in seen
    }


def is_valid(city: City) -> bool:
    """rules.md §4: the fountain at (0, 0) without walls, matching sides, all on foot, no holes."""
    return invalid_reason(city) is None


def invalid_reason(city: City) -> str | None:
    """Why the city is not valid (None when it is)."""
    if city.get(FOUNTAIN, -1) != 0:
        return "no wall-less fountain at 0,0"
    if not sides_match(city):
        return "sides do not match"
    if not all_reachable(city):
        return "tile not reachable on foot"
    if holes(city):
        return "hole"
    return None


# ---------------------------------------------------------------------------------------------------------
# moves: each one is "the resulting city is valid" plus the move's own conditions
# ---------------------------------------------------------------------------------------------------------


def can_place(city: City, cell: Cell, walls: int) -> bool:
    """Place a tile with ``walls`` on ``cell``: empty cell, >= 1 side neighbour, resulting city valid."""
    if cell in city:
        return False
    if not any(nb in city for _, nb, _ in neighbours(cell)):
        return False
    return is_valid({**city, cell: walls})


def can_remove(city: City, cell: Cell) -> bool:
    """Remove the tile on ``cell`` to the reserve: a tile, not the fountain, resulting city valid."""
    if cell not in city or cell == FOUNTAIN:
        return False
    rest = dict(city)
    del rest[cell]
    return is_valid(rest)


def can_swap(city: City, cell: Cell, walls: int) -> bool:
    """Replace the tile on ``cell`` by one with ``walls``: a tile, not the fountain, resulting city valid."""
    if cell not in city or cell == FOUNTAIN:
        return False
    return is_valid({**city, cell: walls})


def frontier(city: City) -> set[Cell]:
    """Empty cells with at least one side neighbour (every other cell fails ``can_place`` outright)."""
    return {nb for cell in city for _, nb, _ in neighbours(cell) if nb not in city}


def legal_placements(city: City, walls: int) -> set[Cell]:
    """Every cell where a tile with ``walls`` may be placed."""
    return {cell for cell in frontier(city) if can_place(city, cell, walls)}


def legal_removals(city: City) -> set[Cell]:
    """Every cell whose tile may be moved to the reserve."""
    return {cell for cell in city if can_remove(city, cell)}


def legal_swaps(city: City, reserve: Iterable[int], tile_walls: dict[int, int] = TILE_WALLS) -> set[tuple]:
    """Every (reserve tile, cell) pair that is a legal swap."""
    return {
        (tile, cell) for tile in set(reserve) for cell in city if can_swap(city, cell, tile_walls[tile])
    }


# ---------------------------------------------------------------------------------------------------------
# outer wall (rules.md §5)
# ---------------------------------------------------------------------------------------------------------


def outer_wall_edges(city: City) -> set[frozenset]:
    """Outer wall sides as edges between grid corners.

    Tile (x, y) covers the unit square with corners (x, y) .. (x + 1, y + 1). A wall side counts only if
    no tile lies on its other side.
    """
    edges = set()
    for (x, y), walls in city.items():
        for side, nb, _ in neighbours((x, y)):
            if not walls & side or nb in city:
                continue
            if side == N:
                a, b = (x, y + 1), (x + 1, y + 1)
            elif side == E:
                a, b = (x + 1, y), (x + 1, y + 1)
            elif side == S:
                a, b = (x, y), (x + 1, y)
            else:
                a, b = (x, y), (x, y + 1)
            edges.add(frozenset((a, b)))
    return edges


def longest_trail(edges: set[frozenset]) -> int:
    """Length of the longest walk that uses each edge at most once (corners may repeat).

    Exhaustive depth-first search from every corner.
    """
    edge_list = list(edges)
    at: dict[tuple, list[tuple[int, tuple]]] = {}
    for i, e in enumerate(edge_list):
        a, b = tuple(e)
        at.setdefault(a, []).append((i, b))
        at.setdefault(b, []).append((i, a))

    best = 0

    def walk(corner: tuple, used: int, length: int) -> None:
        nonlocal best
        best = max(best, length)
        for i, other in at[corner]:
            if not used >> i & 1:
                walk(other, used | 1 << i, length + 1)

    for corner in at:
        if best == len(edge_list):
            break
        walk(corner, 0, 0)
    return best


def wall_score(city: City) -> int:
    """rules.md §5 outer wall points: the longest trail over the outer wall edges."""
    return longest_trail(outer_wall_edges(city))


# ---------------------------------------------------------------------------------------------------------
# conversions
# ---------------------------------------------------------------------------------------------------------


def from_cells(cells: Iterable[tuple[int, int, int, int]]) -> City:
    """Oracle city from the core's ``City.cells()`` rows (x, y, tile, walls)."""
    return {(x, y): walls for x, y, _tile, walls in cells}


def from_tiles(tiles: dict[Cell, int], tile_walls: dict[int, int] = TILE_WALLS) -> City:
    """Oracle city from {cell: tile id} using the tile table."""
    return {cell: tile_walls[tile] for cell, tile in tiles.items()}


def from_picture(text: str) -> City:
    """A city drawn as rows of cells, north row first: ``.`` empty, ``F`` the fountain at (0, 0), or a
    NESW wall text (``-`` for no walls), cells separated by spaces. The fountain fixes the origin.

    >>> sorted(from_picture('''
    ...     .  N
    ...     F  E
    ... ''').items())
    [((0, 0), 0), ((1, 0), 2), ((1, 1), 1)]
    """
    rows = [line.split() for line in text.strip().splitlines()]
    fx = fy = None
    for r, row in enumerate(rows):
        for c, tok in enumerate(row):
            if tok == "F":
                fx, fy = c, r
    if fx is None:
        raise ValueError("picture has no fountain F")
    city: City = {}
    for r, row in enumerate(rows):
        for c, tok in enumerate(row):
            if tok == ".":
                continue
            city[(c - fx, fy - r)] = 0 if tok == "F" else walls_of(tok)
    return city


# ---------------------------------------------------------------------------------------------------------
# random cities, grown with the oracle's own move checks
# ---------------------------------------------------------------------------------------------------------


def random_city(rng, moves: int, tile_walls: dict[int, int] = TILE_WALLS) -> dict[Cell, int]:
    """A random valid city as {cell: tile id}, built by ``moves`` random legal moves (mostly placements,
    some removals and swaps) with distinct building tiles. ``rng`` is a ``random.Random``.
    """
    tiles: dict[Cell, int] = {FOUNTAIN: 0}
    free = [t for t in tile_walls if t != 0]
    rng.shuffle(free)
    for _ in range(moves):
        city = from_tiles(tiles, tile_walls)
        roll = rng.random()
        if roll < 0.12 and len(tiles) > 1:
            cells = sorted(legal_removals(city))
            if cells:
                cell = rng.choice(cells)
                free.append(tiles.pop(cell))
            continue
        if not free:
            break
        tile = free[rng.randrange(len(free))]
        if roll < 0.2 and len(tiles) > 1:
            cells = sorted(c for c in city if can_swap(city, c, tile_walls[tile]))
            if cells:
                cell = rng.choice(cells)
                free.remove(tile)
                free.append(tiles[cell])
                tiles[cell] = tile
            continue
        cells = sorted(legal_placements(city, tile_walls[tile]))
        if cells:
            tiles[rng.choice(cells)] = tile
            free.remove(tile)
    return tiles


def to_text(tiles: dict[Cell, int], walls: City | None = None) -> str:
    """The core's City text form ``x,y:tile`` for {cell: tile id}; with ``walls``, each tile's walls are
    given explicitly (``x,y:tile/NESW``, ``-`` for none) instead of coming from the tile table.

    >>> to_text({(0, 0): 0, (1, 0): 17}, {(0, 0): 0, (1, 0): walls_of("NS")})
    '0,0:0/- 1,0:17/NS'
    """
    if walls is None:
        return " ".join(f"{x},{y}:{t}" for (x, y), t in sorted(tiles.items()))
    return " ".join(f"{x},{y}:{t}/{wall_text(walls[(x, y)])}" for (x, y), t in sorted(tiles.items()))


def wall_text(walls: int) -> str:
    """``NESW`` subset text of a wall mask, ``-`` for none."""
    return "".join(ch for ch, bit in zip("NESW", (N, E, S, W), strict=True) if walls & bit) or "-"


def ring_city(rng, max_cells: int = 44) -> City | None:
    """A city whose tiles form the outline of a random blob (a union of rectangles) with one gap, so that a
    large empty interior reaches the outside through a single cell: the hard case for hole checks. Sides
    facing empty cells get random walls. None when the random shape is no valid city.
    """
    blob: set[Cell] = set()
    for _ in range(rng.randrange(1, 4)):
        x0, y0 = rng.randrange(-3, 3), rng.randrange(-3, 3)
        w, h = rng.randrange(3, 9), rng.randrange(3, 9)
        blob |= {(x, y) for x in range(x0, x0 + w) for y in range(y0, y0 + h)}
    ring = {
        (x, y)
        for x, y in blob
        if any((x + dx, y + dy) not in blob for dx in (-1, 0, 1) for dy in (-1, 0, 1))
    }
    inside = blob - ring
    def inner(cell: Cell) -> bool:
        return any(nb in inside for _, nb, _ in neighbours(cell))

    def outer(cell: Cell) -> bool:
        return any(nb not in blob for _, nb, _ in neighbours(cell))

    gaps = [c for c in sorted(ring) if inner(c) and outer(c)]  # a gap joins the interior to the outside
    if not inside or not gaps or len(ring) > max_cells:
        return None
    ring.discard(rng.choice(gaps))
    fx, fy = rng.choice(sorted(ring))
    city: City = {}
    for x, y in ring:
        city[(x - fx, y - fy)] = 0
    for cell in city:
        if cell == FOUNTAIN:
            continue
        for side, nb, _ in neighbours(cell):
            if nb not in city and rng.random() < 0.6:
                city[cell] |= side
    return city if is_valid(city) else None


# ---------------------------------------------------------------------------------------------------------
# majorities (rules.md §5)
# ---------------------------------------------------------------------------------------------------------


def place_points(round_no: int, type_index: int) -> list[int]:
    """Points of 1st, 2nd, 3rd place for a type in a round (the rules.md §5 table).

    >>> place_points(1, 0), place_points(2, 5), place_points(3, 4)
    ([1], [13, 6], [20, 12, 5])
    """
    return [p + type_index for p in ([1], [8, 1], [16, 8, 1])[round_no - 1]]


def majority_points(counts: list[list[int]], round_no: int) -> list[list[int]]:
    """Majority points per player and type: ``counts[player][type]`` buildings of each type.

    Players with none of a type get nothing for it; tied players add up the places they occupy (places
    beyond the round's table are worth 0) and share the sum rounding down.

    >>> majority_points([[0, 0, 0, 0, 0, 4], [0, 0, 0, 0, 0, 4], [0, 0, 0, 0, 0, 1]], 2)[0][5]
    9
    """
    points = [[0] * len(TYPES) for _ in counts]
    for t in range(len(TYPES)):
        table = place_points(round_no, t)
        values = sorted({c[t] for c in counts if c[t] > 0}, reverse=True)
        place = 0
        for v in values:
            group = [p for p, c in enumerate(counts) if c[t] == v]
            share = sum(table[place : place + len(group)]) // len(group)
            for p in group:
                points[p][t] = share
            place += len(group)
    return points


def type_counts(tiles: Iterable[int]) -> list[int]:
    """How many buildings of each type among tile ids (the fountain and unknown ids are ignored)."""
    counts = [0] * len(TYPES)
    for t in tiles:
        if t in TILE_TYPE:
            counts[TILE_TYPE[t]] += 1
    return counts


# ---------------------------------------------------------------------------------------------------------
# the modules (rules.md §9.2-9.4), on cities given as {cell: tile id}
# ---------------------------------------------------------------------------------------------------------

MODULE_DATA = DATA.parent


def _module_rows(name: str) -> list[dict[str, str]]:
    with (MODULE_DATA / name).open(newline="") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


CAMP_BASTIONS: dict[int, int] = {54 + int(r["id"]): walls_of(r["bastion_sides"])
                                 for r in _module_rows("camps.csv")}
BAZAAR_TYPES: dict[int, set[int]] = {62 + int(r["id"]): {TYPES.index(t) for t in r["types"].split()}
                                     for r in _module_rows("bazaars.csv")}
FALCONS: dict[int, tuple[str, set[int]]] = {
    int(r["id"]): (r["falcon"], {TYPES.index(t) for t in r["types"].split()})
    for r in _module_rows("falcons.csv")}
ALL_WALLS: dict[int, int] = {**TILE_WALLS, **CAMP_BASTIONS, **dict.fromkeys(BAZAAR_TYPES, 0)}


TILE_COST: dict[int, int] = {**{int(r["id"]): int(r["cost"]) for r in _rows()},
                             **{54 + int(r["id"]): int(r["cost"]) for r in _module_rows("camps.csv")}}
WALL_CARDS: dict[int, int] = {int(r["id"]): walls_of(r["wall_sides"]) for r in _module_rows("wall_cards.csv")}
Extra = dict[int, int] | None   # walls a wall card added, per tile id (0: this city's fountain)


def _walls(tile: int, extra: Extra = None) -> int:
    return (0 if tile == 0 else ALL_WALLS[tile]) | (extra or {}).get(tile, 0)


def module_valid(tiles: dict[Cell, int], extra: Extra = None) -> bool:
    """rules.md §4 with camps: buildings (fountain, bazaars) as in §4 among themselves; a camp side touches an
    empty cell, a building wall by a bastion, or a camp's plain side by a plain side; every camp has a bastion
    on a building wall; camps are off the on-foot graph but count for holes and side contact."""
    if tiles.get(FOUNTAIN) != 0:
        return False
    for cell, t in tiles.items():
        camp = t in CAMP_BASTIONS
        supported = False
        for side, nb, opp in neighbours(cell):
            if nb not in tiles:
                continue
            u = tiles[nb]
            mine, theirs = bool(_walls(t, extra) & side), bool(_walls(u, extra) & opp)
            if camp and u in CAMP_BASTIONS:
                if mine or theirs:
                    return False
            elif camp or u in CAMP_BASTIONS:
                if not (mine and theirs):
                    return False
                supported = supported or camp
            elif mine != theirs:
                return False
        if camp and not supported:
            return False
    buildings = {c: _walls(t, extra) for c, t in tiles.items() if t not in CAMP_BASTIONS}
    if not all_reachable(buildings):
        return False
    if len(tiles) > 1 and any(all(nb not in tiles for _, nb, _ in neighbours(c)) for c in tiles):
        return False
    return not holes({c: 0 for c in tiles})


def module_placements(tiles: dict[Cell, int], tile: int, extra: Extra = None) -> set[Cell]:
    """Every cell where ``tile`` may be placed: an empty cell beside the city that leaves it valid."""
    cells = {nb for c in tiles for _, nb, _ in neighbours(c) if nb not in tiles}
    return {c for c in cells if module_valid({**tiles, c: tile}, extra)}


def module_removals(tiles: dict[Cell, int], extra: Extra = None) -> set[Cell]:
    return {c for c in tiles if c != FOUNTAIN
            and module_valid({k: v for k, v in tiles.items() if k != c}, extra)}


def module_swaps(tiles: dict[Cell, int], tile: int, extra: Extra = None) -> set[Cell]:
    return {c for c in tiles if c != FOUNTAIN and module_valid({**tiles, c: tile}, extra)}


def wall_actions(tiles: dict[Cell, int], reserve: Iterable[int], face_up: Iterable[int],
                 extra: dict[int, int]) -> set[tuple[int, int]]:
    """rules.md §9.7: every (wall card, tile) a seat may play: a face-up card on its own tile (city, fountain,
    reserve; no camp) that got no other card's pieces and has no wall on the card's sides, the city (when the
    tile is in it) still valid with the pieces added."""
    out = set()
    in_city = set(tiles.values())
    for card in face_up:
        sides = WALL_CARDS[card]
        for t in in_city | set(reserve):
            if t in CAMP_BASTIONS or t in extra or _walls(t, extra) & sides:
                continue
            if t not in in_city or module_valid(tiles, {**extra, t: sides}):
                out.add((card, t))
    return out


def minimal_payments(cards: list[int], coins: int, cost: int) -> set[tuple[tuple[int, ...], int]]:
    """Every payment (sorted card values, coins) of cards (values) and coins (value 1) that pays cost, and
    would not if any one card or coin were left out."""
    out = set()
    n = len(cards)
    for mask in range(1 << n):
        chosen = tuple(sorted(cards[i] for i in range(n) if mask >> i & 1))
        for c in range(coins + 1):
            total = sum(chosen) + c
            if (chosen or c) and total >= cost and all(total - v < cost for v in chosen) \
                    and (c == 0 or total - 1 < cost):
                out.add((chosen, c))
    return out


def camp_score(tiles: dict[Cell, int]) -> int:
    """Per bastion, the tiles in the straight line beyond it up to the first empty cell or camp."""
    total = 0
    for (x, y), t in tiles.items():
        for side, (dx, dy, _) in SIDES.items():
            if t in CAMP_BASTIONS and CAMP_BASTIONS[t] & side:
                cx, cy = x + dx, y + dy
                while (cx, cy) in tiles and tiles[(cx, cy)] not in CAMP_BASTIONS:
                    total += 1
                    cx, cy = cx + dx, cy + dy
    return total


def bazaar_score(tiles: dict[Cell, int]) -> int:
    """Per bazaar: neighbours (8 around) of its types x how many of its types they show."""
    total = 0
    for (x, y), t in tiles.items():
        if t in BAZAAR_TYPES:
            around = [TILE_TYPE.get(tiles.get((x + dx, y + dy), -1)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                      if (dx, dy) != (0, 0)]
            hits = [ty for ty in around if ty in BAZAAR_TYPES[t]]
            total += len(hits) * len(set(hits))
    return total


def falcon_corners(tiles: dict[Cell, int], falcon: int) -> set[Cell]:
    """The corners (south-west cells) of four tiles showing both types on the falcon's back."""
    out = set()
    for x, y in tiles:
        four = [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)]
        if all(c in tiles for c in four) and FALCONS[falcon][1] <= {TILE_TYPE.get(tiles[c]) for c in four}:
            out.add((x, y))
    return out


def falcon_points(colours: Iterable[str]) -> int:
    """Set values per colour held: 1, 2, 3, 4, 5 falcons -> 2, 6, 12, 20, 30."""
    held: dict[str, int] = {}
    for c in colours:
        held[c] = held.get(c, 0) + 1
    return sum((0, 2, 6, 12, 20, 30)[k] for k in held.values())


# ---------------------------------------------------------------- Thief and Residents (rules.md §9.6, §9.8)


def resident_points(types: Iterable[int]) -> int:
    """Split the residents into groups of different types, each time the largest possible; a group of g
    figures scores 1 + 2 + ... + g (1, 3, 6, 10, 15, 21)."""
    left = list(types)
    total = 0
    while left:
        group = set(left)
        for t in group:
            left.remove(t)
        total += sum(range(1, len(group) + 1))
    return total


def disc_cells(tiles: dict[Cell, int]) -> set[Cell]:
    """Empty cells sharing a side with a tile of the city (the fountain included: ``tiles`` holds it)."""
    return {(x + dx, y + dy) for x, y in tiles for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if (x + dx, y + dy) not in tiles}


def figure_choices(types: Iterable[str]) -> set[str]:
    """Setup: the 3 figures a seat may put on its disc, any 3 of its 6 types (texts in the types' order)."""
    return {"figures " + " ".join(c) for c in itertools.combinations(list(types), 3)}


def thief_takes(display: list[str | None], thieves: list[str], is_next: bool) -> set[str]:
    """The display cards a seat may take with a thief in the window: one card of a currency it holds a
    thief of; never the seat who is next."""
    if is_next:
        return set()
    return {c for c in display if c is not None and c[0] in thieves}


def resident_choices(disc: list[str], tile_type: str | None, supply: dict[str, int]) -> set[str]:
    """After a tile lifted the disc: move a matching figure in, else exchange one for a supply figure of
    another type; "done" always."""
    if tile_type is not None and tile_type in disc:
        return {"resident", "done"}
    return {f"exchange {a} {b}" for a in set(disc) for b, k in supply.items() if k and b != a} | {"done"}
