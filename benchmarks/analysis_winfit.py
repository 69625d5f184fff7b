"""Fit the dice games' WIN_SCALE (docs/bots.md "Analysis"): expectimax self-play, value.py's margin of the
seat to move at each decision against whether it won, by maximum likelihood.

    python benchmarks/analysis_winfit.py dice 12              # (alcazaba) games
"""
import math
import sys

from alhambra_ai import new_game, registry
from alhambra_ai.games.dice.value import value_of
from alhambra_ai.search import determinize, move_seed

game, games = sys.argv[1], int(sys.argv[2])
pts = []
for g in range(games):
    seed = 500 + g
    s = new_game(2, seed, {}, game)
    srch = registry.get(game).search
    rows = []
    while not s.is_terminal():
        seat = s.current_player
        obs = s.observation(seat)
        if len(obs["legal_actions"]) == 1:
            s.apply(obs["legal_actions"][0])
            continue
        d = determinize(obs, move_seed(1, obs))
        rows.append((seat, value_of(d, seat).total()))
        s.apply(srch.expectimax(obs, seed + seat, {"samples": 1}))
    sc = s.scores()
    for seat, v in rows:
        pts.append((v, sc[seat] > sc[1 - seat]))
    print(game, g, sc, len(rows), file=sys.stderr, flush=True)
def ll(sc):
    t = 0
    for v, w in pts:
        p = 1 / (1 + math.exp(-max(-50, min(50, v / sc))))
        p = min(max(p, 1e-9), 1 - 1e-9)
        t += math.log(p if w else 1 - p)
    return t
best = max((ll(k / 4), k / 4) for k in range(4, 200))
print(game, 'win scale', best[1], 'loglik', round(best[0], 1), 'n', len(pts), 'games', games,
      'brier', round(sum((1 / (1 + math.exp(-v / best[1])) - w) ** 2 for v, w in pts) / len(pts), 3))
