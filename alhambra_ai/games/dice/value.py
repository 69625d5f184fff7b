"""The dice games' position value for the search bots (``search.py``): the expected final score
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

from alhambra_ai._core import TYPE_NAMES, majority_points, tile_info

SCORING_ROUNDS = (1, 3, 5)                            # scoring A, B, C come after these rounds
MAJ = majority_points()                                # §dice-7: [scoring A/B/C][type] -> the places' points
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


REACH = _reach_table()
_MAJ_MEMO: dict = {}      # REACH[i + 1]: above field index i (REACH[0]: any field)


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
        self.evaluating = phase in ("reward", "name", "pick", "place")
        self.over = phase == "over"
        obs_rows = state.observation(seat)
        self.ev = obs_rows["evaluation"]
        self.scores = state.scores()
        self.fields = [state.column(t) for t in range(6)]
        self._read(state, obs_rows)
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
        self._w = self._weights()
        self._maj = [self._maj_type(t, [b[t] for b in self.bp], [a[t] for a in self.arr]) for t in range(6)]
        self._gain: dict[tuple, float] = {}

    def _read(self, state, obs: dict) -> None:
        """The game's facts: building points (the majorities' counts), bonus tiles held and on the board."""
        self.bp = [state.building_points(r) for r in self.rows]
        self.arr = obs["arrivals"]
        self.held = [state.bonus_tiles(r) for r in self.rows]
        self.bonus = state.bonus_fields()

    # ------------------------------------------------------------ majorities

    def _weights(self) -> list[float]:
        """D per point of each row: +1 own, -1/(n-1) another human, 0 Dirk."""
        return [1.0 if r == self.seat else (0.0 if r == "dirk" else -1.0 / (self.n - 1)) for r in self.rows]

    def _maj_type(self, t: int, bps: list[int], arrs: list[int]) -> float:
        """D from type t's majorities at the scorings to come, with these building points per row (a pure
        function of its inputs: memoized across positions, the searches ask it for the same few again and
        again)."""
        key = (type(self), self.seat, self.n, self.round, tuple(self.scorings), t, tuple(bps), tuple(arrs))
        out = _MAJ_MEMO.get(key)
        if out is None:
            if len(_MAJ_MEMO) > 200_000:
                _MAJ_MEMO.clear()
            out = _MAJ_MEMO[key] = self._maj_type_now(t, bps, arrs)
        return out

    def _maj_type_now(self, t: int, bps: list[int], arrs: list[int]) -> float:
        w = self._w
        m = len(bps)
        total = 0.0
        for k, growth in self.scorings:
            table = MAJ[k][t]
            if growth <= 0:
                total += sum(w[i] * p for i, p in enumerate(self._exact(table, bps, arrs)))
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
                    gap = bps[i] - bps[j] + (0.3 if arrs[i] < arrs[j] else -0.3 if arrs[i] > arrs[j] else 0.0)
                    p_lose = 1 - _phi(gap / sd)
                    nxt = [0.0] * (len(dist) + 1)
                    for c, pr in enumerate(dist):
                        nxt[c] += pr * (1 - p_lose)
                        nxt[c + 1] += pr * p_lose
                    dist = nxt
                total += w[i] * sum(dist[p] * table[p] for p in range(min(len(dist), len(table))))
        return total

    @staticmethod
    def _exact(table: list[int], bps: list[int], arrs: list[int]) -> list[float]:
        """Points per row of one type's scoring now: no ties (earlier arrival ranks better), 0 no place."""
        out = [0.0] * len(bps)
        order = sorted((i for i in range(len(bps)) if bps[i] > 0), key=lambda i: (-bps[i], arrs[i]))
        for place, i in enumerate(order[:len(table)]):
            out[i] = table[place]
        return out

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
            # a marker of r lands above the second (if any): above the best too, or between them, in the
            # ratio of the chances to reach those fields
            above = 1 - (1 - AIM * REACH[i2 + 1]) ** m
            a = above * REACH[i1 + 1] / REACH[i2 + 1] if o1 is not None and REACH[i2 + 1] else above
            b = above - a
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

    def total(self, rem: dict | None = None, markers: bool = True) -> float:
        """Expected final margin D of the seat (``rem``: markers still to place per row instead of the
        state's; ``markers=False``: without this round's markers, for choices that leave them alike)."""
        w = self._weights()
        d = sum(w[i] * self.scores[i] for i in range(self.n))
        d += sum(self._maj)
        d += self._holdings()
        if markers:
            if rem is not None:
                rem, self.rem = self.rem, rem
            d += self.markers()
            if rem is not None:
                self.rem = rem
        return d

    def _holdings(self) -> float:
        d = 0.0
        for k, r in enumerate(self.rows):
            for code, cnt in self.held[k].items():
                d += cnt * self.tile_value(code, r)
        return d


