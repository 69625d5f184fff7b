"""The worker's own confinement (Linux), applied by worker.py before any bot code is loaded.

Each step uses a kernel mechanism directly (ctypes; seccomp through libseccomp, the library Docker
and systemd use) and reports whether it took effect; the launcher (sandbox.py) decides which steps
to ask for and records what was in force. In order:

    mount_private   (inside the launcher's user + mount namespace, still holding its capabilities)
                    a size-capped tmpfs over the private directory (the bot's cwd and temp dir), and
                    empty read-only tmpfs over the protected directories (tournament outputs)
    become_init     fork: the parent stays as the PID namespace's init, exits when the worker does or
                    when the referee's lifeline pipe closes; the namespace dies with it (no survivors)
    minimal_root    (the worker, in a mount namespace of its own) a root made only of what it may read,
                    read-only, its private directory and a /proc of its own processes (subset=pid): no
                    other path of the host exists for it, not even to look up
    limit           rlimits (address space, file size, open files, core dumps), one CPU
    drop_privileges every capability, the bounding set, and no_new_privs
    landlock        read-only: interpreter, libraries, the package; read-write: the private dir
    seccomp         no new processes, no exec, no debugging, no namespaces or mounts, signals to
                    itself only, no sockets, no channel to other programs (SysV IPC, POSIX message
                    queues, file locks, inotify, the page cache's residency, host-wide counters, the
                    user's pipe quota), nothing held outside the caps (memfd, AIO); no threads where no
                    cgroup counts them

>>> {"fork", "execve", "ptrace", "setsid", "unshare", "shmget", "flock", "socket"} <= DENIED
True
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import resource
import select
import signal

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long

# Landlock (include/uapi/linux/landlock.h); the syscall numbers are the same on every architecture.
SYS_LANDLOCK_CREATE_RULESET, SYS_LANDLOCK_ADD_RULE, SYS_LANDLOCK_RESTRICT_SELF = 444, 445, 446
FS_EXECUTE, FS_WRITE_FILE, FS_READ_FILE, FS_READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
FILE_RIGHTS = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | 1 << 14 | 1 << 15  # + TRUNCATE, IOCTL_DEV
FS_BITS_BY_ABI = {1: 13, 2: 14, 3: 15, 4: 15, 5: 16}  # fs rights handled: bits 0..n-1 (6+: 16)
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1

PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS, PR_CAP_AMBIENT = 1, 4, 24, 38, 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MNT_DETACH = 1, 2, 4, 8, 2
CLONE_THREAD = 0x00010000

# Syscalls a bot never needs, refused with EPERM (clone3 with ENOSYS, so threads fall back to clone).
DENIED = frozenset("""
    fork vfork execve execveat ptrace process_vm_readv process_vm_writev kcmp pidfd_open pidfd_getfd
    pidfd_send_signal tkill mount umount2 pivot_root chroot unshare setns move_mount open_tree fsopen
    fsmount fsconfig fspick mount_setattr setsid setpgid kexec_load kexec_file_load bpf perf_event_open
    userfaultfd keyctl add_key request_key io_uring_setup io_uring_enter io_uring_register
    sched_setaffinity quotactl swapon swapoff reboot init_module finit_module delete_module acct
    name_to_handle_at open_by_handle_at lookup_dcookie iopl ioperm settimeofday clock_settime
    adjtimex clock_adjtime syslog vhangup
    shmget shmat shmdt shmctl msgget msgsnd msgrcv msgctl semget semop semtimedop semctl ipc
    mq_open mq_unlink mq_timedsend mq_timedreceive mq_notify mq_getsetattr
    flock inotify_init inotify_init1 fanotify_init memfd_secret
    socket connect bind listen accept accept4
    mincore cachestat fadvise64 fadvise64_64 arm_fadvise64_64 readahead remap_file_pages
    sysinfo pipe pipe2
