"""The cost of the bot sandbox per worker start (target: at most 50 ms over an unsandboxed start).

A worker start is timed from spawning it (its cgroup made, where it gets one) to its hello and the bot file
imported (the interpreter started, the package imported, the confinement applied, then ``start``), the way
every game starts every seat. The modes are started in
turn, round after round, so the machine's load (shared, noisy) falls on all of them alike; the report gives
each mode's median and its difference and ratio to the unsandboxed start, all from one run. Wall time is what
a game waits for (the target); the CPU time of the worker's processes (launcher, init, worker) is given too.

    PYTHONPATH=. python benchmarks/bench_sandbox.py [--rounds 20] [--bot bots/random.py]

``--against CHECKOUT`` compares two versions of the arena instead (this tree against another checkout with
its core built): each round runs ``--measure`` once under each tree, in turn, in a fresh process started
outside both trees, and the report gives the full sandbox's worker start (to the bot imported) and its
per-move round trip (a request with a base-game observation, the reply, the worker stopped again) as
medians and as ratios this/other. A process's one-off costs (the isolation probe, the read set and its
first reading into the page cache) are paid before the timing starts and reported apart.

    python benchmarks/bench_sandbox.py --against ../before --rounds 6
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

try:
    from alhambra_ai.sandbox import launch as sandbox
    from alhambra_ai.sandbox.launch import Isolation
    from alhambra_ai.sandbox.process import BotProcess, BotSource, _only_child, isolation
except ImportError:  # --against a checkout from before the package was cut by concept
    from alhambra_ai.tournament import sandbox  # type: ignore[no-redef]
    from alhambra_ai.tournament.process import BotProcess, BotSource, _only_child, isolation  # type: ignore[no-redef]
    from alhambra_ai.tournament.sandbox import Isolation  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parent.parent


def modes(full: Isolation) -> dict[str, Isolation]:
    plans = {"none (rlimits only)": Isolation(False, 0, False),
             "Landlock + seccomp": Isolation(False, full.landlock, full.seccomp)}
    if full.cgroup:
        plans["full, no cgroup"] = Isolation(full.namespaces, full.landlock, full.seccomp)
    plans["full sandbox"] = full
    return plans


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_once(source: BotSource, plan: Isolation) -> tuple[float, float]:
    """(wall seconds to the hello, CPU seconds of the worker's processes)."""
    started = time.perf_counter()
    with BotProcess(source, 2048, plan=plan) as proc:
        proc.begin(60)
        wall = time.perf_counter() - started
        pids = [proc.proc.pid] + ([_only_child(proc.proc.pid), proc._worker_pid] if plan.namespaces else [])
        return wall, sum(cpu_seconds(p) for p in pids)


TRIVIAL = BotSource("trivial", b"class Bot:\n    def act(self, obs):\n        return obs.legal_actions[0]\n")


def measure(starts: int, moves: int) -> dict:
    """One process's figures for --against: median worker start, median move round trip (seconds)."""
    import alhambra_ai

    state = alhambra_ai.new_game(3, seed=5)
    obs = dict(state.observation(state.current_player), time_left=1.0, move_time=1.0)
    began = time.perf_counter()
    sandbox_plan = isolation()
    with BotProcess(TRIVIAL, 2048) as proc:  # the one-off costs: probe, read set, page cache
        proc.begin(60)
    one_off = time.perf_counter() - began
    start_times, move_times = [], []
    for _ in range(starts):
        t = time.perf_counter()
        with BotProcess(TRIVIAL, 2048) as proc:
            proc.begin(60)
            start_times.append(time.perf_counter() - t)
            proc.setup({}, 10)
            for _ in range(moves // starts):
                t = time.perf_counter()
                proc.request({"cmd": "act", "obs": obs}, 10)
                move_times.append(time.perf_counter() - t)
    return {"start": statistics.median(start_times), "move": statistics.median(move_times),
            "one_off": one_off, "isolation": str(sandbox_plan), "package": alhambra_ai.__file__}


def against(other: Path, rounds: int, starts: int, moves: int) -> None:
    trees = {"this": ROOT, "other": other.resolve()}
    runs: dict[str, list[dict]] = {name: [] for name in trees}
    print(f"this: {ROOT}\nother: {trees['other']}\nload average at the start: {os.getloadavg()[0]:.1f}")
    for _ in range(rounds):
        for name, tree in trees.items():
            out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--measure",
                                  "--starts", str(starts), "--moves", str(moves)],
                                 capture_output=True, text=True, cwd=tempfile.gettempdir(), check=True,
                                 env={**os.environ, "PYTHONPATH": str(tree)})
            runs[name].append(json.loads(out.stdout.strip().splitlines()[-1]))
    print(f"{rounds} rounds, each {starts} worker starts and {moves} moves per tree, in turn; load at the "
          f"end {os.getloadavg()[0]:.1f}")
    for key, label in (("start", "worker start (to the bot imported)"), ("move", "move round trip"),
                       ("one_off", "one-off per process (probe, read set)")):
        a = statistics.median(r[key] for r in runs["this"])
        b = statistics.median(r[key] for r in runs["other"])
        print(f"  {label:<40} this {1000 * a:8.2f} ms  other {1000 * b:8.2f} ms  this/other x{a / b:.3f}")
    print(f"  packages: {runs['this'][0]['package']} / {runs['other'][0]['package']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--bot", default=str(ROOT / "bots" / "random.py"))
    parser.add_argument("--against", type=Path, help="another checkout to compare with (its core built)")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--starts", type=int, default=10)
    parser.add_argument("--moves", type=int, default=300)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.starts, args.moves)))
        return
    if args.against:
        against(args.against, args.rounds, args.starts, args.moves)
        return
    full = sandbox.isolation()
    print(full.summary(2048, caps=True))
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    source = BotSource.from_file(args.bot)
    plans = modes(full)
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in plans}
    for plan in plans.values():  # one warm-up start each (file cache)
        start_once(source, plan)
    for _ in range(args.rounds):
        for name, plan in plans.items():
            times[name].append(start_once(source, plan))
    base = statistics.median(w for w, _ in times["none (rlimits only)"])
    base_cpu = statistics.mean(c for _, c in times["none (rlimits only)"])
    print(f"worker start to its bot imported ({Path(args.bot).name}): median wall of {args.rounds} rounds, "
          f"mean CPU; load at the end {os.getloadavg()[0]:.1f}")
    for name, values in times.items():
        m, cpu = statistics.median(w for w, _ in values), statistics.mean(c for _, c in values)
        print(f"  {name:<20} wall {1000 * m:6.1f} ms  +{1000 * (m - base):5.1f} ms  x{m / base:.2f}   "
              f"CPU {1000 * cpu:5.1f} ms  +{1000 * (cpu - base_cpu):5.1f} ms")


if __name__ == "__main__":
    main()
