"""The referee side of a bot worker: spawn (sandboxed), talk with deadlines, classify failures, always kill.

The protocol runs over a Unix socket pair (the worker's fds 0 and 1), non-blocking on the referee's side:
every request is sent while the reply is awaited, both under the request's deadline, so no worker can hold
the referee in a write (a worker whose input does not drain forfeits: "stalls its input").

Every worker runs in its own session (process group) and, where the machine allows, its own PID
namespace (sandbox.py), so killing the group kills everything the bot runs. Between requests the
group is stopped (SIGSTOP): a bot computes only on its own clock. Live workers are registered so an
interrupted tournament can kill them all.

``BotProcess`` takes the bot as a ``BotSource`` (name + file content, hashed): the worker is sent that
content, so a bot file is read once, and the same call works where only the content travels.

Here too, because BotProcess is what uses them: ``isolation()``, the sandbox this process's workers get
(found once by starting probe workers with sandbox.py's plans), and the CPU slots (``take_cpu``,
``give_cpu``): which CPU a game's workers run on.
"""

from __future__ import annotations

import atexit
import base64
import fcntl
import hashlib
import itertools
import json
import os
import queue
import select
import shutil
import signal
import socket
import stat
import subprocess
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from alhambra_ai.bot.api import bot_name

from . import cgroup
from . import launch as sandbox
from .launch import Isolation, SandboxError

MAX_BOT_BYTES = 16 << 20  # a bot file larger than this is refused before any worker starts
MAX_LINE = 1 << 20  # a reply longer than this is a protocol error, not a reason to eat all memory
STDERR_TAIL = 2000
PRIVATE_PREFIX = "alhambra-bot-"  # + _referee_tag + "-": a worker's private directory names its referee
TREE_PREFIX = "alhambra-tree-"  # + _referee_tag + "-": a worker's tree of links (TreePool), likewise
STALE_AFTER = 600.0  # seconds: a dead referee's worker directory unchanged this long is swept
WORKER_REASONS = ("load error", "raises", "exits", "exceeds memory", "prints to stdout")  # see worker.py
# The protocol runs over a Unix socket pair, not pipes: a pipe can be opened again through /proc/self/fd
# (Landlock does not cover that), so a worker could fill its own input and block the referee's write; a
# socket cannot be reopened. Tests set this to show what the old pipes with blocking writes let through.
BLOCKING_PIPES = False

# one lock file per game on a CPU, shared by every process of this user (take_cpu)
CPU_LOCKS = Path(tempfile.gettempdir()) / f"alhambra-ai-cpus-{os.getuid()}"
CPU_SLOTS = 32

_live: set[BotProcess] = set()
_live_lock = threading.Lock()
_cpu_users: dict[int, int] = {}  # games using each CPU, in this process
_cpu_slots: dict[int, list[int]] = {}  # the lock files this process holds, per CPU
_cpu_lock = threading.Lock()
_probe_lock = threading.Lock()
_isolation: Isolation | None = None
_swept = False
_cgroup_ids = itertools.count()


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number")


def decode(line: bytes) -> dict:
    """One message of a worker: a JSON object, or BotFailure("protocol error"). Whatever the bytes (deep
    nesting, invalid UTF-8, NaN, huge numbers), nothing else is raised.

    >>> decode(b'{"action": 3}')
    {'action': 3}
    >>> deep = b'{"action": ' + b'[' * 100000 + b']' * 100000 + b'}'
    >>> for bad in (deep, b'{"a": NaN}', bytes([255]), b'[1]'):
    ...     try:
    ...         decode(bad)
    ...     except BotFailure as e:
    ...         print(e.reason)
    protocol error
    protocol error
    protocol error
    protocol error
    """
    try:
        reply = json.loads(line, parse_constant=_no_constant)
    except Exception:  # ValueError, RecursionError, MemoryError's cousins: all the bot's doing
        raise BotFailure("protocol error", f"not a JSON line: {line[:200]!r}") from None
    if not isinstance(reply, dict):
        raise BotFailure("protocol error", f"not a JSON object: {line[:200]!r}")
    return reply


