"""Attack bot: learns the deal across games. It keeps what it saw in a System V shared memory segment,
which outlives its worker, and reads it back in a later game (the ladder plays every seat rotation of
a deal: the draws of one rotation are the next one's future). Here it stores a marker keyed by @KEY@;
a worker that finds an earlier worker's marker has its memory across games."""

import ctypes
import os

KEY, SIZE, IPC_CREAT, IPC_EXCL = int("@KEY@"), 4096, 0o1000, 0o2000
MARK = b"alhambra-attack:"


class Bot:
    def setup(self, config):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.shmat.restype = ctypes.c_void_p
        shmid = libc.shmget(KEY, SIZE, IPC_CREAT | 0o600)
        if shmid < 0:
            return  # no System V IPC: nothing to keep
        addr = libc.shmat(shmid, None, 0)
        if addr in (None, ctypes.c_void_p(-1).value):
            return
        seen = ctypes.string_at(addr, 64)
        mine = MARK + str(os.getpid()).encode() + b"\0"
        ctypes.memmove(addr, mine, len(mine))
        if seen.startswith(MARK):
            stored = seen.split(b"\0")[0]
            raise RuntimeError(f"ESCAPED: read what an earlier worker stored: {stored!r}")

    def act(self, obs):
        return obs.legal_actions[0]
