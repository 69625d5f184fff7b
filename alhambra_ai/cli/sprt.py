"""``alhambra-ai sprt NEW BASE``: is NEW stronger than BASE? (the library: alhambra_ai.arena.sprt_run, .sprt).

Parses and checks the options, prints the header, the progress line and the summary; the deals (the
tournament's backends, as strength's) and the test are the library's. Bad input is ``BadInput`` (one line,
exit 2, by the group).
"""

from __future__ import annotations

import math
import sys

import click
from tqdm import tqdm

from alhambra_ai import registry
from alhambra_ai.arena.ray_backend import import_ray
from alhambra_ai.arena.sprt import Sprt
from alhambra_ai.arena.sprt_run import check_run, hypotheses, live, run_settings, run_sprt, summary
from alhambra_ai.cli import common as opt
from alhambra_ai.errors import BadInput

SPRT_HELP = """Is NEW stronger than BASE? Play deals until a sequential probability ratio test decides.

NEW and BASE are bot names in bots/ or .py files, optionally NAME@SECONDS (its own time per move). A deal
is one deal seed played in every seat rotation: NEW in one seat against --players - 1 copies of BASE,
refereed as in `alhambra-ai strength`. Each deal is one sample: NEW's mean win share over it (the luck of
the deal cancels). The test (Wald's SPRT, as the generalized SPRT of fishtest and fastchess) weighs H0
"NEW is --elo0 stronger" against H1 "--elo1 stronger" after every deal and stops when one is accepted,
wrong with probability at most --alpha (accepting H1) or --beta (accepting H0). With N players, NEW at
+elo is expected to win a share s with s / (1 - s) * (N - 1) = 10^(elo/400). docs/sprt.md explains it.

\b
Examples:
  alhambra-ai sprt bots/mine.py bots/mine_old.py --move-time 0.1 --jobs 2
  alhambra-ai sprt mcts@0.2 mcts@0.1 --elo0 0 --elo1 20 --results runs/m.jsonl
  alhambra-ai sprt bots/mine.py greedy --players 4 --share0 0.25 --share1 0.3
  alhambra-ai sprt mcts@0.2 mcts@0.1 --elo1 20 --results runs/m.jsonl --resume
"""



@click.command("sprt", help=SPRT_HELP, cls=opt.Renamed, renamed={"--out": "--results"})
@click.argument("new")
@click.argument("base")
@click.option("--players", type=click.IntRange(2, 6), default=2, show_default=True, metavar="N",
              help="Seats per game: NEW and players - 1 copies of BASE.")
@click.option("--elo0", type=float, default=None, help="H0: NEW is this much stronger. [default: 0]")
@click.option("--elo1", type=float, default=None, help="H1: NEW is this much stronger. [default: 5]")
@click.option("--share0", type=float, default=None,
              help="H0 as NEW's expected win share instead of Elo (par is 1/players).")
@click.option("--share1", type=float, default=None, help="H1 as NEW's expected win share.")
@click.option("--alpha", type=float, default=0.05, show_default=True,
              help="The chance of accepting H1 when H0 holds.")
@click.option("--beta", type=float, default=0.05, show_default=True,
              help="The chance of accepting H0 when H1 holds.")
@click.option("--max-games", type=int, default=None, metavar="N",
              help="Stop undecided after N games (whole deals). [default: no limit]")
@opt.seed_option("Master seed of the deals; --resume keeps the file's.")
@opt.clock_options(move_time=0.1, time_bank=5.0)
@click.option("--memory", type=int, default=2048, show_default=True, metavar="MB",
              help="Memory cap per bot process (0 = none).")
@opt.JOBS
@opt.BACKEND
@click.option("--results", "out", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Keep finished games in this JSON-lines file (the format of strength --results). "
                   "[old spelling: --out]")
@click.option("--resume", is_flag=True, help="Continue the run in --results FILE (same bots and settings).")
@opt.PROGRESS
@opt.MODULE_OPTIONS
@opt.GAME
def sprt_command(new, base, players, elo0, elo1, share0, share1, alpha, beta, max_games, seed, move_time,
                 time_bank, memory, jobs, backend, address, out, resume, progress, options, game):
    if (elo0 is not None or elo1 is not None) and (share0 is not None or share1 is not None):
        raise BadInput("give --elo0/--elo1 or --share0/--share1, not both")
    if not move_time > 0 or math.isinf(move_time) or not time_bank >= 0:
        raise BadInput("--move-time must be > 0 and --time-bank >= 0")
    if memory < 0 or 0 < memory < 64:
        raise BadInput(f"--memory must be a number of MB >= 64 (0 = no cap), not {memory}")
    if jobs < 1:
        raise BadInput("--jobs must be at least 1")
    if address and backend != "ray":
        raise BadInput("--address is the Ray cluster's (auto or HOST:PORT) and needs --backend ray")
    try:
        test = Sprt(players, 0.0 if elo0 is None else elo0, 5.0 if elo1 is None else elo1, alpha, beta,
                    share0, share1)
    except ValueError as e:  # the statistic's own check of its settings
        raise BadInput(str(e)) from None
    seed = opt.chosen_seed(seed, out if resume else None)
    check_run(run_settings(new, base, players, seed, move_time, time_bank, memory, options, game),
              out, resume, max_games)
    if backend == "ray":
        import_ray()  # a missing Ray is one line before anything is printed
    click.echo(f"sprt: NEW {new} vs BASE {base}, {players} players"
               + ("" if game == registry.DEFAULT else f", {game}") + f", seed {seed}")
    click.echo(hypotheses(test))

    bar = tqdm(file=sys.stderr, disable=not progress, dynamic_ncols=True,
               bar_format="{desc}  [{elapsed}]")

    def show(t: Sprt) -> None:
        bar.set_description_str(f"{t.deals} deals  {live(t)}")  # refreshes the line

    try:
        decision = run_sprt(new, base, test, seed, move_time, time_bank, memory, options, game, jobs,
                            backend, address, out, resume, max_games, show if progress else None)
    except KeyboardInterrupt:
        bar.close()
        again = f"; continue with --results {out} --resume" if out else ""
        click.echo(f"\ninterrupted after {test.deals} deals{again}", err=True)
        sys.exit(130)
    finally:
        bar.close()
    for line in summary(test, decision):
        click.echo(line)

