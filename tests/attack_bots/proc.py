"""Attack bot: looks through /proc for other processes (the referee, the opponents) and its parent's
environment and memory."""

import os


class Bot:
    def setup(self, config):
        self.attack()

    def attack(self):
        me, parent = os.getpid(), os.getppid()
        others = [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) not in (me, parent)]
        found = [f"sees {len(others)} other processes"] if others else []
        for part in ("environ", "mem"):
            try:
                with open(f"/proc/{parent}/{part}", "rb") as f:
                    f.read(1)
                found.append(f"reads its parent's {part}")
            except OSError:
                pass
        if found:
            raise RuntimeError(f"ESCAPED: {found}")

    def act(self, obs):
        self.attack()
        return obs.legal_actions[0]
