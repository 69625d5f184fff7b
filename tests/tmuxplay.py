"""``alhambra-ai play`` (or ``replay``) in a real terminal: a private tmux server the screen tests drive
(send-keys, capture-pane)."""

import re
import subprocess
import sys
import time

from paths import ROOT

RAW_CITY = re.compile(r"-?\d+,-?\d+:\d+")            # the City.to_text tokens the screens used to print


class Tmux:
    """``play`` in a private tmux server (its own socket, killed at the end) at 80 x 24, or ``size``; the
    server starts in the checkout, so that ``python -m`` finds this package first."""

    def __init__(self, tmp_path, args, size=(80, 24), name=None, command="play", status=False):
        self.sock = str(tmp_path / f"tmux-{name or args[1]}.sock")    # one server per game: --game NAME
        cmd = [sys.executable, "-m", "alhambra_ai.cli", command, *args]
        env = f"PYTHONPATH={ROOT}"
        if status:      # a shell says the exit status at once (tmux may mark the dead pane much later)
            cmd = ["sh", "-c", '"$@"; echo "[exit status $?]"', "sh", *cmd]
        self.run("new-session", "-d", "-c", str(ROOT), "-x", str(size[0]), "-y", str(size[1]), "env", env,
                 *cmd, ";", "set-option", "remain-on-exit", "on")

    def run(self, *args):
        return subprocess.run(["tmux", "-S", self.sock, *args], capture_output=True, text=True, check=True,
                              cwd=ROOT).stdout

    def screen(self):
        return self.run("capture-pane", "-p", "-J")        # -J: a wrapped line comes back whole

    def scrollback(self, lines=100):
        """The screen and the ``lines`` above it (a dead pane's "Pane is dead" line scrolls the top line off
        the screen)."""
        return self.run("capture-pane", "-p", "-J", "-S", f"-{lines}")

    def send(self, keys):
        self.run("send-keys", keys, "Enter")

    def key(self, *keys):
        """Keys as tmux names them (``Right``, ``Tab``, ``PageUp``), without Enter."""
        self.run("send-keys", *keys)

    def resize(self, columns, lines):
        self.run("resize-window", "-x", str(columns), "-y", str(lines))

    def wait(self, pattern, shows="", timeout=60):
        """The screen once its last line is a prompt matching ``pattern`` and it shows ``shows``."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            screen = self.screen()
            lines = [x for x in screen.splitlines() if x.strip()]
            if lines and re.search(pattern, lines[-1]) and shows in screen:
                return screen
            time.sleep(0.2)
        raise AssertionError(f"no prompt {pattern!r} on the screen:\n{self.screen()}")

    def close(self):
        subprocess.run(["tmux", "-S", self.sock, "kill-server"], capture_output=True)
