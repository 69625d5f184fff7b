"""Play one game between bot files, each seat in its own worker process.

The referee owns the State; a bot sees only its own observations. A bot that fails in any way
forfeits: its worker is killed, the reason is recorded, and the referee plays the rest of its
moves with a deterministic stand-in (the first legal action). Forfeiting seats rank below every
seat that finished (tied among themselves); the others keep their order from the game.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from alhambra_ai.record import make_record
from alhambra_ai.stats import ranks

from . import sandbox
from .process import BotFailure, BotProcess, BotSource
from .schedule import ScheduledGame, seat_seed


@dataclass(frozen=True)
class Limits:
    """Per-game resource limits for every seat."""

    move_time: float = 1.0  # seconds per move before the bank is drawn on
    time_bank: float = 10.0  # seconds per game and seat, drawn on by slow moves
    memory_mb: int | None = 2048  # address-space cap of each worker (RLIMIT_AS)
    setup_time: float = 10.0  # to start the worker, import the bot and run setup (not charged to the bank)


class GameInterrupted(Exception):
    """The tournament is stopping; the game is abandoned and not recorded."""


class Heartbeat:
    """When the referee of a game last made progress (a watchdog reads it: see runner.run_games)."""

    def __init__(self) -> None:
        self.last: float | None = None  # None until the game starts

    def beat(self) -> None:
        self.last = time.monotonic()

    @staticmethod
    def longest_step(limits: Limits) -> float:
        """The longest a referee may legitimately go without progress: one seat's start and setup, or one
        move with the whole time bank."""
        return max(2 * limits.setup_time, limits.move_time + limits.time_bank)


def new_game(num_players: int, seed: int, options: dict | None = None, game: str = "alhambra"):
    """Start the game to referee: ``game`` (the base game, or a dice game) with the modules of ``options``
    (indirection kept so tests can use a small game)."""
    from alhambra_ai import new_game as engine_new_game

    if game != "alhambra":
        return engine_new_game(num_players, seed=seed, options=options, game=game)
    return engine_new_game(num_players, seed=seed, options=options)


def stand_in(legal: list[int]) -> int:
    """The referee's own deterministic policy for a seat that forfeited."""
    return legal[0]


class Seat:
    """A bot's worker and clock in one game: the time bank left and the time of each move."""

    def __init__(self, bot: str, bank: float) -> None:
        self.bot, self.bank = bot, bank
        self.proc: BotProcess | None = None
        self.times: list[float] = []


