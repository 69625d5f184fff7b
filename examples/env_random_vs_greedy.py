"""Two masked policies through the PettingZoo environment (docs/env.md): uniformly random against a
greedy-like one that buys when it can, then puts tiles into its city, else plays at random. Prints the
greedy-like policy's win rate (ties count half) over seat-swapped 2-player games.

    PYTHONPATH=. python examples/env_random_vs_greedy.py [GAMES]
"""

import sys

import numpy as np

from alhambra_ai.env.pettingzoo import env

PREFERENCE = ("buy", "bazaar", "put")          # action-space blocks, best first (docs/env.md)


def greedy_like(e, mask, rng):
    legal = np.flatnonzero(mask)
    for block in PREFERENCE:
        best = [i for i in legal if e.unwrapped.actions.block_of(i) == block]
        if best:
            return int(rng.choice(best))
    return int(rng.choice(legal))


games, wins = int(sys.argv[1]) if len(sys.argv) > 1 else 20, 0.0
e, rng = env("alhambra", num_players=2), np.random.default_rng(0)
for g in range(games):
    e.reset(seed=g // 2)                       # each deal twice, the greedy-like policy in either seat
    me = f"player_{g % 2}"
    for agent in e.agent_iter():
        obs, reward, term, trunc, _info = e.last()
        if term or trunc:
            wins += (reward + 1) / 2 if agent == me else 0      # 2 players: +1 win, 0 tie, -1 loss
            e.step(None)
        elif agent == me:
            e.step(greedy_like(e, obs["action_mask"], rng))
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
print(f"greedy-like vs random: {wins / games:.0%} of {games} games")
