"""The README's main job, timed: ``alhambra-ai tournament bots/*.py`` with its defaults.

Runs the command as a user would (a fresh process, the default settings, only ``--out`` pointed at a
temporary directory and the progress bar off), then reports the wall time, the machine's load when it started
(the machine is shared) and the final ranking. The figure is a measurement, never a test assertion. Most of
the wall time is the bots' thinking, which is limited by wall-clock time per move, so load changes it less
than it changes CPU-bound work.

    PYTHONPATH=. python benchmarks/bench_main_job.py
"""

from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_main_job(out: Path) -> dict:
    """Run the main job into ``out``; returns wall seconds, load, games and the ranking."""
    bots = sorted(glob.glob(str(ROOT / "bots" / "*.py")))
    command = [sys.executable, "-m", "alhambra_ai.cli", "tournament", *bots, "--out", str(out),
               "--no-progress"]
    load = os.getloadavg()[0]
    start = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    wall = time.monotonic() - start
    if done.returncode != 0:
        raise RuntimeError(f"the main job failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    standings = json.loads((out / "standings.json").read_text())
    return {"wall": wall, "load": load, "cores": os.cpu_count(), "games": standings["games"],
            "ranking": [row["name"] for row in standings["standings"]], "table": done.stdout}


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        r = run_main_job(Path(tmp) / "run")
    print(r["table"])
    print(f"main job: {r['games']} games in {r['wall']:.1f} s wall ({r['cores']} cores, "
          f"load {r['load']:.1f} at the start); ranking {' > '.join(r['ranking'])}")


if __name__ == "__main__":
    main()
