"""Test bot: always the first legal action."""


class Bot:
    def act(self, obs):
        return obs.legal_actions[0]