class AlcazabaValue(Value):
    """The same for Alcazaba: the counts are city tiles per type (Dirk: his tiles), ties share the places'
    points (rounded down), each human's outer wall scores at every scoring left; a column's markers take its
    items best first while items remain (Dirk the cheapest tile), a tile worth its majority gain or, given to
    Dirk (D22), the gain it denies."""

    def _read(self, state, obs: dict) -> None:
        self.bp = []
        for r in self.rows:
            tiles = obs["dirk_tiles"] if r == "dirk" else [c[2] for c in obs["cities"][r] if c[2]]
            counts = [0] * 6
            for tile in tiles:
                counts[_tile_type(tile, tile_info)] += 1
            self.bp.append(counts)
        self.arr = [[0] * 6 for _ in self.rows]
        self.items = obs["column_items"]
        self.walls = [state.city(i).wall_score() for i in range(self.n)]
        self.reserves = [len(x) for x in obs["reserves"]]
        self.pending = obs["pending"] if obs["phase"] == "place" else []
        self.current = obs["current_player"]
        self.held = [{} for _ in self.rows]
        self.bonus = [None] * 6
        self._items: dict[tuple, float] = {}

    @staticmethod
    def _exact(table: list[int], bps: list[int], arrs: list[int]) -> list[float]:
        out = [0.0] * len(bps)
        place = 0
        for level in sorted({b for b in bps if b > 0}, reverse=True):
            group = [i for i, b in enumerate(bps) if b == level]
            pts = sum(table[p] for p in range(place, min(place + len(group), len(table))))
            for i in group:
                out[i] = pts // len(group)
            place += len(group)
        return out

    def item_value(self, item, row) -> float:
        """D of ``row`` taking ``item`` (a tile id or 'start'); a human may give a tile to Dirk instead."""
        key = (item, row)
        if key not in self._items:
            self._items[key] = self._item_value(item, row)
        return self._items[key]

    def _item_value(self, item, row) -> float:
        w = self._w[self.rows.index(row)]
        if item == "start":
            return w * START_TILE
        t = _tile_type(item, tile_info)
        own = self.gain(row, t, 1) + w * WALL_TILE
        if row == "dirk" or "dirk" not in self.rows:
            return own
        give = self.gain("dirk", t, 1)
        return max(own, give) if row == self.seat else min(own, give)

    def picks(self, t: int, owners: list, items: list) -> float:
        """D of the owners (best first) taking column t's items in turn."""
        items = list(items)
        total = 0.0
        for o in owners:
            if not items:
                break
            if o == "dirk":
                tiles = [x for x in items if x != "start"]
                pick = min(tiles, key=lambda x: (_tile_cost(x, tile_info), x)) if tiles else "start"
                val = self.item_value(pick, o)
            else:
                vals = [(self.item_value(x, o), x) for x in items]
                val, pick = max(vals, key=lambda e: e[0]) if o == self.seat else min(vals, key=lambda e: e[0])
            items.remove(pick)
            total += val
        return total

    def column(self, t: int, col: list, rem: dict) -> float:
        items = self.items[t]
        if not items:
            return 0.0
        owners = [o for o in col[::-1] if o is not None]
        i1 = max((i for i, o in enumerate(col) if o is not None), default=-1)
        base = self.picks(t, owners, items)
        total, p_none = 0.0, 1.0
        for r, m in rem.items():
            if not m:
                continue
            a = 1 - (1 - AIM * REACH[i1 + 1]) ** m
            b = 1 - (1 - AIM * (1 - REACH[i1 + 1])) ** m if len(owners) < len(items) and owners else 0.0
            total += a * self.picks(t, [r] + owners, items) + b * self.picks(t, owners + [r], items)
            p_none -= a + b
        if p_none < 0:
            total /= 1 - p_none
            p_none = 0.0
        return total + p_none * base

    def _column_in_evaluation(self, t: int) -> float:
        owners = [o for o in self.fields[t][::-1] if o is not None][self.ev["rank"]:]
        return self.picks(t, owners, self.items[t])

    def _holdings(self) -> float:
        w = self._weights()
        d = sum(w[i] * (self.walls[i] * self.scorings_left() + RESERVE_TILE * self.reserves[i])
                for i in range(self.n))
        for tile in self.pending:                   # picked, not yet placed: its holder will place it well
            d += self.item_value(tile, self.current)
        return d


WALL_TILE = 0.4         # a tile placed in a city: what it adds to the wall and its shape, on average
RESERVE_TILE = 0.3


def _tile_type(tile: int, tile_info) -> int:
    return TYPES.index(tile_info(tile)[0])      # the extra tower 71 included (D23)


def _tile_cost(tile: int, tile_info) -> int:
    return tile_info(tile)[1]


TYPES = TYPE_NAMES


def value_of(state, seat: int) -> Value:
    """The Value of the state's game for ``seat``."""
    return (AlcazabaValue if state.game == "alcazaba" else Value)(state, seat)
