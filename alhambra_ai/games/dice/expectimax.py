"""Expectimax for the dice games' turn (bots/expectimax.py via ``alhambra_ai.games.dice.search``).

A turn's dice decisions are a small stochastic game against nature. Stopping with ``count`` symbols of
type t after ``rolls`` rolls puts the marker on a field; that field is worth the change it makes to column
t's expected rewards (:class:`value.Value`: the majorities and tiles the rewards buy, the
chance that markers still to come land above). A re-roll is valued by the **exact expectation over its
outcomes** (``state.chance_outcomes``: every multiset of the rolled faces with its multinomial probability)
of the best continuation at the next roll: stop on the best type, or keep one type's dice and roll again,
the latter valued by the binomial chain of that type (exact for a kept type, a lower bound for switching
types). Void roll, black die and push back are weighed the same way against the tile they spend. Decisions
outside the dice (rewards, converts, the next start player) are one ply on the same value.

>>> from alhambra_ai import new_game
>>> s = new_game(2, 4, game="dice"); s.apply("roll")
>>> choose(s) in s.legal_actions()
True
"""

from __future__ import annotations

import time
from math import comb

from alhambra_ai.games.dice.value import Value, value_of

NEG = -1e9
ALL_REROLLS = 0         # 1: every distinct re-roll is a candidate (keeping dice of several types too), else
                        # keep one type's dice or none (1: 44.0% [0.312, 0.577] of 50 dice games against
                        # the frozen baseline, exact: no gain for the time it costs)
EXACT_DICE = 6          # re-rolls of up to 6 dice are valued exactly (462 outcomes); 7-8 by their chain
_OUTCOMES: dict = {}
D_ROLL, D_STOP, D_VOID, D_BLACK = 1, 2, 9, 10
_BIN = {k: [comb(k, j) * (1 / 6) ** j * (5 / 6) ** (k - j) for j in range(k + 1)] for k in range(9)}


def _index(count: int, rolls: int) -> int:
    """The field index (v - 1) of `count` symbols after `rolls` rolls; 9 symbols count as 8 in 1 roll."""
    return 23 if count >= 9 else 3 * (count - 1) + 3 - rolls


