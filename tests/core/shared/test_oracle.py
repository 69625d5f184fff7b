"""The compiled core's city rules against the brute-force oracle (tests/oracle.py).

Two sources of cities:

* random valid cities grown by the oracle itself, loaded with ``City.from_text`` and queried through the
  ``City`` API (placements for every unused building, removals, swaps, wall score, validity);
* positions reached by random play with ``new_game`` / ``legal_actions`` / ``apply``: the PLACE, BUILD,
  REMOVE and SWAP actions the generator lists for the seat to act must be exactly the oracle's legal moves,
  and every seat's ``wall_score`` must be the oracle's.

The oracle is slow, so its answers are cached per (city, walls) -- cities change only now and then during
a game, so most positions cost a dictionary lookup on the oracle side and the core is still asked afresh.
"""

from __future__ import annotations

import random
from collections import defaultdict

import oracle
import pytest

from alhambra_ai import City, IllegalActionError, new_game

PLACE, PLACE_RESERVE, PLACE_DIRK, BUILD, REMOVE, SWAP = 3, 4, 5, 6, 7, 8
CITY_KINDS = (PLACE, BUILD, REMOVE, SWAP)


def decode(code: int) -> tuple[int, int, tuple[int, int]]:
    """(kind, tile, cell) of an action code (docs/design.md: tile bits 4-11, x+128 12-19, y+128 20-27)."""
    return code & 15, (code >> 4) & 255, (((code >> 12) & 255) - 128, ((code >> 20) & 255) - 128)


class Oracle:
    """The oracle's answers, cached per city (as a frozenset of its cells)."""

    def __init__(self) -> None:
        self.cache: dict = {}
        self.cities: set = set()

    def _get(self, what: str, city: dict, arg, compute):
        key = (what, frozenset(city.items()), arg)
        if key not in self.cache:
            self.cities.add(key[1])
            self.cache[key] = compute()
        return self.cache[key]

    def placements(self, city: dict, walls: int) -> set:
        return self._get("place", city, walls, lambda: oracle.legal_placements(city, walls))

    def removals(self, city: dict) -> set:
        return self._get("remove", city, None, lambda: oracle.legal_removals(city))

    def swaps(self, city: dict, walls: int) -> set:
        return self._get("swap", city, walls, lambda: {c for c in city if oracle.can_swap(city, c, walls)})

    def wall_score(self, city: dict) -> int:
        return self._get("wall", city, None, lambda: oracle.wall_score(city))

    def valid(self, city: dict) -> bool:
        return self._get("valid", city, None, lambda: oracle.is_valid(city))


WALLS = oracle.TILE_WALLS


# ---------------------------------------------------------------------------------------------------------
# the City API on oracle-grown cities
# ---------------------------------------------------------------------------------------------------------


