"""Run a tournament: check the bots, play the missing games in parallel, store, rate, report."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Generator, Mapping
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from contextlib import closing
from dataclasses import replace
from pathlib import Path
from typing import Protocol, TextIO

from tqdm import tqdm

from alhambra_ai import registry

from . import referee
from .config import BACKENDS, BadInput, Settings, check_settings
from .process import BotFailure, BotProcess, BotSource, isolation, kill_all
from .ratings import Ratings, format_report, format_table, write_standings
from .ray_backend import RayBackend
from .referee import Heartbeat, Limits, check_heartbeats, run_game, stall_limit
from .schedule import ScheduledGame, make_lineup_schedule, make_schedule, new_master_seed
from .store import ResultStore, settings_difference


def check_bot(bot: BotSource | str, limits: Limits) -> str | None:
    """Load the bot in a worker (never here); None if it loads, else the reason."""
    try:
        with BotProcess(bot, limits.memory_mb) as proc:
            proc.begin(limits.setup_time)
    except BotFailure as failure:
        return f"{failure.reason}: {failure.detail}" if failure.reason != "load error" else failure.detail
    return None


def check_bots(paths: list[str], limits: Limits, sources: list[BotSource] | None = None) -> None:
    """Raise BadInput for the first bot file that does not load (``sources``: their content, if read)."""
    bots = sources or paths
    with ThreadPoolExecutor(min(4, len(paths))) as pool:
        for path, problem in zip(paths, pool.map(lambda b: check_bot(b, limits), bots), strict=True):
            if problem:
                first = problem.strip().splitlines()[0]
                raise BadInput(first if path in first else f"bot file {path}: {first}")


class Backend(Protocol):
    """Where games are played: a context manager whose ``play`` yields ``(game, result, record)`` as each
    game finishes (any order), always through ``referee.run_game`` under the watchdog; closing the
    iterator early (an interrupt) stops every game in progress. ``check`` raises BadInput for games it
    cannot play. ``tournament``, ``submit``, ``strength`` and ``sprt`` all play through one."""

    def __enter__(self) -> Backend: ...

    def __exit__(self, *exc) -> None: ...

    def check(self, games: list[ScheduledGame], limits: Limits) -> None: ...

    def play(self, games: list[ScheduledGame], bots: Mapping[str, BotSource | str], hashes: dict[str, str],
             limits: Limits, note: Callable[[str], None]
             ) -> Generator[tuple[ScheduledGame, dict, dict], None, None]: ...


class LocalBackend:
    """``jobs`` games at once in threads of this process, each seat's bot in a worker process here."""

    def __init__(self, jobs: int) -> None:
        self.jobs = max(1, jobs)

    def __enter__(self) -> LocalBackend:
        return self

    def __exit__(self, *exc) -> None:
        pass

    def check(self, games: list[ScheduledGame], limits: Limits) -> None:
        """Any game runs on this machine."""

    def play(self, games: list[ScheduledGame], bots: Mapping[str, BotSource | str], hashes: dict[str, str],
             limits: Limits, note: Callable[[str], None]
             ) -> Generator[tuple[ScheduledGame, dict, dict], None, None]:
        stop = threading.Event()
        pool = ThreadPoolExecutor(self.jobs, thread_name_prefix="game")
        beats = {g.id: Heartbeat() for g in games}
        allowed = stall_limit(limits)
        pending = {pool.submit(run_game, g, bots, limits, stop, beats[g.id]): g for g in games}
        try:
            while pending:
                finished, _ = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
                check_heartbeats({g.id: beats[g.id] for f, g in pending.items() if f not in finished},
                                 allowed)
                for future in finished:
                    game = pending.pop(future)
                    yield (game, *future.result())
        except BaseException:  # an interrupt, the watchdog, or the consumer closed us (GeneratorExit)
            stop.set()
            pool.shutdown(wait=False, cancel_futures=True)
            running = {f for f in pending if not f.cancelled()}
            deadline = time.monotonic() + referee.WATCHDOG_GRACE
            while running and time.monotonic() < deadline:  # kill again until every game thread is out:
                kill_all()                                  # one may be starting a worker now (a stuck one
                _, running = wait(running, timeout=0.2)     # is left)
            kill_all()
            raise
        pool.shutdown(wait=True)


def make_backend(s: Settings) -> Backend:
    """The backend the settings name (``local`` or ``ray``)."""
    return backend_named(s.backend, s.jobs, s.address)


def backend_named(name: str, jobs: int = 1, address: str | None = None) -> Backend:
    """``local`` (``jobs`` games at once here) or ``ray`` (the cluster at ``address``); BadInput for a
    missing Ray or an address without Ray."""
    if name not in BACKENDS:
        raise BadInput(f"backend must be one of {', '.join(BACKENDS)}, not {name!r}")
    if name == "ray":
        return RayBackend(address)  # BadInput if Ray is not installed
    if address:
        raise BadInput("address is the Ray cluster's (auto or HOST:PORT) and needs backend ray")
    return LocalBackend(jobs)


