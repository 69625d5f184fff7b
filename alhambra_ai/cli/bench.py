"""``alhambra-ai bench``: the engine's speed (alhambra_ai.bench does the work)."""

from __future__ import annotations

import click

from alhambra_ai import registry
from alhambra_ai.bench import report
from alhambra_ai.cli.common import GAME_CHOICE, MODULE_OPTIONS, player_counts
from alhambra_ai.options import check_game


@click.command("bench")
@click.option("--seconds", default=1.0, show_default=True, type=click.FloatRange(0.01, 60),
              help="Time per player count for the random-games figure.")
@click.option("--players", default="2,3,4,5,6", show_default=True, callback=player_counts,
              metavar="2,4|2-4", help="Player counts (2-6): a list, a range, or both.")
@MODULE_OPTIONS
@click.option("--game", "game", type=GAME_CHOICE, default=None,
              help="Benchmark this game only (a dice game: its random games/s). [default: all three]")
def bench_command(seconds: float, players: tuple[int, ...], options: dict, game: str | None) -> None:
    """Engine speed: random games/s per player count, legal actions, apply, clone."""
    counts = players
    try:
        check_game(game or registry.DEFAULT, options)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--options") from None
    click.echo(report(seconds, counts, options, game))
