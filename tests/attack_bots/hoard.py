"""Attack bot: holds resources that no cap counts (the tests give --memory 256): 1,200 threads (each a
task of the host), the machine's asynchronous I/O contexts, its user's inotify instances, 96 MB of
System V shared memory that outlives it (key from @KEY@), and last 768 MB in memfd files, which an
address-space cap does not see."""

import ctypes
import os
import threading
import time

KEY, IPC_CREAT = int("@KEY@"), 0o1000
SYS_IO_SETUP = 206  # x86_64


class Bot:
    def setup(self, config):
        libc = ctypes.CDLL(None, use_errno=True)
        held = []
        threads = self.threads()
        if threads >= 1000:
            held.append(f"{threads} threads")
        ctx = ctypes.c_ulong(0)
        if libc.syscall(SYS_IO_SETUP, 4096, ctypes.byref(ctx)) == 0:
            held.append("4096 AIO events of the machine's limit")
        watches = 0
        for _ in range(100):
            if libc.inotify_init() < 0:
                break
            watches += 1
        if watches >= 100:
            held.append(f"{watches} inotify instances")
        if libc.shmget(KEY + 10, 96 << 20, IPC_CREAT | 0o600) >= 0:
            held.append("96 MB of SysV shared memory that outlives it")
        if held:
            raise RuntimeError(f"ESCAPED: held {', '.join(held)}")
        memfd = self.memfd(768)
        if memfd > 256:
            raise RuntimeError(f"ESCAPED: held {memfd} MB in memfd files under a 256 MB cap")

    def threads(self):
        ctypes.CDLL(None).mallopt(-8, 1)  # M_ARENA_MAX: no 64 MB arena reserved per thread
        threading.stack_size(64 << 10)
        stop, started = threading.Event(), 0
        for _ in range(1200):
            try:
                threading.Thread(target=stop.wait, daemon=True).start()
            except RuntimeError:
                break
            started += 1
        time.sleep(0.05)
        stop.set()
        return started

    def memfd(self, mb):
        chunk, held, self.fds = b"x" * (1 << 20), 0, []  # held for the whole game
        try:
            for k in range(mb):
                if k % 48 == 0:  # files of 48 MB: under the file-size cap
                    self.fds.append(os.memfd_create("hoard"))
                os.write(self.fds[-1], chunk)
                held += 1
        except OSError:
            pass
        return held

    def act(self, obs):
        return obs.legal_actions[0]
