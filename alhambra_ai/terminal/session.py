"""A person's game in the terminal, whatever the game: the loop, the commands every game has, the bots in
their worker processes, hints, the review after the end.

The person types short commands; each bot runs in its own worker process, as in a tournament, and is sent
its observations only. Input comes from stdin line by line (``input()``), output goes to ``write``, so a
game can be scripted. Legality comes only from the engine. What each game shows and how it reads the
person's words is its own package's ``session.py`` (``alhambra_ai.games.<family>.session``).
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from alhambra_ai.arena.referee import Limits, Seat, ask
from alhambra_ai.arena.schedule import seat_seed
from alhambra_ai.registry import game_of
from alhambra_ai.sandbox.process import BotFailure, BotProcess
from alhambra_ai.terminal.text import (
    LEGEND_ASCII,
    LEGEND_UNICODE,
    MIN_WIDTH,
    WIDTH,
    city_block,
    clip,
    seat_name,
    visible_len,
    wrap,
)

ANALYSE_MOVE_TIME = 0.1     # seconds of search per decision of the review's ``analyse``


class InputError(Exception):
    """What the person typed cannot be played or shown; the message says why (then they are asked again)."""


class SeatBot:
    """A bot file for one seat, run in its own worker process as in a tournament: it is sent its
    observations only and cannot reach the game's state. Each move may take ``move_time`` plus what is left
    of a per-game ``time_bank``; a bot that fails is out (``alive`` turns False).

    The worker starts at once; ``start()`` waits for it to load and set up.
    """

    def __init__(self, path: Path, seat: int, num_players: int, options: dict, seed: int, move_time: float,
                 time_bank: float = 10.0):

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

        proc = self.seat.proc
        assert proc is not None, "start() before close()"
        try:
            taken = proc.begin(self.limits.setup_time)  # the file loaded
            proc.setup(self.config, max(0.001, self.limits.setup_time - taken))
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


#: the narration's long words, shortened for the screen's one line per seat
_SHORTER = ((re.compile(r" from the money display"), ""), (re.compile(r"\bthe (?=[a-z]+ \d)"), ""),
            (re.compile(r" from slot \d \(\w+\)"), ""), (re.compile(r" paying "), " with "),
            (re.compile(r" from the reserve"), " from reserve"))


def shorten(sentence: str, who: str) -> str:
    """A move's sentence without its subject and filler words: ``'buys tower 49 with y6 y4 exactly'``."""
    text = sentence[len(who):].lstrip(" :") if sentence.startswith(who) else sentence
    for pattern, by in _SHORTER:
        text = pattern.sub(by, text)
    return text


class Quit(Exception):
    """The person left the game (quit, end of input or Ctrl-C)."""


