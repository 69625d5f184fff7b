"""How bot workers are isolated: what this machine offers, each worker's command line, what was in force.

Every bot file is hostile. A worker is started as

    unshare --user --map-root-user --pid --fork --kill-child --mount --mount-proc --net --ipc \\
        --propagation private PYTHON -I -B -c BOOT PACKAGE_PARENT

(util-linux's ``unshare``: new user, PID, mount, network and IPC namespaces; no root needed where the
kernel allows unprivileged user namespaces), with a scrubbed environment, an empty private directory (the
worker puts the bot's file in ``bot/``, read-only, and makes ``work/`` its cwd, HOME and TMPDIR), a
lifeline pipe and, where the referee may make one, its own cgroup (cgroup.py), into which the referee
moves it before sending its configuration. The interpreter runs isolated (``-I``: no environment
variables, no user site, no script directory) and finds the package by the explicit path it is given. Its
configuration is the first line on its standard input (not its command line, which a bot could read as its
namespace's pid 1). worker.py checks that it is in its cgroup, then confines itself with confine.py before
it reads the bot's source from the referee.

Where a mechanism is missing (no ``unshare``, user namespaces disabled, no Landlock, no libseccomp) the
strongest remaining set is used; ``process.isolation()`` finds which, once per process, by starting a
worker with ``offered()``'s plan (and weaker ones until one starts), and the tournament records it.
``ALHAMBRA_AI_SANDBOX_OFF=namespaces,landlock,seccomp,cgroup`` (any subset) switches mechanisms
off, to see or test the degraded modes.

>>> Isolation(namespaces=True, landlock=6, seccomp=True, cgroup=True).missing()
[]
>>> Isolation(namespaces=False, landlock=0, seccomp=True).missing()
['namespaces', 'landlock', 'cgroup']
>>> Isolation(True, 7, True, True).summary(256, caps=True).split("; ", 1)[1]
'caps per worker: memory 256 MB, every kind (cgroup); tasks 64 (cgroup)'
>>> Isolation(True, 7, True, False).summary().split("; ", 1)[1]
'NOT available: cgroup (so open: memory outside the address space, threads)'
>>> Isolation(False, 7, True).caps(256)
{'memory': '256 MB address space (memfd, SysV IPC refused)', 'tasks': '1 (threads refused)'}
"""

from __future__ import annotations

import ctypes.util
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import threading
from dataclasses import asdict, dataclass
from pathlib import Path

import alhambra_ai
from alhambra_ai.errors import BadInput

from . import cgroup as cgroups
from . import resident
from .confine import landlock_abi

PACKAGE_DIR = Path(alhambra_ai.__file__).resolve().parent
UNSHARE_OPTIONS = ["--user", "--map-root-user", "--pid", "--fork", "--kill-child", "--mount", "--mount-proc",
                   "--net", "--ipc", "--propagation", "private"]
BOOT = ("import sys; sys.path.insert(0, sys.argv.pop(1)); "
        "from alhambra_ai.sandbox.worker import main; main()")
PRIVATE_MB, FILE_MB, OPEN_FILES = 64, 64, 256  # private tmpfs, largest file, open files per worker
ENV_KEPT = ("LANG", "LC_ALL", "TZ", "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")  # harmless, some needed
MECHANISMS = ("namespaces", "landlock", "seccomp", "cgroup")
LOST = {  # what a worker can still do without each mechanism (README "Security model", "What holds")
    "namespaces": "the host's tree, shared lookups of missing names",
    "landlock": "every file its user may read or write, cold pages of them",
    "seccomp": "processes, sockets, locks, the page cache's calls, the pipe quota",
    "cgroup": "memory outside the address space, threads",
}


class SandboxError(BadInput):
    """The sandbox could not be set up as required (message: what is missing or failed): exit 2."""


