"""The Ray backend against local jobs on this machine: the same tournaments, wall time of each, in one run.

1. overhead: a tournament of fast bots (random, greedy: a game is mostly referee round trips), local jobs
   vs Ray; the difference per game, Ray's start-up (connect, the job's first workers) taken out and
   reported on its own.
2. the 0.1 s/move tournament (mcts and expectimax, each move uses its time): local vs Ray wall time, start-up
   included (target: Ray <= 110% of local), and the measured games/s per core that the README's scaling
   note multiplies out.

Both backends play as many games at once as the machine has cores: local ``--jobs N``, and Ray a CPU per
game on a private one-node cluster of N CPUs, started first as ``ray start --head`` would on a real node
and connected to by each run. Bots' clocks are wall time, so the game length hardly depends on other load
on the machine; the ratio is what counts.

    PYTHONPATH=. python benchmarks/bench_ray.py [--games 6] [--fast-games 10] [--rounds 2]
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from alhambra_ai.arena.config import Settings
from alhambra_ai.arena.ray_backend import RayBackend
from alhambra_ai.arena.runner import LocalBackend, run_tournament
from alhambra_ai.arena.store import load_results

BOTS = Path(__file__).resolve().parents[1] / "bots"


def timed(settings: Settings, backend) -> tuple[float, float]:
    """(wall time of the whole run, the mean time of its games as the referee measured them)."""
    t = time.monotonic()
    run_tournament(settings, progress=False, out=io.StringIO(), log=io.StringIO(), backend=backend)
    wall = time.monotonic() - t
    results = load_results(Path(settings.out))
    return wall, sum(r["duration"] for r in results) / len(results)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=6, help="repeats of the 0.1 s/move pairing (2 games each)")
    ap.add_argument("--fast-games", type=int, default=10, help="repeats of the fast pairing (2 games each)")
    ap.add_argument("--rounds", type=int, default=2, help="local/Ray pairs of 0.1 s/move runs (alternating)")
    args = ap.parse_args()
    root = Path(tempfile.mkdtemp(prefix="bench-ray-"))
    cores = os.cpu_count() or 1
    fast = Settings(bots=(str(BOTS / "random.py"), str(BOTS / "greedy.py")), seats="2", games=args.fast_games,
                    seed=11, move_time=1.0, time_bank=10.0, memory=1024, jobs=cores)
    slow = replace(fast, bots=(str(BOTS / "mcts.py"), str(BOTS / "expectimax.py")), games=args.games,
                   move_time=0.1, time_bank=5.0, seed=12)
    from ray.cluster_utils import Cluster

    t = time.monotonic()  # a Ray node on this machine, as `ray start --head` runs one
    os.environ["RAY_TMPDIR"] = str(root)  # the node's files go with the run's
    head = {"num_cpus": cores, "include_dashboard": False}
    cluster = Cluster(initialize_head=True, head_node_args=head)
    print(f"Ray node start-up (once per cluster, like ray start): {time.monotonic() - t:.1f} s")
    runs = 0

    def run(settings: Settings, backend) -> tuple[float, float]:
        nonlocal runs
        runs += 1
        out = replace(settings, out=str(root / f"run{runs}"))
        if backend != "ray":
            return timed(out, backend)
        with RayBackend(cluster.address) as ray:  # each run connects afresh: its job starts its own workers
            return timed(out, ray)

    try:
        n = 2 * fast.games
        local = run(fast, LocalBackend(cores))
        t = time.monotonic()
        with RayBackend(cluster.address) as connected:
            connecting = time.monotonic() - t
            first, second = run(fast, connected), run(fast, connected)
        print(f"fast games ({n} x random vs greedy, {cores} at once): local {local[0]:.2f} s, Ray "
              f"{first[0]:.2f} s (+ {connecting:.2f} s connecting), then {second[0]:.2f} s: Ray's start-up "
              f"{connecting + first[0] - second[0]:.1f} s per run, then "
              f"{1000 * (second[0] - local[0]) / n:.0f} ms per game")
        n = 2 * slow.games
        walls = {"local": [], "ray": []}
        for k in range(args.rounds):
            for backend in ("local", "ray") if k % 2 == 0 else ("ray", "local"):
                walls[backend].append(run(slow, LocalBackend(cores) if backend == "local" else "ray"))
                print(f"  0.1 s/move, {backend}: wall {walls[backend][-1][0]:.1f} s, "
                      f"a game {walls[backend][-1][1]:.2f} s")
    finally:
        cluster.shutdown()
        shutil.rmtree(root, ignore_errors=True)
    local_wall, ray_wall = (sum(w for w, _ in walls[b]) for b in ("local", "ray"))
    in_games = sum(g for _, g in walls["local"]) / args.rounds
    print(f"0.1 s/move games ({args.rounds} x {n} x mcts vs expectimax): wall local {local_wall:.1f} s, "
          f"Ray {ray_wall:.1f} s: Ray/local {ray_wall / local_wall:.1%}")
    print(f"a game: {in_games:.1f} s on one CPU: {1 / in_games:.4f} games/s per core; measured here "
          f"({cores} cores): {n * args.rounds / local_wall:.4f} games/s local, "
          f"{n * args.rounds / ray_wall:.4f} Ray")


def warm_up(item, paths):
    return item


if __name__ == "__main__":
    main()
