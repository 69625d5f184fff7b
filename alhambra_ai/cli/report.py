"""``alhambra-ai report``: the HTML report of a tournament (alhambra_ai.report does the work)."""

from __future__ import annotations

import click

from alhambra_ai.errors import BadInput
from alhambra_ai.report import write_report
from alhambra_ai.tournament.store import StoreError


@click.command("report")
@click.argument("out_dir", type=click.Path(file_okay=False))
@click.option("--to", "to", type=click.Path(file_okay=False), metavar="DIR",
              help="Write the pages here. [default: OUT_DIR/report]")
def report_command(out_dir: str, to: str | None) -> None:
    """Write the HTML report of the tournament in OUT_DIR: leaderboard with legend, head-to-head matrix,
    rating over the games, forfeits, and a game viewer for every stored game. Open OUT_DIR/report/index.html
    in a browser (no server or network needed)."""
    try:
        index = write_report(out_dir, to)
    except StoreError as e:
        raise BadInput(str(e)) from None
    except OSError as e:
        raise BadInput(f"cannot write the report: {e.strerror or e} ({e.filename})") from None
    click.echo(f"report written: {index}")
