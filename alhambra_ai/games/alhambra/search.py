"""The base game's moves for the built-in bots (the registry's ``search`` part; bots/*.py call these).

Each takes the seat's observation, the bot's seed and its config, and returns an action code. A bot sees only
its observation: to search, it turns it into full states consistent with what its seat knows and uses the
compiled helpers, which resample the hidden order themselves (both from ``alhambra_ai.bot.toolkit``, the bot
authors' toolkit). The algorithms are described in the bot files (bots/greedy.py,
bots/expectimax.py, bots/mcts.py) and docs/bots.md.

>>> from alhambra_ai import new_game
>>> s = new_game(2, seed=1)
>>> obs = s.observation(s.current_player)
>>> greedy_action(toolkit.determinize(obs, seed=5)) in obs["legal_actions"]
True
>>> all(s.is_legal(f(obs, 3, {"iterations": 200, "samples": 2})) for f in (greedy, expectimax, mcts))
True
"""

from __future__ import annotations

import time
from typing import Any

from alhambra_ai.bot import (
    toolkit as toolkit,  # determinize looked up at call time: tests swap it to catch leaks
)
from alhambra_ai.bot.toolkit import (
    Mcts,
    MoveClock,
    greedy_action,
    move_seed,
    obs_dict,
    scoring_ranges,
    search_chance_leaf,
    search_evaluate,
    search_greedy,
)
from alhambra_ai.learn.value_model import SHIPPED, load, shipped_value

LONG_MOVE = 0.5     # seconds per move from which mcts's rollouts run twice as long (see rollout_turns)
VALUES = ("hand", "learned")
VALUE = "hand"      # mcts's cut-off value: hand-written (eval_values) or learned (data/values/, compiled);
                    # measured in benchmarks/results/alhambra_learned.txt


def greedy(obs: Any, seed: int, config: dict | None = None) -> int:
    """The one-ply greedy move (bots/greedy.py)."""
    return greedy_action(toolkit.determinize(obs, move_seed(seed, obs)))


def expectimax(obs: Any, seed: int, config: dict | None = None) -> int:
    """The expectimax move (bots/expectimax.py; config: move_time, samples, breadth, depth)."""
    config = config or {}
    clock = MoveClock(obs, config)
    seed0, samples = seed, config.get("samples")
    breadth, depth_limit = int(config.get("breadth", 6)), int(config.get("depth", 3))
    seed = move_seed(seed0, obs)
    root = toolkit.determinize(obs, seed)
    me, turn0 = root.current_player, root.turn
    ranges = scoring_ranges(obs)
    leaves = []  # [parent state, action, sum of margins, samples]

    def expand(state, depth):
        """A max node: [(action, child)], child a leaf index or a nested max node."""
        _best, margins = search_greedy(state)
        margins.sort(key=lambda e: -e[1])  # stable: generator order among equals
        node = []
        for action, _m in margins[: breadth]:
            nxt = state.clone()
            nxt.record_history = False
            nxt.apply(action)
            same_turn = nxt.current_player == me and nxt.turn == turn0 and not nxt.is_terminal()
            # (with a time budget, stop widening the plans once half of it is gone)
            roomy = samples or clock.left() > clock.budget / 2
            if same_turn and depth + 1 < depth_limit and roomy:
                node.append((action, expand(nxt, depth + 1)))
            else:
                leaves.append([state, action, 0.0, 0])
                node.append((action, len(leaves) - 1))
        return node

    root.record_history = False
    tree = expand(root, 0)
    limit = int(samples) if samples else None
    n = 0  # complete passes over the leaves (every leaf got sample n)
    done, t0 = 0, time.monotonic()
    while limit is None or n < limit:
        for leaf in leaves:  # leaves are in the greedy order: the likely best are sampled first
            # stop when the next sample would likely overrun (at least one leaf gets one sample)
            if limit is None and done and clock.left() < (time.monotonic() - t0) / done:
                break
            leaf[2] += search_chance_leaf(leaf[0], leaf[1], seed + 1 + n, me, ranges)
            leaf[3] += 1
            done += 1
        else:
            n += 1
            if limit is None and clock.left() < (clock.budget - clock.left()) / n:
                break  # the next pass would likely overrun
            continue
        break

    def value(node):
        if isinstance(node, int):
            _s, _a, total, count = leaves[node]
            return total / count if count else float("-inf")
        return max(value(child) for _a, child in node)

    best = max(tree, key=lambda e: value(e[1]))  # first of equals: the greedy order
    return best[0]


