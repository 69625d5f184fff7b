"""Hostile test bot: allocates memory without end."""


class Bot:
    def act(self, obs):
        hoard = []
        while True:
            hoard.append(bytearray(16 * 1024 * 1024))
