"""The cost of the bot sandbox per worker start (target: at most 50 ms over an unsandboxed start).

A worker start is timed from spawning it to its hello (the interpreter started, the package imported, the
confinement applied, the bot file loaded), the way every game starts every seat. The modes are started in
turn, round after round, so the machine's load (shared, noisy) falls on all of them alike; the report gives
each mode's median and its difference and ratio to the unsandboxed start, all from one run. Wall time is what
a game waits for; it is what is measured.

    PYTHONPATH=. python benchmarks/bench_sandbox.py [--rounds 20] [--bot bots/random.py]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from alhambra_ai.tournament import sandbox
from alhambra_ai.tournament.process import BotProcess, BotSource
from alhambra_ai.tournament.sandbox import Isolation

ROOT = Path(__file__).resolve().parent.parent


def modes(full: Isolation) -> dict[str, Isolation]:
    return {"none (rlimits only)": Isolation(False, 0, False),
            "Landlock + seccomp": Isolation(False, full.landlock, full.seccomp),
            "full sandbox": full}


def start_once(source: BotSource, plan: Isolation) -> float:
    started = time.perf_counter()
    with BotProcess(source, 2048, plan=plan) as proc:
        proc.request(None, 60)
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--bot", default=str(ROOT / "bots" / "random.py"))
    args = parser.parse_args()
    full = sandbox.isolation()
    print(full.summary())
    source = BotSource.from_file(args.bot)
    plans = modes(full)
    times: dict[str, list[float]] = {name: [] for name in plans}
    for plan in plans.values():  # one warm-up start each (file cache)
        start_once(source, plan)
    for _ in range(args.rounds):
        for name, plan in plans.items():
            times[name].append(start_once(source, plan))
    base = statistics.median(times["none (rlimits only)"])
    print(f"worker start to hello, median of {args.rounds} rounds ({Path(args.bot).name}):")
    for name, values in times.items():
        m = statistics.median(values)
        print(f"  {name:<20} {1000 * m:7.1f} ms   +{1000 * (m - base):6.1f} ms   x{m / base:.2f}")


if __name__ == "__main__":
    main()
