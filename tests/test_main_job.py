"""The README's main job runs to the end with its defaults and ranks the built-in bots (a slow test: the
time it takes is printed as a benchmark figure, not asserted; see benchmarks/bench_main_job.py)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from bench_main_job import run_main_job  # noqa: E402


@pytest.mark.slow
def test_the_main_job_finishes_and_ranks_the_built_in_bots(tmp_path):
    r = run_main_job(tmp_path / "run")
    print(f"\nmain job: {r['games']} games in {r['wall']:.1f} s wall, load {r['load']:.1f}")
    assert r["games"] == 24                                    # 6 pairings x 2 seatings x 2 games
    assert r["ranking"][-1] == "random"
    assert r["ranking"].index("greedy") >= 1                   # a searching bot above the one-ply heuristic
