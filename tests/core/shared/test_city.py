"""City rules (rules.md §4) and the outer-wall trail (rules.md §5) on the compiled City.

Hand-built cases assert values derived by hand; random cities are cross-checked against a small brute-force
oracle written here from the rules alone (every question answered by building the result and checking it
from scratch).
"""

from __future__ import annotations

import random

import pytest

from alhambra_ai._core import City, tile_walls

N, E, S, W = 1, 2, 4, 8
SIDES = {N: (0, 1, S), E: (1, 0, W), S: (0, -1, N), W: (-1, 0, E)}

# ------------------------------------------------------------------------------------------------------------
# brute-force oracle: a city is {(x, y): walls}
# ------------------------------------------------------------------------------------------------------------


def o_valid(city: dict) -> bool:
    if (0, 0) not in city:
        return False
    for (x, y), wl in city.items():
        for side, (dx, dy, opp) in SIDES.items():
            nb = (x + dx, y + dy)
            if nb in city and bool(wl & side) != bool(city[nb] & opp):
                return False
    seen, todo = {(0, 0)}, [(0, 0)]
    while todo:
        x, y = todo.pop()
        for side, (dx, dy, opp) in SIDES.items():
            nb = (x + dx, y + dy)
            if nb in city and nb not in seen and not city[(x, y)] & side and not city[nb] & opp:
                seen.add(nb)
                todo.append(nb)
    if seen != set(city):
        return False
    xs = [x for x, _ in city]
    ys = [y for _, y in city]
    x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    out, todo = {(x0, y0)}, [(x0, y0)]
    while todo:
        x, y = todo.pop()
        for dx, dy, _ in SIDES.values():
            nb = (x + dx, y + dy)
            if x0 <= nb[0] <= x1 and y0 <= nb[1] <= y1 and nb not in city and nb not in out:
                out.add(nb)
                todo.append(nb)
    return all((x, y) in city or (x, y) in out for x in range(x0, x1 + 1) for y in range(y0, y1 + 1))


def o_frontier(city: dict) -> set:
    xs = [x for x, _ in city]
    ys = [y for _, y in city]
    return {(x, y) for x in range(min(xs) - 2, max(xs) + 3) for y in range(min(ys) - 2, max(ys) + 3)}


def o_placements(city: dict, walls: int) -> set:
    return {c for c in o_frontier(city) if c not in city and o_valid({**city, c: walls})}


def o_removals(city: dict) -> set:
    return {c for c in city if c != (0, 0) and o_valid({k: v for k, v in city.items() if k != c})}


def o_swaps(city: dict, walls: int) -> set:
    return {c for c in city if c != (0, 0) and o_valid({**city, c: walls})}


def o_wall_score(city: dict) -> int:
    """Longest trail over outer wall edges, by exhaustive search from every corner."""
    edges = set()
    for (x, y), wl in city.items():
        ends = {
            N: ((x, y + 1), (x + 1, y + 1)),
            S: ((x, y), (x + 1, y)),
            E: ((x + 1, y), (x + 1, y + 1)),
            W: ((x, y), (x, y + 1)),
        }
        for side, (dx, dy, _) in SIDES.items():
            if wl & side and (x + dx, y + dy) not in city:
                edges.add(frozenset(ends[side]))
    adj: dict = {}
    for e in edges:
        a, b = tuple(e)
        adj.setdefault(a, []).append((b, e))
        adj.setdefault(b, []).append((a, e))

    def longest(v, used):
        best = 0
        for u, e in adj[v]:
            if e not in used:
                used.add(e)
                best = max(best, 1 + longest(u, used))
                used.remove(e)
        return best

    return max((longest(v, set()) for v in adj), default=0)


def walls_text(walls: int) -> str:
    return "".join(ch for i, ch in enumerate("NESW") if walls >> i & 1) or "-"


def as_dict(city: City) -> dict:
    return {(x, y): wl for x, y, _, wl in city.cells()}


# ------------------------------------------------------------------------------------------------------------
# construction, text, reading
# ------------------------------------------------------------------------------------------------------------


def test_new_city_is_just_the_fountain():
    c = City()
    assert len(c) == 1
    assert c.cells() == [(0, 0, 0, 0)]
    assert c.tile_at(0, 0) == 0 and c.tile_at(1, 0) is None and c.tile_at(-500, 7) is None
    assert c.to_text() == "0,0:0"
    assert c.is_valid() is None
    assert c.wall_score() == 0


