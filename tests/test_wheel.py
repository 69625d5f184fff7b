"""A wheel that plays (issue 42): built from this tree's sdist, installed into a fresh virtual environment,
it runs a tournament of the built-in bots by name and a game of ``play`` from an empty folder: the bots ship
inside the package (pyproject.toml maps bots/ onto ``alhambra_ai.bots``), nothing is found through a checkout.
The sdist holds what the build needs (MANIFEST.in: the Cython sources and dispatch.py) and no build output.
Slow: building the wheel compiles the core."""

import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_the_wheel_plays_from_an_empty_folder(tmp_path):
    sdists, wheels = tmp_path / "sdist", tmp_path / "wheels"
    subprocess.run([sys.executable, "-c", "import sys; from setuptools import build_meta as b; "
                    "b.build_sdist(sys.argv[1])", str(sdists)], cwd=ROOT, check=True, capture_output=True,
                   timeout=600)
    (sdist,) = sdists.glob("alhambra*.tar.gz")
    sources = {n.split("/", 1)[1] for n in tarfile.open(sdist).getnames() if "/" in n}
    assert {"setup.py", "cython_core/_core.pyx", "cython_core/alhambra/modules/table.pxi",
            "cython_core/alhambra/modules/dispatch.py", "cython_core/shared/city.pxi"} <= sources
    assert not any(n.endswith((".c", ".so", "dispatch.pxi")) for n in sources)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(sdist)],
                   check=True, timeout=1800)
    (wheel,) = wheels.glob("alhambra_ai-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {f"alhambra_ai/bots/{b}.py" for b in ("random", "greedy", "expectimax", "mcts")} <= set(names)
    assert "alhambra_ai/games/alhambra/assets/modules/walls.js" in names     # the modules' viewer scripts
    assert not any(n.startswith(("tests/", "bots/")) or n.endswith((".c", ".pyx", ".pxi")) for n in names)

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)], check=True,
                   timeout=1800)
    empty = tmp_path / "empty"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    cli = str(venv / "bin" / "alhambra-ai")

    where = subprocess.run([str(venv / "bin" / "python"), "-c",
                            "import alhambra_ai, alhambra_ai.bot.builtin as b; print(alhambra_ai.__file__); "
                            "print(b.bots_dir())"], cwd=empty, env=env, capture_output=True, text=True)
    package, bots = where.stdout.split()
    assert package.startswith(str(venv)) and bots.startswith(str(venv)), where.stdout

    run = subprocess.run([cli, "tournament", "random", "greedy", "--rounds", "1", "--move-time", "0.05",
                          "--out", "run", "--no-progress"],
                         cwd=empty, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    assert (empty / "run" / "standings.json").is_file() and "greedy" in run.stdout

    game = subprocess.run([cli, "play", "--seed", "3", "--move-time", "0.05"], cwd=empty, env=env,
                          input="1\n" * 3000, capture_output=True, text=True, timeout=900)
    assert game.returncode == 0, (game.stdout[-2000:], game.stderr[-2000:])
    assert "seat 2: mcts" in game.stdout and "Final scores:" in game.stdout  # the strongest bot, shipped


def test_every_package_of_the_tree_is_in_the_wheels_list():
    """pyproject.toml lists the packages by name: a new folder of the package left out of it imports from a
    checkout but not from a wheel (the slow test above finds that only after building one)."""
    import tomllib

    root = Path(__file__).resolve().parent.parent
    listed = set(tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(root).parts) for p in (root / "alhambra_ai").rglob("__init__.py")}
    assert found <= listed, sorted(found - listed)
