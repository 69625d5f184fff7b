"""The base game's analysis of one decision (the registry's ``analysis`` part; analysis/review.py).

The strongest bot's search (mcts, ``search.mcts_tree``: its determinizations, candidates and rollouts, as it
plays) from the seat's observation, run without stopping early so that every candidate keeps its share of
the iterations; the core's ``Mcts.root_stats`` gives each root move's visits, mean margin (the seat's points
minus the best other seat's at the end of the rollout: final scores, or the evaluation's expected final
points at the cut-off) and mean win share (1 when the seat leads there, 1/k when k seats share the lead).
The move played, when the search gave it fewer than ``ALONE_VISITS`` visits (widening admits the greedy
evaluation's best first; a poor move is rarely tried), gets a search of its own: the same tree with that move
as the root's only candidate, on a quarter of the budget.

>>> from alhambra_ai import new_game
>>> s = new_game(2, seed=1)
>>> obs = s.observation(s.current_player)
>>> out = analyse_decision(obs, obs["legal_actions"][-1], seed=3, iterations=200, move_time=None)
>>> sorted(out)
['best', 'candidates', 'played_alone', 'played_value', 'played_win', 'searched', 'value', 'win']
"""

from __future__ import annotations

import time
from typing import Any

from alhambra_ai.games.alhambra.search import mcts_tree

ALONE_SHARE = 8         # the move played is searched alone when it had fewer than 1/8 of the iterations ...
ALONE_MIN = 32          # ... or fewer than 32 visits
ALONE_BUDGET = 0.25     # that search's share of the decision's budget (iterations or seconds)
CANDIDATES = 5          # root moves listed per decision, most visited first


def _run(tree: Any, iterations: int | None, move_time: float | None) -> int:
    if iterations:
        return int(tree.run(int(iterations), 0.0, False))
    return int(tree.run(0, time.monotonic() + float(move_time or 0.0), False))


def analyse_decision(obs: dict, played: int, seed: int, iterations: int | None,
                     move_time: float | None) -> dict[str, Any]:
    """The search's verdict on one decision: the preferred move (text), the position's value (its mean margin
    in points and win share), the move played's value, the iterations run and up to CANDIDATES root moves
    ``[text, visits, margin, win]``. ``iterations`` (deterministic for a seed) or ``move_time`` seconds."""
    config: dict[str, Any] = {"iterations": iterations} if iterations else {"move_time": move_time}
    tree, dets, _clock = mcts_tree(obs, seed, config)
    done = _run(tree, iterations, move_time)
    stats = tree.root_stats()
    legal = set(obs["legal_actions"])
    stats = [e for e in stats if e[0] in legal] or stats
    text = dets[0].action_to_text
    best = stats[0]
    by_action = {e[0]: e for e in stats}
    mine = by_action.get(played)
    alone = mine is None or (played != best[0] and (mine[1] < ALONE_MIN or mine[1] * ALONE_SHARE < done))
    if alone:
        one, _dets, _clock = mcts_tree(obs, seed, config, root_order=[played])
        done += _run(one, max(1, int(iterations * ALONE_BUDGET)) if iterations else None,
                     None if iterations else float(move_time or 0.0) * ALONE_BUDGET)
        mine = one.root_stats()[0]
    assert mine is not None
    return {
        "best": text(best[0]),
        "value": best[3], "win": best[4],
        "played_value": mine[3], "played_win": mine[4],
        "played_alone": alone,
        "searched": done,
        "candidates": [[text(a), visits, margin, win] for a, visits, _r, margin, win in stats[:CANDIDATES]],
    }


__all__ = ["analyse_decision"]
