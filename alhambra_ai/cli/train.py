"""``alhambra-ai train``: a position-value model from self-play datasets (library: alhambra_ai.learn.train).

Parses the options and prints the report; the fitting, the evaluation and the weights file are the
library's. Bad input is ``BadInput`` (one line, exit 2, by the group).
"""

from __future__ import annotations

import sys

import click

from alhambra_ai.cli.common import Renamed, chosen_seed, seed_option
from alhambra_ai.learn.value_model import KINDS


@click.command("train", cls=Renamed, renamed={"--out": "--weights"})
@click.argument("data", nargs=-1, required=True, metavar="DATA...")
@click.option("--weights", "out", type=click.Path(dir_okay=False), required=True, metavar="FILE",
              help="The weights file to write (.npz; written whole or not at all). [old spelling: --out]")
@click.option("--holdout", "holdout", multiple=True, metavar="DATA",
              help="A dataset played from another seed, for the held-out report only (repeatable). "
                   "[default: a share of the training datasets' games, --test-share]")
@seed_option("Seed of the game splits, the row sample and the MLP's initialisation and order (stored in "
             "the weights).")
@click.option("--model", type=click.Choice(["auto", *KINDS]), default="auto", show_default=True,
              help="auto: fit both kinds and keep, per target, the better on the validation games.")
@click.option("--hidden", default=32, show_default=True, help="Hidden units of the MLP (one layer).")
@click.option("--max-rows", default=300_000, show_default=True,
              help="Training rows, a uniform sample of the training games' positions.")
@click.option("--validation", default=0.15, show_default=True,
              help="Share of the training datasets' games that choose the model (never fitted on).")
@click.option("--test-share", default=0.2, show_default=True,
              help="Without --holdout: share of the training datasets' games held out for the report.")
@click.option("--epochs", default=30, show_default=True, help="The MLP's most epochs (it stops earlier).")
@click.option("--verbose", "-v", is_flag=True, help="Each fitting step on stderr.")
def train_command(data, out, holdout, seed, model, hidden, max_rows, validation, test_share, epochs, verbose):
    """Fit a position-value model on self-play DATA folders (alhambra-ai selfplay): the seat's final score
    margin (points) and its win probability, from the features of its observation. Needs the [train]
    extra (scikit-learn).

    Splits by game: validation games choose the model, held-out games (--holdout, or a share of DATA's
    games) only report: margin MAE/RMSE, win Brier/log-loss and a reliability table against the trivial
    baseline. The same data, options and seed give the same file, byte for byte (docs/bots.md "Training a
    value model", docs/formats.md "Value weights").
    """
    from alhambra_ai.learn.train import TrainSettings, train

    given = seed is not None
    seed = chosen_seed(seed)
    s = TrainSettings(tuple(data), tuple(holdout), seed, model, hidden, max_rows, validation, test_share,
                      epochs)
    note = (lambda text: click.echo(text, err=True)) if verbose else None
    res = train(s, out, note)
    for line in res.report:
        click.echo(line)
    kinds = ", ".join(f"{t} {m['kind']}" + (f" ({m['hidden']} hidden)" if m["kind"] == "mlp" else "")
                      for t, m in res.header["model"].items())
    click.echo(f"wrote {out} ({res.bytes / 1024:.0f} KB; {kinds}) in {res.seconds:.1f} s"
               + ("" if given else f"; seed {seed}"))
    sys.stdout.flush()
