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


# ---------------------------------------------------------------------------------------------------------
# What a screen must hold whole (issue 55 item 2): the own city, its news, its scoring lines

TILE = re.compile(r"(?<![a-z])(?:pav|ser|arc|cha|gar|tow|baz|cmp)(?: ?\d+)?(?=[NS ]|[#|H=+]|$)|FOUNT|FNT")
TITLE = re.compile(r"you(?: \(seat \d\))?: (\d+) buildings?")


def city_problems(screen, cells=None):
    """What keeps the own city from being whole on ``screen`` (a list of words; [] when it is whole): a cut
    marker, no title or reserve, a clipped line, a missing row or column, fewer tiles than its title counts.
    ``cells`` (x, y, ...) of the city when known: each row and column is drawn."""
    lines = screen.split("\n")
    problems = [w for w, marker in (("cut", "(cut:"), ("widen", "widen the terminal")) if marker in screen]
    title = next((k for k, x in enumerate(lines) if TITLE.search(x)), None)
    head = next((k for k, x in enumerate(lines) if "y\\x" in x), None)
    if title is None or head is None:
        return [*problems, "no city"]
    c = lines[head].index("y\\x")
    start = TITLE.search(lines[title]).start()
    beside = [m.start() for m in re.finditer(r"Since your last move|Nothing happened|seat \d+[ :]",
                                             lines[title][start + 1:])]
    side = start + 1 + beside[0] if beside else -1
    end = side if side > start else start if start > c else None    # what stands beside the city's grid
    ys, k = [], head + 1
    while k < len(lines) and "reserve:" not in lines[k][max(0, c - 1):end]:
        label = lines[k][max(0, c - 1):c + 3].strip()
        if label.lstrip("-").isdigit():
            ys.append(int(label))
        elif label:
            break
        k += 1
    if not any("reserve:" in x for x in lines[title:]):
        problems.append("no reserve")
    if ys != list(range(ys[0], ys[0] - len(ys), -1)) if ys else True:
        problems.append(f"rows {ys}")
    xs = [int(t) for t in re.findall(r"-?\d+", lines[head][c + 3:end])]
    block = [x[max(0, c - 1):end] for x in lines[head + 1:k]]
    if any(x.rstrip().endswith("...") for x in [lines[title][start:end], *block]):
        problems.append("clipped")
    drawn = sum(len(TILE.findall(x)) for x in block)
    built = int(TITLE.search(lines[title]).group(1))
    if drawn != built + 1:
        problems.append(f"{drawn} tiles drawn, {built} buildings and the fountain")
    if cells is not None:
        need_y = {cell[1] for cell in cells}
        need_x = {cell[0] for cell in cells}
        if not need_y <= set(ys) or not need_x <= set(xs):
            problems.append(f"rows {sorted(need_y - set(ys))} or columns {sorted(need_x - set(xs))} missing")
    return problems


def news_problems(screen, events):
    """The news lines (``TerminalGame.events()``) that ``screen`` lost: each seat's line must be there (its
    ``s2: `` at least, as cut lines keep it), each other note by its first words."""
    lost = []
    for event in events:
        seat = re.match(r"(you|s\d+): ", event)
        if seat and not re.search(rf"(^|\s){re.escape(seat.group(0))}", screen, re.M):
            lost.append(event)
        elif not seat and " ".join(event.split()[:3]) not in " ".join(screen.split()):
            lost.append(event)
    return lost
