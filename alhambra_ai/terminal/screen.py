"""The full-screen decision view of ``alhambra-ai play`` in a terminal (issue 44): before each prompt the
screen is cleared and the game's frame is drawn for the terminal's size, the prompt on its last line, so
that the decision never scrolls away.

The input line is prompt_toolkit's (``PromptSession``): the frame is its message, so a resized terminal gets
a frame drawn for its new size at once, and the line has editing and history. Everything else (what the
frame holds) is the game's text code. Pipes, files and ``--plain`` keep the line mode (``input()`` and
print), which scripted games and screen readers use.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.application.current import get_app_or_none
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import ANSI
from prompt_toolkit.history import InMemoryHistory

#: the frame: (columns, lines, prompt) -> the screen's text with the prompt as its last line
Frame = Callable[[int, int, str], str]


def terminal_is_interactive() -> bool:
    """Both ends are a terminal: the full screen is possible (else the plain line mode)."""
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


class LineCompleter(Completer):
    """Tab in the prompt: the first word from ``words()`` (the commands of the game in play), then whole
    lines from ``lines()`` (the legal moves' texts, ``city 2``, ...) that begin with what is typed.

    >>> c = LineCompleter(lambda: ["buy", "build", "help"], lambda: ["buy 2 g4 g3", "buy 3 b5", "take y3"])
    >>> [x.text for x in c.get_completions(Document("bu"), CompleteEvent())]
    ['build', 'buy']
    >>> [x.text for x in c.get_completions(Document("buy "), CompleteEvent())]
    ['buy 2 g4 g3', 'buy 3 b5']
    """

    def __init__(self, words: Callable[[], Iterable[str]], lines: Callable[[], Iterable[str]]):
        self.words, self.lines = words, lines

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
        typed = document.text_before_cursor
        text = typed.lstrip().lower()
        if " " not in text:
            found = sorted(set(self.words()) | {line.split()[0] for line in self.lines() if line.strip()})
            for word in found:
                if word.startswith(text) and word != text:
                    yield Completion(word, start_position=-len(text))
            return
        text = " ".join(text.split()) + (" " if text.endswith(" ") else "")
        for line in dict.fromkeys(self.lines()):
            if line.startswith(text) and line != text:
                yield Completion(line, start_position=-len(typed.lstrip()))


def readline_complete(completer: LineCompleter) -> Callable[[str, int], str | None]:
    """The same completions for the line mode's ``input()`` (GNU readline, ``readline.set_completer``;
    the completer delimiters must be empty so that ``text`` is the whole line typed)."""
    found: list[str] = []

    def complete(text: str, state: int) -> str | None:
        if state == 0:
            found[:] = [c.text for c in completer.get_completions(Document(text), CompleteEvent())]
        return found[state] if state < len(found) else None
    return complete


class Screen:
    """Draws a frame and reads a line below it; ``size()`` is the terminal's (columns, lines)."""

    def __init__(self) -> None:

        self.session: PromptSession = PromptSession(history=InMemoryHistory())

    def size(self) -> tuple[int, int]:

        app = get_app_or_none()
        if app is not None:
            rows_cols = app.output.get_size()
            return rows_cols.columns, rows_cols.rows

        cols, lines = shutil.get_terminal_size((80, 24))
        return cols, lines

    def clear(self) -> None:
        sys.stdout.write("\x1b[H\x1b[2J")
        sys.stdout.flush()

    def status(self, frame: Frame, text: str) -> None:
        """Draw ``frame`` with ``text`` (no prompt) on its last line: while the bots move."""
        cols, lines = self.size()
        self.clear()
        sys.stdout.write(frame(cols, lines, text))
        sys.stdout.flush()

    def read(self, frame: Frame, prompt: str, keys: Any = None, completer: Any = None) -> str:
        """The line typed at ``prompt`` under ``frame`` (EOFError on Ctrl-D, KeyboardInterrupt on Ctrl-C).
        ``keys``: prompt_toolkit key bindings added for this line (a replay's arrow keys); ``completer``:
        what Tab completes (``LineCompleter``)."""

        def message() -> ANSI:
            cols, lines = self.size()
            return ANSI(frame(cols, lines, prompt))

        self.clear()
        return self.session.prompt(message, key_bindings=keys, completer=completer,
                                   complete_while_typing=False, reserve_space_for_menu=0)

    def leave(self) -> None:
        """Clear the screen for what is printed after the game (the end screen stays on it)."""
        self.clear()


__all__ = ["LineCompleter", "Screen", "readline_complete", "terminal_is_interactive"]
