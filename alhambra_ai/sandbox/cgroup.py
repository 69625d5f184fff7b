"""One control group per worker: every byte of memory and every task of a bot counted against its caps.

RLIMIT_AS caps mappings only: memory held in memfd files, tmpfs, SysV segments or the kernel escapes it,
and no rlimit caps one process's threads without counting all of its user's. A memory and a pids cgroup
count all of them. The referee makes a child of its own cgroup per worker (cgroup v1: in the memory and
pids hierarchies; v2: one directory, where the operator delegated a subtree with both controllers
enabled), the worker moves itself into it before it confines itself (worker.isolate), and the referee
removes it when the worker is gone. This needs write access to the referee's own cgroup: root, as on this
project's machines, or a delegated subtree; elsewhere ``available()`` is False and the sandbox refuses
what it cannot count instead (seccomp: no threads, no memfd; sandbox.py).

The referee moves the worker's first process into the cgroup before it sends the worker its configuration,
and the worker checks that it is a member (``is_member``) before it goes on: no bot code runs outside it.

>>> plan = CgroupPlan({"memory": "/sys/fs/cgroup/memory/alhambra-bot-x"}, 2)
>>> plan.files(256)["memory"]["memory.limit_in_bytes"], plan.name
('268435456', 'x')
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass

TASKS = 64  # threads and processes per worker (the interpreter, its init, a bot's threads)
PREFIX = "alhambra-bot-"
CONTROLLERS = ("memory", "pids")


def _own_cgroups() -> dict[str, str]:
    """The directory of this process's cgroup in each hierarchy holding memory or pids (v1), or ``v2``."""
    try:
        with open("/proc/self/cgroup") as f:
            lines = f.read().splitlines()
        with open("/proc/self/mountinfo") as f:
            mounts = f.read().splitlines()
    except OSError:
        return {}
    roots: dict[str, str] = {}  # controller (or "v2") -> mount point
    for m in mounts:
        left, _, right = m.partition(" - ")
        fields, rfields = left.split(), right.split()
        if len(fields) < 5 or len(rfields) < 3 or fields[3] != "/":  # a bind of a sub-cgroup: skip
            continue
        if rfields[0] == "cgroup2":
            roots.setdefault("v2", fields[4])
        elif rfields[0] == "cgroup":
            for opt in rfields[2].split(","):
                if opt in CONTROLLERS:
                    roots.setdefault(opt, fields[4])
    found: dict[str, str] = {}
    for line in lines:
        hid, _, rest = line.partition(":")
        names, _, path = rest.partition(":")
        if hid == "0" and not names and "v2" in roots:
            found["v2"] = roots["v2"] + path
        for name in names.split(","):
            if name in CONTROLLERS and name in roots:
                found[name] = roots[name] + path
    return found


def _v2_parent(own: dict[str, str]) -> str | None:
    """Our v2 cgroup, if it hands memory and pids to its children (a delegated subtree)."""
    path = own.get("v2")
    if not path:
        return None
    try:
        with open(os.path.join(path, "cgroup.subtree_control")) as f:
            enabled = set(f.read().split())
    except OSError:
        return None
    return path if set(CONTROLLERS) <= enabled else None


def parents() -> dict[str, str]:
    """Where workers' cgroups are made: {"memory": DIR, "pids": DIR} (v1) or {"v2": DIR}; {} if none."""
    own = _own_cgroups()
    if all(c in own for c in CONTROLLERS):
        return {c: own[c] for c in CONTROLLERS}
    v2 = _v2_parent(own)
    return {"v2": v2} if v2 else {}


def available() -> bool:
    """Can this process make a worker's cgroup and set its caps (a real trial, removed at once)?"""
    plan = create(f"probe-{os.getpid()}-{time.monotonic_ns()}", 64)
    if plan is None:
        return False
    plan.remove()
    return True


