"""Attack bot: looks for the hidden deal — the master seed in the output directory, the referee's command
line, environment and memory, and any other process's command line (a tournament's or the tests')."""

import os

OUT, REFEREE = "@OUT@", int("@REFEREE@")


def readable(path, size=4096):
    try:
        with open(path, "rb") as f:
            return f.read(size)
    except OSError:
        return None


class Bot:
    def setup(self, config):
        self.attack()

    def attack(self):
        found = [p for p in (f"{OUT}/tournament.json", f"{OUT}/results.jsonl") if readable(p) is not None]
        for part in ("cmdline", "environ", "mem"):
            if readable(f"/proc/{REFEREE}/{part}") is not None:
                found.append(f"referee {part}")
        for pid in set(filter(str.isdigit, os.listdir("/proc"))) - {str(os.getpid()), str(os.getppid())}:
            data = readable(f"/proc/{pid}/cmdline") or b""
            if b"--seed" in data or b"pytest" in data:
                found.append(f"process {pid}: {data[:80]!r}")
        if found:
            raise RuntimeError(f"ESCAPED: read {found}")

    def act(self, obs):
        self.attack()
        return obs.legal_actions[0]