@dataclass(frozen=True)
class Isolation:
    """The mechanisms in force for every worker (rlimits, no_new_privs and a private cwd always are)."""

    namespaces: bool  # user, PID, mount, network, IPC namespaces: no view of other processes, no network
    landlock: int  # Landlock ABI in force (0: none): files, TCP, signals and abstract sockets
    seccomp: bool  # syscall filter: no new processes, exec, ptrace, mounts, sockets, IPC, locks, memfd
    cgroup: bool = False  # its own memory + pids cgroup: every byte and every task counted

    def missing(self) -> list[str]:
        return [m for m in MECHANISMS if not getattr(self, m)]

    def summary(self, memory_mb: int | None = None, caps: bool = False) -> str:
        """One line for the user (``caps``: with what the caps count)."""
        parts = ["namespaces (user, pid, mount, net, ipc)" if self.namespaces else None,
                 f"Landlock ABI {self.landlock}" if self.landlock else None,
                 "seccomp" if self.seccomp else None,
                 "cgroup (memory, tasks)" if self.cgroup else None]
        have = ", ".join(p for p in parts if p) or "rlimits only"
        lacking = self.missing()
        line = f"sandbox: {have}" + (f"; NOT available: {', '.join(lacking)}" if lacking else "")
        if lacking:
            line += f" (so open: {'; '.join(LOST[m] for m in lacking)})"
        if caps:
            c = self.caps(memory_mb)
            line += f"; caps per worker: memory {c['memory']}; tasks {c['tasks']}"
        return line

    def caps(self, memory_mb: int | None) -> dict[str, str]:
        """What ``--memory`` and the task cap count in this mode (README, "Security model")."""
        if self.cgroup:
            memory = f"{memory_mb} MB, every kind (cgroup)" if memory_mb else "no cap (counted by a cgroup)"
            tasks = f"{cgroups.TASKS} (cgroup)"
        else:
            scratch = f" + {PRIVATE_MB} MB scratch" if self.namespaces else ""
            memory = f"{memory_mb} MB address space{scratch}" if memory_mb else "no cap"
            if self.seccomp:
                memory += " (memfd, SysV IPC refused)"
            tasks = "1 (threads refused)" if self.seccomp else "no cap"
        return {"memory": memory, "tasks": tasks}

    def to_record(self, memory_mb: int | None = None) -> dict:
        return {**asdict(self), "missing": self.missing(), "caps": self.caps(memory_mb)}


_protected: set[str] = set()
_lock = threading.Lock()


def protect(directory: str | Path) -> None:
    """Hide ``directory`` (a results store) from every worker started from now on."""
    with _lock:
        _protected.add(str(Path(directory).resolve()))


def switched_off() -> set[str]:
    return {m.strip() for m in os.environ.get("ALHAMBRA_AI_SANDBOX_OFF", "").split(",") if m.strip()}


def offered() -> Isolation:
    """What this machine seems to offer (cheap checks; ``process.isolation()`` confirms with a worker)."""
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
    cgroup = "cgroup" not in off and sys.platform.startswith("linux") and cgroups.available()
    return Isolation(namespaces, 0 if "landlock" in off else landlock, seccomp and "seccomp" not in off,
                     cgroup)


# Parts of the standard library no bot needs: test suites, tools that build or convert code (lib2to3 and
# distutils are gone from newer Pythons). Fewer files make each worker's tree of links cheaper
# (a third fewer links with these and NUMPY_HIDDEN) and the page cache kept resident smaller.
STDLIB_HIDDEN = ("site-packages", "test", "idlelib", "turtledemo", "ensurepip", "tkinter", "config-",
                 "lib2to3", "distutils", "venv", "__phello__", "ctypes/test", "unittest/test")
EXTRA_PACKAGES = ("numpy",)  # installed packages a bot may import, besides alhambra_ai (with their .libs)
# numpy's build tools (f2py compiles Fortran, distutils C), packaging hooks and examples: `import numpy`
# reads none of them, and the sandbox has no compiler
NUMPY_HIDDEN = ("distutils", "f2py", "_pyinstaller", "doc", "random/_examples")
UNLINKED = (".opt-1.pyc", ".opt-2.pyc")  # bytecode of -O runs: left out of the trees (a third of them)
DEVICES = ("/dev/null", "/dev/urandom")


