"""Test bot that is noisy but legal: floods stderr, then plays the first legal action."""

import sys


class Bot:
    def act(self, obs):
        sys.stderr.write("x" * 200_000 + "\n")
        return obs.legal_actions[0]
