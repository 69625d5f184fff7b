"""The bot side of the referee protocol: ``python -m alhambra_ai.tournament.worker BOT_FILE [--memory MB]``.

One worker runs one bot for one seat of one game. It talks JSON lines with the referee over
private copies of fds 0 and 1; fd 0 then reads /dev/null and fd 1 goes to a trap, so a bot that
reads stdin or prints to stdout cannot corrupt the protocol (printing is detected and forfeits).

Referee -> worker                         worker -> referee
                                          {"hello": NAME} | {"error": REASON, "detail": TEXT}
{"cmd": "setup", "config": {...}}         {"ok": true} | {"error": ...}
{"cmd": "act", "obs": {...}}              {"action": INT | STR} | {"error": ...}

Errors end the worker. Reasons: "load error", "raises", "exits", "exceeds memory", "prints to stdout".
The referee trusts none of this: it validates every reply and times every request itself.
"""

from __future__ import annotations

import ctypes
import io
import json
import operator
import os
import signal
import sys
import tempfile
import threading
import time
import traceback

from alhambra_ai.botapi import BotLoadError, Observation, bot_name, load_bot

DETAIL_CHARS = 2000


class _StdoutTrap(io.TextIOBase):
    """Replaces sys.stdout: swallows writes and remembers that the bot printed."""

    printed = False

    def writable(self) -> bool:
        return True

    def write(self, s: str) -> int:
        if s:
            _StdoutTrap.printed = True
        return len(s)


def _die_with_parent(parent: int) -> None:
    """Never outlive the referee, even if it is SIGKILLed while the bot hangs."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG (Linux)
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)

    def watch() -> None:  # fallback where prctl is missing; harmless elsewhere
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


class Worker:
    def __init__(self, proto_in, proto_out, trap_fd: int) -> None:
        self.proto_in, self.proto_out, self.trap_fd = proto_in, proto_out, trap_fd

    def send(self, msg: dict) -> None:
        self.proto_out.write(json.dumps(msg).encode() + b"\n")
        self.proto_out.flush()

    def fail(self, reason: str, detail: str = "") -> None:
        self.send({"error": reason, "detail": detail[-DETAIL_CHARS:]})
        os._exit(0)

    def check_stdout(self) -> None:
        if _StdoutTrap.printed or os.fstat(self.trap_fd).st_size > 0:
            self.fail("prints to stdout", "the bot wrote to stdout, which carries the referee protocol")

    def guarded(self, fn, *args):
        """Run bot code; any failure ends the worker with its reason."""
        try:
            result = fn(*args)
        except MemoryError:
            self.fail("exceeds memory", "MemoryError (memory cap reached)")
        except SystemExit as e:
            self.fail("exits", f"the bot called exit({e.code!r})")
        except BaseException as e:  # the bot's frames only, the error first
            frames = "".join(traceback.format_tb(e.__traceback__.tb_next))
            self.fail("raises", f"{type(e).__name__}: {e}\n{frames}")
        self.check_stdout()
        return result

    def run(self, path: str) -> None:
        try:
            bot_class = load_bot(path)
        except BotLoadError as e:
            self.fail("load error", str(e))
        except MemoryError:
            self.fail("exceeds memory", "MemoryError while loading the bot")
        self.check_stdout()
        bot = self.guarded(bot_class)
        self.send({"hello": bot_name(path)})
        for line in self.proto_in:
            msg = json.loads(line)
            if msg["cmd"] == "setup":
                if callable(getattr(bot, "setup", None)):
                    self.guarded(bot.setup, msg["config"])
                self.send({"ok": True})
            elif msg["cmd"] == "act":
                action = self.guarded(bot.act, Observation(msg["obs"]))
                if not isinstance(action, int | str) and hasattr(type(action), "__index__"):
                    action = operator.index(action)  # numpy integers are fine
                try:
                    self.send({"action": action})
                except (TypeError, ValueError):  # not JSON: let the referee call it malformed
                    self.send({"action": {"unserialisable": type(action).__name__}})
            else:
                break


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    path, memory_mb, parent = argv[0], None, os.getppid()
    if "--memory" in argv:
        memory_mb = int(argv[argv.index("--memory") + 1])
    if "--parent" in argv:
        parent = int(argv[argv.index("--parent") + 1])
    _die_with_parent(parent)

    # The protocol moves to private fds before any bot code runs.
    proto_in = os.fdopen(os.dup(0), "rb")
    proto_out = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    trap = tempfile.TemporaryFile()
    os.dup2(trap.fileno(), 1)
    sys.stdin = open(os.devnull)  # noqa: SIM115 - lives as long as the process
    sys.stdout = _StdoutTrap()
    sys.__stdout__ = sys.stdout

    if memory_mb:
        import resource

        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    Worker(proto_in, proto_out, trap.fileno()).run(path)


if __name__ == "__main__":
    main()
