"""Invariants of the dice games over random games: step by step on a few games (default run), at the end of
2,000 random games per player count for each game (slow)."""

import pytest

from alhambra_ai import new_game

TOTAL_NORMAL = [4, 4, 2, 3, 2, 3, 2, 0]      # data/dice_bonus.csv, normal backs, by code
TOTAL_DARK = [2, 2, 2, 0, 0, 0, 0, 0]
NAMES = ["points1", "points2", "points3", "void", "convert", "black", "push", "start"]


def check_end(s):
    """What must hold when a game is over."""
    n = s.num_players
    assert s.is_terminal() and s.current_player == -1 and s.legal_actions() == []
    bd = s.score_breakdown()
    assert [b["round"] for b in bd] == [1, 2, 3]
    assert s.scores() == [sum(b["seats"][i]["total"] for b in bd) for i in range(n)]
    if n == 2:
        assert s.dirk_score == sum(b["dirk"]["total"] for b in bd)
    check_any(s)


def check_any(s):
    """What must hold in every position."""
    n = s.num_players
    rows = list(range(n)) + (["dirk"] if n == 2 else [])
    obs = s.observation(0)
    markers = obs["markers"]
    for t in range(6):
        col = s.column(t)
        assert len(col) == 24
    for k, row in enumerate(rows):
        on_board = sum(s.column(t).count(row) for t in range(6))
        if row == "dirk":
            assert on_board + s.fallen(row) <= 5
        else:
            assert on_board + obs["fallen"][k] + obs["aside"][k] <= markers
    if s.game == "dice":
        held = [0] * 8
        for row in rows:
            assert all(0 <= p <= 12 for p in s.building_points(row))
            for name, cnt in s.bonus_tiles(row).items():
                held[NAMES.index(name)] += cnt
        shown = [0] * 8
        for f in s.bonus_fields():
            if f is not None:
                shown[NAMES.index(f)] += 1
        assert held[7] == 0 and shown[7] <= 1
        assert all(held[c] + shown[c] <= TOTAL_NORMAL[c] + TOTAL_DARK[c] for c in range(7))
    else:
        tiles = []
        for i in range(n):
            tiles += [t for (_, _, t, _) in s.city(i).cells() if t] + s.reserve(i)
            assert s.city(i).is_valid() is None
        tiles += s.dirk_tiles() + s.aside_tiles() + s.pending()
        tiles += [t for c in range(6) for t in s.column_items(c) if t != "start"]
        h = s._hidden()
        tiles += [t for st in h["stacks"][s.round:] for t in st] + h["bag"]
        assert sorted(tiles) == list(range(1, 55)) + [71]


@pytest.mark.parametrize("game", ["dice", "alcazaba"])
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_step_by_step_invariants(game, n):
    for seed in range(3):
        s = new_game(n, seed, game=game)
        k = 0
        while not s.is_terminal():
            legal = s.legal_actions()
            assert legal and len(set(legal)) == len(legal)
            if k % 5 == 0:
                check_any(s)
                c = s.clone()
                assert c._fingerprint() == s._fingerprint()
            s.apply(legal[(k * 2654435761 + seed) % len(legal)])
            k += 1
        check_end(s)


@pytest.mark.slow
@pytest.mark.compute
@pytest.mark.parametrize("game", ["dice", "alcazaba"])
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_two_thousand_random_games(game, n):
    for seed in range(2000):
        s = new_game(n, seed, game=game)
        s.record_history = False
        s.random_playout(seed)
        check_end(s)
