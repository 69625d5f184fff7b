"""``alhambra-ai train``: a position-value model fitted on self-play datasets (docs/bots.md "Training a value
model", docs/formats.md "Value weights"). Needs the ``[train]`` extra (scikit-learn).

Two targets per row, both the seat's own: its final score **margin** (regression, points) and its **win**
share (a probability). Candidates, fitted on the same training rows:

- ``linear``: ridge regression of the margin (closed form, the penalty chosen on the validation games) and
  L2 logistic regression of the win (scikit-learn, lbfgs);
- ``mlp``: one hidden layer of ``hidden`` ReLU units per target (scikit-learn's MLPRegressor and
  MLPClassifier, adam, one ``partial_fit`` epoch at a time), stopped at the epoch best on the validation
  games; the win models are then Platt-scaled on the validation games.

Splits are by game, never by row: every game of a training dataset is a training or a validation game (a
hash of the training seed, the dataset's seed and the game's index), the validation games choose the
penalty, the epochs and, per target, the kind kept; the report is on held-out games only: ``--holdout``
datasets (played from other seeds: other deals), or else a share of the training datasets' games that
neither fitting nor choosing saw. Held-out evaluation streams shard by shard and uses the exported float32
weights themselves, so the figures are the file's.

Training rows are a uniform sample (``max_rows``, a hash of seed, dataset, game and move) read shard by
shard; the rest of the data is never held in memory. The same data, settings and seed give the same bytes.
"""

from __future__ import annotations

import copy
import hashlib
import io
import json
import time
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from alhambra_ai.errors import BadInput
from alhambra_ai.learn.selfplay import (
    DatasetError,
    _check_shard,
    read_manifest,
    read_shard,
    shards,
    write_npz,
)
from alhambra_ai.learn.value_model import FORMAT, KINDS, TARGETS, VERSION, layer_shapes

#: manifest fields every dataset of one training run (training and held-out) must share
SAME_KEYS = ("format", "version", "game", "options", "rules", "players", "encoding", "features", "dtype",
             "layout")
RIDGE_ALPHAS = (1.0, 100.0, 1000.0, 3000.0, 10000.0, 30000.0)
LOGISTIC_CS = (0.01, 0.1)
#: the MLPs' L2 penalty: rows of one game share their outcome, so a net memorises games quickly (alpha
#: 1e-3 overfit from the first epoch on 700 dice games; 3 was the best of 1e-3, 3, 30 on their validation)
MLP_L2 = 3.0
BINS = 10


def import_sklearn() -> Any:
    try:
        import sklearn  # noqa: F401
        from sklearn import linear_model, neural_network
    except ImportError:
        raise BadInput('train needs scikit-learn: pip install -e ".[train]"') from None
    return linear_model, neural_network


@dataclass(frozen=True)
class TrainSettings:
    """What a weights file depends on (with the data): the same settings give the same bytes."""

    data: tuple[str, ...]
    holdout: tuple[str, ...] = ()
    seed: int = 0
    model: str = "auto"          # auto: both kinds, the better on the validation games kept per target
    hidden: int = 32
    max_rows: int = 300_000      # training rows sampled (uniformly) from the training games
    validation: float = 0.15     # share of the training datasets' games that choose (not fit)
    test_share: float = 0.2      # without --holdout: share of their games held out for the report
    epochs: int = 30             # the MLP's most epochs (it stops earlier when validation stops improving)

    def command(self) -> str:
        """The command that makes the file (``--weights`` left out: the file does not depend on it)."""
        words = ["alhambra-ai", "train", *self.data]
        for h in self.holdout:
            words += ["--holdout", h]
        words += ["--seed", str(self.seed), "--model", self.model, "--hidden", str(self.hidden),
                  "--max-rows", str(self.max_rows), "--validation", f"{self.validation:g}",
                  "--epochs", str(self.epochs)]
        if not self.holdout:
            words += ["--test-share", f"{self.test_share:g}"]
        return " ".join(words)