@dataclass(frozen=True)
class ReadSet:
    """Everything a worker may read: ``paths`` (files and directories, absolute, symbolic links resolved)
    less the ``hidden`` directories inside them. A worker with namespaces sees nothing else (its root is
    made of these, confine.minimal_root); Landlock allows just these (``rules``). Every page of them is kept
    in the page cache (resident.py), so no worker can change, or learn, what another read."""

    paths: tuple[str, ...]
    hidden: tuple[str, ...]
    names: tuple[str, ...] = ()  # paths through symbolic links (the loader's names of its libraries)

    def rules(self) -> list[str]:
        """The paths for Landlock, which cannot except a subdirectory: a path holding a hidden one is
        replaced by its entries, less the hidden."""
        out: list[str] = []
        for path in self.paths:
            out += self._expand(path)
        return out

    def _expand(self, path: str) -> list[str]:
        if path in self.hidden:
            return []
        if not any(h.startswith(path + "/") for h in self.hidden):
            return [path]
        found: list[str] = []
        for name in sorted(os.listdir(path)):
            found += self._expand(os.path.join(path, name))
        return found

    def listed(self) -> list[str]:
        """The directories a bot may list but not read beneath (an importer lists them): those replaced
        by their entries in ``rules``, and the folders that hold an installed package of the set."""
        holders = [p for p in self.paths if any(h.startswith(p + "/") for h in self.hidden)]
        return holders + sorted({os.path.dirname(p) for p in self.paths if os.path.isdir(p)
                                 and os.path.basename(p) in EXTRA_PACKAGES})

    def files(self) -> list[str]:
        """Every regular file of the set (what resident.py keeps in memory)."""
        found: list[str] = []
        for path in self.rules():
            if os.path.isdir(path):
                for top, dirs, names in os.walk(path):
                    dirs[:] = [d for d in dirs if os.path.join(top, d) not in self.hidden]
                    found += [os.path.join(top, n) for n in names]
            elif os.path.isfile(path):
                found.append(path)
        return sorted({f for f in found if os.path.isfile(f) and not os.path.islink(f)})


def link_tree(base: str, read: ReadSet) -> bool:
    """Fill the empty directory ``base`` with a copy of the directories of ``read`` at their own paths
    (``base`` + path), each file a hard link to its original (the same pages), each symbolic link copied;
    False when a link cannot be made (another file system, or files of another user under
    fs.protected_hardlinks): the caller then uses the originals.

    Each worker gets its directories from a tree of its own (process.TreePool): a name that does not exist,
    looked up in a directory, is remembered by the kernel for that directory only (a negative dentry), so
    no worker sees what another looked up."""
    dirs, links, files = _tree_plan(read)
    try:
        for d in dirs:
            os.mkdir(base + d)
        for path, target in links:
            os.symlink(target, base + path)
        for path in files:
            os.link(path, base + path, follow_symlinks=False)
    except OSError:
        return False
    return True


_plans: dict[ReadSet, tuple[list[str], list[tuple[str, str]], list[str]]] = {}


def forget_plans() -> None:
    """Plan link_tree again at its next call (the read set's folders changed)."""
    with _lock:
        _plans.clear()


def _tree_plan(read: ReadSet) -> tuple[list[str], list[tuple[str, str]], list[str]]:
    """What link_tree makes for ``read``, found once: the directories (parents first), the symbolic links
    (path, target) and the files to link."""
    with _lock:
        if read in _plans:
            return _plans[read]
    dirs: list[str] = []
    links: list[tuple[str, str]] = []
    files: list[str] = []
    packages = tuple(p for p in read.paths if "site-packages" in p)
    for path in read.paths:
        if not os.path.isdir(path):
            continue
        for parent in _parents(path):
            if parent not in dirs:
                dirs.append(parent)
        for top, subdirs, names in os.walk(path):
            for d in list(subdirs):
                full = os.path.join(top, d)
                if d == "tests" and full.startswith(packages):  # a package's own test suite: never imported
                    subdirs.remove(d)
                elif full in read.hidden:  # stays empty (its mount point)
                    dirs.append(full)
                    subdirs.remove(d)
                elif os.path.islink(full):
                    links.append((full, os.readlink(full)))
                    subdirs.remove(d)
                else:
                    dirs.append(full)
            for n in names:
                full = os.path.join(top, n)
                if os.path.islink(full):
                    links.append((full, os.readlink(full)))
                elif not n.endswith(UNLINKED):
                    files.append(full)
    dirs = sorted(set(dirs), key=lambda d: (d.count("/"), d))
    with _lock:
        _plans[read] = (dirs, links, files)
    return dirs, links, files


