"""The ``alhambra-ai`` command line: a thin click group; every command lives with its library code."""

from __future__ import annotations

import click

from alhambra_ai.bench import bench_command
from alhambra_ai.play import play
from alhambra_ai.strength import strength_command
from alhambra_ai.tournament.command import replay_command, submit_command, tournament_command


@click.group()
def main() -> None:
    """alhambra-ai: the Alhambra engine, bot arena and AI opponent."""


main.add_command(tournament_command)
main.add_command(submit_command)
main.add_command(replay_command)
main.add_command(play)
main.add_command(bench_command)
main.add_command(strength_command)

if __name__ == "__main__":
    main()
