"""The commands ``tournament``, ``submit`` and ``replay`` (thin: parse, call, report; the library is
alhambra_ai.arena). Bad input is ``BadInput`` (one line, exit 2, by the group): the store's, the
sandbox's and the cluster's errors are kinds of it."""

from __future__ import annotations

import signal
import sys
from dataclasses import replace
from pathlib import Path

import click

from alhambra_ai.arena import runner
from alhambra_ai.arena.config import Settings, default_out, load_definition, make_settings, stored_definition
from alhambra_ai.arena.ladder import DEFAULTS as LADDER
from alhambra_ai.arena.ladder import submit
from alhambra_ai.arena.schedule import parse_seats
from alhambra_ai.arena.store import ResultStore
from alhambra_ai.bot.builtin import resolve
from alhambra_ai.cli.common import (
    GAME_CHOICE,
    GAME_HELP,
    JOBS,
    OPTIONS_HELP,
    PROGRESS,
    Renamed,
    backend_options,
    clock_options,
    seed_option,
)
from alhambra_ai.errors import BadInput
from alhambra_ai.formats.record import RecordError, load_record
from alhambra_ai.html.report import write_viewer
from alhambra_ai.options import parse_options
from alhambra_ai.terminal.replay import replay
from alhambra_ai.terminal.screen import terminal_is_interactive
from alhambra_ai.terminal.text import screen_size

D = Settings()  # the defaults shown in --help

def _sigterm_as_interrupt() -> None:
    def handler(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, handler)


def _player_range(ctx, param, value: str | None) -> str | None:
    """--players N or LO-HI, checked here so that the message names the option (the value is kept as
    written: the settings store it so)."""
    if value is not None:
        try:
            parse_seats(value)
        except ValueError:
            raise click.BadParameter(f"{value!r}: write a count like 2 or a range like 2-4, within 2-6") \
                from None
    return value


TOURNAMENT_HELP = """Play every combination of BOT_FILEs against each other and rate them (TrueSkill).
A BOT_FILE may also be a built-in bot's name: random, greedy, expectimax, mcts.

Each combination of bots for a player count is played in every cyclic seat rotation (each
bot sits in each seat equally often, on the same deal): a round; --rounds repeats it on new
deals. Seeds come from --seed and the game, so results never depend on --jobs or --backend.

Every bot runs in its own sandboxed process (namespaces, Landlock, seccomp, rlimits: README
"Security model"; the isolation in force is printed and stored, --require-sandbox refuses
to run with less) and sees only its own observations. A bot forfeits a game when it
raises, exceeds the time (--move-time per move, plus the --time-bank drawn on by slower
moves), exceeds --memory, exits or crashes, prints to stdout, or returns an illegal or
malformed action. Its seat is then played by the referee's stand-in (first legal action),
it is ranked last in that game, the reason is counted on the leaderboard, and the
tournament goes on.

Results go to --out DIR: results.jsonl (a line per game), games/ID.json (replayable
records: alhambra-ai replay), standings.csv and standings.json, rewritten from the stored
games whenever the run stops. The leaderboard is sorted by mu - 3 sigma and shows win rates
with 95% intervals, then a head-to-head table; alhambra-ai report DIR draws it all as HTML.
An interrupted run (Ctrl-C, kill) continues with --out DIR --resume; the final standings
are those of an uninterrupted run.

\b
Examples:
  alhambra-ai tournament bots/*.py       (the main job: 24 games, ~90 s)
  alhambra-ai tournament bots/random.py bots/greedy.py
  alhambra-ai tournament bots/*.py --players 2-4 --rounds 4 -j 2 --out runs/a
  alhambra-ai tournament --config tournaments/quick.toml
  alhambra-ai tournament --lineup bots/mcts.py,bots/greedy.py,bots/greedy.py
  alhambra-ai tournament --out runs/a --resume
  alhambra-ai tournament bots/*.py --game dice       (or --game alcazaba)
  alhambra-ai tournament bots/*.py --players 2-4 --backend ray --address auto
"""


@click.command("tournament", help=TOURNAMENT_HELP, cls=Renamed,
               renamed={"--seats": "--players", "--games": "--rounds"})
