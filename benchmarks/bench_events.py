"""Fixed work for timing two builds against each other (whole processes, e.g. /usr/bin/time -v, in turn):
``python benchmarks/bench_events.py MODE`` with MODE play (random base games with history, every decision's
observation built), det (determinize from fresh observation dicts: the template, then 10 samples each),
search (mcts moves with fixed iterations), dice (dice games and Alcazaba with every observation)."""
import random
import sys

from alhambra_ai import determinize, new_game, registry
from alhambra_ai._core import MODULES

mode = sys.argv[1]
ALL = {m: True for m in MODULES}
configs = [(2, None), (4, None), (3, ALL)]
if mode == "play":
    total = 0
    for rep in range(3):
        for n, opt in configs:
            s = new_game(n, seed=100 + rep, options=opt)
            r = random.Random(rep)
            while not s.is_terminal():
                total += len(s.observation(s.current_player)["legal_actions"])
                s.apply(r.choice(s.legal_actions()))
    print(total)
elif mode in ("det", "search"):
    obs = []
    for n, opt in configs:
        s = new_game(n, seed=7, options=opt)
        r = random.Random(1)
        k = 0
        while not s.is_terminal():
            if k % 25 == 0:
                obs.append(s.observation(s.current_player))
            s.apply(r.choice(s.legal_actions()))
            k += 1
    if mode == "det":
        for _rep in range(6):
            for o in obs:       # a fresh dict each move, as the arena's worker hands the bot
                o = dict(o, history=list(o["history"]), events=list(o["events"]))
                for seed in range(10):
                    determinize(o, seed)
    else:
        search = registry.get("alhambra").search
        for o in obs[::3]:
            search.mcts(o, 3, {"iterations": 150, "samples": 2})
elif mode == "dice":
    for game in ("dice", "alcazaba"):
        for rep in range(15):
            s = new_game(3, rep, game=game)
            r = random.Random(rep)
            while not s.is_terminal():
                s.observation(s.current_player)
                s.apply(r.choice(s.legal_actions()))