class Turn:
    """The dice decisions of the seat to act in an ``after_roll`` position."""

    def __init__(self, state, value: Value, deadline: float | None = None) -> None:
        self.state = state
        self.deadline = deadline
        self.v = value
        self.seat = state.current_player
        rem = dict(value.rem)
        # Markers of one's own still to come: left out in the basic game (counted, a field looks worth little
        # because a later marker might take it anyway; equal strength either way in 200 seeded games), kept in
        # Alcazaba, where every marker of a column with items left takes one (43 of 100 left out).
        own = max(0, rem[self.seat] - 1) if state.game == "alcazaba" else 0
        rem[self.seat] = own
        self.rem = rem
        self.base = [value.column(t, value.fields[t], rem) for t in range(6)]
        self._field: dict[tuple[int, int], float] = {}
        self.stop = [[[NEG] * 4 for _ in range(10)] for _ in range(6)]     # stop[t][count][rolls]
        for t in range(6):
            for count in range(1, 10):
                for rolls in (1, 2, 3):
                    self.stop[t][count][rolls] = self.field_value(t, _index(count, rolls))
        dice, black = state.dice()
        self.black = black
        self._w: dict[tuple, float] = {}
        self._v: dict[tuple, float] = {}
        self._lost: float | None = None   # the position's value without markers, once a rebuild is valued

    def field_value(self, t: int, i: int) -> float:
        """D of a marker aimed at field index i of column t (sliding down past occupied fields)."""
        col = self.v.fields[t]
        while i >= 0 and col[i] is not None:
            i -= 1
        if i < 0:
            return 0.0                                       # falls off: the marker is lost
        if (t, i) not in self._field:
            new = list(col)
            new[i] = self.seat
            self._field[(t, i)] = self.v.column(t, new, self.rem) - self.base[t]
        return self._field[(t, i)]

    def push_value(self, t: int, i: int) -> float:
        """D of taking the occupied field i of column t with a push back (the run below shifts down one)."""
        col = list(self.v.fields[t])
        j = i
        while j >= 0 and col[j] is not None:
            j -= 1
        run = col[j + 1:i + 1]
        if j >= 0:
            col[j:i] = run
        else:
            col[0:i] = run[1:]
        col[i] = self.seat
        return self.v.column(t, col, self.rem) - self.base[t] - self.v.tile_value("push", self.seat)

    def chain(self, t: int, count: int, rolls: int) -> float:
        """Best value keeping type t's dice from here (`count` symbols of t, `rolls` rolls made)."""
        key = (t, count, rolls)
        if key in self._w:
            return self._w[key]
        best = self.stop[t][count][rolls] if count else NEG
        free = 8 - count + (1 if self.black == t else 0)
        if rolls < 3 and free > 0:
            best = max(best, sum(p * self.chain(t, min(9, count + j), rolls + 1)
                                 for j, p in enumerate(_BIN[free])))
        self._w[key] = best
        return best

    def after(self, counts: tuple, rolls: int) -> float:
        """Value of the position after a roll with these symbol counts (black die included)."""
        key = (counts, rolls)
        if key not in self._v:
            best = max((self.stop[t][c][rolls] for t, c in enumerate(counts) if c), default=NEG)
            if rolls < 3:
                best = max(best, max(self.chain(t, c, rolls) for t, c in enumerate(counts)))
            self._v[key] = best
        return self._v[key]

    def late(self) -> bool:
        """Past the deadline: the remaining re-rolls are valued by their kept type's chain only."""
        return self.deadline is not None and time.monotonic() > self.deadline

    def reroll_value(self, action: int, exact: bool = True) -> float:
        """Exact expectation over the re-roll's outcomes of the best continuation (``exact=False`` or past the
        deadline: the binomial chain of the type it keeps, a lower bound)."""
        dice, black = self.state.dice()
        mask = (action >> 4) & 0xFF
        base = [0] * 6
        for i in range(8):
            if not (mask >> i) & 1:
                base[dice[i]] += 1
        if black is not None:
            base[black] += 1
        rolls = self.state.rolls + 1
        if not exact or self.late():
            free = bin(mask).count("1")
            return max(sum(p * self.chain(t, min(9, base[t] + j), rolls) for j, p in enumerate(_BIN[free]))
                       for t in range(6))
        total = 0.0
        after = self.after
        b0, b1, b2, b3, b4, b5 = base
        for c, p in self._outcomes(action):
            total += p * after((b0 + c[0], b1 + c[1], b2 + c[2], b3 + c[3], b4 + c[4], b5 + c[5]), rolls)
        return total

    def _outcomes(self, action: int) -> list:
        """The chance node's outcomes (state.chance_outcomes) as face-count vectors, cached per dice count."""
        k = bin((action >> 4) & 0xFF).count("1")
        if k not in _OUTCOMES:
            out = []
            for faces, p in self.state.chance_outcomes(action):
                c = [0] * 6
                for f in faces:
                    c[f] += 1
                out.append((tuple(c), p))
            _OUTCOMES[k] = out
        return _OUTCOMES[k]

    def fresh_turn(self) -> float:
        """Expected value of rolling all 8 dice afresh (a void of roll 1)."""
        if self.late():
            return max(sum(p * self.chain(t, j + (self.black == t), 1) for j, p in enumerate(_BIN[8]))
                       for t in range(6))
        total = 0.0
        for c, p in self._outcomes(D_ROLL | (0xFF << 4)):
            total += p * self.after(c, 1)          # (no black die before roll 1)
        return total

    def choose(self) -> int:
        options = self.options()
        if not options:
            return self.state.legal_actions()[0]
        return max(options, key=lambda o: (o[0], -o[1]))[2]

    def options(self) -> list[tuple[float, int, int]]:
        """Every candidate as (value, order, action): its change to the seat's expected margin in points
        (over the position without this turn's marker), the choice being the best value, first of equals.
        Re-rolls keeping dice of several types are not candidates (ALL_REROLLS)."""
        state = self.state
        legal = state.legal_actions()
        dice, black = state.dice()
        counts = [0] * 6
        for f in dice:
            counts[f] += 1
        if black is not None:
            counts[black] += 1
        rolls = state.rolls
        options: list[tuple[float, int, int]] = []             # (value, order, action)
        for a in legal:
            kind = a & 15
            if kind == D_STOP:
                t = (a >> 4) & 7
                if a & 128:
                    val = self.push_value(t, _index(counts[t], rolls))
                else:
                    val = self.stop[t][counts[t]][rolls]
                options.append((val, len(options), a))
            elif kind == D_BLACK:
                c = list(counts)
                c[a >> 4] += 1
                val = self.after(tuple(c), rolls) - self.v.tile_value("black", self.seat)
                options.append((val, len(options), a))
            elif kind == D_VOID:
                prev = state.observation(self.seat)["prev_dice"]
                prev_rolls = state.observation(self.seat)["prev_rolls"]
                if prev_rolls == 0:
                    val = self.fresh_turn()
                else:
                    c = [0] * 6
                    for f in prev:
                        c[f] += 1
                    if black is not None:
                        c[black] += 1
                    val = self.after(tuple(c), prev_rolls)
                options.append((val - self.v.tile_value("void", self.seat) - 0.05, len(options), a))
            elif kind != D_ROLL:                            # Alcazaba: rebuild instead of placing the marker
                c = state.clone()
                c.record_history = False
                c.apply(a)
                if self._lost is None:      # (markers left out on both sides: the rebuild leaves them alike)
                    self._lost = self.v.total(markers=False)
                options.append((value_of(c, self.seat).total(markers=False) - self._lost, len(options), a))
        if rolls < 3:
            # the likeliest first (by their chain value), so a deadline leaves only unlikely ones inexact;
            # re-rolls of more than EXACT_DICE dice (keeping one die or none) are rarely best: chain only
            rerolls = ([a for a in legal if a & 15 == D_ROLL] if ALL_REROLLS
                       else [a for a in _keep_type_rerolls(dice) if state.is_legal(a)])
            cands = [(self.reroll_value(a, exact=False), a) for a in rerolls]
            for approx, a in sorted(cands, key=lambda e: -e[0]):
                exact = bin((a >> 4) & 0xFF).count("1") <= EXACT_DICE
                options.append((self.reroll_value(a) if exact else approx, len(options), a))
        return options


