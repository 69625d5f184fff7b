"""Attack bot: tries to leave a daemon behind (double fork, new session) named alhambra-daemon; the tests
look for it after the game. It plays on whether or not that worked."""

import ctypes
import os
import time


def daemonize():
    try:
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                ctypes.CDLL(None).prctl(15, b"alhambra-daemon")  # PR_SET_NAME: visible in ps
                time.sleep(120)
            os._exit(0)
    except OSError:
        pass


class Bot:
    def setup(self, config):
        daemonize()

    def act(self, obs):
        return obs.legal_actions[0]
