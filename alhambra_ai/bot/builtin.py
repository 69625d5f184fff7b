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
>>> bot_file("greedy") == builtin_bot("greedy")
True
>>> try:
...     bot_file("nonesuch")
... except BadInput as e:
...     print(e)
bot file not found: nonesuch (give a path, or a built-in name: random, greedy, expectimax, mcts)
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from alhambra_ai.bot.api import bot_file_problem
from alhambra_ai.errors import BadInput

NAMES = ("random", "greedy", "expectimax", "mcts")
FALLBACK = "random"     # the opponent when a game's strongest bot is missing


def bots_dir() -> Path:
    """The folder of the built-in bots."""
    try:
        spec = importlib.util.find_spec("alhambra_ai.bots")
    except (ImportError, ValueError):
        spec = None
    for location in (spec.submodule_search_locations or []) if spec else []:
        if (Path(location) / "random.py").is_file():
            return Path(location)
    return Path(__file__).resolve().parents[2] / "bots"  # a source tree on the path, not installed


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


def bot_file(spec: str) -> Path:
    """The bot file a command-line argument means: a file path, or a built-in name (``mcts``, ``mcts.py``).
    Raises BadInput naming what is wrong (no such file, or a file that is no bot)."""
    path = Path(spec).expanduser()
    if path.is_file():
        problem = bot_file_problem(path)
        if problem:
            raise BadInput(problem)
        return path
    found = builtin_bot(spec.removesuffix(".py"))
    if found is None:
        raise BadInput(f"bot file not found: {spec} (give a path, or a built-in name: {', '.join(NAMES)})")
    return found
