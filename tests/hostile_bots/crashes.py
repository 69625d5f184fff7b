"""Hostile test bot: kills itself with a signal (like a segfault in an extension)."""

import os
import signal


class Bot:
    def act(self, obs):
        os.kill(os.getpid(), signal.SIGSEGV)
