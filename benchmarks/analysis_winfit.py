"""Fit the dice games' WIN_SCALE (docs/bots.md "Analysis"): two-player expectimax self-play, value.py's
margin of the seat to move at each decision against whether it won, by maximum likelihood.

    python benchmarks/analysis_winfit.py dice --games 12            # (alcazaba)
"""

from __future__ import annotations

import argparse
import math
import sys

from alhambra_ai import new_game, registry
from alhambra_ai.bot.toolkit import determinize, move_seed
from alhambra_ai.games.dice.value import value_of


def log_likelihood(points: list[tuple[float, bool]], scale: float) -> float:
    total = 0.0
    for v, won in points:
        p = 1 / (1 + math.exp(-max(-50.0, min(50.0, v / scale))))
        p = min(max(p, 1e-9), 1 - 1e-9)
        total += math.log(p if won else 1 - p)
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", choices=["dice", "alcazaba"])
    ap.add_argument("--games", type=int, default=12)
    args = ap.parse_args()
    game = args.game
    search = registry.get(game).search
    points: list[tuple[float, bool]] = []
    for g in range(args.games):
        seed = 500 + g
        s = new_game(2, seed, {}, game)
        rows = []
        while not s.is_terminal():
            seat = s.current_player
            obs = s.observation(seat)
            if len(obs["legal_actions"]) == 1:
                s.apply(obs["legal_actions"][0])
                continue
            rows.append((seat, value_of(determinize(obs, move_seed(1, obs)), seat).total()))
            s.apply(search.expectimax(obs, seed + seat, {"samples": 1}))
        scores = s.scores()
        points += [(v, scores[seat] > scores[1 - seat]) for seat, v in rows]
        print(game, g, scores, len(rows), file=sys.stderr, flush=True)
    likelihood, scale = max((log_likelihood(points, k / 4), k / 4) for k in range(4, 200))
    brier = sum((1 / (1 + math.exp(-v / scale)) - won) ** 2 for v, won in points) / len(points)
    print(f"{game}: win scale {scale} (log-likelihood {likelihood:.1f}, Brier {brier:.3f}), {len(points)} "
          f"positions of {args.games} games")


if __name__ == "__main__":
    main()
