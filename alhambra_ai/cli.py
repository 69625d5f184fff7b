"""The ``alhambra-ai`` command line (thin: it parses arguments and calls library functions)."""

import click

from alhambra_ai.play import play


@click.group()
def main() -> None:
    """alhambra-ai: engine, bot arena and AI opponent for the board game Alhambra."""


main.add_command(play)