""".split())
# The page cache is shared by every worker: a bot that could evict a page of a file all workers read, or
# ask whether one is resident, could signal another (resident.py keeps every readable page resident).
# sysinfo is the host's load, task count and free memory; a pipe's buffer counts against the user's pipe
# quota, which every worker shares.
MADVISE_DENIED = (3, 20, 21, 22, 23)  # WILLNEED, COLD, PAGEOUT, POPULATE_READ / WRITE: bring in or evict
F_SETPIPE_SZ = 1031
# Refused with ENOSYS, as if the kernel lacked them, so that libraries take their fallbacks (libffi's
# closures use a temporary file instead of a memfd; nothing in the standard library needs AIO).
UNAVAILABLE = ("clone3", "memfd_create", "io_setup")
# fcntl commands that lock, lease or watch a file: with them two workers reading one public file could
# signal each other (a lock held or not is a bit). F_GETLK, F_SETLK, F_SETLKW, the OFD locks, leases,
# F_NOTIFY.
FCNTL_DENIED = (5, 6, 7, 36, 37, 38, 1024, 1025, 1026)


def _check(result: int, what: str) -> int:
    if result < 0:
        e = ctypes.get_errno()
        raise OSError(e, f"{what}: {os.strerror(e)}")
    return result


# Hidden in every worker's mount namespace: the cgroup files (a worker, root in its user namespace, must not
# move itself out of its caps).
HIDDEN = ("/sys/fs/cgroup",)


def mount_private(private_dir: str, size_mb: int, protected: list[str]) -> None:
    """Mount the private tmpfs and hide the protected directories and HIDDEN (needs CAP_SYS_ADMIN in the
    namespace)."""
    opts = f"size={size_mb}m,mode=0700".encode()
    _check(_libc.mount(b"tmpfs", private_dir.encode(), b"tmpfs", MS_NOSUID | MS_NODEV, opts), "mount tmpfs")
    os.chdir(private_dir)  # the cwd was the directory under the mount: enter the tmpfs
    for d in [*protected, *HIDDEN]:
        if os.path.isdir(d):
            _check(_libc.mount(b"tmpfs", d.encode(), b"tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
                               b"size=4k,mode=0500"), f"hide {d}")


def become_init(lifeline: int | None, private_dir: str) -> None:
    """Fork; return in the child (the worker). The parent never returns: as the PID namespace's init it
    waits for the worker and exits with its status (128 + signal if killed), killing it first if the
    referee's end of ``lifeline`` closes (the referee died); the kernel then kills the rest of the
    namespace. It removes the (empty) private directory, which a referee that died cannot."""
    pid = os.fork()
    if pid == 0:
        _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if lifeline is not None:
            os.close(lifeline)
        return
    _libc.prctl(PR_SET_DUMPABLE, 0)  # the worker cannot read this process's memory or environment
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):  # the referee sees EOF on the protocol as soon as the worker is gone
        os.dup2(devnull, fd)
    try:
        watched = [os.pidfd_open(pid)] + ([lifeline] if lifeline is not None else [])
        ready, _, _ = select.select(watched, [], [])
        if lifeline in ready:
            os.kill(pid, signal.SIGKILL)
    except (OSError, AttributeError):  # no pidfd (old kernel): just wait
        pass
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if _libc.umount2(private_dir.encode(), MNT_DETACH) == 0:
        try:
            os.rmdir(private_dir)
        except OSError:
            pass
    os._exit(code if code >= 0 else 128 - code)


CLONE_NEWNS, MS_BIND, MS_REMOUNT, MS_REC, MS_PRIVATE = 0x00020000, 4096, 32, 16384, 1 << 18
MS_NOATIME, MS_NODIRATIME, MS_RELATIME = 1024, 2048, 1 << 21
SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41}.get(os.uname().machine)


def minimal_root(private_dir: str, paths: list[str], hidden: list[str], names: list[str],
                 devices: list[str], tree: str | None = None) -> None:
    """Make this process's root a tmpfs holding only ``paths`` (read-only binds, less the ``hidden``
    directories inside them; a directory from ``tree`` + its path when the worker has its own tree of
    links, sandbox.link_tree), the symbolic links through which ``names`` reach them, ``devices``,
    ``private_dir`` (read-write) and a /proc of this PID namespace's processes only. Done in a mount
    namespace of its own, so that the PID namespace's init keeps the host's view (it removes the private
    directory). Needs CAP_SYS_ADMIN in the user namespace."""
    if SYS_PIVOT_ROOT is None:
        raise OSError(f"no pivot_root number for {os.uname().machine}")
    _check(_libc.unshare(CLONE_NEWNS), "unshare mount namespace")
    _check(_libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None), "private propagation")
    root = os.path.join(private_dir, ".root")
    os.mkdir(root, 0o755)
    _check(_libc.mount(b"tmpfs", root.encode(), b"tmpfs", MS_NOSUID | MS_NODEV, b"size=1m,mode=0755"),
           "mount the root")
    for name in names:
        _mirror_links(root, name)
    outer = [p for p in paths if not any(p.startswith(h + "/") for h in hidden)]
    for path in outer:
        _bind(root, path, source=tree + path if tree and os.path.isdir(path) else None)
    for h in hidden:  # an empty directory where each hidden one was; paths inside it are bound again
        inside = [p for p in paths if p.startswith(h + "/")]
        target = (root + h).encode()
        if not os.path.isdir(root + h):
            continue
        if tree:  # the tree holds each hidden directory empty already, read-only like the rest of it
            for path in inside:
                _bind(root, path, source=tree + path if os.path.isdir(path) else None)
            continue
        _check(_libc.mount(b"tmpfs", target, b"tmpfs", MS_NOSUID | MS_NODEV, b"size=4k,mode=0755"),
               f"hide {h}")
        for path in inside:
            _bind(root, path, source=tree + path if tree and os.path.isdir(path) else None)
        _check(_libc.mount(None, target, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV,
                           b"size=4k,mode=0755"), f"hide {h} read-only")
    for device in devices:
        _bind(root, device, readonly=False)
    _bind(root, private_dir, readonly=False)
    os.makedirs(root + "/proc")
    _check(_libc.mount(b"proc", (root + "/proc").encode(), b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
                       b"subset=pid"), "mount /proc (subset=pid)")
    os.chdir(root)
    _check(_libc.syscall(SYS_PIVOT_ROOT, b".", b"."), "pivot_root")
    _check(_libc.umount2(b".", MNT_DETACH), "detach the old root")
    os.chdir("/")
    _check(_libc.mount(None, b"/", None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV,
                       b"size=1m,mode=0755"), "the root read-only")
    os.chdir(private_dir)


def _bind(root: str, path: str, readonly: bool = True, source: str | None = None) -> None:
    """Bind ``path`` (or ``source`` in its place) at the same place under ``root`` (read-only, keeping the
    flags its mount has)."""
    target = root + path
    source = source or path
    if os.path.isdir(path):
        os.makedirs(target, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if not os.path.lexists(target):
            os.close(os.open(target, os.O_CREAT | os.O_WRONLY | os.O_CLOEXEC, 0o644))
    _check(_libc.mount(source.encode(), target.encode(), None, MS_BIND, None), f"bind {source}")
    if readonly:
        flags = os.statvfs(source).f_flag
        kept = (flags & (MS_NOSUID | MS_NODEV | MS_NOEXEC) | (MS_NOATIME if flags & 1024 else 0)
                | (MS_NODIRATIME if flags & 2048 else 0) | (MS_RELATIME if flags & 4096 else 0))
        _check(_libc.mount(None, target.encode(), None, MS_BIND | MS_REMOUNT | MS_RDONLY | kept, None),
               f"bind {path} read-only")


def _mirror_links(root: str, path: str, depth: int = 0) -> None:
    """Make under ``root`` each symbolic link met on the way from / to ``path``, as the host has it."""
    parts = [p for p in path.split("/") if p]
    here = "/"
    for k, part in enumerate(parts):
        step = os.path.join(here, part)
        if os.path.islink(step) and depth < 40:
            target = os.readlink(step)
            os.makedirs(root + here, exist_ok=True)
            if not os.path.lexists(root + step):
                os.symlink(target, root + step)
            resolved = os.path.normpath(os.path.join(here, target))
            _mirror_links(root, os.path.join(resolved, *parts[k + 1:]), depth + 1)
            return
        here = step


def limit(memory_mb: int | None, file_mb: int, open_files: int, cpu: int | None) -> None:
    """rlimits for this process and all its threads; pin to one CPU so its threads cannot use more CPU
    time than the wall time its clock is charged."""
    if memory_mb:
        cap = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_mb * 1024 * 1024,) * 2)
    resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if cpu is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {cpu})


def drop_privileges() -> None:
    """No capabilities (also none regained by exec), and no_new_privs (needed by Landlock and seccomp)."""
    try:
        with open("/proc/sys/kernel/cap_last_cap") as f:
            last = int(f.read())
    except OSError:
        last = 63
    for cap in range(last + 1):
        _libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)  # fails harmlessly without CAP_SETPCAP
    _libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    data = (ctypes.c_uint32 * 6)()  # effective, permitted, inheritable x 2: all zero
    _check(_libc.capset(header, data), "capset")
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")


def landlock_abi() -> int:
    """The kernel's Landlock ABI version, 0 if Landlock is unavailable."""
    version = _libc.syscall(SYS_LANDLOCK_CREATE_RULESET, None, 0, 1)  # LANDLOCK_CREATE_RULESET_VERSION
    return max(0, version)


