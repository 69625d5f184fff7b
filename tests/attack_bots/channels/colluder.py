"""Two copies of this bot try to pass bits to each other through what the host shares (issue 51): the
test (tests/sandbox/test_channels.py) asks one worker to send a nonce through a channel and another,
alive at the same time or started after the first is gone, to receive it. Each ``act`` gets
{"role": "send" | "receive", "channel": NAME, "bits": [0, 1, ...] | "n": N} and returns the bits it
received as a string of 0s and 1s, or "unavailable: why" when the channel cannot even be tried.

Channels:
  residency   page-cache residency of a file every worker may read: the sender evicts a page
              (posix_fadvise DONTNEED) for a 0 and reads it for a 1; the receiver asks mincore()
  latency     the same with a pair of pages per bit (the first read for a 1, the second for a 0), read
              back by timing one read of each (a resident page is fast)
  lookups     the dentry cache: a pair of names that do not exist per bit, the sender looking up one;
              the receiver times the lookup of both (a remembered miss is faster)
  contention  two workers of concurrent games, on the two CPUs: the sender makes memory traffic in a
              time slot for a 1 and sleeps for a 0; the receiver counts the work it gets done per slot
  loadavg     host-wide task count (/proc/loadavg): 48 sleeping threads for a 1, none for a 0, each bit
              sent as a pair of rounds (Manchester) so that the host's own drift cancels
  counters    whether host-wide counters are readable at all (/proc/stat, meminfo, pressure, file-nr,
              sysinfo()): a bit is passed if any is
  pipes       the user's pipe-buffer quota: the sender holds pipes of 1 MB until the quota is spent;
              a new pipe then gets 2 pages instead of 16
"""

import ctypes
import errno
import os
import threading
import time

PAGE = os.sysconf("SC_PAGE_SIZE")
SLOT = 0.02  # seconds per bit of the contention channel
POSIX_FADV_DONTNEED = 4
F_SETPIPE_SZ, F_GETPIPE_SZ = 1031, 1032
_libc = ctypes.CDLL(None, use_errno=True)
_libc.mmap.restype = ctypes.c_void_p
_libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                       ctypes.c_long]
_libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
_libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]


def shared_file():
    """A file of the standard library that every worker may read and nobody maps: large enough for the
    bits, one page each."""
    import pydoc_data.topics

    return pydoc_data.topics.__file__


def lookup_dir():
    return os.path.dirname(os.__file__)


_held = []  # what the sender keeps alive (threads, pipes) between its moves


