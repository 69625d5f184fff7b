"""The win statistics of every report of the arena: ranks from scores, win shares, the Wilson interval.

One definition of each, used by the referee (final ranks), the ratings (wins, head to head), ``strength``
(win rates) and ``sprt`` (deal scores). Pure functions of numbers: nothing is imported but ``math``.

Ranks are competition ranks ("1224"): 1 + the number of seats strictly better, so tied seats share a rank
and the next rank is skipped. A seat's win share is 1 for a sole first place, 1/k when k seats share it,
else 0; the shares of a game sum to 1.

>>> ranks([30, 41, 30, 12])
[2, 1, 2, 4]
>>> win_share([1, 1, 3], [0]), win_shares([1, 1, 3])
(0.5, [0.5, 0.5, 0.0])
>>> wilson(15, 20)   # 15 wins in 20 games
(0.531, 0.888)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

Z95 = 1.96  # the normal quantile of a two-sided 95% interval, as the reports have always used it


def ranks(scores: Sequence[float]) -> list[int]:
    """Competition ranks of ``scores``, the highest first (rank 1); ties share a rank.

    >>> ranks([5, 5, 5]), ranks([])
    ([1, 1, 1], [])
    """
    return [1 + sum(1 for t in scores if t > s) for s in scores]


def win_share(ranks: Sequence[int], seats: Iterable[int]) -> float:
    """The share of the win held by ``seats`` (seats sharing rank 1 split it equally).

    >>> win_share([1, 1, 3], [0, 1]), win_share([2, 1, 3], [0])
    (1.0, 0.0)
    """
    top = [i for i, r in enumerate(ranks) if r == 1]
    return sum(1 for i in seats if i in top) / len(top)


def win_shares(ranks: Sequence[int]) -> list[float]:
    """Every seat's win share (``win_share`` of that seat alone).

    >>> win_shares([1, 2, 2])
    [1.0, 0.0, 0.0]
    """
    return [win_share(ranks, [seat]) for seat in range(len(ranks))]


def pair_score(rank_a: int, rank_b: int) -> float:
    """A's score against B in one game: 1 for finishing above B, 1/2 level, 0 below (head to head).

    >>> pair_score(1, 3), pair_score(2, 2), pair_score(4, 1)
    (1.0, 0.5, 0.0)
    """
    return 1.0 if rank_a < rank_b else 0.5 if rank_a == rank_b else 0.0


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate ``wins / n`` (fractional wins allowed), rounded to 3
    places; (0, 1) for no games.

    >>> wilson(0, 0), wilson(0, 10), wilson(10, 10)
    ((0.0, 1.0), (0.0, 0.278), (0.722, 1.0))
    """
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3))


__all__ = ["Z95", "pair_score", "ranks", "wilson", "win_share", "win_shares"]
