"""Hostile test bot: calls sys.exit during a move."""

import sys


class Bot:
    def act(self, obs):
        sys.exit(0)
