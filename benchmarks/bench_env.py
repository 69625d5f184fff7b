"""Steps per second through the researchers' interfaces against the native API, uniformly random legal actions
(docs/env.md "Speed").

native      ``s.legal_actions()``, a random choice, ``s.apply(code)``
pettingzoo  ``env.last()`` (the observation vector and the action mask), a random index of the mask,
            ``env.step(index)``: what a learning loop pays per decision
openspiel   ``state.legal_actions()``, a random choice, ``state.apply_action(index)``; chance nodes (the
            deal, the dice) sampled from ``chance_outcomes()`` inside the timed loop but not counted

A step is one decision of a seat; games restart when they end. The three run in short interleaved batches
(each measured with the process's CPU clock, so other jobs on the machine count little), and every round
gives the ratios native / interface; the median and the range over the rounds are printed.

    PYTHONPATH=. python benchmarks/bench_env.py [--seconds 1.0] [--rounds 5]

``--extent GAMES`` measures instead how far from the fountain random games reach: per game and player count
the largest |x| or |y| of any cell a legal action names (place, build, swap, remove, falcon corner, disc),
over GAMES uniformly random games each; the action space's radius (default 12) must cover it.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

import numpy as np

from alhambra_ai import new_game, registry
from alhambra_ai.env import openspiel as aos
from alhambra_ai.env.pettingzoo import raw_env
from alhambra_ai.env.spaces import ActionSpace


class Native:
    def __init__(self, game: str, n: int) -> None:
        self.game, self.n, self.seed = game, n, 0
        self.rng = random.Random(1)
        self.state = new_game(n, seed=0, game=game)

    def run(self, steps: int) -> None:
        s, rng = self.state, self.rng
        for _ in range(steps):
            if s.is_terminal():
                self.seed += 1
                s = self.state = new_game(self.n, seed=self.seed, game=self.game)
            s.apply(rng.choice(s.legal_actions()))


class PettingZoo:
    def __init__(self, game: str, n: int) -> None:
        self.env = raw_env(game, n)
        self.env.reset(seed=0)
        self.rng = np.random.default_rng(1)

    def run(self, steps: int) -> None:
        e, rng = self.env, self.rng
        done = 0
        while done < steps:
            if not e.agents:
                e.reset()
            obs, _r, term, trunc, _info = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            done += 1


class OpenSpiel:
    def __init__(self, game: str, n: int) -> None:
        self.game = aos.load(game, n)
        self.rng = random.Random(1)
        self.deal = 0
        self.state = self.new()

    def new(self):
        s = self.game.new_initial_state()
        s.apply_action(self.deal)
        self.deal += 1
        return s

    def run(self, steps: int) -> None:
        s, rng = self.state, self.rng
        done = 0
        while done < steps:
            if s.is_terminal():
                s = self.state = self.new()
            elif s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(rng.choices(outcomes, weights=[p for _a, p in outcomes])[0][0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
                done += 1


def rate(runner, seconds: float) -> float:
    """Decisions per CPU second over about `seconds`."""
    steps, batch = 0, 50
    t0 = time.process_time()
    while True:
        runner.run(batch)
        steps += batch
        spent = time.process_time() - t0
        if spent >= seconds:
            return steps / spent
        batch = min(batch * 2, 5000)


WHOLE = 128                     # a code's coordinates are x + 128, y + 128 in 8 bits each
ALL = {m: True for m in ("vizier", "camps", "bazaars", "falcons", "change", "thief", "walls", "residents")}


def extent(games: int) -> None:
    """Every game with cells in its actions (the base game without and with every module, Alcazaba)."""
    for game in registry.names():
        for options in ((None, ALL) if registry.get(game).takes_options else (None,)):
            if not ActionSpace(game, 2, options).part.cell_blocks:
                continue
            for n in (2, 3, 4, 6):
                far = 0
                space = ActionSpace(game, n, options, radius=WHOLE)   # every cell a code can name
                for seed in range(games):
                    s = new_game(n, seed=seed, options=options, game=game)
                    rng = random.Random(seed)
                    while not s.is_terminal():
                        legal = s.legal_actions()
                        cells = [c for c in map(space.cell_of, map(space.index, legal)) if c is not None]
                        far = max([far] + [max(abs(x), abs(y)) for x, y in cells])
                        s.apply(rng.choice(legal))
                label = game + (" all modules" if options else "")
                print(f"{label} {n}p: {games} random games, farthest cell of a legal action {far}",
                      flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per interface per round")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", default="alhambra:2,alhambra:4,dice:2,alcazaba:2")
    ap.add_argument("--extent", type=int, metavar="GAMES", help="measure how far random cities reach instead")
    args = ap.parse_args()
    if args.extent:
        extent(args.extent)
        return
    print(f"load average at the start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for item in args.games.split(","):
        game, n = item.split(":")
        runners = {"native": Native(game, int(n)), "pettingzoo": PettingZoo(game, int(n)),
                   "openspiel": OpenSpiel(game, int(n))}
        rates: dict[str, list[float]] = {k: [] for k in runners}
        for _ in range(args.rounds):
            for name, runner in runners.items():       # interleaved: every round measures all three
                rates[name].append(rate(runner, args.seconds))
        native = rates["native"]
        line = [f"{game} {n}p: native {statistics.median(native):,.0f} steps/s"]
        for name in ("pettingzoo", "openspiel"):
            ratios = [a / b for a, b in zip(native, rates[name], strict=True)]
            line.append(f"{name} {statistics.median(rates[name]):,.0f} steps/s = native / "
                        f"{statistics.median(ratios):.1f} (rounds {min(ratios):.1f}-{max(ratios):.1f})")
        print("; ".join(line), flush=True)
    print(f"load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