def check_settings(s: TrainSettings) -> None:
    if not s.data:
        raise BadInput("give at least one training dataset")
    if s.model not in ("auto", *KINDS):
        raise BadInput(f"--model must be auto, {' or '.join(KINDS)}, not {s.model!r}")
    if not 1 <= s.hidden <= 512:
        raise BadInput(f"--hidden must be 1..512, not {s.hidden}")
    if s.max_rows < 100:
        raise BadInput(f"--max-rows must be at least 100, not {s.max_rows}")
    if not 0 < s.validation < 0.9:
        raise BadInput(f"--validation must be between 0 and 0.9, not {s.validation:g}")
    if not s.holdout and not 0 < s.test_share < 0.9 - s.validation:
        raise BadInput(f"--test-share must be between 0 and {0.9 - s.validation:g}, not {s.test_share:g}")
    if not 1 <= s.epochs <= 1000:
        raise BadInput(f"--epochs must be 1..1000, not {s.epochs}")
    if not 0 <= s.seed < 2**63:
        raise BadInput(f"--seed must be 0..2**63-1, not {s.seed}")


# ------------------------------------------------------------------------------------------- the data

_M64 = np.uint64(0xFFFFFFFFFFFFFFFF)


def _mix(*keys: Any) -> np.ndarray:
    """splitmix64 of the keys (ints or int arrays, broadcast), as uniforms in [0, 1): the same numbers on
    every machine, whatever the shards' sizes."""
    h = np.zeros(np.broadcast(*[np.asarray(k) for k in keys]).shape, np.uint64)
    with np.errstate(over="ignore"):
        for k in keys:
            h = h ^ (np.asarray(k).astype(np.int64).astype(np.uint64) & _M64)
            h = h + np.uint64(0x9E3779B97F4A7C15)
            h = (h ^ (h >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
            h = (h ^ (h >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
            h = h ^ (h >> np.uint64(31))
    return (h >> np.uint64(11)).astype(np.float64) / float(2**53)


@dataclass
class Dataset:
    path: str
    manifest: dict
    holdout: bool
    sha256: str = ""
    shards: int = 0
    rows: int = 0
    games: int = 0               # games with rows
    role_rows: dict[str, int] = field(default_factory=dict)
    role_games: dict[str, int] = field(default_factory=dict)
    paths: list[Path] = field(default_factory=list)  # the shards surveyed (and hashed): those read later

    def iter_shards(self) -> Any:
        """The surveyed shards, each checked (CRCs, and against the manifest), one at a time."""
        for path in self.paths:
            shard = read_shard(path)
            _check_shard(path, shard["meta"], self.manifest)
            yield shard

    def summary(self) -> dict[str, Any]:
        m = self.manifest
        return {"path": self.path, "seed": m.get("seed"), "games": m.get("games"), "lineup": m.get("lineup"),
                "bots": m.get("bots"), "command": m.get("command"), "code": m.get("code"),
                "shards": self.shards, "rows": self.rows, "sha256": self.sha256,
                "role_rows": dict(sorted(self.role_rows.items())),
                "role_games": dict(sorted(self.role_games.items()))}


def roles(s: TrainSettings, d: Dataset, games: np.ndarray) -> np.ndarray:
    """Per row (its game): 'train', 'val' or 'test' - a function of the game, never of the row."""
    if d.holdout:
        return np.full(len(games), "test")
    u = _mix(s.seed, 1, int(d.manifest["seed"]), games)
    test = 0.0 if s.holdout else s.test_share
    return np.where(u < test, "test", np.where(u < test + s.validation, "val", "train"))


def survey(s: TrainSettings) -> list[Dataset]:
    """Every dataset's manifest (checked to agree with the others), shard bytes (hashed) and rows per role,
    reading only the small columns: DatasetError for anything unusable, before any fitting."""
    out: list[Dataset] = []
    for path, hold in [(p, False) for p in s.data] + [(p, True) for p in s.holdout]:
        if not Path(path).is_dir():
            raise DatasetError(f"{path}: no such dataset folder")
        d = Dataset(path, read_manifest(path), hold)
        first = out[0] if out else d
        for key in SAME_KEYS:
            if d.manifest.get(key) != first.manifest.get(key):
                raise DatasetError(f"{path}: {key} is {json.dumps(d.manifest.get(key))}, {first.path}'s "
                                   f"{json.dumps(first.manifest.get(key))}: datasets of one model must agree")
        out.append(d)
    seen: dict[Any, str] = {}
    for d in out:
        deals = (d.manifest.get("seed"), d.manifest.get("game"), tuple(d.manifest.get("options") or ()))
        if deals in seen and (d.holdout or seen[deals] == "holdout"):
            raise DatasetError(f"{d.path}: played from the same seed ({d.manifest.get('seed')}) as another "
                               "dataset of this run, so the same deals: held-out games must come from "
                               "another seed")
        seen.setdefault(deals, "holdout" if d.holdout else "train")
    hashes: dict[str, str] = {}
    for d in out:
        digest = hashlib.sha256()
        for shard in shards(d.path):
            blob = shard.read_bytes()
            digest.update(shard.name.encode() + b"\0" + blob)
            try:
                with zipfile.ZipFile(io.BytesIO(blob)) as z, z.open("game.npy") as f:
                    games = np.lib.format.read_array(io.BytesIO(f.read()), allow_pickle=False)
            except (KeyError, zipfile.BadZipFile, zlib.error, ValueError, OSError, EOFError) as e:
                raise DatasetError(f"{shard}: truncated or corrupt shard "
                                   f"({' '.join(str(e).split())})") from None
            d.shards += 1
            d.paths.append(shard)
            d.rows += len(games)
            d.games += len(np.unique(games))
            r = roles(s, d, games)
            for role in ("train", "val", "test"):
                mask = r == role
                if mask.any():
                    d.role_rows[role] = d.role_rows.get(role, 0) + int(mask.sum())
                    d.role_games[role] = d.role_games.get(role, 0) + len(np.unique(games[mask]))
        d.sha256 = digest.hexdigest()
        if d.sha256 in hashes and d.shards:
            raise DatasetError(f"{d.path}: the same data as {hashes[d.sha256]}")
        hashes[d.sha256] = d.path
        if not d.rows:
            raise DatasetError(f"{d.path}: no rows (no finished game)")
    for role, what in (("train", "training"), ("val", "validation"), ("test", "held-out")):
        if not sum(d.role_rows.get(role, 0) for d in out):
            raise DatasetError(f"no {what} rows: too few games (the splits are by game)")
    return out


@dataclass
class Rows:
    x: np.ndarray                # int16 [N, F]
    margin: np.ndarray           # float64 [N]
    win: np.ndarray              # float64 [N]
    games: int = 0


def gather(s: TrainSettings, data: list[Dataset], role: str, limit: int) -> Rows:
    """The rows of one role from the training datasets, a uniform sample of at most about ``limit``,
    read shard by shard (iter_shards checks each against its manifest and its checksums)."""
    total = sum(d.role_rows.get(role, 0) for d in data if not d.holdout)
    p = min(1.0, limit / total) if total else 0.0
    xs, ms, ws, games = [], [], [], 0
    for d in data:
        if d.holdout or not d.role_rows.get(role):
            continue
        for shard in d.iter_shards():
            keep = roles(s, d, shard["game"]) == role
            if p < 1.0:
                keep &= _mix(s.seed, 2, int(d.manifest["seed"]), shard["game"], shard["ply"]) < p
            xs.append(shard["x"][keep])
            ms.append(shard["margin"][keep].astype(np.float64))
            ws.append(shard["win"][keep].astype(np.float64))
            games += len(np.unique(shard["game"][keep]))
    width = int(data[0].manifest["features"])
    if not xs:
        return Rows(np.zeros((0, width), np.int16), np.zeros(0), np.zeros(0))
    return Rows(np.concatenate(xs), np.concatenate(ms), np.concatenate(ws), games)


# ------------------------------------------------------------------------------------------- fitting


@dataclass
class Standard:
    mean: np.ndarray             # float64 [F]
    inv: np.ndarray              # float64 [F], 0 for a constant feature

    @classmethod
    def of(cls, x: np.ndarray) -> Standard:
        mean = np.zeros(x.shape[1])
        sq = np.zeros(x.shape[1])
        for i in range(0, len(x), 65536):
            c = x[i:i + 65536].astype(np.float64)
            mean += c.sum(0)
            sq += (c * c).sum(0)
        mean /= len(x)
        var = np.maximum(sq / len(x) - mean * mean, 0.0)
        std = np.sqrt(var)
        inv = np.where(std > 1e-9, 1.0 / np.where(std > 1e-9, std, 1.0), 0.0)
        return cls(mean, inv)

    def apply(self, x: np.ndarray) -> np.ndarray:
        return np.asarray((x.astype(np.float32) - self.mean.astype(np.float32)) * self.inv.astype(np.float32))

    def fold(self, w1: np.ndarray, b1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Weights on standardized features -> the same map on raw features."""
        w = self.inv[:, None] * w1
        return w, b1 - self.mean @ w


def _as_arrays(t: str, layers: list[tuple[np.ndarray, np.ndarray]]) -> dict[str, np.ndarray]:
    out: dict[str, np.ndarray] = {}
    for i, (w, b) in enumerate(layers, 1):
        out[f"{t}_w{i}"] = np.ascontiguousarray(w, dtype=np.float32).reshape(w.shape[0], -1)
        out[f"{t}_b{i}"] = np.ascontiguousarray(b, dtype=np.float32).reshape(-1)
    return out


def _z(arrays: dict[str, np.ndarray], t: str, x: np.ndarray) -> np.ndarray:
    z = x.astype(np.float32) @ arrays[f"{t}_w1"] + arrays[f"{t}_b1"]
    if f"{t}_w2" in arrays:
        z = np.maximum(z, 0) @ arrays[f"{t}_w2"] + arrays[f"{t}_b2"]
    return np.asarray(z[:, 0], np.float64)


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -60, 60)))


def _logloss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-7, 1 - 1e-7)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def calibrate(arrays: dict[str, np.ndarray], t: str, xv: np.ndarray, yv: np.ndarray
              ) -> tuple[dict[str, np.ndarray], tuple[float, float]]:
    """Platt scaling on the validation rows: ``sigmoid(a z + b)`` with the ``a, b`` of least log-loss
    (Newton's method on two numbers), folded into the last layer, so the file stays one formula."""
    z = _z(arrays, t, xv)
    a, b = 1.0, 0.0
    for _ in range(50):
        p = _sigmoid(a * z + b)
        g = np.array([np.mean((p - yv) * z), np.mean(p - yv)])
        w = p * (1 - p)
        h = np.array([[np.mean(w * z * z), np.mean(w * z)], [np.mean(w * z), np.mean(w)]]) + 1e-9 * np.eye(2)
        step = np.linalg.solve(h, g)
        a, b = a - float(step[0]), b - float(step[1])
        if np.max(np.abs(step)) < 1e-10:
            break
    last = max(int(k[len(t) + 2:]) for k in arrays if k.startswith(f"{t}_w"))
    out = dict(arrays)
    out[f"{t}_w{last}"] = (arrays[f"{t}_w{last}"].astype(np.float64) * a).astype(np.float32)
    out[f"{t}_b{last}"] = (arrays[f"{t}_b{last}"].astype(np.float64) * a + b).astype(np.float32)
    return out, (round(a, 6), round(b, 6))


def _binary(xs: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Win shares as labelled, weighted rows: a shared first place (0 < y < 1) becomes a won row of weight
    y and a lost one of weight 1 - y."""
    part = (y > 0) & (y < 1)
    if not part.any():
        return xs, (y >= 1).astype(np.int64), None
    x2 = np.concatenate([xs, xs[part]])
    lab = np.concatenate([(y >= 0.5).astype(np.int64), np.zeros(int(part.sum()), np.int64)])
    lab[:len(y)][part] = 1
    w = np.concatenate([np.where(part, y, 1.0), 1 - y[part]])
    return x2, lab, w


def fit_linear(t: str, st: Standard, xs: np.ndarray, y: np.ndarray, xv: np.ndarray, yv: np.ndarray,
               seed: int, note: Callable[[str], None]) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Ridge (margin; penalty chosen on the validation rows) or L2 logistic regression (win)."""
    if t == "margin":
        gram = np.zeros((xs.shape[1], xs.shape[1]))
        rhs = np.zeros(xs.shape[1])
        ym = float(y.mean())
        for i in range(0, len(xs), 32768):
            c = xs[i:i + 32768].astype(np.float64)
            gram += c.T @ c
            rhs += c.T @ (y[i:i + 32768] - ym)
        best = None
        for alpha in RIDGE_ALPHAS:
            w = np.linalg.solve(gram + alpha * np.eye(len(gram)), rhs)
            arrays = _as_arrays(t, [st.fold(w[:, None], np.array([ym]))])
            rmse = float(np.sqrt(np.mean((_z(arrays, t, xv) - yv) ** 2)))
            note(f"  linear margin, ridge alpha {alpha:g}: validation RMSE {rmse:.3f}")
            if best is None or rmse < best[0]:
                best = (rmse, arrays, {"kind": "linear", "ridge_alpha": alpha})
        assert best is not None
        return best[1], best[2]
    linear_model, _nn = import_sklearn()
    xb, lab, wt = _binary(xs, y)
    found = None
    for cost in LOGISTIC_CS:
        m = linear_model.LogisticRegression(C=cost, solver="lbfgs", max_iter=500, tol=1e-6)
        m.fit(xb, lab, sample_weight=wt)
        arrays = _as_arrays(t, [st.fold(m.coef_.T.astype(np.float64), m.intercept_.astype(np.float64))])
        arrays, platt = calibrate(arrays, t, xv, yv)
        ll = _logloss(_sigmoid(_z(arrays, t, xv)), yv)
        note(f"  linear win, logistic C {cost:g}: validation log-loss {ll:.4f}")
        if found is None or ll < found[0]:
            found = (ll, arrays, {"kind": "linear", "logistic_C": cost, "iterations": int(np.max(m.n_iter_)),
                                  "platt": platt})
    assert found is not None
    return found[1], found[2]


def fit_mlp(t: str, st: Standard, xs: np.ndarray, y: np.ndarray, xv: np.ndarray, yv: np.ndarray,
            s: TrainSettings, note: Callable[[str], None]) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """One hidden layer of ReLUs, adam, an epoch at a time; the epoch best on the validation rows kept."""
    _lm, nn = import_sklearn()
    common: dict[str, Any] = {"hidden_layer_sizes": (s.hidden,), "activation": "relu", "solver": "adam",
                              "alpha": MLP_L2, "batch_size": 256, "learning_rate_init": 1e-3,
                              "random_state": s.seed % 2**32, "shuffle": True}
    if t == "margin":
        mu, sd = float(y.mean()), float(y.std()) or 1.0
        m = nn.MLPRegressor(**common)
        xb, yb, wt = xs, (y - mu) / sd, None
    else:
        m = nn.MLPClassifier(**common)
        xb, yb, wt = _binary(xs, y)
    best: tuple[float, Any, int] | None = None
    stale = 0
    for epoch in range(1, s.epochs + 1):
        if t == "margin":
            m.partial_fit(xb, yb)
        else:
            m.partial_fit(xb, yb, sample_weight=wt, classes=np.array([0, 1]))
        arrays = _mlp_arrays(t, m, st, mu if t == "margin" else 0.0, sd if t == "margin" else 1.0)
        z = _z(arrays, t, xv)
        score = (float(np.sqrt(np.mean((z - yv) ** 2))) if t == "margin" else _logloss(_sigmoid(z), yv))
        note(f"  mlp {t}, epoch {epoch}: validation {'RMSE' if t == 'margin' else 'log-loss'} {score:.4f}")
        if best is None or score < best[0] - 1e-6:
            best, stale = (score, copy.deepcopy(arrays), epoch), 0
        else:
            stale += 1
            if stale >= 3:
                break
    assert best is not None
    arrays, info = best[1], {"kind": "mlp", "hidden": s.hidden, "epochs": best[2], "l2": common["alpha"],
                             "batch": common["batch_size"], "learning_rate": common["learning_rate_init"]}
    if t == "win":
        arrays, info["platt"] = calibrate(arrays, t, xv, yv)
    return arrays, info


def _mlp_arrays(t: str, m: Any, st: Standard, mu: float, sd: float) -> dict[str, np.ndarray]:
    w1, w2 = (c.astype(np.float64) for c in m.coefs_)
    b1, b2 = (c.astype(np.float64) for c in m.intercepts_)
    return _as_arrays(t, [st.fold(w1, b1), (w2 * sd, b2 * sd + mu)])


# ------------------------------------------------------------------------------------------- evaluation


class Scores:
    """Streaming held-out figures of several predictors (margin MAE/RMSE, win Brier/log-loss, reliability)."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self.n = 0
        self.abs = dict.fromkeys(names, 0.0)
        self.sq = dict.fromkeys(names, 0.0)
        self.brier = dict.fromkeys(names, 0.0)
        self.ll = dict.fromkeys(names, 0.0)
        self.bins = {name: np.zeros((BINS, 3)) for name in names}  # rows, sum predicted, sum observed

    def add(self, name: str, margin: np.ndarray, p: np.ndarray, ym: np.ndarray, yw: np.ndarray) -> None:
        self.abs[name] += float(np.abs(margin - ym).sum())
        self.sq[name] += float(((margin - ym) ** 2).sum())
        self.brier[name] += float(((p - yw) ** 2).sum())
        q = np.clip(p, 1e-7, 1 - 1e-7)
        self.ll[name] += float(-(yw * np.log(q) + (1 - yw) * np.log(1 - q)).sum())
        b = np.minimum((p * BINS).astype(np.int64), BINS - 1)
        np.add.at(self.bins[name], b, np.stack([np.ones_like(p), p, yw], 1))

    def figures(self, name: str) -> dict[str, Any]:
        n = max(self.n, 1)
        bins = self.bins[name]
        table = [{"bin": [k / BINS, (k + 1) / BINS], "rows": int(r),
                  "predicted": round(sp / r, 4) if r else None, "observed": round(so / r, 4) if r else None}
                 for k, (r, sp, so) in enumerate(bins)]
        ece = float(sum(abs(sp - so) for _r, sp, so in bins)) / n
        return {"margin_mae": round(self.abs[name] / n, 4),
                "margin_rmse": round(float(np.sqrt(self.sq[name] / n)), 4),
                "win_brier": round(self.brier[name] / n, 5), "win_logloss": round(self.ll[name] / n, 5),
                "win_ece": round(ece, 5), "reliability": table}


def evaluate(s: TrainSettings, data: list[Dataset], predictors: dict[str, Callable[[np.ndarray], Any]]
             ) -> tuple[Scores, int, int]:
    """Every predictor's figures on the held-out rows, shard by shard."""
    sc = Scores(list(predictors))
    games = 0
    for d in data:
        if not d.role_rows.get("test"):
            continue
        for shard in d.iter_shards():
            keep = roles(s, d, shard["game"]) == "test"
            if not keep.any():
                continue
            x = shard["x"][keep]
            ym, yw = shard["margin"][keep].astype(np.float64), shard["win"][keep].astype(np.float64)
            sc.n += len(x)
            games += len(np.unique(shard["game"][keep]))
            for name, f in predictors.items():
                margin, p = f(x)
                sc.add(name, np.asarray(margin, np.float64), np.asarray(p, np.float64), ym, yw)
    return sc, sc.n, games


# ------------------------------------------------------------------------------------------- the run


@dataclass
class Result:
    header: dict
    arrays: dict[str, np.ndarray]
    report: list[str]
    seconds: float
    bytes: int = 0


def train(s: TrainSettings, out: str | Path, note: Callable[[str], None] | None = None) -> Result:
    """Fit, evaluate and write ``out`` (atomically: absent or complete). BadInput, with nothing written,
    for bad settings or data."""
    from alhambra_ai.learn.selfplay import code_version
    note = note or (lambda text: None)
    t0 = time.monotonic()
    check_settings(s)
    import_sklearn()
    out = Path(out)
    if out.is_dir():
        raise BadInput(f"--weights {out} is a folder; give a file name (e.g. {out / 'value.npz'})")
    if not out.parent.is_dir():
        raise BadInput(f"--weights {out}: no folder {out.parent}")
    data = survey(s)
    m0 = data[0].manifest
    label = f"{m0['game']} {m0['players']}p" + (f" +{','.join(m0['options'])}" if m0["options"] else "")
    note(f"{label}: {sum(d.rows for d in data)} positions in {len(data)} datasets; reading the training rows")
    tr = gather(s, data, "train", s.max_rows)
    va = gather(s, data, "val", max(s.max_rows // 4, 100))
    if not len(tr.x) or not len(va.x):
        raise DatasetError("no training or validation rows after sampling: raise --max-rows")
    st = Standard.of(tr.x)
    xs, xv = st.apply(tr.x), va.x
    kinds = list(KINDS) if s.model == "auto" else [s.model]
    cands: dict[str, dict[str, tuple[dict[str, np.ndarray], dict[str, Any]]]] = {t: {} for t in TARGETS}
    y = {"margin": (tr.margin, va.margin), "win": (tr.win, va.win)}
    for t in TARGETS:
        for kind in kinds:
            note(f"fitting {kind} {t} on {len(xs)} rows")
            if kind == "linear":
                cands[t][kind] = fit_linear(t, st, xs, y[t][0], xv, y[t][1], s.seed, note)
            else:
                cands[t][kind] = fit_mlp(t, st, xs, y[t][0], xv, y[t][1], s, note)
    # the kind kept, per target: the better on the validation games
    base_m, base_w = float(tr.margin.mean()), float(tr.win.mean())
    val: dict[str, dict[str, float]] = {t: {} for t in TARGETS}
    for kind in kinds:
        zm = _z(cands["margin"][kind][0], "margin", xv)
        val["margin"][kind] = float(np.sqrt(np.mean((zm - va.margin) ** 2)))
        val["win"][kind] = _logloss(_sigmoid(_z(cands["win"][kind][0], "win", xv)), va.win)
    kept = {t: min(kinds, key=lambda k, t=t: (val[t][k], KINDS.index(k))) for t in TARGETS}  # type: ignore[misc]
    arrays: dict[str, np.ndarray] = {}
    for t in TARGETS:
        arrays.update(cands[t][kept[t]][0])

    def pred(arrs: dict[str, np.ndarray]) -> Callable[[np.ndarray], Any]:
        return lambda x: (_z(arrs, "margin", x), _sigmoid(_z(arrs, "win", x)))

    predictors: dict[str, Callable[[np.ndarray], Any]] = {
        "baseline": lambda x: (np.full(len(x), base_m), np.full(len(x), base_w))}
    for kind in kinds:
        predictors[kind] = pred({**cands["margin"][kind][0], **cands["win"][kind][0]})
    predictors["kept"] = pred(arrays)
    note("evaluating on the held-out games")
    sc, test_rows, test_games = evaluate(s, data, predictors)
    held = {name: sc.figures(name) for name in predictors}
    model = {t: cands[t][kept[t]][1] for t in TARGETS}
    header = {
        "format": FORMAT, "version": VERSION, "game": m0["game"], "options": list(m0["options"]),
        "rules": m0["rules"], "players": m0["players"], "encoding": m0["encoding"],
        "features": m0["features"],
        "dtype": m0["dtype"], "layout": m0["layout"], "dataset_format": [m0["format"], m0["version"]],
        "model": model,
        "evaluate": {"input": "x: the int16 features as float32 [N, F]",
                     "linear": "z = x @ {t}_w1 + {t}_b1",
                     "mlp": "z = relu(x @ {t}_w1 + {t}_b1) @ {t}_w2 + {t}_b2",
                     "margin": "z (points)", "win": "sigmoid(z)"},
        "data": [d.summary() for d in data],
        "rows": {"train": len(tr.x), "train_games": tr.games, "validation": len(va.x),
                 "validation_games": va.games, "heldout": test_rows, "heldout_games": test_games},
        "validation": val, "heldout": held,
        "baseline": {"margin": base_m, "win": base_w},
        "seed": s.seed, "settings": {"model": s.model, "hidden": s.hidden, "max_rows": s.max_rows,
                                      "validation": s.validation,
                                      "test_share": None if s.holdout else s.test_share, "epochs": s.epochs},
        "code": code_version(), "command": s.command(),
    }
    write_weights(out, header, arrays)
    res = Result(header, arrays, report_lines(header), time.monotonic() - t0, out.stat().st_size)
    return res


def write_weights(out: Path, header: dict, arrays: dict[str, np.ndarray]) -> None:
    shapes = {}
    for t in TARGETS:
        m = header["model"][t]
        shapes.update(layer_shapes(m["kind"], int(header["features"]), int(m.get("hidden") or 0), (t,)))
    assert {k: v.shape for k, v in arrays.items()} == shapes, "weights arrays do not match their header"
    blob = np.frombuffer(json.dumps(header, sort_keys=True).encode(), np.uint8)
    write_npz(out, {"header": blob, **{k: arrays[k] for k in sorted(arrays)}})


def report_lines(h: dict) -> list[str]:
    r = h["rows"]
    opts = f" with {','.join(h['options'])}" if h["options"] else ""
    lines = [f"{h['game']} {h['players']}p{opts}, {h['encoding']} encoding ({h['features']} features)"]
    for d in h["data"]:
        role = "held out" if set(d["role_rows"]) == {"test"} else "training"
        lines.append(f"  {role}: {d['path']} (seed {d['seed']}, {d['rows']} positions, "
                     + ", ".join(f"{k} {d['role_games'][k]} games" for k in d["role_games"]) + ")")
    lines.append(f"rows: train {r['train']} ({r['train_games']} games), validation {r['validation']} "
                 f"({r['validation_games']} games), held out {r['heldout']} ({r['heldout_games']} games)")
    lines.append("validation (chooses the kind per target): "
                 + "; ".join(f"{t} " + ", ".join(f"{k} {v:.4f}" for k, v in h["validation"][t].items())
                             + f" ({'RMSE' if t == 'margin' else 'log-loss'})" for t in TARGETS))
    kept = ", ".join(f"{t} {h['model'][t]['kind']}" for t in TARGETS)
    lines.append(f"held out ({r['heldout']} positions, {r['heldout_games']} games):")
    lines.append(f"  {'model':<10} {'margin MAE':>10} {'RMSE':>8} {'win Brier':>10} {'log-loss':>9} "
                 f"{'ECE':>7}")
    for name, f in h["heldout"].items():
        shown = f"kept: {kept}" if name == "kept" else name
        lines.append(f"  {name:<10} {f['margin_mae']:>10.3f} {f['margin_rmse']:>8.3f} "
                     f"{f['win_brier']:>10.4f} {f['win_logloss']:>9.4f} {f['win_ece']:>7.4f}"
                     + ("   " + shown if name == "kept" else ""))
    lines.append("reliability of the kept win model (held out): predicted bin, positions, mean predicted, "
                 "observed win share")
    for b in h["heldout"]["kept"]["reliability"]:
        if b["rows"]:
            lines.append(f"  {b['bin'][0]:.1f}-{b['bin'][1]:.1f} {b['rows']:>9} {b['predicted']:>8.3f} "
                         f"{b['observed']:>8.3f}")
    return lines


__all__ = ["TrainSettings", "check_settings", "survey", "train"]
