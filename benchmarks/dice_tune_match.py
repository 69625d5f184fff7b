"""In-process, seat-rotated matches of two bot configurations in the dice games at fixed search budgets (the
tuning loop of issue 43 item 4, as benchmarks/tune_match.py is for the base game): deterministic and
independent of the machine's load; not refereed (for that, `alhambra-ai strength --game dice`).

Every deal is played once with A in each seat (2 players: A against B; more: one A against copies of B).

    PYTHONPATH=. python benchmarks/dice_tune_match.py bots/mcts.py tests/fixtures/dice_expectimax_frozen.py \
        --game alcazaba --a '{"iterations": 2000}' --b '{"samples": 1}' --deals 50
"""

from __future__ import annotations

import argparse
import importlib
import json
import time

from alhambra_ai import new_game
from alhambra_ai.botapi import Observation, load_bot
from alhambra_ai.strength import ranks_of, wilson, win_share


def play(bots: list, game: str, seed: int) -> list[int]:
    """One game in-process between set-up bots (one per seat); returns the final scores."""
    state = new_game(len(bots), seed=seed, game=game)
    while not state.is_terminal():
        seat = state.current_player
        obs = Observation(state.observation(seat))
        action = bots[seat].act(obs)
        if action not in obs.legal_actions:
            raise ValueError(f"seat {seat} played an illegal action {action}")
        state.apply(action)
    return state.scores()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", help="bot file A")
    ap.add_argument("b", help="bot file B")
    ap.add_argument("--a", dest="acfg", default="{}", help="JSON config added to A's setup config")
    ap.add_argument("--b", dest="bcfg", default="{}", help="JSON config added to B's setup config")
    ap.add_argument("--game", default="dice", choices=("dice", "alcazaba"))
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1000, help="seed of the first deal (then +1, +2, ...)")
    ap.add_argument("--quiet", action="store_true", help="print the last line only")
    ap.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE",
                    help="set a package constant first, e.g. alhambra_ai.games.dice.value.SPREAD=2.0 (the "
                         "package's bots see it; a frozen copy in tests/fixtures does not)")
    args = ap.parse_args()
    for item in args.set:
        target, value = item.split("=", 1)
        module, name = target.rsplit(".", 1)
        setattr(importlib.import_module(module), name, json.loads(value))
    a_cls, b_cls = load_bot(args.a), load_bot(args.b)
    acfg, bcfg = json.loads(args.acfg), json.loads(args.bcfg)
    n = args.players
    wins, margins, t0 = 0.0, [], time.process_time()
    line = ""
    for d in range(args.deals):
        seed = args.seed + d
        for a_seat in range(n):
            bots = []
            for seat in range(n):
                bot = (a_cls if seat == a_seat else b_cls)()
                cfg = acfg if seat == a_seat else bcfg
                bot.setup({"seat": seat, "num_players": n, "options": {"dirk": n == 2},
                           "seed": seed * 7 + seat, "move_time": 1.0, **cfg})
                bots.append(bot)
            scores = play(bots, args.game, seed)
            wins += win_share(ranks_of(scores), [a_seat])
            margins.append(scores[a_seat] - max(x for i, x in enumerate(scores) if i != a_seat))
        games = len(margins)
        lo, hi = wilson(wins, games)
        line = (f"{args.game} {n}p deal {d + 1}/{args.deals}: A {wins:g}/{games} = {wins / games:.1%} "
                f"[{lo:.3f}, {hi:.3f}]  mean margin {sum(margins) / games:+.1f}  "
                f"cpu {time.process_time() - t0:.0f} s")
        if not args.quiet:
            print(line, flush=True)
    if args.quiet:
        print(line, flush=True)


if __name__ == "__main__":
    main()
