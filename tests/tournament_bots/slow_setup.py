"""Test bot: takes 1 s in setup (so that a later seat could compute meanwhile), then the first legal
action."""

import time


class Bot:
    def setup(self, config):
        time.sleep(1.0)

    def act(self, obs):
        return obs.legal_actions[0]
