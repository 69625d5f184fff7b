"""``alhambra-ai play``: one game of Alhambra in a plain terminal, a person against bots.

The person types short commands (``take y3 b2``, ``buy 2 g4 g3``, ``place 17 1,-2``, ``moves``, ``3``,
``hint``, ``help``, ``quit``); each bot runs in its own worker process, as in a tournament, and is sent
its observations only. Input comes from stdin line by line (``input()``), output goes to stdout
(``click.echo``), so a game can be scripted::

    printf 'moves\\n1\\n' | alhambra-ai play --bot random --seed 7

Legality comes only from the engine (``legal_actions`` / ``parse_action`` / ``apply``); this module only
rewrites the player's words into the engine's text forms and describes moves in words.
"""

from __future__ import annotations

import os
import random
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from alhambra_ai.botapi import bot_file_problem
from alhambra_ai.builtin import bots_dir
from alhambra_ai.options import GAME_HELP, GAMES, check_game_options, click_callback
from alhambra_ai.options import HELP as OPTIONS_HELP
from alhambra_ai.playtext import InputError, describe, narrate, resolve
from alhambra_ai.render import (
    COMPACT_HEIGHT,
    LEGEND_ASCII,
    LEGEND_UNICODE,
    MIN_WIDTH,
    WIDTH,
    card_paint,
    city_block,
    hand_by_currency,
    render_city,
    render_scoring,
    render_table,
    render_totals,
    screen_size,
    seat_name,
    tile_long,
    visible_len,
    wrap,
)

_SCORED = re.compile(r"^score (\d+): ")

STRONGEST = "mcts"
STRONGEST_DICE = "expectimax"       # in the dice games (docs/bots.md: the dice games' strength table)
FALLBACK = "random"

# One line per command: (module that brings it, or "" for the base game; "dirk": 2 players only), an
# example as typed, what it does. ``help`` shows the lines of the game in play (issue 44: at most 24 lines).
COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("", "take y3 b2", "take money: one card, or several worth 5 at most"),
    ("", "buy 2 g4 g3", "buy slot 2's tile with g4 + g3 (exact: act again)"),
    ("", "place 17 1,-2", "place tile 17 (bought this turn) in your city at 1,-2"),
    ("", "reserve 17", "put tile 17 (bought this turn) into your reserve"),
    ("dirk", "dirk 17", "give tile 17 (bought this turn) to Dirk"),
    ("", "build 17 1,-2", "build reserve tile 17 in your city at 1,-2"),
    ("", "remove 1,-2", "move the city tile at 1,-2 to your reserve"),
    ("", "swap 17 1,-2", "swap reserve tile 17 with the city tile at 1,-2"),
    ("", "pass", "only when nothing else is possible"),
    ("vizier", "wake | done", "buy out of turn with your vizier | let it pass"),
    ("bazaars", "bazaar 65 b4 b3", "buy bazaar 65 with b4 + b3 (always exact)"),
    ("falcons", "falcon 3 g4 0,1", "buy falcon 3 with g4, corner at 0,1; done: no more"),
    ("change", "buy 2 g4 gc gc", "coins pay like cards (gc: a green coin)"),
    ("thief", "thief y6", "take y6 from the display out of turn with a thief"),
    ("walls", "wall 5 17", "wall card 5 on your tile 17 (or: wall 5 fountain)"),
    ("residents", "resident 13", "a figure moves in at tile 13; exchange garden seraglio"),
    ("residents", "disc 1,0", "move the disc; at setup: figures garden seraglio tower"),
    ("", "moves [word]", "the legal moves, numbered; type a number to play one"),
    ("", "hint", "what the strongest bot would play"),
    ("", "table | city N", "the whole table | seat N's city and its reserve"),
    ("", "scores | log [N|all]", "points so far | the last events"),
    ("", "help | quit", "this text | leave the game"),
)


