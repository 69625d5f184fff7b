"""MCTS for the dice games (bots/mcts.py via ``alhambra_ai.games.dice.search``).

Information-set MCTS over determinizations of the observation (the hidden bonus stacks / tile bag resampled,
one of ``dets`` per iteration), a UCT tree with explicit **chance nodes** for the rolls: a roll's outcome is
sampled by its exact probability from the outcome lists of ``state.chance_outcomes`` and applied as given,
so each outcome has its own subtree. After a roll the candidates are ordered by a prior (the stops by their
field's value, the re-rolls by the binomial chain of the dice they keep) and admitted by progressive
widening. After ``depth`` turn ends (a marker placed, an Alcazaba rebuild, or one evaluation decision) the
position is scored by :func:`value.value_of` (the expected final margin) squashed to [0, 1]; between the
expanded node and the cut-off a turn is finished by expectimax's turn policy (stop, or keep one type's dice by
its binomial chain).

The loop is compiled (``alhambra_ai._core.DiceMcts``, cython_core/dice/search.pxi). Python is called back on
cache misses only, per public position: the leaf value (:func:`leaf_margins`), the seat's field values for the
turn policy and the priors (:func:`turn_table`, expectimax's ``Turn``), and the evaluation decisions inside a
rollout (expectimax's one ply, when ``depth`` reaches past the turn).

>>> from alhambra_ai import new_game
>>> s = new_game(2, 1, game="dice"); s.apply("roll")
>>> a = search(s.observation(s.current_player), seed=3, deadline=0.0, iterations=50)
>>> s.is_legal(a)
True
"""

from __future__ import annotations

import time

from alhambra_ai import determinize
from alhambra_ai._core import DiceMcts
from alhambra_ai.games.dice import greedy
from alhambra_ai.games.dice.expectimax import Turn, one_ply
from alhambra_ai.games.dice.value import value_of
from alhambra_ai.learn.value_model import shipped_value

C_UCT = 0.2         # exploration (rewards in [0, 1]); 0.7: 35% of 40 games against the frozen expectimax,
                    # 0.2: 55% (dice, 2000 iterations)
DEPTH = 1           # turn ends before the cut-off (1: the end of the turn being searched)
SCALE = 10.0        # margin (points) giving reward 0.5 + 0.5 * tanh(1)
PW = 2.0            # progressive widening after a roll: ceil(PW * sqrt(visits + 1)) candidates
DETS = 8            # determinizations cycled through


QMC = 1             # 1: a chance node in the tree takes its outcomes stratified (its k-th visit the k-th
                    # point of a golden-ratio sequence over the cumulative outcome list, offset per node at
                    # random), 0: independent samples
NARROW = 0          # 1: after a roll only expectimax's re-rolls (keep one type's dice, or none) are searched
                    # (dice, 2000 iterations, c_uct 0.2: 17.5% of 40 games against the frozen expectimax,
                    # 0: 55%;
                    # re-rolls keeping dice of two types are often best, and a few candidates with noisy
                    # outcomes starve one another at a low c_uct)
VALUES = ("hand", "learned")
VALUE = "hand"      # the leaf value: hand-written (value.py) or learned (data/values/, compiled)
OWN_MARKERS = 1     # 0: the searching seat's own markers still to place left out of its leaf value (as
                    # expectimax's Turn leaves them out in the basic game): 26% of the same 40 games; 1: 55%


def leaf_margins(state, seat: int | None = None, own_markers: int = 1) -> list[float]:
    """Per seat, the expected final margin (value.py) of the position: the tree's cut-off value. With
    ``own_markers`` 0 the searching ``seat``'s value leaves out its own markers still to place in the basic
    game (a field looks worth little when a later marker of one's own might take that column anyway)."""
    n = state.num_players
    if seat is not None and not own_markers and state.game == "dice":
        v = value_of(state, seat)
        rem = dict(v.rem)
        rem[seat] = 0
        m = v.total(rem=rem)
        if n == 2:
            return [m, -m] if seat == 0 else [-m, m]
        return [m if p == seat else value_of(state, p).total() for p in range(n)]
    if n == 2:
        m = value_of(state, 0).total()
        return [m, -m]                                 # zero-sum between the two humans (Dirk weighs 0)
    return [value_of(state, p).total() for p in range(n)]


def turn_table(state) -> list[float]:
    """The seat to act's value (margin points) of a marker of its own on each field t * 24 + i of the board
    (an occupied field: taking it with a push back, the tile spent), then its void-roll and black-die tiles'
    values: expectimax's Turn field values, read by the compiled turn policy and priors."""
    seat = state.current_player
    v = value_of(state, seat)
    turn = Turn(state, v)
    push = state.game == "dice" and bool(state.bonus_tiles(seat).get("push"))
    out = []
    for t in range(6):
        col = v.fields[t]
        for i in range(24):
            out.append(turn.field_value(t, i) if col[i] is None else turn.push_value(t, i) if push else 0.0)
    out.append(v.tile_value("void", seat))
    out.append(v.tile_value("black", seat))
    return out


def rollout_policy(state) -> int:
    """An evaluation decision inside a rollout (reward, start player, pick, placement): expectimax's one
    ply."""
    return one_ply(state, state.current_player, markers=state.phase != "place")[0]


def tree(obs: dict, seed: int, c_uct: float = C_UCT, depth: int = DEPTH, scale: float = SCALE, pw: float = PW,
         dets: int = DETS, own_markers: int = OWN_MARKERS, narrow: int = NARROW, qmc: int = QMC,
         value: str = VALUE) -> DiceMcts:
    """A search tree for the observation (not yet run). ``value``: ``hand`` (value.py, in Python) or
    ``learned`` (the shipped weights of the game and player count, evaluated in C at the leaves)."""
    states: list = []
    for k in range(dets if greedy.state_has_hidden(obs) else 1):
        d = determinize(obs, seed + k)
        d.record_history = False
        states.append(d)
    seat = obs["seat"]

    def leaf(state) -> list[float]:
        return leaf_margins(state, seat, own_markers)

    if value not in VALUES:
        raise ValueError(f"value must be one of {', '.join(VALUES)}, not {value!r}")
    if value == "learned":
        leaf = shipped_value(obs["game"], len(obs["scores"]))

    return DiceMcts(states, seed % 2 ** 63, leaf, turn_table, rollout_policy, c_uct=c_uct, depth=depth,
                    pw=pw, scale=scale, narrow=narrow, qmc=qmc)


def search(obs: dict, seed: int, deadline: float, iterations: int | None = None, **params) -> int:
    """The most visited root action after ``iterations`` iterations, or until ``deadline``
    (time.monotonic)."""
    legal = list(obs["legal_actions"])
    if len(legal) == 1:
        return legal[0]
    t = tree(obs, seed, **params)
    if iterations is not None:
        t.run(iterations)
    else:
        t.run(0, max(deadline, time.monotonic()))
    return t.best(legal)


def flat_search(obs: dict, seed: int, deadline: float, iterations: int | None = None) -> int:
    """The first dice MCTS, flat UCB1 over the root actions with random playouts to the end on fresh
    determinizations: a baseline for comparisons (config key ``flat``)."""
    import math

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
