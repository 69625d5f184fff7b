"""The bot sandbox (issues 15 and 41): every attack class is contained, honest bots are unaffected,
nothing survives.

The attack bots (tests/attack_bots/, one per attack class) raise "ESCAPED: ..." when their attack works.
Each is played against honest bots on the tests' ToyGame; most are also played without the sandbox,
to show the attack is real and the test can fail. After each game nothing of it may be left: no process,
no System V object, no cgroup, no private directory.
"""

import ctypes
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import replace

import pytest
from tournament_support import GOOD, HERE, use_toy_game

from alhambra_ai.arena.config import Settings
from alhambra_ai.arena.referee import Limits, run_game
from alhambra_ai.arena.runner import run_tournament
from alhambra_ai.arena.schedule import ScheduledGame
from alhambra_ai.arena.store import load_results
from alhambra_ai.sandbox import cgroup, process
from alhambra_ai.sandbox import launch as sandbox
from alhambra_ai.sandbox.launch import Isolation
from alhambra_ai.sandbox.process import PRIVATE_PREFIX, BotProcess, BotSource, _referee_tag, live_count

ATTACK = HERE / "attack_bots"
ATTACKS = sorted(p.stem for p in ATTACK.glob("*.py"))
LIMITS = Limits(move_time=1.0, time_bank=2.0, memory_mb=256, setup_time=20)
FULL = process.isolation()
needs_full_sandbox = pytest.mark.skipif(bool(FULL.missing()), reason=f"this machine's {FULL.summary()}")


@pytest.fixture(autouse=True)
def toy(monkeypatch, tmp_path):
    use_toy_game(monkeypatch)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # workers' private dirs: survivors are findable


@pytest.fixture
def out(tmp_path):
    """A tournament output directory holding secrets (protected like a real results store)."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "tournament.json").write_text('{"seed": 8913728172}\n')
    (out / "results.jsonl").write_text('{"game": "g00001", "seed": 4242}\n')
    sandbox.protect(out)
    return out


_libc = ctypes.CDLL(None, use_errno=True)
IPC_RMID, IPC_KINDS = 0, ("shm", "msg", "sem")


def sysv_objects(key: int | None = None) -> set[tuple[str, int]]:
    """The host's System V objects (kind, id), or those of the keys ``key``..``key + 10``."""
    found = set()
    for kind in IPC_KINDS:
        try:
            with open(f"/proc/sysvipc/{kind}") as f:
                rows = [r.split() for r in f.read().splitlines()[1:]]
        except OSError:
            continue
        found |= {(kind, int(r[1])) for r in rows if key is None or key <= int(r[0]) <= key + 10}
    return found


def remove_sysv(objects) -> None:
    for kind, ident in objects:
        {"shm": _libc.shmctl, "msg": _libc.msgctl}.get(kind, lambda i, c, b: _libc.semctl(i, 0, c))(
            ident, IPC_RMID, None)


def worker_cgroups() -> list[str]:
    """The worker cgroups of this process (other test runs on the machine have their own)."""
    mine = f"{cgroup.PREFIX}{_referee_tag(os.getpid())}-"
    return sorted(e for d in cgroup.parents().values() if os.path.isdir(d) for e in os.listdir(d)
                  if e.startswith(mine))


@pytest.fixture
def host(tmp_path):
    """What the attack bots aim at on the host: SysV keys of their own, a listening Unix socket and TCP
    port, one SysV segment of 'another program'. Afterwards the test's SysV objects are removed, whatever
    happened (the unsandboxed controls leave theirs)."""
    key = random.randrange(0x41A00000, 0x41AFFFF0)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(tmp_path / "host.sock"))
    sock.listen(8)
    tcp = socket.create_server(("127.0.0.1", 0))
    victim = _libc.shmget(key + 5, 4096, 0o1000 | 0o600)
    before = sysv_objects() - {("shm", victim)}
    stop = threading.Event()

    def serve(s):
        s.settimeout(0.1)
        while not stop.is_set():
            try:
                s.accept()[0].close()
            except OSError:
                pass

    servers = [threading.Thread(target=serve, args=(s,), daemon=True) for s in (sock, tcp)]
    for t in servers:
        t.start()
    yield {"@KEY@": str(key), "@SOCKET@": str(tmp_path / "host.sock"), "@PORT@": str(tcp.getsockname()[1]),
           "before": before, "key": key}
    stop.set()
    for t in servers:
        t.join()
    sock.close()
    tcp.close()
    remove_sysv(sysv_objects(key))


