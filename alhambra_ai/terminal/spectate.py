"""``alhambra-ai replay --step`` in a terminal: a spectator's screen, redrawn for each move (issue 44).

The record is replayed once (a copy of the position after every move is kept), so that the spectator can go
forward, back and to any move at once. Each game draws its board for the spectator (its registry hook
``spectate``: ``screen(state, names, width, height, focus, events)`` and ``sentence(state, code, who)``);
this module holds the keys, the pages (help, table, city N, scores, log) and the prompt. The frame is drawn
by ``alhambra_ai.terminal.screen.Screen`` as ``play``'s is, so a resized terminal gets a frame for its new
size. Into a pipe or a file, ``replay --step`` keeps its line output (``terminal/replay.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from alhambra_ai.formats.record import check_final_scores, steps
from alhambra_ai.registry import game_of
from alhambra_ai.terminal.screen import LineCompleter
from alhambra_ai.terminal.text import LEGEND_ASCII, city_block, clip, visible_len, wrap

# The prompt's words: what a key or a command does. Arrows and page keys act at once (the line is empty).
HELP = """\
Keys: a command, then Enter (Tab completes it); arrows and Space act at once.
  Enter, n, Right, Space  the next move (also PgDn)
  b, p, Left, PgUp        back one move
  40                      go to move 40 (0: the deal, before any move)
  +10, -10                10 moves forward, back
  s, Home  |  e, End      the start  |  the end
  f 2  |  f               follow seat 2's city  |  follow the seat that moved
  city 2                  seat 2's city and its reserve, whole
  table                   the whole table: every hand and every city
  scores                  points so far by building type, walls, modules
  log, log 30             the last 15 (30) moves
  help                    this page;  q, quit: leave the replay