def run_games(games: list[ScheduledGame], paths: Mapping[str, BotSource | str], hashes: dict[str, str],
              limits: Limits, store: ResultStore, jobs: int, progress: bool = True,
              report_every: int | None = None, log: TextIO | None = None,
              backend: Backend | None = None, width: int = 100) -> list[dict]:
    """Play the games that have no stored result yet; return all stored results (game-id order).

    Results are stored as games finish (any order), here only: the backend (default: ``jobs`` local
    games at once) just plays. Interrupting (Ctrl-C, SIGTERM) stops every game in progress and
    re-raises, leaving a store that --resume continues.
    """
    log = log or sys.stderr
    backend = backend or LocalBackend(jobs)
    stored = store.results(repair=True)
    done = {r["game"] for r in stored}
    todo = [g for g in games if g.id not in done]
    ratings = Ratings(sorted(paths))  # for the bar only: completion order; the final table is exact
    for r in stored:
        ratings.update(r)
    every = report_every or max(10, len(games) // 10)
    bar = tqdm(total=len(games), initial=len(games) - len(todo), file=log, unit="game", disable=not progress,
               dynamic_ncols=True)
    try:
        note = lambda text: bar.write(text, file=log)  # noqa: E731 - a message that keeps the bar intact
        with closing(backend.play(todo, paths, hashes, limits, note)) as played:
            since_report, last_report = 0, time.monotonic()
            for game, result, record in played:
                result = {**result, "sha256": [hashes[b] for b in game.bots]}
                store.add(result, record)
                ratings.update(result)
                bar.update(1)
                leader = ratings.leader()
                if leader:
                    bar.set_postfix_str(f"leader {leader.name} {leader.conservative:.1f}", refresh=False)
                since_report += 1
                if bar.n < len(games) and (since_report >= every or time.monotonic() - last_report > 300):
                    standings = write_standings(store.dir, store.results(), sorted(paths))
                    bar.write(format_table(standings, width, legend=False), file=log)
                    since_report, last_report = 0, time.monotonic()
    finally:
        bar.close()
    return store.results()


def tournament_settings_record(s: Settings, hashes: dict[str, str], total: int) -> dict:
    """What a resume must match (jobs and the output directory may change)."""
    bots = {name: {"path": str(Path(path).resolve()), "sha256": hashes[name]}
            for name, path in sorted(s.paths().items())}
    record = {"format": "alhambra-ai-tournament", "version": 1, "bots": bots,
              "seats": s.seat_counts, "games": s.games, "seed": s.seed, "move_time": s.move_time,
              "time_bank": s.time_bank, "memory": s.memory, "setup_time": s.setup_time, "total_games": total}
    if s.lineup:
        record["lineup"] = s.seat_names()
    if s.options:
        record["options"] = list(s.options)
    if s.game != registry.DEFAULT:  # base-game runs keep their old tournament.json (resume compares it)
        record["game"] = s.game
    return record


def run_tournament(s: Settings, resume: bool = False, progress: bool = True, out: TextIO | None = None,
                   log: TextIO | None = None, backend: Backend | None = None, width: int = 100) -> list:
    """Check everything, then play (or continue) the tournament in ``s.out``; return the standings.

    The games are played by ``backend``, by default the one the settings name (``make_backend``).
    However the run stops (finished, Ctrl-C, SIGTERM, an error), DIR/standings.* are rewritten from the
    stored games first, and the leaderboard with the head-to-head table is printed (``width`` columns)."""
    out = out or sys.stdout
    log = log or sys.stderr
    check_settings(s)
    backend = backend or make_backend(s)  # before any output: a missing Ray is one line
    if s.out is None:  # the CLI sets its default (config.default_out) before calling this
        raise BadInput("the tournament needs an output directory (Settings.out)")
    directory = Path(s.out)
    store = ResultStore(directory)
    old = store.settings()  # StoreError (bad input) for a damaged one
    seed = s.seed
    if seed is None:  # a secret: bots cannot read the log or the output directory
        seed = old["seed"] if old is not None and resume else new_master_seed()
        s = replace(s, seed=seed)
    paths = s.paths()
    sources = {name: BotSource.from_file(p) for name, p in paths.items()}  # read once; workers get copies
    hashes = {name: source.sha256 for name, source in sources.items()}
    if s.lineup:
        games = make_lineup_schedule(s.seat_names(), s.games, seed)
    else:
        games = make_schedule(list(paths), s.seat_counts, s.games, seed)
    games = [replace(g, options=s.options, game=s.game) for g in games]
    wanted = tournament_settings_record(s, hashes, len(games))
    if old is not None and not resume:
        raise BadInput(f"{directory} already holds a tournament: add --resume to continue it, "
                       "or choose another --out")
    if old is not None:
        diff = settings_difference(old, wanted)
        if diff:
            raise BadInput(f"cannot resume {directory}: {diff}")
    sandbox = isolation()
    if s.require_sandbox and sandbox.missing():
        raise BadInput(f"--require-sandbox: this machine lacks {', '.join(sandbox.missing())} "
                       f"({sandbox.summary()}); see README 'Security model'")
    with backend:
        backend.check(games, s.limits)  # the Ray backend starts its workers now, while the bots are checked
        check_bots(list(paths.values()), s.limits, list(sources.values()))
        # once every check passed: an error stays one line
        print(sandbox.summary(s.limits.memory_mb, caps=True), file=log)
        if old is None:
            store.save_settings({**wanted, "isolation": sandbox.to_record(s.limits.memory_mb)})
        seats = len(s.lineup) if s.lineup else s.seats
        kind = "" if s.game == registry.DEFAULT else f"{s.game} "  # "24 games" of the base game, as ever
        print(f"{len(games)} {kind}games: {', '.join(sorted(paths))}; seats {seats}; master seed {s.seed}; "
              f"results in {directory}", file=log)
        try:
            run_games(games, sources, hashes, s.limits, store, s.jobs, progress=progress, log=log,
                      backend=backend, width=width)
        finally:
            results = store.results()
            standings = write_standings(directory, results, sorted(paths))
            if len(results) < len(games):
                print(f"standings of the {len(results)} stored games of {len(games)}:", file=out)
            print(format_report(results, sorted(paths), width), file=out)
    return standings
