"""Checks of the oracle itself on hand-made cities whose answers were worked out by hand from rules.md §4-5.

Pictures: north row first, ``F`` the fountain at (0, 0), ``.`` empty, otherwise the tile's walls (``-`` none).
"""

import doctest

import oracle
import pytest
from oracle import (
    can_place,
    can_remove,
    can_swap,
    from_picture,
    holes,
    is_valid,
    legal_placements,
    legal_removals,
    legal_swaps,
    longest_trail,
    outer_wall_edges,
    wall_score,
    walls_of,
)


def edges(*pairs):
    return {frozenset(p) for p in pairs}


def test_doctests():
    assert doctest.testmod(oracle).failed == 0


def test_tile_table():
    assert len(oracle.TILE_WALLS) == 55  # fountain + 54 buildings
    assert oracle.TILE_WALLS[0] == 0
    assert oracle.TILE_WALLS[1] == walls_of("NEW") == 1 | 2 | 8
    assert oracle.TILE_WALLS[7] == 0
    assert oracle.TILE_WALLS[54] == walls_of("E") == 2


def test_picture_coordinates_y_north():
    city = from_picture("""
        N  .
        F  -
        .  S
    """)
    assert city == {(0, 0): 0, (0, 1): 1, (1, 0): 0, (1, -1): 4}


# ---------------------------------------------------------------- validity


def test_fountain_alone_is_valid():
    assert is_valid({(0, 0): 0})
    assert not is_valid({(0, 0): 1})  # the fountain has no walls
    assert not is_valid({(1, 0): 0})  # no fountain


def test_wall_mismatch():
    # a W wall of (1, 0) against the open E side of the fountain
    assert not is_valid({(0, 0): 0, (1, 0): walls_of("W")})
    assert oracle.invalid_reason({(0, 0): 0, (1, 0): walls_of("W")}) == "sides do not match"
    assert is_valid({(0, 0): 0, (1, 0): walls_of("NES")})
    # mismatch between two non-fountain tiles: N wall of (1, 0) against open S of (1, 1)
    city = from_picture("""
        -  -
        F  N
    """)
    assert not is_valid(city)
    city[(1, 1)] = walls_of("S")
    assert is_valid(city)  # now an inner wall; (1, 1) is reached through (0, 1)


def test_corner_only_contact():
    city = {(0, 0): 0, (1, 1): 0}
    assert not is_valid(city)
    assert oracle.invalid_reason(city) == "tile not reachable on foot"
    assert not can_place({(0, 0): 0}, (1, 1), 0)  # no side neighbour
    # corner contact is fine when the tile is also joined by a side
    assert is_valid({(0, 0): 0, (1, 0): 0, (1, 1): 0})


def test_side_contact_but_walled_off():
    # (2, 0) touches (1, 0) only through a wall on both sides: matching, yet not reachable on foot
    city = from_picture("""
        F  E  W
    """)
    assert oracle.sides_match(city)
    assert not is_valid(city)
    base = from_picture("F  E")
    assert not can_place(base, (2, 0), walls_of("W"))
    assert not can_place(base, (2, 0), walls_of("N"))  # its open W side faces the E wall of (1, 0)


def test_single_hole():
    # (1, 1) has tiles on all four sides; the empty corner (2, 2) does not help (no diagonal escape)
    city = from_picture("""
        -  -  .
        -  .  -
        F  -  -
    """)
    assert holes(city) == {(1, 1)}
    assert not is_valid(city)
    assert oracle.invalid_reason(city) == "hole"
    # the same city without (2, 1): valid, and (2, 1) is exactly the hole-closing placement
    open_city = dict(city)
    del open_city[(2, 1)]
    assert is_valid(open_city)
    assert not can_place(open_city, (2, 1), 0)
    assert can_place(open_city, (1, 1), 0)  # filling the gap itself is fine
    assert (2, 1) not in legal_placements(open_city, 0)
    assert (1, 1) in legal_placements(open_city, 0)


def test_multi_cell_hole():
    # ring around the two empty cells (1, 1) and (2, 1)
    ring = from_picture("""
        -  -  -  -
        -  .  .  -
        F  -  -  -
    """)
    assert holes(ring) == {(1, 1), (2, 1)}
    assert not is_valid(ring)
    gap = dict(ring)
    del gap[(3, 1)]
    assert holes(gap) == set()
    assert is_valid(gap)
    assert not can_place(gap, (3, 1), 0)  # closes the two-cell hole
    assert not can_place(gap, (2, 1), 0)  # (1, 1) would have tiles on all 4 sides
    assert can_place(gap, (1, 1), 0)  # (2, 1) still escapes through the gap at (3, 1)


