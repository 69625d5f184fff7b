"""MCTS for the dice games (bots/mcts.py via ``alhambra_ai.games.dice.search``).

Information-set MCTS over determinizations of the observation (the hidden bonus stacks / tile bag resampled,
one of DETS per iteration), a UCT tree with explicit **chance nodes** for the rolls: a roll's outcome is
sampled by its exact probability from ``state.chance_outcomes`` (a multiset of faces) and applied as given, so
each outcome has its own subtree. Decision nodes keep per-action statistics from the view of the seat to act;
the actions are ordered by a cheap prior (greedy's stop/keep tables) and admitted by progressive widening.
After ``depth`` turn ends (a marker placed or an Alcazaba rebuild) the search stops and the position is scored
by :func:`value.value_of` (the expected final margin, cached per public position), squashed
to [0, 1]; between the expanded node and the cut-off the turn is finished by greedy's fast dice policy.

>>> from alhambra_ai import new_game
>>> s = new_game(2, 1, game="dice"); s.apply("roll")
>>> a = search(s.observation(s.current_player), seed=3, deadline=0.0, iterations=50)
>>> s.is_legal(a)
True
"""

from __future__ import annotations

import math
import random
import time

from alhambra_ai import determinize
from alhambra_ai.games.dice import greedy
from alhambra_ai.games.dice.expectimax import Turn
from alhambra_ai.games.dice.value import value_of

D_ROLL, D_STOP, D_VOID, D_BLACK = 1, 2, 9, 10
C_UCT = 0.7         # exploration (rewards in [0, 1])
DEPTH = 1           # turn ends before the cut-off (1: the end of the turn being searched)
SCALE = 10.0        # margin (points) giving reward 0.5 + 0.5 * tanh(1)
PW = 2.0            # progressive widening: an action node admits ceil(PW * sqrt(visits + 1)) children
DETS = 8            # determinizations cycled through


class Node:
    __slots__ = ("n", "w", "children", "order")

    def __init__(self) -> None:
        self.n = 0
        self.w = 0.0
        self.children = {}      # action -> Node, or (action, outcome) -> Node for a roll
        self.order = None


def _candidates(s) -> list[int]:
    """The actions searched, best prior first: after a roll, the stops by greedy's field table, keep-one-type
    re-rolls by their binomial value, then the tile actions and rebuilds; elsewhere every legal action."""
    legal = s.legal_actions()
    if s.phase != "after_roll":
        return legal
    vals = greedy._stop_values(s, s.current_player)
    dice, black = s.dice()
    c = greedy._counts(dice, black)
    scored = []
    for a in legal:
        kind = a & 15
        if kind == D_STOP:
            t = (a >> 4) & 7
            scored.append((vals[(t, c[t], s.rolls)] - (0.8 if a & 128 else 0.0), a))
        elif kind != D_ROLL:
            scored.append((-2.0, a))
    if s.rolls < 3:
        for a in greedy._keep_type_actions(s).values():
            if s.is_legal(a):
                scored.append((greedy._roll_value(s, a, vals), a))
    scored.sort(key=lambda e: -e[0])
    return [a for _v, a in scored]


def _fast_turn(s) -> int:
    """The rollout policy inside a turn: greedy's stop table and keep-one-type re-rolls (no tile actions)."""
    vals = greedy._stop_values(s, s.current_player)
    dice, black = s.dice()
    c = greedy._counts(dice, black)
    best, best_v = None, -1e9
    for a in s.legal_actions():
        if a & 15 == D_STOP and not a & 128:
            t = (a >> 4) & 7
            v = vals[(t, c[t], s.rolls)]
            if v > best_v:
                best, best_v = a, v
    if s.rolls < 3:
        for a in greedy._keep_type_actions(s).values():
            if s.is_legal(a):
                v = greedy._roll_value(s, a, vals)
                if v > best_v + 1e-9:
                    best, best_v = a, v
    return best if best is not None else s.legal_actions()[0]


def _ends_turn(kind: int, phase: str, after: str = "") -> bool:
    """A cut-off point: a turn's end, or one decision of the round's evaluation (rewards, start player, an
    Alcazaba pick with its placement) as expectimax's one ply; searching on through the evaluation and into
    the next round's hidden deal lost Alcazaba's picks (13.3% of 30 games against expectimax)."""
    if phase == "after_roll":
        return kind not in (D_ROLL, D_VOID, D_BLACK)
    return phase in ("reward", "name", "place") or (phase == "pick" and after != "place")


