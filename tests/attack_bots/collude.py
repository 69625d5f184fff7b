"""Attack bot: talks to a colluding copy of itself in another seat or game, through every shared object
a worker might reach without a file it may write: a lock on a file every worker may read (flock), a
System V message queue and semaphore (keys from @KEY@), inotify events on a public file, and the host's
list of shared memory segments (/proc/sysvipc/shm, where the test leaves one)."""

import ctypes
import fcntl
import os
import struct

KEY, IPC_CREAT, IPC_NOWAIT = int("@KEY@"), 0o1000, 0o4000
PUBLIC = os.__file__  # every worker may read the standard library
IN_OPEN, IN_NONBLOCK = 0x20, 0o4000


class Bot:
    def setup(self, config):
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.found = []
        self.lock_file()
        self.queue()
        self.semaphore()
        self.host_segments()
        self.watch = self.libc.inotify_init1(IN_NONBLOCK)
        if self.watch >= 0 and self.libc.inotify_add_watch(self.watch, PUBLIC.encode(), IN_OPEN) < 0:
            self.watch = -1
        self.report()

    def lock_file(self):
        try:
            self.held = os.open(PUBLIC, os.O_RDONLY)
            fcntl.flock(self.held, fcntl.LOCK_EX | fcntl.LOCK_NB)  # kept: the bit for the next worker
        except BlockingIOError:
            self.found.append("flock bit set by another worker")
        except OSError:
            pass

    def queue(self):
        q = self.libc.msgget(KEY + 1, IPC_CREAT | 0o600)
        if q < 0:
            return
        buf = ctypes.create_string_buffer(64)
        if self.libc.msgrcv(q, buf, 56, 0, IPC_NOWAIT) > 0:
            self.found.append(f"message {buf.raw[8:24]!r}")
        msg = struct.pack("l", 1) + b"hello, partner"
        self.libc.msgsnd(q, msg, len(msg) - 8, IPC_NOWAIT)

    def semaphore(self):
        sem = self.libc.semget(KEY + 2, 1, IPC_CREAT | 0o600)
        if sem < 0:
            return
        value = self.libc.semctl(sem, 0, 12)  # GETVAL
        if value > 0:
            self.found.append(f"semaphore at {value}")
        op = struct.pack("HhH", 0, 1, 0)  # sem_num 0, +1, no SEM_UNDO: stays after this worker
        self.libc.semop(sem, ctypes.c_char_p(op), 1)

    def host_segments(self):
        try:
            with open("/proc/sysvipc/shm") as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            return
        if rows:
            self.found.append(f"{len(rows)} shared memory segments of other programs listed")

    def report(self):
        if self.found:
            raise RuntimeError(f"ESCAPED: {'; '.join(self.found)}")

    def act(self, obs):
        if self.watch >= 0:  # opens by others since our own last one: a signal
            events = os.read(self.watch, 4096) if self._pending() else b""
            if events:
                self.found.append(f"{len(events) // 16} inotify events from other processes")
            with open(PUBLIC, "rb"):
                pass
            while self._pending():
                os.read(self.watch, 4096)  # our own
        self.report()
        return obs.legal_actions[0]

    def _pending(self):
        import select

        return bool(select.select([self.watch], [], [], 0)[0])