def attacker(name: str, out, host: dict | None = None) -> BotSource:
    text = (ATTACK / f"{name}.py").read_text()
    targets = os.pathsep.join(str(GOOD / f) for f in ("first.py", "sleepy.py"))
    fills = {"@OUT@": str(out), "@REFEREE@": str(os.getpid()), "@TARGETS@": targets, "@KEY@": "0",
             "@SOCKET@": "/nonexistent", "@PORT@": "9"}
    fills.update({k: v for k, v in (host or {}).items() if k.startswith("@")})
    for key, value in fills.items():
        text = text.replace(key, value)
    return BotSource(name, text.encode())


def play(source: BotSource, lineup: tuple[str, ...] | None = None, games: int = 1) -> dict:
    """``games`` games of ``lineup`` (default: the attacker, then an honest bot); the last one's result
    with the forfeits of all."""
    honest = "sleepy" if source.name == "threads" else "first"  # threads needs time between its moves
    lineup = lineup or LINEUPS.get(source.name, (source.name, honest))
    bots = {source.name: source, **{b: BotSource.from_file(GOOD / f"{b}.py") for b in lineup
                                    if b != source.name}}
    forfeits = []
    for g in range(games):
        result, _ = run_game(ScheduledGame(f"g{g + 1:05d}", lineup, 5), bots, LIMITS)
        forfeits += result["forfeits"]
    return {**result, "forfeits": forfeits}


# Attacks that need company: two colluding copies, or an honest seat whose set-up comes first and is slow.
LINEUPS = {"collude": ("collude", "collude", "first"), "early": ("slow_setup", "early")}
GAMES = {"sysv": 2, "rotation": 2}  # the deal's memory shows in the second game


def play_attack(name: str, out, host: dict) -> dict:
    return play(attacker(name, out, host), games=GAMES.get(name, 1))


def attack_seats(name: str) -> set[int]:
    lineup = LINEUPS.get(name, (name, "first"))
    return {k for k, b in enumerate(lineup) if b == name}


def left_behind(tmp_path, host: dict) -> list[str]:
    """What the run left: processes, SysV objects, worker cgroups, private directories."""
    left = [f"process {p}" for p in kill_survivors(tmp_path)]
    left += [f"SysV {kind} {ident}" for kind, ident in sysv_objects() - host["before"]
             if not (kind == "shm" and (kind, ident) in sysv_objects(host["key"] + 5))]
    left += [f"cgroup {c}" for c in worker_cgroups()]
    process.drain_removals()  # the games' trees of links go in the background
    left += [f"directory {p.name}" for p in tmp_path.glob(f"{PRIVATE_PREFIX}*")]
    return left


def escapes(result: dict) -> list[str]:
    return [f["detail"].splitlines()[0] for f in result["forfeits"] if "ESCAPED" in f["detail"]]


