"""Hostile test bot: returns text that names no action."""


class Bot:
    def act(self, obs):
        return "fly to the moon"
