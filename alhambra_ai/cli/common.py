"""What several commands' options share, defined once: the game and the modules, the seed, the clock, where
games run, the player counts, and the old spellings of renamed options.

The flags follow one set of rules (README "Commands"): ``--players`` is the seats per game; ``--games`` a
number of games (``tournament --rounds`` repeats its full seat rotation, as fastchess's and cutechess-cli's
``-rounds``); without ``--seed`` the seed is random, printed and stored, and a resumed run keeps the stored
one; ``--out DIR`` is always a folder, and a file a command writes is named for what it holds
(``--results FILE``, ``--weights FILE``, ``--record FILE``, ``--html FILE``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from alhambra_ai import registry
from alhambra_ai.arena.schedule import new_master_seed
from alhambra_ai.errors import BadInput
from alhambra_ai.options import MODULES, parse_options

GAME_HELP = ("The game: " + ", ".join(f"{g} ({registry.get(g).title})" for g in registry.names())
             + f". [default: {registry.DEFAULT}]")
OPTIONS_HELP = ("Modules of the rulebook, comma-separated: " + ", ".join(MODULES)
                + " (or 'all'; default: none, the base game).")
GAME_CHOICE = click.Choice(registry.names())
RANDOM_SEED = "[default: random, printed; give it again to repeat the run]"


def options_callback(ctx: Any, param: Any, value: str | None) -> dict[str, bool]:
    """For ``click.option("--options", callback=options_callback)``: a bad name is a usage error (exit 2)."""
    try:
        return parse_options(value)
    except ValueError as e:
        raise click.BadParameter(str(e)) from None


def player_counts(ctx: Any, param: Any, value: str | None) -> tuple[int, ...] | None:
    """For a ``--players`` of several counts: ``2,4`` or ``2-4`` (or both: ``2,4-6``), each 2 to 6.

    >>> player_counts(None, None, "2,4-6")
    (2, 4, 5, 6)
    """
    if value is None:
        return None
    counts: list[int] = []
    for part in value.split(","):
        low, dash, high = part.strip().partition("-")
        try:
            first, last = int(low), int(high) if dash else int(low)
        except ValueError:
            raise click.BadParameter(f"{value!r}: write player counts like 2,4 or 2-4") from None
        if not 2 <= first <= last <= 6:
            raise click.BadParameter(f"{value!r}: player counts are 2 to 6, low to high")
        counts += range(first, last + 1)
    return tuple(counts)


def stack(*decorators: Callable) -> Callable:
    """Several click decorators as one, applied in the order written (the options' order in --help)."""
    def apply(f: Callable) -> Callable:
        for decorate in reversed(decorators):
            f = decorate(f)
        return f
    return apply


def seed_option(what: str = "Master seed of the deals.") -> Callable:
    """``--seed N``: the same rule in every command (random unless given, printed and stored)."""
    return click.option("--seed", type=int, default=None, metavar="N", help=f"{what} {RANDOM_SEED}")


def clock_options(move_time: float | None, time_bank: float | None, given_only: bool = False) -> Callable:
    """``--move-time`` and ``--time-bank``, as the referee applies them in every command; ``given_only``:
    None when not given (a definition file or a stored run may set them), the default only shown."""
    def shown(default: float | None) -> dict[str, Any]:
        if given_only:
            return {"default": None, "help_default": f" [default: {default}]"}
        return {"default": default, "show_default": True, "help_default": ""}

    mt, tb = shown(move_time), shown(time_bank)
    return stack(
        click.option("--move-time", type=float, metavar="SECONDS", default=mt["default"],
                     show_default=mt.get("show_default", False),
                     help="Seconds per move." + mt["help_default"]),
        click.option("--time-bank", type=float, metavar="SECONDS", default=tb["default"],
                     show_default=tb.get("show_default", False),
                     help="Extra seconds per game and seat, drawn on by moves over --move-time."
                          + tb["help_default"]))


ITERATIONS = click.option("--iterations", type=int, default=None, metavar="N",
                          help="MCTS iterations per move (expectimax: a tenth as many samples) instead of "
                               "their time budget: the search bots become deterministic, and so the run.")
JOBS = click.option("--jobs", "-j", type=int, default=1, show_default=True, metavar="N",
                    help="Games played at once (local backend).")


def backend_options(given_only: bool = False) -> Callable:
    """``--backend local|ray`` and ``--address`` (``given_only``: None when not given)."""
    return stack(
        click.option("--backend", type=click.Choice(["local", "ray"]),
                     default=None if given_only else "local",
                     show_default=not given_only,
                     help="Where games run: this machine, or a Ray cluster (a game per task; needs pip "
                          'install -e ".[ray]").' + (" [default: local]" if given_only else "")),
        click.option("--address", metavar="auto|HOST:PORT", default=None,
                     help="The Ray cluster (--backend ray). [default: the one running here, else a new one]"))


BACKEND = backend_options()
PROGRESS = click.option("--progress/--no-progress", default=True, show_default=True,
                        help="A progress bar on stderr.")
MODULE_OPTIONS = click.option("--options", "options", default=None, callback=options_callback,
                              help=OPTIONS_HELP)
GAME = click.option("--game", "game", type=GAME_CHOICE, default=registry.DEFAULT, help=GAME_HELP)


class Renamed(click.Command):
    """A command that still takes the old spellings of its renamed options, ``renamed={"--seats":
    "--players"}``: each is read as the new one (the same value, the same run) after a one-line notice on
    stderr that says what to write instead. A usage error in such an option names both spellings."""

    def __init__(self, *args: Any, renamed: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.renamed = dict(renamed or {})

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        args, used = rename(args, self.renamed)
        try:
            rest = super().parse_args(ctx, args)
        except click.UsageError as e:
            if used:
                e.message = e.message.rstrip(".") + " (" + "; ".join(
                    f"{old} is now {self.renamed[old]}" for old in used) + ")"
            raise
        for old in used:
            click.echo(f"note: {ctx.command_path} {old} is now {self.renamed[old]}; {old} still works "
                       "for now", err=True)
        return rest


def rename(args: Sequence[str], renamed: dict[str, str]) -> tuple[list[str], list[str]]:
    """The arguments with each old option spelling (``--seats 2``, ``--seats=2``) replaced by the new
    one, and the old spellings that were used; nothing after ``--`` is touched.

    >>> rename(["a.py", "--seats=2-4", "--games", "3", "--", "--games"], {"--seats": "--players",
    ...        "--games": "--rounds"})
    (['a.py', '--players=2-4', '--rounds', '3', '--', '--games'], ['--seats', '--games'])
    """
    out: list[str] = []
    used: list[str] = []
    for i, arg in enumerate(args):
        if arg == "--":
            out += args[i:]
            break
        name, eq, value = arg.partition("=")
        if name in renamed:
            arg = renamed[name] + eq + value
            if name not in used:
                used.append(name)
        out.append(arg)
    return out, used


def chosen_seed(seed: int | None, results: str | None = None) -> int:
    """``--seed``'s rule: the seed given; else the one stored in the results file that the run continues
    (``strength --results``, ``sprt --results --resume``); else a random one (the command prints it)."""
    if seed is not None:
        return seed
    if results and Path(results).is_file():
        from alhambra_ai.arena.strength import ResultLog

        try:
            stored = ResultLog.read(Path(results))[0]["settings"].get("seed")
        except BadInput:
            stored = None  # not a results file: the run's own checks say so
        if isinstance(stored, int):
            return stored
    return new_master_seed()