def test_bigger_hole_2x2():
    ring = from_picture("""
        -  -  -  -
        -  .  .  -
        -  .  .  -
        F  -  -  -
    """)
    assert holes(ring) == {(1, 1), (2, 1), (1, 2), (2, 2)}
    gap = dict(ring)
    del gap[(3, 3)]  # a missing corner does not open the ring
    assert holes(gap) == {(1, 1), (2, 1), (1, 2), (2, 2)}
    del gap[(3, 2)]
    assert holes(gap) == set()
    assert is_valid(gap)
    assert not can_place(gap, (3, 2), 0)
    assert can_place(gap, (3, 3), 0)


def test_closed_ring_of_walls():
    # the fountain surrounded by 8 tiles, walls on the whole outside and none inside: 3x3 perimeter = 12
    ring = from_picture("""
        NW  N  NE
        W   F  E
        SW  S  ES
    """)
    assert is_valid(ring)
    assert len(outer_wall_edges(ring)) == 12
    assert wall_score(ring) == 12
    # every removal opens the ring: corners are removable, side middles too (reached around the ring)
    assert legal_removals(ring) == set(ring) - {(0, 0)}


def test_inner_walls_do_not_count():
    city = from_picture("""
        -  S
        F  N
    """)
    assert is_valid(city)
    assert wall_score(city) == 0
    city = from_picture("""
        -  ES
        F  NE
    """)
    assert is_valid(city)
    assert outer_wall_edges(city) == edges(((2, 0), (2, 1)), ((2, 1), (2, 2)))
    assert wall_score(city) == 2


def test_wall_broken_by_gap_and_corner_turn():
    # a line of three tiles with N walls, the middle one without: two stretches of 1
    city = from_picture("""
        .  .  .  .
        F  N  -  N
    """)
    assert is_valid(city)
    assert wall_score(city) == 1
    # an L-shaped wall around a corner joins: N + E of (1, 0) = 2, plus N of (0, 0)? the fountain has none
    city = from_picture("F  NE")
    assert wall_score(city) == 2
    city = from_picture("F  NES")
    assert wall_score(city) == 3


def test_crossing_corner_figure_eight():
    # two fully walled squares touching at corner (2, 2): every corner of even degree -> all 8 edges
    fig8 = {(1, 1): 15, (2, 2): 15}
    assert len(outer_wall_edges(fig8)) == 8
    assert wall_score(fig8) == 8
    # square plus two tails at the crossing corner: tail, loop, tail = 6
    assert wall_score({(1, 1): 15, (2, 2): walls_of("SW")}) == 6


def test_longest_trail_abstract():
    # a star of four unit arms: only two arms can be walked
    star = edges(((0, 0), (1, 0)), ((0, 0), (-1, 0)), ((0, 0), (0, 1)), ((0, 0), (0, -1)))
    assert longest_trail(star) == 2
    # arms of length 3, 2, 1, 1 meeting at the origin: 3 + 2
    arms = edges(
        ((0, 0), (1, 0)), ((1, 0), (2, 0)), ((2, 0), (3, 0)),
        ((0, 0), (0, 1)), ((0, 1), (0, 2)),
        ((0, 0), (-1, 0)),
        ((0, 0), (0, -1)),
    )
    assert longest_trail(arms) == 5
    # a square with one tail: all 5 (start at the tail end)
    sq = edges(((0, 0), (1, 0)), ((1, 0), (1, 1)), ((1, 1), (0, 1)), ((0, 1), (0, 0)), ((0, 0), (-1, 0)))
    assert longest_trail(sq) == 5
    # two separate pieces: the longer one
    assert longest_trail(edges(((0, 0), (1, 0)), ((5, 5), (6, 5)), ((6, 5), (7, 5)))) == 2
    assert longest_trail(set()) == 0


def test_placement_needs_open_link():
    # fountain, (1, 0) with E wall: at (2, 0) a tile must have a W wall (match) and then has no way in
    base = from_picture("F  E")
    assert not can_place(base, (2, 0), walls_of("W"))
    assert not can_place(base, (2, 0), 0)
    # but it can join from another side where it is open
    city = from_picture("""
        -  -  .
        F  E  .
    """)
    assert can_place(city, (2, 0), walls_of("W")) is False  # only neighbour is (1, 0): walled link
    city[(2, 1)] = 0
    assert is_valid(city)
    assert can_place(city, (2, 0), walls_of("W"))  # walked in from (2, 1) above
    assert not can_place(city, (2, 0), walls_of("NW"))  # N wall against open (2, 1)


