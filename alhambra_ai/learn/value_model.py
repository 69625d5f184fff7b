"""Learned position values (``alhambra-ai train``; docs/formats.md "Value weights", docs/bots.md "Training a
value model"): the weights file and its numpy evaluation. numpy only: reading and evaluating weights needs
no training library.

A weights file is a ``.npz`` (``selfplay.write_npz``: fixed member order and times, written atomically) with
a ``header`` member (uint8 bytes of a JSON object: format, version, the game, options, players, the feature
encoding with its width and layout, the model, the data, the seed, the code and the command that made it)
and float32 arrays, two per layer per target. The standardisation of the features is folded into the first
layer, so a consumer evaluates the raw int16 features of ``selfplay.FeatureEncoder`` directly:

- ``linear``: ``z = x @ {t}_w1 + {t}_b1`` (``{t}_w1`` is ``[F, 1]``);
- ``mlp``: ``h = relu(x @ {t}_w1 + {t}_b1)`` (``[F, H]``, ``[H]``), ``z = h @ {t}_w2 + {t}_b2``
  (``[H, 1]``, ``[1]``);

for the targets ``t`` = ``margin`` (``z`` is the seat's expected final score margin, in points) and ``win``
(``sigmoid(z)`` is the seat's win probability).

``load(path)`` checks everything before a value is read (format, version, every array's name, dtype and
shape against the header, finiteness, and that this code's ``FeatureEncoder`` for the header's game,
players, options and encoding still has the recorded width and layout) and raises ``WeightsError`` (a
``BadInput``: one line, exit 2) naming the problem; ``ValueModel.predict`` refuses features of another width.

>>> import numpy as np
>>> m = ValueModel(_toy_header(), {"margin_w1": np.ones((3, 1), np.float32),
...     "margin_b1": np.zeros(1, np.float32), "win_w1": np.zeros((3, 1), np.float32),
...     "win_b1": np.zeros(1, np.float32)})
>>> p = m.predict(np.array([[1, 2, 3]], np.int16))
>>> float(p.margin[0]), float(p.win[0])
(6.0, 0.5)
"""

from __future__ import annotations

import io
import json
import zipfile
import zlib
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from alhambra_ai.errors import BadInput

FORMAT = "alhambra-ai-value"
VERSION = 1
KINDS = ("linear", "mlp")
TARGETS = ("margin", "win")


class WeightsError(BadInput):
    """A weights file that cannot be used (corrupt, another format or version, or not matching the features
    this code computes): one line, exit 2."""


class Prediction(NamedTuple):
    margin: np.ndarray   # float32: expected final score margin of the seat, in points
    win: np.ndarray      # float32: the seat's win probability


def layer_shapes(kind: str, width: int, hidden: int, targets: tuple[str, ...] = TARGETS
                 ) -> dict[str, tuple[int, ...]]:
    """The arrays of a model of one kind (name -> shape) for the targets."""
    out: dict[str, tuple[int, ...]] = {}
    for t in targets:
        if kind == "linear":
            out[f"{t}_w1"], out[f"{t}_b1"] = (width, 1), (1,)
        elif kind == "mlp":
            out[f"{t}_w1"], out[f"{t}_b1"] = (width, hidden), (hidden,)
            out[f"{t}_w2"], out[f"{t}_b2"] = (hidden, 1), (1,)
        else:
            raise WeightsError(f"model kind {kind!r} is none of {', '.join(KINDS)}")
    return out