def survivors(tmp_path) -> list[str]:
    """Processes started for this test (their environment or working directory names its private
    directories: a worker's HOME and cwd are its private directory)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                environ = f.read()
            with open(f"/proc/{pid}/stat") as f:
                zombie = f.read().rsplit(")", 1)[1].split()[0] == "Z"
        except OSError:
            continue
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            cwd = ""
        if (str(tmp_path).encode() in environ or cwd.startswith(str(tmp_path))) and not zombie:
            found.append(pid)
    return found


def kill_survivors(tmp_path, grace: float = 3.0) -> list[str]:
    """Processes of this test still alive after ``grace`` seconds (time for SIGKILLed ones to end): killed."""
    deadline = time.monotonic() + grace
    while (found := survivors(tmp_path)) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid in found:
        try:
            os.kill(int(pid), 9)
        except OSError:
            pass
    return found


@needs_full_sandbox
@pytest.mark.parametrize("name", ATTACKS)
def test_attack_is_contained(name, out, tmp_path, host):
    result = play_attack(name, out, host)
    assert escapes(result) == []
    assert not any(f["reason"] == "load error" for f in result["forfeits"])  # the attack did run
    assert {f["seat"] for f in result["forfeits"]} <= attack_seats(name)  # honest seats play their games
    assert sum(result["scores"]) >= 24
    assert left_behind(tmp_path, host) == [] and live_count() == 0


CONTROLS = ["leak", "signals", "proc", "tamper", "plant", "forkbomb", "memsplit", "sysv", "collude", "hoard",
            "sockets", "rotation", "chmod"]


@pytest.mark.parametrize("name", CONTROLS)
def test_attack_works_without_the_sandbox(name, out, tmp_path, host, monkeypatch):
    monkeypatch.setattr(process, "_isolation", Isolation(False, 0, False))
    result = play_attack(name, out, host)
    assert escapes(result), result["forfeits"]
    assert kill_survivors(tmp_path) == []


def test_a_bot_cannot_jam_its_own_input(out, tmp_path, monkeypatch):
    """stall.py reopens its protocol input through /proc/self/fd, fills it and stops reading: on the
    socket pair it cannot reopen it, and every write runs under the move's clock, so it forfeits within its
    move time plus bank and the game completes. Shown real with the old pipes and blocking writes: the
    referee's write never returns (and no clock runs during it)."""
    started = time.monotonic()
    result = play(attacker("stall", out))
    assert [(f["seat"], f["reason"]) for f in result["forfeits"]] in ([(0, "times out")],
                                                                       [(0, "stalls its input")])
    assert time.monotonic() - started < LIMITS.move_time + LIMITS.time_bank + 15
    assert sum(result["scores"]) >= 24 and kill_survivors(tmp_path) == []

    monkeypatch.setattr(process, "BLOCKING_PIPES", True)

    def jammed() -> None:
        try:
            play(attacker("stall", out))
        except Exception:  # freed by kill_all: the old referee's write fails as it may
            pass

    game = threading.Thread(target=jammed, daemon=True)
    game.start()
    game.join(LIMITS.move_time + LIMITS.time_bank + 10)
    stuck = game.is_alive()
    process.kill_all()  # frees the referee: its write fails, the seat forfeits, the game ends
    game.join(20)
    assert stuck, "with blocking pipes the referee's write should have hung"
    assert kill_survivors(tmp_path) == []


def test_no_bot_code_runs_before_its_own_set_up(out, tmp_path, host, monkeypatch):
    """A thread started when the bot's file is imported runs only on the bot's own clock. Shown real by
    importing every seat's file at once when the workers start, as the referee did before issue 41."""
    assert escapes(play_attack("early", out, host)) == []
    begin = BotProcess.begin
    started = {}

    def eager(self, timeout):
        if id(self) in started:
            return 0.0
        started[id(self)] = begin(self, timeout)
        self._group_signal(signal.SIGCONT)  # and left running, as a worker was until its first request
        return 0.0

    monkeypatch.setattr(BotProcess, "__init__", _then(BotProcess.__init__, lambda self: eager(self, 20)))
    monkeypatch.setattr(BotProcess, "begin", eager)
    assert escapes(play_attack("early", out, host)), "importing at start should have let it compute early"
    assert kill_survivors(tmp_path) == []


def _then(first, after):
    def both(self, *args, **kwargs):
        first(self, *args, **kwargs)
        after(self)
    return both


def test_a_daemon_escapes_only_without_the_sandbox(out, tmp_path, monkeypatch):
    if not FULL.missing():
        play(attacker("daemon", out))
        assert kill_survivors(tmp_path) == []
    monkeypatch.setattr(process, "_isolation", Isolation(False, 0, False))
    play(attacker("daemon", out))
    assert kill_survivors(tmp_path, grace=0), "without the sandbox the daemon should have survived its game"


@needs_full_sandbox
def test_the_worker_reports_the_isolation_in_force():
    with BotProcess(GOOD / "first.py", 256) as proc:
        proc.request(None, 20)
        assert proc.isolation == FULL
    assert FULL.namespaces and FULL.landlock and FULL.seccomp


