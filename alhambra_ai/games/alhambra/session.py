"""``alhambra-ai play``: the base game in the terminal (the table, the person's words, the scorings).

The person types short commands (``take y3 b2``, ``buy 2 g4 g3``, ``place 17 1,-2``, ``moves``, ``3``,
``hint``, ``help``, ``quit``); the loop and the bots are ``alhambra_ai.session.TerminalGame``'s. Legality
comes only from the engine (``legal_actions`` / ``parse_action`` / ``apply``); ``words.py`` only rewrites the
player's words into the engine's text forms and describes moves in words.
"""

from __future__ import annotations

import re

from alhambra_ai.games.alhambra.modules import MODULES, Command, in_play
from alhambra_ai.games.alhambra.text import (
    hand_by_currency,
    majority_table,
    render_scoring,
    render_screen,
    render_table,
)
from alhambra_ai.games.alhambra.words import describe, narrate, resolve
from alhambra_ai.session import TerminalGame
from alhambra_ai.text import card_paint, render_city, seat_name, tile_long, visible_len

_SCORED = re.compile(r"^score (\d+): ")

# One line per command: (module that brings it, or "" for the base game; "dirk": 2 players only), an
# example as typed, what it does. ``help`` shows the lines of the game in play (issue 44: at most 24 lines):
# the base game's moves, each module's (its ``commands``), then the commands of the terminal.
_MOVES: tuple[tuple[str, str, str], ...] = (
    ("", "take y3 b2", "take money: one card, or several worth 5 at most"),
    ("", "buy 2 g4 g3", "buy slot 2's tile with g4 + g3 (exact: act again)"),
    ("", "place 17 1,-2", "place tile 17 (bought this turn) in your city at 1,-2"),
    ("", "reserve 17", "put tile 17 (bought this turn) into your reserve"),
    ("dirk", "dirk 17", "give tile 17 (bought this turn) to Dirk"),
    ("", "build 17 1,-2", "build reserve tile 17 in your city at 1,-2"),
    ("", "remove 1,-2", "move the city tile at 1,-2 to your reserve"),
    ("", "swap 17 1,-2", "swap reserve tile 17 with the city tile at 1,-2"),
    ("", "pass", "only when nothing else is possible"),
)
_TERMINAL: tuple[tuple[str, str, str], ...] = (
    ("", "moves [word]", "the legal moves, numbered; type a number to play one"),
    ("", "table | city N", "the whole table | seat N's city and its reserve"),
    ("", "scores | log [N|all]", "points so far | the last events"),
    ("", "hint | help | quit", "the strongest bot's move | this text | leave the game"),
)
COMMANDS: tuple[tuple[str, str, str], ...] = (
    *_MOVES, *((m.name, c.example, c.help) for m in MODULES for c in m.commands), *_TERMINAL)


def help_text(options: dict, num_players: int) -> str:
    """The commands of this game: the base game's, its modules', Dirk's with 2 players.

    >>> len(help_text({}, 3).splitlines()), "dirk 17" in help_text({}, 2), "wall 5" in help_text({}, 2)
    (13, True, False)
    >>> from alhambra_ai.options import MODULES
    >>> max(map(len, help_text(dict.fromkeys(MODULES, True), 2).splitlines())) <= 80
    True
    """
    have = {m for m, on in options.items() if on} | ({"dirk"} if num_players == 2 else set())
    lines = ["Commands (cells are x,y: x grows to the east, y to the north; fountain 0,0):"]
    lines += [Command(example, what).line() for module, example, what in COMMANDS
              if not module or module in have]
    return "\n".join(lines)


#: what the prompt says the person is to do, per phase (the modules' phases: their ``phases``)
SITUATIONS = {"action": "your move", "place": "place your tiles", "final": "place your tiles",
              **{phase: words for m in MODULES for phase, words in m.phases.items()}}


def situation(phase: str, options: dict) -> str:
    """What the prompt says the person is to do in ``phase``; between turns (the ``interrupt`` window), the
    modules in play that act there (rules.md §9.0).

    >>> situation("interrupt", {"vizier": True, "thief": True}), situation("falcons", {"falcons": True})
    ('between turns: vizier / thief, or done', 'more falcons, or done')
    """
    if phase == "interrupt":
        return f"between turns: {' / '.join(m.window for m in in_play(options) if m.window)}, or done"
    return SITUATIONS.get(phase, "place your tiles")


class AlhambraTerminalGame(TerminalGame):
    """The base game in the terminal: its table, its words (``words.py``), its scoring tables."""

    @property
    def help_text(self) -> str:
        return help_text(self.state.options, self.state.num_players)

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

    def parse(self, line: str) -> int:
        """The person's words -> an action code (InputError naming what is wrong)."""
        return resolve(self.state, line)

    def describe(self, code: int, who: str) -> str:
        """The move in words (before it is applied)."""
        return describe(self.state, code, who)

    def situation(self) -> str:
        """What the prompt says the person is to do."""
        return situation(self.state.phase, self.state.options)

    def table(self) -> str:
        return render_table(self.state, self.human, names=self.names, unicode=self.unicode,
                            color=self.color, width=self.width, compact=self.compact)

    def screen_lines(self, width: int, height: int) -> list[str]:
        """The decision screen (``render_screen``): table, hand, city and the news, in ``height`` lines."""
        return render_screen(self.state, self.human, self.names, width, height, self.events(), self.unicode,
                             self.color)

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

    def nothing_to_decide(self) -> bool:
        """The interrupt window asks a seat that holds thieves even when none matches the display (so that
        being asked tells nobody anything); the screen answers 'done' for the person then."""
        s = self.state
        if s.phase != "interrupt":
            return False
        legal = s.legal_actions()
        return len(legal) == 1 and s.action_to_text(legal[0]) == "done"

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
            return ("The game is over; the market's leftover tiles went to the players with the most money "
                    "of each slot's currency. Place yours.")
        return ""

    def move_note(self, seat: int) -> str:
        s = self.state
        return " - extra action" if s.current_player == seat and s.phase == "action" else ""

    def quiet(self, code: int) -> bool:
        """Declining in the interrupt window (thief, vizier) is not news."""
        return self.state.phase == "interrupt" and self.state.action_to_text(code) == "done"


__all__ = ["COMMANDS", "SITUATIONS", "AlhambraTerminalGame", "help_text", "situation"]