def landlock(read: list[str], write: list[str], listed: tuple[str, ...] | list[str] = ()) -> int:
    """Allow only reading ``read``, reading + writing ``write`` (files or directories) and listing ``listed``
    (directories), no TCP and (ABI >= 6) no signals or abstract sockets outside this process; returns the
    ABI used (0: none)."""
    abi = landlock_abi()
    if abi == 0:
        return 0
    fs_all = (1 << FS_BITS_BY_ABI.get(abi, 16)) - 1
    attr = (ctypes.c_uint64 * 3)(fs_all, NET_BIND_TCP | NET_CONNECT_TCP,
                                 SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL)
    size = 8 if abi < 4 else 16 if abi < 6 else 24
    ruleset = _check(_libc.syscall(SYS_LANDLOCK_CREATE_RULESET, attr, size, 0), "landlock_create_ruleset")
    try:
        for paths, dir_rights in ((read, FS_EXECUTE | FS_READ_FILE | FS_READ_DIR), (write, fs_all),
                                  (listed, FS_READ_DIR)):
            for path in paths:
                try:
                    fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
                except OSError:
                    continue  # a path this machine does not have
                try:
                    rights = dir_rights if os.path.isdir(path) else dir_rights & FILE_RIGHTS
                    rule = _PathBeneath(rights, fd)
                    _check(_libc.syscall(SYS_LANDLOCK_ADD_RULE, ruleset, 1, ctypes.byref(rule), 0),
                           f"landlock rule {path}")
                finally:
                    os.close(fd)
        _check(_libc.syscall(SYS_LANDLOCK_RESTRICT_SELF, ruleset, 0), "landlock_restrict_self")
    finally:
        os.close(ruleset)
    return abi


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


