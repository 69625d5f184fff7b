"""The bot side of the referee protocol: ``python -I -c BOOT PACKAGE_PARENT`` (see sandbox.py).

One worker runs one bot for one seat of one game. It reads its configuration (the first line of its
input), confines itself (cgroup.py, confine.py, as the configuration asks), then talks JSON lines with
the referee over private copies of fds 0 and 1; fd 0 then reads /dev/null and fd 1 goes to a trap, so a
bot that reads stdin or prints to stdout cannot corrupt the protocol (printing is detected and forfeits).
The bot's source comes over the protocol and is written to the worker's private directory: the worker
never opens the submitted file itself.

No bot code runs before the referee asks for it: the hello (the confinement in force) is sent before the
bot is imported, and the referee stops the worker after each reply, so a bot's import, its threads and
its set-up all run on its own clock ("start" and "setup"), never during another seat's.

Referee -> worker                         worker -> referee
CONFIG (one JSON line)
{"cmd": "load", "name": NAME,             {"hello": NAME, "isolation": {...in force...}}
 "source": BASE64, "origin": PATH}         | {"error": "sandbox error", "detail": TEXT}
{"cmd": "start"}                          {"ok": true} | {"error": ...}   (imports the bot, makes it)
{"cmd": "setup", "config": {...}}         {"ok": true} | {"error": ...}
{"cmd": "act", "obs": {...}}              {"action": INT | STR} | {"error": ...}
 (with "log_from": K, the obs's "history" and "events" are what follows the first K of the last ones)

Errors end the worker. Reasons: "load error", "raises", "exits", "exceeds memory", "prints to stdout",
"sandbox error" (a confinement step the referee asked for failed: no bot code ran).
The referee trusts none of this: it validates every reply and times every request itself.
"""

from __future__ import annotations

import base64
import ctypes
import io
import json
import operator
import os
import re
import signal
import sys
import tempfile
import threading
import time
import traceback
from typing import NoReturn

from alhambra_ai.bot.api import BotLoadError, Observation, load_bot

from . import cgroup, confine

DETAIL_CHARS = 2000
SAFE_NAME = re.compile(r"[^A-Za-z0-9_.-]")


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
        self.path = self.origin = ""

    def send(self, msg: dict) -> None:
        self.proto_out.write(json.dumps(msg).encode() + b"\n")
        self.proto_out.flush()

    def fail(self, reason: str, detail: str = "") -> NoReturn:
        if self.path:  # name the file as the user knows it, not the private copy
            detail = detail.replace(self.path, self.origin)
        self.send({"error": reason, "detail": detail[-DETAIL_CHARS:]})
        os._exit(0)

    def check_stdout(self) -> None:
        if _StdoutTrap.printed or os.fstat(self.trap_fd).st_size > 0:
            self.fail("prints to stdout", "the bot wrote to stdout, which carries the referee protocol")

    def receive_bot(self, bot_dir: str) -> str:
        """Write the bot's source (sent by the referee) into ``bot_dir`` (read-only for the bot)."""
        msg = json.loads(self.proto_in.readline() or b"{}")
        if msg.get("cmd") != "load":
            os._exit(2)
        self.name = str(msg["name"])
        path = os.path.join(bot_dir, SAFE_NAME.sub("_", self.name)[:100] + ".py")
        self.path, self.origin = path, str(msg.get("origin") or f"{self.name}.py")
        with open(path, "wb") as f:
            f.write(base64.b64decode(msg["source"]))
        os.chmod(path, 0o444)
        os.chmod(bot_dir, 0o555)
        return path

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

    def start(self, path: str):
        """Import the bot's file and make its Bot (the first bot code this process runs)."""
        try:
            bot_class = load_bot(path)
        except BotLoadError as e:
            self.fail("load error", str(e))
        except MemoryError:
            self.fail("exceeds memory", "MemoryError while loading the bot")
        self.check_stdout()
        return self.guarded(bot_class)

    def run(self, path: str, isolation: dict) -> None:
        self.send({"hello": self.name, "isolation": isolation})  # before any bot code: it cannot forge this
        bot = None
        log: tuple[list, list] = ([], [])         # the history and events of the last observation
        for line in self.proto_in:
            msg = json.loads(line)
            if bot is None and msg["cmd"] in ("start", "setup", "act"):
                bot = self.start(path)
                if msg["cmd"] == "start":
                    self.send({"ok": True})
                    continue
            if msg["cmd"] == "setup":
                assert bot is not None  # started above, by the first start, setup or act
                if callable(getattr(bot, "setup", None)):
                    self.guarded(bot.setup, msg["config"])
                self.send({"ok": True})
            elif msg["cmd"] == "act":
                assert bot is not None
                obs = msg["obs"]
                if "log_from" in msg:           # the logs' new lines only: the whole lists again
                    k = msg["log_from"]
                    log = (log[0][:k] + obs["history"], log[1][:k] + obs["events"])
                    obs["history"], obs["events"] = list(log[0]), list(log[1])
                action = self.guarded(bot.act, Observation(obs))
                if not isinstance(action, int | str) and hasattr(type(action), "__index__"):
                    action = operator.index(action)  # numpy integers are fine
                try:
                    self.send({"action": action})
                except (TypeError, ValueError):  # not JSON: let the referee call it malformed
                    self.send({"action": {"unserialisable": type(action).__name__}})
            else:
                break