def check_city_api(tiles: dict, orc: Oracle, rng: random.Random, walls: dict | None = None) -> None:
    """``tiles`` {cell: tile id}; ``walls`` {cell: walls} overrides the tile table's walls when given."""
    text = oracle.to_text(tiles, walls)
    c = City.from_text(text)
    city = walls if walls is not None else oracle.from_tiles(tiles)
    assert {(x, y): t for x, y, t, _ in c.cells()} == tiles, text
    assert oracle.from_cells(c.cells()) == city, text
    assert len(c) == len(tiles)
    assert c.is_valid() is None, text
    assert c.wall_score() == orc.wall_score(city), text
    assert set(c.removals()) == orc.removals(city), text
    unused = [t for t in range(1, 55) if t not in tiles.values()]
    for t in unused:
        assert set(c.placements(t)) == orc.placements(city, WALLS[t]), (text, t)
    # the single-move checks agree with the lists, over the whole box around the city (empty and full cells)
    xs = [x for x, _ in tiles]
    ys = [y for _, y in tiles]
    box = [(x, y) for x in range(min(xs) - 2, max(xs) + 3) for y in range(min(ys) - 2, max(ys) + 3)]
    removals = orc.removals(city)
    for t in rng.sample(unused, min(3, len(unused))):
        places = orc.placements(city, WALLS[t])
        swaps = orc.swaps(city, WALLS[t])
        for x, y in box:
            assert (c.can_place(x, y, t) is None) == ((x, y) in places), (text, "place", t, x, y)
            assert (c.can_swap(x, y, t) is None) == ((x, y) in swaps), (text, "swap", t, x, y)
    for x, y in box:
        assert (c.can_remove(x, y) is None) == ((x, y) in removals), (text, "remove", x, y)
    # new values from legal moves are valid and equal to the oracle's result
    if unused:
        t = rng.choice(unused)
        cells = sorted(orc.placements(city, WALLS[t]))
        if cells:
            x, y = rng.choice(cells)
            grown = c.with_tile(x, y, t)
            assert oracle.from_cells(grown.cells()) == {**city, (x, y): WALLS[t]}
            assert grown.is_valid() is None
            assert c.tile_at(x, y) is None  # the original value is unchanged
    if removals:
        x, y = rng.choice(sorted(removals))
        smaller = c.without(x, y)
        assert oracle.from_cells(smaller.cells()) == {k: v for k, v in city.items() if k != (x, y)}
        assert c.tile_at(x, y) == tiles[(x, y)]


def run_city_api(count: int, seed: int) -> Oracle:
    rng = random.Random(seed)
    orc = Oracle()
    for _ in range(count):
        tiles = oracle.random_city(rng, rng.randrange(1, 70))
        check_city_api(tiles, orc, rng)
    return orc


def test_city_api_against_oracle():
    run_city_api(150, seed=1)


def run_ring_cities(count: int, seed: int) -> int:
    """Outlines of random blobs with one gap (oracle.ring_city): closing the gap, or cutting the interior
    off elsewhere, encloses a large area far from the cell being changed."""
    rng = random.Random(seed)
    orc = Oracle()
    # keep one building of each wall mask out of the city, so that every mask is tried as a placement
    keep = {}
    for t in range(1, 55):
        keep.setdefault(WALLS[t], t)
    spare = [t for t in range(1, 55) if t not in keep.values()]
    done = 0
    while done < count:
        walls = oracle.ring_city(rng, max_cells=len(spare) + 1)
        if walls is None:
            continue
        ids = iter(rng.sample(spare, len(walls) - 1))
        tiles = {cell: 0 if cell == (0, 0) else next(ids) for cell in walls}
        check_city_api(tiles, orc, rng, walls)
        done += 1
    return done


def test_ring_cities_against_oracle():
    assert run_ring_cities(120, seed=5) == 120


LONG = [pytest.param(1, marks=pytest.mark.slow, id="slow"),   # in CI
        pytest.param(3, marks=pytest.mark.soak, id="soak")]   # by hand (3,000 cities, 3,000 rings)


@pytest.mark.compute
@pytest.mark.parametrize("scale", LONG)
def test_city_api_against_oracle_long(scale):
    run_city_api(1000 * scale, seed=2 + scale)


@pytest.mark.compute
@pytest.mark.parametrize("scale", LONG)
def test_ring_cities_against_oracle_long(scale):
    assert run_ring_cities(1000 * scale, seed=6 + scale) == 1000 * scale


def test_city_is_valid_on_arbitrary_layouts():
    """Random, mostly invalid layouts: ``from_text`` refuses them or ``is_valid`` agrees with the oracle."""
    rng = random.Random(3)
    for _ in range(400):
        cells = {(0, 0): 0}
        free = list(range(1, 55))
        rng.shuffle(free)
        for _ in range(rng.randrange(1, 12)):
            cells[(rng.randrange(-2, 3), rng.randrange(-2, 3))] = free.pop()
        cells[(0, 0)] = 0
        try:
            c = City.from_text(oracle.to_text(cells))
        except ValueError:
            assert not oracle.is_valid(oracle.from_tiles(cells))
            continue
        assert (c.is_valid() is None) == oracle.is_valid(oracle.from_tiles(cells)), oracle.to_text(cells)


