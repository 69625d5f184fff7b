"""Shared helpers for the information, position and record tests: random games and hidden-order variants."""

import json
import math
import random

from alhambra_ai import new_game, state_from_json, state_to_json


def dumps(obj):
    return json.dumps(obj, sort_keys=True)


def random_game(n, seed, stop=None, options=None):
    """A game of uniformly random legal actions; yields the state before every action and at the end.
    ``stop``: yield at most this many states; ``options``: the game's modules."""
    s = new_game(n, seed=seed, options=options)
    r = random.Random(seed)
    k = 0
    while True:
        yield s
        k += 1
        if s.is_terminal() or (stop is not None and k >= stop):
            return
        s.apply(r.choice(s.legal_actions()))


def sampled_positions(n, seed, count, options=None):
    """About ``count`` states spread over one random game (clones, so they stay put)."""
    states = [s.clone() for s in random_game(n, seed, options=options)]
    step = max(1, len(states) // count)
    picked = states[::step]
    if states[-1] is not picked[-1]:
        picked.append(states[-1])
    return picked


def hidden_variant(state, seed):
    """A state differing from ``state`` only in what nobody sees: the money order of the draw pile, the places
    of the undrawn scoring cards inside their public ranges, the unseen wall cards (Walls) inside their setup
    piles, the bag order, the RNG and the seed."""
    r = random.Random(seed)
    d = state_to_json(state)
    pile = d["draw_pile"]
    money = [w for w in pile if w not in ("s1", "s2") and not w.startswith("w")]
    r.shuffle(money)
    new = [None] * len(pile)
    walls = [w for w in pile if w.startswith("w")]
    r.shuffle(walls)
    for entry in ((d.get("modules") or {}).get("walls") or {}).get("piles", []):
        if entry:
            lo, hi, cnt = entry
            for i in r.sample(range(lo, hi + 1), cnt):
                new[i] = walls.pop()
    for sc in d["scoring_cards"]:
        if not sc["drawn"]:
            lo, hi = sc["positions"]
            free = [i for i in range(lo, hi + 1) if new[i] is None]
            new[r.choice(free)] = f"s{sc['round']}"
    it = iter(money)
    d["draw_pile"] = [w if w is not None else next(it) for w in new]
    r.shuffle(d["bag"])
    d["rng"] = "".join(r.choice("0123456789abcdef") for _ in range(64))
    d["seed"] = r.randrange(2 ** 32)
    return state_from_json(d)


def played(n, seed, actions):
    """The state after ``actions`` random actions of ``random_game`` (or at its end)."""
    return list(random_game(n, seed, stop=actions + 1))[-1]


def chi2_ok(counts, expected):
    """Pearson's statistic below the 1e-4 upper quantile (Wilson-Hilferty): a fixed-seed test that only a
    biased sampler fails."""
    stat = sum((c - e) ** 2 / e for c, e in zip(counts, expected, strict=True))
    k = len(counts) - 1
    z = 3.719
    crit = k * (1 - 2 / (9 * k) + z * math.sqrt(2 / (9 * k))) ** 3
    return stat < crit, stat, crit
