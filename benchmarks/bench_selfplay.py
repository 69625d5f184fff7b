"""Self-play throughput: positions (rows of the dataset) per second of `alhambra-ai selfplay` on this machine.

For each game family and lineup it writes a dataset into a temporary folder with ``--jobs`` games at once
(the default 2: both cores of the project's machine) and prints games/s, positions/s and the driver's share
(replaying each game's record, encoding its positions and writing the shards, in the command's own process;
the rest is the refereed games: bot workers and the referee).

    python benchmarks/bench_selfplay.py                      # every row below, 2 jobs
    python benchmarks/bench_selfplay.py --games 8 --only dice
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from alhambra_ai.learn.selfplay import Settings, run_selfplay

ROWS = [  # (label, game, options, bots per seat, iterations)
    ("alhambra 2p random", "alhambra", (), ("random", "random"), None),
    ("alhambra 2p greedy", "alhambra", (), ("greedy", "greedy"), None),
    ("alhambra 4p greedy", "alhambra", (), ("greedy",) * 4, None),
    ("alhambra 2p greedy, all modules", "alhambra", ("all",), ("greedy", "greedy"), None),
    ("alhambra 2p mcts 200 it.", "alhambra", (), ("mcts", "mcts"), 200),
    ("dice 2p random", "dice", (), ("random", "random"), None),
    ("dice 2p greedy", "dice", (), ("greedy", "greedy"), None),
    ("dice 2p expectimax 100 it.", "dice", (), ("expectimax", "expectimax"), 100),
    ("alcazaba 2p random", "alcazaba", (), ("random", "random"), None),
    ("alcazaba 2p greedy", "alcazaba", (), ("greedy", "greedy"), None),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=24, help="games per row [24]")
    ap.add_argument("--jobs", type=int, default=2, help="games at once [2]")
    ap.add_argument("--only", default=None, help="rows whose label contains this text")
    args = ap.parse_args()
    from alhambra_ai.options import parse_options
    print(f"{args.games} games per row, {args.jobs} jobs, load {os.getloadavg()[0]:.1f}")
    print(f"{'row':34} {'games/s':>8} {'positions':>9} {'pos/s':>7} {'driver':>7}")
    for label, game, options, bots, iterations in ROWS:
        if args.only and args.only not in label:
            continue
        opts = tuple(parse_options(",".join(options))) if options else ()
        s = Settings(bots, len(bots), args.games, 1, game, opts, iterations=iterations, move_time=1.0)
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.monotonic()
            stats = run_selfplay(s, os.path.join(tmp, "d"), jobs=args.jobs, note=lambda text: None)
            wall = time.monotonic() - t0
        print(f"{label:34} {stats.games / wall:8.2f} {stats.positions:9d} {stats.positions / wall:7.0f} "
              f"{stats.driver_seconds / wall:6.1%}", flush=True)


if __name__ == "__main__":
    main()
