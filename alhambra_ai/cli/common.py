"""What several commands' options share: the game and the modules, in click's terms."""

from __future__ import annotations

from typing import Any

import click

from alhambra_ai import registry
from alhambra_ai.options import MODULES, parse_options

GAME_HELP = ("The game: " + ", ".join(f"{g} ({registry.get(g).title})" for g in registry.names())
             + f". [default: {registry.DEFAULT}]")
OPTIONS_HELP = ("Modules of the rulebook, comma-separated: " + ", ".join(MODULES)
                + " (or 'all'; default: none, the base game).")
GAME_CHOICE = click.Choice(registry.names())


def options_callback(ctx: Any, param: Any, value: str | None) -> dict[str, bool]:
    """For ``click.option("--options", callback=options_callback)``: a bad name is a usage error (exit 2)."""
    try:
        return parse_options(value)
    except ValueError as e:
        raise click.BadParameter(str(e)) from None
