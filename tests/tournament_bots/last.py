"""Test bot: always the last legal action."""


class Bot:
    def act(self, obs):
        return obs.legal_actions[-1]
