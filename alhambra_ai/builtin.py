"""The built-in bots (random, greedy, expectimax, mcts): where they are, and names that mean them.

They are the files of the project's top-level ``bots/`` folder, which users see and copy, shipped inside
the package as ``alhambra_ai.bots`` (pyproject.toml maps the folder onto it): an installed wheel finds
them without a checkout, an editable install finds the checkout's folder, and a source tree on the path
finds the folder beside the package.

>>> NAMES
('random', 'greedy', 'expectimax', 'mcts')
>>> builtin_bot("greedy").name, builtin_bot("nonesuch")
('greedy.py', None)
>>> resolve("mcts") == str(builtin_bot("mcts")), resolve("mine.py")
(True, 'mine.py')
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

NAMES = ("random", "greedy", "expectimax", "mcts")


def bots_dir() -> Path:
    """The folder of the built-in bots."""
    try:
        spec = importlib.util.find_spec("alhambra_ai.bots")
    except (ImportError, ValueError):
        spec = None
    for location in (spec.submodule_search_locations or []) if spec else []:
        if (Path(location) / "random.py").is_file():
            return Path(location)
    return Path(__file__).resolve().parent.parent / "bots"  # a source tree on the path, not installed


def builtin_bot(name: str) -> Path | None:
    """The file of the built-in bot ``name`` (any bot file in that folder), or None."""
    path = bots_dir() / f"{name}.py"
    return path if name and "/" not in name and path.is_file() else None


def resolve(spec: str) -> str:
    """A bot given on the command line: an existing file as it is, else a built-in name as its file, else
    unchanged (so that the error names what the user wrote)."""
    if Path(spec).is_file() or Path(spec).suffix == ".py":
        return spec
    found = builtin_bot(spec)
    return str(found) if found else spec
