"""Broken test bot file: defines no Bot class."""


class Player:
    def act(self, obs):
        return obs.legal_actions[0]
