"""The dice games' position value for the search bots (alhambra_ai/dice_search.py): the expected final score
margin of one seat, from public facts only.

Units are score points of the margin D = own score - the mean of the other humans' (Dirk never wins, so his
score counts only through the majorities he takes). Three parts, each an expectation:

- **Majorities** (basic game): per type and scoring still to come, every row's place is uncertain while rounds
  remain; a pairwise model (a row beats another with probability Phi(points gap / spread), spread growing with
  the rounds until that scoring, the arrival order breaking exact ties) gives each row's expected points. A
  scoring with no round left before it is exact. :meth:`Value.gain` is what k more building points of a type
  are worth to a row in D: the marginal the dice decisions buy.
- **Tiles**: points tiles times the scorings left; action tiles a small constant while rounds remain.
- **This round's markers**: per column the best two markers' owners take the rewards (the best chooses, Dirk
  takes 2 points); markers still to be placed may land above (probability of reaching a field when aiming at
  the column, times how often a marker aims at a given column).

>>> from alhambra_ai import new_game
>>> s = new_game(2, 1, game="dice")
>>> v = Value(s, 0)
>>> round(v.total(), 6) == round(-Value(s, 1).total(), 6)   # zero-sum between the two humans at the start
True
"""

from __future__ import annotations

import math
from math import comb

SCORING_ROUNDS = (1, 3, 5)                            # scoring A, B, C come after these rounds
MAJ = [[[t + 1] for t in range(6)], [[t + 8, t + 1] for t in range(6)],
       [[t + 16, t + 8, t + 1] for t in range(6)]]     # DICE-RULES §7 (the bots' own copy: a heuristic input)
SPREAD = 1.7            # building-point spread of one type between two rows per round still to play
AIM = 0.3               # chance that one marker still to place aims at (and can reach) a given column
ACTION_TILE = {"void": 1.2, "convert": 1.0, "black": 1.8, "push": 1.0}
START_TILE = 0.3


def _reach_table() -> list[float]:
    """reach[i] = probability that a seat aiming at one type ends above field index i (3 rolls, keeping the
    type's dice; the better of stopping after 1, 2 or 3 rolls)."""
    out = []
    for i in range(-1, 24):
        best = 0.0
        for rolls in (1, 2, 3):
            p = 1 - (5 / 6) ** rolls
            prob = sum(comb(8, c) * p ** c * (1 - p) ** (8 - c) for c in range(1, 9)
                       if 3 * (c - 1) + 3 - rolls > i)
            best = max(best, prob)
        out.append(best)
    return out


REACH = _reach_table()      # REACH[i + 1]: above field index i (REACH[0]: any field)


def _phi(x: float) -> float:
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


