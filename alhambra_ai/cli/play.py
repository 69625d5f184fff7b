"""``alhambra-ai play``: one game in the terminal against bots (alhambra_ai.terminal.play does the work)."""

from __future__ import annotations

import sys

import click

from alhambra_ai import registry
from alhambra_ai.cli.common import GAME, MODULE_OPTIONS, clock_options, seed_option
from alhambra_ai.terminal.play import play_game
from alhambra_ai.terminal.screen import terminal_is_interactive
from alhambra_ai.terminal.text import COMPACT_HEIGHT, screen_size


@click.command("play")
@click.option("--players", type=int, default=None, metavar="N",
              help="number of players, 2-6  [default: one per --bot, at least 2]")
@click.option("--seat", type=int, default=1, show_default=True, help="your seat, 1-based")
@click.option("--bot", "bots", multiple=True, metavar="FILE",
              help="opponent bot file or built-in name; each --bot fills the next opponent seat in order "
              "(the list repeats when --players asks for more) [default: the game's strongest: "
              + ", ".join(f"{registry.get(g).strongest} in {g}" for g in registry.names()) + "]")
@seed_option("The deal's seed.")
@clock_options(move_time=1.0, time_bank=10.0)
@click.option("--unicode/--ascii", default=False, help="box-drawing characters for the cities")
@click.option("--color/--no-color", default=False, help="ANSI colours")
@click.option("--record", metavar="FILE", default=None,
              help="save the game as a record at the end (the path is checked before the game starts)")
@click.option("--width", type=click.IntRange(min=40), metavar="COLUMNS", default=None,
              help="draw for this many columns (at least 40; laid out for 80 or more)  [default: the "
              "terminal's; 80 into a pipe or file]")
@click.option("--compact/--full", default=None,
              help="the compact screen: own city only, others one line each  [default: when the terminal "
              f"has fewer than {COMPACT_HEIGHT} lines]")
@click.option("--plain", is_flag=True, default=False,
              help="the line mode: each turn printed below the last, for screen readers and logs (also "
              "whenever input or output is not a terminal)  [default: a full screen redrawn for each "
              "decision]")
@MODULE_OPTIONS
@GAME
@click.option("--windows", type=click.Choice(["useful", "ask", "auto"]), default="useful", show_default=True,
              help="the window between turns (vizier, thief): asked when an offer is new and worth it, "
              "always, or never (done is played); in the game: windows ask|auto|useful")
def play(players: int | None, seat: int, bots: tuple[str, ...], seed: int | None, move_time: float,
         time_bank: float, unicode: bool, color: bool, record: str | None, width: int | None,
         compact: bool | None, plain: bool, options: dict, game: str, windows: str) -> None:
    """Play one game in the terminal against bots (the strongest by default); after the end the final
    position stays for review (scores, city N, table, log) until quit."""
    screen = not plain and terminal_is_interactive()
    if sys.stdin.isatty() and not screen:
        try:
            import readline  # noqa: F401  (line editing and history for input())
        except ImportError:
            pass
    columns, lines = screen_size(width, tty=sys.stdout.isatty())
    sys.exit(play_game(players, seat, bots, seed, move_time, unicode, color, time_bank=time_bank,
                       record=record, width=columns,
                       compact=lines < COMPACT_HEIGHT if compact is None else compact, options=options,
                       game=game, screen=screen, windows=windows))