def help_text(options: dict, num_players: int) -> str:
    """The commands of this game: the base game's, its modules', Dirk's with 2 players.

    >>> len(help_text({}, 3).splitlines()), "dirk 17" in help_text({}, 2), "wall 5" in help_text({}, 2)
    (14, True, False)
    >>> from alhambra_ai.options import MODULES
    >>> max(map(len, help_text(dict.fromkeys(MODULES, True), 2).splitlines())) <= 80
    True
    """
    have = {m for m, on in options.items() if on} | ({"dirk"} if num_players == 2 else set())
    lines = ["Commands (cells are x,y: x grows to the east, y to the north; fountain 0,0):"]
    lines += [f"  {example:<21}{what}" for module, example, what in COMMANDS if not module or module in have]
    return "\n".join(lines)


# ----------------------------------------------------------------------------------------------------------
# Bots


#: what the prompt says the person is to do, per phase
SITUATIONS = {"action": "your move", "place": "place your tiles", "final": "place your tiles",
              "interrupt": "between turns: thief / vizier, or done", "falcons": "more falcons, or done",
              "resident": "your disc was lifted: resident / exchange, or done",
              "disc": "put your disc on a cell: disc x,y",
              "figures": "choose your disc's 3 figures (secret): figures <type> <type> <type>"}


def resolve_bot(spec: str) -> Path:
    """A bot file from a path or a bare name (``mcts`` -> ``bots/mcts.py``). Raises ValueError if missing."""
    path = Path(spec).expanduser()
    if path.is_file():
        if bot_file_problem(path):
            raise ValueError(bot_file_problem(path))
        return path
    for candidate in (bots_dir() / spec, bots_dir() / f"{spec}.py"):
        if candidate.is_file():
            return candidate
    raise ValueError(f"bot file not found: {spec} (give a path, or a name from {bots_dir()})")


def default_bot(say: Callable[[str], None], game: str = "alhambra") -> Path:
    """The strongest bot file of the game; the random bot (with a message) if it is missing."""
    strongest = bots_dir() / f"{STRONGEST if game == 'alhambra' else STRONGEST_DICE}.py"
    if strongest.is_file():
        return strongest
    fallback = bots_dir() / f"{FALLBACK}.py"
    if fallback.is_file():
        say(f"The strongest bot {strongest} is missing: playing against {fallback.name} instead.")
        return fallback
    raise ValueError(f"no bot found: neither {strongest} nor {fallback} exists (use --bot FILE)")


class SeatBot:
    """A bot file for one seat, run in its own worker process as in a tournament: it is sent its
    observations only and cannot reach the game's state. Each move may take ``move_time`` plus what is left
    of a per-game ``time_bank``; a bot that fails is out (``alive`` turns False).

    The worker starts at once; ``start()`` waits for it to load and set up.
    """

    def __init__(self, path: Path, seat: int, num_players: int, options: dict, seed: int, move_time: float,
                 time_bank: float = 10.0):
        from alhambra_ai.tournament.process import BotProcess
        from alhambra_ai.tournament.referee import Limits, Seat
        from alhambra_ai.tournament.schedule import seat_seed

        self.name = path.stem
        self.limits = Limits(move_time=move_time, time_bank=time_bank)
        self.seat = Seat(self.name, self.limits.time_bank)
        self.path = path
        self.seat.proc = BotProcess(path, self.limits.memory_mb)  # loads while the other seats start
        self.config = {"seat": seat, "num_players": num_players, "options": dict(options),
                       "seed": seat_seed(seed, seat),  # as in a tournament: not the game's seed itself
                       "move_time": move_time, "time_bank": self.limits.time_bank}

    def start(self) -> SeatBot:
        """Wait until the file has loaded and run the bot's set-up; raises ValueError naming the problem."""
        from alhambra_ai.tournament.process import BotFailure

        try:
            taken = self.seat.proc.begin(self.limits.setup_time)  # the file loaded
            self.seat.proc.setup(self.config, max(0.001, self.limits.setup_time - taken))
        except BotFailure as failure:
            self.close()
            text = failure_text(failure)  # a load error names the file itself
            raise ValueError(text if failure.reason == "load error" else f"bot {self.path}: {text}") from None
        return self

    @property
    def alive(self) -> bool:
        return self.seat.proc is not None

    def act(self, state: Any, seat: int) -> int:
        """The bot's legal action code for ``seat``; on any failure the worker is closed and BotFailure
        raised."""
        from alhambra_ai.tournament.process import BotFailure
        from alhambra_ai.tournament.referee import ask

        try:
            return ask(state, seat, self.seat, state.legal_actions(), self.limits)
        except BotFailure:
            self.close()
            raise

    def close(self) -> None:
        if self.seat.proc is not None:
            self.seat.proc.close()
            self.seat.proc = None