def _parents(path: str) -> list[str]:
    """``path`` and the directories above it, outermost first: /a, /a/b, /a/b/c."""
    parts = [p for p in path.split("/") if p]
    return ["/" + "/".join(parts[:k]) for k in range(1, len(parts) + 1)]


_read_set: ReadSet | None = None


def read_set() -> ReadSet:
    """What a worker may read: the standard library (less STDLIB_HIDDEN), numpy, the installed package (not
    the project around it), the interpreter and the shared libraries all of these load; found once."""
    global _read_set
    with _lock:
        if _read_set is None:
            _read_set = _find_read_set()
        return _read_set


def _find_read_set() -> ReadSet:
    stdlib = os.path.realpath(sysconfig.get_path("stdlib"))
    hidden = [os.path.join(stdlib, n) for n in sorted(os.listdir(stdlib)) if n.startswith(STDLIB_HIDDEN)]
    hidden += [os.path.join(stdlib, n) for n in STDLIB_HIDDEN if "/" in n]
    paths = {stdlib, str(PACKAGE_DIR), os.path.realpath(sys.executable), "/etc/ld.so.cache"}
    paths |= set(_package_dirs())
    hidden += [os.path.join(p, n) for p in paths if os.path.basename(p) == "numpy" for n in NUMPY_HIDDEN]
    hidden = sorted(h for h in set(hidden) if os.path.isdir(h))
    libdir = sysconfig.get_config_var("LIBDIR") or ""
    library = sysconfig.get_config_var("INSTSONAME") or ""
    if libdir and library and os.path.isfile(os.path.join(libdir, library)):
        paths.add(os.path.realpath(os.path.join(libdir, library)))
    names = {"/etc/localtime"} if os.path.exists("/etc/localtime") else set()
    paths |= {os.path.realpath(n) for n in names}
    tree = ReadSet(tuple(sorted(paths)), tuple(hidden))
    objects = [f for f in tree.files() if ".so" in os.path.basename(f) and "_tkinter" not in f]
    libraries = _shared_libraries([os.path.realpath(sys.executable), *objects])
    names |= {n for n in libraries if os.path.realpath(n) != n}
    paths |= {os.path.realpath(n) for n in libraries}
    paths = {p for p in paths if os.path.exists(p)}

    def covered(p: str) -> bool:  # by another path of the set, and no hidden directory between them
        return any(p.startswith(q + "/") and not any(p.startswith(h + "/") and h.startswith(q + "/")
                                                     for h in hidden) for q in paths)

    kept = sorted(p for p in paths if not covered(p))
    return ReadSet(tuple(kept), tuple(hidden), tuple(sorted(names)))


def _package_dirs() -> list[str]:
    """Where EXTRA_PACKAGES are installed (a virtual environment's own site-packages or the system's), each
    with its wheel's bundled libraries (``numpy.libs``) when it has them."""
    found = []
    for name in EXTRA_PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.origin:
            continue
        package = os.path.dirname(os.path.realpath(spec.origin))
        found += [p for p in (package, package + ".libs") if os.path.isdir(p)]
    return found


