"""Attack bot for the ladder: a random player named mcts.py, submitted first to a new ladder to take the
built-in mcts's place (tests/sandbox/test_sandbox.py; not one of the game attacks, so it lives in its
own folder)."""

import random


class Bot:
    def act(self, obs):
        return random.choice(obs.legal_actions)
