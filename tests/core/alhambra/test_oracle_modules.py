"""The core's module rules (camps in cities, camp / bazaar / falcon scoring, falcon corners, wall cards,
payments with coins, walls added by wall cards) against the brute-force oracle (tests/oracle.py, modules
section) on positions of random games with the modules on."""

import functools
import random

import oracle
import pytest

from alhambra_ai import new_game

ALL = {"vizier": True, "camps": True, "bazaars": True, "falcons": True, "change": True, "walls": True}
WITH_TR = {**ALL, "thief": True, "residents": True}
TYPES = oracle.TYPES


def tiles_of(s, seat):
    return {(x, y): t for x, y, t, _w in s.city(seat).cells()}


def extra_of(s, seat):
    """Walls that wall cards added to the seat's tiles (0: its fountain)."""
    return {t: oracle.walls_of(w) for t, w in s.card_walls(seat).items()}


@functools.lru_cache(maxsize=200_000)
def _answer(kind, key, tile, extra_key):
    tiles, extra = dict(key), dict(extra_key)
    if kind == "place":
        return frozenset(oracle.module_placements(tiles, tile, extra))
    if kind == "swap":
        return frozenset(oracle.module_swaps(tiles, tile, extra))
    return frozenset(oracle.module_removals(tiles, extra))


def answer(kind, tiles, tile=None, extra=None):
    return _answer(kind, frozenset(tiles.items()), tile, frozenset((extra or {}).items()))


def no_camps(walls, tiles):
    """The city for wall scoring: a camp's bastions are no walls, and walls facing a camp stay outer walls."""
    return {cell: w for cell, w in walls.items() if tiles[cell] not in oracle.CAMP_BASTIONS}


def check_payments(s, texts, seat):
    """Every minimal payment (cards and coins) of every market slot, and nothing else, is listed."""
    letters = "ygbo"
    for k, t in enumerate(s.market()):
        if t is None:
            continue
        cards = [int(c[1]) for c in s.hand(seat) if c[0] == letters[k]]
        want = oracle.minimal_payments(cards, s.coins(seat)[k], oracle.TILE_COST[t])
        got = {(tuple(sorted(int(w[1]) for w in ws[2:] if w[1] != "c")), sum(w[1] == "c" for w in ws[2:]))
               for ws in texts if ws[0] == "buy" and ws[1] == str(k + 1)}
        assert got == want, (k, t, s.hand(seat), s.coins(seat))


def check_position(s):
    """Everything the oracle can say about the seat to act; returns how many answers were compared."""
    n = 0
    seat = s.current_player
    tiles = tiles_of(s, seat)
    extra = extra_of(s, seat)
    assert oracle.module_valid(tiles, extra), tiles
    texts = [s.action_to_text(a).split() for a in s.legal_actions()]
    cells = {}
    for w in texts:
        if w[0] in ("build", "place", "swap") and w[2] not in ("reserve", "dirk"):
            cells.setdefault((w[0], int(w[1])), set()).add(tuple(int(v) for v in w[2].split(",")))
    if s.phase == "action":
        for t in s.reserve(seat):
            assert cells.get(("build", t), set()) == answer("place", tiles, t, extra), (t, tiles)
            assert cells.get(("swap", t), set()) == answer("swap", tiles, t, extra), (t, tiles)
            n += 2
        removals = {tuple(int(v) for v in w[1].split(",")) for w in texts if w[0] == "remove"}
        assert removals == answer("remove", tiles, None, extra), tiles
        walls = {(int(w[1]), 0 if w[2] == "fountain" else int(w[2])) for w in texts if w[0] == "wall"}
        assert walls == oracle.wall_actions(tiles, s.reserve(seat), s.wall_cards(), extra), (tiles, extra)
        check_payments(s, texts, seat)
        n += 3
        if s.actions_this_turn == 0 and s.hand(seat):
            taken = {c for _f, c in s.falcons(seat)}
            want = {(f, c) for f in s.falcons() for c in oracle.falcon_corners(tiles, f) if c not in taken}
            got = {(int(w[1]), tuple(int(v) for v in w[3].split(","))) for w in texts if w[0] == "falcon"}
            assert got == want, tiles
            n += 1
    elif s.phase in ("place", "final"):
        for t in set(s.pending()):
            assert cells.get(("place", t), set()) == answer("place", tiles, t, extra), (t, tiles)
            n += 1
    for p in range(s.num_players):
        c, pt = s.city(p), tiles_of(s, p)
        assert c.camp_score() == oracle.camp_score(pt) and c.bazaar_score() == oracle.bazaar_score(pt)
        walls = {cell: oracle._walls(t, extra_of(s, p)) for cell, t in pt.items()}
        assert {(x, y): w for x, y, _t, w in c.cells()} == walls     # printed walls + pieces, nothing else
        assert c.wall_score() == oracle.wall_score(no_camps(walls, pt))
        n += 4
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
    if s.phase == "figures":
        assert {" ".join(w) for w in texts} == oracle.figure_choices(TYPES)
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
        tiles = tiles_of(s, p)
        walls = {cell: oracle._walls(t, extra_of(s, p)) for cell, t in tiles.items()}
        assert seat["wall"] == oracle.wall_score(no_camps(walls, tiles))
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
@pytest.mark.compute
def test_module_positions_against_oracle_slow():
    """>= 10,000 positions with the six modules on (every position of the games)."""
    positions, _answers = run(22, 9000)
    assert positions >= 10_000


def test_thief_and_residents_against_oracle():
    positions, answers = run(1, 602, every=3, options=WITH_TR)
    assert positions > 60 and answers > positions


@pytest.mark.slow
@pytest.mark.compute
def test_thief_and_residents_against_oracle_slow():
    """>= 10,000 positions with all six modules on (every position of the games)."""
    positions, _answers = run(22, 19000, options=WITH_TR)
    assert positions >= 10_000