class TerminalGame:
    """One game in the terminal: the state, the person's seat (0-based), a bot per other seat, and the
    console. The loop, the commands, the bots, hints and the review are here; what is shown and how the
    person's words are read are each game's (its package's ``session.py`` subclasses this class and fills in
    the hooks below)."""

    def __init__(self, state: Any, human: int, bots: dict[int, SeatBot], hint_path: Path | None,
                 move_time: float, unicode: bool = False, color: bool = False,
                 read: Callable[[str], str] = input, write: Callable[[str], None] = print,
                 time_bank: float = 10.0, width: int = WIDTH, compact: bool = False, screen: Any = None):
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
        # The full screen (alhambra_ai.terminal.screen.Screen; None: the line mode): what it shows besides
        # the table
        self.screen = screen
        self.did: dict[int, list[str]] = {}  # each seat's moves since the person's last one
        self.notes: list[str] = []           # other news since then (scorings, a bot that failed)
        # text asked for (help, moves, city N, ...) or a scoring's table; a callable draws it for a width
        # (the screen's at each redraw: a resized terminal gets the table anew)
        self.pages: list[str | Callable[[int], str]] = []
        self.page_at = 0                     # the first line of the page shown
        self.messages: list[str] = []        # the answer to the last command (an error, a hint)
        self.analysis: dict | None = None    # the review's analysis of the person's moves, once asked for

    def write(self, text: str) -> None:
        """Print, wrapping any line wider than the screen (tables are already fitted to it); on the full
        screen, a note among the events since the person's last move."""
        if self.screen is not None:
            self.notes += [line.strip() for line in str(text).split("\n") if line.strip()]
            return
        lines = []
        for line in str(text).split("\n"):
            lines += wrap(line, self.width, indent="    ") if visible_len(line) > self.width else [line]
        self._write("\n".join(lines))

    def show(self, text: str | Callable[[int], str]) -> None:
        """Text the person asked for (or a scoring's table): printed, or a page of the full screen. A
        callable draws the text for a width: the line mode's, or the screen's whenever it is redrawn."""
        if self.screen is None:
            self.write(text(self.width) if callable(text) else text)
        else:
            self.pages.append(text)

    def at_width(self, make: Callable[[], str]) -> Callable[[int], str]:
        """A page drawn by ``make`` (which reads ``self.width``) at the width it is asked for."""
        def page(width: int) -> str:
            kept = self.width
            self.width = max(MIN_WIDTH, width)
            try:
                return make()
            finally:
                self.width = kept
        return page

    def page_lines(self, width: int) -> list[str]:
        """The pages asked for, drawn for ``width`` and folded to it."""
        texts = [page(width) if callable(page) else page for page in self.pages]
        return [piece for text in texts for line in text.split("\n")
                for piece in (wrap(line, width, indent="    ") if visible_len(line) > width else [line])]

    def tell(self, text: str) -> None:
        """The answer to a command (an error, a hint): printed, or a message above the prompt."""
        if self.screen is None:
            self.write(text)
        else:
            self.messages.append(text)

    def narrate_move(self, seat: int, sentence: str) -> None:
        """A move just played, in words: printed, or the seat's line of the full screen's events."""
        if self.screen is None:
            self.write(sentence + ".")
            return
        if seat == self.human:
            self.did, self.notes = {}, []
        self.did.setdefault(seat, []).append(shorten(sentence, self.who(seat)))

    def events(self) -> list[str]:
        """The full screen's news since the person's last move: one line per seat, then the notes."""
        def label(seat: int) -> str:
            return "you" if seat == self.human else f"s{seat + 1}"
        order = sorted(self.did, key=lambda p: (p - self.human) % self.state.num_players)
        notes = [n for n in self.notes if not n.startswith("New money on the display")]  # (it is on screen)
        return [f"{label(p)}: " + "; ".join(self.did[p]) for p in order] + notes[-3:]

    def screen_lines(self, width: int, height: int) -> list[str]:
        """The table for the full screen: at most ``height`` lines of ``width`` columns (each game's)."""
        return [clip(line, width) for line in self.table().split("\n")][:height]

    def frame(self, cols: int, rows: int, prompt: str) -> str:
        """The full screen: the table (or the page asked for), the messages, the prompt on the last line."""
        width = max(40, cols)
        msgs = [line for m in self.messages for part in m.split("\n") for line in wrap(part, width)][-4:]
        room = max(1, rows - 1 - len(msgs))
        if self.pages:
            lines = self.page_lines(width)
            while lines and not lines[0].strip():
                lines.pop(0)
            part = lines[self.page_at:self.page_at + room - 1]
            last = self.page_at + len(part)
            more = (f"-- lines {self.page_at + 1}-{last} of {len(lines)}: Enter for more, or a command --"
                    if last < len(lines) else "-- Enter: back to the table, or a command --")
            body = part + [""] * (room - 1 - len(part)) + [clip(more, width)]
        else:
            body = self.screen_lines(width, room)
            body = body[:room] + [""] * (room - len(body))
        return "\n".join([*body, *msgs, prompt])

    def ask(self, prompt: str) -> str:
        """A line from the person: ``read``, or on the full screen under the frame (Enter alone turns a
        page, or goes back from it to the table)."""
        if self.screen is None:
            self.line_completion()
            return self.read(prompt)
        while True:
            line = self.screen.read(self.frame, prompt, completer=self.completer())
            self.messages = []
            if line.strip():
                self.pages, self.page_at = [], 0
                return line
            if self.pages:
                cols, rows = self.screen.size()
                total = len(self.frame(cols, rows, prompt).split("\n"))  # (the page's height)
                self.page_at += max(1, total - 2)
                if self.frame_done(cols, rows):
                    self.pages, self.page_at = [], 0

    def command_words(self) -> list[str]:
        """The command words of the game and the modules in play: the first word of each example in
        ``help`` (``take``, ``wake | done``, ``table | city N``, ...) and the commands every game has."""
        words = {"moves", "hint", "table", "city", "scores", "log", "help", "quit"}
        for line in self.help_text.split("\n"):
            example = re.match(r"^  ([a-z].*?)(?: {2,}|$)", line)
            for piece in re.split(r"[|,;]", example.group(1)) if example else []:
                word = piece.split()[:1]
                if word and word[0].isalpha():
                    words.add(word[0])
        return sorted(words)

    def completion_lines(self) -> list[str]:
        """What Tab completes after the first word: the legal moves' texts now, ``city N``, ``log all``."""
        s = self.state
        moves = [s.action_to_text(a) for a in s.legal_actions()] if not s.is_terminal() else []
        return [*moves, *(f"city {p + 1}" for p in range(s.num_players)), "log all"]

    def line_completion(self) -> None:
        """Tab in the line mode at a terminal (``input()`` with GNU readline loaded): the screen's
        completions. Nothing happens without readline (or when input is not ``input()``)."""
        readline = sys.modules.get("readline")
        if readline is None or self.read is not input:
            return
        from alhambra_ai.terminal.screen import readline_complete

        readline.set_completer_delims("")
        readline.set_completer(readline_complete(self.completer()))
        readline.parse_and_bind("tab: complete")

    def completer(self) -> Any:
        from alhambra_ai.terminal.screen import LineCompleter

        return LineCompleter(self.command_words, self.completion_lines)

    def frame_done(self, cols: int, rows: int) -> bool:
        """Whether the page has been turned past its end."""
        lines = self.page_lines(max(40, cols))
        while lines and not lines[0].strip():
            lines.pop(0)
        return self.page_at >= len(lines)

    def leave_screen(self, final: bool = False) -> None:
        """Back to the line mode (the game is over or left): after a finished game the end screen is
        printed, so that it stays in the terminal."""
        if self.screen is None:
            return
        self.screen.leave()
        self.screen = None
        if final:
            self.write(self.end_text(with_table=False))

    def who(self, seat: int) -> str:
        return "You" if seat == self.human else seat_name(seat, self.names, None).capitalize()

    # -- what each game shows and reads (its package's session.py)
    @property
    def help_text(self) -> str:
        """The commands of the game in play (``help``)."""
        raise NotImplementedError

    def news(self) -> None:
        """Narrate the public events since the last call."""
        raise NotImplementedError

    def parse(self, line: str) -> int:
        """The person's words -> an action code (InputError naming what is wrong)."""
        raise NotImplementedError

    def describe(self, code: int, who: str) -> str:
        """The move in words (before it is applied)."""
        raise NotImplementedError

    def situation(self) -> str:
        """What the prompt says the person is to do."""
        raise NotImplementedError

    def table(self) -> str:
        """The whole table, fitted to the screen."""
        raise NotImplementedError

    def short_view(self) -> str:
        """What the person needs between two decisions of one turn."""
        raise NotImplementedError

    def report_scoring(self, round_: int | None = None) -> None:
        """Show the breakdown of scoring ``round_`` (default: every round not shown yet)."""
        raise NotImplementedError

    def turn_note(self) -> str:
        """A line shown under the table at the start of the person's turn, if the moment needs one."""
        return ""

    def move_note(self, seat: int) -> str:
        """Words added to the sentence of a move just played by ``seat`` (e.g. that it acts again)."""
        return ""

    def quiet(self, code: int) -> bool:
        """Whether the move ``code`` is played without a sentence (a choice that is not news)."""
        return False

    def nothing_to_decide(self) -> bool:
        """Whether the person's only move is a formality the screen may play for them."""
        return False

    def formality(self) -> int:
        """The move played for the person when ``nothing_to_decide``."""
        return self.state.legal_actions()[0]

    def setting(self, cmd: str, args: list[str]) -> bool:
        """A game's own setting command (the base game's ``windows``); False for any other command."""
        return False

    def end_lines(self) -> list[str]:
        """What the end screen shows below the final scores, if the game has more to show (the base game:
        the majorities)."""
        return []

    def turn_key(self) -> tuple:
        """Changes when the person's table is to be shown again (a new turn)."""
        return (self.state.turn,)

    # -- the loop
    def run(self) -> None:
        s = self.state
        opponents = ", ".join(f"seat {b + 1}: {self.bots[b].name}" for b in sorted(self.bots))
        self.write(f"{game_of(s).title}, {s.num_players} players, seed {s.seed}. "
                   f"You are seat {self.human + 1}; {opponents}.")
        if s.options.get("dirk"):
            self.write("Two players: Dirk, an imaginary third player, collects tiles and scores majorities.")
        self.news()
        self.write(f"{self.who(s.current_player)} {'start' if s.current_player == self.human else 'starts'}. "
                   "Type 'help' for the commands.")
        last_turn_shown = None
        while not s.is_terminal():
            seat = s.current_player
            if seat == self.human and self.nothing_to_decide():
                s.apply(self.formality())           # 'done', the window not worth asking: do not ask
                self.news()
            elif seat == self.human:
                key = self.turn_key()
                if key != last_turn_shown:
                    if self.screen is None:
                        self.write(self.table())
                    note = self.turn_note()
                    if note:
                        self.tell(note)
                    last_turn_shown = key
                self.human_move()
            else:
                self.bot_move(seat)
            self.report_scoring()
        self.finish()

    def apply(self, code: int, seat: int) -> None:
        if self.quiet(code):
            self.state.apply(code)
            self.news()
            return
        try:
            sentence = self.describe(code, self.who(seat))
        except Exception:  # words are a nicety: the text form always works
            sentence = f"{self.who(seat)}: {self.state.action_to_text(code)}"
        self.state.apply(code)
        self.narrate_move(seat, sentence + self.move_note(seat))
        self.news()

    def bot_move(self, seat: int) -> None:
        bot = self.bots[seat]
        s = self.state
        code = None
        if self.screen is not None:
            self.screen.status(self.frame, f"{self.who(seat)} ({bot.name}) is thinking...")
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
            return self.ask(f"[seat {self.human + 1}, {what}] > ")
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
                    self.show(self.help_text)
                elif cmd in ("moves", "m", "legal"):
                    self.show_moves(words[1:])
                elif cmd == "hint":
                    self.hint()
                elif self.look(cmd, words[1:]) or self.setting(cmd, words[1:]):
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
                self.tell(str(exc))
        if s.current_player == self.human and not s.is_terminal() and self.screen is None:
            self.write(self.short_view())

    def look(self, cmd: str, args: list[str]) -> bool:
        """The commands that only show something (``table``, ``city N``, ``scores``, ``log [N|all]``), during
        the game and in the review after it; False for any other command."""
        s = self.state
        if cmd in ("table", "board", "show", "look"):
            self.show(self.at_width(self.table))
        elif cmd == "city":
            self.show_city(args)
        elif cmd == "scores":
            self.show(self.score_table())
        elif cmd in ("log", "history"):
            history = s.observation(self.human)["history"]    # (the others' secret choices hidden)
            if args and args[0] == "all":
                events = history
            else:
                try:
                    events = history[-int(args[0]):] if args else history[-20:]
                except ValueError:
                    raise InputError("Write log, log N (the last N events) or log all.") from None
            self.show("\n".join(events) or "(nothing yet)")
        else:
            return False
        return True

    def review(self) -> None:
        """After the end: the final position stays on screen and the person may look at it until ``quit``
        (or the end of input)."""
        self.tell("Review the game: scores, city N, table, log [N|all], quit.")
        self.tell(f"Type analyse: the strongest bot's verdict on your moves ({ANALYSE_MOVE_TIME:g} s a "
                  "decision).")
        while True:
            try:
                words = self.ask("[game over] > ").strip().lower().split()
            except (EOFError, KeyboardInterrupt):
                return
            cmd = words[0] if words else ""
            if cmd in ("quit", "exit", "q"):
                return
            try:
                if cmd in ("analyse", "analyze"):
                    self.show_analysis()
                elif not self.look(cmd, words[1:]):
                    self.tell("The game is over: type scores, city N, table, log [N|all], analyse or quit.")
            except InputError as exc:
                self.tell(str(exc))

    def show_analysis(self) -> None:
        """``analyse`` after the end: the person's costliest moves, each with what the strongest bot preferred
        (analysis/review.py, searched here from what the seat knew at each decision; computed once)."""
        from alhambra_ai.analysis.review import analyse_game, costliest_text

        if self.analysis is None:
            if self.screen is not None:
                self.screen.status(self.frame, "Analysing your moves...")
            else:
                self.write("Analysing your moves...")
            self.analysis = analyse_game(self.state, self.human, self.names, ANALYSE_MOVE_TIME,
                                         self.state.seed)
        report = self.analysis
        self.show(lambda width: costliest_text(report, self.human, width))

    def show_moves(self, filters: list[str]) -> None:
        s = self.state
        items = [(i + 1, s.action_to_text(a)) for i, a in enumerate(s.legal_actions())]
        if filters:
            items = [(i, t) for i, t in items if all(f in t for f in filters)]
        if not items:
            self.tell("No legal move matches that.")
            return
        cells = [f"{i:>3}) {t}" for i, t in items]
        w = max(len(c) for c in cells) + 2

        def page(width: int) -> str:
            per_line = max(1, (width - 2) // w)
            lines = ["".join(c.ljust(w) for c in cells[k:k + per_line]).rstrip()
                     for k in range(0, len(cells), per_line)]
            return "\n".join([*lines, "Type a number to play that move."])
        self.show(page)

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
        self.show(lambda width: "\n".join([*city_block(obs, seat, self.names, self.human, self.unicode,
                                                        self.color, width),
                                             LEGEND_UNICODE if self.unicode else LEGEND_ASCII]))

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
        self.tell(f"Hint ({self.hint_bot.name}): {s.action_to_text(code)}   ({self.describe(code, 'You')})")

    def close(self) -> None:
        """Stop every bot worker (safe to call twice)."""
        for bot in [*self.bots.values(), self.hint_bot]:
            if bot is not None:
                bot.close()

    def score_line(self) -> str:
        """``Scores: you (seat 1) 12, seat 2 (mcts) 9, Dirk 7``."""
        s = self.state
        line = "Scores: " + ", ".join(f"{seat_name(p, self.names, self.human)} {v}"
                                      for p, v in enumerate(s.scores()))
        if s.dirk_score is not None:
            line += f", Dirk {s.dirk_score}"
        return line

    def score_table(self, final: bool = False) -> str:
        """Every seat's points so far by building type, walls and module (``scores``; the end screen): the
        game's ``score_table``, whose columns add up to the total."""
        return game_of(self.state).hook("score_table")(self.state, self.names, self.human, final)

    def finish(self) -> None:
        """The final position, then on one screen below it every seat's breakdown summed over the rounds,
        best first, and the winner."""
        self.report_scoring()  # the last round's own table, then the position, then the sums
        if self.screen is None:
            self.write(self.table())
            self.write("")
            self.write(self.end_text(with_table=False))
        else:  # the end screen: the sums and the winner first, the final position on the next page
            self.pages.append(self.at_width(lambda: self.end_text(with_table=True)))

    def end_text(self, with_table: bool) -> str:
        """Every seat's breakdown summed over the rounds, best first, the winner (and the final table)."""
        s = self.state
        lines = ["Final scores:", self.score_table(final=True)]
        ranking = s.ranking()
        winners = [seat_name(p, self.names, self.human) for p in range(s.num_players) if ranking[p] == 1]
        lines.append(("Winner: " if len(winners) == 1 else "Winners (shared): ") + ", ".join(winners))
        mine = ranking[self.human]
        shared = sum(1 for r in ranking if r == mine) > 1
        if mine == 1:
            lines.append("You share the win!" if shared else "You win!")
        else:
            lines.append(f"You finish in place {mine}" + (" (shared)." if shared else "."))
        lines += self.end_lines()
        if with_table:
            lines += ["", self.table()]
        return "\n".join(lines)


__all__ = ["InputError", "Quit", "SeatBot", "TerminalGame", "failure_text"]
