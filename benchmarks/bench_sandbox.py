"""The cost of the bot sandbox per worker start (target: at most 50 ms over an unsandboxed start).

A worker start is timed from spawning it (its cgroup made, where it gets one) to its hello and the bot file
imported (the interpreter started, the package imported, the confinement applied, then ``start``), the way
every game starts every seat. The modes are started in
turn, round after round, so the machine's load (shared, noisy) falls on all of them alike; the report gives
each mode's median and its difference and ratio to the unsandboxed start, all from one run. Wall time is what
a game waits for (the target); the CPU time of the worker's processes (launcher, init, worker) is given too.

    PYTHONPATH=. python benchmarks/bench_sandbox.py [--rounds 20] [--bot bots/random.py]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from alhambra_ai.tournament import sandbox
from alhambra_ai.tournament.process import BotProcess, BotSource, _only_child
from alhambra_ai.tournament.sandbox import Isolation

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--bot", default=str(ROOT / "bots" / "random.py"))
    args = parser.parse_args()
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