# ---------------------------------------------------------------------------------------------------------
# positions from random play
# ---------------------------------------------------------------------------------------------------------


def builder_choice(rng: random.Random, actions: list[int]) -> int:
    """A random legal action biased towards buying and building, so cities grow large and varied."""
    by_kind = defaultdict(list)
    for a in actions:
        by_kind[a & 15].append(a)
    for kinds, p in (((PLACE,), 0.9), ((2,), 0.7), ((BUILD, SWAP, REMOVE), 0.25)):
        pool = [a for k in kinds for a in by_kind.get(k, ())]
        if pool and rng.random() < p:
            return rng.choice(pool)
    return rng.choice(actions)


def check_position(s, orc: Oracle, stats: dict) -> None:
    seat = s.current_player
    actions = s.legal_actions()
    city_value = s.city(seat)
    city = oracle.from_cells(city_value.cells())
    assert orc.valid(city), city
    listed = defaultdict(set)
    for a in actions:
        kind, tile, cell = decode(a)
        if kind in CITY_KINDS:
            listed[kind].add((tile, cell))
    reserve = s.reserve(seat)
    pending = s.pending()
    phase = s.phase
    if phase in ("place", "final"):
        assert not listed[BUILD] and not listed[REMOVE] and not listed[SWAP], phase
        # the reserve always takes a tile; Dirk (2 players) takes tiles bought this turn, not leftovers
        tiles_of = defaultdict(set)
        for a in actions:
            tiles_of[a & 15].add((a >> 4) & 255)
        assert tiles_of[PLACE_RESERVE] == set(pending)
        dirk = s.dirk_score is not None and phase == "place"
        assert tiles_of[PLACE_DIRK] == (set(pending) if dirk else set())
        assert {t for t, _ in listed[PLACE]} <= set(pending)
        for t in set(pending):
            cells = {c for tt, c in listed[PLACE] if tt == t}
            assert cells == orc.placements(city, WALLS[t]), (city, t)
            assert set(city_value.placements(t)) == cells
            stats["place"] += 1
    elif phase == "action":
        assert not listed[PLACE]
        assert {t for t, _ in listed[BUILD]} <= set(reserve)
        for t in set(reserve):
            cells = {c for tt, c in listed[BUILD] if tt == t}
            assert cells == orc.placements(city, WALLS[t]), (city, t)
            stats["build"] += 1
        removals = {c for _, c in listed[REMOVE]}
        assert removals == orc.removals(city), city
        for t, (x, y) in listed[REMOVE]:
            assert t == city_value.tile_at(x, y)
        swaps = {(t, c) for t in set(reserve) for c in orc.swaps(city, WALLS[t])}
        assert listed[SWAP] == swaps, city
        stats["remove"] += 1
        stats["swap"] += len(reserve) > 0
    for other in range(s.num_players):
        cv = s.city(other)
        assert cv.wall_score() == orc.wall_score(oracle.from_cells(cv.cells()))
    check_is_legal(s, city, city_value, orc, stats)
    stats["positions"] += 1


def encode(kind: int, tile: int, cell: tuple[int, int]) -> int:
    return kind | tile << 4 | (cell[0] + 128) << 12 | (cell[1] + 128) << 20


