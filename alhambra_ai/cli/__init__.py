"""The ``alhambra-ai`` command line: a thin click group, one module per command in this package.

Every usage error of every command (unknown option, bad value, missing argument, unknown command) is one
line on stderr and exit code 2, without click's usage block: ``OneLineErrors`` turns them into that form
at the group, so options added to any command later get the same treatment. Library code raises
``alhambra_ai.errors.BadInput`` for input it cannot use; the group shows it the same way (one line, exit 2).
Output into a pipe whose reader stopped (``alhambra-ai replay g.json | head``) ends quietly with exit code 0.
"""

from __future__ import annotations

import os
import sys

import click

from alhambra_ai.cli.analyse import analyse_command
from alhambra_ai.cli.bench import bench_command
from alhambra_ai.cli.play import play
from alhambra_ai.cli.report import report_command
from alhambra_ai.cli.selfplay import selfplay_command
from alhambra_ai.cli.sprt import sprt_command
from alhambra_ai.cli.strength import strength_command
from alhambra_ai.cli.tournament import replay_command, submit_command, tournament_command
from alhambra_ai.cli.train import train_command
from alhambra_ai.errors import BadInput


class UsageLine(click.ClickException):
    """A usage error shown as one line (``Error: ... (see alhambra-ai play --help)``), exit code 2."""

    exit_code = 2


_HELP_ERRORS = tuple(getattr(click.exceptions, name) for name in ("NoArgsIsHelpError",)
                     if hasattr(click.exceptions, name))


def _one_line(error: click.UsageError) -> click.ClickException:
    if isinstance(error, _HELP_ERRORS):  # no command given: the help itself is the answer
        return error
    message = " ".join(error.format_message().split())
    ctx = error.ctx
    if ctx is not None:
        message = message.rstrip(".") + f" (see {ctx.command_path} --help)"
    return UsageLine(message)


class OneLineErrors(click.Group):
    """A click group whose usage errors, its own and its commands', are one line on stderr, exit 2."""

    def make_context(self, info_name, args, parent=None, **extra):
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.UsageError as e:
            raise _one_line(e) from None

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except click.UsageError as e:
            raise _one_line(e) from None
        except BadInput as e:
            raise UsageLine(" ".join(str(e).split())) from None
        except BrokenPipeError:  # the reader stopped (``| head``): its choice, not an error
            _quiet_stdout()
            sys.exit(0)


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's last flush does not fail on the closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


@click.group(cls=OneLineErrors)
def main() -> None:
    """alhambra-ai: the Alhambra engine, bot arena and AI opponent."""


main.add_command(tournament_command)
main.add_command(submit_command)
main.add_command(replay_command)
main.add_command(play)
main.add_command(bench_command)
main.add_command(strength_command)
main.add_command(report_command)
main.add_command(sprt_command)
main.add_command(selfplay_command)
main.add_command(train_command)
main.add_command(analyse_command)

