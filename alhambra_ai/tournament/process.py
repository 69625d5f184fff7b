"""The referee side of a bot worker: spawn, talk with deadlines, classify failures, always kill.

Every worker runs in its own session (process group), so killing the group also kills anything the
bot spawned. Live workers are registered so an interrupted tournament can kill them all.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import alhambra_ai

MAX_LINE = 1 << 20  # a reply longer than this is a protocol error, not a reason to eat all memory
STDERR_TAIL = 2000

_live: set[BotProcess] = set()
_live_lock = threading.Lock()


class BotFailure(Exception):
    """The bot forfeits: ``reason`` is one of a short fixed vocabulary, ``detail`` explains."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason, self.detail = reason, detail


class BotProcess:
    """One bot file running in ``alhambra_ai.tournament.worker``; use as a context manager."""

    def __init__(self, path: str | Path, memory_mb: int | None = None) -> None:
        cmd = [sys.executable, "-m", "alhambra_ai.tournament.worker", str(Path(path).resolve()),
               "--parent", str(os.getpid())]
        if memory_mb:
            cmd += ["--memory", str(memory_mb)]
        env = dict(os.environ)
        package_root = str(Path(alhambra_ai.__file__).resolve().parent.parent)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
        env["PYTHONUNBUFFERED"] = "1"
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, start_new_session=True, env=env)
        self._buf = {self.proc.stdout.fileno(): b"", self.proc.stderr.fileno(): b""}
        self.stderr_tail = b""
        with _live_lock:
            _live.add(self)

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def request(self, msg: dict | None, timeout: float) -> tuple[dict, float]:
        """Send ``msg`` (None: just wait) and return (reply, seconds until it came).

        Raises BotFailure for a timeout, a dead worker, garbage on the protocol or an error reply.
        """
        start = time.monotonic()
        if msg is not None:
            try:
                self.proc.stdin.write(json.dumps(msg).encode() + b"\n")
                self.proc.stdin.flush()
            except (BrokenPipeError, OSError):
                raise self._ended() from None
        line = self._read_line(start + timeout, timeout)
        elapsed = time.monotonic() - start
        try:
            reply = json.loads(line)
        except ValueError:
            raise BotFailure("protocol error", f"not a JSON line: {line[:200]!r}") from None
        if not isinstance(reply, dict):
            raise BotFailure("protocol error", f"not a JSON object: {line[:200]!r}")
        if "error" in reply:
            raise BotFailure(str(reply["error"])[:100], str(reply.get("detail", ""))[-STDERR_TAIL:])
        return reply, elapsed

    def _read_line(self, deadline: float, timeout: float) -> bytes:
        out = self.proc.stdout.fileno()
        while b"\n" not in self._buf[out]:
            if len(self._buf[out]) > MAX_LINE:
                raise BotFailure("protocol error", f"reply longer than {MAX_LINE} bytes")
            left = deadline - time.monotonic()
            if left <= 0:
                raise BotFailure("times out", f"no reply within {timeout:.3g} s")
            ready, _, _ = select.select(list(self._buf), [], [], left)
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
        """Classify a worker whose protocol pipe closed."""
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        self._drain_stderr()
        tail = self.stderr_tail.decode(errors="replace").strip()
        if "MemoryError" in tail:
            return BotFailure("exceeds memory", tail)
        if code is not None and code < 0:
            name = signal.Signals(-code).name if -code in signal.valid_signals() else str(-code)
            return BotFailure("crashes", f"killed by {name}" + (f"\n{tail}" if tail else ""))
        more = f"\n{tail}" if tail else ""
        return BotFailure("exits", f"the bot process ended (exit code {code}){more}")

    def _drain_stderr(self) -> None:
        fd = self.proc.stderr.fileno()
        while fd in self._buf and select.select([fd], [], [], 0)[0]:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            self.stderr_tail = (self.stderr_tail + chunk)[-STDERR_TAIL:]

    def close(self) -> None:
        """Kill the worker's whole process group and reap it. Safe to call twice."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                f.close()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - unkillable (D state); nothing more to do
            pass
        with _live_lock:
            _live.discard(self)


def kill_all() -> None:
    """Kill every live worker (used when a tournament is interrupted)."""
    with _live_lock:
        procs = list(_live)
    for p in procs:
        p.close()


def live_count() -> int:
    with _live_lock:
        return len(_live)