IN_TOURNAMENT = ("tamper", "daemon", "protocol", "early", "cleanup")


@needs_full_sandbox
@pytest.mark.parametrize("names", [
    pytest.param(IN_TOURNAMENT, id="some"),
    pytest.param((*ATTACKS, "collude2"), id="all", marks=[pytest.mark.slow]),
])
def test_honest_results_are_those_of_a_run_without_attackers(names, tmp_path, host):
    """A tournament with attackers: honest bots play all their games, their games against each other
    are the same as in a run without the attackers, the store reads back whole, nothing is left. (With
    all of them, two copies of the colluder meet, and the deal-memory bot plays many games.)"""
    honest = [GOOD / "first.py", GOOD / "last.py", GOOD / "seeded.py"]
    out = tmp_path / "attacked"
    attackers = []
    for name in names:
        path = tmp_path / "bots" / f"{name}.py"
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(attacker(name.rstrip("2"), out, host).code)
        attackers.append(path)
    base = Settings(seats="2", games=1, seed=11, move_time=1.0, time_bank=2.0, memory=256, setup_time=20,
                    jobs=2)
    devnull = open(os.devnull, "w")
    run_tournament(replace(base, bots=tuple(map(str, honest)), out=str(tmp_path / "clean")),
                   progress=False, out=devnull, log=devnull)
    run_tournament(replace(base, bots=tuple(map(str, honest + attackers)), out=str(out)),
                   progress=False, out=devnull, log=devnull)

    def honest_games(results):
        names = {p.stem for p in honest}
        return sorted((tuple(r["bots"]), r["seed"], tuple(r["scores"]), tuple(r["ranks"])) for r in results
                      if set(r["bots"]) <= names)

    clean, attacked = load_results(tmp_path / "clean"), load_results(out)
    n = len(honest) + len(attackers)
    assert len(attacked) == n * (n - 1) and honest_games(attacked) == honest_games(clean) != []
    assert all(f["bot"] in names for r in attacked for f in r["forfeits"])
    assert not any("ESCAPED" in f["detail"] for r in attacked for f in r["forfeits"])
    assert any(f["reason"] == "protocol error" for r in attacked for f in r["forfeits"])
    assert left_behind(tmp_path, host) == [] and live_count() == 0


DEGRADED = {  # what each layer alone leaves open (the README's "Security model")
    # private dir on disk: only its file-size cap limits what a bot writes
    # and the same directories for every game: what one game looked up, the next can time (lookups)
    # (and the mode, owner and times of the host's files it reaches: Landlock does not cover them)
    "no namespaces": (Isolation(False, FULL.landlock, FULL.seccomp, FULL.cgroup),
                      {"disk", "rotation", "chmod"}),
    # no cgroup (an operator who is not root): seccomp refuses threads, memfd, SysV instead; nothing opens
    "no cgroup": (Isolation(True, FULL.landlock, FULL.seccomp, False), set()),
    # namespaces alone: processes (dying with the namespace), locks and inotify on public files, the page
    # cache (fadvise, mincore), resources no rlimit counts; its own root holds no writable host path and no
    # host socket, and SysV IPC is the namespace's own
    "namespaces only": (Isolation(True, 0, False), {"forkbomb", "memsplit", "collude", "hoard", "rotation"}),
}


@pytest.mark.slow
@needs_full_sandbox
@pytest.mark.parametrize("mode", sorted(DEGRADED))
@pytest.mark.parametrize("name", ATTACKS)
def test_what_each_layer_alone_leaves_open(name, mode, out, tmp_path, host, monkeypatch):
    """Each degraded mode closes what the README says it closes, and leaves nothing behind."""
    plan, open_attacks = DEGRADED[mode]
    monkeypatch.setattr(process, "_isolation", plan)
    result = play_attack(name, out, host)
    assert bool(escapes(result)) == (name in open_attacks), result["forfeits"]
    assert {f["seat"] for f in result["forfeits"]} <= attack_seats(name)
    if name in open_attacks:  # a control may leave host SysV objects (removed by the fixture) or processes
        kill_survivors(tmp_path)
    else:
        assert left_behind(tmp_path, host) == []