def printable(text: str) -> str:
    """``text`` safe for a terminal: control characters other than newlines escaped (a bot's error text
    or output must not move the cursor, clear the screen or fake other lines' colours).

    >>> printable("ok\\n\\x1b[2Jgone")
    'ok\\n\\\\x1b[2Jgone'
    """
    return "".join(c if c.isprintable() or c == "\n" else repr(c)[1:-1] for c in text)


class BotFailure(Exception):
    """The bot forfeits: ``reason`` is one of a short fixed vocabulary, ``detail`` explains."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason, self.detail = reason, detail


@dataclass(frozen=True)
class BotSource:
    """A bot file's name (its stem) and content, as read once by the referee.

    >>> BotSource("mine", b"class Bot: ...").sha256[:12]
    '27440f2dce43'
    """

    name: str
    code: bytes
    origin: str = ""  # where it was read from, to name it in error messages

    @classmethod
    def from_file(cls, path: str | Path) -> BotSource:
        return cls(bot_name(path), Path(path).read_bytes(), str(path))

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.code).hexdigest()


class BotProcess:
    """One bot running in a sandboxed ``alhambra_ai.sandbox.worker``; use as a context manager.

    ``bot`` is a BotSource or a path (read now). ``cpu``: the one CPU it may use (the referee gives all
    seats of a game the same one: take_cpu); by default it takes the least used one itself.
    ``plan`` is for tests and the sandbox probe: the isolation to ask for instead of ``isolation()``;
    ``own_tree=False`` for the probe only: it reads the originals instead of a tree of links of its own.
    """

    def __init__(self, bot: BotSource | str | Path, memory_mb: int | None = None, cpu: int | None = None,
                 plan: Isolation | None = None, own_tree: bool = True) -> None:
        self.source = bot if isinstance(bot, BotSource) else BotSource.from_file(bot)
        self._closing, self._closed = threading.Lock(), False
        self.plan = plan or isolation()
        self._own_cpu = take_cpu() if cpu is None else None
        cpu = self._own_cpu if cpu is None else cpu
        self.isolation: Isolation | None = None  # what the worker reports in force, after its hello
        self.private = _private_dir()
        self.cgroup = None
        if self.plan.cgroup:
            name = f"{_referee_tag(os.getpid())}-{next(_cgroup_ids)}"
            self.cgroup = cgroup.create(name, memory_mb)
            if self.cgroup is None:
                remove_private(self.private)
                give_cpu(self._own_cpu)
                raise SandboxError("cannot make the worker's cgroup")
        lifeline, self._lifeline = os.pipe()  # the worker's namespace ends when our end closes
        # its own links to what it may read (not the probe's: its code is ours, and it should not wait)
        self.tree = trees.take() if self.plan.namespaces and own_tree else None
        cmd, env, config = sandbox.launch(self.plan, self.private, memory_mb, lifeline, cpu, self.cgroup,
                                          self.tree)
        self.paused = False
        self._worker_pid: int | None = None  # found at the first pause (namespaces only)
        if BLOCKING_PIPES:
            channel, theirs = None, subprocess.PIPE
        else:  # the worker's fds 0 and 1 are both its end of the pair
            channel, their_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
            theirs = their_end.fileno()
        try:
            self.proc = subprocess.Popen(cmd, stdin=theirs, stdout=theirs,
                                         stderr=subprocess.PIPE, start_new_session=True, env=env,
                                         cwd=self.private, pass_fds=(lifeline,))
        except BaseException:
            os.close(self._lifeline)
            if channel is not None:
                channel.close()
            remove_private(self.private)
            trees.give_back(self.tree)
            if self.cgroup is not None:
                self.cgroup.remove(0)
            give_cpu(self._own_cpu)
            raise
        finally:
            os.close(lifeline)
            if channel is not None:
                their_end.close()
        self._channel = channel
        if channel is not None:
            channel.setblocking(False)  # every write waits on select() under the request's clock
            self._out_fd = self._in_fd = channel.fileno()
        else:
            self._out_fd, self._in_fd = self._stdout.fileno(), self._stdin.fileno()
        self._outbox = b""  # bytes of requests not yet taken by the worker
        self._log_sent = 0  # how much of the observations' history and events the worker holds (act)
        self._buf = {self._out_fd: b"", self._stderr.fileno(): b""}
        self.stderr_tail = b""
        with _live_lock:
            _live.add(self)
        if self.cgroup is not None:  # while its interpreter starts; it waits for its configuration
            try:
                self.cgroup.move(_first_process(self.proc) if self.plan.namespaces else self.proc.pid)
            except (OSError, ValueError) as e:
                self.close()
                raise SandboxError(f"cannot move the worker into its cgroup: {e}") from None
        code = base64.b64encode(self.source.code).decode()
        load = {"cmd": "load", "name": self.source.name, "source": code, "origin": self.source.origin}
        # sent as far as the channel takes it now; the rest goes with the first request, under its clock
        self._outbox = config + json.dumps(load).encode() + b"\n"
        try:
            if BLOCKING_PIPES:
                self._stdin.write(self._outbox)
                self._stdin.flush()
                self._outbox = b""
            else:
                self._push()
        except OSError:
            pass  # the worker is gone: the first request says why

    def __enter__(self) -> BotProcess:
        return self

    # The worker's pipes (Popen's attributes are None for a stream that is not a PIPE: stdin and stdout are
    # only with BLOCKING_PIPES).
    @property
    def _stdin(self) -> IO[bytes]:
        assert self.proc.stdin is not None
        return self.proc.stdin

    @property
    def _stdout(self) -> IO[bytes]:
        assert self.proc.stdout is not None
        return self.proc.stdout

    @property
    def _stderr(self) -> IO[bytes]:
        assert self.proc.stderr is not None
        return self.proc.stderr

    def __exit__(self, *exc) -> None:
        self.close()

    def request(self, msg: dict | None, timeout: float) -> tuple[dict, float]:
        """Send ``msg`` (None: just wait) and return (reply, seconds until it came).

        Raises BotFailure for a timeout, a dead worker, garbage on the protocol or an error reply.
        """
        self._group_signal(signal.SIGCONT)
        start = time.monotonic()
        if msg is not None:
            self._outbox += json.dumps(msg).encode() + b"\n"
        if not BLOCKING_PIPES and self._outbox:
            try:  # what fits now goes now (a request usually does): the wait below is then for the reply
                self._push()
            except OSError:
                self._outbox = b""  # the worker is gone: reading says why
        if BLOCKING_PIPES and self._outbox:
            try:
                self._stdin.write(self._outbox)
                self._stdin.flush()
                self._outbox = b""
            except (OSError, ValueError):  # ValueError: closed meanwhile (kill_all)
                raise self._ended() from None
        line = self._read_line(start + timeout, timeout)
        elapsed = time.monotonic() - start
        self._group_signal(signal.SIGSTOP)  # no computing on the other seats' clocks
        reply = decode(line)
        if "error" in reply:
            reason, detail = str(reply["error"]), printable(str(reply.get("detail", ""))[-STDERR_TAIL:])
            if reason == "sandbox error" and self.isolation is None:
                raise SandboxError(f"the bot sandbox failed to start: {detail}")
            raise BotFailure(reason if reason in WORKER_REASONS else "protocol error",
                             detail if reason in WORKER_REASONS else f"unknown error {reason[:100]!r}")
        if self.isolation is None:
            if "hello" not in reply:
                raise BotFailure("protocol error", f"expected a hello, got {str(reply)[:200]}")
            self._check_isolation(reply.get("isolation"))
        return reply, elapsed

    def begin(self, timeout: float) -> float:
        """Wait for the worker's hello (its confinement, before any bot code), then have it import the bot
        and make it: the first bot code runs now, on this seat's clock. Returns the seconds taken."""
        _, hello = self.request(None, timeout)
        reply, started = self.request({"cmd": "start"}, max(0.001, timeout - hello))
        if reply.get("ok") is not True:
            raise BotFailure("protocol error", f"unexpected reply to start: {str(reply)[:200]}")
        return hello + started

    def act(self, obs: dict, timeout: float) -> tuple[dict, float]:
        """Ask for the bot's move in ``obs``: ``request({"cmd": "act", "obs": obs})``, but of the history and
        the events, which only grow during a game, only what this worker was not sent yet goes (with
        ``log_from``: how many it holds); the worker puts the lists back together before the bot sees them."""
        k = self._log_sent
        if "events" not in obs or not k <= len(obs["events"]) == len(obs["history"]):
            return self.request({"cmd": "act", "obs": obs}, timeout)
        self._log_sent = len(obs["events"])
        tail = dict(obs, history=obs["history"][k:], events=obs["events"][k:])
        return self.request({"cmd": "act", "obs": tail, "log_from": k}, timeout)

    def setup(self, config: dict, timeout: float) -> float:
        """Run the bot's ``setup(config)``; returns the seconds taken."""
        reply, elapsed = self.request({"cmd": "setup", "config": config}, timeout)
        if reply.get("ok") is not True:
            raise BotFailure("protocol error", f"unexpected reply to setup: {str(reply)[:200]}")
        return elapsed

    def _check_isolation(self, reported: object) -> None:
        """The worker's report of its confinement (sent before any bot code ran) must match the plan. A
        report that is not one is the worker's fault: a protocol error; one that says less than planned is
        the machine's: SandboxError."""
        fields = {"namespaces": bool, "landlock": int, "seccomp": bool, "cgroup": bool}
        if (not isinstance(reported, dict)
                or any(type(reported.get(k)) is not t for k, t in fields.items())
                or not 0 <= reported["landlock"] < 1000):
            raise BotFailure("protocol error", f"no valid isolation report: {str(reported)[:200]}")
        got = Isolation(reported["namespaces"], reported["landlock"], reported["seccomp"], reported["cgroup"])
        if got.missing() != self.plan.missing():
            raise SandboxError(f"the worker is confined less than planned: {got.summary()}")
        self.isolation = got

    def _group_signal(self, sig: int) -> None:
        """Stop or continue the bot: in a PID namespace the worker alone (it cannot start processes), so
        the namespace's init still ends it if the referee dies; else the whole process group."""
        if (sig == signal.SIGSTOP) == self.paused or self.proc.returncode is not None:
            return
        try:
            if self.plan.namespaces:
                if self._worker_pid is None:
                    self._worker_pid = _only_child(_only_child(self.proc.pid))  # unshare -> init -> worker
                os.kill(self._worker_pid, sig)
            else:
                os.killpg(self.proc.pid, sig)
            self.paused = sig == signal.SIGSTOP
        except (ProcessLookupError, PermissionError, ValueError):
            pass

    def _push(self) -> None:
        """Send as much of the outbox as the channel takes now (never blocks)."""
        while self._outbox:
            try:
                sent = os.write(self._in_fd, self._outbox[:1 << 20])
            except BlockingIOError:
                return
            self._outbox = self._outbox[sent:]

    def _read_line(self, deadline: float, timeout: float) -> bytes:
        """The next line of the worker's replies, sending the outbox meanwhile; both under ``deadline``."""
        out = self._out_fd
        while b"\n" not in self._buf[out]:
            if len(self._buf[out]) > MAX_LINE:
                raise BotFailure("protocol error", f"reply longer than {MAX_LINE} bytes")
            left = deadline - time.monotonic()
            if left <= 0:
                if self._outbox:  # it never took its request: it jammed its own input
                    raise BotFailure("stalls its input", f"its input did not drain within {timeout:.3g} s "
                                     f"({len(self._outbox)} bytes of the request not taken)")
                raise BotFailure("times out", f"no reply within {timeout:.3g} s")
            writing = [self._in_fd] if self._outbox else []
            ready, writable, _ = select.select(list(self._buf), writing, [], left)
            if writable:
                try:
                    self._push()
                except OSError:  # the worker closed its end: its reply (or EOF) says why
                    self._outbox = b""
            for fd in ready:
                chunk = os.read(fd, 65536)
                if fd == out:
                    if not chunk:
                        raise self._ended()
                    self._buf[out] += chunk
                elif chunk:  # stderr: drained so the bot never blocks on it; the tail explains crashes
                    self.stderr_tail = (self.stderr_tail + chunk)[-STDERR_TAIL:]
                else:
                    del self._buf[fd]
        line, _, rest = self._buf[out].partition(b"\n")
        self._buf[out] = rest
        return line

    def _ended(self) -> BotFailure:
        """Classify a worker whose protocol channel closed."""
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        self._drain_stderr()
        tail = printable(self.stderr_tail.decode(errors="replace").strip())
        if "MemoryError" in tail:
            return BotFailure("exceeds memory", tail)
        if self.cgroup is not None and self.cgroup.oom_killed():
            return BotFailure("exceeds memory", "killed at its memory cap (cgroup)")
        if code is not None and code > 128 and self.plan.namespaces:  # the namespace's init reports a signal
            code = 128 - code
        if code is not None and code < 0:
            name = signal.Signals(-code).name if -code in signal.valid_signals() else str(-code)
            return BotFailure("crashes", f"killed by {name}" + (f"\n{tail}" if tail else ""))
        more = f"\n{tail}" if tail else ""
        return BotFailure("exits", f"the bot process ended (exit code {code}){more}")

    def _drain_stderr(self) -> None:
        fd = self._stderr.fileno()
        while fd in self._buf and select.select([fd], [], [], 0)[0]:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            self.stderr_tail = (self.stderr_tail + chunk)[-STDERR_TAIL:]

    def kill(self) -> None:
        """Kill the worker's whole process group now, from any thread (``close`` still cleans up)."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def close(self) -> None:
        """Kill the worker's whole process group and reap it; in a PID namespace also wait until the
        namespace's init is gone (it outlives its parent while the kernel kills the rest).
        Safe to call twice, and from two threads at once (a game's and kill_all's)."""
        with self._closing:
            if self._closed:
                return
            self._closed = True
            self._close()

    def _close(self) -> None:
        init = None
        if self.plan.namespaces and self.proc.returncode is None:
            try:
                init = os.pidfd_open(_only_child(self.proc.pid))
            except (OSError, ValueError, AttributeError):
                pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        for f in (self._channel, self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - unkillable (D state); nothing more to do
            pass
        if init is not None:
            select.select([init], [], [], 10)  # readable once init has exited: the namespace is empty
            os.close(init)
        with _live_lock:
            _live.discard(self)
        if self._lifeline >= 0:
            os.close(self._lifeline)
            self._lifeline = -1
            give_cpu(self._own_cpu)
        if self.cgroup is not None:
            self.cgroup.remove()
        remove_private(self.private)
        trees.give_back(self.tree)
        self.tree = None


class TreePool:
    """Each sandboxed worker's own tree of links to what it may read (sandbox.link_tree): a name one worker
    looks up that does not exist is remembered for its tree's directories only, so no worker, of the same
    game or another, can time what another looked up. Trees are made ahead, on a thread of idle priority
    (it runs only when a CPU is free of bots), and removed the same way once their worker is gone; a worker
    that finds none ready makes its own. Where links cannot be made (another file system, or files of
    another user under fs.protected_hardlinks) workers read the originals."""

    READY = 4  # trees kept ready, at least (more while more workers are alive)

    def __init__(self) -> None:
        self.ready: deque[str] = deque()
        self.lock = threading.Lock()
        self.wake = threading.Event()
        self.failed = False
        self.builder: threading.Thread | None = None
        self.coming: int | None = None  # workers still to start, when the caller knows (expect)
        self.generation = 0  # renew's count: a tree made ahead under an older plan is not kept

    def expect(self, workers: int | None) -> None:
        """``workers`` more workers will start (None: unknown): no tree is made ahead beyond them, so none
        is left to remove when a run ends."""
        with self.lock:
            self.coming = workers

    def take(self) -> str | None:
        """A tree for a new worker (None: read the originals)."""
        with self.lock:
            if self.failed:
                return None
            if self.coming:
                self.coming -= 1
            path = self.ready.popleft() if self.ready else None
            self._start_builder()
        self.wake.set()
        return path or self.make()

    def warm(self) -> None:
        """Start making trees ahead now (before the first worker wants one)."""
        with self.lock:
            self._start_builder()
        self.wake.set()

    def _start_builder(self) -> None:  # (under the lock)
        if self.builder is None:
            self.builder = threading.Thread(target=self._build_ahead, name="tree builder", daemon=True)
            self.builder.start()
            atexit.register(self.clear)

    def make(self) -> str | None:
        for _attempt in range(2):  # the second after planning again: a file of the plan may have gone
            path = tempfile.mkdtemp(prefix=f"{TREE_PREFIX}{_referee_tag(os.getpid())}-")
            if sandbox.link_tree(path, sandbox.read_set()):
                return path
            shutil.rmtree(path, ignore_errors=True)
            sandbox.forget_plans()
        self.failed = True
        return None

    def give_back(self, path: str | None) -> None:
        """The tree of a worker that is gone: removed at idle priority (``drain_removals`` waits)."""
        if path is not None:
            _removals.put(path)
            _start_remover()

    def clear(self) -> None:
        """Remove the trees made ahead (at exit)."""
        with self.lock:
            ready, self.ready = list(self.ready), deque()
        for path in ready:
            shutil.rmtree(path, ignore_errors=True)
        drain_removals()

    def renew(self) -> None:
        """Plan the trees again: files were added to the read set's folders after the first tree was made
        (only tests do; a tree holds the files there were when it was planned)."""
        with self.lock:
            self.generation += 1
        sandbox.forget_plans()
        self.clear()

    def _build_ahead(self) -> None:
        _idle_priority()
        while True:
            self.wake.wait()
            self.wake.clear()
            while not self.failed and len(self.ready) < self._wanted():
                generation = self.generation
                path = self.make()
                if path is None:
                    break
                with self.lock:
                    if generation == self.generation:
                        self.ready.append(path)
                        continue
                shutil.rmtree(path, ignore_errors=True)  # planned before a renew

    def _wanted(self) -> int:
        want = max(self.READY, live_count() + 2)
        with self.lock:
            return want if self.coming is None else min(want, self.coming)


def _idle_priority() -> None:
    try:  # this thread runs only when a CPU is idle: never on a bot's clock
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        pass


trees = TreePool()


_removals: queue.Queue[str] = queue.Queue()
_remover: list[threading.Thread] = []


def _start_remover() -> None:
    with _live_lock:
        if not _remover:
            _remover.append(threading.Thread(target=_remove_trees, name="tree remover", daemon=True))
            _remover[0].start()
            atexit.register(drain_removals, 60.0)


def _remove_trees() -> None:
    _idle_priority()
    while True:
        path = _removals.get()
        try:  # only the referee wrote in a tree (its workers see it read-only): no link in it is followed
            shutil.rmtree(path, ignore_errors=True)
        finally:
            _removals.task_done()


def drain_removals(timeout: float = 60.0) -> bool:
    """Remove every tree given back, here and now, beside the remover (at exit, and for tests: on a busy
    machine the idle-priority remover may not run for a long time); False on timeout."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            path = _removals.get_nowait()
        except queue.Empty:
            break
        try:
            shutil.rmtree(path, ignore_errors=True)
        finally:
            _removals.task_done()
    while _removals.unfinished_tasks and time.monotonic() < deadline:  # the one the remover is on
        time.sleep(0.01)
    return not _removals.unfinished_tasks


