"""Run a tournament: check the bots, play the missing games in parallel, store, rate, report."""

from __future__ import annotations

import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Generator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from dataclasses import replace
from pathlib import Path
from queue import Empty, Queue
from typing import Protocol, TextIO

from tqdm import tqdm

from alhambra_ai import registry
from alhambra_ai.sandbox.process import BotFailure, BotProcess, BotSource, isolation, kill_all, trees

from . import referee
from .config import BACKENDS, BadInput, Settings, check_settings
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
    game finishes (any order; record None: it failed, result is its ``referee.failed_result``; no two games
    of one seed at once), always through ``referee.run_game`` under the watchdog; closing the
    iterator early (an interrupt) stops every game in progress. ``check`` raises BadInput for games it
    cannot play. ``tournament``, ``submit``, ``strength`` and ``sprt`` all play through one."""

    def __enter__(self) -> Backend: ...

    def __exit__(self, *exc) -> None: ...

    def check(self, games: list[ScheduledGame], limits: Limits) -> None: ...

    def play(self, games: list[ScheduledGame], bots: Mapping[str, BotSource | str], hashes: dict[str, str],
             limits: Limits, note: Callable[[str], None]
             ) -> Generator[tuple[ScheduledGame, dict, dict | None], None, None]: ...


def next_games(queue: list[ScheduledGame], in_play: set[int], free: int, window: int) -> list[ScheduledGame]:
    """The games of ``queue`` to start in ``free`` slots. Never one of a deal in play (``in_play``: seeds),
    nor two of one deal: a deal's rotations run one after another. Among the next ``window`` deals of the
    queue, a deal with more games still queued goes first (the longest chains first, as in Hu's scheduling):
    else a run could end with the last deal's rotations played one by one while the other cores wait.
    Beyond the window (all of it when ``window`` is 0), queue order.

    >>> from alhambra_ai.arena.schedule import ScheduledGame as G
    >>> xy = ("x", "y")
    >>> queue = [G("a2", xy, 1), G("b2", xy, 2), G("c1", xy, 3), G("c2", xy, 3)]
    >>> [g.id for g in next_games(queue, set(), 2, 4)]
    ['c1', 'a2']
    >>> [g.id for g in next_games(queue, {3}, 2, 4)]
    ['a2', 'b2']
    """
    left = Counter(g.seed for g in queue)
    near = {seed: k for k, seed in enumerate(dict.fromkeys(g.seed for g in queue)) if k < window}
    order = sorted(range(len(queue)), key=lambda i: (queue[i].seed not in near,
                                                    -left[queue[i].seed] if queue[i].seed in near else 0, i))
    chosen: list[ScheduledGame] = []
    taken = set(in_play)
    for i in order:
        if len(chosen) >= free:
            break
        if queue[i].seed not in taken:
            chosen.append(queue[i])
            taken.add(queue[i].seed)
    return chosen


class LocalBackend:
    """``jobs`` games at once in threads of this process, each seat's bot in a worker process here. The
    rotations of one deal (games with one seed) never run at the same time: whatever their bots leave on
    the machine, no game of a deal is in play beside another of it. ``ahead``: start the games of the next
    deals by how many of their games are left (next_games), for runs that play every game and read them in
    any order (tournaments, strength); else in queue order, so deals end in order (sprt reads them so and
    stops at its decision)."""

    def __init__(self, jobs: int, ahead: bool = False) -> None:
        self.jobs = max(1, jobs)
        self.window = 4 * self.jobs if ahead else 0

    def __enter__(self) -> LocalBackend:
        return self

    def __exit__(self, *exc) -> None:
        pass

    def check(self, games: list[ScheduledGame], limits: Limits) -> None:
        """Any game runs on this machine."""

    def play(self, games: list[ScheduledGame], bots: Mapping[str, BotSource | str], hashes: dict[str, str],
             limits: Limits, note: Callable[[str], None]
             ) -> Generator[tuple[ScheduledGame, dict, dict | None], None, None]:
        allowed = stall_limit(limits)
        queue = list(games)
        finished: Queue[tuple[str, Heartbeat, tuple[dict, dict] | BaseException]] = Queue()
        running: dict[str, tuple[ScheduledGame, Heartbeat, threading.Thread]] = {}

        def referee_thread(game: ScheduledGame, beat: Heartbeat) -> None:
            try:
                outcome: tuple[dict, dict] | BaseException = run_game(game, bots, limits, beat.stop, beat)
            except BaseException as e:  # handed to the backend's thread
                outcome = e
            finished.put((game.id, beat, outcome))

        try:
            while queue or running:
                in_play = {g.seed for g, _, _ in running.values()}
                trees.expect(sum(g.num_players for g in queue))  # no tree made ahead for nobody
                for game in next_games(queue, in_play, self.jobs - len(running), self.window):
                    queue.remove(game)
                    beat = Heartbeat()
                    thread = threading.Thread(target=referee_thread, args=(game, beat), daemon=True,
                                              name=f"game {game.id}")
                    running[game.id] = (game, beat, thread)
                    thread.start()
                try:
                    game_id, beat, outcome = finished.get(timeout=0.5)
                except Empty:
                    game_id = ""
                for stalled, why in check_heartbeats({i: b for i, (_, b, _) in running.items()
                                                      if i != game_id}, allowed).items():
                    game, lost, _ = running.pop(stalled)  # its thread is left to end on its own
                    lost.abandon()
                    yield game, referee.failed_result(game, why), None
                if game_id not in running or running[game_id][1] is not beat:
                    continue  # an abandoned game that ended after all: already given up
                game = running.pop(game_id)[0]
                if isinstance(outcome, BaseException):
                    raise outcome
                yield (game, *outcome)
        except BaseException:  # an interrupt, an error, or the consumer closed us (GeneratorExit)
            for _, beat, _ in running.values():
                beat.stop.set()
            deadline = time.monotonic() + referee.WATCHDOG_GRACE
            while any(t.is_alive() for _, _, t in running.values()) and time.monotonic() < deadline:
                kill_all()  # again until every game thread is out: one may be starting a worker now (a
                time.sleep(0.2)  # stuck one is left)
            kill_all()
            raise
        finally:
            trees.expect(None)


def play_all(backend: Backend, games: list[ScheduledGame], bots: Mapping[str, BotSource | str],
             hashes: dict[str, str], limits: Limits, note: Callable[[str], None]
             ) -> Generator[tuple[ScheduledGame, dict, dict | None], None, None]:
    """``backend.play``, with each game that fails (its referee stalled) played again, up to
    ``referee.MAX_ATTEMPTS`` times in all; one that fails every time is yielded as its ``failed_result``
    (record None), for the caller to store: a stall never stops a run, and --resume never replays it."""
    attempts: dict[str, int] = {}
    while games:
        again = []
        with closing(backend.play(games, bots, hashes, limits, note)) as played:
            for game, result, record in played:
                if record is None:
                    attempts[game.id] = attempts.get(game.id, 1) + 1
                    if attempts[game.id] <= referee.MAX_ATTEMPTS:
                        note(f"game {game.id} failed ({result['failed']}); playing it again")
                        again.append(game)
                        continue
                    note(f"game {game.id} failed {referee.MAX_ATTEMPTS} times ({result['failed']}); "
                         "recorded as failed")
                yield game, result, record
        games = again


def make_backend(s: Settings) -> Backend:
    """The backend the settings name (``local`` or ``ray``)."""
    return backend_named(s.backend, s.jobs, s.address, ahead=True)  # a tournament plays every game


def backend_named(name: str, jobs: int = 1, address: str | None = None, ahead: bool = False) -> Backend:
    """``local`` (``jobs`` games at once here; ``ahead``: LocalBackend's) or ``ray`` (the cluster at
    ``address``); BadInput for a missing Ray or an address without Ray."""
    if name not in BACKENDS:
        raise BadInput(f"backend must be one of {', '.join(BACKENDS)}, not {name!r}")
    if name == "ray":
        return RayBackend(address)  # BadInput if Ray is not installed
    if address:
        raise BadInput("address is the Ray cluster's (auto or HOST:PORT) and needs backend ray")
    return LocalBackend(jobs, ahead)


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
    backend = backend or LocalBackend(jobs, ahead=True)
    stored = store.results(repair=True)
    done = {r["game"] for r in stored} | {f["game"] for f in store.failed(repair=True)}
    todo = [g for g in games if g.id not in done]
    ratings = Ratings(sorted(paths))  # for the bar only: completion order; the final table is exact
    for r in stored:
        ratings.update(r)
    every = report_every or max(10, len(games) // 10)
    bar = tqdm(total=len(games), initial=len(games) - len(todo), file=log, unit="game", disable=not progress,
               dynamic_ncols=True)
    try:
        note = lambda text: bar.write(text, file=log)  # noqa: E731 - a message that keeps the bar intact
        with closing(play_all(backend, todo, paths, hashes, limits, note)) as played:
            since_report, last_report = 0, time.monotonic()
            for game, result, record in played:
                result = {**result, "sha256": [hashes[b] for b in game.bots]}
                if record is None:
                    store.add_failed(result)
                    bar.update(1)
                    continue
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
            failed = store.failed()
            if failed:
                print(f"{len(failed)} game(s) failed (not rated): "
                      + "; ".join(f"{f['game']}: {f['failed']}" for f in failed[:5]), file=log)
            if len(results) < len(games):
                print(f"standings of the {len(results)} stored games of {len(games)}:", file=out)
            print(format_report(results, sorted(paths), width), file=out)
    return standings
