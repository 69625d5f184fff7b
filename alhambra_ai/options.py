"""The game options of the command line and the config files: module switches (RULES §9) as one text.

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
#: the games of the engine (the registry's): the base game (the default), the dice game, Alcazaba
GAMES: tuple[str, ...] = registry.names()
GAME_HELP = ("The game: " + ", ".join(f"{g} ({registry.get(g).title})" for g in GAMES)
             + f". [default: {registry.DEFAULT}]")
HELP = ("Modules of the rulebook, comma-separated: " + ", ".join(MODULES)
        + " (or 'all'; default: none, the base game).")


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


def check_game(name: Any) -> str:
    """The game named by a config file or an option; ValueError naming the games otherwise.

    >>> check_game("dice")
    'dice'
    """
    if name not in GAMES:
        raise BadInput(f"game must be one of {', '.join(GAMES)}, not {name!r}")
    return name


def check_game_options(game: str, options: Any) -> None:
    """BadInput (a ValueError) when modules are switched on for a game that has none (the dice games).

    >>> check_game_options("dice", {"camps": True})
    Traceback (most recent call last):
    alhambra_ai.errors.BadInput: the modules (--options) are the base game's, not the dice game's
    """
    if options and not registry.get(game).takes_options:
        raise BadInput(f"the modules (--options) are the base game's, not the {game} game's")


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


def click_callback(ctx: Any, param: Any, value: str | None) -> dict[str, bool]:
    """For ``click.option("--options", callback=click_callback)``: a bad name is a usage error (exit 2)."""
    import click

    try:
        return parse_options(value)
    except ValueError as e:
        raise click.BadParameter(str(e)) from None
