"""Calibration of the analysis marks (docs/bots.md "Analysis"): the strongest bot against greedy, both seats
analysed, and each bot's share of moves at each loss.

    python benchmarks/analysis_calibration.py alhambra 4      # (dice, alcazaba) games; cal-GAME.json here
"""
import json
import statistics
import sys
import time

from alhambra_ai import new_game, registry
from alhambra_ai.analysis import Settings, analyse
from alhambra_ai.record import make_record

game, games = sys.argv[1], int(sys.argv[2])
it = 10000
strong = registry.get(game).strongest
out = []
for g in range(games):
    seed = 100 + g
    s = new_game(2, seed, {}, game)
    srch = registry.get(game).search
    bots = [strong, "greedy"] if g % 2 == 0 else ["greedy", strong]
    while not s.is_terminal():
        obs = s.observation(s.current_player)
        if len(obs["legal_actions"]) == 1:
            s.apply(obs["legal_actions"][0])
            continue
        s.apply(getattr(srch, bots[s.current_player])(obs, seed, {"iterations": it, "samples": 1}))
    rec = make_record(s, bots)
    t = time.time()
    rep = analyse(rec, Settings(iterations=it, seed=7 + g), jobs=1)
    for d in rep["decisions"]:
        out.append({"game": g, "bot": bots[d["seat"]], "loss": d["loss"], "win_loss": d["win_loss"],
                    "won": s.scores()[d["seat"]] > max(x for k, x in enumerate(s.scores()) if k != d["seat"]),
                    "value": d["value"], "same": d["best"] == d["played"]})
    print(game, g, s.scores(), len(rep["decisions"]), round(time.time() - t, 1), file=sys.stderr, flush=True)
json.dump(out, open(f"cal-{game}.json", "w"))
for bot in sorted({x["bot"] for x in out}):
    losses = sorted(x["loss"] for x in out if x["bot"] == bot)
    print(bot, len(losses), f"mean {statistics.mean(losses):.2f}", f"max {losses[-1]:.2f}",
          "share >= 3, 6, 12:", [round(sum(x >= t for x in losses) / len(losses), 3) for t in (3, 6, 12)])
