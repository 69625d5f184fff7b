"""Every page a worker may read stays in the page cache, so that no worker can change what another sees.

The page cache is shared by every process on the host and outlives each of them: a worker that reads a
page nobody had read leaves it resident, and a later worker (or a concurrent one) can tell, by the time a
read takes, whether the page was there. That is a channel between two bots, and across the seat rotations
of one deal a leak of the deal. It closes when every page of everything a worker may read (sandbox.ReadSet)
is already resident before any worker starts: a bot then has no page it can bring in, and seccomp refuses
the calls that evict or query pages (confine.py: fadvise, madvise's page-outs, mincore, cachestat,
readahead). The pages are read here, by the referee, so they are charged to the referee's memory cgroup: a
worker at its own memory cap reclaims only what it charged itself, never these.

``keep`` reads every file of the set once, then checks each file's residency (mincore) at most every
RECHECK seconds and reads what the host evicted meanwhile (memory pressure outside the run).
"""

from __future__ import annotations

import ctypes
import mmap
import os
import threading
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .launch import ReadSet

RECHECK = 30.0  # seconds between two checks of the set's residency
CHUNK = 1 << 20

_libc = ctypes.CDLL(None, use_errno=True)
_libc.mmap.restype = ctypes.c_void_p
_libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                       ctypes.c_long]
_libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
_libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
MAP_FAILED = ctypes.c_void_p(-1).value

_lock = threading.Lock()
_checked: dict[tuple[str, ...], float] = {}  # per read set: when it was last made resident


def keep(read: ReadSet) -> None:
    """Make every page of ``read`` resident, unless that was done less than RECHECK seconds ago."""
    with _lock:
        now = time.monotonic()
        last = _checked.get(read.paths)
        if last is not None and now - last < RECHECK:
            return
        for path in read.files():
            make_resident(path, whole=last is None)
        for directory in read.listed():  # its entries' names (a bot may list it)
            try:
                os.listdir(directory)
            except OSError:
                pass
        _checked[read.paths] = time.monotonic()


def make_resident(path: str, whole: bool = False) -> int:
    """Read the pages of ``path`` that are not in the page cache (``whole``: read it all, no check);
    return how many pages were read. Unreadable files are skipped (a worker cannot read them either)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
    except OSError:
        return 0
    try:
        size = os.fstat(fd).st_size
        if size == 0:
            return 0
        pages = -(-size // mmap.PAGESIZE)
        if whole:
            _read(fd, 0, size)
            return pages
        missing = _missing(fd, size, pages)
        for first, count in missing:
            _read(fd, first * mmap.PAGESIZE, count * mmap.PAGESIZE)
        return sum(count for _, count in missing)
    except OSError:
        return 0
    finally:
        os.close(fd)


def resident_pages(path: str) -> tuple[int, int]:
    """(pages in the page cache, pages) of ``path``: for tests and benchmarks."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        size = os.fstat(fd).st_size
        pages = -(-size // mmap.PAGESIZE)
        return pages - sum(c for _, c in _missing(fd, size, pages)), pages
    finally:
        os.close(fd)


def _missing(fd: int, size: int, pages: int) -> list[tuple[int, int]]:
    """The runs (first page, count) of pages of the open file that are not resident."""
    address = _libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
    if address in (None, MAP_FAILED):
        return [(0, pages)]
    try:
        vector = (ctypes.c_ubyte * pages)()
        if _libc.mincore(address, size, vector) != 0:
            return [(0, pages)]
        raw = bytes(vector)
    finally:
        _libc.munmap(address, size)
    if all(b & 1 for b in raw[:: max(1, pages // 64)]) and b"\x00" not in raw and b"\x02" not in raw:
        return []
    runs: list[tuple[int, int]] = []
    start = None
    for k, flag in enumerate(raw):
        if not flag & 1:
            start = k if start is None else start
        elif start is not None:
            runs.append((start, k - start))
            start = None
    if start is not None:
        runs.append((start, pages - start))
    return runs


def _read(fd: int, offset: int, length: int) -> None:
    end = offset + length
    while offset < end:
        got = os.pread(fd, min(CHUNK, end - offset), offset)
        if not got:
            return
        offset += len(got)
