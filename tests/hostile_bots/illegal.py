"""Hostile test bot: returns an action code that is never legal."""


class Bot:
    def act(self, obs):
        return 10**9 + 7
