"""alhambra_ai.arena.stats: the one definition of ranks, win shares and the Wilson interval, and its users."""

import doctest

import pytest

from alhambra_ai.arena import stats
from alhambra_ai.arena.ratings import Ratings
from alhambra_ai.arena.referee import final_ranks
from alhambra_ai.arena.stats import pair_score, ranks, wilson, win_share, win_shares


@pytest.mark.compute
def test_doctests():
    assert doctest.testmod(stats).failed == 0


@pytest.mark.compute
@pytest.mark.parametrize("scores", [[3, 1], [2, 2], [5, 9, 5, 1], [0, 0, 0, 0, 0, 0], [7, 7, 3, 9, 9]])
def test_ranks_and_shares_agree(scores):
    r = ranks(scores)
    assert r.count(1) == sum(s == max(scores) for s in scores)
    assert sum(win_shares(r)) == pytest.approx(1.0)
    assert win_share(r, range(len(r))) == 1.0
    assert all(pair_score(r[i], r[j]) + pair_score(r[j], r[i]) == 1.0
               for i in range(len(r)) for j in range(len(r)))


@pytest.mark.compute
def test_the_referee_and_the_ratings_count_with_it():
    assert final_ranks([1, 2, 2, 4], {0}) == [4, 1, 1, 3]
    assert final_ranks(ranks([10, 30, 20]), set()) == ranks([10, 30, 20])
    rated = Ratings(["a", "b", "c"])
    rated.update({"game": "g", "bots": ["a", "b", "c"], "ranks": [1, 1, 3], "scores": [4, 4, 1],
                  "forfeits": []})
    assert [rated.table[n].wins for n in "abc"] == win_shares([1, 1, 3])
    assert rated.table["a"].win_interval == wilson(0.5, 1)
