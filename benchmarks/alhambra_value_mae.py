"""Held-out error of base-game value weights against the two baselines a learned value must beat: the
constant (the training rows' mean margin) and the hand-written evaluation's own prediction (the seat's
``seat+0.hand_margin_x10`` feature / 10: eval_values' expected final margin, which Mcts's cut-off uses
today), raw and fitted (``a * hand + b`` by least squares on the training rows, so the scale of the hand
value is not held against it).

    python benchmarks/alhambra_value_mae.py --train DATA --holdout DATA WEIGHTS...
"""

from __future__ import annotations

import argparse

import numpy as np

from alhambra_ai._core import alhambra_value_names
from alhambra_ai.learn import selfplay
from alhambra_ai.learn.value_model import load


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--train", required=True)
    ap.add_argument("--holdout", required=True)
    ap.add_argument("weights", nargs="*")
    a = ap.parse_args()
    tr, ho = selfplay.load(a.train), selfplay.load(a.holdout)
    col = alhambra_value_names(tr["manifest"]["players"]).index("seat+0.hand_margin_x10")
    ytr, yho = tr["margin"].astype(np.float64), ho["margin"].astype(np.float64)
    htr, hho = tr["x"][:, col] / 10.0, ho["x"][:, col] / 10.0
    fit = np.polyfit(htr, ytr, 1)
    games = len(np.unique(ho["game"]))
    print(f"held out: {len(yho)} positions of {games} games ({a.holdout}); training rows {len(ytr)}")
    rows = {"constant (training mean)": np.full_like(yho, ytr.mean()), "hand evaluation, raw": hho,
            f"hand evaluation, fitted ({fit[0]:.3f} x + {fit[1]:.2f})": np.polyval(fit, hho)}
    for w in a.weights:
        m = load(w)
        kind = m.kinds["margin"]
        rows[f"{w} ({kind})"] = m.predict(ho["x"]).margin.astype(np.float64)
    print(f"{'':58s} margin MAE   RMSE   corr")
    for name, p in rows.items():
        err = p - yho
        corr = np.corrcoef(p, yho)[0, 1] if np.std(p) > 0 else float("nan")
        print(f"{name:58s} {np.abs(err).mean():8.3f} {np.sqrt((err ** 2).mean()):7.3f} {corr:6.3f}")


if __name__ == "__main__":
    main()
