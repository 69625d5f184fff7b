"""Calibration of the analysis marks (docs/bots.md "Analysis"): two-player games of the strongest bot against
greedy (seats alternating), both seats analysed with another seed, and each bot's share of moves at each loss.

    python benchmarks/analysis_calibration.py alhambra --games 4    # (dice, alcazaba); --out cal-GAME.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from alhambra_ai import new_game, registry
from alhambra_ai.analysis.review import Settings, analyse
from alhambra_ai.formats.record import make_record


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", choices=registry.names())
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--iterations", type=int, default=10000, help="per move, playing and analysing")
    ap.add_argument("--out", default=None, help="the losses as JSON [default: cal-GAME.json]")
    args = ap.parse_args()
    game, it = args.game, args.iterations
    strong = registry.get(game).strongest
    search = registry.get(game).search
    out = []
    for g in range(args.games):
        seed = 100 + g
        s = new_game(2, seed, {}, game)
        bots = [strong, "greedy"] if g % 2 == 0 else ["greedy", strong]
        while not s.is_terminal():
            obs = s.observation(s.current_player)
            if len(obs["legal_actions"]) == 1:
                s.apply(obs["legal_actions"][0])
                continue
            s.apply(getattr(search, bots[s.current_player])(obs, seed, {"iterations": it, "samples": 1}))
        t = time.time()
        report = analyse(make_record(s, bots), Settings(iterations=it, seed=7 + g))
        scores = s.scores()
        for d in report["decisions"]:
            out.append({"game": g, "bot": bots[d["seat"]], "loss": d["loss"], "value": d["value"],
                        "won": scores[d["seat"]] > scores[1 - d["seat"]]})
        print(game, g, scores, len(report["decisions"]), f"{time.time() - t:.1f} s", file=sys.stderr,
              flush=True)
    with open(args.out or f"cal-{game}.json", "w") as f:
        json.dump(out, f)
    for bot in sorted({x["bot"] for x in out}):
        losses = sorted(x["loss"] for x in out if x["bot"] == bot)
        print(bot, len(losses), f"mean {statistics.mean(losses):.2f}", f"max {losses[-1]:.2f}",
              "share >= 3, 6, 12:", [round(sum(x >= t for x in losses) / len(losses), 3) for t in (3, 6, 12)])


if __name__ == "__main__":
    main()