class Search:
    def __init__(self, obs: dict, seed: int, c_uct: float = C_UCT, depth: int = DEPTH, scale: float = SCALE,
                 pw: float = PW, dets: int = DETS, turn_policy: int = 0) -> None:
        self.obs = obs
        self.seed = seed
        self.rng = random.Random(seed)
        self.c_uct, self.depth, self.scale, self.pw = c_uct, depth, scale, pw
        self.dets = []
        for k in range(dets if greedy.state_has_hidden(obs) else 1):
            d = determinize(obs, seed + k)
            d.record_history = False
            self.dets.append(d)
        self.n = self.dets[0].num_players
        self.root = Node()
        self._values = {}
        self._outcomes = {}
        self.iterations = 0
        self.turn_policy = turn_policy
        self._turns = {}

    def _turn_action(self, s) -> int:
        """The rollout policy after a roll: with ``turn_policy``, expectimax's stop table and binomial chains
        for the seat's turn (dice_expectimax.Turn, public facts only: built once per turn start and shared by
        all determinizations); else greedy's fixed field weights."""
        if not self.turn_policy:
            return _fast_turn(s)
        key = (s.round, s.current_player, tuple(tuple(s.column(t)) for t in range(6)))
        turn = self._turns.get(key)
        if turn is None:
            turn = self._turns[key] = Turn(s, value_of(s, s.current_player))
        dice, black = s.dice()
        c = greedy._counts(dice, black)
        rolls = s.rolls
        best_t, best_v = None, -1e9
        for t in range(6):
            if c[t] and turn.stop[t][c[t]][rolls] > best_v:
                best_t, best_v = t, turn.stop[t][c[t]][rolls]
        stop = best_t
        if rolls < 3:
            for t in range(6):
                v = turn.chain(t, c[t], rolls)
                if v > best_v + 1e-9:
                    best_t, best_v, stop = t, v, None
        if stop is not None:
            a = D_STOP | (stop << 4)
            if s.is_legal(a):
                return a
        elif best_t is not None:
            mask = sum(1 << i for i in range(8) if dice[i] != best_t)
            if mask and s.is_legal(D_ROLL | (mask << 4)):
                return D_ROLL | (mask << 4)
        return _fast_turn(s)

    # ------------------------------------------------------------ the leaf value

    def _key(self, s) -> tuple:
        """The public facts dice_value reads (positions with one key have one value)."""
        rows = list(range(self.n)) + (["dirk"] if self.n == 2 else [])
        key = [s.round, s.phase, s.current_player, tuple(s.scores()),
               tuple(tuple(s.column(t)) for t in range(6)), tuple(s.fallen(r) for r in range(self.n))]
        if s.game == "dice":
            key.append(tuple(tuple(s.building_points(r)) for r in rows))
            key.append(tuple(tuple(sorted(s.bonus_tiles(r).items())) for r in rows))
        else:
            key.append(tuple(tuple(s.reserve(r)) for r in range(self.n)))
            key.append(tuple(s.city(r).wall_score() for r in range(self.n)))
            key.append(tuple(s.column_items(t).__repr__() for t in range(6)))
        if s.phase not in ("roll", "after_roll"):
            o = s.observation(0)
            key.append(repr((o.get("evaluation"), o.get("pending"), o.get("cities"), o.get("dirk_tiles"))))
        return tuple(key)

    def _rewards(self, s) -> list[float]:
        """Per seat, the reward in [0, 1] of the position: the squashed value margin (at the end: scores)."""
        if s.is_terminal():
            sc = s.scores()
            margins = [sc[p] - max(sc[q] for q in range(self.n) if q != p) for p in range(self.n)]
            return [0.5 + 0.5 * math.tanh(m / self.scale) for m in margins]
        key = self._key(s)
        out = self._values.get(key)
        if out is None:
            if self.n == 2:
                m = value_of(s, 0).total()
                margins = [m, -m]                     # zero-sum between the two humans (Dirk weighs 0)
            else:
                margins = [value_of(s, p).total() for p in range(self.n)]
            out = [0.5 + 0.5 * math.tanh(m / self.scale) for m in margins]
            self._values[key] = out
        return out

    # ------------------------------------------------------------ one iteration

    def _outcome(self, s, action: int):
        k = bin((action >> 4) & 0xFF).count("1")
        table = self._outcomes.get(k)
        if table is None:
            outs = s.chance_outcomes(action)
            cum, acc = [], 0.0
            for _o, p in outs:
                acc += p
                cum.append(acc)
            table = self._outcomes[k] = ([o for o, _p in outs], cum)
        faces, cum = table
        x = self.rng.random() * cum[-1]
        lo, hi = 0, len(cum) - 1
        while lo < hi:                              # first cumulative probability above x
            mid = (lo + hi) // 2
            if cum[mid] > x:
                hi = mid
            else:
                lo = mid + 1
        return faces[lo]

    def _select(self, node: Node, s) -> int:
        if node.order is None:
            node.order = _candidates(s)
        order = node.order
        if len(order) > 1 and not all(s.is_legal(a) for a in order[:2]):
            order = _candidates(s)                  # another determinization: other items or tiles
        width = min(len(order), max(1, math.ceil(self.pw * math.sqrt(node.n + 1))))
        best, best_u = order[0], -1.0
        logn = math.log(node.n + 1)
        ch = node.children
        for a in order[:width]:
            c = ch.get(a)
            if c is None or c.n == 0:
                return a
            u = c.w / c.n + self.c_uct * math.sqrt(logn / c.n)
            if u > best_u:
                best, best_u = a, u
        return best

    def iterate(self) -> None:
        s = self.dets[self.iterations % len(self.dets)].clone()
        s.record_history = False
        self.iterations += 1
        node = self.root
        path = [(node, None)]
        turns = 0
        expanded = False
        while not s.is_terminal() and turns < self.depth:
            player = s.current_player
            legal = s.legal_actions()
            if len(legal) == 1 and legal[0] & 15 != D_ROLL:
                a = legal[0]                          # forced: no node
                phase = s.phase
                s.apply(a)
                turns += _ends_turn(a & 15, phase, s.phase)
                continue
            if expanded:
                a = self._turn_action(s) if s.phase == "after_roll" else (
                    legal[0] if s.phase == "roll" else greedy.greedy_action(s))
                phase = s.phase
                if a & 15 == D_ROLL:
                    s.apply(a, outcome=self._outcome(s, a))
                else:
                    s.apply(a)
                turns += _ends_turn(a & 15, phase, s.phase)
                continue
            a = self._select(node, s) if len(legal) > 1 else legal[0]
            phase = s.phase
            if a & 15 == D_ROLL:
                out = self._outcome(s, a)
                s.apply(a, outcome=out)
                key = (a, out)
            else:
                s.apply(a)
                key = a
            turns += _ends_turn(a & 15, phase, s.phase)
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = Node()
                expanded = True
            # a roll's statistics live on its outcome children; the parent's by-action stats are kept apart
            stat = node.children.setdefault(a, Node()) if key != a else child
            path.append((stat, player))
            if key != a:
                path.append((child, None))
            node = child
        rewards = self._rewards(s)
        for nd, player in path:
            nd.n += 1
            if player is not None:
                nd.w += rewards[player]

    def best(self, legal: list[int]) -> int:
        ch = self.root.children
        scored = [(ch[a].n, ch[a].w / ch[a].n, a) for a in legal if a in ch and ch[a].n]
        if not scored:
            return legal[0]
        return max(scored, key=lambda e: (e[0], e[1]))[2]


