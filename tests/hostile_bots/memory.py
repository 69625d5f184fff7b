"""Hostile test bot: allocates memory without end."""


class Bot:
    def act(self, obs):
        hoard = []
        while True:
            hoard.append(bytes(64 * 1024 * 1024))  # calloc: address space, quickly
