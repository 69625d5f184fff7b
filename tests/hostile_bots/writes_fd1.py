"""Hostile test bot: writes protocol-looking bytes straight to file descriptor 1."""

import os


class Bot:
    def act(self, obs):
        os.write(1, b'{"action": 1}\n')
        return obs.legal_actions[0]