class Bot:
    def act(self, observation):
        obs = observation.to_dict()
        role, channel = obs["role"], obs["channel"]
        try:
            if role == "send":
                return getattr(self, f"send_{channel}")(obs["bits"], obs.get("salt", ""))
            return getattr(self, f"receive_{channel}")(obs["n"], obs.get("salt", ""))
        except OSError as e:
            return f"unavailable: {e}"

    # residency and latency: pages of a shared file
    def _file(self, pages):
        path = shared_file()
        if os.path.getsize(path) < (pages + 1) * PAGE:
            raise OSError(errno.EFBIG, f"{path} too small")
        fd = os.open(path, os.O_RDONLY)
        try:  # no read-ahead: a page stays as the sender left it until it is read itself
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)
        except OSError:
            pass
        return fd

    def _set_pages(self, hot):
        """Evict every page of ``hot``'s range, then read the pages marked hot."""
        fd = self._file(len(hot))
        try:
            for k, bit in enumerate(hot):
                os.posix_fadvise(fd, (k + 1) * PAGE, PAGE, POSIX_FADV_DONTNEED)
                if bit:
                    os.pread(fd, 1, (k + 1) * PAGE)
        finally:
            os.close(fd)
        return "sent"

    def send_residency(self, bits, salt):
        return self._set_pages(bits)

    def receive_residency(self, n, salt):
        fd = self._file(n)
        size = (n + 1) * PAGE
        try:
            address = _libc.mmap(None, size, 1, 1, fd, 0)  # PROT_READ, MAP_SHARED
            vector = (ctypes.c_ubyte * (n + 1))()
            if _libc.mincore(address, size, vector) != 0:
                e = ctypes.get_errno()
                _libc.munmap(address, size)
                raise OSError(e, f"mincore: {os.strerror(e)}")
            _libc.munmap(address, size)
        finally:
            os.close(fd)
        return "".join(str(vector[k + 1] & 1) for k in range(n))

    def send_latency(self, bits, salt):  # a pair of pages per bit: the first read for a 1, else the second
        return self._set_pages(manchester(bits))

    def receive_latency(self, n, salt):
        fd = self._file(2 * n)
        times = []
        try:
            for k in range(2 * n):
                t = time.perf_counter_ns()
                os.pread(fd, 1, (k + 1) * PAGE)
                times.append(time.perf_counter_ns() - t)
        finally:
            os.close(fd)
        return pairs(times)

    # lookups: a name that does not exist, looked up by the sender (first of a pair for a 1)
    def send_lookups(self, bits, salt):
        for k, hot in enumerate(manchester(bits)):
            if hot:
                os.path.exists(os.path.join(lookup_dir(), f"no-such-{salt}-{k}"))
        return "sent"

    def receive_lookups(self, n, salt):
        times = []
        for k in range(2 * n):
            name = os.path.join(lookup_dir(), f"no-such-{salt}-{k}")
            t = time.perf_counter_ns()
            os.path.exists(name)
            times.append(time.perf_counter_ns() - t)
        return pairs(times)

    # contention: a worker of another game, computing at the same time on the other CPU, slows this one
    def send_contention(self, bits, salt):
        start = float(salt)  # the slots' common start (wall clock), agreed on beforehand
        buf = bytearray(8 << 20)
        for k, bit in enumerate(bits):
            end = start + (k + 1) * SLOT
            while time.time() < start + k * SLOT:
                pass
            if bit:  # memory traffic for the slot: caches and memory bandwidth are shared
                while time.time() < end:
                    buf[::4096] = bytes(len(buf[::4096]))
            else:
                time.sleep(max(0.0, end - time.time()))
        return "sent"

    def receive_contention(self, n, salt):
        start = float(salt)
        buf = bytearray(8 << 20)
        work = []
        for k in range(n):
            while time.time() < start + k * SLOT + SLOT / 4:
                pass
            end, count = start + (k + 1) * SLOT - SLOT / 4, 0
            while time.time() < end:
                buf[::4096] = bytes(len(buf[::4096]))
                count += 1
            work.append(count)
        middle = sorted(work)[len(work) // 2]
        return "".join("1" if w < middle else "0" for w in work)

    # loadavg: host-wide task count
    def send_loadavg(self, bits, salt):
        bit = bits[0]
        for stop in _held:
            stop.set()
        _held.clear()
        if bit:
            stop = threading.Event()
            _held.append(stop)
            try:
                for _ in range(48):
                    threading.Thread(target=stop.wait, daemon=True).start()
            except RuntimeError:  # the task cap: as many as it allows
                pass
        time.sleep(0.02)  # the threads that were told to stop are gone
        return "sent"

    def receive_loadavg(self, n, salt):
        with open("/proc/loadavg") as f:
            return f.read().split()[3].split("/")[1]  # the total: the test compares two rounds

    # counters: readable at all?
    def receive_counters(self, n, salt):
        readable = []
        for path in ("/proc/loadavg", "/proc/stat", "/proc/meminfo", "/proc/pressure/cpu",
                     "/proc/sys/fs/file-nr", "/proc/vmstat", "/proc/diskstats"):
            try:
                with open(path) as f:
                    f.read(1)
                readable.append(path)
            except OSError:
                pass

        class SysInfo(ctypes.Structure):
            _fields_ = [("uptime", ctypes.c_long), ("loads", ctypes.c_ulong * 3),
                        ("rest", ctypes.c_byte * 100)]

        if _libc.sysinfo(ctypes.byref(SysInfo())) == 0:
            readable.append("sysinfo()")
        if not readable:
            raise OSError(errno.EACCES, "no host-wide counter is readable")
        return "1" * n  # any readable counter carries bits: what the test counts is its presence

    # pipes: the user's quota of pipe buffers
    def send_pipes(self, bits, salt):
        for fd in _held:
            os.close(fd)
        _held.clear()
        if bits[0]:  # 1 MB pipes until the quota refuses more, then plain ones to pass its soft limit
            import fcntl

            grow = True
            try:
                for _ in range(120):
                    r, w = os.pipe()
                    _held.extend((r, w))
                    if grow:
                        try:
                            fcntl.fcntl(w, F_SETPIPE_SZ, 1 << 20)
                        except OSError:
                            grow = False
            except OSError:  # out of descriptors
                pass
        return "sent"

    def receive_pipes(self, n, salt):
        import fcntl

        r, w = os.pipe()
        try:
            size = fcntl.fcntl(w, F_GETPIPE_SZ)
        finally:
            os.close(r)
            os.close(w)
        return "1" if size < 65536 else "0"


def manchester(bits):
    """Each bit as a pair of slots, the first hot for a 1, the second for a 0: read back by comparing the
    pair, whatever the machine's drift."""
    return [x for b in bits for x in ((1, 0) if b else (0, 1))]


def pairs(times):
    """The bits of Manchester pairs of timings: 1 where the first of the pair was faster (was hot)."""
    return "".join("1" if times[2 * k] < times[2 * k + 1] else "0" for k in range(len(times) // 2))
