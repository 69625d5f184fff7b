"""The core's module rules (camps in cities, camp / bazaar / falcon scoring, falcon corners) against the
brute-force oracle (tests/oracle.py, modules section) on positions of random games with all four modules."""

import functools
import random

import oracle
import pytest

from alhambra_ai import new_game

ALL = {"vizier": True, "camps": True, "bazaars": True, "falcons": True}
WITH_TR = {**ALL, "thief": True, "residents": True}
TYPES = oracle.TYPES


def tiles_of(s, seat):
    return {(x, y): t for x, y, t, _w in s.city(seat).cells()}


@functools.lru_cache(maxsize=200_000)
def _answer(kind, key, tile):
    tiles = dict(key)
    if kind == "place":
        return frozenset(oracle.module_placements(tiles, tile))
    if kind == "swap":
        return frozenset(oracle.module_swaps(tiles, tile))
    return frozenset(oracle.module_removals(tiles))


def answer(kind, tiles, tile=None):
    return _answer(kind, frozenset(tiles.items()), tile)


def check_position(s):
    """Everything the oracle can say about the seat to act; returns how many answers were compared."""
    n = 0
    seat = s.current_player
    tiles = tiles_of(s, seat)
    assert oracle.module_valid(tiles), tiles
    texts = [s.action_to_text(a).split() for a in s.legal_actions()]
    cells = {}
    for w in texts:
        if w[0] in ("build", "place", "swap") and w[2] not in ("reserve", "dirk"):
            cells.setdefault((w[0], int(w[1])), set()).add(tuple(int(v) for v in w[2].split(",")))
    if s.phase == "action":
        for t in s.reserve(seat):
            assert cells.get(("build", t), set()) == answer("place", tiles, t), (t, tiles)
            assert cells.get(("swap", t), set()) == answer("swap", tiles, t), (t, tiles)
            n += 2
        removals = {tuple(int(v) for v in w[1].split(",")) for w in texts if w[0] == "remove"}
        assert removals == answer("remove", tiles), tiles
        n += 1
        if s.actions_this_turn == 0 and s.hand(seat):
            taken = {c for _f, c in s.falcons(seat)}
            want = {(f, c) for f in s.falcons() for c in oracle.falcon_corners(tiles, f) if c not in taken}
            got = {(int(w[1]), tuple(int(v) for v in w[3].split(","))) for w in texts if w[0] == "falcon"}
            assert got == want, tiles
            n += 1
    elif s.phase in ("place", "final"):
        for t in set(s.pending()):
            assert cells.get(("place", t), set()) == answer("place", tiles, t), (t, tiles)
            n += 1
    for p in range(s.num_players):
        c, pt = s.city(p), tiles_of(s, p)
        assert c.camp_score() == oracle.camp_score(pt) and c.bazaar_score() == oracle.bazaar_score(pt)
        n += 2
    if s.options.get("thief") or s.options.get("residents"):
        n += check_thief_residents(s, seat, tiles, texts)
    return n


def check_thief_residents(s, seat, tiles, texts):
    """The Thief's and the Residents' choices of the seat to act against the oracle."""
    if s.phase == "interrupt" and s.options.get("thief"):
        order = s.window_order()
        want = oracle.thief_takes(s.display(), s.thieves(seat), seat == order[0])
        assert {w[1] for w in texts if w[0] == "thief"} == want
        return 1
    if s.phase == "resident":
        lifted = s.observation(seat)["modules"]["lifted"]["tile"]
        ty = tile_type(lifted)
        supply = dict(zip(TYPES, s.supply(), strict=True))
        got = {" ".join(w[:1] if w[0] == "resident" else w) for w in texts}
        assert got == oracle.resident_choices(s.disc(seat), ty, supply)
        return 1
    if s.phase == "disc":
        got = {tuple(int(v) for v in w[1].split(",")) for w in texts}
        assert got == oracle.disc_cells({**tiles, (0, 0): 0})
        return 1
    return 0


def tile_type(t):
    from alhambra_ai import tile_info

    kind = tile_info(t)[0]
    return kind if kind in TYPES else None


def check_end(s):
    last = s.score_breakdown()[-1]
    assert last["round"] == 3
    for p, seat in enumerate(last["seats"]):
        tiles = tiles_of(s, p)
        assert seat["camps"] == oracle.camp_score(tiles)
        assert seat["bazaars"] == oracle.bazaar_score(tiles)
        assert seat["falcons"] == oracle.falcon_points(oracle.FALCONS[f][0] for f, _c in s.falcons(p))
        if "residents" in seat:
            types = [oracle.TILE_TYPE[t] for t in s.residents(p)]
            assert seat["residents"] == oracle.resident_points(types)


def run(games, base_seed, every=1, options=ALL):
    positions = answers = 0
    for g in range(games):
        n = 2 + (base_seed + g) % 5
        rng = random.Random(base_seed + g)
        s = new_game(n, base_seed + g, options)
        k = 0
        while not s.is_terminal():
            if k % every == 0:
                answers += check_position(s)
                positions += 1
            s.apply(rng.choice(s.legal_actions()))
            k += 1
        check_end(s)
    return positions, answers


def test_module_positions_against_oracle():
    positions, answers = run(1, 501, every=4)
    assert positions > 60 and answers > positions


@pytest.mark.slow
def test_module_positions_against_oracle_slow():
    """>= 10,000 positions with all four modules on (every position of the games)."""
    positions, _answers = run(22, 9000)
    assert positions >= 10_000


def test_thief_and_residents_against_oracle():
    positions, answers = run(1, 602, every=3, options=WITH_TR)
    assert positions > 60 and answers > positions


@pytest.mark.slow
def test_thief_and_residents_against_oracle_slow():
    """>= 10,000 positions with all six modules on (every position of the games)."""
    positions, _answers = run(22, 19000, options=WITH_TR)
    assert positions >= 10_000
