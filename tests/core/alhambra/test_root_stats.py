"""Mcts.root_stats: the two halves of the reward (the root seat's margin in points and its win share) kept
apart per root move, consistent with the mixed reward root_children reports."""

import math

from alhambra_ai import new_game
from alhambra_ai._core import Mcts


def test_root_stats_are_the_halves_of_the_reward():
    state = new_game(3, seed=4)
    for _ in range(12):
        state.apply(state.legal_actions()[0])
    tree = Mcts([state], seed=3, rollout_turns=9)
    tree.run(20, 0.0)
    stats = tree.root_stats()
    assert [(a, v, r) for a, v, r, _m, _w in stats] == tree.root_children()
    assert sum(v for _a, v, *_ in stats) == 20
    assert all(0.0 <= w <= 1.0 for *_, w in stats)
    singles = [(r, m, w) for _a, v, r, m, w in stats if v == 1]
    assert singles
    for r, m, w in singles:     # one iteration: reward = win share / 2 + a logistic of the margin / 2
        assert math.isclose(r, 0.5 * w + 0.5 / (1 + math.exp(-m / 6.0)), abs_tol=1e-9)
    best = stats[0]
    assert best[1] > 1 and -200 < best[3] < 200
