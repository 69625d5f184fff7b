"""Attack bot: tries to signal the referee, the other workers and everything else (signal 0 only tests
whether it could: a real attacker would send SIGSTOP or SIGKILL)."""

import os

REFEREE = int("@REFEREE@")


def can_signal(pid):
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False


class Bot:
    def setup(self, config):
        self.attack()

    def attack(self):
        me, parent = os.getpid(), os.getppid()
        targets = {REFEREE, -1} | {int(p) for p in os.listdir("/proc") if p.isdigit()}
        hit = sorted(t for t in targets - {me, parent} if t != 0 and can_signal(t))
        if hit:
            raise RuntimeError(f"ESCAPED: could signal {hit[:10]}")

    def act(self, obs):
        self.attack()
        return obs.legal_actions[0]