def test_from_text_round_trip_and_walls_override():
    c = City.from_text("0,-1:33 1,0:15 0,0:0 0,1:17/N")
    # sorted north row first, then west to east
    assert c.cells() == [(0, 1, 17, N), (0, 0, 0, 0), (1, 0, 15, N | E | S), (0, -1, 33, E | S | W)]
    assert c.to_text() == "0,1:17/N 0,0:0 1,0:15 0,-1:33"
    assert City.from_text(c.to_text()) == c
    assert City.from_text("") == City()
    assert c.walls_at(0, 1) == N and c.walls_at(5, 5) is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1,0:1", "invalid city: sides do not match between 0,0 and 1,0"),  # 1 has a W wall
        ("2,0:7", "invalid city: tile 7 at 2,0 touches no other tile on a side"),
        ("1,0:7/E 2,0:14/W", "invalid city: tile 14 at 2,0 cannot be reached on foot from the fountain"),
        ("1,0:7 2,0:14 2,1:22 2,2:23 1,2:31 0,2:32 0,1:41", "invalid city: empty cell 1,1 is enclosed"),
        ("1,0:7 1,0:14", "cell 1,0 is given twice"),
        ("1,0:7 2,0:7", "tile 7 is given twice"),
        ("0,0:7", "cell 0,0 holds the fountain (tile 0), not tile 7"),
        ("1,0:0", "the fountain (tile 0) stands on 0,0, not on 1,0"),
        ("1,0:99", "no tile with id 99"),
        ("1;0:7", "bad city token"),
        ("1,0:7/X", "bad wall side"),
        ("999,0:7", "off the grid"),
    ],
)
def test_from_text_rejects_bad_cities(text, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        City.from_text(text)


def test_bad_arguments_raise_clear_errors():
    c = City()
    with pytest.raises(ValueError, match="fountain"):
        c.can_place(1, 0, 0)
    with pytest.raises(ValueError, match="id 99"):
        c.placements(99)
    with pytest.raises(ValueError, match="walls must be"):
        c.can_place(1, 0, 7, walls=16)
    with pytest.raises(TypeError):
        c.can_place("1", 0, 7)
    assert c.can_place(500, 0, 7) == "cell is off the grid"
    assert c.can_remove(500, 0) == "cell is empty"
    assert c == City()  # nothing changed


def test_equality_hash_repr_pickle():
    import pickle

    a = City.from_text("1,0:15 0,-1:33")
    b = City().with_tile(0, -1, 33).with_tile(1, 0, 15)
    assert a == b and hash(a) == hash(b)
    assert a != City() and a != "0,0:0"
    assert repr(a) == "City.from_text('0,0:0 1,0:15 0,-1:33')"
    assert pickle.loads(pickle.dumps(a)) == a


# ------------------------------------------------------------------------------------------------------------
# placement (rules.md §4)
# ------------------------------------------------------------------------------------------------------------


def test_placements_around_the_fountain():
    c = City()
    assert c.placements(7) == [(0, 1), (-1, 0), (1, 0), (0, -1)]  # no walls: every side
    assert c.placements(33) == [(0, -1)]  # E S W: only its open N side may face the fountain
    assert c.placements(1) == [(0, 1)]  # N E W: only its open S side
    assert c.placements(24) == [(-1, 0)]  # N S W: only its open E side


def test_unmatched_sides():
    c = City()
    assert c.can_place(1, 0, 1) == "sides do not match"  # W wall against the fountain's open E side
    # wall against an open side of a building: 15 (N E S) at 1,0, then 12 (W) north of it at 1,1 would put
    # its open S side on 15's N wall
    c = City.from_text("1,0:15")
    assert c.can_place(1, 1, 12) == "sides do not match"
    with pytest.raises(ValueError, match="cannot place tile 12 at 1,1: sides do not match"):
        c.with_tile(1, 1, 12)


def test_cut_off_by_a_wall():
    # 7/E at 1,0 shows an E wall; 12 (wall W only) at 2,0 matches it wall-to-wall but cannot be walked into
    c = City.from_text("1,0:7/E")
    assert c.can_place(2, 0, 12) == "no open side to walk in"
    assert (2, 0) not in c.placements(12)


def test_corner_contact_is_not_enough():
    c = City()
    assert c.can_place(1, 1, 7) == "no tile on any side of the cell"
    assert c.can_place(3, 0, 7) == "no tile on any side of the cell"
    assert c.can_place(0, 0, 7) == "cell is not empty"


RING7 = "1,0:7 2,0:14 2,1:22 2,2:23 1,2:31 0,2:32"  # open tiles around 1,1 but for 0,1


def test_single_hole():
    c = City.from_text(RING7)
    assert c.can_place(0, 1, 41) == "would enclose an empty area"
    assert c.can_place(1, 1, 41) is None  # filling the cell itself is fine
    assert c.can_place(-1, 2, 41) is None
    assert (0, 1) not in c.placements(41)


def test_multi_cell_hole():
    # a frame around the two empty cells 1,1 and 2,1; the last frame cell 0,1 would close it
    frame = "1,0:7 2,0:14 3,0:22 3,1:23 3,2:31 2,2:32 1,2:41 0,2:42"
    c = City.from_text(frame)
    assert c.can_place(0, 1, 52) == "would enclose an empty area"
    # a 2x2 area closed at its far side
    frame2 = "1,0:7 2,0:14 3,0:22 3,1:23 3,2:31 3,3:32 2,3:41 1,3:42 0,3:52 0,2:53"
    c2 = City.from_text(frame2)
    assert c2.can_place(0, 1, 5, walls=0) == "would enclose an empty area"
    # with an exit left open at 3,1 (the top row hangs on a column at x=-1) the same cell is legal: the
    # area still reaches the outside
    open_frame = "1,0:7 2,0:14 3,0:22 3,2:31 2,2:32 1,2:41 0,2:42 -1,0:43/- -1,1:44/- -1,2:46/-"
    c3 = City.from_text(open_frame)
    assert c3.can_place(0, 1, 5, walls=0) is None
    # ... and closing the exit is what makes the hole
    assert c3.with_tile(0, 1, 5, walls=0).can_place(3, 1, 13, walls=0) == "would enclose an empty area"


def test_inlet_closed_at_its_mouth():
    # U shape: 1,1 is an inlet open to the north only
    c = City.from_text("1,0:7 2,0:14 2,1:22 0,1:23")
    assert c.can_place(0, 2, 31) is None  # beside the mouth: the inlet still opens through 1,2
    assert c.can_place(1, 2, 31) == "no tile on any side of the cell"
    assert c.with_tile(0, 2, 31).can_place(1, 2, 32) == "would enclose an empty area"


def test_wall_to_wall_beside_one_open_link_is_legal():
    # 1,1 sees a N wall below it (7/N at 1,0) and an open E side to its west (14 at 0,1)
    c = City.from_text("1,0:7/N 0,1:14")
    assert c.can_place(1, 1, 13) is None  # 13: S wall on the wall, open W side on the open side
    assert c.can_place(1, 1, 17) == "sides do not match"  # 17: S W walls, but 14's E side is open
    assert c.can_place(1, 1, 41) == "sides do not match"  # no walls: its open S side meets a wall
    both_walls = City.from_text("1,0:7/N 0,1:14/E")
    assert both_walls.can_place(1, 1, 17) == "no open side to walk in"
    # 17 (S W walls) fits where its open N or E side meets an open side and no wall meets an open side
    assert both_walls.placements(17) == [(-1, 1), (-1, 0), (0, -1), (1, -1)]


def test_filling_a_notch_and_walls_turning_inner():
    c = City.from_text("1,0:7 2,0:14 2,1:22 0,1:23")
    assert c.can_place(1, 1, 41) is None  # three tile neighbours, the fourth side faces out
    d = City.from_text("0,1:7 1,0:15")
    assert d.wall_score() == 3  # N, E, S of 15
    e = d.with_tile(1, 1, 13)  # its S wall covers 15's N wall: both become inner walls
    assert e.wall_score() == 2
    assert e.can_remove(1, 1) is None and e.without(1, 1) == d


def test_with_tile_does_not_change_the_original():
    c = City()
    c2 = c.with_tile(1, 0, 15)
    assert c == City() and c2.cells() == [(0, 0, 0, 0), (1, 0, 15, 7)]
    assert c2.can_place(2, 0, 7) == "sides do not match"  # 15 has an E wall
    assert c2.can_place(1, 0, 7) == "cell is not empty"
    assert c2.can_place(0, 1, 15) == "tile 15 is already in the city"
    assert c2.placements(15) == []


# ------------------------------------------------------------------------------------------------------------
# removal
# ------------------------------------------------------------------------------------------------------------


def test_removal_that_cuts_a_tile_off():
    c = City.from_text("1,0:7 2,0:15")
    assert c.can_remove(1, 0) == "would cut tiles off from the fountain"
    assert c.can_remove(2, 0) is None
    assert c.removals() == [(2, 0)]
    assert c.without(2, 0) == City.from_text("1,0:7")
    with pytest.raises(ValueError, match="cannot remove the tile at 1,0: would cut tiles off"):
        c.without(1, 0)


def test_removal_leaving_an_enclosed_cell():
    block = "1,0:7 2,0:14 0,1:22 1,1:23 2,1:31 0,2:32 1,2:41 2,2:42"  # 3x3 open block, fountain at a corner
    c = City.from_text(block)
    assert c.can_remove(1, 1) == "would enclose the vacated cell"
    assert c.can_remove(0, 0) == "the fountain cannot be removed or swapped"
    assert c.can_remove(5, 5) == "cell is empty"
    assert c.removals() == [(0, 2), (1, 2), (2, 2), (0, 1), (2, 1), (1, 0), (2, 0)]


def test_removal_kept_legal_by_a_long_way_round():
    # 3x3 block, fountain at 0,0; the middle tile 1,1 is walled off from both side columns. 1,0 joins the
    # fountain, 2,0 and 1,1, which do not meet around 1,0; but 2,0 is still reached by the long way round:
    # up the left column, along the top row and down the right column.
    city = "1,0:7 2,0:14 0,1:22/E 1,1:23/EW 2,1:31/W 0,2:32 1,2:41 2,2:42"
    c = City.from_text(city)
    # 1,0's on-foot neighbours (0,0 / 2,0 / 1,1) are not joined in its ring: the exact search decides
    assert c.can_remove(1, 0) is None
    # wall the top-right pair too: now the right column hangs on 1,0 alone
    c2 = City.from_text("1,0:7 2,0:14 0,1:22/E 1,1:23/EW 2,1:31/W 0,2:32 1,2:41/E 2,2:42/W")
    assert c2.can_remove(1, 0) == "would cut tiles off from the fountain"
    assert (1, 0) not in c2.removals()


# ------------------------------------------------------------------------------------------------------------
# swap
# ------------------------------------------------------------------------------------------------------------


def test_swap_whose_walls_cut_tiles_off():
    c = City.from_text("1,0:7 2,0:15")
    # 6 (wall E) at 1,0 would wall 2,0 off: its E wall faces 15's open W side
    assert c.can_swap(1, 0, 6) == "sides do not match"
    assert c.can_swap(1, 0, 5) is None  # 5 (wall N) faces an empty cell with its wall
    assert c.swapped(1, 0, 5).wall_score() == 4  # N of 1,0 then N, E, S of 2,0: one stretch of 4
    assert c.swaps(5) == [(1, 0), (2, 0)]  # at 2,0 its open W side meets 7's open E side
    assert c.can_swap(0, 0, 5) == "the fountain cannot be removed or swapped"
    assert c.can_swap(0, 1, 5) == "cell is empty"
    assert c.can_swap(1, 0, 15) == "tile 15 is already in the city"
    with pytest.raises(ValueError, match="cannot swap tile 6 in at 1,0: sides do not match"):
        c.swapped(1, 0, 6)


def test_swap_keeps_the_cell():
    c = City.from_text("1,0:15")
    d = c.swapped(1, 0, 45)  # same walls N E S
    assert d.cells() == [(0, 0, 0, 0), (1, 0, 45, 7)] and c.tile_at(1, 0) == 15


# ------------------------------------------------------------------------------------------------------------
# outer wall trail (rules.md §5)
# ------------------------------------------------------------------------------------------------------------


def test_straight_wall():
    c = City.from_text("1,0:5 2,0:20 3,0:9")  # N, N, N E
    assert c.wall_score() == 4  # three N sides in a row, then down the E side of 3,0


def test_closed_ring_counts_in_full():
    ring = "-1,1:4 0,1:5 1,1:9 -1,0:12 1,0:6 -1,-1:2 0,-1:13 1,-1:3"  # 3x3 around the fountain
    c = City.from_text(ring)
    assert c.is_valid() is None
    assert c.wall_score() == 12


def test_inner_walls_excluded():
    # 1,1 (N E S) and 1,0 (N E S) face each other wall to wall: an inner wall that never counts
    c = City.from_text("0,1:5 1,1:15 1,0:45")
    assert c.wall_score() == 5  # N of 0,1, N and E of 1,1, E and S of 1,0


def test_longest_of_two_stretches():
    c = City.from_text("1,0:5 2,0:20 3,0:7 4,0:15")
    assert c.wall_score() == 3  # N N (2) is shorter than N E S of 4,0 (3)


def test_trail_passes_a_corner_twice():
    # Two walled squares touching at a corner cannot both stand in a valid city (one of the two cells beside
    # the corner would be enclosed), so the trail is checked on a raw grid: the fountain walled all round and
    # a tile at 1,1 with S and W walls meeting at the shared corner.
    c = City._unchecked("0,0:0/NESW 1,1:7/SW")
    assert c.is_valid() is not None
    assert c.wall_score() == 6  # leaf, around the square (corner 1,1 twice), other leaf
    star = City._unchecked("0,0:0/NE 1,1:7/SW")  # four edges meet at 1,1: in and out only
    assert star.wall_score() == 2
    eight = City._unchecked("0,0:0/NESW 1,1:7/NESW")
    assert eight.wall_score() == 8


# ------------------------------------------------------------------------------------------------------------
# growth: no legal move is refused for lack of room
# ------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("dx", "dy"), [(1, 0), (-1, 0), (0, 1), (0, -1)])
def test_straight_line_of_54(dx, dy):
    text = " ".join(f"{dx * k},{dy * k}:{k}/-" for k in range(1, 54))
    c = City.from_text(text)
    assert len(c) == 54
    # the 54th tile goes at the far end, 54 cells from the fountain, or anywhere beside the line
    cells = c.placements(54, walls=0)
    assert (dx * 54, dy * 54) in cells and (-dx, -dy) in cells
    assert len(cells) == 2 + 2 * 54
    full = c.with_tile(dx * 54, dy * 54, 54, walls=0)
    assert full.tile_at(dx * 54, dy * 54) == 54 and full.is_valid() is None
    assert full.removals() == [(dx * 54, dy * 54)]
    # built one tile at a time (each step copies and may grow the grid)
    step = City()
    for k in range(1, 55):
        step = step.with_tile(dx * k, dy * k, k, walls=0)
    assert step == full


def test_line_with_walls_on_both_sides():
    text = " ".join(f"{k},0:{k}/NS" for k in range(1, 55))
    c = City.from_text(text)
    assert c.wall_score() == 54
    assert c.removals() == [(54, 0)]


# ------------------------------------------------------------------------------------------------------------
# copy-on-write
# ------------------------------------------------------------------------------------------------------------


def test_clone_shares_until_a_change():
    a = City.from_text("1,0:15")
    b = a.clone()
    assert b._shares_grid(a) and a._grid_refcount() == 2
    c = b.with_tile(0, 1, 7)
    assert not c._shares_grid(a) and b._shares_grid(a)
    assert c._grid_refcount() == 1
    assert a.to_text() == b.to_text() == "0,0:0 1,0:15"
    assert c.tile_at(0, 1) == 7 and a.tile_at(0, 1) is None
    d = c.without(0, 1)
    assert d == a and not d._shares_grid(a) and c.tile_at(0, 1) == 7
    del b
    assert a._grid_refcount() == 1


def test_many_values_from_one_grid_stay_independent():
    base = City.from_text("1,0:7 2,0:14")
    kids = [base.with_tile(x, y, 22) for x, y in base.placements(22)]
    assert base._grid_refcount() == 1 and len(kids) == 8
    for (x, y), kid in zip(base.placements(22), kids, strict=True):
        assert kid.tile_at(x, y) == 22 and len(kid) == 4
        assert sum(other.tile_at(x, y) == 22 for other in kids) == 1
    assert base.to_text() == "0,0:0 1,0:7 2,0:14"


# ------------------------------------------------------------------------------------------------------------
# random cross-check against the oracle
# ------------------------------------------------------------------------------------------------------------


def _random_city(rng: random.Random, steps: int, free_walls: bool) -> list[City]:
    """A walk of random legal changes; returns every city on the way."""
    c = City()
    seen = [c]
    for _ in range(steps):
        in_city = {t for _, _, t, _ in c.cells()}
        spare = [t for t in range(1, 55) if t not in in_city]
        kind = rng.random()
        if kind < 0.7 and spare:
            t = rng.choice(spare)
            wl = rng.randrange(16) if free_walls else None
            cells = c.placements(t, walls=wl)
            if cells:
                x, y = rng.choice(cells)
                c = c.with_tile(x, y, t, walls=wl)
        elif kind < 0.85:
            cells = c.removals()
            if cells:
                c = c.without(*rng.choice(cells))
        elif spare:
            t = rng.choice(spare)
            wl = rng.randrange(16) if free_walls else None
            cells = c.swaps(t, walls=wl)
            if cells:
                c = c.swapped(*rng.choice(cells), t, walls=wl)
        seen.append(c)
    return seen


@pytest.mark.parametrize("seed", range(6))
def test_random_cities_agree_with_the_oracle(seed):
    rng = random.Random(seed)
    for c in _random_city(rng, 45, free_walls=seed % 2 == 1)[::3]:
        d = as_dict(c)
        assert c.is_valid() is None and o_valid(d)
        in_city = {t for _, _, t, _ in c.cells()}
        for wl in (0, rng.randrange(16), rng.randrange(16)):
            t = next(t for t in range(1, 55) if t not in in_city)
            legal = o_placements(d, wl)
            assert set(c.placements(t, walls=wl)) == legal
            assert c._has_place(wl) == bool(legal)
            assert {cell for cell in o_frontier(d) if c.can_place(*cell, t, walls=wl) is None} == legal
            assert set(c.swaps(t, walls=wl)) == o_swaps(d, wl)
        removable = o_removals(d)
        assert set(c.removals()) == removable
        assert {(x, y) for x, y, _, _ in c.cells() if c.can_remove(x, y) is None} == removable
        assert c.wall_score() == o_wall_score(d)
        assert City.from_text(c.to_text()) == c


@pytest.mark.parametrize("seed", range(4))
def test_random_raw_grids_validity_and_trail(seed):
    rng = random.Random(100 + seed)
    for _ in range(60):
        cells = {(0, 0): rng.randrange(16)}
        for _ in range(rng.randrange(1, 12)):
            cells[(rng.randrange(-3, 4), rng.randrange(-3, 4))] = rng.randrange(16)
        tokens = [
            f"{x},{y}:{0 if (x, y) == (0, 0) else k}/{walls_text(wl)}"
            for k, ((x, y), wl) in enumerate(cells.items())
        ]
        c = City._unchecked(" ".join(tokens))
        assert (c.is_valid() is None) == o_valid(cells)
        assert c.wall_score() == o_wall_score(cells)


def test_changes_in_place_drop_the_cached_answers():
    # The game state changes its own (unshared) grid in place; every answer must follow the change, also
    # across storage growth. Compare with a fresh grid built from the same cells after each step.
    rng = random.Random(7)
    c = City()
    for step in range(120):
        for wl in (0, 5, 9):
            c.placements(1 + step % 54, walls=wl)  # fill the caches before the change
        c.removals()
        c.swaps(1 + step % 54, walls=3)
        in_city = {t for _, _, t, _ in c.cells()}
        removable = c.removals()
        if (step % 4 == 3 or len(c) > 40) and removable:
            c._unsafe_clear(*rng.choice(removable))
        else:
            t = next(t for t in range(1, 55) if t not in in_city)
            wl = rng.choice((0, 0, 1, 4, 5, 10))
            cells = c.placements(t, walls=wl)
            if not cells:
                continue
            x, y = max(cells) if step % 3 else rng.choice(cells)  # drift east to force growth
            c._unsafe_put(x, y, t, wl)
        fresh = City.from_text(c.to_text())
        assert c.is_valid() is None
        in_city = {t for _, _, t, _ in c.cells()}
        spare = next(t for t in range(1, 55) if t not in in_city)
        for wl in range(16):
            assert c.placements(spare, walls=wl) == fresh.placements(spare, walls=wl)
            assert c.swaps(spare, walls=wl) == fresh.swaps(spare, walls=wl)
        assert c.removals() == fresh.removals()
        assert c.wall_score() == fresh.wall_score()
    assert max(x for x, _, _, _ in c.cells()) > 10  # the walk did leave the first storage


def test_tile_walls_table_is_what_the_city_uses():
    c = City().with_tile(0, -1, 33)
    assert c.cells()[-1] == (0, -1, 33, tile_walls(33))


def test_docstring_examples():
    import doctest

    import alhambra_ai._core as core

    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tests = finder.find(City, "City", module=core, globs={"City": City})
    assert sum(len(t.examples) for t in tests) >= 20
    for t in tests:
        runner.run(t)
    assert runner.summarize(verbose=False).failed == 0
