"""``alhambra-ai play --game dice|alcazaba``: the terminal game of the dice games.

The loop, the bots (worker processes), hints, records and the review are ``session.TerminalGame``'s; only
what is shown and what the person types differ. The board is ``text.render`` (dice with their positions, so
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

from alhambra_ai.games.dice.text import dice_words, landing, moves_text, prompt_words, render
from alhambra_ai.terminal.session import InputError, TerminalGame
from alhambra_ai.terminal.text import (
    LEGEND_ASCII,
    LEGEND_UNICODE,
    city_block,
    clip,
    clip_event,
    seat_name,
    wrap,
)

HELP = """\
Commands (the dice are numbered 1-8 as on the board's 'rolled dice:' line):
  roll              roll the dice (first roll of your turn)
  keep 1 3 4        keep dice 1, 3 and 4 and re-roll the others
                    (also: reroll 2 5 6; reroll = all)
  stop garden       stop: a marker on the garden column's field of your
                    garden dice and rolls (stop garden push: push back)
  points | tile     choose your reward (points convert tower: convert them)
  void, black tower use a void-roll or black-die bonus tile
  pick 17, place 17 1,-2, place 17 reserve, build 17 1,-2, remove 1,-2,
  swap 17 1,-2      Alcazaba: take a tile, place it; rebuild after roll 1-2
  moves [word]      the legal moves in groups (moves keep: every re-roll;
                    moves stop: the stops); type a number to choose one
  hint              ask the strongest bot what it would do
  table             show the board again; city N (Alcazaba); scores;
                    log [N|all]
  help              this text;  quit  leaves the game
The board: a marker "5 in 3" stands on the field of 5 dice in 3 rolls (more
dice win, then fewer rolls); * marks the start player."""


class DiceTerminalGame(TerminalGame):
    """A dice game in the terminal: the board of ``text.py`` and the engine's own command words."""

    help_text = HELP

    def table(self) -> str:
        return render(self.state, self.names, width=self.width, you=self.human, compact=self.compact,
                      unicode=self.unicode, color=self.color)

    def short_view(self) -> str:
        return self.table()

    def screen_lines(self, width: int, height: int) -> list[str]:
        """The board in its compact form, then the news since the person's last move while they fit
        (Alcazaba: the news under the seats, beside the city, which is drawn whole in ``height`` lines)."""
        if self.state.game == "alcazaba":
            news = [e for e in self.events() if not e.startswith("Scores: ")]     # (the seats' column)
            board = render(self.state, self.names, width=width, you=self.human, compact=True,
                           unicode=self.unicode, color=self.color, height=height, events=news).split("\n")
            return [clip(line, width) for line in board][:height]
        board = render(self.state, self.names, width=width, you=self.human, compact=True,
                       unicode=self.unicode, color=self.color).split("\n")
        news = [e for e in self.events() if not e.startswith("Scores: ")]         # (the seats' table)
        room = height - len(board) - 1
        events = [x for e in news for x in wrap(e, width, indent="  ")]            # whole while they fit
        if len(events) > room:
            events = [clip_event(e, width) for e in news]
        legend = next((k for k, x in enumerate(board) if x.startswith('legend: "5 in 3"')), None)
        if len(events) > room and legend is not None:     # every seat's line before the legend (in help)
            room += len(board) - legend
            board = board[:legend]
        if events and room > 0:
            board += [""] * (room > len(events)) + events[-room:]
        return [clip(line, width) for line in board][:height]

    def situation(self) -> str:
        return prompt_words(self.state.observation(self.human))

    def show_moves(self, filters: list[str]) -> None:
        self.show(lambda width: moves_text(self.state, filters, width))

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
            try:  # the engine names the reason (no such die, no such tile, not in this step of the turn)
                s.clone().apply(code)
                why = ""
            except ValueError as e:
                reason = str(e).split(": ", 1)[-1]
                why = reason.removeprefix("not now") if reason.startswith("not now") else f": {reason}"
            raise InputError(f"'{line.strip()}' is not possible now{why} (type 'moves' for the legal moves).")
        return code

    def describe(self, code: int, who: str) -> str:
        """The move's text, with where the marker lands (a stop)."""
        s = self.state
        text = s.action_to_text(code)
        if text.startswith("stop"):
            where = landing(s, code)
            text += f": the marker {where}" if where.startswith("falls") else f": marker on {where}"
        return f"{who}: {text}"

    def apply(self, code: int, seat: int) -> None:
        """Play a move and say it; a roll's result is said with it (the bots' rolls are seen too)."""
        try:
            sentence = self.describe(code, self.who(seat))
        except Exception:  # words are a nicety: the text form always works
            sentence = f"{self.who(seat)}: {self.state.action_to_text(code)}"
        rolled = self.state.action_to_text(code).startswith(("roll", "reroll"))
        self.state.apply(code)
        if rolled:
            sentence += f" -> {dice_words(self.state.dice()[0])}"
        self.narrate_move(seat, sentence)
        self.news()

    def news(self) -> None:
        """The dice games' events are on the board: only new scorings are shown (report_scoring)."""
        self.seen = len(self.state.history)

    def show_city(self, args: list[str]) -> None:
        s = self.state
        if s.game != "alcazaba":
            raise InputError("The dice game has no cities: type table to see the board.")
        seat = self.city_seat(args)
        obs = s.observation(self.human)
        legend = LEGEND_UNICODE if self.unicode else LEGEND_ASCII
        self.show(lambda width: "\n".join([*city_block(obs, seat, self.names, self.human, self.unicode,
                                                        self.color, width), legend]))

    def report_scoring(self, round_: int | None = None) -> None:
        new = [e for e in self.state.score_breakdown() if e["round"] not in self.reported
               and (round_ is None or e["round"] == round_)]
        for entry in new:
            self.reported.add(entry["round"])
            totals = ", ".join(f"{seat_name(p, self.names, self.human)} +{row['total']}"
                               for p, row in enumerate(entry["seats"]))
            dirk = f", Dirk +{entry['dirk']['total']}" if entry.get("dirk") else ""
            self.write(f"Scoring {'ABC'[entry['round'] - 1]}: {totals}{dirk}.")
        if new:
            self.write(self.score_line())
