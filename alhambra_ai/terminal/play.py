"""Set up and play one game in the terminal, a person against bots (``alhambra-ai play``).

The game's own terminal session comes from the registry (``registry.get(game).hook("session")``); the loop is
``alhambra_ai.terminal.session.TerminalGame``'s. Bad input (options, bot files, a record path) stops the game
before it starts, with one message and exit status 2.
"""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from alhambra_ai import registry
from alhambra_ai.bot.builtin import FALLBACK, bot_file, builtin_bot
from alhambra_ai.errors import BadInput
from alhambra_ai.formats.record import make_record, save_record
from alhambra_ai.options import check_game
from alhambra_ai.terminal.session import Quit, SeatBot, TerminalGame
from alhambra_ai.terminal.text import WIDTH


def default_bot(say: Callable[[str], None], game: str = registry.DEFAULT) -> Path:
    """The strongest bot file of the game; the random bot (with a message) if it is missing."""
    strongest = registry.get(game).strongest
    found = builtin_bot(strongest)
    if found is not None:
        return found
    fallback = builtin_bot(FALLBACK)
    if fallback is not None:
        say(f"The strongest bot {strongest} is missing: playing against {fallback.name} instead.")
        return fallback
    raise BadInput(f"no bot found: neither {strongest} nor {FALLBACK} is installed (use --bot FILE)")


def check_record_path(path: str) -> None:
    """Raise BadInput unless a game record can be written at ``path`` (checked before the game starts, so
    that a game is never played into a record that cannot be saved)."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise BadInput(f"--record {path} is a directory; give a file name")
    if not folder.is_dir():
        raise BadInput(f"--record {path}: the directory {folder} does not exist")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise BadInput(f"--record {path}: cannot write there (permission denied)")


def seat_files(players: int | None, bots: Sequence[str],
               say: Callable[[str], None], game: str = registry.DEFAULT) -> tuple[int, list[Path]]:
    """The player count and the bot file of each opponent seat, in seat order after the person's.

    Each ``--bot`` fills the next opponent seat; without ``--players`` there is one seat per ``--bot`` (at
    least 2 players), and with it the list repeats when shorter. More ``--bot`` than opponent seats is
    refused. Raises BadInput naming the problem.
    """
    if players is None:
        players = max(2, len(bots) + 1)
    fewest, most = registry.get(game).players
    if not fewest <= players <= most:
        raise BadInput(f"--players must be {fewest} to {most}, not {players}")
    if len(bots) > players - 1:
        raise BadInput(f"{len(bots)} --bot options for {players - 1} opponent seat"
                         f"{'s' if players > 2 else ''} (--players {players}): give at most one per seat")
    paths = [bot_file(b) for b in bots] or [default_bot(say, game)]
    return players, [paths[i % len(paths)] for i in range(players - 1)]


def play_game(players: int | None = None, seat: int = 1, bots: Sequence[str] = (), seed: int | None = None,
              move_time: float = 1.0, unicode: bool = False, color: bool = False, time_bank: float = 10.0,
              read: Callable[[str], str] = input, write: Callable[[str], None] | None = None,
              record: str | None = None, error: Callable[[str], None] | None = None,
              review: bool = True, width: int = WIDTH, compact: bool = False,
              options: dict | None = None, game: str = registry.DEFAULT, screen: bool = False,
              windows: str | None = None) -> int:
    """Set up and play one game; returns the exit status: 0 (also when the person leaves), 2 for bad
    options or bot files (nothing started), 1 for an internal error, 130 after Ctrl-C. Output goes to
    ``write`` (default: print), errors to ``error`` (default stderr). After a finished game the record is
    saved (``record``), then the ``review`` prompt is offered. ``game``: a name of ``registry.names()``
    (``options`` for the games that take the rulebook's modules). ``screen``: the full-screen decision view
    (``alhambra_ai.terminal.screen``; a terminal at both ends), else the line mode. ``windows``: when the base
    game's window between turns asks the person (``useful``, ``ask``, ``auto``: the session's
    ``nothing_to_decide``)."""
    if write is None:
        write = print
    if error is None:
        def error(text: str) -> None:
            print(text, file=sys.stderr)

    seat_bots: dict[int, SeatBot] = {}
    try:
        players, files = seat_files(players, bots, write, game)
        if not 1 <= seat <= players:
            raise BadInput(f"--seat must be 1 to {players} (the number of players), not {seat}")
        if move_time <= 0:
            raise BadInput(f"--move-time must be positive, not {move_time}")
        if time_bank < 0:
            raise BadInput(f"--time-bank must be 0 or more, not {time_bank}")
        if record:
            check_record_path(record)
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        try:
            hint_path: Path | None = default_bot(lambda _msg: None, game)
        except BadInput:
            hint_path = None
        kind = registry.get(game)
        check_game(game, options)
        state, board = kind.new_state(players, seed, options), kind.hook("session")
        human = seat - 1
        others = [p for p in range(players) if p != human]
        for p, path in zip(others, files, strict=True):
            seat_bots[p] = SeatBot(path, p, players, state.options, seed, move_time, time_bank)
        for bot in seat_bots.values():
            bot.start()
        view = None
        if screen:
            from alhambra_ai.terminal.screen import Screen

            view = Screen()
        terminal = board(state, human, seat_bots, hint_path, move_time, unicode, color, read, write,
                         time_bank=time_bank, width=width, compact=compact, screen=view)
        if windows is not None and hasattr(terminal, "windows"):
            terminal.windows = windows
    except Exception as exc:
        for bot in seat_bots.values():
            bot.close()
        error(f"Error: {exc}")
        return 2
    finished = False
    try:
        terminal.run()
        finished, status = True, 0
    except Quit as exc:
        terminal.leave_screen()
        terminal.write(str(exc))
        terminal.write(terminal.score_line())
        status = 0
    except KeyboardInterrupt:  # exit 130, as a shell expects of Ctrl-C; say how to see the deal again
        terminal.leave_screen()
        keep = "" if record else "; to keep a game for `alhambra-ai replay`, add --record FILE"
        terminal.write(f"\nInterrupted: the game was left unfinished. The same deal again: add --seed {seed}"
                       f"{keep}.")
        terminal.write(terminal.score_line())
        status = 130
    except Exception as exc:  # never a traceback in front of the player
        terminal.leave_screen()
        error(f"Internal error: {type(exc).__name__}: {exc}. The game cannot go on (seed {seed}); "
              "please report it.")
        status = 1
    finally:
        terminal.close()
    if record:
        status = max(status, save_game(terminal, record, error))
    if finished and review:
        terminal.review()
    terminal.leave_screen(final=finished)   # the end screen stays in the terminal
    return status


def save_game(game: TerminalGame, path: str, error: Callable[[str], None]) -> int:
    """Write the game so far as a game record (docs/formats.md; `alhambra-ai replay` shows it)."""
    try:
        save_record(make_record(game.state, [n or f"seat {p + 1}" for p, n in enumerate(game.names)]), path)
    except (OSError, ValueError) as exc:
        error(f"Error: cannot save the game record to {path}: {exc}")
        return 1
    game.write(f"Game record saved to {path} (alhambra-ai replay {path}).")
    return 0


__all__ = ["default_bot", "play_game", "save_game", "seat_files"]
