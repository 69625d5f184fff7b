"""The game options of the command line and the config files: module switches (rules.md §9) as one text,
and the check that a game takes them.

Every command that starts games (tournament, strength, bench, play) takes ``--options vizier,camps,...``
(and a tournament file an ``[options]`` table); they all read it here, so the names and the errors are the
same everywhere. The core checks the result again (``new_game(..., options)``).

>>> parse_options("vizier, camps")
{'vizier': True, 'camps': True}
>>> parse_options("all") == dict.fromkeys(MODULES, True)
True
>>> parse_options("") == parse_options("none") == {}
True
>>> options_text({"dirk": True, "camps": True, "vizier": True})
'vizier,camps'
"""

from __future__ import annotations

from typing import Any

from alhambra_ai import _core, registry
from alhambra_ai.errors import BadInput

#: the modules that can be switched on, in rulebook order (the order of the core's MODULE_OPTIONS)
MODULES: tuple[str, ...] = tuple(m for m in _core.MODULE_OPTIONS if m in _core.MODULES)
def parse_options(text: str | None) -> dict[str, bool]:
    """``"vizier,camps"`` -> ``{"vizier": True, "camps": True}``; ``None``, ``""``, ``"none"`` -> ``{}``;
    ``"all"`` -> every module. Raises ValueError naming an unknown module."""
    if text is None:
        return {}
    names = [w.strip().lower() for w in text.split(",") if w.strip()]
    if names in ([], ["none"]):
        return {}
    if names == ["all"]:
        return dict.fromkeys(MODULES, True)
    out = {}
    for name in names:
        if name not in MODULES:
            known = set(_core.MODULE_OPTIONS) - set(MODULES)
            why = "not implemented yet" if name in known else "unknown module"
            raise ValueError(f"{why}: {name!r} (modules: {', '.join(MODULES)}, or 'all')")
        out[name] = True
    return {m: True for m in MODULES if m in out}


def check_game(name: Any, options: Any = None) -> registry.Game:
    """The registry's game ``name``, if the modules switched on (``options``) apply to it; BadInput (a
    ValueError) naming the problem otherwise.

    >>> check_game("dice").title
    'Alhambra: The Dice Game'
    >>> check_game("dice", {"camps": True})
    Traceback (most recent call last):
    alhambra_ai.errors.BadInput: the modules (--options) are the base game's, not the dice game's
    """
    game = registry.get(name)
    if options and not game.takes_options:
        raise BadInput(f"the modules (--options) are the base game's, not the {name} game's")
    return game


def options_from_table(table: Any) -> dict[str, bool]:
    """A config file's ``[options]`` table (``camps = true``, ...) -> the same dict; ValueError when a key is
    no module or a value is not true / false."""
    if table is None:
        return {}
    if not isinstance(table, dict):
        raise ValueError("[options] must be a table of module = true / false")
    out = {}
    for key, value in table.items():
        if key not in MODULES:
            raise ValueError(f"[options]: unknown module {key!r} (modules: {', '.join(MODULES)})")
        if not isinstance(value, bool):
            raise ValueError(f"[options]: {key} must be true or false, not {value!r}")
        if value:
            out[key] = True
    return {m: True for m in MODULES if m in out}


def options_text(options: dict[str, Any] | None) -> str:
    """The modules that are on, as ``parse_options`` reads them (``""`` for the base game)."""
    return ",".join(m for m in MODULES if (options or {}).get(m))
