"""``alhambra-ai play``: the base game in the terminal (the table, the person's words, the scorings).

The person types short commands (``take y3 b2``, ``buy 2 g4 g3``, ``place 17 1,-2``, ``moves``, ``3``,
``hint``, ``help``, ``quit``); the loop and the bots are ``alhambra_ai.terminal.session.TerminalGame``'s.
Legality comes only from the engine (``legal_actions`` / ``parse_action`` / ``apply``); ``words.py`` only
rewrites the player's words into the engine's text forms and describes moves in words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from alhambra_ai.games.alhambra.modules import MODULES, Command, in_play
from alhambra_ai.games.alhambra.text import (
    hand_by_currency,
    majority_table,
    render_scoring,
    render_screen,
    render_table,
)
from alhambra_ai.games.alhambra.words import describe, narrate, resolve
from alhambra_ai.terminal.session import InputError, TerminalGame
from alhambra_ai.terminal.text import card_paint, render_city, seat_name, tile_long, visible_len

_WINDOW_WORDS = {"useful": "between turns you are asked when a piece can act there with an offer worth it "
                           "that you have not let pass before.",
                 "ask": "between turns you are asked whenever a piece can act there.",
                 "auto": "between turns you are never asked (done is played for you)."}

# One line per command: (module that brings it, or "" for the base game; "dirk": 2 players only), an
# example as typed, what it does. ``help`` shows the lines of the game in play (issue 44: at most 24 lines):
# the base game's moves, each module's (its ``commands``), then the commands of the terminal.
_MOVES: tuple[tuple[str, str, str], ...] = (
    ("", "take y3 b2", "take money: one card, or several worth 5 at most"),
    ("", "buy 2 g4 g3", "buy slot 2's tile with g4 + g3 (exact: act again)"),
    ("", "place 17 1,-2", "place tile 17 (bought this turn) in your city at 1,-2"),
    ("", "reserve 17", "put tile 17 (bought this turn) into your reserve"),
    ("dirk", "dirk 17", "give tile 17 (bought this turn) to Dirk"),
    ("both", "reserve 17 | dirk 17", "tile 17 (bought this turn) into your reserve | to Dirk"),
    ("", "build 17 1,-2", "build reserve tile 17 in your city at 1,-2"),
    ("", "remove 1,-2", "move the city tile at 1,-2 to your reserve"),
    ("", "swap 17 1,-2", "swap reserve tile 17 with the city tile at 1,-2"),
    ("", "pass", "only when nothing else is possible"),
)
_TERMINAL: tuple[tuple[str, str, str], ...] = (
    ("window", "windows ask/auto", "between turns: always asked | never (default: useful)"),
    ("", "moves [word]", "the legal moves, numbered; type a number to play one"),
    ("", "table | city N", "the whole table | seat N's city and its reserve"),
    ("", "scores | log [N|all]", "points so far | the last events"),
    ("", "hint | help | quit", "the strongest bot's move | this text | leave the game"),
)
COMMANDS: tuple[tuple[str, str, str], ...] = (
    *_MOVES, *((m.name, c.example, c.help) for m in MODULES for c in m.commands), *_TERMINAL)


def help_text(options: dict, num_players: int) -> str:
    """The commands of this game: the base game's, its modules', Dirk's with 2 players (on one line with the
    reserve's, so that the help of every module fits a 24-line screen), ``windows`` with the vizier or thief.

    >>> len(help_text({}, 3).splitlines()), "dirk 17" in help_text({}, 2), "wall 5" in help_text({}, 2)
    (13, True, False)
    >>> "windows ask/auto" in help_text({"thief": True}, 3), "windows" in help_text({"walls": True}, 3)
    (True, False)
    >>> from alhambra_ai.options import MODULES
    >>> max(map(len, help_text(dict.fromkeys(MODULES, True), 2).splitlines())) <= 80
    True
    """
    have = {m for m, on in options.items() if on} | ({"both"} if num_players == 2 else set())
    have |= {"window"} if any(m.window for m in in_play(options)) else set()
    single = ("reserve 17", "dirk 17") if num_players == 2 else ()     # (2 players: the line of both)
    lines = ["Commands (cells are x,y: x grows to the east, y to the north; fountain 0,0):"]
    lines += [Command(example, what).line() for module, example, what in COMMANDS
              if (not module or module in have) and example not in single]
    return "\n".join(lines)


#: what the prompt says the person is to do, per phase (the modules' phases: their ``phases``)
SITUATIONS = {"action": "your move", "place": "place your tiles", "final": "place your tiles",
              **{phase: words for m in MODULES for phase, words in m.phases.items()}}


def situation(phase: str, options: dict, moves: Sequence[str] | None = None) -> str:
    """What the prompt says the person is to do in ``phase``; between turns (the ``interrupt`` window), the
    modules in play that act there (rules.md §9.0), or of those only the ones in ``moves`` (the window words
    of the modules whose moves are legal now).

    >>> situation("interrupt", {"vizier": True, "thief": True}), situation("falcons", {"falcons": True})
    ('between turns: vizier / thief, or done', 'more falcons, or done')
    >>> situation("interrupt", {"vizier": True, "thief": True}, ["thief"])
    'between turns: thief, or done'
    """
    if phase == "interrupt":
        kinds = [m.window for m in in_play(options) if m.window]
        if moves is not None:
            kinds = [k for k in kinds if k in moves] or kinds
        return f"between turns: {' / '.join(kinds)}, or done"
    return SITUATIONS.get(phase, "place your tiles")


#: ``--windows``: when the person is asked in the window between turns (docs: README, the ``play`` command)
WINDOW_MODES = ("useful", "ask", "auto")


def window_moves(state: Any) -> list[tuple[Any, bool, tuple]]:
    """The moves of the window between turns as the modules in play see them: (module, worth asking, offer)
    for each legal move a module's ``window_offer`` claims (a move's payments are one offer)."""
    if state.phase != "interrupt":
        return []
    found = []
    for code in state.legal_actions():
        words = state.action_to_text(code).split()
        for m in in_play(state.options):
            claim = m.window_offer(state, words) if m.window_offer else None
            if claim is not None:
                found.append((m, *claim))
                break
    return found


def window_offers(state: Any) -> set[tuple]:
    """The offers of the window between turns worth asking about (``--windows useful``), as each module's
    ``window_offer`` says (the vizier: a tile it can pay exactly; a thief: a card worth 5 or more).

    >>> from alhambra_ai import State
    >>> s = State.from_setup(3, options={"thief": True}, thieves=[[], [], ["o", "y"]],
    ...                      draw_pile=["y1", "y2", "s1", "s2"], display=["o2", "o3", "y7", "b5"])
    >>> s.apply("take o2")
    >>> sorted(window_offers(s))          # o3 (worth 3) is not worth a thief; y7 is
    [('thief', 'y7')]
    """
    return {offer for _m, worth, offer in window_moves(state) if worth}


class AlhambraTerminalGame(TerminalGame):
    """The base game in the terminal: its table, its words (``words.py``), its scoring tables."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.declined: set[tuple] = set()    # the window's offers the person let pass ('done')

    @property
    def help_text(self) -> str:
        return help_text(self.state.options, self.state.num_players)

    def news(self) -> None:
        """Narrate the public events since the last call (refills, Dirk, scoring cards, leftovers)."""
        history, events = self.state.history, self.state.events

        def name(seat: int) -> str:
            return "you" if seat == self.human else seat_name(seat, self.names, None)

        def say(lines: list[str], chunk: list[dict]) -> None:
            for line in narrate(lines, chunk, name):
                self.write(f"  {line[:1].upper()}{line[1:]}.")

        # A scoring is shown where it happened, so that Dirk's tiles drawn after it come after it.
        lines: list[str] = []
        chunk: list[dict] = []
        for line, event in zip(history[self.seen:], events[self.seen:], strict=True):
            if event["kind"] == "score":
                say(lines, chunk)
                lines, chunk = [], []
                self.report_scoring(event["payload"]["round"])
            else:
                lines.append(line)
                chunk.append(event)
        say(lines, chunk)
        self.seen = len(history)

    def parse(self, line: str) -> int:
        """The person's words -> an action code (InputError naming what is wrong)."""
        return resolve(self.state, line)

    def describe(self, code: int, who: str) -> str:
        """The move in words (before it is applied)."""
        return describe(self.state, code, who)

    def situation(self) -> str:
        """What the prompt says the person is to do (between turns: the pieces that can act now)."""
        s = self.state
        moves = [m.window for m, _worth, _offer in window_moves(s)] if s.phase == "interrupt" else None
        return situation(s.phase, s.options, moves)

    def table(self) -> str:
        return render_table(self.state, self.human, names=self.names, unicode=self.unicode,
                            color=self.color, width=self.width, compact=self.compact)

    def screen_lines(self, width: int, height: int) -> list[str]:
        """The decision screen (``render_screen``): table, hand, city and the news, in ``height`` lines."""
        asking = self.situation() if self.state.phase == "interrupt" else ""
        return render_screen(self.state, self.human, self.names, width, height, self.events(), self.unicode,
                             self.color, asking=asking)

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
        for cell in (7, 5):  # narrow cells when the full ones would fold (issue 44 item 5)
            grid = render_city(obs["cities"][self.human], unicode=self.unicode, color=self.color, cell=cell)
            if max(visible_len(line) for line in grid.split("\n")) <= self.width:
                break
        lines.append(grid)
        return "\n".join(lines)

    def report_scoring(self, round_: int | None = None) -> None:
        """Show the breakdown of scoring ``round_`` (default: every round not shown yet)."""
        s = self.state
        new = [e for e in s.score_breakdown() if e.get("round") not in self.reported
               and (round_ is None or e.get("round") == round_)]
        for entry in new:
            self.reported.add(entry.get("round"))
            self.show("\n" + render_scoring(entry, names=self.names, you=self.human))
        if new:
            self.write(self.score_line())

    #: ``--windows`` (``WINDOW_MODES``); the ``windows`` command switches it during the game
    windows = "useful"

    def nothing_to_decide(self) -> bool:
        """Whether the window between turns is answered 'done' for the person without asking. The engine
        asks a seat that holds thieves even when none matches the display (so that being asked tells nobody
        anything); the person is asked only when the window offers more than 'done' and (``windows``):

        - ``useful`` (the default): some offer of ``window_offers`` (each module's ``window_offer``) is new:
          not one the person let pass by answering 'done' in an earlier window (a tile still in its slot, a
          card still on the display);
        - ``ask``: always; ``auto``: never ('done' is played; the window's pieces are then used only after
          typing ``windows ask``)."""
        s = self.state
        if s.phase != "interrupt":
            return False
        legal = s.legal_actions()
        if len(legal) == 1 and s.action_to_text(legal[0]) == "done":
            return True
        if self.windows == "ask":
            return False
        if self.windows == "auto":
            return True
        return not window_offers(s) - self.declined

    def formality(self) -> int:
        """The window's 'done' (what ``nothing_to_decide`` plays for the person)."""
        s = self.state
        return next((a for a in s.legal_actions() if s.action_to_text(a) == "done"), s.legal_actions()[0])

    def setting(self, cmd: str, args: list[str]) -> bool:
        """``windows ask|auto|useful``: when the window between turns asks the person (``nothing_to_decide``);
        ``windows`` alone says the setting."""
        if cmd not in ("windows", "window"):
            return False
        if not args:
            self.tell(f"windows {self.windows}: " + _WINDOW_WORDS[self.windows]
                      + " Type windows ask, windows auto or windows useful to switch.")
            return True
        if args[0] not in WINDOW_MODES:
            raise InputError("Write windows ask (always asked between turns), windows auto (never) or "
                             "windows useful (when an offer is new and worth it).")
        self.windows = args[0]
        self.tell(f"windows {self.windows}: " + _WINDOW_WORDS[self.windows])
        return True

    def apply(self, code: int, seat: int) -> None:
        """A move; the person's 'done' in the window lets its offers pass (``useful`` does not ask again)."""
        s = self.state
        if seat == self.human and s.phase == "interrupt" and s.action_to_text(code) == "done":
            self.declined |= window_offers(self.state)
        super().apply(code, seat)

    def turn_key(self) -> tuple:
        """Changes when the person's table is to be shown again (a new turn)."""
        return (self.state.turn, self.state.phase == "final")

    def end_lines(self) -> list[str]:
        """The majorities of the final cities (issue 55): each seat's buildings per type, the leaders,
        what round 3 gave for them."""
        return ["", *majority_table(self.state.observation(self.human), self.names, self.human, self.width,
                                    long_names=True)]

    def turn_note(self) -> str:
        if self.state.phase == "final":
            return "Game over: each leftover tile went to the most money of its slot. Place yours."
        return ""

    def move_note(self, seat: int) -> str:
        s = self.state
        return " - extra action" if s.current_player == seat and s.phase == "action" else ""

    def quiet(self, code: int) -> bool:
        """Declining in the interrupt window (thief, vizier) is not news."""
        return self.state.phase == "interrupt" and self.state.action_to_text(code) == "done"


__all__ = ["COMMANDS", "SITUATIONS", "WINDOW_MODES", "AlhambraTerminalGame", "help_text", "situation",
           "window_moves", "window_offers"]
