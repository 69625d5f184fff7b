"""Attack bot: forks as often as it can (at most 20 children, which sleep)."""

import os
import time


class Bot:
    def setup(self, config):
        forked = 0
        for _ in range(20):
            try:
                if os.fork() == 0:
                    time.sleep(60)
                    os._exit(0)
                forked += 1
            except OSError:
                break
        if forked:
            raise RuntimeError(f"ESCAPED: forked {forked} processes")

    def act(self, obs):
        return obs.legal_actions[0]
