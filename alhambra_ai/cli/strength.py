"""``alhambra-ai strength``: win rates of bots against each other (the library: alhambra_ai.arena.strength).

Parses and checks the options, prints the header and the rows; the schedule, the games (the tournament's
backends) and the summary are the library's. Bad input is ``BadInput`` (one line, exit 2, by the group).
"""

from __future__ import annotations

import sys

import click
from tqdm import tqdm

from alhambra_ai import registry
from alhambra_ai.arena.ray_backend import import_ray
from alhambra_ai.arena.strength import DEFAULT_MATCHES, check_match, report, run_strength
from alhambra_ai.cli import common as opt
from alhambra_ai.errors import BadInput
from alhambra_ai.options import check_game


@click.command("strength", cls=opt.Renamed, renamed={"--out": "--results"})
@click.option("--match", "matches", multiple=True, metavar="A:B",
              help="Bot A against bot B: names in bots/ or .py paths, NAME@SECONDS for a bot with its "
                   "own time per move (mcts@1:mcts); repeatable. "
                   f"[default: {' '.join(DEFAULT_MATCHES)}]")
@click.option("--lineup", "lineups", multiple=True, metavar="A,B,C,...",
              help="One game per seat rotation of exactly these bots (a bot may appear several times: "
                   "mcts,greedy,greedy,greedy); the win rate is the first one's. Repeatable.")
@click.option("--players", default="2,4", show_default=True, callback=opt.player_counts, metavar="2,4|2-4",
              help="Player counts of the A:B matches.")
@click.option("--games", default=20, show_default=True, metavar="N",
              help="Games per match and player count.")
@opt.seed_option("Master seed of the deals; a rerun into the same --results file keeps the file's.")
@opt.clock_options(move_time=0.1, time_bank=5.0)
@opt.ITERATIONS
@opt.JOBS
@opt.BACKEND
@click.option("--results", "out", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Keep finished games in this JSON-lines file; rerunning with the same file and "
                   "settings plays only the missing games (a long run can be stopped and resumed). "
                   "[old spelling: --out]")
@opt.PROGRESS
@click.option("--report", "report_file", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Only summarize the games a --results file holds so far (plays nothing).")
@opt.MODULE_OPTIONS
@opt.GAME
def strength_command(matches, lineups, players, games, seed, move_time, time_bank, iterations, jobs,
                     backend, address, out, progress, report_file, options, game):
    """Win rates of bots against each other, with 95% Wilson intervals.

    Every game is refereed as in `alhambra-ai tournament`: each seat its own process, the same setup
    config and limits, and a bot that fails forfeits (counted in the table) instead of stopping the run.
    """
    if report_file:
        settings, rows = report(report_file)
        click.echo(f"{report_file}: {settings.get('game', registry.DEFAULT)}, seed {settings.get('seed')}, "
                   + (f"{settings['iterations']} iterations per move" if settings.get("iterations")
                      else f"{settings.get('move_time')} s per move"))
        for row in rows:
            click.echo(row.row())
        return
    counts = list(players)
    for m in matches:
        if ":" not in m:
            raise click.BadParameter(f"{m!r}: write A:B", param_hint="--match")
    for m in lineups:
        if ":" in m or "," not in m:
            raise click.BadParameter(f"{m!r}: write A,B,...", param_hint="--lineup")
    for m in (*matches, *lineups):
        try:
            check_match(m)
        except BadInput as e:
            raise click.BadParameter(str(e), param_hint="--lineup" if "," in m else "--match") from None
    if games < 1 or jobs < 1:
        raise click.BadParameter("--games and --jobs must be at least 1")
    if not move_time > 0 or time_bank < 0:
        raise click.BadParameter("--move-time must be > 0 and --time-bank >= 0")
    check_game(game, options)
    if address and backend != "ray":
        raise BadInput("--address is the Ray cluster's (auto or HOST:PORT) and needs --backend ray")
    if backend == "ray":
        import_ray()  # a missing Ray is one line before anything is printed
    seed = opt.chosen_seed(seed, out)
    click.echo("strength: " + ("" if game == registry.DEFAULT else f"{game}, ")
               + f"{games} games per match, players {','.join(map(str, counts))}, seed {seed}, "
               + (f"{iterations} iterations per move" if iterations else f"{move_time} s per move")
               + f", time bank {time_bank} s, "
               + (f"jobs {jobs}" if backend == "local" else f"on Ray at {address or 'this machine'}"))

    bar = tqdm(total=0, file=sys.stderr, unit="game", disable=not progress, dynamic_ncols=True,
               leave=False)  # as tournament's; the rows are printed above it as matches complete
    try:
        run_strength((*matches, *lineups) or DEFAULT_MATCHES, counts, games, seed, move_time, iterations,
                     jobs, lambda text: bar.write(text, file=sys.stdout), out, None, time_bank, backend,
                     address, options, game, bar=bar)
    finally:
        bar.close()

