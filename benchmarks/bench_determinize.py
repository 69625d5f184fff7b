"""Determinizations per second (and the cost of observations, card counting and JSON positions).

Run: ``PYTHONPATH=. python benchmarks/bench_determinize.py [--seconds 0.5]``. Each measurement runs for about
``--seconds`` on positions taken from random games at 2, 4 and 6 players.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from alhambra_ai import count_cards, determinize, new_game, state_from_json, state_to_json


def positions(n: int, seed: int, every: int = 60) -> list:
    s = new_game(n, seed=seed)
    r = random.Random(seed)
    out = []
    k = 0
    while not s.is_terminal():
        if k % every == 0:
            out.append(s.clone())
        s.apply(r.choice(s.legal_actions()))
        k += 1
    return out


def rate(fn: Callable[[int], object], seconds: float) -> float:
    """Calls per second of fn(i), i = 0, 1, ..., for about ``seconds``."""
    calls, i, start = 0, 0, time.perf_counter()
    while True:
        for _ in range(100):
            fn(i)
            i += 1
        calls += 100
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return calls / elapsed


def measurements(n: int) -> list[tuple[str, Callable[[int], object]]]:
    states = positions(n, seed=n)
    obs = [s.observation(max(s.current_player, 0)) for s in states]
    m = len(states)

    def fast(i: int) -> object:
        s = states[i % m]
        return s.determinized(max(s.current_player, 0), i)

    return [
        ("State.determinized (fast path)", fast),
        ("determinize(obs) (cached)", lambda i: determinize(obs[i % m], i)),
        ("determinize(copy of obs) (uncached)", lambda i: determinize(dict(obs[i % m]), i)),
        ("State.observation", lambda i: states[i % m].observation(i % n)),
        ("count_cards", lambda i: count_cards(obs[i % m])),
        ("state_from_json(state_to_json)", lambda i: state_from_json(state_to_json(states[i % m]))),
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=0.5, help="time per measurement")
    args = ap.parse_args()
    print(f"{'players':>7} {'what':<36} {'per second':>12}")
    for n in (2, 4, 6):
        for name, fn in measurements(n):
            print(f"{n:>7} {name:<36} {rate(fn, args.seconds):>12,.0f}")


if __name__ == "__main__":
    main()
