"""Test bot: its first move takes longer than the move time (the bank pays), then it is quick."""

import time


class Bot:
    def setup(self, config):
        self.move_time, self.slow = config["move_time"], True

    def act(self, obs):
        if self.slow:
            self.slow = False
            time.sleep(self.move_time * 1.5)
        return obs.legal_actions[0]