@click.argument("bot_files", nargs=-1, type=click.Path(dir_okay=False))
@click.option("--config", "config_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="A ready definition (TOML), e.g. tournaments/quick.toml; options given here override it.")
@click.option("--lineup", metavar="A,B,...",
              help="Instead of BOT_FILEs: one fixed lineup of bot files, seat by seat, played in every seat "
              "rotation; a file may appear several times (bots/mcts.py,bots/greedy.py,bots/greedy.py): its "
              "seats are named greedy, greedy#2, ... and each runs in its own process.")
@click.option("--players", "seats", metavar="N|LO-HI", callback=_player_range,
              help="Players (seats) per game: 2, or a range like 2-4 (each count is played; 2-6). "
              f"[default: {D.seats}; old spelling: --seats]")
@click.option("--rounds", "games", type=click.IntRange(min=1), metavar="N",
              help="Rounds: each plays every combination in its full seat rotation on one deal "
              f"(fastchess's -rounds). [default: {D.games}; old spelling: --games]")
@seed_option("Master seed of all games (keep it secret while bots play); stored in DIR/tournament.json.")
@clock_options(D.move_time, D.time_bank, given_only=True)
@click.option("--memory", type=int, metavar="MB",
              help=f"Memory cap per bot process (0 = none). [default: {D.memory}]")
@click.option("--setup-time", type=float, metavar="SECONDS",
              help="Time to start a bot process and run its setup (not charged to the bank). "
              f"[default: {D.setup_time}]")
@click.option("--jobs", "-j", type=int, metavar="N",
              help="Games played at once (local backend). [default: the number of CPU cores]")
@backend_options(given_only=True)
@click.option("--out", type=click.Path(file_okay=False), metavar="DIR",
              help="The folder of the run. [default: ./tournament-DATE-TIME]")
@click.option("--resume", is_flag=True,
              help="Continue the run in --out DIR (bots and settings must match; without BOT_FILEs they are "
              "taken from DIR).")
@PROGRESS
@click.option("--require-sandbox", is_flag=True, default=None,
              help="Refuse to run unless every isolation mechanism for bots is available "
              "(README 'Security model').")
@click.option("--width", type=click.IntRange(min=40), metavar="COLUMNS",
              help="Fit the tables to this many columns (at least 40; laid out for 80 or more). "
              "[default: the terminal's; 80 into a pipe or file]")
@click.option("--options", "options", default=None,
              help=OPTIONS_HELP + " Overrides the file's [options] ('none' switches them off).")
@click.option("--game", "game", type=GAME_CHOICE, default=None, help=GAME_HELP)
def tournament_command(bot_files, config_file, lineup, seats, games, seed, move_time, time_bank, memory,
                       setup_time, jobs, backend, address, out, resume, progress, require_sandbox, width,
                       options, game):
    definition = load_definition(config_file) if config_file else {}
    if resume and not out and not definition.get("out"):
        raise BadInput("--resume needs --out DIR (the directory of the run to continue)")
    if resume and not bot_files and not config_file:
        definition = stored_definition(Path(out))
    lineup_files = tuple(resolve(p.strip()) for p in lineup.split(",")) if lineup else ()
    bot_files = tuple(resolve(b) for b in bot_files)  # built-in names (random, mcts, ...) as their files
    try:
        modules = None if options is None else tuple(parse_options(options))
    except ValueError as e:
        raise BadInput(f"--options: {e}") from None
    settings = make_settings(definition, bots=tuple(bot_files) or None, lineup=lineup_files or None,
                             seats=seats,
                             games=games, seed=seed,
                             move_time=move_time, time_bank=time_bank, memory=memory,
                             setup_time=setup_time, jobs=jobs, backend=backend, address=address, out=out,
                             require_sandbox=require_sandbox, options=modules, game=game)
    if settings.out is None:
        settings = replace(settings, out=default_out())
    _sigterm_as_interrupt()
    try:
        runner.run_tournament(settings, resume=resume, progress=progress,
                       width=screen_size(width, tty=sys.stdout.isatty())[0])
    except KeyboardInterrupt:
        done = len(ResultStore(settings.out).results())
        click.echo(f"\ninterrupted after {done} stored games; continue with: "
                   f"alhambra-ai tournament --out {settings.out} --resume", err=True)
        sys.exit(130)


@click.command("submit")
@click.argument("bot_file", type=click.Path(dir_okay=False))
@click.option("--ladder", "ladder_dir", type=click.Path(file_okay=False), default="tournaments/ladder",
              show_default=True, metavar="DIR", help="The ladder directory (created on first use).")
@clock_options(LADDER["move_time"], LADDER["time_bank"], given_only=True)
@JOBS
@PROGRESS
@click.option("--game", "game", type=GAME_CHOICE, default=None,
              help="The game of the ladder: alhambra (the base game), dice or alcazaba. A new ladder plays "
              "it; an existing one refuses another. [default: the ladder's own; alhambra for a new one]")
def submit_command(bot_file, ladder_dir, move_time, time_bank, jobs, progress, game):
    """Validate BOT_FILE and enter it into the persistent ladder.

    Validation loads the bot in an isolated worker and plays one game against bots/random.py,
    reporting its time per move; a bot that fails (any forfeit reason of `tournament`) is
    refused with the reason (exit code 2). An accepted bot is copied into the ladder and plays
    every earlier entrant (2 seats, both rotations, 2 games each by default: see the ladder's
    ladder.json); then its rating and rank are printed. --move-time and --time-bank are a new
    ladder's clock (stored in ladder.json); an existing ladder refuses others. A new ladder
    starts with the built-in bots (their names are taken), and its first submission also plays
    their games among themselves; what will be played and the longest it may take are said
    first. Submitting the same file again finishes an interrupted submission; a changed file
    needs a new name.
    """
    try:
        _sigterm_as_interrupt()
        submit(bot_file, ladder_dir, jobs=jobs, progress=progress, game=game, move_time=move_time,
               time_bank=time_bank)
    except KeyboardInterrupt:
        click.echo(f"\ninterrupted; submit {bot_file} again to finish its ladder games", err=True)
        sys.exit(130)


@click.command("replay")
@click.argument("record", type=click.Path(dir_okay=False))
@click.option("--step", is_flag=True,
              help="Stop after each move. In a terminal: one screen redrawn for each move (Enter or Right: "
              "next, b or Left: back, a number: go to that move, city N, table, scores, help, q: quit); "
              "into a pipe, or with --plain: the table printed after each move, Enter for the next (q "
              "quits).")
@click.option("--plain", is_flag=True, default=False,
              help="With --step: the line mode even in a terminal (for screen readers and logs).")
@click.option("--width", type=click.IntRange(min=40), metavar="COLUMNS",
              help="Draw for this many columns (at least 40; laid out for 80 or more). "
              "[default: the terminal's; 80 into a pipe or file]")
@click.option("--html", "html_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write the game viewer (one HTML page: the table drawn, step with the arrow keys or "
              "buttons) to FILE instead of printing the game.")
def replay_command(record, step, plain, width, html_file):
    """Step through a game RECORD in text: a tournament's OUT/games/ID.json or any saved game record."""
    try:
        try:
            loaded = load_record(record)
        except OSError as e:
            raise BadInput(f"cannot read game record {record}: {e.strerror or e}") from None
        if html_file:
            write_viewer(loaded, html_file)
            click.echo(f"game viewer written to {html_file}")
            return
        if step and not plain and terminal_is_interactive():
            from alhambra_ai.terminal.screen import Screen
            from alhambra_ai.terminal.spectate import run as spectate

            at, interrupted = spectate(loaded, Screen())
            click.echo(f"Left the replay at move {at} of {len(loaded['actions'])}.")
            if interrupted:
                sys.exit(130)               # Ctrl-C: the status a shell expects
            return
        replay(loaded, sys.stdout, step=step, width=screen_size(width, tty=sys.stdout.isatty())[0],
               prompt=sys.stdin.isatty() and sys.stdout.isatty())
    except BrokenPipeError:
        raise  # the reader stopped: the command group ends quietly
    except OSError as e:
        raise BadInput(f"cannot write {html_file}: {e.strerror or e}") from None
    except RecordError as e:
        raise BadInput(str(e)) from None
    except (EOFError, KeyboardInterrupt):
        sys.exit(130)