def _keep_type_rerolls(dice: list) -> list[int]:
    """Re-roll candidates: keep the dice of one type (each type shown), or re-roll all."""
    out = []
    for t in sorted(set(dice)):
        mask = sum(1 << i for i in range(8) if dice[i] != t)
        if mask:
            out.append(D_ROLL | (mask << 4))
    out.append(D_ROLL | (0xFF << 4))
    return out


def one_ply(state, seat: int, markers: bool = True, depth: int = 1) -> tuple[int, float]:
    """The legal action whose resulting position has the best value for ``seat`` (ties: the first listed),
    with that value. An Alcazaba pick looks one ply further, at the best placement of the picked tile (a
    placement leaves this round's markers alike: valued without them)."""
    legal = state.legal_actions()
    best, best_v = legal[0], NEG
    for a in legal:
        c = state.clone()
        c.record_history = False
        c.apply(a)
        if depth and c.phase == "place" and c.current_player == seat:
            val = one_ply(c, seat, markers=False, depth=0)[1]
        else:
            val = value_of(c, seat).total(markers=markers)
        if val > best_v + 1e-9:
            best, best_v = a, val
    return best, best_v


def one_ply_values(state, seat: int, markers: bool = True) -> list[tuple[int, float]]:
    """``one_ply``'s value of every legal action, in the listed order: (action, value)."""
    out = []
    for a in state.legal_actions():
        c = state.clone()
        c.record_history = False
        c.apply(a)
        if c.phase == "place" and c.current_player == seat:
            val = one_ply(c, seat, markers=False, depth=0)[1]
        else:
            val = value_of(c, seat).total(markers=markers)
        out.append((a, val))
    return out


def choose(state, deadline: float | None = None) -> int:
    """The expectimax choice of the seat to act in a basic-game DiceState; past ``deadline`` (time.monotonic)
    the re-rolls not yet valued exactly fall back to their binomial chain (None: all exact, deterministic)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    seat = state.current_player
    if state.phase == "after_roll":
        return Turn(state, value_of(state, seat), deadline).choose()
    return one_ply(state, seat, markers=state.phase != "place")[0]
