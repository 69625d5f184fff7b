"""The base game's cut-off values, hand-written (eval_values) against learned (a LearnedValue over the core's
value features, alhambra/value.pxi), both in C: the cost of one cut-off (every seat's reward, as Mcts
computes it), and mcts's iterations per second with each at a few rollout lengths.

Positions: every 5th decision of seeded greedy games (2 players). The cut-off's cost is measured in C
(``_bench_leaf``: the same calls as Mcts's, no Python per evaluation). The search rate is Mcts's iterations
over wall time for a fixed iteration count from each position (4 determinizations, as bots/mcts.py). Both
values are measured in one run, in turn, and reported as ratios (machines are shared and noisy).

    python benchmarks/bench_alhambra_value.py [--games 3] [--iterations 1000] [--weights FILE]
"""

from __future__ import annotations

import argparse
import time

from alhambra_ai import determinize, new_game
from alhambra_ai._core import Mcts, _bench_leaf
from alhambra_ai.bot.toolkit import greedy_action
from alhambra_ai.learn.value_model import load, shipped_path


def positions(games: int) -> list:
    out = []
    for seed in range(games):
        s = new_game(2, seed=seed)
        k = 0
        while not s.is_terminal() and k < 3000:
            if k % 5 == 0:
                out.append(s.clone())
            s.apply(greedy_action(s))
            k += 1
    return out


def search_rate(value, states, iterations: int, turns: int) -> float:
    total, t = 0, 0.0
    for s in states:
        obs = s.observation(s.current_player)
        dets = [determinize(obs, k) for k in range(4)]
        tree = Mcts(dets, 7, c_uct=0.3, rollout_turns=turns, value=value)
        t0 = time.perf_counter()
        total += tree.run(iterations, 0.0)
        t += time.perf_counter() - t0
    return total / t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--weights", default=None, help="a weights file [default: the shipped one]")
    ap.add_argument("--turns", default="12,6,4", help="rollout_turns to measure")
    a = ap.parse_args()
    lv = load(a.weights or shipped_path("alhambra", 2)).compiled()
    states = positions(a.games)
    hand = sum(_bench_leaf(s, None, 200) for s in states) / len(states)
    learned = sum(_bench_leaf(s, lv, 200) for s in states) / len(states)
    print(f"alhambra 2p, {len(states)} positions of {a.games} greedy games; model {lv.hidden or 'linear'} "
          f"hidden, {lv.width} features")
    print(f"cut-off, every seat (in C): hand {hand * 1e6:.2f} us, learned {learned * 1e6:.2f} us "
          f"(x{learned / hand:.2f})")
    some = states[:: max(1, len(states) // 30)][:30]
    for turns in (int(x) for x in a.turns.split(",")):
        r_hand = search_rate(None, some, a.iterations, turns)
        r_learned = search_rate(lv, some, a.iterations, turns)
        print(f"mcts, rollout_turns {turns}, {a.iterations} iterations from {len(some)} positions: "
              f"hand {r_hand:,.0f} it/s, learned {r_learned:,.0f} it/s (x{r_learned / r_hand:.2f})")


if __name__ == "__main__":
    main()
