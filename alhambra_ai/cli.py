"""The alhambra-ai command line (thin: each command lives with its library code)."""

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
