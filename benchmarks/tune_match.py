"""In-process, seat-rotated matches between two bot configurations at fixed search budgets, in any game of
the registry: the tuning loop of docs/bots.md ("Tuning", and the dice games' "Tuning"). Deterministic and
independent of the machine's load, so two variants of a bot can be compared on a shared machine; not refereed
(for that, `alhambra-ai strength`).

Every deal is played once with A in each seat (2 players: A against B; more: one A against copies of B).

    PYTHONPATH=. python benchmarks/tune_match.py bots/mcts.py bots/mcts.py \
        --a '{"iterations": 3000, "rollout_turns": 6}' --b '{"iterations": 3000, "rollout_turns": 4}' \
        --deals 20
    PYTHONPATH=. python benchmarks/tune_match.py bots/mcts.py tests/fixtures/dice_expectimax_frozen.py \
        --game alcazaba --a '{"iterations": 2000}' --b '{"samples": 1}' --deals 50
"""

from __future__ import annotations

import argparse
import importlib
import json
import time

from alhambra_ai import registry
from alhambra_ai.arena.stats import ranks, wilson, win_share
from alhambra_ai.bot.api import Observation, load_bot
from alhambra_ai.options import parse_options


def play(bots: list, state) -> list[int]:
    """Play ``state`` to its end in-process between set-up bots (one per seat); returns the final scores."""
    while not state.is_terminal():
        seat = state.current_player
        obs = Observation(state.observation(seat))
        action = bots[seat].act(obs)
        if isinstance(action, str):
            action = state.parse_action(action)
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
    ap.add_argument("--game", default=registry.DEFAULT, choices=registry.names())
    ap.add_argument("--options", default="", help="the base game's modules: names with commas, or 'all'")
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
    game = registry.get(args.game)
    options = parse_options(args.options) if args.options else None
    a_cls, b_cls = load_bot(args.a), load_bot(args.b)
    acfg, bcfg = json.loads(args.acfg), json.loads(args.bcfg)
    n = args.players
    wins, margins, t0 = 0.0, [], time.process_time()
    line = ""
    for d in range(args.deals):
        seed = args.seed + d
        for a_seat in range(n):
            state = game.new_state(n, seed, options)
            bots = []
            for seat in range(n):  # the setup config the referee gives (arena/referee.py)
                bot = (a_cls if seat == a_seat else b_cls)()
                bot.setup({"seat": seat, "num_players": n, "options": state.options, "seed": seed * 7 + seat,
                           "move_time": 1.0, **(acfg if seat == a_seat else bcfg)})
                bots.append(bot)
            scores = play(bots, state)
            wins += win_share(ranks(scores), [a_seat])
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
