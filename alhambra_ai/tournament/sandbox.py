"""How bot workers are isolated: what this machine offers, each worker's command line, what was in force.

Every bot file is hostile. A worker is started as

    unshare --user --map-root-user --pid --fork --kill-child --mount --mount-proc --net \\
        --propagation private PYTHON -I -B -c BOOT PACKAGE_PARENT CONFIG

(util-linux's ``unshare``: new user, PID, mount and network namespaces; no root needed where the kernel
allows unprivileged user namespaces), with a scrubbed environment, an empty private directory (the
worker puts the bot's file in ``bot/``, read-only, and makes ``work/`` its cwd, HOME and TMPDIR) and a
lifeline pipe. The interpreter runs isolated (``-I``: no environment
variables, no user site, no script directory) and finds the package by the explicit path it is given.
worker.py then confines itself with confine.py before it reads the bot's source from the referee.

Where a mechanism is missing (no ``unshare``, user namespaces disabled, no Landlock, no libseccomp) the
strongest remaining set is used; ``isolation()`` says which, once per process, and the tournament
records it. ``ALHAMBRA_AI_SANDBOX_OFF=namespaces,landlock,seccomp`` (any subset) switches mechanisms off,
to see or test the degraded modes.

>>> Isolation(namespaces=True, landlock=6, seccomp=True).missing()
[]
>>> Isolation(namespaces=False, landlock=0, seccomp=True).missing()
['namespaces', 'landlock']
"""

from __future__ import annotations

import ctypes.util
import fcntl
import json
import os
import shutil
import site
import subprocess
import sys
import tempfile
import threading
from dataclasses import asdict, dataclass
from pathlib import Path

import alhambra_ai

PACKAGE_DIR = Path(alhambra_ai.__file__).resolve().parent
UNSHARE_OPTIONS = ["--user", "--map-root-user", "--pid", "--fork", "--kill-child", "--mount", "--mount-proc",
                   "--net", "--propagation", "private"]
BOOT = ("import sys; sys.path.insert(0, sys.argv.pop(1)); "
        "from alhambra_ai.tournament.worker import main; main()")
PRIVATE_MB, FILE_MB, OPEN_FILES = 64, 64, 256  # private tmpfs, largest file, open files per worker
ENV_KEPT = ("LANG", "LC_ALL", "TZ", "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")  # harmless, some needed
MECHANISMS = ("namespaces", "landlock", "seccomp")
# one lock file per game on a CPU, shared by every process of this user (take_cpu)
CPU_LOCKS = Path(tempfile.gettempdir()) / f"alhambra-ai-cpus-{os.getuid()}"
CPU_SLOTS = 32


class SandboxError(Exception):
    """The sandbox could not be set up as required (message: what is missing or failed)."""


@dataclass(frozen=True)
class Isolation:
    """The mechanisms in force for every worker (rlimits, no_new_privs and a private cwd always are)."""

    namespaces: bool  # user, PID, mount and network namespaces: no view of other processes, no network
    landlock: int  # Landlock ABI in force (0: none): files, TCP, signals and abstract sockets
    seccomp: bool  # syscall filter: no new processes, exec, ptrace, mounts; signals to itself only

    def missing(self) -> list[str]:
        return [m for m in MECHANISMS if not getattr(self, m)]

    def summary(self) -> str:
        """One line for the user."""
        parts = ["namespaces (user, pid, mount, net)" if self.namespaces else None,
                 f"Landlock ABI {self.landlock}" if self.landlock else None,
                 "seccomp" if self.seccomp else None]
        have = ", ".join(p for p in parts if p) or "rlimits only"
        lacking = self.missing()
        return f"sandbox: {have}" + (f"; NOT available: {', '.join(lacking)}" if lacking else "")

    def to_record(self) -> dict:
        return {**asdict(self), "missing": self.missing()}


_protected: set[str] = set()
_cpu_users: dict[int, int] = {}  # games using each CPU, in this process
_cpu_slots: dict[int, list[int]] = {}  # the lock files this process holds, per CPU
_lock = threading.Lock()
_probe_lock = threading.Lock()
_isolation: Isolation | None = None


def take_cpu() -> int | None:
    """The least used CPU, for the workers of one game (only one of them computes at a time, so games
    on different CPUs never slow each other down); give it back with ``give_cpu``. Chosen among the CPUs
    the calling thread may use now (a Ray game narrows them to the CPU its node gave it).

    "Used" counts the games of every process of this user on the machine (a lock file per game in
    ``CPU_LOCKS``), so two tournaments started side by side spread over the CPUs instead of both taking
    the first; where those files cannot be made, the games of this process only."""
    with _lock:
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
    with _lock:
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


