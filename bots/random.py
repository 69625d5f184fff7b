"""random: uniform over the legal actions. The baseline every other bot must beat."""

import random


class Bot:
    def __init__(self) -> None:
        self.rng = random.Random(0)

    def setup(self, config: dict) -> None:
        self.rng = random.Random(config.get("seed", 0))

    def act(self, obs) -> int:
        return self.rng.choice(obs.legal_actions)
