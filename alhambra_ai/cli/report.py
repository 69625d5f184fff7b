"""``alhambra-ai report``: the HTML report of a tournament (alhambra_ai.html.report does the work)."""

from __future__ import annotations

from pathlib import Path

import click

from alhambra_ai.arena.store import StoreError
from alhambra_ai.cli.common import Renamed
from alhambra_ai.errors import BadInput
from alhambra_ai.html.report import write_report


@click.command("report", cls=Renamed, renamed={"--to": "--out"})
@click.argument("run_dir", metavar="RUN_DIR", type=click.Path(file_okay=False))
@click.option("--out", "to", type=click.Path(file_okay=False), metavar="DIR",
              help="Write the pages into this folder. [default: RUN_DIR/report; old spelling: --to]")
def report_command(run_dir: str, to: str | None) -> None:
    """Write the HTML report of the tournament in RUN_DIR (a tournament's --out DIR): leaderboard with
    legend, head-to-head matrix, rating over the games, forfeits, and a game viewer for every stored game.
    Open RUN_DIR/report/index.html in a browser (no server or network needed)."""
    if not Path(run_dir).exists():
        raise BadInput(f"{run_dir} does not exist (give the folder of a tournament: its --out DIR)")
    try:
        index = write_report(run_dir, to)
    except StoreError as e:
        raise BadInput(str(e)) from None
    except OSError as e:
        raise BadInput(f"cannot write the report: {e.strerror or e} ({e.filename})") from None
    click.echo(f"report written: {index}")