def search(obs: dict, seed: int, deadline: float, iterations: int | None = None, **params) -> int:
    """The most visited root action after ``iterations`` iterations, or until ``deadline`` (monotonic)."""
    legal = list(obs["legal_actions"])
    if len(legal) == 1:
        return legal[0]
    tree = Search(obs, seed, **params)
    if iterations is not None:
        for _ in range(iterations):
            tree.iterate()
    else:
        while True:
            tree.iterate()
            if time.monotonic() >= deadline:
                break
    return tree.best(legal)


def flat_search(obs: dict, seed: int, deadline: float, iterations: int | None = None) -> int:
    """The earlier flat UCB1 over the root actions, random playouts to the end on fresh determinizations: a
    baseline for comparisons (config key ``flat``)."""
    legal = list(obs["legal_actions"])
    if len(legal) == 1:
        return legal[0]
    seat = obs["seat"]
    base = determinize(obs, seed)
    base.record_history = False
    n = [0] * len(legal)
    w = [0.0] * len(legal)
    it = 0
    while (iterations is None and (time.monotonic() < deadline or it < len(legal))) or (
            iterations is not None and it < iterations):
        total = it + 1
        if it < len(legal):
            i = it
        else:
            i = max(range(len(legal)), key=lambda k: w[k] / n[k] + 0.5 * math.sqrt(math.log(total) / n[k]))
        s = determinize(obs, seed + 1 + it) if it % 4 == 0 and greedy.state_has_hidden(obs) else base.clone()
        s.record_history = False
        s.apply(legal[i])
        s.random_playout((seed * 7919 + it) % 2**64)  # a 63-bit seed times 7919 overflows the core's 64 bits
        sc = s.scores()
        best_other = max(v for k, v in enumerate(sc) if k != seat)
        reward = (1.0 if sc[seat] > best_other else 0.5 if sc[seat] == best_other else 0.0)
        reward += 0.5 * math.tanh((sc[seat] - best_other) / 20)
        n[i] += 1
        w[i] += reward
        it += 1
    return legal[max(range(len(legal)), key=lambda k: (n[k], w[k] / max(1, n[k])))]
