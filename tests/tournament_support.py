"""TEST HELPERS for the tournament tests (not product code).

``ToyGame`` is a tiny stand-in game with the State API subset the referee uses (and a history in
the engine's ``seat k: <action>`` form, so ``record.make_record`` reads its actions), so that the
tournament machinery (processes, forfeits, store, resume, ratings) is tested fast and on its own:
a game of Alhambra takes hundreds of moves, each a round trip to a worker process. Seats take
turns adding 1-3 to a shared total; the game ends at 24; a seat's score is the sum of what it
added. It knows nothing of Alhambra's rules.
"""

from __future__ import annotations

import time
from pathlib import Path

from alhambra_ai.arena.stats import ranks

HERE = Path(__file__).parent
GOOD = HERE / "tournament_bots"
HOSTILE = HERE / "hostile_bots"


class ToyGame:
    TARGET = 24

    def __init__(self, num_players: int, seed: int, options: dict | None = None,
                 game: str | None = None) -> None:
        self.num_players, self.seed = num_players, seed
        self.options: dict = {}
        self.dirk_score = None
        self.total, self.current_player = 0, seed % num_players
        self.added = [0] * num_players
        self.history: list[str] = []
        self.events: list[dict] = []

    def is_terminal(self) -> bool:
        return self.total >= self.TARGET

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else [1, 2, 3]

    def action_to_text(self, a: int) -> str:
        return f"add {a}"

    def texts_of(self, codes: list[int]) -> list[str]:
        """The action texts of codes played from the start (record.action_texts; the engine replays)."""
        return [self.action_to_text(a) for a in codes]

    def parse_action(self, text: str) -> int:
        word, _, n = text.partition(" ")
        if word != "add" or n not in ("1", "2", "3"):
            raise ValueError(f"unknown action {text!r}")
        return int(n)

    def apply(self, a: int | str) -> None:
        a = self.parse_action(a) if isinstance(a, str) else a
        if a not in self.legal_actions():
            raise ValueError(f"illegal action {a!r}")
        self.history.append(f"seat {self.current_player + 1}: add {a}")  # 1-based, as the engine
        self.events.append({"seat": self.current_player, "kind": "action", "payload": a})
        self.total += a
        self.added[self.current_player] += a
        self.current_player = -1 if self.is_terminal() else (self.current_player + 1) % self.num_players

    def scores(self) -> list[int]:
        return list(self.added)

    def ranking(self) -> list[int]:
        return ranks(self.added)  # as the engine ranks: competition ranks, ties share

    def observation(self, seat: int) -> dict:
        return {"seat": seat, "num_players": self.num_players, "total": self.total, "scores": self.scores(),
                "history": list(self.history), "events": list(self.events),
                "current_player": self.current_player,
                "legal_actions": self.legal_actions() if seat == self.current_player else []}


def toy_new_game(num_players: int, seed: int, options: dict | None = None,
                 game: str | None = None) -> ToyGame:
    """``referee.new_game``'s signature; the toy game has no modules and is every game."""
    return ToyGame(num_players, seed)


def use_toy_game(monkeypatch=None) -> None:
    """Make the referee play ToyGame (with pytest's monkeypatch, or for good in a subprocess)."""
    from alhambra_ai.arena import referee

    if monkeypatch is None:
        referee.new_game = toy_new_game
    else:
        monkeypatch.setattr(referee, "new_game", toy_new_game)


class StallingGame(ToyGame):
    """The toy game, with a referee that gets stuck once (as a bug or a stopped process would leave it),
    or, with ``stuck_seed`` set, every time it plays that deal."""

    stalled = False
    stuck_seed: int | None = None

    def apply(self, a):
        if self.total >= 6 and (self.seed == StallingGame.stuck_seed
                                or StallingGame.stuck_seed is None and not StallingGame.stalled):
            StallingGame.stalled = True
            time.sleep(5)
        super().apply(a)


def settled(wait: float = 15.0) -> bool:
    """No worker left once abandoned referees wake (a stalled game's workers are killed at once, and closed
    by its referee when it goes on)."""
    from alhambra_ai.sandbox.process import live_count

    deadline = time.monotonic() + wait
    while live_count() and time.monotonic() < deadline:
        time.sleep(0.1)
    return live_count() == 0