def test_placement_conditions():
    base = {(0, 0): 0}
    assert not can_place(base, (0, 0), 0)  # occupied
    assert not can_place(base, (2, 0), 0)  # no side neighbour
    assert legal_placements(base, 0) == {(1, 0), (-1, 0), (0, 1), (0, -1)}
    assert legal_placements(base, walls_of("NES")) == {(1, 0)}
    assert legal_placements(base, 15) == set()  # a 4-wall tile can never join (no such building exists)
    # two neighbours, one matching and one not
    city = from_picture("""
        .  S
        F  -
    """)
    assert not is_valid(city)  # (1, 1)'s S wall against the open N of (1, 0)
    city = from_picture("""
        -  .
        F  N
    """)
    assert is_valid(city)
    assert not can_place(city, (1, 1), 0)  # open S against N wall of (1, 0)
    assert can_place(city, (1, 1), walls_of("S"))  # S matches, W open to (0, 1)
    assert not can_place(city, (1, 1), walls_of("SW"))  # W wall against open E of (0, 1)


def test_removals():
    # a line F - A - B: A is a bridge, B a leaf
    line = from_picture("F  -  -")
    assert legal_removals(line) == {(2, 0)}
    assert not can_remove(line, (0, 0))  # fountain
    assert not can_remove(line, (5, 5))  # nothing there
    # removing a tile with four tile neighbours would leave an enclosed empty cell
    centre = {(0, 0): 0, (1, 0): 0, (2, 0): 0, (1, 1): 0, (1, -1): 0, (0, 1): 0, (2, 1): 0}
    assert is_valid(centre)
    assert not can_remove(centre, (1, 0))  # its four neighbours are tiles -> hole
    assert can_remove(centre, (2, 1))
    # removal that cuts a tile off on foot, although it stays side-connected via a wall
    walled = {(0, 0): 0, (1, 0): 0, (1, 1): walls_of("W"), (0, 1): walls_of("E")}
    assert is_valid(walled)
    assert not can_remove(walled, (1, 0))  # (1, 1) would only touch (0, 1) across a wall
    assert can_remove(walled, (0, 1))
    assert can_remove(walled, (1, 1))


def test_swaps():
    line = from_picture("F  -  -")
    assert can_swap(line, (2, 0), walls_of("NES"))
    assert not can_swap(line, (2, 0), walls_of("W"))  # W wall against open (1, 0)
    assert not can_swap(line, (1, 0), walls_of("E"))  # cuts (2, 0) off (and mismatches)
    assert not can_swap(line, (0, 0), 0)  # fountain
    assert not can_swap(line, (3, 0), 0)  # empty cell
    # a tile that matches its old neighbours and is open towards none of them cannot come in
    square = {(0, 0): 0, (1, 0): walls_of("N"), (1, 1): walls_of("SW"), (0, 1): walls_of("E")}
    assert not is_valid(square)  # (1, 1) is walled off already
    square[(0, 1)] = 0
    square[(1, 1)] = walls_of("S")
    assert is_valid(square)
    assert not can_swap(square, (0, 1), walls_of("E"))  # E wall against the open W of (1, 1)
    assert can_swap(square, (1, 1), walls_of("NES"))
    assert not can_swap(square, (1, 1), walls_of("SW"))  # mismatch with (0, 1) and walled off
    tiles = {90: 0, 91: walls_of("NES"), 92: walls_of("W")}
    assert legal_swaps(line, [90, 91, 92], tiles) == {(90, (1, 0)), (90, (2, 0)), (91, (2, 0))}


def test_invalid_before_is_judged_from_scratch():
    # the oracle never assumes the input was valid: a move onto an invalid city is legal only if the result
    # is valid
    broken = {(0, 0): 0, (1, 1): 0}  # corner-only tile
    assert can_place(broken, (1, 0), 0)  # the new tile joins both
    assert can_place(broken, (0, 1), 0)
    assert not can_place(broken, (-1, 0), 0)