def remove_private(path: str) -> bool:
    """Remove a worker's private directory with everything a bot left in it: read-only and mode-000
    directories, FIFOs, sockets, hard and symbolic links, trees of any depth. Nothing outside it is touched:
    no link is followed, a directory is opened only by name inside its parent's open descriptor and
    unlocked (chmod) through that descriptor, and at most two descriptors are open at a time. Never raises
    (it runs in cleanup paths); returns whether the directory is gone."""
    root = os.path.abspath(path)
    try:
        parent = os.open(os.path.dirname(root), os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return not os.path.lexists(root)
    try:
        _remove_tree(parent, os.path.basename(root))
    except Exception:  # a cleanup path: report, never raise
        pass
    finally:
        os.close(parent)
    return not os.path.lexists(root)


def _open_dir(dir_fd: int, name: str) -> int | None:
    """Open the directory ``name`` in ``dir_fd`` for listing and make it writable (its entries can then be
    removed), unlocking it first if it is ours but unreadable; None if it is not a directory (a link, a
    file) or cannot be opened."""
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        fd = os.open(name, flags, dir_fd=dir_fd)
    except PermissionError:
        fd = None
    except OSError:
        return None
    if fd is not None:
        try:
            os.fchmod(fd, 0o700)  # the directory itself (O_NOFOLLOW): read-only ones must lose entries
        except OSError:
            pass
        return fd
    try:  # mode 000: unlock it through an O_PATH handle on the directory itself (never a link's target)
        handle = os.open(name, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        if not stat.S_ISDIR(os.fstat(handle).st_mode):
            return None
        os.chmod(f"/proc/self/fd/{handle}", 0o700)
        return os.open(name, flags, dir_fd=dir_fd)
    except OSError:
        return None
    finally:
        os.close(handle)


def _remove_tree(parent: int, name: str) -> None:
    """Depth-first without recursion or a descriptor per level: descend into the first subdirectory left,
    come back up through ``..`` (a real directory inside the tree, never a link) when one is empty."""
    names = [name]  # the path from ``parent`` down to the current directory
    current = _open_dir(parent, name)
    if current is None:
        _unlink_or_rmdir(parent, name)
        return
    try:
        while True:
            sub, removed = None, False
            with os.scandir(current) as entries:
                for e in entries:
                    try:
                        is_dir = e.is_dir(follow_symlinks=False)
                    except OSError:
                        is_dir = False
                    if is_dir:
                        sub = e.name
                        break
                    removed |= _unlink_or_rmdir(current, e.name)
            if sub is None and removed:
                continue  # a listing changed under removal may skip entries: look again until none goes
            if sub is not None:
                opened = _open_dir(current, sub)
                if opened is None:  # cannot enter it: try to remove it as it is and go on
                    if not _unlink_or_rmdir(current, sub):
                        return
                    continue
                os.close(current)
                current = opened
                names.append(sub)
                continue
            if len(names) == 1:
                break
            up = os.open("..", os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=current)
            os.close(current)
            current = up
            if not _unlink_or_rmdir(current, names.pop()):
                return
    finally:
        os.close(current)
    _unlink_or_rmdir(parent, name)


def _unlink_or_rmdir(dir_fd: int, name: str) -> bool:
    try:
        os.unlink(name, dir_fd=dir_fd)
        return True
    except IsADirectoryError:
        pass
    except FileNotFoundError:
        return True
    except OSError:
        pass
    try:
        os.rmdir(name, dir_fd=dir_fd)
        return True
    except FileNotFoundError:
        return True
    except OSError:
        return False


def _private_dir() -> str:
    """A new private directory for a worker, named after this referee (_referee_tag). The first call in a
    process also sweeps what referees killed before their cleanup left (sweep_stale_dirs)."""
    global _swept
    if not _swept:
        _swept = True
        sweep_stale_dirs(tempfile.gettempdir())
        cgroup.sweep(_referee_gone)
    return tempfile.mkdtemp(prefix=f"{PRIVATE_PREFIX}{_referee_tag(os.getpid())}-")


def _referee_tag(pid: int) -> str:
    """``<PID namespace>.<pid>``: a pid means this process only within its PID namespace (containers may
    share /tmp)."""
    return f"{_pid_namespace()}.{pid}"


def _pid_namespace() -> str:
    try:
        return str(os.stat("/proc/self/ns/pid").st_ino)
    except OSError:
        return "0"


def sweep_stale_dirs(root: str) -> int:
    """Remove the worker directories under ``root`` whose referee is gone (the pid in their name, in this
    PID namespace) and which have not changed for STALE_AFTER seconds; return how many. A referee killed
    outright (SIGKILL, its Ray task cancelled, its node lost) cannot remove its workers' directories; the
    namespace's init removes a worker's own, but not when it is killed with the referee."""
    removed, now = 0, time.time()
    ns = _pid_namespace()
    try:
        entries = list(os.scandir(root))
    except OSError:
        return 0
    for entry in entries:
        prefix = next((p for p in (PRIVATE_PREFIX, TREE_PREFIX) if entry.name.startswith(p)), None)
        if prefix is None:
            continue
        tag = entry.name[len(prefix):].partition("-")[0]
        their_ns, _, pid = tag.partition(".")
        if their_ns != ns or not pid.isdigit() or _alive(int(pid)):
            continue
        try:
            if entry.is_dir(follow_symlinks=False) and now - entry.stat().st_mtime > STALE_AFTER:
                remove_private(entry.path)
                removed += not os.path.lexists(entry.path)
        except OSError:  # not ours to remove, or gone meanwhile
            continue
    return removed


def _referee_gone(tag: str) -> bool:
    """Is the referee of this tag (``<PID namespace>.<pid>``, _referee_tag) gone? Only judged in our own
    PID namespace."""
    ns, _, pid = tag.partition(".")
    return ns == _pid_namespace() and pid.isdigit() and not _alive(int(pid))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # another user's process (or no such pid at all): not ours to judge
    return True


def _first_process(launcher: subprocess.Popen, wait: float = 10.0) -> int:
    """The namespace's first process, which ``unshare`` forks at once (ValueError if it never comes)."""
    deadline = time.monotonic() + wait
    while True:
        try:
            return _only_child(launcher.pid)
        except ValueError:
            if launcher.poll() is not None or time.monotonic() > deadline:
                raise
            time.sleep(0.0005)


def _only_child(pid: int) -> int:
    """The one child of ``pid`` (ValueError if it has none)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return int(f.read().split()[0])
    except (OSError, IndexError):
        raise ValueError(f"process {pid} has no child") from None


def isolation() -> Isolation:
    """The isolation every worker of this process gets, found once by starting a worker that confines
    itself as far as the machine allows (and reports what took effect)."""
    global _isolation
    with _probe_lock:
        if _isolation is None:
            _isolation = _probe()
    return _isolation


def _probe() -> Isolation:
    want = sandbox.offered()
    if want.namespaces:
        trees.warm()  # the first game's trees are made while the probe runs
    probe = BotSource("probe", b"class Bot:\n    def act(self, obs):\n        return 0\n")
    # The strongest first: most mechanisms; then Landlock + seccomp before namespaces (they leave less open).
    attempts = {Isolation(ns, ll, sc, cg) for ns in {want.namespaces, False} for ll in {want.landlock, 0}
                for sc in {want.seccomp, False} for cg in {want.cgroup, False}}
    for attempt in sorted(attempts, key=lambda a: (-len(a.missing()), a.landlock, a.seccomp, a.cgroup),
                          reverse=True):
        try:
            with BotProcess(probe, plan=attempt, own_tree=False) as proc:
                proc.request(None, 30)
                assert proc.isolation is not None  # the first request reads the hello: it sets it or raises
                return proc.isolation
        except (BotFailure, SandboxError):
            continue
    return Isolation(False, 0, False)


def take_cpu() -> int | None:
    """The least used CPU, for the workers of one game (only one of them computes at a time, so games
    on different CPUs never slow each other down); give it back with ``give_cpu``. Chosen among the CPUs
    the calling thread may use now (a Ray game narrows them to the CPU its node gave it).

    "Used" counts the games of every process of this user on the machine (a lock file per game in
    ``CPU_LOCKS``), so two tournaments started side by side spread over the CPUs instead of both taking
    the first; where those files cannot be made, the games of this process only."""
    with _cpu_lock:
        allowed = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
        if not allowed:
            return None
        try:
            CPU_LOCKS.mkdir(mode=0o700, exist_ok=True)
            busy = {c: _games_on(c) for c in allowed}
        except OSError:
            busy = {c: _cpu_users.get(c, 0) for c in allowed}
        cpu = min(allowed, key=lambda c: (busy[c], c))
        _cpu_users[cpu] = _cpu_users.get(cpu, 0) + 1
        fd = _claim(cpu)
        if fd is not None:
            _cpu_slots.setdefault(cpu, []).append(fd)
        return cpu


def give_cpu(cpu: int | None) -> None:
    if cpu is None:  # take_cpu found no CPU to hand out
        return
    with _cpu_lock:
        if cpu in _cpu_users:
            _cpu_users[cpu] -= 1
        if _cpu_slots.get(cpu):
            os.close(_cpu_slots[cpu].pop())  # closing the file releases its lock


def _slot(cpu: int, k: int) -> int:
    return os.open(CPU_LOCKS / f"cpu{cpu}-{k}", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)


def _games_on(cpu: int) -> int:
    """How many slots of ``cpu`` are locked now, by any process (flock: a lock per open file)."""
    held = 0
    for k in range(CPU_SLOTS):
        fd = _slot(cpu, k)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            held += 1
        finally:
            os.close(fd)
    return held


def _claim(cpu: int) -> int | None:
    """Lock a free slot of ``cpu`` and return its open file (None: all taken, or no lock files)."""
    for k in range(CPU_SLOTS):
        try:
            fd = _slot(cpu, k)
        except OSError:
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            os.close(fd)
    return None


def kill_all() -> None:
    """Kill every live worker (used when a tournament is interrupted)."""
    with _live_lock:
        procs = list(_live)
    for p in procs:
        p.close()


def live_count() -> int:
    with _live_lock:
        return len(_live)