def failure_text(failure: Exception) -> str:
    """A bot failure in one line: the reason and the first line of its detail."""
    reason = getattr(failure, "reason", type(failure).__name__)
    detail = str(getattr(failure, "detail", failure)).strip().splitlines()
    if reason == "load error" and detail:
        return detail[0]
    return f"{reason}: {detail[0]}" if detail else reason


# ----------------------------------------------------------------------------------------------------------
# The game


class Quit(Exception):
    """The person left the game (quit, end of input or Ctrl-C)."""


class TerminalGame:
    """One game: the state, the person's seat (0-based), a bot per other seat, and the console. The dice
    games' version (dice_play.DiceTerminalGame) replaces what is shown and read: ``table``, ``short_view``,
    ``turn_key``, ``parse``, ``describe``, ``news``, ``situation``, ``report_scoring``, ``help_text``."""

    @property
    def help_text(self) -> str:
        return help_text(self.state.options, self.state.num_players)

    def __init__(self, state: Any, human: int, bots: dict[int, SeatBot], hint_path: Path | None,
                 move_time: float, unicode: bool = False, color: bool = False,
                 read: Callable[[str], str] = input, write: Callable[[str], None] = click.echo,
                 time_bank: float = 10.0, width: int = WIDTH, compact: bool = False):
        self.state = state
        self.human = human
        self.bots = bots
        self.hint_path = hint_path
        self.hint_bot: SeatBot | None = None
        self.move_time = move_time
        self.time_bank = time_bank
        self.unicode = unicode
        self.color = color
        self.read = read
        self._write = write
        self.width = max(MIN_WIDTH, width)
        self.compact = compact
        self.names = ["you" if p == human else bots[p].name if p in bots else ""
                      for p in range(state.num_players)]
        self.rng = random.Random(state.seed)
        self.reported: set[int] = set()    # scoring rounds whose breakdown was shown
        self.seen = 0                       # history events already narrated

    # -- output helpers
    def write(self, text: str) -> None:
        """Print, wrapping any line wider than the screen (tables are already fitted to it)."""
        lines = []
        for line in str(text).split("\n"):
            lines += wrap(line, self.width, indent="    ") if visible_len(line) > self.width else [line]
        self._write("\n".join(lines))

    def who(self, seat: int) -> str:
        return "You" if seat == self.human else seat_name(seat, self.names, None).capitalize()

    def news(self) -> None:
        """Narrate the public events since the last call (refills, Dirk, scoring cards, leftovers)."""
        history = self.state.history

        def name(seat: int) -> str:
            return "you" if seat == self.human else seat_name(seat, self.names, None)

        def say(events: list[str]) -> None:
            for line in narrate(events, name):
                self.write(f"  {line[:1].upper()}{line[1:]}.")

        # A scoring is shown where it happened, so that Dirk's tiles drawn after it come after it.
        chunk: list[str] = []
        for event in history[self.seen:]:
            scored = _SCORED.match(event)
            if scored:
                say(chunk)
                chunk = []
                self.report_scoring(int(scored.group(1)))
            else:
                chunk.append(event)
        say(chunk)
        self.seen = len(history)

    def turn_key(self) -> tuple:
        """Changes when the person's table is to be shown again (a new turn)."""
        return (self.state.turn, self.state.phase == "final")

    def parse(self, line: str) -> int:
        """The person's words -> an action code (InputError naming what is wrong)."""
        return resolve(self.state, line)

    def describe(self, code: int, who: str) -> str:
        """The move in words (before it is applied)."""
        return describe(self.state, code, who)

    def situation(self) -> str:
        """What the prompt says the person is to do."""
        return SITUATIONS.get(self.state.phase, "place your tiles")

    def table(self) -> str:
        return render_table(self.state, self.human, names=self.names, unicode=self.unicode,
                            color=self.color, width=self.width, compact=self.compact)

    def short_view(self) -> str:
        """What the person needs between two decisions of one turn: hand, tiles to place, own city."""
        obs = self.state.observation(self.human)
        lines = [f"Your hand: {hand_by_currency(obs['hand'], self.color)}"]
        if obs.get("pending"):
            lines.append("To place: " + ", ".join(tile_long(t, self.color) for t in obs["pending"]))
        reserve = obs["reserves"][self.human]
        lines.append("Your reserve: " + (", ".join(tile_long(t, self.color) for t in reserve) or "empty"))
        if obs["phase"] == "action":
            market = [f"{i + 1}:{tile_long(t, self.color, cost=True)}" if t is not None else f"{i + 1}:-"
                      for i, t in enumerate(obs["market"])]
            display = " ".join(card_paint(c, self.color) for c in obs["display"] if c)
            lines.append("Market " + "  ".join(market) + f"   display {display or '-'}")
        lines.append(render_city(obs["cities"][self.human], unicode=self.unicode, color=self.color))
        return "\n".join(lines)

    # -- the loop
    def run(self) -> None:
        s = self.state
        opponents = ", ".join(f"seat {b + 1}: {self.bots[b].name}" for b in sorted(self.bots))
        title = {"dice": "Alhambra: The Dice Game", "alcazaba": "Alcazaba"}.get(getattr(s, "game", ""),
                                                                                  "Alhambra")
        self.write(f"{title}, {s.num_players} players, seed {s.seed}. You are seat {self.human + 1}; "
                   f"{opponents}.")
        if s.options.get("dirk"):
            self.write("Two players: Dirk, an imaginary third player, collects tiles and scores majorities.")
        self.news()
        self.write(f"{self.who(s.current_player)} {'start' if s.current_player == self.human else 'starts'}. "
                   "Type 'help' for the commands.")
        last_turn_shown = None
        while not s.is_terminal():
            seat = s.current_player
            if seat == self.human and self.nothing_to_decide():
                s.apply(s.legal_actions()[0])       # 'done' is all the window offers: do not ask
                self.news()
            elif seat == self.human:
                key = self.turn_key()
                if key != last_turn_shown:
                    self.write(self.table())
                    if s.phase == "final":
                        self.write("The game is over; the market's leftover tiles went to the players with "
                                   "the most money of each slot's currency. Place yours.")
                    last_turn_shown = key
                self.human_move()
            else:
                self.bot_move(seat)
            self.report_scoring()
        self.finish()

    def nothing_to_decide(self) -> bool:
        """The interrupt window asks a seat that holds thieves even when none matches the display (so that
        being asked tells nobody anything); the screen answers 'done' for the person then."""
        s = self.state
        if s.phase != "interrupt":
            return False
        legal = s.legal_actions()
        return len(legal) == 1 and s.action_to_text(legal[0]) == "done"

    def apply(self, code: int, seat: int) -> None:
        if self.state.phase == "interrupt" and self.state.action_to_text(code) == "done":
            self.state.apply(code)              # declining in the window is not news
            self.news()
            return
        try:
            sentence = self.describe(code, self.who(seat))
        except Exception:  # words are a nicety: the text form always works
            sentence = f"{self.who(seat)}: {self.state.action_to_text(code)}"
        self.state.apply(code)
        s = self.state
        if s.current_player == seat and s.phase == "action" and getattr(s, "game", "alhambra") == "alhambra":
            sentence += " - extra action"
        self.write(sentence + ".")
        self.news()

    def bot_move(self, seat: int) -> None:
        bot = self.bots[seat]
        s = self.state
        code = None
        if bot.alive:
            try:
                code = bot.act(s, seat)
            except Exception as exc:  # BotFailure: the worker is closed
                self.write(f"{self.who(seat)} failed ({failure_text(exc)}) and is out of the game: "
                           "random legal moves are played for it from now on.")
        if code is None:
            code = self.rng.choice(s.legal_actions())
        self.apply(code, seat)

    def prompt(self) -> str:
        what = self.situation()
        try:
            return self.read(f"[seat {self.human + 1}, {what}] > ")
        except EOFError:
            raise Quit("End of input: the game was left unfinished.") from None

    def human_move(self) -> None:
        s = self.state
        while True:
            line = self.prompt().strip()
            words = line.lower().split()
            cmd = words[0] if words else ""
            try:
                if cmd in ("quit", "exit", "q"):
                    raise Quit("You left the game.")
                if cmd in ("help", "h", "?"):
                    self.write(self.help_text)
                elif cmd in ("moves", "m", "legal"):
                    self.show_moves(words[1:])
                elif cmd == "hint":
                    self.hint()
                elif self.look(cmd, words[1:]):
                    pass
                elif cmd.isdigit():
                    legal = s.legal_actions()
                    n = int(cmd)
                    if not 1 <= n <= len(legal):
                        numbers = "only move 1" if len(legal) == 1 else f"moves 1-{len(legal)}"
                        raise InputError(f"There is no move {n}: there are {numbers} (type 'moves').")
                    self.apply(legal[n - 1], self.human)
                    break
                else:
                    self.apply(self.parse(line), self.human)
                    break
            except InputError as exc:
                self.write(str(exc))
        if s.current_player == self.human and not s.is_terminal():
            self.write(self.short_view())

    def look(self, cmd: str, args: list[str]) -> bool:
        """The commands that only show something (``table``, ``city N``, ``scores``, ``log [N|all]``), during
        the game and in the review after it; False for any other command."""
        s = self.state
        if cmd in ("table", "board", "show", "look"):
            self.write(self.table())
        elif cmd == "city":
            self.show_city(args)
        elif cmd == "scores":
            self.write(self.score_table())
        elif cmd in ("log", "history"):
            history = s.observation(self.human)["history"]    # (the others' secret choices hidden)
            if args and args[0] == "all":
                events = history
            else:
                try:
                    events = history[-int(args[0]):] if args else history[-20:]
                except ValueError:
                    raise InputError("Write log, log N (the last N events) or log all.") from None
            self.write("\n".join(events) or "(nothing yet)")
        else:
            return False
        return True

    def review(self) -> None:
        """After the end: the final position stays on screen and the person may look at it until ``quit``
        (or the end of input)."""
        self.write("Review the game: scores, city N, table, log [N|all], quit.")
        while True:
            try:
                words = self.read("[game over] > ").strip().lower().split()
            except (EOFError, KeyboardInterrupt):
                return
            cmd = words[0] if words else ""
            if cmd in ("quit", "exit", "q"):
                return
            try:
                if not self.look(cmd, words[1:]):
                    self.write("The game is over: type scores, city N, table, log [N|all] or quit.")
            except InputError as exc:
                self.write(str(exc))

    def show_moves(self, filters: list[str]) -> None:
        s = self.state
        items = [(i + 1, s.action_to_text(a)) for i, a in enumerate(s.legal_actions())]
        if filters:
            items = [(i, t) for i, t in items if all(f in t for f in filters)]
        if not items:
            self.write("No legal move matches that.")
            return
        cells = [f"{i:>3}) {t}" for i, t in items]
        w = max(len(c) for c in cells) + 2
        per_line = max(1, (self.width - 2) // w)
        for k in range(0, len(cells), per_line):
            self.write("".join(c.ljust(w) for c in cells[k:k + per_line]).rstrip())
        self.write("Type a number to play that move.")

    def city_seat(self, args: list[str]) -> int:
        """The seat ``city N`` names (N counts from 1), or the human's without N; InputError otherwise."""
        n = self.state.num_players
        try:
            seat = int(args[0]) - 1 if args else self.human
            if not 0 <= seat < n:
                raise ValueError
        except ValueError:
            raise InputError(f"Write city N with N a seat from 1 to {n}.") from None
        return seat

    def show_city(self, args: list[str]) -> None:
        s = self.state
        seat = self.city_seat(args)
        obs = s.observation(self.human)  # reserves are public: city and reserve, as the table draws them
        self.write("\n".join(city_block(obs, seat, self.names, self.human, self.unicode, self.color,
                                         self.width)))
        self.write(LEGEND_UNICODE if self.unicode else LEGEND_ASCII)

    def hint(self) -> None:
        s = self.state
        if self.hint_path is None:
            raise InputError("No bot is available for hints.")
        try:
            if self.hint_bot is None:
                self.hint_bot = SeatBot(self.hint_path, self.human, s.num_players, s.options, s.seed,
                                        self.move_time, self.time_bank).start()
            code = self.hint_bot.act(s, self.human)
        except Exception as exc:
            self.hint_bot = None  # a failed hint bot is closed; the next hint starts a fresh one
            raise InputError(f"The hint bot failed ({failure_text(exc)}).") from None
        self.write(f"Hint ({self.hint_bot.name}): {s.action_to_text(code)}   ({self.describe(code, 'You')})")

    def close(self) -> None:
        """Stop every bot worker (safe to call twice)."""
        for bot in [*self.bots.values(), self.hint_bot]:
            if bot is not None:
                bot.close()

    def report_scoring(self, round_: int | None = None) -> None:
        """Show the breakdown of scoring ``round_`` (default: every round not shown yet)."""
        s = self.state
        new = [e for e in s.score_breakdown() if e.get("round") not in self.reported
               and (round_ is None or e.get("round") == round_)]
        for entry in new:
            self.reported.add(entry.get("round"))
            self.write("")
            self.write(render_scoring(entry, names=self.names, you=self.human))
        if new:
            self.write(self.score_line())

    def score_line(self) -> str:
        """``Scores: you (seat 1) 12, seat 2 (mcts) 9, Dirk 7``."""
        s = self.state
        line = "Scores: " + ", ".join(f"{seat_name(p, self.names, self.human)} {v}"
                                      for p, v in enumerate(s.scores()))
        if s.dirk_score is not None:
            line += f", Dirk {s.dirk_score}"
        return line

    def score_table(self, final: bool = False) -> str:
        """Every seat's points so far by building type, walls and module (``scores``; the end screen)."""
        s = self.state
        return render_totals(s.score_breakdown(), s.scores(), s.ranking() if final else None, self.names,
                             self.human, s.dirk_score)

    def finish(self) -> None:
        """The final position, then on one screen below it every seat's breakdown summed over the rounds,
        best first, and the winner."""
        s = self.state
        self.report_scoring()  # the last round's own table, then the position, then the sums
        self.write(self.table())
        self.write("")
        self.write("Final scores:")
        self.write(self.score_table(final=True))
        ranking = s.ranking()
        winners = [seat_name(p, self.names, self.human) for p in range(s.num_players) if ranking[p] == 1]
        self.write(("Winner: " if len(winners) == 1 else "Winners (shared): ") + ", ".join(winners))
        mine = ranking[self.human]
        shared = sum(1 for r in ranking if r == mine) > 1
        if mine == 1:
            self.write("You share the win!" if shared else "You win!")
        else:
            self.write(f"You finish in place {mine}" + (" (shared)." if shared else "."))


# ----------------------------------------------------------------------------------------------------------
# The command


def check_record_path(path: str) -> None:
    """Raise ValueError unless a game record can be written at ``path`` (checked before the game starts, so
    that a game is never played into a record that cannot be saved)."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise ValueError(f"--record {path} is a directory; give a file name")
    if not folder.is_dir():
        raise ValueError(f"--record {path}: the directory {folder} does not exist")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise ValueError(f"--record {path}: cannot write there (permission denied)")


def seat_files(players: int | None, bots: Sequence[str],
               say: Callable[[str], None], game: str = "alhambra") -> tuple[int, list[Path]]:
    """The player count and the bot file of each opponent seat, in seat order after the person's.

    Each ``--bot`` fills the next opponent seat; without ``--players`` there is one seat per ``--bot`` (at
    least 2 players), and with it the list repeats when shorter. More ``--bot`` than opponent seats is
    refused. Raises ValueError naming the problem.
    """
    if players is None:
        players = max(2, len(bots) + 1)
    if not 2 <= players <= 6:
        raise ValueError(f"--players must be 2 to 6, not {players}")
    if len(bots) > players - 1:
        raise ValueError(f"{len(bots)} --bot options for {players - 1} opponent seat"
                         f"{'s' if players > 2 else ''} (--players {players}): give at most one per seat")
    paths = [resolve_bot(b) for b in bots] or [default_bot(say, game)]
    return players, [paths[i % len(paths)] for i in range(players - 1)]


def play_game(players: int | None = None, seat: int = 1, bots: Sequence[str] = (), seed: int | None = None,
              move_time: float = 1.0, unicode: bool = False, color: bool = False, time_bank: float = 10.0,
              read: Callable[[str], str] = input, write: Callable[[str], None] | None = None,
              record: str | None = None, error: Callable[[str], None] | None = None,
              review: bool = True, width: int = WIDTH, compact: bool = False,
              options: dict | None = None, game: str = "alhambra") -> int:
    """Set up and play one game; returns the exit status: 0 (also when the person leaves), 2 for bad
    options or bot files (nothing started), 1 for an internal error. Output goes to ``write`` (default
    ``click.echo``, which keeps colour codes only when asked for), errors to ``error`` (default stderr).
    After a finished game the record is saved (``record``), then the ``review`` prompt is offered.
    ``game``: "alhambra" (the base game, with ``options``), "dice" or "alcazaba"."""
    from alhambra_ai import new_game

    if write is None:
        def write(text: str) -> None:
            click.echo(text, color=True if color else None)
    if error is None:
        def error(text: str) -> None:
            click.echo(text, err=True)

    seat_bots: dict[int, SeatBot] = {}
    try:
        players, files = seat_files(players, bots, write, game)
        if not 1 <= seat <= players:
            raise ValueError(f"--seat must be 1 to {players} (the number of players), not {seat}")
        if move_time <= 0:
            raise ValueError(f"--move-time must be positive, not {move_time}")
        if time_bank < 0:
            raise ValueError(f"--time-bank must be 0 or more, not {time_bank}")
        if record:
            check_record_path(record)
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        try:
            hint_path: Path | None = default_bot(lambda _msg: None, game)
        except ValueError:
            hint_path = None
        if game == "alhambra":
            state, board = new_game(players, seed=seed, options=options or None), TerminalGame
        else:
            from alhambra_ai.dice_play import DiceTerminalGame

            check_game_options(game, options)
            state, board = new_game(players, seed=seed, game=game), DiceTerminalGame
        human = seat - 1
        others = [p for p in range(players) if p != human]
        for p, path in zip(others, files, strict=True):
            seat_bots[p] = SeatBot(path, p, players, state.options, seed, move_time, time_bank)
        for bot in seat_bots.values():
            bot.start()
        terminal = board(state, human, seat_bots, hint_path, move_time, unicode, color, read, write,
                         time_bank=time_bank, width=width, compact=compact)
    except Exception as exc:
        for bot in seat_bots.values():
            bot.close()
        error(f"Cannot start the game: {exc}")
        return 2
    finished = False
    try:
        terminal.run()
        finished, status = True, 0
    except Quit as exc:
        terminal.write(str(exc))
        terminal.write(terminal.score_line())
        status = 0
    except KeyboardInterrupt:  # exit 130, as a shell expects of Ctrl-C; say how to see the deal again
        keep = "" if record else "; to keep a game for `alhambra-ai replay`, add --record FILE"
        terminal.write(f"\nInterrupted: the game was left unfinished. The same deal again: add --seed {seed}"
                       f"{keep}.")
        terminal.write(terminal.score_line())
        status = 130
    except Exception as exc:  # never a traceback in front of the player
        error(f"Internal error: {type(exc).__name__}: {exc}. The game cannot go on (seed {seed}); "
              "please report it.")
        status = 1
    finally:
        terminal.close()
    if record:
        status = max(status, save_game(terminal, record, error))
    if finished and review:
        terminal.review()
    return status


def save_game(game: TerminalGame, path: str, error: Callable[[str], None]) -> int:
    """Write the game so far as a game record (docs/formats.md; `alhambra-ai replay` shows it)."""
    from alhambra_ai.record import make_record, save_record

    try:
        save_record(make_record(game.state, [n or f"seat {p + 1}" for p, n in enumerate(game.names)]), path)
    except (OSError, ValueError) as exc:
        error(f"Could not save the game record to {path}: {exc}")
        return 1
    game.write(f"Game record saved to {path} (alhambra-ai replay {path}).")
    return 0


@click.command("play")
@click.option("--players", type=int, default=None,
              help="number of players, 2-6  [default: one per --bot, at least 2]")
@click.option("--seat", type=int, default=1, show_default=True, help="your seat, 1-based")
@click.option("--bot", "bots", multiple=True, metavar="FILE",
              help=f"opponent bot file or name in bots/; each --bot fills the next opponent seat in order "
              f"(the list repeats when --players asks for more) [default: {STRONGEST}; in the dice games "
              f"{STRONGEST_DICE}]")
@click.option("--seed", type=int, default=None, help="game seed (default: random, printed at the start)")
@click.option("--move-time", type=float, default=1.0, show_default=True, help="bot thinking time per move, s")
@click.option("--time-bank", type=float, default=10.0, show_default=True,
              help="extra seconds per game a bot may spend on slow moves; a bot over it is out")
@click.option("--unicode/--ascii", default=False, help="box-drawing characters for the cities")
@click.option("--color/--no-color", default=False, help="ANSI colours")
@click.option("--record", metavar="FILE", default=None,
              help="save the game as a record at the end (the path is checked before the game starts)")
@click.option("--width", type=click.IntRange(min=40), metavar="COLUMNS", default=None,
              help="draw for this many columns (at least 40; laid out for 80 or more)  [default: the "
              "terminal's]")
@click.option("--compact/--full", default=None,
              help="the compact screen: own city only, others one line each  [default: when the terminal "
              f"has fewer than {COMPACT_HEIGHT} lines]")
@click.option("--options", "options", default=None, callback=click_callback, help=OPTIONS_HELP)
@click.option("--game", "game", type=click.Choice(GAMES), default="alhambra", help=GAME_HELP)
def play(players: int | None, seat: int, bots: tuple[str, ...], seed: int | None, move_time: float,
         time_bank: float, unicode: bool, color: bool, record: str | None, width: int | None,
         compact: bool | None, options: dict, game: str) -> None:
    """Play one game in the terminal against bots (the strongest by default); after the end the final
    position stays for review (scores, city N, table, log) until quit."""
    if sys.stdin.isatty():
        try:
            import readline  # noqa: F401  (line editing and history for input())
        except ImportError:
            pass
    columns, lines = screen_size(width, tty=sys.stdout.isatty())
    sys.exit(play_game(players, seat, bots, seed, move_time, unicode, color, time_bank=time_bank,
                       record=record, width=columns,
                       compact=lines < COMPACT_HEIGHT if compact is None else compact, options=options,
                       game=game))


__all__ = ["play", "play_game", "TerminalGame", "SeatBot", "InputError", "Quit"]