@pytest.mark.parametrize("tile", range(1, 55))
def test_every_building_fits_somewhere_next_to_the_fountain(tile):
    # no building has 4 walls, so each has an open side that can face the fountain
    assert legal_placements({(0, 0): 0}, oracle.TILE_WALLS[tile])


# ---------------------------------------------------------------- properties on random cities


def _components(edge_set):
    """Edge counts of the connected pieces of an edge set (plain union by flood fill)."""
    at = {}
    for e in edge_set:
        for v in e:
            at.setdefault(v, []).append(e)
    seen_e, sizes = set(), []
    for e0 in edge_set:
        if e0 in seen_e:
            continue
        seen_e.add(e0)
        todo, n = [e0], 0
        while todo:
            e = todo.pop()
            n += 1
            for v in e:
                for f in at[v]:
                    if f not in seen_e:
                        seen_e.add(f)
                        todo.append(f)
        sizes.append(n)
    return sizes


@pytest.mark.parametrize("seed", range(40))
def test_random_cities_properties(seed):
    import random

    rng = random.Random(seed)
    tiles = oracle.random_city(rng, rng.randrange(5, 60))
    city = oracle.from_tiles(tiles)
    assert is_valid(city)
    # every legal removal is undone by a legal placement of the same tile on the same cell, and vice versa
    for cell in legal_removals(city):
        rest = {c: w for c, w in city.items() if c != cell}
        assert can_place(rest, cell, city[cell])
    for walls in range(16):
        for cell in legal_placements(city, walls):
            assert can_remove({**city, cell: walls}, cell)
    # a non-fountain tile whose removal is refused is a bridge on foot or would leave a 4-sided hole
    for cell in set(city) - legal_removals(city) - {(0, 0)}:
        rest = {c: w for c, w in city.items() if c != cell}
        assert not oracle.all_reachable(rest) or holes(rest) == {cell}
    # swapping a tile for itself is always legal (except the fountain)
    for cell, walls in city.items():
        assert can_swap(city, cell, walls) == (cell != (0, 0))
    # in a valid city no corner has more than 2 outer wall edges (a crossing corner would need two tiles
    # touching only diagonally, which with on-foot connectivity encloses one of the two empty cells), so
    # the longest trail is simply the largest connected piece
    wall_edges = outer_wall_edges(city)
    degree = {}
    for e in wall_edges:
        for v in e:
            degree[v] = degree.get(v, 0) + 1
    assert all(d <= 2 for d in degree.values())
    assert wall_score(city) == max(_components(wall_edges), default=0)


# ---------------------------------------------------------------- majorities


def test_majority_table_and_ties():
    m = oracle.majority_points
    # round 1: only first place, for pavilions 1 point
    assert m([[2, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0]], 1) == [[1, 0, 0, 0, 0, 0], [0] * 6]
    # round 1 tie for first: 1 point shared -> 0 each (rounding down)
    assert m([[2, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0]], 1) == [[0] * 6, [0] * 6]
    # the rulebook example: round 2, two players with 4 towers share 13 + 6 -> 9 each; the third gets nothing
    pts = m([[0, 0, 0, 0, 0, 4], [0, 0, 0, 0, 0, 4], [0, 0, 0, 0, 0, 3]], 2)
    assert [p[5] for p in pts] == [9, 9, 0]
    # round 3, gardens 5, 3, 3, 1: 20 / (12 + 5) // 2 = 8 each / fourth place 0
    pts = m([[0, 0, 0, 0, 5, 0], [0, 0, 0, 0, 3, 0], [0, 0, 0, 0, 3, 0], [0, 0, 0, 0, 1, 0]], 3)
    assert [p[4] for p in pts] == [20, 8, 8, 0]
    # a tie for second in round 2 shares 2nd + nothing: chambers 11 / (4 + 0) // 2
    pts = m([[0, 0, 0, 3, 0, 0], [0, 0, 0, 1, 0, 0], [0, 0, 0, 1, 0, 0]], 2)
    assert [p[3] for p in pts] == [11, 2, 2]
    # nobody with a type scores nothing for it; a lone owner takes first place
    pts = m([[0, 1, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]], 3)
    assert pts == [[0, 17, 0, 0, 0, 0], [0] * 6]


def test_type_counts():
    assert oracle.type_counts([0, 1, 7, 8, 54, 44]) == [2, 1, 0, 0, 0, 2]
    assert sum(oracle.type_counts(range(1, 55))) == 54
    assert oracle.type_counts(range(1, 55)) == [7, 7, 9, 9, 11, 11]
