"""Hostile test bot: prints to stdout (the referee protocol channel)."""


class Bot:
    def act(self, obs):
        print("my move is", obs.legal_actions[0])
        return obs.legal_actions[0]