def run_game(game: ScheduledGame, paths: dict[str, BotSource | str], limits: Limits,
             stop: threading.Event | None = None, heartbeat: Heartbeat | None = None,
             bot_limits: dict[str, Limits] | None = None,
             bot_config: dict[str, dict] | None = None) -> tuple[dict, dict]:
    """Play ``game`` and return (result, record); see store.py for their fields. ``paths`` gives each bot
    as its content (BotSource, read once by the caller) or a file path. ``stop`` abandons the game;
    ``heartbeat`` is told of every step.

    ``bot_limits`` (per bot name) replaces ``limits`` for that bot's seats, e.g. one bot at 1 s per move
    against another at 0.1 s (``alhambra-ai strength``); ``bot_config`` adds keys to a bot's setup config
    (e.g. an iteration budget) without replacing the referee's own (seat, seed, move_time, ...)."""
    beat = heartbeat.beat if heartbeat is not None else (lambda: None)
    beat()
    started = time.monotonic()
    modules = dict.fromkeys(game.options, True) if game.options else None
    state = (new_game(game.num_players, game.seed, modules, game.game) if game.game != "alhambra"
             else new_game(game.num_players, game.seed, modules) if modules else
             new_game(game.num_players, game.seed))
    seat_limits = [(bot_limits or {}).get(bot, limits) for bot in game.bots]
    seats = [Seat(bot, lim.time_bank) for bot, lim in zip(game.bots, seat_limits, strict=True)]
    forfeits: list[dict] = []
    moves = 0

    def forfeit(k: int, failure: BotFailure) -> None:
        seat = seats[k]
        if seat.proc is not None:
            seat.proc.close()
            seat.proc = None
        forfeits.append({"seat": k, "bot": seat.bot, "reason": failure.reason,
                         "detail": failure.detail, "move": moves})

    cpu = sandbox.take_cpu()  # the game's CPU: one seat computes at a time
    try:
        if stop is not None and stop.is_set():
            raise GameInterrupted(game.id)
        # start all workers first: they load in parallel
        for seat, lim in zip(seats, seat_limits, strict=True):
            seat.proc = BotProcess(paths[seat.bot], lim.memory_mb, cpu)
        for k, (seat, lim) in enumerate(zip(seats, seat_limits, strict=True)):
            beat()
            config = {**(bot_config or {}).get(seat.bot, {}),
                      "seat": k, "num_players": game.num_players, "options": state.options,
                      "seed": seat_seed(game.seed, k), "move_time": lim.move_time,
                      "time_bank": lim.time_bank}
            try:  # the bot's import, construction and setup run now, on its own clock, the others stopped
                taken = seat.proc.begin(lim.setup_time)
                seat.proc.setup(config, max(0.001, lim.setup_time - taken))
            except BotFailure as failure:
                forfeit(k, failure)

        while not state.is_terminal():
            if stop is not None and stop.is_set():
                raise GameInterrupted(game.id)
            beat()
            k = state.current_player
            legal = state.legal_actions()
            action = None
            if seats[k].proc is not None:
                try:
                    action = ask(state, k, seats[k], legal, seat_limits[k])
                except BotFailure as failure:
                    forfeit(k, failure)
            if action is None:
                action = stand_in(legal)
            state.apply(action)
            moves += 1
    finally:
        for seat in seats:
            if seat.proc is not None:
                seat.proc.close()
        sandbox.give_cpu(cpu)

    # The record comes from the state's own history; not replayed here (check=False): the referee
    # applied every move itself, and a test game stands in for the engine in the machinery's tests.
    record = make_record(state, game.bots, [{k: f[k] for k in ("seat", "bot", "reason", "move")}
                                            for f in forfeits], check=False)
    game_ranks = list(state.ranking())
    result = {
        "game": game.id, "seed": game.seed, "bots": list(game.bots), "num_players": game.num_players,
        "options": state.options, **({"game_type": game.game} if game.game != "alhambra" else {}),
        "scores": record["scores"], "dirk_score": state.dirk_score,
        "ranks": final_ranks(game_ranks, {f["seat"] for f in forfeits}), "game_ranks": game_ranks,
        "forfeits": forfeits, "moves": len(record["actions"]),
        "move_times": [_time_summary(s.times) for s in seats],
        "duration": round(time.monotonic() - started, 3),
    }
    return result, record


def ask(state, k: int, seat: Seat, legal: list[int], limits: Limits) -> int:
    """The bot's action for seat k, validated against ``legal``; raises BotFailure (the worker may be dead
    or mid-move: the caller closes it)."""
    allowed = limits.move_time + seat.bank
    obs = dict(state.observation(k), time_left=allowed, move_time=limits.move_time)
    reply, elapsed = seat.proc.request({"cmd": "act", "obs": obs}, allowed)
    seat.times.append(elapsed)
    if elapsed > limits.move_time:
        seat.bank -= elapsed - limits.move_time
        if seat.bank < 0:  # the reply raced the deadline and lost
            raise BotFailure("times out", f"replied after {elapsed:.3g} s, allowed {allowed:.3g} s")
    if "action" not in reply:
        raise BotFailure("protocol error", f"unexpected reply {str(reply)[:200]}")
    action = reply["action"]
    if isinstance(action, bool) or not isinstance(action, int | str):
        raise BotFailure("malformed action", f"act returned {str(action)[:200]}, not an int or str")
    if isinstance(action, str):
        try:
            code = state.parse_action(action)
        except Exception as e:  # the engine names what is wrong with the text
            raise BotFailure("illegal action", f"{action[:200]!r}: {e}") from None
    else:
        code = action
    if code not in legal:
        raise BotFailure("illegal action", f"{str(action)[:200]} is not a legal action")
    return code


def final_ranks(game_ranks: list[int], forfeited: set[int]) -> list[int]:
    """Ranks for the ratings: finishers keep their order, forfeiters tie for last.

    >>> final_ranks([1, 2, 2, 4], forfeited={0})
    [4, 1, 1, 3]
    """
    finishers = [s for s in range(len(game_ranks)) if s not in forfeited]
    # the finishers ranked among themselves by their game ranks (a lower rank is better)
    among = dict(zip(finishers, ranks([-game_ranks[s] for s in finishers]), strict=True))
    return [among.get(s, len(finishers) + 1) for s in range(len(game_ranks))]


def _time_summary(times: list[float]) -> dict:
    if not times:
        return {"moves": 0, "mean": None, "max": None}
    return {"moves": len(times), "mean": round(sum(times) / len(times), 6), "max": round(max(times), 6)}