@dataclass
class CgroupPlan:
    """A worker's cgroup directories (one per v1 hierarchy, or the v2 one) and its task cap."""

    dirs: dict[str, str]
    tasks: int = TASKS

    def files(self, memory_mb: int | None) -> dict[str, dict[str, str]]:
        """What to write where, in order, for the caps."""
        out: dict[str, dict[str, str]] = {}
        cap = str(memory_mb << 20) if memory_mb else None
        if "v2" in self.dirs:
            v2 = {"pids.max": str(self.tasks)}
            if cap:
                v2.update({"memory.max": cap, "memory.swap.max": "0"})
            return {"v2": v2}
        if cap:  # memory first: memsw may not be set below it
            out["memory"] = {"memory.limit_in_bytes": cap, "memory.memsw.limit_in_bytes": cap}
        out["pids"] = {"pids.max": str(self.tasks)}
        return out

    @property
    def name(self) -> str:
        return os.path.basename(next(iter(self.dirs.values())))[len(PREFIX):]

    def move(self, pid: int) -> None:
        """Move process ``pid`` into this cgroup (its later children and threads follow). The referee does it
        while the worker's interpreter starts: a move costs ~5-10 ms per hierarchy (the kernel waits for an
        RCU grace period), which would otherwise add to every start. Raises OSError."""
        for d in self.dirs.values():
            with open(os.path.join(d, "cgroup.procs"), "w") as f:
                f.write(str(pid))

    def oom_killed(self) -> bool:
        """Did the kernel kill a task of this cgroup for memory?"""
        for name in ("memory", "v2"):
            d = self.dirs.get(name)
            if not d:
                continue
            for f, key in (("memory.oom_control", "oom_kill"), ("memory.events", "oom_kill")):
                try:
                    with open(os.path.join(d, f)) as fh:
                        for line in fh:
                            k, _, v = line.partition(" ")
                            if k == key and v.strip().isdigit() and int(v) > 0:
                                return True
                except OSError:
                    continue
        return False

    def remove(self, wait: float = 5.0) -> bool:
        """Remove the directories (they must be empty of tasks: a task that is still exiting is waited for up
        to ``wait`` seconds). Never raises; True when all are gone."""
        deadline = time.monotonic() + wait
        left = list(self.dirs.values())
        while True:
            still = []
            for d in left:
                try:
                    os.rmdir(d)
                except FileNotFoundError:
                    pass
                except OSError:
                    still.append(d)
            left = still
            if not left or time.monotonic() > deadline:
                return not left
            time.sleep(0.01)


def create(name: str, memory_mb: int | None, tasks: int = TASKS) -> CgroupPlan | None:
    """Make the worker's cgroup ``PREFIX + name`` with its caps set; None where this process cannot."""
    where = parents()
    if not where:
        return None
    plan = CgroupPlan({k: os.path.join(v, PREFIX + name) for k, v in where.items()}, tasks)
    try:
        for d in plan.dirs.values():
            os.mkdir(d, 0o755)
        for key, settings in plan.files(memory_mb).items():
            for fname, value in settings.items():
                path = os.path.join(plan.dirs[key], fname)
                if fname.startswith("memory.memsw") and not os.path.exists(path):
                    continue  # no swap accounting in this kernel: nothing to escape to
                if fname == "memory.swap.max" and not os.path.exists(path):
                    continue
                with open(path, "w") as f:
                    f.write(value)
    except OSError:
        plan.remove(0)
        return None
    return plan


def is_member(name: str, hierarchies: list[str]) -> bool:
    """Is the calling process in the cgroup ``PREFIX + name`` of every hierarchy named (``memory``,
    ``pids`` or ``v2``)? The worker checks this before any bot code runs."""
    try:
        with open("/proc/self/cgroup") as f:
            lines = f.read().splitlines()
    except OSError:
        return False
    found = set()
    for line in lines:
        hid, _, rest = line.partition(":")
        names, _, path = rest.partition(":")
        keys = {"v2"} if hid == "0" and not names else set(names.split(","))
        if path.rstrip("/").endswith("/" + PREFIX + name):
            found |= keys
    return set(hierarchies) <= found


def sweep(gone: Callable[[str], bool]) -> int:
    """Remove the empty worker cgroups of referees that are gone (``gone(tag)``: the referee tag their name
    starts with, see process._referee_tag); return how many."""
    removed = 0
    for parent in parents().values():
        try:
            entries = list(os.scandir(parent))
        except OSError:
            continue
        for e in entries:
            if not e.name.startswith(PREFIX) or not e.is_dir(follow_symlinks=False):
                continue
            if gone(e.name[len(PREFIX):].partition("-")[0]):
                try:
                    os.rmdir(e.path)
                    removed += 1
                except OSError:
                    pass
    return removed
