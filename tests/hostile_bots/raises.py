"""Hostile test bot: raises on its first move."""


class Bot:
    def act(self, obs):
        raise RuntimeError("deliberate failure")
