"""The ``alhambra-ai`` command line: a thin click group; every command calls a library function."""

from __future__ import annotations

import click

from alhambra_ai.strength import strength_command
from alhambra_ai.tournament.command import replay_command, submit_command, tournament_command


@click.group()
def main() -> None:
    """alhambra-ai: the Alhambra engine, bot arena and AI opponent."""


main.add_command(tournament_command)
main.add_command(submit_command)
main.add_command(replay_command)
main.add_command(strength_command)


@main.command()
@click.option("--seconds", default=1.0, show_default=True, type=click.FloatRange(0.01, 60),
              help="Time per player count for the random-games figure.")
@click.option("--players", default="2,3,4,5,6", show_default=True,
              help="Comma-separated player counts (2-6).")
def bench(seconds: float, players: str) -> None:
    """Engine speed: random games/s per player count, legal actions, apply, clone."""
    from alhambra_ai.bench import report

    try:
        counts = tuple(int(p) for p in players.split(","))
    except ValueError:
        raise click.BadParameter(f"not a list of numbers: {players!r}", param_hint="--players") from None
    if not counts or any(not 2 <= n <= 6 for n in counts):
        raise click.BadParameter("player counts are 2 to 6", param_hint="--players")
    click.echo(report(seconds, counts))


if __name__ == "__main__":
    main()