class _ArgCmp(ctypes.Structure):  # struct scmp_arg_cmp
    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int), ("datum_a", ctypes.c_uint64),
                ("datum_b", ctypes.c_uint64)]


SCMP_ACT_ALLOW = 0x7FFF0000
SCMP_CMP_NE, SCMP_CMP_EQ, SCMP_CMP_MASKED_EQ = 1, 4, 7


def _errno_action(code: int) -> int:
    return 0x00050000 | code  # SCMP_ACT_ERRNO


_libseccomp: list[ctypes.CDLL | None] = []


def libseccomp() -> ctypes.CDLL | None:
    """libseccomp, loaded once: before minimal_root, after which neither its file nor the tools that find
    it are in reach."""
    if not _libseccomp:
        name = ctypes.util.find_library("seccomp")
        _libseccomp.append(ctypes.CDLL(name, use_errno=True) if name else None)
    return _libseccomp[0]


def seccomp(threads: bool = True) -> bool:
    """Install the syscall filter (libseccomp); False if libseccomp is missing. ``threads``: may the bot
    start threads (only where a cgroup caps its tasks)."""
    lib = libseccomp()
    if lib is None:
        return False
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_rule_add_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint,
                                           ctypes.POINTER(_ArgCmp)]
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_load.argtypes = lib.seccomp_release.argtypes = [ctypes.c_void_p]
    ctx = lib.seccomp_init(SCMP_ACT_ALLOW)
    if not ctx:
        raise OSError("seccomp_init failed")
    me = os.getpid()

    def deny(syscall: str, *conditions: tuple[int, int, int, int], code: int = errno.EPERM) -> None:
        number = lib.seccomp_syscall_resolve_name(syscall.encode())
        if number < 0:
            return  # not a syscall on this architecture (e.g. fork on arm64)
        args = (_ArgCmp * max(1, len(conditions)))(*[_ArgCmp(*c) for c in conditions])
        rc = lib.seccomp_rule_add_array(ctx, _errno_action(code), number, len(conditions), args)
        if rc < 0:
            raise OSError(-rc, f"seccomp rule for {syscall}: {os.strerror(-rc)}")

    try:
        for syscall in sorted(DENIED):
            deny(syscall)
        for syscall in UNAVAILABLE:
            deny(syscall, code=errno.ENOSYS)
        if threads:
            deny("clone", (0, SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0))  # a new process, not a thread
        else:
            deny("clone", code=errno.EAGAIN)  # Python: "can't start new thread"
        for cmd in (*FCNTL_DENIED, F_SETPIPE_SZ):
            deny("fcntl", (1, SCMP_CMP_EQ, cmd, 0))
        for advice in MADVISE_DENIED:
            deny("madvise", (2, SCMP_CMP_EQ, advice, 0))
        for syscall in ("kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo"):
            deny(syscall, (0, SCMP_CMP_NE, me, 0))  # signals to itself only
        rc = lib.seccomp_load(ctx)
        if rc < 0:
            raise OSError(-rc, f"seccomp_load: {os.strerror(-rc)}")
    finally:
        lib.seccomp_release(ctx)
    return True
