"""Test bot: the first legal action, after 0.2 s (so that the other seats wait on its clock)."""

import time


class Bot:
    def act(self, obs):
        time.sleep(0.2)
        return obs.legal_actions[0]
