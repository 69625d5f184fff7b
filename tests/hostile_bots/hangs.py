"""Hostile test bot: never answers."""

import time


class Bot:
    def act(self, obs):
        while True:
            time.sleep(1)
