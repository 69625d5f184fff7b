"""Games on a Ray cluster (``--backend ray``): one Ray task per game, the driver the only writer.

Each game is a Ray task that checks the bots it was sent (content + sha256) and calls the very function
the local backend calls (``referee.run_game``, for ``tournament``, ``strength`` and ``sprt`` alike, under
the same watchdog: ``referee.run_watched``), so the same seed gives the same games on any backend and
cluster size. The driver ships its own ``alhambra_ai`` package with the job (a Ray runtime_env), so every
node runs the driver's engine and referee; nodes need Python and Ray of the driver's versions (and what
the bots import).

A game asks for one CPU (the sandbox runs a game's bot workers on one CPU, one move at a time) and
``seats x --memory`` of memory, so Ray never puts more games on a node than it has room for; on the node
it takes a CPU no other game holds. A game lost with its Ray worker or node (a kill, the node's OOM
killer, the node dying) is played again from the start, at most ``MAX_RERUNS`` times; only the copy
that finishes is returned, so it is counted once.

Ray is optional (``pip install -e ".[ray]"``): nothing here imports it before a backend is made.
"""

from __future__ import annotations

import fcntl
import logging
import os
import tempfile
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import alhambra_ai
from alhambra_ai.errors import BadInput
from alhambra_ai.sandbox.process import BotSource

from .referee import Limits, run_watched
from .schedule import ScheduledGame

INSTALL = 'the ray backend needs Ray, which is not installed: pip install -e ".[ray]" (or pip install ray)'
MAX_RERUNS = 3  # a game lost more often than this stops the run (resume continues it)

T = TypeVar("T")  # RayBackend.map: an item (a game) and
R = TypeVar("R")  # what its task returns


class ClusterError(BadInput):
    """The cluster cannot play the games (unreachable, too small, losing games): one line for the user."""


def import_ray():
    """The ``ray`` module, or BadInput saying how to install it."""
    try:
        import ray  # here, not at the top: Ray is optional, and only the runs on a cluster need it
    except ImportError:
        raise BadInput(INSTALL) from None
    return ray


class DamagedInTransit(Exception):
    """A bot file's content reached a node with another sha256: that game is lost and played again."""


def pack_bots(bots: Mapping[str, BotSource | str], hashes: dict[str, str] | None = None
              ) -> dict[str, tuple[BotSource, str]]:
    """Each bot's content (read once here) with its sha256, as it travels to the nodes; with ``hashes``,
    a file that no longer matches them is refused.

    >>> import tempfile, os; d = tempfile.mkdtemp(); p = os.path.join(d, "b.py"); _ = open(p, "w").write("x")
    >>> pack_bots({"b": p})["b"][1][:12]
    '2d711642b726'
    """
    packed: dict[str, tuple[BotSource, str]] = {}
    for name, bot in bots.items():
        source = bot if isinstance(bot, BotSource) else BotSource.from_file(bot)
        digest = source.sha256
        if hashes is not None and hashes.get(name, digest) != digest:
            raise BadInput(f"bot file {source.origin or name} changed since the run started (sha256 differs)")
        packed[name] = (source, digest)
    return packed


def received(bots: dict[str, tuple[BotSource, str]]) -> dict[str, BotSource]:
    """The bots as they arrived on this node, each checked against the sha256 it was sent with. (Nothing
    is written to disk: the referee hands each worker its bot's source over the protocol.)"""
    for name, (source, digest) in bots.items():
        if source.sha256 != digest:
            raise DamagedInTransit(f"bot {name} arrived on this node damaged (sha256 differs)")
    return {name: source for name, (source, _) in bots.items()}


