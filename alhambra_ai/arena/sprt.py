"""The sequential probability ratio test of ``alhambra-ai sprt``: is bot NEW stronger than bot BASE?

**Sample.** One deal (one deal seed played in every seat rotation: 2 games with 2 players, N with N) is one
sample. NEW sits in one seat against N-1 copies of BASE; the deal's score is NEW's mean win share over the
deal's games (1 for a sole win, 1/k for a first place shared by k seats, else 0), so equal bots score par
= 1/N on average. With 2 players a deal is a pair of games with the seats swapped and its score is one of
0, 1/4, 1/2, 3/4, 1: the pentanomial model of chess engine testing, in which the luck of the deal cancels.

**Hypotheses.** H0: NEW is ``elo0`` Elo stronger than BASE; H1: ``elo1`` stronger (default 0 and 5). The
expected deal score of a strength difference is the Bradley-Terry (Plackett-Luce) probability that one
player of strength +elo wins against N-1 players of strength 0::

    s / (1 - s) * (N - 1) = 10 ** (elo / 400),   i.e.   s = 1 / (1 + (N - 1) * 10 ** (-elo / 400))

which for 2 players is the logistic Elo formula. Or the hypotheses give the expected shares directly
(``share0``, ``share1``).

**Test.** Wald's sequential probability ratio test (Wald 1945): after every deal the log-likelihood ratio
LLR of H1 against H0 is compared with log(beta / (1 - alpha)) (accept H0 at or below) and
log((1 - beta) / alpha) (accept H1 at or above), where alpha and beta are the wanted false positive and
false negative rates. The hypotheses fix only the mean of the deal score, not its distribution, so each
one's likelihood is the largest over all distributions with that mean on the deal scores seen: the
generalized SPRT (GSPRT) of Michel Van den Bergh, used by fishtest and fastchess for pentanomial results.
For an empirical distribution p_i on scores a_i, the most likely distribution with mean s is
p_i / (1 + theta (a_i - s)), theta the root of sum_i p_i (a_i - s) / (1 + theta (a_i - s)) = 0 (Van den
Bergh, "Comments on Normalized Elo", Proposition 1.1), and LLR = n sum_i p_i log(p1_i / p0_i) over n deals.
As fastchess does, a possible score not seen yet counts 0.001 times, so that the most likely distribution
exists for any mean in (0, 1) from the first deal on; the possible scores here are the multiples of
1/(2N) (wins, losses and 2-way shares: exactly the pentanomial scores with 2 players) and any other seen.

**Estimate.** The mean deal score m with the 95% interval m +- 1.96 sd / sqrt(n) (normal approximation),
turned into Elo by the inverse of the formula above.

>>> round(elo_to_share(0, 2), 3), round(elo_to_share(0, 4), 3), round(elo_to_share(5, 2), 4)
(0.5, 0.25, 0.5072)
>>> round(share_to_elo(elo_to_share(30, 4), 4), 6)
30.0
>>> test = Sprt(players=2, elo0=0, elo1=100)
>>> [round(b, 3) for b in (test.lower, test.upper)]
[-2.944, 2.944]
>>> for score in [1, 0.75, 0.5, 1, 0.75, 1, 0.5, 1, 1, 0.75]:
...     test.add(score)
>>> test.deals, test.games, round(test.llr(), 2), test.status
(10, 20, 2.47, None)
>>> test.add(1); test.add(1)
>>> round(test.llr(), 2), test.status, round(test.estimate().elo)
(2.96, 'H1', 307)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

REGULAR = 1e-3  # the count of a possible deal score not seen yet (fastchess's regularisation)
Z95 = 1.959964  # the normal quantile of a two-sided 95% interval


def elo_to_share(elo: float, players: int) -> float:
    """The expected deal score of a player ``elo`` stronger than each of its ``players - 1`` opponents."""
    return 1.0 / (1.0 + (players - 1) * 10.0 ** (-elo / 400.0))


def share_to_elo(share: float, players: int) -> float:
    """The inverse of ``elo_to_share``: -inf at share 0, +inf at 1.

    >>> share_to_elo(0.5, 2), share_to_elo(1.0, 3)
    (0.0, inf)
    """
    if share <= 0:
        return -math.inf
    if share >= 1:
        return math.inf
    return 400.0 * math.log10(share * (players - 1) / (1.0 - share))


def score_grid(players: int) -> np.ndarray:
    """The deal scores with wins, losses and 2-way shares: the multiples of 1/(2N).

    >>> score_grid(2).tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    """
    return np.arange(2 * players + 1) / (2 * players)


def mle_theta(a: np.ndarray, p: np.ndarray) -> np.ndarray:
    """The root theta of f(theta) = sum_i p_i a_i / (1 + theta a_i) = 0 per row of ``p`` (shape (..., K),
    every entry > 0), ``a`` (shape (K,)) the scores minus the hypothesis' mean, with both signs present.

    f falls strictly between its poles at -1/max(a) and -1/min(a), and at the root every p_i / (1 + theta
    a_i) is a probability (<= 1), which brackets it away from the poles. Newton's method, bisecting when a
    step would leave the bracket that every step narrows; a row is done when f is zero up to rounding
    (relative to its terms) or its bracket is a few ulps wide. Finished rows drop out."""
    shape = p.shape[:-1]
    p = p.reshape(-1, p.shape[-1])
    top, bottom = int(np.argmax(a)), int(np.argmin(a))
    lo = (p[:, top] - 1.0) / a[top]  # 1 + theta a_top >= p_top
    hi = (p[:, bottom] - 1.0) / a[bottom]
    x = np.clip(np.zeros(len(p)), lo, hi)  # theta = 0: the empirical distribution itself
    todo = np.arange(len(p))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for _ in range(300):
            if not len(todo):
                break
            t, pt, tlo, thi = x[todo], p[todo], lo[todo], hi[todo]
            terms = pt * a / (1.0 + t[:, None] * a)
            f = terms.sum(-1)
            df = -(terms * terms / pt).sum(-1)
            tlo, thi = np.where(f > 0, t, tlo), np.where(f > 0, thi, t)  # f > 0: the root lies right of t
            newton = t - f / df
            new = np.where((newton > tlo) & (newton < thi), newton, 0.5 * (tlo + thi))
            done = ((np.abs(f) <= 1e-12 * np.abs(terms).sum(-1))
                    | (thi - tlo <= 1e-14 * np.maximum(1.0, np.abs(t))))
            x[todo] = np.where(done, t, new)
            lo[todo], hi[todo] = tlo, thi
            todo = todo[~done]
    return x.reshape(shape)


def llr(values, counts, s0: float, s1: float) -> np.ndarray:
    """The GSPRT log-likelihood ratio of mean ``s1`` against mean ``s0`` for deal scores ``values`` (shape
    (K,), including 0 and 1) seen ``counts`` times (shape (..., K): one row per run, for simulations).
    Counts of 0 are regularised to 0.001; no deals at all give 0.

    >>> float(llr([0, 0.5, 1], [0, 10, 0], 0.5, 0.6)) < 0 < float(llr([0, 0.5, 1], [0, 2, 8], 0.5, 0.6))
    True
    """
    a = np.asarray(values, dtype=float)
    c = np.asarray(counts, dtype=float)
    if not (a.min() < s0 < a.max() and a.min() < s1 < a.max()):
        raise ValueError("the hypotheses' mean scores must lie strictly between the lowest and highest score")
    seen = c.sum(-1)
    c = np.where(c > 0, c, REGULAR)
    n = c.sum(-1)
    p = c / n[..., None]
    t0, t1 = mle_theta(a - s0, p), mle_theta(a - s1, p)
    # log(p1_i / p0_i) = log(1 + t0 (a_i - s0)) - log(1 + t1 (a_i - s1))
    ratio = np.log1p(t0[..., None] * (a - s0)) - np.log1p(t1[..., None] * (a - s1))
    return np.where(seen > 0, n * (p * ratio).sum(-1), 0.0)


@dataclass(frozen=True)
class Estimate:
    """The mean deal score with its 95% interval, and the same as Elo."""

    share: float
    share_low: float
    share_high: float
    elo: float
    elo_low: float
    elo_high: float


class Sprt:
    """The test's state: the hypotheses, the bounds and the deal scores so far (in deal order).

    ``elo0``/``elo1`` or ``share0``/``share1`` (the expected deal scores; they take precedence) give H0
    and H1; ``alpha`` and ``beta`` the error rates. Raises ValueError for impossible settings."""

    def __init__(self, players: int = 2, elo0: float = 0.0, elo1: float = 5.0, alpha: float = 0.05,
                 beta: float = 0.05, share0: float | None = None, share1: float | None = None):
        if not 2 <= players <= 6:
            raise ValueError(f"players must be 2..6, not {players}")
        if (share0 is None) != (share1 is None):
            raise ValueError("give both --share0 and --share1, or neither")
        if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
            raise ValueError("alpha and beta must lie in (0, 1) with alpha + beta < 1")
        elo_given = share0 is None
        if share0 is None or share1 is None:  # both None (checked above): H0 and H1 from the Elo
            if not elo0 < elo1:
                raise ValueError(f"elo0 must be less than elo1 (got {elo0:g} and {elo1:g})")
            share0, share1 = elo_to_share(elo0, players), elo_to_share(elo1, players)
            if not 0 < share0 < share1 < 1:  # too close together, or so far out that a share rounds to 0 or 1
                raise ValueError(f"elo0 {elo0:g} and elo1 {elo1:g} give no two distinct shares in (0, 1)")
        elif not 0 < share0 < share1 < 1:
            raise ValueError(f"0 < share0 < share1 < 1 is needed (got {share0:g} and {share1:g})")
        self.players, self.alpha, self.beta = players, alpha, beta
        self.s0, self.s1 = float(share0), float(share1)
        self.elo0 = float(elo0) if elo_given else share_to_elo(self.s0, players)
        self.elo1 = float(elo1) if elo_given else share_to_elo(self.s1, players)
        self.lower, self.upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
        self.counts: dict[float, int] = {}
        self._llr: float | None = 0.0  # the LLR of the counts (None: to compute)

    def add(self, score: float) -> None:
        """One more deal's score (NEW's mean win share over the deal's games)."""
        if not 0 <= score <= 1:
            raise ValueError(f"a deal score lies in [0, 1], not {score}")
        key = round(float(score), 12)  # the same share summed in another order is the same score
        self.counts[key] = self.counts.get(key, 0) + 1
        self._llr = None

    @property
    def deals(self) -> int:
        return sum(self.counts.values())

    @property
    def games(self) -> int:
        return self.deals * self.players

    @property
    def par(self) -> float:
        return 1.0 / self.players

    def _support(self) -> tuple[np.ndarray, np.ndarray]:
        values = np.union1d(score_grid(self.players), np.array(sorted(self.counts), dtype=float))
        counts = np.array([self.counts.get(round(float(v), 12), 0) for v in values], dtype=float)
        return values, counts

    def llr(self) -> float:
        if self._llr is None:  # once per deal, however often the run asks
            values, counts = self._support()
            self._llr = float(llr(values, counts, self.s0, self.s1))
        return self._llr

    @property
    def status(self) -> str | None:
        """'H1' (NEW is elo1 stronger: accepted), 'H0' (elo0: accepted) or None (play on)."""
        value = self.llr()
        return "H1" if value >= self.upper else "H0" if value <= self.lower else None

    def estimate(self) -> Estimate:
        """NEW's mean deal score and Elo, each with its 95% interval (normal approximation)."""
        n = self.deals
        if n == 0:
            return Estimate(self.par, 0.0, 1.0, 0.0, -math.inf, math.inf)
        values, counts = self._support()
        mean = float((values * counts).sum() / n)
        sd = math.sqrt(float((counts * (values - mean) ** 2).sum() / n))
        half = Z95 * sd / math.sqrt(n)
        low, high = max(0.0, mean - half), min(1.0, mean + half)
        return Estimate(mean, low, high, *(share_to_elo(s, self.players) for s in (mean, low, high)))
