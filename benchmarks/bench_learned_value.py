"""The dice games' leaf values, hand-written (games/dice/value.py, Python) against learned (a LearnedValue
over the core's value features, in C): the cost of one leaf, and the dice mcts's iterations per second with
each.

Positions: every decision of seeded greedy games (2 players). A leaf's cost is the mean over those positions
of one evaluation for every seat, as the search asks for it. The search rate is DiceMcts's iterations over
wall time for a fixed iteration count from each position after a roll (one determinization, as a move with
no hidden part), its leaf cache included: the search asks for a leaf only on a cache miss, so the
leaf's share of a search is also reported (leaf calls per search). Both are measured in one run, in turn,
and reported as ratios (machines are shared and noisy).

    python benchmarks/bench_learned_value.py [--game dice] [--games 6] [--iterations 2000] [--weights FILE]
"""

from __future__ import annotations

import argparse
import random
import time

from alhambra_ai import determinize, new_game
from alhambra_ai._core import DiceMcts
from alhambra_ai.games.dice import greedy, mcts
from alhambra_ai.learn.value_model import load, shipped_path


def positions(game: str, games: int) -> list:
    out = []
    for seed in range(games):
        s = new_game(2, seed=seed, game=game)
        rng = random.Random(seed)
        while not s.is_terminal():
            out.append(s.clone())
            s.apply(greedy.greedy_action(s) if rng.random() < 0.9 else rng.choice(s.legal_actions()))
    return out


def per_leaf(fn, states, repeat: int) -> float:
    t0 = time.perf_counter()
    for _ in range(repeat):
        for s in states:
            fn(s)
    return (time.perf_counter() - t0) / (repeat * len(states))


def search_rate(leaf, states, iterations: int) -> tuple[float, float]:
    """(iterations per second, leaf calls per search) over the positions after a roll."""
    total, calls, t = 0, 0, 0.0
    for s in states:
        obs = s.observation(s.current_player)
        d = determinize(obs, 1)
        d.record_history = False
        seat = obs["seat"]
        fn = leaf if leaf != "hand" else (lambda st, seat=seat: mcts.leaf_margins(st, seat, 1))
        tree = DiceMcts([d], 7, fn, mcts.turn_table, mcts.rollout_policy, c_uct=mcts.C_UCT)
        t0 = time.perf_counter()
        tree.run(iterations)
        t += time.perf_counter() - t0
        total += tree.iterations
        calls += tree.leaf_calls
    return total / t, calls / len(states)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="dice", choices=("dice", "alcazaba"))
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--iterations", type=int, default=2000)
    ap.add_argument("--weights", default=None, help="a weights file [default: the shipped one]")
    a = ap.parse_args()
    lv = load(a.weights or shipped_path(a.game, 2)).compiled()
    states = positions(a.game, a.games)
    hand = per_leaf(lambda s: mcts.leaf_margins(s, 0, 1), states, 1)
    learned = per_leaf(lv.margins, states, 5)
    print(f"{a.game} 2p, {len(states)} positions of {a.games} greedy games")
    print(f"leaf, every seat: hand {hand * 1e6:.1f} us, learned {learned * 1e6:.2f} us "
          f"(from Python; x{hand / learned:.0f} faster)")
    after = [s for s in states if s.phase == "after_roll"][:: max(1, len(states) // 200)][:40]
    r_hand, c_hand = search_rate("hand", after, a.iterations)
    r_learned, c_learned = search_rate(lv, after, a.iterations)
    print(f"mcts, {a.iterations} iterations from {len(after)} positions after a roll: "
          f"hand {r_hand:,.0f} it/s "
          f"({c_hand:.0f} leaf calls a search), learned {r_learned:,.0f} it/s ({c_learned:.0f} leaves in C); "
          f"x{r_learned / r_hand:.2f}")


if __name__ == "__main__":
    main()
