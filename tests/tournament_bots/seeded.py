"""Test bot: a random legal action from a generator seeded by the referee (deterministic)."""

import random


class Bot:
    def setup(self, config):
        self.rng = random.Random(config["seed"])

    def act(self, obs):
        return self.rng.choice(obs.legal_actions)
