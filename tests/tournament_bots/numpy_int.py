"""Test bot: answers with a numpy integer (as np.argmax-style code does)."""

import numpy as np


class Bot:
    def act(self, obs):
        return np.int64(obs.legal_actions[0])
