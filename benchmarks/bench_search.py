"""MCTS simulations per second at the start, middle and end of a 4-player game, beside the raw random-playout
rate of the same positions (target: MCTS >= 50% of raw).

A simulation is one MCTS iteration as the mcts bot runs it: resample the hidden order, descend the tree,
add a node, heuristic rollout to the end of the game, back up. A raw playout is a clone of the same
determinized state played to the end by uniformly random legal actions in C (State.random_playout). Both are
timed with the process CPU clock (the machine is shared: wall time would measure the other jobs).

    PYTHONPATH=. python benchmarks/bench_search.py [--seconds 1.5]
"""

from __future__ import annotations

import argparse
import time

from alhambra_ai import new_game
from alhambra_ai.bot import toolkit as search


def positions(seed: int = 7):
    """(label, observation) at the start, the middle and near the end of a greedy 4-player game."""
    s = new_game(4, seed=seed)
    s.record_history = True
    trace = []
    while not s.is_terminal():
        if s.phase == "action":
            trace.append(s.clone())
        s.apply(search.greedy_action(s))
    picks = [("start", trace[0]), ("middle", trace[len(trace) // 2]), ("end", trace[-6])]
    return [(label, st.observation(st.current_player), st.bag_size) for label, st in picks]


def raw_rate(state, seconds: float) -> float:
    n = 0
    t0 = time.process_time()
    while True:
        c = state.clone()
        c.record_history = False
        c.random_playout(n)
        n += 1
        if n % 8 == 0 and time.process_time() - t0 >= seconds:
            return n / (time.process_time() - t0)


def mcts_rate(obs, seconds: float) -> float:
    dets = [search.determinize(obs, k) for k in range(4)]
    _best, margins = search.search_greedy(dets[0])
    tree = search.Mcts(dets, 1, c_uct=0.15, ranges=search.scoring_ranges(obs),
                       root_order=[a for a, _ in sorted(margins, key=lambda e: -e[1])])
    done = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        done += tree.run(64, 0.0)
    return done / (time.process_time() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.5, help="CPU seconds per measurement")
    args = ap.parse_args()
    print(f"{'position':>8} {'bag':>4} {'raw playouts/s':>15} {'MCTS sims/s':>12} {'ratio':>6}")
    for label, obs, bag in positions():
        state = search.determinize(obs, 99)
        raw = raw_rate(state, args.seconds)
        sims = mcts_rate(obs, args.seconds)
        print(f"{label:>8} {bag:4d} {raw:15.0f} {sims:12.0f} {sims / raw:6.2f}")


if __name__ == "__main__":
    main()
