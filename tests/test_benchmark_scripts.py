"""The benchmark scripts users run by hand still run: their imports follow the package (the tuning script
once imported a name the package had moved), and tune_match plays a deal of each game."""

import subprocess
import sys

import pytest
from paths import ROOT

SCRIPTS = sorted(p for p in (ROOT / "benchmarks").glob("*.py")
                 if "__main__" in p.read_text() and not p.name.startswith("bench_"))


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_a_script_starts(script):
    done = run(str(script), "--help")
    assert done.returncode == 0 and "usage" in done.stdout, done.stderr


@pytest.mark.parametrize("game", ["alhambra", "dice", "alcazaba"])
def test_tune_match_plays_a_deal_with_a_in_each_seat(game):
    done = run("benchmarks/tune_match.py", "bots/greedy.py", "bots/random.py", "--game", game, "--deals", "1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{game} 2p deal 1/1: A ") and "/2 = " in done.stdout, done.stdout
