"""``alhambra-ai play --game dice|alcazaba``: the terminal game of the dice games.

The loop, the bots (worker processes), hints, records and the review are ``play.TerminalGame``'s; only what
is shown and what the person types differ. The board is ``dice_text.render`` (dice with their positions, so
``keep 1 3 4`` names them); the person's words go to the engine's own parser (``parse_action``), which
knows ``roll``, ``keep 1 3 4``, ``reroll [2 5]``, ``stop garden [push]``, ``points``, ``tile``, ... Legality
comes only from the engine.

>>> import io
>>> from alhambra_ai import new_game
>>> out = []
>>> g = DiceTerminalGame(new_game(2, 1, game="dice"), 0, {}, None, 0.1, write=out.append)
>>> g.apply(g.state.parse_action("roll"), 0)
>>> out[-1].startswith("You: roll")
True
"""

from __future__ import annotations

from alhambra_ai.dice_text import render
from alhambra_ai.play import InputError, TerminalGame
from alhambra_ai.render import seat_name

HELP = """\
Commands (the dice are numbered 1-8 as on the board's 'dice:' line):
  roll              roll the dice (first roll of your turn)
  keep 1 3 4        keep dice 1, 3 and 4 and re-roll the others
                    (also: reroll 2 5 6; reroll = all)
  stop garden       stop and score the garden dice (stop garden push: push
                    back)
  points | tile     choose your reward (points convert tower: convert them)
  moves [word]      list the legal moves, numbered (moves stop: the stops);
                    type a number to choose one
  hint              ask the strongest bot what it would do
  table             show the board again; scores; log [N|all]
  help              this text;  quit  leaves the game
Any other move is typed as 'moves' lists it (void, black, place, ...)."""


class DiceTerminalGame(TerminalGame):
    """A dice game in the terminal: the board of ``dice_text`` and the engine's own command words."""

    help_text = HELP

    def table(self) -> str:
        short = ["you" if p == self.human else f"s{p + 1} {name}" for p, name in enumerate(self.names)]
        return render(self.state, short)

    def short_view(self) -> str:
        return self.table()

    def situation(self) -> str:
        phase = self.state.phase
        words = {"roll": "roll the dice", "after_roll": "keep dice or stop"}
        return words.get(phase, phase.replace("_", " "))

    def turn_key(self) -> tuple:
        return (self.state.round, self.state.turn)

    def parse(self, line: str) -> int:
        """The person's words -> an action the engine finds legal now (InputError naming the problem)."""
        s = self.state
        try:
            code = s.parse_action(line.strip().lower())
        except ValueError as e:
            raise InputError(f"{e} (type 'moves' or 'help').") from None
        if not s.is_legal(code):
            raise InputError(f"'{line.strip()}' is not possible now (type 'moves' for the legal moves).")
        return code

    def describe(self, code: int, who: str) -> str:
        return f"{who}: {self.state.action_to_text(code)}"

    def news(self) -> None:
        """The dice games' events are on the board: only new scorings are shown (report_scoring)."""
        self.seen = len(self.state.history)

    def show_city(self, args: list[str]) -> None:
        s = self.state
        if s.game != "alcazaba":
            raise InputError("The dice game has no cities: type table to see the board.")
        seat = self.city_seat(args)
        self.write(f"{seat_name(seat, self.names, self.human)}: {s.city(seat).to_text()}")

    def report_scoring(self, round_: int | None = None) -> None:
        new = [e for e in self.state.score_breakdown() if e["round"] not in self.reported
               and (round_ is None or e["round"] == round_)]
        for entry in new:
            self.reported.add(entry["round"])
            totals = ", ".join(f"{seat_name(p, self.names, self.human)} {row['total']}"
                               for p, row in enumerate(entry["seats"]))
            dirk = f", Dirk {entry['dirk']['total']}" if entry.get("dirk") else ""
            self.write(f"Scoring {'ABC'[entry['round'] - 1]}: {totals}{dirk}.")
        if new:
            self.write(self.score_line())