class ValueModel:
    """Weights of a position-value model and their evaluation in numpy (``predict``)."""

    def __init__(self, header: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
        self.header = header
        self.arrays = arrays
        self.kinds: dict[str, str] = {t: header["model"][t]["kind"] for t in TARGETS}
        self.width: int = int(header["features"])

    @property
    def game(self) -> str:
        return str(self.header["game"])

    @property
    def players(self) -> int:
        return int(self.header["players"])

    def _z(self, t: str, x: np.ndarray) -> np.ndarray:
        a = self.arrays
        z = x @ a[f"{t}_w1"] + a[f"{t}_b1"]
        if self.kinds[t] == "mlp":
            z = np.maximum(z, 0, out=z) @ a[f"{t}_w2"] + a[f"{t}_b2"]
        return np.asarray(z[:, 0], dtype=np.float32)

    def predict(self, features: Any) -> Prediction:
        """Margin and win probability for features ``[F]`` or ``[N, F]`` (the int16 rows of a dataset, or
        ``FeatureEncoder.encode`` of one observation); arrays ``[N]`` (``[1]`` for one row)."""
        x = np.asarray(features)
        if x.ndim == 1:
            x = x[None, :]
        if x.ndim != 2 or x.shape[1] != self.width:
            raise WeightsError(f"features of shape {tuple(np.shape(features))}: these weights take "
                               f"{self.width} features per row ({self.header['encoding']} encoding of "
                               f"{self.game}, {self.players} players)")
        x = x.astype(np.float32, copy=False)
        margin = self._z("margin", x)
        win = (1.0 / (1.0 + np.exp(-np.clip(self._z("win", x), -60, 60)))).astype(np.float32)
        return Prediction(margin, win)

    def check_features(self, game: str, players: int, options: Any = (), encoding: str = "compact") -> None:
        """WeightsError unless these weights were made for the features of this game, player count, module
        set and encoding (a consumer calls this before evaluating)."""
        want = {"game": game, "players": players, "options": sorted(options or ()), "encoding": encoding}
        have = {"game": self.game, "players": self.players, "options": sorted(self.header["options"]),
                "encoding": self.header["encoding"]}
        for key, value in want.items():
            if have[key] != value:
                raise WeightsError(f"these weights are for {key} {have[key]!r}, not {value!r}")


    def compiled(self) -> Any:
        """The margin model as the core's ``LearnedValue`` (what the compiled searches evaluate at their
        leaves, in C); WeightsError unless it is a model of the core's value features."""
        from alhambra_ai._core import LearnedValue
        if self.header["encoding"] != "value":
            raise WeightsError(f"the searches read weights of the value encoding, not "
                               f"{self.header['encoding']}")
        a = self.arrays
        w1, b1 = [float(v) for v in a["margin_w1"].ravel()], [float(v) for v in a["margin_b1"]]
        if self.kinds["margin"] == "linear":
            return LearnedValue(self.game, self.players, w1, b1)
        return LearnedValue(self.game, self.players, w1, b1, [float(v) for v in a["margin_w2"][:, 0]],
                            float(a["margin_b2"][0]))


#: the learned values shipped with the package (``alhambra-ai train`` made each; its header says how)
SHIPPED = Path(__file__).parent.parent / "data" / "values"


def shipped_path(game: str, players: int) -> Path:
    return SHIPPED / f"{game}-{players}p.npz"


_COMPILED: dict[tuple[str, int], Any] = {}


def shipped_value(game: str, players: int) -> Any:
    """The shipped learned value of a game and player count, compiled (loaded once per process);
    WeightsError when the package has none."""
    key = (game, players)
    if key not in _COMPILED:
        path = shipped_path(game, players)
        if not path.exists():
            raise WeightsError(f"no learned value is shipped for {game} with {players} players ({path.name})")
        _COMPILED[key] = load(path).compiled()
    return _COMPILED[key]


def _encoder_layout(header: dict[str, Any]) -> tuple[int, list[list[Any]]]:
    if header["encoding"] == "value":  # the core's own vector: checked without the arena (a bot loads these)
        from alhambra_ai._core import value_layout, value_names
        try:
            width = len(value_names(header["game"], int(header["players"])))
            return width, [[value_layout(header["game"]), [width]]]
        except ValueError as e:
            raise BadInput(str(e)) from None
    from alhambra_ai.learn.selfplay import FeatureEncoder
    enc = FeatureEncoder(header["game"], int(header["players"]), dict.fromkeys(header["options"], True),
                         header["encoding"])
    return enc.size, [[name, list(shape)] for name, shape in enc.layout]


def load(path: str | Path) -> ValueModel:
    """A weights file, checked through (see the module's docstring); WeightsError names what is wrong."""
    path = Path(path)
    try:
        with zipfile.ZipFile(path) as z:
            bad = z.testzip()
            if bad is not None:
                raise WeightsError(f"{path}: corrupt weights file (member {bad} fails its checksum)")
            data = {}
            for name in z.namelist():
                with z.open(name) as f:
                    data[name.removesuffix(".npy")] = np.lib.format.read_array(
                        io.BytesIO(f.read()), allow_pickle=False)
    except WeightsError:
        raise
    except FileNotFoundError:
        raise WeightsError(f"{path}: no such weights file") from None
    except (zipfile.BadZipFile, zlib.error, ValueError, OSError, EOFError) as e:
        raise WeightsError(f"{path}: truncated or corrupt weights file "
                           f"({' '.join(str(e).split())})") from None
    try:
        header = json.loads(bytes(data.pop("header")).decode())
    except (KeyError, ValueError):
        raise WeightsError(f"{path}: not a value weights file (no readable header)") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise WeightsError(f"{path}: not a value weights file (format {header.get('format')!r})"
                           if isinstance(header, dict) else f"{path}: not a value weights file")
    if header.get("version") != VERSION:
        raise WeightsError(f"{path}: weights format version {header.get('version')}, this code reads "
                           f"{VERSION}")
    try:
        model = header["model"]
        width = int(header["features"])
        shapes: dict[str, tuple[int, ...]] = {}
        for t in TARGETS:
            shapes.update(layer_shapes(model[t]["kind"], width, int(model[t].get("hidden") or 0), (t,)))
        for key in ("game", "players", "options", "encoding", "layout"):
            header[key]  # noqa: B018 - present, or the KeyError below
    except (KeyError, TypeError, ValueError) as e:
        raise WeightsError(f"{path}: incomplete weights header ({e})") from None
    if sorted(data) != sorted(shapes):
        raise WeightsError(f"{path}: holds arrays {', '.join(sorted(data))}; its header's model has "
                           f"{', '.join(sorted(shapes))}")
    for name, shape in shapes.items():
        arr = data[name]
        if arr.dtype != np.float32 or arr.shape != shape:
            raise WeightsError(f"{path}: array {name} is {arr.dtype}{list(arr.shape)}, the header says "
                               f"float32{list(shape)}")
        if not np.all(np.isfinite(arr)):
            raise WeightsError(f"{path}: array {name} holds values that are not finite")
    try:
        size, layout = _encoder_layout(header)
    except BadInput as e:
        raise WeightsError(f"{path}: made for features this code cannot compute ({e})") from None
    if size != width or layout != header["layout"]:
        raise WeightsError(f"{path}: made for {width} features in another layout; this code's "
                           f"{header['encoding']} encoding of {header['game']} ({header['players']} players) "
                           f"gives {size}: train the weights again")
    return ValueModel(header, data)


def _toy_header() -> dict[str, Any]:
    """A header for the docstring's three-feature example (not a real encoding: ``load`` would refuse it)."""
    return {"format": FORMAT, "version": VERSION, "game": "toy", "players": 2, "options": [],
            "encoding": "compact", "features": 3, "layout": [["toy", [3]]],
            "model": {"margin": {"kind": "linear"}, "win": {"kind": "linear"}}}


__all__ = ["FORMAT", "KINDS", "TARGETS", "VERSION", "Prediction", "ValueModel", "WeightsError",
           "layer_shapes", "load"]
