"""Hostile test bot: busy-loops forever without releasing anything."""


class Bot:
    def act(self, obs):
        while True:
            pass
