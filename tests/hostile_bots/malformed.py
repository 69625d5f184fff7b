"""Hostile test bot: returns something that is no action at all."""


class Bot:
    def act(self, obs):
        return [obs.legal_actions[0]]
