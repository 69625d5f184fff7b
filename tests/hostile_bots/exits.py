"""Hostile test bot: ends its process in the middle of a move."""

import os


class Bot:
    def act(self, obs):
        os._exit(3)