@needs_full_sandbox
@pytest.mark.parametrize("name", ["hoard", "threads", "memsplit", "sysv"])
def test_without_a_cgroup_what_it_cannot_count_is_refused(name, out, tmp_path, host, monkeypatch):
    """The operator who cannot make cgroups (not root, nothing delegated) gets no threads, memfd or SysV
    IPC in the workers instead; the default run covers it because that is most users' mode."""
    monkeypatch.setattr(process, "_isolation", DEGRADED["no cgroup"][0])
    result = play_attack(name, out, host)
    assert escapes(result) == []
    assert left_behind(tmp_path, host) == []


def test_concurrent_games_get_different_cpus(tmp_path, monkeypatch):
    monkeypatch.setattr(process, "CPU_LOCKS", tmp_path / "cpus")  # no games of other processes
    everyone = sorted(os.sched_getaffinity(0))
    taken = [process.take_cpu() for _ in everyone]
    try:
        assert sorted(taken) == everyone  # the least used first: no two games share a CPU while one is free
    finally:
        for cpu in taken:
            process.give_cpu(cpu)


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs")
def test_games_of_another_process_count_when_choosing_a_cpu(tmp_path, monkeypatch):
    # two tournaments started side by side must not pin all their games to the same CPU
    monkeypatch.setattr(process, "CPU_LOCKS", tmp_path / "cpus")
    code = ("import sys; from pathlib import Path; from alhambra_ai.sandbox import process; "
            f"process.CPU_LOCKS = Path({str(tmp_path / 'cpus')!r}); "
            "print(process.take_cpu(), flush=True); sys.stdin.read()")
    other = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True)
    try:
        theirs = int(other.stdout.readline())
        mine = process.take_cpu()
        process.give_cpu(mine)
        assert mine != theirs
    finally:
        other.stdin.close()
        other.wait(10)
    again = process.take_cpu()  # the other process ended: its lock went with it
    process.give_cpu(again)
    assert again == min(os.sched_getaffinity(0))


def test_a_bot_may_use_its_scratch_space_and_threads_but_not_change_its_file():
    code = b"""
import os, tempfile, threading
class Bot:
    def setup(self, config):
        try:
            open(__file__, "a").close()
        except OSError:
            pass
        else:
            raise RuntimeError("ESCAPED: its own file is writable")
        with open("notes.txt", "w") as f:
            f.write("x" * 100000)
        with tempfile.TemporaryFile() as f:
            f.write(b"y" * 100000)
        t = threading.Thread(target=sum, args=(range(1000),))
        t.start()
        t.join()
    def act(self, obs):
        return obs.legal_actions[0]
"""
    result = play(BotSource("scratch", code))
    assert result["forfeits"] == []


@needs_full_sandbox
def test_a_bot_imports_the_standard_library_and_numpy_but_not_the_hidden_tools():
    """The read set leaves out test suites and code-building tools (sandbox.STDLIB_HIDDEN, NUMPY_HIDDEN:
    an empty directory in their place, so only their modules fail to import); what a bot may use stays
    importable."""
    code = b"""
import importlib
USED = ("json", "collections", "itertools", "functools", "heapq", "math", "random", "statistics", "typing",
        "dataclasses", "enum", "re", "pickle", "copy", "bisect", "array", "struct", "time", "datetime",
        "decimal", "fractions", "concurrent.futures", "multiprocessing", "threading", "unittest", "ctypes",
        "asyncio", "email", "xml.etree.ElementTree", "sqlite3", "csv", "zlib", "hashlib", "numpy",
        "numpy.linalg", "numpy.random", "numpy.fft", "numpy.polynomial")
HIDDEN = ("lib2to3.refactor", "distutils.core", "ctypes.test.test_arrays",
          "unittest.test.test_case", "numpy.f2py.crackfortran", "numpy.distutils.core", "test.support")
class Bot:
    def setup(self, config):
        for name in USED:
            importlib.import_module(name)
        for name in HIDDEN:
            try:
                importlib.import_module(name)
            except ImportError:
                continue
            raise RuntimeError("ESCAPED: hidden " + name + " imported")
    def act(self, obs):
        return obs.legal_actions[0]
"""
    assert play(BotSource("imports", code))["forfeits"] == []