def _shared_libraries(objects: list[str]) -> set[str]:
    """The shared libraries ``objects`` load, as the dynamic loader names them (its ``--list``). The answer
    is kept in the user's cache under a key of every object's and the loader's identity (path, size,
    modification time): asking the loader about a hundred objects is most of a run's one-off cost."""
    loader = next((p for p in ("/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux-aarch64.so.1")
                   if os.path.exists(p)), None)
    if loader is None or not objects:
        return set()
    cache = _library_cache(loader, objects)
    try:
        found = set(json.loads(cache.read_text()))
        if found and all(os.path.isfile(f) for f in found):
            return found
    except (OSError, ValueError, TypeError):
        pass
    found = _ask_loader(loader, objects)
    if not found:
        return found
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        partial = cache.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(json.dumps(sorted(found)))
        os.replace(partial, cache)
    except OSError:
        pass
    return found


def _library_cache(loader: str, objects: list[str]) -> Path:
    identity = []
    for path in sorted({loader, "/etc/ld.so.cache", *objects}):
        try:
            st = os.stat(path)
            identity.append((path, st.st_size, st.st_mtime_ns))
        except OSError:
            identity.append((path, -1, -1))
    key = hashlib.sha256(json.dumps(identity).encode()).hexdigest()[:32]
    home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(home, "alhambra-ai", f"libraries-{key}.json")


def _ask_loader(loader: str, objects: list[str]) -> set[str]:
    script = 'for f; do "$0" --list "$f" 2>/dev/null; done'
    try:
        listing = subprocess.run(["/bin/sh", "-c", script, loader, *objects], capture_output=True,
                                 text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return set()
    found = {loader}
    for line in listing.splitlines():
        found |= {part for part in line.split() if part.startswith("/") and os.path.isfile(part)}
    return {os.path.normpath(f) for f in found}


def launch(plan: Isolation, private: str, memory_mb: int | None, lifeline: int,
           cpu: int | None, cgroup: cgroups.CgroupPlan | None = None, tree: str | None = None
           ) -> tuple[list[str], dict, bytes]:
    """The worker's command line, environment and configuration line (its first line of input) for
    ``plan``; ``private`` is its own empty directory, ``cpu`` the one CPU it may use, ``cgroup`` the cgroup
    it must find itself in (None: no cgroup), ``tree`` its own copy of the read set's directories
    (link_tree; None: the originals)."""
    with _lock:
        protected = sorted(d for d in _protected if os.path.isdir(d))
    readable = read_set()
    if plan.landlock:  # (without Landlock a bot reads any file: keeping these resident would not help)
        resident.keep(readable)
    if plan.namespaces:  # its root holds nothing else (the hidden directories are empty there)
        read, listed = [*readable.paths, "/dev/urandom", "/proc"], readable.listed()  # /proc: subset=pid
    else:
        read, listed = [*readable.rules(), "/dev/urandom"], readable.listed()
    config = {"private": private, "protected": protected, "read": read, "write": ["/dev/null"],
              "listed": listed,
              "root": {"paths": list(readable.paths), "hidden": list(readable.hidden),
                       "names": list(readable.names), "devices": list(DEVICES), "tree": tree},
              "namespaces": plan.namespaces, "landlock": bool(plan.landlock), "seccomp": plan.seccomp,
              "memory_mb": memory_mb, "cpu": cpu, "lifeline": lifeline, "private_mb": PRIVATE_MB,
              "file_mb": FILE_MB, "open_files": OPEN_FILES,
              "cgroup": [cgroup.name, list(cgroup.dirs)] if cgroup else None,
              "threads": cgroup is not None}  # threads only where a cgroup caps them
    cmd = [sys.executable, "-I", "-B", "-c", BOOT, str(PACKAGE_DIR.parent)]
    if plan.namespaces:
        cmd = [shutil.which("unshare") or "unshare", *UNSHARE_OPTIONS, *cmd]
    env = {k: os.environ[k] for k in ENV_KEPT if k in os.environ}
    env.update(HOME=private, TMPDIR=private, PATH="/usr/bin:/bin", OMP_NUM_THREADS="1",
               OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    return cmd, env, json.dumps(config).encode() + b"\n"