A page longer than the screen turns with Enter; a command leaves the page."""

_GOTO = re.compile(r"^([+-]?)(\d+)$")


class Replay:
    """A record replayed once, and where the spectator stands in it (``at``: 0 is the deal, k the position
    after move k)."""

    def __init__(self, record: dict, unicode: bool = False, color: bool = False):
        self.record = record
        self.names = list(record.get("seats") or [f"seat {k + 1}" for k in range(record["num_players"])])
        self.states: list[Any] = []
        self.moves: list[tuple[int, str]] = []            # (seat, text) of move k + 1
        state = None
        for i, seat, text, state in steps(record):
            self.states.append(state.clone())
            if i >= 0:
                self.moves.append((seat, text))
        assert state is not None
        check_final_scores(record, state)
        self.game = game_of(state)
        self.hooks = self.game.hook("spectate")
        self.said: dict[int, str] = {}                    # move k -> its line, made on first use
        # a seat that forfeited: from which move the referee's stand-in played it
        self.stand_in = {f["seat"]: f.get("move", 0) for f in record.get("forfeits", [])}
        self.at = 0
        self.focus: int | None = None                     # a seat chosen with f N (None: the mover)
        self.pages: list[Callable[[int], str] | str] = []
        self.page_at = 0
        self.messages: list[str] = []
        self.unicode, self.color = unicode, color

    @property
    def last(self) -> int:
        return len(self.moves)

    @property
    def state(self) -> Any:
        return self.states[self.at]

    def short(self, seat: int) -> str:
        return f"s{seat + 1}"

    def line(self, k: int) -> str:
        """Move ``k`` (1-based) in one line: ``'12. s2: buys arcades 17 with g4 g3 exactly'``."""
        if k not in self.said:
            from alhambra_ai.terminal.session import shorten

            seat, text = self.moves[k - 1]
            before = self.states[k - 1]
            who = f"Seat {seat + 1}"
            try:
                words = shorten(self.hooks.sentence(before, before.parse_action(text), who), who)
            except Exception:  # words are a nicety: the record's text always works
                words = text
            scored = [e["payload"]["round"] for e in self.states[k].events[len(before.events):]
                      if e["kind"] == "score"]
            if scored:
                words += "; scoring " + ", ".join(str(r) for r in scored)
            mark = " (stand-in)" if seat in self.stand_in and k - 1 >= self.stand_in[seat] else ""
            self.said[k] = f"{k}. {self.short(seat)}{mark}: {words}"
        return self.said[k]

    def board(self, width: int, height: int) -> list[str]:
        """The board after move ``at``, the last moves beside it, fitted to ``width`` x ``height``."""
        mover = self.moves[self.at - 1][0] if self.at else None
        focus = self.focus if self.focus is not None else mover
        events = [self.line(k) for k in range(max(1, self.at - height), self.at + 1)] if self.at else []
        lines = self.hooks.screen(self.state, self.names, width, height, focus, events, self.unicode,
                                  self.color)
        return [clip(x, width) for x in lines][:height]

    def prompt(self, width: int) -> str:
        where = f"move {self.at}/{self.last}" if self.at else f"the deal, 0/{self.last}"
        keys = ["Enter next", "b back", "N go to move N", "city N", "help", "q quit"]
        if self.at == self.last:
            where += ", the end"
            keys = keys[1:]
        if self.pages:
            keys = ["Enter: more or back", "b back", "N go to move N", "q quit"]
        while keys:
            text = f"[{where}: {', '.join(keys)}] > "
            if len(text) <= width:
                return text
            keys = keys[:-2] + keys[-1:] if len(keys) > 2 else keys[:-1]
        return clip(f"[{where}] > ", width)

    # -- pages (drawn at the size of the frame: a resized terminal gets them anew)
    def page_lines(self, width: int) -> list[str]:
        texts = [page(width) if callable(page) else page for page in self.pages]
        lines = [piece for text in texts for line in text.split("\n")
                 for piece in (wrap(line, width, indent="    ") if visible_len(line) > width else [line])]
        while lines and not lines[0].strip():
            lines.pop(0)
        return lines

    def frame(self, cols: int, rows: int, prompt: str | None = None) -> str:
        """The screen: the board (or the page asked for), the messages, the prompt on the last line."""
        width = max(40, cols)
        prompt = self.prompt(width) if prompt is None else prompt
        msgs = [x for m in self.messages for part in m.split("\n") for x in wrap(part, width)][-3:]
        room = max(1, rows - 1 - len(msgs))
        if self.pages:
            lines = self.page_lines(width)
            part = lines[self.page_at:self.page_at + room - 1]
            end = self.page_at + len(part)
            more = (f"-- lines {self.page_at + 1}-{end} of {len(lines)}: Enter for more --"
                    if end < len(lines) else "-- Enter: back to the board --")
            body = part + [""] * (room - 1 - len(part)) + [clip(more, width)]
        else:
            body = self.board(width, room)
            body += [""] * (room - len(body))
        return "\n".join([*body, *msgs, prompt])

    # -- commands
    def go(self, k: int) -> None:
        self.at = max(0, min(self.last, k))

    def command(self, line: str, cols: int = 80, rows: int = 24) -> bool:
        """Do what the spectator typed at a screen of ``cols`` x ``rows`` (False: leave the replay)."""
        words = line.strip().lower().split()
        cmd = words[0] if words else ""
        args = words[1:]
        self.messages = []
        if not cmd:                                          # Enter: the page on, or the next move
            if self.pages:
                self.page_at += max(1, rows - 2)              # (the page's lines on one screen)
                if self.page_at >= len(self.page_lines(max(40, cols))):
                    self.pages, self.page_at = [], 0
                return True
            cmd = "n"
        self.pages, self.page_at = [], 0
        goto = _GOTO.match(cmd)
        if cmd in ("q", "quit", "exit"):
            return False
        if cmd in ("n", "next", ":next"):
            if self.at == self.last:
                self.messages.append("The end of the game: b goes back, 0 to the deal, q leaves.")
            self.go(self.at + 1)
        elif cmd in ("b", "p", "back", "prev", ":back"):
            if self.at == 0:
                self.messages.append("The deal: there is no move before it.")
            self.go(self.at - 1)
        elif cmd in ("s", "start", "home", ":home"):
            self.go(0)
        elif cmd in ("e", "end", ":end"):
            self.go(self.last)
        elif goto:
            sign, k = goto.group(1), int(goto.group(2))
            target = self.at + k if sign == "+" else self.at - k if sign == "-" else k
            if not sign and k > self.last:
                self.messages.append(f"There is no move {k}: the game has {self.last} moves (end: e).")
            self.go(target)
        elif cmd in ("h", "help", "?"):
            self.pages = [HELP]
        elif cmd in ("t", "table", "board"):
            state = self.state
            self.pages = [lambda width: self.game.hook("spectator")(state, self.names, max(80, width))]
        elif cmd in ("c", "city"):
            self.city(args)
        elif cmd == "f":
            seat = self.seat(args) if args else None
            self.focus = seat
        elif cmd == "scores":
            s = self.state
            self.pages = [self.game.hook("score_table")(s, self.names, None, False)]
        elif cmd in ("log", "history"):
            k = int(args[0]) if args and args[0].isdigit() else 15
            self.pages = ["\n".join(self.line(j) for j in range(max(1, self.at - k + 1), self.at + 1))
                          or "(no move yet)"]
        else:
            self.messages.append(f"Unknown command {cmd!r}: type help for the keys.")
        return True

    def seat(self, args: Sequence[str]) -> int | None:
        n = self.record["num_players"]
        try:
            seat = int(args[0]) - 1
            if not 0 <= seat < n:
                raise ValueError
        except (ValueError, IndexError):
            self.messages.append(f"Write city N (or f N) with N a seat from 1 to {n}.")
            return None
        return seat

    def city(self, args: Sequence[str]) -> None:
        state = self.state
        if not hasattr(state, "city") or getattr(state, "game", "alhambra") == "dice":
            self.messages.append("The dice game has no cities: the board shows every seat.")
            return
        seat = self.seat(args)
        if seat is None:
            return
        obs = state.observation(seat)

        def page(width: int) -> str:
            return "\n".join([*city_block(obs, seat, self.names, None, self.unicode, self.color, width),
                              LEGEND_ASCII])
        self.pages = [page]


def run(record: dict, screen: Any, unicode: bool = False, color: bool = False) -> tuple[int, bool]:
    """Step through ``record`` on ``screen`` (``alhambra_ai.terminal.screen.Screen``) until the spectator
    leaves (q, Ctrl-D, Ctrl-C); returns the move they left at and whether it was Ctrl-C."""
    replay = Replay(record, unicode, color)

    def frame(cols: int, rows: int, prompt: str) -> str:
        return replay.frame(cols, rows)

    n = record["num_players"]
    words = ["next", "back", "start", "end", "help", "table", "city", "scores", "log", "quit", "f"]
    seats = [f"{c} {p + 1}" for c in ("city", "f") for p in range(n)]
    completer = LineCompleter(lambda: words, lambda: seats)
    try:
        while True:
            line = screen.read(frame, "", keys=replay_keys(), completer=completer)
            if not replay.command(line, *screen.size()):
                break
    except EOFError:
        pass
    except KeyboardInterrupt:
        return replay.at, True
    finally:
        screen.leave()
    return replay.at, False


def replay_keys() -> Any:
    """The keys that act at once when the line is empty: arrows, page keys, Home and End."""
    from prompt_toolkit.filters import Condition
    from prompt_toolkit.key_binding import KeyBindings

    keys = KeyBindings()
    empty = Condition(lambda: _buffer_empty())

    for names, result in ((("right", "pagedown", "space"), ":next"), (("left", "pageup"), ":back"),
                          (("home",), ":home"), (("end",), ":end")):
        for name in names:
            @keys.add(name, filter=empty)
            def _(event: Any, result: str = result) -> None:
                event.app.exit(result=result)
    return keys


def _buffer_empty() -> bool:
    from prompt_toolkit.application.current import get_app

    return not get_app().current_buffer.text


__all__ = ["HELP", "Replay", "replay_keys", "run"]