def check_is_legal(s, city: dict, city_value, orc: Oracle, stats: dict) -> None:
    """``is_legal`` (the check behind ``apply``) agrees with the oracle on every cell around the city, not
    only on the listed actions; now and then an illegal one is applied and must be refused cleanly."""
    rng = stats["rng"]
    xs = [x for x, _ in city]
    ys = [y for _, y in city]
    box = [(x, y) for x in range(min(xs) - 1, max(xs) + 2) for y in range(min(ys) - 1, max(ys) + 2)]
    seat = s.current_player
    tries = []
    if s.phase in ("place", "final") and s.pending():
        t = rng.choice(s.pending())
        ok = orc.placements(city, WALLS[t])
        tries += [(encode(PLACE, t, c), c in ok) for c in box]
    elif s.phase == "action":
        removals = orc.removals(city)
        tries += [(encode(REMOVE, city_value.tile_at(*c) or 0, c), c in removals) for c in box]
        if s.reserve(seat):
            t = rng.choice(s.reserve(seat))
            ok = orc.placements(city, WALLS[t])
            swaps = orc.swaps(city, WALLS[t])
            tries += [(encode(BUILD, t, c), c in ok) for c in box]
            tries += [(encode(SWAP, t, c), c in swaps) for c in box]
    for code, legal in tries:
        assert s.is_legal(code) == legal, (city, s.phase, decode(code))
    illegal = [code for code, legal in tries if not legal]
    if illegal and rng.random() < 0.05:
        code = rng.choice(illegal)

        def snapshot():
            cells = s.city(seat).cells()
            return s.phase, s.current_player, cells, s.reserve(seat), s.pending(), s.legal_actions()

        before = snapshot()
        with pytest.raises(IllegalActionError):
            s.apply(code)
        assert snapshot() == before
        stats["refused"] += 1


def run_positions(target: int, seed: int) -> tuple[Oracle, dict]:
    """Random games (2..6 players, half uniform random, half builder-biased) until ``target`` positions."""
    rng = random.Random(seed)
    orc = Oracle()
    stats: dict = defaultdict(int)
    stats["rng"] = random.Random(seed + 1)
    game = 0
    while stats["positions"] < target:
        n = 2 + game % 5
        s = new_game(n, seed=seed * 100_003 + game)
        choose = builder_choice if game % 2 else (lambda r, acts: r.choice(acts))
        while not s.is_terminal() and stats["positions"] < target:
            check_position(s, orc, stats)
            s.apply(choose(rng, s.legal_actions()))
        game += 1
    stats["games"] = game
    stats["distinct_cities"] = len(orc.cities)
    return orc, stats


def test_random_play_positions_against_oracle():
    _, stats = run_positions(10_000, seed=11)
    assert stats["positions"] == 10_000
    # the run must really exercise the city rules, not only money actions
    assert stats["distinct_cities"] > 300
    assert stats["place"] > 500 and stats["build"] > 500 and stats["remove"] > 1000
    assert stats["refused"] > 100


@pytest.mark.slow
@pytest.mark.compute
def test_random_play_positions_against_oracle_slow():
    _, stats = run_positions(50_000, seed=12)
    assert stats["positions"] == 50_000


@pytest.mark.soak
@pytest.mark.compute
def test_random_play_positions_against_oracle_soak():
    _, stats = run_positions(150_000, seed=13)
    assert stats["positions"] == 150_000


@pytest.mark.parametrize("direction", [(1, 0), (-1, 0), (0, 1), (0, -1)])
def test_long_lines_against_oracle(direction):
    """rules.md §10: a city can run 54 cells from the fountain in a line; far cells work like near ones."""
    rng = random.Random(hash(direction) & 0xFFFF)
    dx, dy = direction
    along = {(1, 0): 2 | 8, (0, 1): 1 | 4}[(abs(dx), abs(dy))]  # the two sides joining the line
    ids = rng.sample(range(1, 55), 50)
    tiles = {(0, 0): 0}
    walls = {(0, 0): 0}
    for i, t in enumerate(ids, start=1):
        cell = (dx * i, dy * i)
        tiles[cell] = t
        walls[cell] = rng.randrange(16) & ~along  # random walls on the free sides only
    check_city_api(tiles, Oracle(), rng, walls)