@contextmanager
def node_cpu() -> Iterator[int | None]:
    """Hold a CPU of this machine that no other game holds, and narrow this thread to it (the referee, and
    through ``process.take_cpu`` the game's bot workers, then run there). Ray counts a node's CPUs but
    does not say which one a task may use; a lock file per CPU, freed when its holder ends, does."""
    if not hasattr(os, "sched_getaffinity"):
        yield None
        return
    before = os.sched_getaffinity(0)
    locks = Path(tempfile.gettempdir()) / f"alhambra-ai-cpus-{os.getuid()}"
    locks.mkdir(mode=0o700, exist_ok=True)
    for cpu in sorted(before):
        fd = os.open(locks / str(cpu), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        try:
            os.sched_setaffinity(0, {cpu})
            yield cpu
        finally:
            os.sched_setaffinity(0, before)
            os.close(fd)  # frees the lock
        return
    yield None  # every CPU is held: the node declared more CPUs than the machine has; run unpinned


def run_on_node(fn: Callable, bots: dict[str, tuple[BotSource, str]], item, *args):
    """The body of every Ray task: ``fn(item, bots, *args)`` with the bots checked, on a CPU of its own."""
    checked = received(bots)
    with node_cpu():
        return fn(item, checked, *args)


def _nothing(item, bots) -> None:
    """A warm-up task: it only makes Ray start a worker for the job."""


def job_runtime_env(extra: dict | None = None) -> dict:
    """The Ray runtime_env of a job: this ``alhambra_ai`` package travels with it (plus ``extra``)."""
    env = dict(extra or {})
    env["py_modules"] = [str(Path(alhambra_ai.__file__).resolve().parent), *env.get("py_modules", [])]
    env.setdefault("excludes", ["__pycache__/"])
    return env


def game_resources(num_players: int, memory_mb: int | None) -> dict:
    """A game's request: one CPU (the sandbox runs all of a game's bot workers on one CPU and stops each
    between its moves, so a seat never computes on another's clock) and the seats' memory caps."""
    request: dict = {"num_cpus": 1}
    if memory_mb:
        request["memory"] = num_players * memory_mb * 1024 * 1024
    return request


class RayBackend:
    """Play games as Ray tasks on the cluster at ``address`` (``auto``, ``HOST:PORT``; None: the cluster
    running on this machine if any, else a new one here). A context manager: it connects on entry and
    disconnects on exit, unless this process was connected to Ray already (then it uses that job).

    ``runtime_env`` adds to the job's Ray runtime_env (the tests use it to make the nodes play a toy game).
    """

    def __init__(self, address: str | None = None, runtime_env: dict | None = None) -> None:
        self.ray = import_ray()
        self.address, self.extra_env = address, runtime_env
        self.connected_here, self.depth = False, 0
        self._window, self._window_at = 0, 0.0

    def __enter__(self) -> RayBackend:
        ray = self.ray
        self.depth += 1  # re-entrant: a caller may hold the connection across several tournaments
        if not ray.is_initialized():
            try:
                ray.init(address=self.address, runtime_env=job_runtime_env(self.extra_env),
                         logging_level=logging.WARNING, log_to_driver=False)
            except (ConnectionError, RuntimeError, ValueError) as e:
                where = self.address or "this machine"
                first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
                self.depth -= 1
                raise ClusterError(f"cannot start or reach the Ray cluster at {where}: {first}") from None
            self.connected_here = True
        self.remote = ray.remote(max_retries=0)(run_on_node)  # lost games are re-run by map(), visibly
        return self

    def __exit__(self, *exc) -> None:
        self.depth -= 1
        if self.connected_here and self.depth == 0:
            self.ray.shutdown()
            self.connected_here = False

    def check(self, games: list[ScheduledGame], limits: Limits) -> None:
        """Refuse games no node can hold (Ray would wait for such a node forever); then start the job's
        workers, so that they are up when the first games come (the driver checks the bots meanwhile)."""
        self.check_fits([game_resources(n, limits.memory_mb) for n in sorted({g.num_players for g in games})])
        cpus = int(self.ray.cluster_resources().get("CPU", 0))
        self.warming = [self.remote.options(num_cpus=1).remote(_nothing, {}, None)
                        for _ in range(min(cpus, len(games)))]

    def check_fits(self, requests: Iterable[dict]) -> None:
        nodes = [n["Resources"] for n in self.ray.nodes() if n.get("Alive")]
        for req in requests:
            cpus, memory = req["num_cpus"], req.get("memory", 0)
            if not any(r.get("CPU", 0) >= cpus and r.get("memory", 0) >= memory for r in nodes):
                most_cpu = max((r.get("CPU", 0) for r in nodes), default=0)
                most_mb = max((r.get("memory", 0) for r in nodes), default=0) // 2**20
                want = f"{cpus:g} CPU" + ("s" if cpus != 1 else "") + (
                    f" and {memory // 2**20} MB of memory" if memory else "")
                raise ClusterError(f"a game here needs {want} on one node, and no Ray node has that "
                                   f"(largest: {most_cpu:g} CPUs, {most_mb:g} MB); start bigger nodes "
                                   "(ray start --num-cpus N) or lower --memory")

    def play(self, games: list[ScheduledGame], bots: Mapping[str, BotSource | str], hashes: dict[str, str],
             limits: Limits, note: Callable[[str], None]
             ) -> Generator[tuple[ScheduledGame, dict, dict | None], None, None]:
        """The runner's backend interface: ``referee.run_game`` per game on the cluster."""
        files = pack_bots(bots, hashes)
        for game, (result, record) in self.map(run_watched, games, files, (limits,),
                                               lambda g: game_resources(g.num_players, limits.memory_mb),
                                               note, label=lambda g: f"game {g.id}", apart=lambda g: g.seed):
            yield game, result, record

    def map(self, fn: Callable[..., R], items: list[T], files: dict[str, tuple[BotSource, str]], args: tuple,
            resources: Callable[[T], dict], note: Callable[[str], None],
            label: Callable[[T], str] = str, apart: Callable[[T], object] | None = None
            ) -> Generator[tuple[T, R], None, None]:
        """Yield ``(item, fn(item, bots, *args))`` as the tasks finish, ``bots`` the checked ``files``.

        Tasks are submitted in order, a few more than the cluster can run at once, but never two items of
        one ``apart`` key at once (a deal's rotations); closing the iterator (an interrupt) cancels every
        task still running, killing its processes.
        """
        ray = self.ray
        lost_errors = (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError,
                       ray.exceptions.OutOfMemoryError, ray.exceptions.ObjectLostError, DamagedInTransit)
        files_ref = ray.put(files)  # sent once to each node that plays a game
        queue = deque(items)
        running: dict[object, T] = {}  # each task's ObjectRef: its item
        lost: dict[str, int] = {}      # times each item was lost
        try:
            while queue or running:
                in_play = {apart(i) for i in running.values()} if apart else set()
                for item in list(queue):
                    if len(running) >= self.window():
                        break
                    if apart is not None and apart(item) in in_play:
                        continue
                    queue.remove(item)
                    if apart is not None:
                        in_play.add(apart(item))
                    ref = self.remote.options(**resources(item)).remote(fn, files_ref, item, *args)
                    running[ref] = item
                finished, _ = ray.wait(list(running), num_returns=1, timeout=1.0)
                for ref in finished:
                    item = running.pop(ref)
                    try:
                        value = ray.get(ref)
                    except lost_errors as e:
                        name = label(item)
                        lost[name] = lost.get(name, 0) + 1
                        why = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
                        if lost[name] > MAX_RERUNS:
                            raise ClusterError(f"{name} was lost {lost[name]} times (last: {why}); "
                                               "stopping: check the cluster, then resume") from None
                        note(f"{name} lost ({type(e).__name__}: {why}); playing it again")
                        queue.appendleft(item)
                        continue
                    except ray.exceptions.RayTaskError as e:  # the game's own error: as with local jobs
                        raise (e.cause if isinstance(e.cause, BaseException) else e) from None
                    yield item, value
        except BaseException:  # an interrupt, an error, or the consumer closed us (GeneratorExit)
            for ref in running:
                ray.cancel(ref, force=True)
            raise

    def window(self) -> int:
        """Tasks kept submitted: twice the cluster's CPUs (rechecked every 10 s: nodes come and go)."""
        if time.monotonic() - self._window_at > 10:
            cpus = self.ray.cluster_resources().get("CPU", 0)
            self._window, self._window_at = max(4, int(2 * cpus)), time.monotonic()
        return self._window