def mcts(obs: Any, seed: int, config: dict | None = None) -> int:
    """The MCTS move (bots/mcts.py; config: move_time, iterations, determinizations, rollout_turns, c_uct,
    max_candidates, eps, stop_early, bank_share, value)."""
    config = config or {}
    tree, dets, clock = mcts_tree(obs, seed, config)
    legal = obs_dict(obs)["legal_actions"]
    iterations, stop_early = config.get("iterations"), bool(config.get("stop_early", True))
    if iterations:
        tree.run(int(iterations), 0.0, stop_early)
    else:
        tree.run(0, clock.deadline, stop_early)
    legal_set = set(legal)
    for action, _visits, _value in tree.root_children():
        if action in legal_set:
            return action
    return greedy_action(dets[0])


def mcts_tree(obs: Any, seed: int, config: dict,
              root_order: list[int] | None = None) -> tuple[Any, list, MoveClock]:
    """The MCTS of ``mcts`` for the observation, not yet run, with its determinizations and the move's clock
    (started now); ``root_order``: these root candidates instead of the greedy evaluation's order (the
    analysis's search of one move alone, alhambra_ai.analysis.review)."""
    clock = MoveClock(obs, config, float(config.get("bank_share", 0.5)))
    iterations = config.get("iterations")
    ndets = int(config.get("determinizations", 4))
    c_uct, max_candidates = float(config.get("c_uct", 0.3)), int(config.get("max_candidates", 12))
    eps = float(config.get("eps", 0.1))
    seed = move_seed(seed, obs)
    dets = [toolkit.determinize(obs, seed + k) for k in range(ndets)]
    if root_order is None:
        # root candidates in the greedy evaluation's order (progressive widening admits them best first)
        _best, margins = search_greedy(dets[0])
        root_order = [a for a, _m in sorted(margins, key=lambda e: -e[1])]
    tree = Mcts(dets, seed, c_uct=c_uct, max_candidates=max_candidates,
                rollout_turns=rollout_turns(obs, config, 0.0 if iterations else clock.limit),
                eps=eps, ranges=scoring_ranges(obs), root_order=root_order, value=leaf_value(obs, config))
    return tree, dets, clock


def leaf_value(obs: Any, config: dict) -> Any:
    """The value scoring mcts's rollout cut-off: None for ``value: hand`` (the default: the hand-written
    evaluation, eval_values), or for ``value: learned`` the shipped learned value of the base game and
    player count (alhambra_ai/data/values/alhambra-<n>p.npz, evaluated in C, no Python call per leaf;
    ``weights``: another file of that folder, by name); a game with a module keeps the hand value (the
    learned features read the base game only)."""
    value = config.get("value", VALUE)
    if value not in VALUES:
        raise ValueError(f"value must be one of {', '.join(VALUES)}, not {value!r}")
    if value == "hand":
        return None
    o = obs_dict(obs)
    if any(v for k, v in (o.get("options") or {}).items() if k != "dirk"):
        return None
    if config.get("weights"):  # another weights file of the package's values folder (trying candidates)
        name = str(config["weights"])
        if name not in _WEIGHTS:
            _WEIGHTS[name] = load(SHIPPED / name).compiled()
        return _WEIGHTS[name]
    return shipped_value("alhambra", int(o.get("num_players") or len(o["scores"])))


_WEIGHTS: dict[str, Any] = {}


def rollout_turns(obs: Any, config: dict, move_time: float = 0.0) -> int:
    """Unless configured: six rounds of seats with 2 players (12 turns), four with more (4 x num_players);
    twice as many with at least LONG_MOVE seconds per move (the referee's move time, not the bank).

    Measured in-process at fixed iterations, seats rotated, the slower variant given fewer iterations in
    proportion to its speed (docs/bots.md, "Tuning"): 2 players, head to head, 6 turns beat 4 (72.5% of
    40 games), 8 beat 6 (55.0%), 12 beat 8 (60.0%); 4 players, one mcts against three greedy on the same
    48 seat-deals: 16 turns 72.9%, 24 turns 69.8%, full rollouts 57.3%. With more time the cut-off's
    bias, not the rollouts' noise, limits the search: at 0.7 s per move against the default at 0.15 s,
    24 turns won 8 of 10 games and 6 turns 2 of 8 (benchmarks/tune_match.py, stopped early;
    docs/bots.md). 4 players, one mcts at 75,000 iterations against three at 15,000 (about 0.75 s
    against 0.15 s): 16 turns won 28.6% of 28 games (par 25%), 32 turns 60.0% of 20."""
    if config.get("rollout_turns") is not None:
        return int(config["rollout_turns"])
    n = int(obs_dict(obs).get("num_players") or 2)
    turns = 12 if n == 2 else 4 * n
    return 2 * turns if move_time >= LONG_MOVE else turns


def value(state: Any, seat: int) -> float:
    """The evaluation's expected final points of the seat minus the best other seat's."""
    points = search_evaluate(state)
    return points[seat] - max(p for k, p in enumerate(points) if k != seat)


__all__ = ["expectimax", "greedy", "mcts", "mcts_tree", "rollout_turns", "value"]
