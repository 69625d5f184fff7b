"""Play one game between bot files, each seat in its own worker process.

The referee owns the State (made by the game registry); a bot sees only its own observations. A bot
that fails in any way forfeits: its worker is killed, the reason is recorded, and the referee plays the
rest of its moves with a deterministic stand-in (the first legal action). Forfeiting seats rank below every
seat that finished (tied among themselves); the others keep their order from the game.

The watchdog is here too: every referee beats a ``Heartbeat`` at each step, and whoever runs games
(runner.LocalBackend, ``run_watched`` in a Ray task) abandons a game whose referee is silent for longer
than any step may take (``stall_limit``): its workers are killed and it ends as a ``failed_result``, which
runner.play_all plays again (MAX_ATTEMPTS in all) before it stores the failure. A stall loses at most its
game, never the run. Every read and write of a worker is bounded by the move's clock (process.py), so a
stall is the referee's own (an engine bug) or the machine's, never a bot's.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from alhambra_ai import registry
from alhambra_ai.arena.stats import ranks
from alhambra_ai.formats.record import make_record
from alhambra_ai.sandbox.process import BotFailure, BotProcess, BotSource, give_cpu, kill_all, take_cpu

from .schedule import ScheduledGame, seat_seed

WATCHDOG_GRACE = 30.0  # seconds beyond the longest legitimate step before a referee counts as stalled
MAX_ATTEMPTS = 3  # plays of a game whose referee stalls, before it is recorded as failed


@dataclass(frozen=True)
class Limits:
    """The resource limits of every seat of a game, and what a bot may have of its own, by seat name:
    ``own`` limits (``alhambra-ai strength``'s ``mcts@1``: 1 s per move against others at 0.1 s) and
    ``budgets``, keys added to its setup config (strength's ``--iterations``: a search budget instead of
    the clock; the referee's own keys, seat, seed, move_time, ..., always win)."""

    move_time: float = 1.0  # seconds per move before the bank is drawn on
    time_bank: float = 10.0  # seconds per game and seat, drawn on by slow moves
    memory_mb: int | None = 2048  # address-space cap of each worker (RLIMIT_AS)
    setup_time: float = 10.0  # to start the worker, import the bot and run setup (not charged to the bank)
    own: Mapping[str, Limits] = field(default_factory=dict, hash=False)
    budgets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, hash=False)
    max_moves: int | None = None  # end the game unfinished after this many moves (selfplay: bots that loop)

    def of(self, bot: str) -> Limits:
        """The limits of the seat named ``bot``: its own, else these."""
        return self.own.get(bot, self)

    def budget(self, bot: str) -> dict[str, Any]:
        """What the seat named ``bot`` adds to its setup config (usually nothing)."""
        return dict(self.budgets.get(bot, {}))


class GameInterrupted(Exception):
    """The tournament is stopping; the game is abandoned and not recorded."""


class Heartbeat:
    """When the referee of a game last made progress (the watchdog, ``check_heartbeats``, reads it), and
    the game's workers, which ``abandon`` kills."""

    def __init__(self) -> None:
        self.last: float | None = None  # None until the game starts
        self.procs: list[BotProcess] = []
        self.stop = threading.Event()

    def beat(self) -> None:
        self.last = time.monotonic()

    def abandon(self) -> None:
        """Give the game up: it stops at its next step, and its workers die now (their channels end, so a
        referee waiting on one goes on at once; it closes them itself)."""
        self.stop.set()
        for proc in list(self.procs):
            proc.kill()

    @staticmethod
    def longest_step(limits: Limits) -> float:
        """The longest a referee may legitimately go without progress: one seat's start and setup, or one
        move with the whole time bank (of the seat with the most, when bots have limits of their own)."""
        return max(max(2 * lim.setup_time, lim.move_time + lim.time_bank)
                   for lim in (limits, *limits.own.values()))


def stall_limit(limits: Limits) -> float:
    """How long the watchdog lets a referee under ``limits`` go without progress."""
    return Heartbeat.longest_step(limits) + WATCHDOG_GRACE


def check_heartbeats(beats: Mapping[str, Heartbeat], allowed: float) -> dict[str, str]:
    """The watchdog: the running games whose referee made no progress for ``allowed`` s, each with why."""
    now = time.monotonic()
    return {game_id: f"its referee made no progress for {now - beat.last:.0f} s (longer than any move or "
                     "setup may take)"
            for game_id, beat in beats.items() if beat.last is not None and now - beat.last > allowed}


def failed_result(game: ScheduledGame, why: str) -> dict:
    """What a game that could not be played ends as (its referee stalled): stored apart from the results,
    never rated.

    >>> failed_result(ScheduledGame("g00002", ("a", "b"), 7), "stalled")
    {'game': 'g00002', 'bots': ['a', 'b'], 'failed': 'stalled'}
    """
    return {"game": game.id, "bots": list(game.bots), "failed": why}


def new_game(num_players: int, seed: int, options: dict | None = None, game: str = registry.DEFAULT):
    """Start the game to referee: the registry's ``game`` with the modules of ``options`` (indirection kept
    so tests can use a small game)."""
    return registry.get(game).new_state(num_players, seed, options)


def stand_in(legal: list[int]) -> int:
    """The referee's own deterministic policy for a seat that forfeited."""
    return legal[0]


class Seat:
    """A bot's worker and clock in one game: the time bank left and the time of each move."""

    def __init__(self, bot: str, bank: float) -> None:
        self.bot, self.bank = bot, bank
        self.proc: BotProcess | None = None
        self.times: list[float] = []


def run_game(game: ScheduledGame, paths: Mapping[str, BotSource | str], limits: Limits,
             stop: threading.Event | None = None, heartbeat: Heartbeat | None = None) -> tuple[dict, dict]:
    """Play ``game`` and return (result, record); see store.py for their fields. ``paths`` gives each bot
    as its content (BotSource, read once by the caller) or a file path; ``limits`` the limits of every seat
    (and a bot's own, ``Limits.of``). ``stop`` abandons the game; ``heartbeat`` is told of every step."""
    beat = heartbeat.beat if heartbeat is not None else (lambda: None)
    beat()
    started = time.monotonic()
    modules = dict.fromkeys(game.options, True) if game.options else None
    state = new_game(game.num_players, game.seed, modules, game.game)
    seat_limits = [limits.of(bot) for bot in game.bots]
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

    cpu = take_cpu()  # the game's CPU: one seat computes at a time
    try:
        if stop is not None and stop.is_set():
            raise GameInterrupted(game.id)
        # start all workers first: they load in parallel
        for seat, lim in zip(seats, seat_limits, strict=True):
            seat.proc = BotProcess(paths[seat.bot], lim.memory_mb, cpu)
            if heartbeat is not None:
                heartbeat.procs.append(seat.proc)
        for k, (seat, lim) in enumerate(zip(seats, seat_limits, strict=True)):
            beat()
            config = {**limits.budget(seat.bot),
                      "seat": k, "num_players": game.num_players, "options": state.options,
                      "seed": seat_seed(game.seed, k), "move_time": lim.move_time,
                      "time_bank": lim.time_bank}
            proc = seat.proc
            assert proc is not None  # started above; a forfeit clears only its own seat's
            try:  # the bot's import, construction and setup run now, on its own clock, the others stopped
                taken = proc.begin(lim.setup_time)
                proc.setup(config, max(0.001, lim.setup_time - taken))
            except BotFailure as failure:
                forfeit(k, failure)

        while not state.is_terminal():
            if stop is not None and stop.is_set():
                raise GameInterrupted(game.id)
            if limits.max_moves is not None and moves >= limits.max_moves:
                break  # unfinished: the result says "truncated"
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
        give_cpu(cpu)

    # The record comes from the state's own history; not replayed here (check=False): the referee
    # applied every move itself, and a test game stands in for the engine in the machinery's tests.
    record = make_record(state, game.bots, [{k: f[k] for k in ("seat", "bot", "reason", "move")}
                                            for f in forfeits], check=False)
    game_ranks = list(state.ranking())
    result = {
        "game": game.id, "seed": game.seed, "bots": list(game.bots), "num_players": game.num_players,
        # the default game's results keep the form they had before there were other games
        "options": state.options, **({"game_type": game.game} if game.game != registry.DEFAULT else {}),
        "scores": record["scores"], "dirk_score": state.dirk_score,
        "ranks": final_ranks(game_ranks, {f["seat"] for f in forfeits}), "game_ranks": game_ranks,
        "forfeits": forfeits, "moves": len(record["actions"]),
        "move_times": [_time_summary(s.times) for s in seats],
        "duration": round(time.monotonic() - started, 3),
    }
    if not state.is_terminal():
        result["truncated"] = True
    return result, record


def run_watched(game: ScheduledGame, bots: Mapping[str, BotSource | str], limits: Limits
                ) -> tuple[dict, dict | None]:
    """``run_game`` under the watchdog, for a game that has no runner watching it (a Ray task): a referee
    that stops making progress is abandoned and the game ends as a ``failed_result`` (record None) instead
    of holding its node forever."""
    beat = Heartbeat()
    played: list[tuple[dict, dict]] = []
    raised: list[BaseException] = []  # handed to the calling thread

    def play() -> None:
        try:
            played.append(run_game(game, bots, limits, beat.stop, beat))
        except BaseException as e:
            raised.append(e)

    thread = threading.Thread(target=play, daemon=True)
    thread.start()
    allowed = stall_limit(limits)
    try:
        while thread.is_alive():
            thread.join(0.5)
            stalled = check_heartbeats({game.id: beat}, allowed) if thread.is_alive() else {}
            if stalled:
                beat.abandon()
                return failed_result(game, stalled[game.id]), None
    except BaseException:
        beat.stop.set()
        kill_all()
        raise
    if raised:
        raise raised[0]
    return played[0]


def ask(state, k: int, seat: Seat, legal: list[int], limits: Limits) -> int:
    """The bot's action for seat k, validated against ``legal``; raises BotFailure (the worker may be dead
    or mid-move: the caller closes it)."""
    allowed = limits.move_time + seat.bank
    obs = dict(state.observation(k), time_left=allowed, move_time=limits.move_time)
    assert seat.proc is not None  # only a seat that still has its worker is asked
    reply, elapsed = seat.proc.act(obs, allowed)
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
