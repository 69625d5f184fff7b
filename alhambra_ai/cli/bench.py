"""``alhambra-ai bench``: the engine's speed (alhambra_ai.bench does the work)."""

from __future__ import annotations

import click

from alhambra_ai import registry
from alhambra_ai.bench import report
from alhambra_ai.cli.common import GAME_CHOICE, OPTIONS_HELP, options_callback
from alhambra_ai.options import check_game


@click.command("bench")
@click.option("--seconds", default=1.0, show_default=True, type=click.FloatRange(0.01, 60),
              help="Time per player count for the random-games figure.")
@click.option("--players", default="2,3,4,5,6", show_default=True,
              help="Comma-separated player counts (2-6).")
@click.option("--options", "options", default=None, callback=options_callback, help=OPTIONS_HELP)
@click.option("--game", "game", type=GAME_CHOICE, default=None,
              help="Benchmark this game only (a dice game: its random games/s). [default: all three]")
def bench_command(seconds: float, players: str, options: dict, game: str | None) -> None:
    """Engine speed: random games/s per player count, legal actions, apply, clone."""
    try:
        counts = tuple(int(p) for p in players.split(","))
    except ValueError:
        raise click.BadParameter(f"not a list of numbers: {players!r}", param_hint="--players") from None
    if not counts or any(not 2 <= n <= 6 for n in counts):
        raise click.BadParameter("player counts are 2 to 6", param_hint="--players")
    try:
        check_game(game or registry.DEFAULT, options)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--options") from None
    click.echo(report(seconds, counts, options, game))