class Value:
    """The value of a DiceState for ``seat`` (basic game), with the marginal tables the dice decisions use."""

    def __init__(self, state, seat: int) -> None:
        self.seat = seat
        n = state.num_players
        self.n = n
        self.rows = list(range(n)) + (["dirk"] if n == 2 else [])
        self.round = state.round
        phase = state.phase
        self.evaluating = phase in ("reward", "name")
        self.over = phase == "over"
        obs_rows = state.observation(seat)
        self.arr = obs_rows["arrivals"]
        self.ev = obs_rows["evaluation"]
        self.bp = [state.building_points(r) for r in self.rows]
        self.held = [state.bonus_tiles(r) for r in self.rows]
        self.scores = state.scores()
        self.fields = [state.column(t) for t in range(6)]
        self.bonus = state.bonus_fields()
        placed = {r: 0 for r in self.rows}
        for col in self.fields:
            for o in col:
                if o is not None:
                    placed[o] += 1
        self.rem = {}
        for k, r in enumerate(self.rows):
            self.rem[r] = 0 if (self.evaluating or r == "dirk" or self.over) else max(
                0, obs_rows["markers"] - placed[r] - obs_rows["fallen"][k] - obs_rows["aside"][k])
        # scorings still to come: (table index, rounds of growth before it beyond the current round)
        done = state.scoring_rounds_done
        self.scorings = [(k, SCORING_ROUNDS[k] - self.round) for k in range(done, 3)]
        self._maj = [self._maj_type(t, [b[t] for b in self.bp], [a[t] for a in self.arr]) for t in range(6)]
        self._gain = {}

    # ------------------------------------------------------------ majorities

    def _weights(self) -> list[float]:
        """D per point of each row: +1 own, -1/(n-1) another human, 0 Dirk."""
        return [1.0 if r == self.seat else (0.0 if r == "dirk" else -1.0 / (self.n - 1)) for r in self.rows]

    def _maj_type(self, t: int, bps: list[int], arrs: list[int]) -> float:
        """D from type t's majorities at the scorings to come, with these building points per row."""
        w = self._weights()
        m = len(bps)
        total = 0.0
        for k, growth in self.scorings:
            table = MAJ[k][t]
            if growth <= 0:
                order = sorted((i for i in range(m) if bps[i] > 0), key=lambda i: (-bps[i], arrs[i]))
                for place, i in enumerate(order[:len(table)]):
                    total += w[i] * table[place]
                continue
            sd = SPREAD * math.sqrt(growth)
            for i in range(m):
                if w[i] == 0:
                    continue
                # Poisson-binomial over the rows that beat row i
                dist = [1.0]
                for j in range(m):
                    if j == i:
                        continue
                    gap = bps[i] - bps[j] + (0.3 if arrs[i] < arrs[j] else -0.3)
                    p_lose = 1 - _phi(gap / sd)
                    nxt = [0.0] * (len(dist) + 1)
                    for c, pr in enumerate(dist):
                        nxt[c] += pr * (1 - p_lose)
                        nxt[c + 1] += pr * p_lose
                    dist = nxt
                total += w[i] * sum(dist[p] * table[p] for p in range(min(len(dist), len(table))))
        return total

    def gain(self, row, t: int, k: int) -> float:
        """D gained when ``row`` receives k building points of type t (capped at 12; it arrives last)."""
        key = (row, t, k)
        if key not in self._gain:
            i = self.rows.index(row)
            bps = [b[t] for b in self.bp]
            arrs = [a[t] for a in self.arr]
            if bps[i] >= 12:
                self._gain[key] = 0.0
            else:
                bps[i] = min(12, bps[i] + k)
                arrs[i] = 10 ** 6
                self._gain[key] = self._maj_type(t, bps, arrs) - self._maj[t]
        return self._gain[key]

    # ------------------------------------------------------------ tiles

    def scorings_left(self) -> int:
        return len(self.scorings)

    def tile_value(self, code: str | None, row) -> float:
        """D of ``row`` receiving the bonus tile ``code`` now."""
        if code is None:
            return 0.0
        w = self._weights()[self.rows.index(row)]
        if code.startswith("points"):
            return w * int(code[-1]) * self.scorings_left()
        if row == "dirk":
            return 0.0
        if code == "start":
            return w * START_TILE
        return w * ACTION_TILE.get(code, 0.0) * (1.0 if self.round < 5 else 0.0)

    # ------------------------------------------------------------ this round's markers

    def rewards(self, t: int, o1, o2) -> float:
        """D of the column-t rewards going to o1 (best, chooses) and o2 (second); None = nobody."""
        if o1 is None:
            return 0.0
        tile = self.bonus[t]
        if o1 == o2:
            return self.gain(o1, t, 3) + self.tile_value(tile, o1)
        two = self.gain(o1, t, 2) + (self.gain(o2, t, 1) + self.tile_value(tile, o2) if o2 is not None else 0)
        if o1 == "dirk":
            return two
        one = self.gain(o1, t, 1) + self.tile_value(tile, o1) + (self.gain(o2, t, 2) if o2 is not None else 0)
        own_two = self.gain(o1, t, 2)
        own_one = self.gain(o1, t, 1) + self.tile_value(tile, o1)
        if o1 != self.seat:           # the other seat's own view of its choice: the opposite of ours
            own_two, own_one = -own_two, -own_one
        return two if own_two >= own_one else one

    def column(self, t: int, col: list, rem: dict) -> float:
        """Expected D of column t with these markers (owners by field index) and markers still to place."""
        tops = [(i, o) for i, o in enumerate(col) if o is not None][::-1][:2]
        i1, o1 = tops[0] if tops else (-1, None)
        i2, o2 = tops[1] if len(tops) > 1 else (-1, None)
        base = self.rewards(t, o1, o2)
        total = 0.0
        p_none = 1.0
        for r, m in rem.items():
            if not m:
                continue
            a = 1 - (1 - AIM * REACH[i1 + 1]) ** m
            b = 1 - (1 - AIM * max(0.0, REACH[i2 + 1] - REACH[i1 + 1])) ** m if o1 is not None else 0.0
            total += a * self.rewards(t, r, o1) + b * self.rewards(t, o1, r)
            p_none -= a + b
        if p_none < 0:
            total /= 1 - p_none
            p_none = 0.0
        return total + p_none * base

    def markers(self) -> float:
        """D of the markers on the board (columns not yet evaluated)."""
        if self.over:
            return 0.0
        total = 0.0
        for t in range(6):
            if self.evaluating and t < self.ev["column"]:
                continue
            if self.evaluating and t == self.ev["column"]:
                total += self._column_in_evaluation(t)
                continue
            total += self.column(t, self.fields[t], self.rem)
        return total

    def _column_in_evaluation(self, t: int) -> float:
        tops = [o for o in self.fields[t][::-1] if o is not None][:2]
        if self.ev["rank"] == 0:
            return self.rewards(t, *(tops + [None, None])[:2])
        if len(tops) < 2:
            return 0.0
        o2 = tops[1]           # the other reward than the best took (ev["first"] = 1: 1 point + tile taken)
        return self.gain(o2, t, 2) if self.ev["first"] == 1 else self.gain(o2, t, 1) + self.tile_value(
            self.bonus[t], o2)

    # ------------------------------------------------------------ the whole

    def total(self) -> float:
        """Expected final margin D of the seat."""
        w = self._weights()
        d = sum(w[i] * self.scores[i] for i in range(self.n))
        d += sum(self._maj)
        for k, r in enumerate(self.rows):
            for code, cnt in self.held[k].items():
                d += cnt * self.tile_value(code, r)
        return d + self.markers()