def isolate(config: dict) -> dict:
    """The first confinement steps ``config`` asks for (sandbox.launch): namespaces (the private tmpfs, the
    init), rlimits, no privileges. Returns what is in force; raises OSError when a step fails."""
    applied = {"namespaces": False, "landlock": 0, "seccomp": False, "cgroup": False}
    if config.get("cgroup"):  # the referee moved this process before sending the configuration
        name, hierarchies = config["cgroup"]
        if not cgroup.is_member(name, hierarchies):
            raise OSError(f"not in its cgroup {name}")
        applied["cgroup"] = True
    if config["seccomp"]:
        confine.libseccomp()  # found and loaded while the host's tools and libraries are in reach
    if config["namespaces"]:
        confine.mount_private(config["private"], config["private_mb"], config["protected"])
        confine.become_init(config["lifeline"], config["private"])  # now the worker, the init's child
        root = config["root"]
        confine.minimal_root(config["private"], root["paths"], root["hidden"], root["names"],
                             root["devices"], root.get("tree"))
        applied["namespaces"] = True
    else:
        os.close(config["lifeline"])
        _die_with_parent(os.getppid())
    confine.limit(config["memory_mb"], config["file_mb"], config["open_files"], config["cpu"])
    confine.drop_privileges()
    return applied


def lock(config: dict, applied: dict, bot_dir: str, work: str) -> None:
    """The last steps, once the bot's file is in place: Landlock (the bot's own file read-only, ``work``
    read-write) and seccomp; then ``work`` becomes its cwd, HOME and TMPDIR. Raises OSError if a step asked
    for is not in force: no bot code runs with less than the referee planned (its report could be forged)."""
    if config["landlock"]:
        applied["landlock"] = confine.landlock([*config["read"], bot_dir], [*config["write"], work],
                                               config.get("listed", []))
        if not applied["landlock"]:
            raise OSError("Landlock was asked for but is not available")
    if config["seccomp"] and not confine.seccomp(threads=config.get("threads", True)):
        raise OSError("seccomp was asked for but libseccomp is not available")
    applied["seccomp"] = bool(config["seccomp"])
    os.chdir(work)
    os.environ.update(HOME=work, TMPDIR=work)
    tempfile.tempdir = work


def read_config() -> dict:
    """The first line of fd 0, read unbuffered (the rest of the input is the protocol, read later)."""
    line = bytearray()
    while not line.endswith(b"\n"):
        chunk = os.read(0, 1)
        if not chunk:
            os._exit(2)
        line += chunk
    return json.loads(line)


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    config = json.loads(argv[0]) if argv else read_config()
    try:
        applied = isolate(config)
    except OSError as e:
        os.write(1, json.dumps({"error": "sandbox error", "detail": str(e)}).encode() + b"\n")
        os._exit(0)

    # The protocol moves to private fds before any bot code runs.
    bot_dir, work = os.path.join(config["private"], "bot"), os.path.join(config["private"], "work")
    os.mkdir(bot_dir, 0o700)
    os.mkdir(work, 0o700)
    proto_in = os.fdopen(os.dup(0), "rb")
    proto_out = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    trap = tempfile.TemporaryFile(dir=work)
    os.dup2(trap.fileno(), 1)
    sys.stdin = open(os.devnull)  # noqa: SIM115 - lives as long as the process
    sys.stdout = _StdoutTrap()
    # typeshed declares sys.__stdout__ Final; the trap replaces it too: a bot printing through it is caught
    sys.__stdout__ = sys.stdout  # type: ignore[misc,assignment]
    worker = Worker(proto_in, proto_out, trap.fileno())
    path = worker.receive_bot(bot_dir)
    try:
        lock(config, applied, bot_dir, work)
    except OSError as e:
        worker.fail("sandbox error", str(e))
    worker.run(path, applied)


if __name__ == "__main__":
    main()
