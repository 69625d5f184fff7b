"""A residual linear value for the base game: ridge regression of (final margin - the hand evaluation's
margin) on the value features, the hand margin then added back with weight 1 (``seat+0.hand_margin_x10`` /
10), so the penalty shrinks the model toward the hand value instead of toward 0. Written as a weights file
of ``train``'s format: the margin arrays replaced in a copy of a ``train`` output of the same dataset (its
win model kept), and the header's command and model notes say so.

    python benchmarks/alhambra_value_residual.py DATA --like TRAINED.npz --out RES.npz [--alpha 3000]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from alhambra_ai._core import alhambra_value_names
from alhambra_ai.learn import selfplay
from alhambra_ai.learn.selfplay import write_npz


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data")
    ap.add_argument("--like", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--alpha", type=float, default=3000.0)
    a = ap.parse_args()
    d = selfplay.load(a.data)
    col = alhambra_value_names(d["manifest"]["players"]).index("seat+0.hand_margin_x10")
    x = d["x"].astype(np.float64)
    y = d["margin"].astype(np.float64) - x[:, col] / 10.0
    mu, sd = x.mean(0), x.std(0)
    sd[sd == 0] = 1.0
    z = (x - mu) / sd
    w = np.linalg.solve(z.T @ z + a.alpha * np.eye(z.shape[1]), z.T @ (y - y.mean()))
    w_raw = w / sd
    b = y.mean() - float(mu @ w_raw)
    w_raw[col] += 0.1
    with np.load(a.like) as f:
        arrays = {k: f[k] for k in f.files}
    header = json.loads(bytes(arrays["header"]).decode())
    if header["model"]["margin"]["kind"] != "linear":
        raise SystemExit("--like must hold a linear margin model")
    header["command"] = " ".join(["python", "benchmarks/alhambra_value_residual.py", *sys.argv[1:]])
    header["model"]["margin"]["note"] = (f"residual ridge on the hand margin, alpha {a.alpha} on "
                                         "standardized features, the hand margin added with weight 1")
    arrays["header"] = np.frombuffer(json.dumps(header).encode(), np.uint8)
    arrays["margin_w1"] = w_raw.astype(np.float32)[:, None]
    arrays["margin_b1"] = np.array([b], np.float32)
    write_npz(Path(a.out), arrays)
    fit = x @ w_raw + b
    print(f"{a.out}: {len(y)} rows, training MAE {np.abs(fit - d['margin']).mean():.3f}")


if __name__ == "__main__":
    main()