def protect(directory: str | Path) -> None:
    """Hide ``directory`` (a results store) from every worker started from now on."""
    with _lock:
        _protected.add(str(Path(directory).resolve()))


def switched_off() -> set[str]:
    return {m.strip() for m in os.environ.get("ALHAMBRA_AI_SANDBOX_OFF", "").split(",") if m.strip()}


def offered() -> Isolation:
    """What this machine seems to offer (cheap checks; ``isolation()`` confirms with a real worker)."""
    from .confine import landlock_abi

    off = switched_off()
    unshare = shutil.which("unshare")
    namespaces = False
    if unshare and sys.platform.startswith("linux") and "namespaces" not in off:
        try:
            namespaces = subprocess.run([unshare, *UNSHARE_OPTIONS, "true"], capture_output=True,
                                        timeout=10).returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            namespaces = False
    seccomp = sys.platform.startswith("linux") and ctypes.util.find_library("seccomp") is not None
    landlock = landlock_abi() if sys.platform.startswith("linux") else 0
    return Isolation(namespaces, 0 if "landlock" in off else landlock, seccomp and "seccomp" not in off)


def isolation() -> Isolation:
    """The isolation every worker of this process gets, found once by starting a worker that confines
    itself as far as the machine allows (and reports what took effect)."""
    global _isolation
    with _probe_lock:
        if _isolation is None:
            _isolation = _probe()
    return _isolation


def _probe() -> Isolation:
    from .process import BotFailure, BotProcess, BotSource

    want = offered()
    probe = BotSource("probe", b"class Bot:\n    def act(self, obs):\n        return 0\n")
    # The strongest first: most mechanisms; then Landlock + seccomp before namespaces (they leave less open).
    attempts = {Isolation(ns, ll, sc) for ns in {want.namespaces, False} for ll in {want.landlock, 0}
                for sc in {want.seccomp, False}}
    for attempt in sorted(attempts, key=lambda a: (-len(a.missing()), a.landlock, a.seccomp), reverse=True):
        try:
            with BotProcess(probe, plan=attempt) as proc:
                proc.request(None, 30)
                return proc.isolation
        except (BotFailure, SandboxError):
            continue
    return Isolation(False, 0, False)


def read_paths() -> list[str]:
    """What a worker may read: the interpreter, its libraries, the installed package (not the project
    around it), the system's shared libraries."""
    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, str(PACKAGE_DIR),
             "/usr", "/lib", "/lib64", "/lib32", "/etc/ld.so.cache", "/etc/localtime", "/dev/urandom"}
    if hasattr(site, "getsitepackages"):
        paths.update(site.getsitepackages())
    paths.update(p for p in sys.path if p.endswith(("site-packages", "dist-packages")))
    return sorted(p for p in paths if p)


def launch(plan: Isolation, private: str, memory_mb: int | None, lifeline: int,
           cpu: int | None) -> tuple[list[str], dict]:
    """The worker's command line and environment for ``plan``; ``private`` is its own empty directory,
    ``cpu`` the one CPU it may use."""
    with _lock:
        protected = sorted(d for d in _protected if os.path.isdir(d))
    config = {"private": private, "protected": protected, "read": read_paths(), "write": ["/dev/null"],
              "namespaces": plan.namespaces, "landlock": bool(plan.landlock), "seccomp": plan.seccomp,
              "memory_mb": memory_mb, "cpu": cpu, "lifeline": lifeline, "private_mb": PRIVATE_MB,
              "file_mb": FILE_MB, "open_files": OPEN_FILES}
    if plan.namespaces:
        config["read"].append("/proc")  # the namespace's own: this worker only
    cmd = [sys.executable, "-I", "-B", "-c", BOOT, str(PACKAGE_DIR.parent), json.dumps(config)]
    if plan.namespaces:
        cmd = [shutil.which("unshare") or "unshare", *UNSHARE_OPTIONS, *cmd]
    env = {k: os.environ[k] for k in ENV_KEPT if k in os.environ}
    env.update(HOME=private, TMPDIR=private, PATH="/usr/bin:/bin", OMP_NUM_THREADS="1",
               OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    return cmd, env
