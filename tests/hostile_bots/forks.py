"""Hostile test bot: leaves a sleeping child process behind, then hangs."""

import os
import time


class Bot:
    def act(self, obs):
        if os.fork() == 0:
            time.sleep(600)
            os._exit(0)
        while True:
            time.sleep(1)