def test_the_probe_gets_all_that_the_machine_offers():
    """A sandbox that silently fell back (a bug in a confinement step) would skip the tests above."""
    assert FULL.missing() == sandbox.offered().missing()


MEMFD_BOT = b"""
import os
class Bot:
    def setup(self, config):
        fds, held = [], 0  # files of 48 MB, under the file-size cap
        for k in range(768):
            if k % 48 == 0:
                fds.append(os.memfd_create("hoard"))
            os.write(fds[-1], b"x" * (1 << 20))
            held += 1
        raise RuntimeError(f"ESCAPED: held {held} MB in a memfd file under a 256 MB cap")
    def act(self, obs):
        return obs.legal_actions[0]
"""
THREADS_BOT = b"""
import ctypes, threading
class Bot:
    def setup(self, config):
        ctypes.CDLL(None).mallopt(-8, 1)  # M_ARENA_MAX: no 64 MB arena reserved per thread
        threading.stack_size(64 << 10)
        stop, n = threading.Event(), 0
        try:
            for _ in range(1200):
                threading.Thread(target=stop.wait, daemon=True).start()
                n += 1
        except RuntimeError:
            pass
        stop.set()
        if n > 64:
            raise RuntimeError(f"ESCAPED: {n} threads")
    def act(self, obs):
        return obs.legal_actions[0]
"""


@pytest.mark.skipif(not FULL.cgroup, reason="needs cgroups (root or a delegated subtree)")
def test_the_cgroup_counts_what_no_rlimit_does(tmp_path, monkeypatch):
    """Memory in memfd files and threads, with seccomp off so that only the cgroup stands in the way: the
    memfd hoarder is killed at its cap (a forfeit for memory), the threads stop at the task cap; without
    the cgroup both get through."""
    for cgroup_on in (True, False):
        monkeypatch.setattr(process, "_isolation", Isolation(True, 0, False, cgroup_on))
        memfd = play(BotSource("memfd", MEMFD_BOT))["forfeits"]
        threads = play(BotSource("threads", THREADS_BOT))["forfeits"]
        if cgroup_on:
            assert [(f["reason"], f["detail"]) for f in memfd] == [
                ("exceeds memory", "killed at its memory cap (cgroup)")]
            assert threads == []
        else:
            assert "ESCAPED" in memfd[0]["detail"] and "ESCAPED" in threads[0]["detail"]
        assert kill_survivors(tmp_path) == [] and worker_cgroups() == []


def test_no_tree_is_made_ahead_for_a_worker_that_will_not_come(tmp_path):
    """A run says how many workers are still to start (runner.LocalBackend: the players of the games
    queued); the pool makes trees ahead for those only, so none is left to remove when the run ends."""
    pool = process.TreePool()
    pool.expect(3)
    first = pool.take()  # starts the builder; two more workers are coming
    if first is None:
        pytest.skip("hard links cannot be made here (the workers read the originals)")
    taken = [first]
    try:
        deadline = time.monotonic() + 60
        while len(pool.ready) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(pool.ready) == 2
        taken += [pool.take(), pool.take()]
        time.sleep(1.0)  # the builder is woken by each take: it must make nothing now
        assert len(pool.ready) == 0 and pool.coming == 0
    finally:
        pool.expect(None)
        pool.clear()
        for path in taken:
            shutil.rmtree(path or "/nonexistent", ignore_errors=True)


def test_draining_removes_the_trees_given_back_itself(tmp_path):
    """At exit the trees given back are removed by the exiting thread too: the remover runs at idle
    priority and on a busy machine may not run for a long time."""
    paths = []
    for k in range(3):
        path = tmp_path / f"tree{k}" / "a" / "b"
        path.mkdir(parents=True)
        (path / "file").write_text("x")
        paths.append(tmp_path / f"tree{k}")
    for path in paths:
        process._removals.put(str(path))  # given back, with or without a remover thread running
    assert process.drain_removals(5.0)
    assert not any(p.exists() for p in paths)
