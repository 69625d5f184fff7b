"""``alhambra-ai selfplay``: a dataset of the decisions of refereed games (library:
alhambra_ai.learn.selfplay).

Parses and checks the options and prints the summary; the games (the tournament's backends), the features
and the shards are the library's. Bad input is ``BadInput`` (one line, exit 2, by the group).
"""

from __future__ import annotations

import sys

import click
from tqdm import tqdm

from alhambra_ai.arena.ray_backend import import_ray
from alhambra_ai.arena.schedule import new_master_seed
from alhambra_ai.cli import common as opt
from alhambra_ai.errors import BadInput
from alhambra_ai.learn.selfplay import ENCODINGS, Settings, read_manifest, run_selfplay


@click.command("selfplay")
@click.argument("bots", nargs=-1, required=True, metavar="BOT...")
@click.option("--out", "out", type=click.Path(file_okay=False), required=True, metavar="DIR",
              help="The dataset folder (manifest.json and shard-NNNNNN.npz files).")
@click.option("--players", type=int, default=None, metavar="N",
              help="Seats per game. [default: one per BOT; with one BOT, 2]")
@click.option("--games", default=100, show_default=True, metavar="N",
              help="Games in the dataset (on --resume: may grow).")
@opt.seed_option("Master seed of the deals; --resume keeps the stored one.")
@click.option("--encoding", type=click.Choice(ENCODINGS), default="compact", show_default=True,
              help="compact: the env observation vector with each city summarized in 9 numbers; env: the "
                   "full env vector (docs/env.md), city planes included; value (dice, alcazaba): the "
                   "core's value features, what the compiled searches' learned value reads.")
@click.option("--shard-games", type=int, default=0, metavar="N",
              help="Games per shard. [default: 32 compact, 4 env, 64 value]")
@opt.clock_options(move_time=0.1, time_bank=5.0)
@opt.ITERATIONS
@click.option("--max-moves", type=int, default=3000, show_default=True, metavar="N",
              help="End a game unfinished after this many moves (bots that repeat moves for ever); it is "
                   "counted, and gives no rows.")
@opt.JOBS
@opt.BACKEND
@click.option("--resume", is_flag=True, help="Continue (or grow) the dataset in --out DIR.")
@opt.PROGRESS
@opt.MODULE_OPTIONS
@opt.GAME
def selfplay_command(bots, out, players, games, seed, encoding, shard_games, move_time, time_bank,
                     iterations, max_moves, jobs, backend, address, resume, progress, options, game):
    """Play games between BOTs (built-in names: random greedy expectimax mcts, or .py files; one BOT fills
    every seat) and write every decision of every seat as a dataset: the seat's features, computed from
    its own observation only, with the game's final outcome (score margin, rank, win) per seat.

    Games are refereed as in `alhambra-ai tournament` (each seat its own sandboxed process); the lineup
    rotates one seat per game. The same settings and seed give the same bytes whatever --jobs or backend
    (with deterministic bots: random, greedy, or --iterations). Format: docs/formats.md "Self-play dataset".
    """
    if players is None:
        players = len(bots) if len(bots) > 1 else 2
    if len(bots) == 1:
        bots = bots * players
    if jobs < 1:
        raise BadInput(f"--jobs must be at least 1, not {jobs}")
    if address and backend != "ray":
        raise BadInput("--address is the Ray cluster's (auto or HOST:PORT) and needs --backend ray")
    if seed is None:
        seed = new_master_seed()
        if resume:
            try:
                seed = read_manifest(out)["seed"]
            except BadInput:
                pass  # a folder without a dataset: the run's own checks say so
    if backend == "ray":
        import_ray()  # a missing Ray is one line before anything is printed
    settings = Settings(tuple(bots), players, games, seed, game, tuple(options or ()), encoding, shard_games,
                        move_time, time_bank, iterations, max_moves)
    bar = tqdm(total=0, file=sys.stderr, unit="game", disable=not progress, dynamic_ncols=True, leave=False)
    try:
        stats = run_selfplay(settings, out, resume, jobs, backend, address, bar,
                             note=lambda text: bar.write(text, file=sys.stderr))
    finally:
        bar.close()
    rate = stats.positions / stats.seconds if stats.seconds else 0.0
    click.echo(f"{out}: {stats.stored_games} games, {stats.stored_positions} positions (this run: "
               f"{stats.games} games, {stats.positions} positions in {stats.seconds:.1f} s, "
               f"{rate:.0f} positions/s"
               + (f"; {stats.truncated - stats.failed} unfinished at --max-moves {max_moves}, no rows"
                  if stats.truncated > stats.failed else "")
               + (f"; {stats.failed} never played (the referee stalled every time), no rows"
                  if stats.failed else "")
               + f"); seed {seed}")
