"""Fit a tiny value model on a self-play dataset with numpy alone: ridge regression of the final win share
on a seat's features, trained on one dataset and judged on another (docs/bots.md "Learning from self-play").

    alhambra-ai selfplay greedy --games 200 --seed 1 --jobs 2 --out data/train
    alhambra-ai selfplay greedy --games 100 --seed 2 --jobs 2 --out data/test
    python examples/selfplay_value.py data/train data/test
"""

import sys

import numpy as np

from alhambra_ai.learn.selfplay import load


def xy(directory):
    d = load(directory)
    keep = d["legal"] > 1                       # forced moves say little: leave them out
    return d["x"][keep].astype(np.float32), d["win"][keep], d["manifest"]


def main(train_dir, test_dir):
    x, y, manifest = xy(train_dir)
    xt, yt, _ = xy(test_dir)
    mean, std = x.mean(0), x.std(0) + 1e-6    # standardise with the training data's statistics
    a, at = (x - mean) / std, (xt - mean) / std
    a, at = np.c_[a, np.ones(len(a))], np.c_[at, np.ones(len(at))]
    w = np.linalg.solve(a.T @ a + 10.0 * np.eye(a.shape[1]), a.T @ y)   # ridge, lambda = 10
    p = np.clip(at @ w, 0, 1)
    base = np.mean((yt - y.mean()) ** 2)
    print(f"{manifest['game']} {manifest['players']}p: {len(y)} positions to fit, {len(yt)} held out")
    print(f"held-out Brier score {np.mean((p - yt) ** 2):.4f} (always the mean: {base:.4f})")
    names = [name + "".join(f"[{i}]" for i in idx) for name, shape in manifest["layout"]
             for idx in np.ndindex(*shape)]             # scores[0]: the seat's own, scores[1]: the next
    top = np.argsort(-np.abs(w[:-1]))[:5]
    print("largest weights in:", ", ".join(f"{names[i]} {w[i]:+.3f}" for i in top))


if __name__ == "__main__":
    main(*sys.argv[1:3])
