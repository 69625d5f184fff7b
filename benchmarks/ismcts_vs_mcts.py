"""OpenSpiel's IS-MCTS (its Python ISMCTSBot over alhambra_ai.env.openspiel) against our bots at the same time
per move, played in-process through the OpenSpiel state (docs/env.md "IS-MCTS against mcts").

Each deal is played twice, IS-MCTS in either seat. IS-MCTS searches until the move time is up (at least two
simulations: the first only expands the root), resampling with our determinizer (``resample_from_infostate``);
its evaluator is OpenSpiel's RandomRolloutEvaluator (``--evaluator random``, the default) or a random playout
in the compiled engine (``--evaluator engine``). The opponent is bots/mcts.py (or ``--opponent greedy``) with
``move_time`` in its config and no time bank. A line per game goes to ``--out`` (JSON), so a run can be
stopped and resumed with ``--resume``; the summary (IS-MCTS's win rate, shared wins as fractions, 95% Wilson
interval, mean seconds per move of each side) is printed at the end.

    PYTHONPATH=. python benchmarks/ismcts_vs_mcts.py --games 200 --move-time 0.1 --out ismcts.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from pathlib import Path

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from alhambra_ai.arena.strength import wilson
from alhambra_ai.bot.api import Observation, load_bot
from alhambra_ai.env import openspiel as aos

BOTS = Path(__file__).resolve().parent.parent / "bots"


class TimedISMCTSBot(ismcts.ISMCTSBot):
    """ISMCTSBot with a clock instead of a simulation count (its run_search, timed)."""

    def __init__(self, game, evaluator, move_time: float, seed: int, uct_c: float = 2.0) -> None:
        super().__init__(game, evaluator, uct_c, max_simulations=1, random_state=np.random.RandomState(seed))
        self.move_time = move_time
        self.simulations = 0
        rng = random.Random(seed)
        # our determinizer, seeded here so a run is reproducible up to the clock
        self.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.random))

    def run_search(self, state):
        deadline = time.perf_counter() + self.move_time
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        n = 0
        while n < 2 or time.perf_counter() < deadline:   # the first simulation only expands the root
            self.run_simulation(self.sample_root_state(state))
            n += 1
        self.simulations += n
        return self.get_final_policy(state, self._root_node)


class EngineRolloutEvaluator(mcts.Evaluator):
    """A uniformly random playout of the compiled engine from the state (no OpenSpiel calls per step)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def evaluate(self, state):
        engine = state.engine.clone()
        engine.record_history = False
        engine.random_playout(self.rng.getrandbits(62))
        return np.array(aos.final_rewards(engine))

    def prior(self, state):
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def play(game, deal: int, is_seat: int, args, seed: int) -> dict:
    evaluator = (EngineRolloutEvaluator(seed) if args.evaluator == "engine"
                 else mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)))
    searcher = TimedISMCTSBot(game, evaluator, args.move_time, seed)
    opponent = load_bot(BOTS / f"{args.opponent}.py")()
    opponent.setup({"seat": 1 - is_seat, "num_players": 2, "options": game.cfg.options or {}, "seed": seed,
                    "move_time": args.move_time, "time_bank": 0.0})
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    state.apply_action(deal)
    spent = {"ismcts": [0.0, 0], args.opponent: [0.0, 0]}
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        seat = state.current_player()
        t = time.perf_counter()
        if seat == is_seat:
            action = int(searcher.step(state))
            side = "ismcts"
        else:
            code = opponent.act(Observation(state.engine.observation(seat)))
            action = game.cfg.actions.index(code)
            side = args.opponent
        spent[side][0] += time.perf_counter() - t
        spent[side][1] += 1
        state.apply_action(action)
    engine = state.engine
    ranks = engine.ranking()
    share = (1.0 / ranks.count(1)) if ranks[is_seat] == 1 else 0.0
    return {"deal": deal, "ismcts_seat": is_seat, "ismcts_win": share, "scores": engine.scores(),
            "ismcts_moves": spent["ismcts"][1], "ismcts_seconds": round(spent["ismcts"][0], 3),
            "opponent_moves": spent[args.opponent][1], "opponent_seconds": round(spent[args.opponent][0], 3),
            "simulations": searcher.simulations}


def summary(rows: list[dict], args) -> str:
    n = len(rows)
    wins = sum(r["ismcts_win"] for r in rows)
    lo, hi = wilson(wins, n)
    t_is = sum(r["ismcts_seconds"] for r in rows) / max(1, sum(r["ismcts_moves"] for r in rows))
    t_op = sum(r["opponent_seconds"] for r in rows) / max(1, sum(r["opponent_moves"] for r in rows))
    sims = sum(r["simulations"] for r in rows) / max(1, sum(r["ismcts_moves"] for r in rows))
    return (f"IS-MCTS ({args.evaluator} rollouts) vs {args.opponent}, {args.move_time} s/move, {n} games: "
            f"{wins:g} wins = {wins / max(n, 1):.1%} [{lo:.3f}, {hi:.3f}]; seconds per move: IS-MCTS "
            f"{t_is:.3f} ({sims:.1f} simulations per move, decisions with one legal action included), "
            f"{args.opponent} {t_op:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--move-time", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=1, help="first deal (game k plays deal seed + k // 2)")
    ap.add_argument("--evaluator", choices=("random", "engine"), default="random")
    ap.add_argument("--opponent", choices=("mcts", "greedy"), default="mcts")
    ap.add_argument("--game", choices=("alhambra", "dice", "alcazaba"), default="alhambra")
    ap.add_argument("--out", type=Path, help="JSON lines, one per game")
    ap.add_argument("--resume", action="store_true", help="keep the games already in --out")
    args = ap.parse_args()
    game = aos.load(args.game, 2)
    rows: list[dict] = []
    if args.resume and args.out and args.out.exists():
        rows = [json.loads(line) for line in args.out.read_text().splitlines() if line.strip()]
    elif args.out:
        args.out.write_text("")
    print(f"load average at the start: {os.getloadavg()[0]:.1f}", flush=True)
    for k in range(len(rows), args.games):
        row = play(game, args.seed + k // 2, k % 2, args, seed=1000 + k)
        rows.append(row)
        if args.out:
            with args.out.open("a") as f:
                f.write(json.dumps(row) + "\n")
        print(f"game {k + 1}: IS-MCTS seat {row['ismcts_seat'] + 1} {row['ismcts_win']:g} "
              f"scores {row['scores']}", flush=True)
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    print(summary(rows, args))


if __name__ == "__main__":
    main()
