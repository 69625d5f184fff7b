"""``alhambra-ai analyse RECORD``: a game reviewed move by move (library: alhambra_ai.analysis.review).

Parses the options, finds the cache, prints the text and writes ``--json FILE``; the search of each decision,
the cache and the report are the library's. Bad input is ``BadInput`` (one line, exit 2, by the group).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import click
from tqdm import tqdm

from alhambra_ai.analysis.review import (
    DEFAULT_MOVE_TIME,
    Settings,
    analyse,
    check_settings,
    default_cache,
    load_for_analysis,
    parse_seats,
    report_json,
    report_text,
    stored_seed,
)
from alhambra_ai.arena.schedule import new_master_seed
from alhambra_ai.cli import common as opt
from alhambra_ai.errors import BadInput


@click.command("analyse")
@click.argument("record_file", metavar="RECORD", type=click.Path(exists=True, dir_okay=False))
@click.option("--seats", default=None, metavar="S,...",
              help="The seats whose decisions are analysed: numbers from 0 or the record's names. "
                   "[default: every seat]")
@click.option("--move-time", type=float, default=None, metavar="SECONDS",
              help=f"Seconds of search per decision. [default: {DEFAULT_MOVE_TIME}]")
@click.option("--iterations", type=int, default=None, metavar="N",
              help="MCTS iterations per decision instead of --move-time: deterministic for a seed, the same "
                   "output for any --jobs.")
@opt.seed_option("Seed of the searches; a continued analysis keeps the stored one.")
@click.option("--jobs", "-j", type=int, default=1, show_default=True, metavar="N",
              help="Decisions searched at once.")
@click.option("--json", "out", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Also write the analysis as JSON (docs/formats.md \"Analysis\"); its cache of finished "
                   "decisions is FILE.partial.jsonl until it is written.")
@click.option("--marked", is_flag=True, help="List only the marked moves (inaccuracies, mistakes, blunders).")
@click.option("--width", type=int, default=None, metavar="COLUMNS",
              help="Text width. [default: the terminal's, 80 into a pipe or file]")
@opt.PROGRESS
def analyse_command(record_file, seats, move_time, iterations, seed, jobs, out, marked, width, progress):
    """Review a game RECORD move by move with each game's strongest bot.

    Each decision of the chosen seats is searched from what that seat knew then: the position's value
    (expected final margin in points, and a win chance), the move the search prefers, the value of the move
    played and the loss between them; moves are marked ?! (inaccuracy), ? (mistake) or ?? (blunder) by their
    loss, and each seat gets its mean loss per decision and its worst moves (docs/bots.md "Analysis").
    An interrupted analysis continues where it stopped when run again with the same record and settings.
    """
    if iterations is not None and move_time is not None:
        raise BadInput("--iterations and --move-time: give one of them")
    settings = Settings(iterations, None if iterations else (move_time or DEFAULT_MOVE_TIME), 0)
    check_settings(settings, jobs)
    record = load_for_analysis(record_file)
    chosen = parse_seats(seats, record)
    cache = default_cache(record, out)
    if seed is None:
        seed = stored_seed(cache)
        if seed is None:
            seed = new_master_seed()
            click.echo(f"seed {seed} (give --seed {seed} to repeat the analysis)", err=True)
    if out is not None and Path(out).is_dir():
        raise BadInput(f"--json {out}: is a folder; give a file name")
    settings = Settings(settings.iterations, settings.move_time, seed)
    bar = tqdm(total=0, file=sys.stderr, unit="decision", disable=not progress, dynamic_ncols=True,
               leave=False)
    try:
        report = analyse(record, settings, chosen, jobs, cache, bar,
                         note=lambda text: bar.write(text, file=sys.stderr))
    except KeyboardInterrupt:
        bar.close()
        click.echo(f"interrupted: the finished decisions are kept in {cache}; run the same command again "
                   "to continue", err=True)
        sys.exit(130)
    finally:
        bar.close()
    if width is None:
        width = shutil.get_terminal_size().columns if sys.stdout.isatty() else 80
    if out is not None:
        tmp = Path(f"{out}.tmp")
        tmp.write_text(report_json(report), encoding="utf-8")
        tmp.replace(out)
    cache.unlink(missing_ok=True)
    click.echo(report_text(report, width, all_moves=not marked), nl=False)
