"""alhambra-ai train and the weights file (alhambra_ai.learn.train, alhambra_ai.learn.value_model): the
pipeline end to end on a few hundred random dice games made here (not strength), reproducibility, game-level
splits, bad input, and weights that do not match refused."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from click.testing import CliRunner
from trainhelpers import make_dataset

from alhambra_ai.cli import main
from alhambra_ai.errors import BadInput
from alhambra_ai.learn.selfplay import load as load_data
from alhambra_ai.learn.selfplay import shards, write_npz
from alhambra_ai.learn.value_model import WeightsError, load

pytest.importorskip("sklearn", reason='alhambra-ai train needs the [train] extra: pip install -e ".[train]"')

from alhambra_ai.learn.train import TrainSettings, roles, survey, train  # noqa: E402

SMALL = ("--max-rows", "6000", "--epochs", "4", "--hidden", "8", "--seed", "5")


def invoke(*args):
    return CliRunner().invoke(main, ["train", *map(str, args)])


def one_error_line(r):
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "Traceback" not in r.stderr, r.stderr
    return lines[0]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """150 training games (seed 1) and 60 held-out games (seed 2) of random dice play."""
    root = tmp_path_factory.mktemp("train")
    return make_dataset(root / "a", 150, 1), make_dataset(root / "b", 60, 2)


@pytest.fixture(scope="module")
def trained(data, tmp_path_factory):
    out = tmp_path_factory.mktemp("w") / "value.npz"
    r = invoke(data[0], "--holdout", data[1], "--weights", out, *SMALL)
    assert r.exit_code == 0, r.output
    return out, r.output


def test_trains_end_to_end_and_reports(data, trained):
    path, output = trained
    assert "held out" in output and "baseline" in output and "reliability" in output, output
    m = load(path)
    h = m.header
    assert h["game"] == "dice" and h["players"] == 2 and h["features"] == 704 and h["encoding"] == "compact"
    assert [d["path"] for d in h["data"]] == [str(data[0]), str(data[1])]
    assert [d["seed"] for d in h["data"]] == [1, 2] and all(len(d["sha256"]) == 64 for d in h["data"])
    assert h["seed"] == 5 and h["command"].startswith("alhambra-ai train ")
    assert "--weights" not in h["command"]
    assert set(h["heldout"]) == {"baseline", "linear", "mlp", "kept"}
    assert path.stat().st_size < 300_000
    # the figures are those of the file's own weights on the held-out dataset
    d = load_data(data[1])
    p = m.predict(d["x"])
    assert p.margin.dtype == np.float32 and p.win.shape == (len(d["x"]),)
    assert np.all((p.win >= 0) & (p.win <= 1))
    kept = h["heldout"]["kept"]
    assert np.mean(np.abs(p.margin - d["margin"])) == pytest.approx(kept["margin_mae"], abs=1e-3)
    assert np.mean((p.win - d["win"]) ** 2) == pytest.approx(kept["win_brier"], abs=1e-4)
    assert sum(b["rows"] for b in kept["reliability"]) == len(d["x"]) == h["rows"]["heldout"]
    # the pipeline learns something (the own and the other's score are in the features), not a strength test
    assert kept["margin_mae"] < h["heldout"]["baseline"]["margin_mae"]
    assert kept["win_brier"] < h["heldout"]["baseline"]["win_brier"]
    one = m.predict(d["x"][0])
    assert one.margin.shape == (1,) and one.margin[0] == pytest.approx(p.margin[0], abs=1e-4)


def test_same_data_and_seed_same_bytes(data, trained, tmp_path):
    path, _ = trained
    out = tmp_path / "again.npz"
    r = invoke(data[0], "--holdout", data[1], "--weights", out, *SMALL)
    assert r.exit_code == 0, r.output
    assert out.read_bytes() == path.read_bytes()


def test_splits_are_by_game(data):
    """No game has rows in two roles; a --holdout dataset is all held out, its training one never."""
    for s, expect in ((TrainSettings((str(data[0]),), (str(data[1]),), seed=3), {"train", "val"}),
                      (TrainSettings((str(data[0]),), seed=3), {"train", "val", "test"})):
        for d in survey(s):
            seen: dict[int, str] = {}
            for path in shards(d.path):
                with np.load(path) as z:
                    games = z["game"]
                for g, role in zip(games.tolist(), roles(s, d, games).tolist(), strict=True):
                    assert seen.setdefault(g, role) == role, f"game {g} in two roles"
            assert set(seen.values()) == ({"test"} if d.holdout else expect)


def test_without_holdout_a_share_of_games_is_held_out(data, tmp_path):
    out = tmp_path / "v.npz"
    s = TrainSettings((str(data[0]),), seed=2, model="linear", max_rows=4000)
    res = train(s, out)
    rows = res.header["rows"]
    assert rows["heldout_games"] + rows["train_games"] + rows["validation_games"] <= 150
    assert 10 <= rows["heldout_games"] <= 60 and set(res.header["heldout"]) == {"baseline", "linear", "kept"}
    assert load(out).kinds == {"margin": "linear", "win": "linear"}


def copy(src, dst, manifest=None):
    shutil.copytree(src, dst)
    if manifest:
        m = json.loads((dst / "manifest.json").read_text())
        m.update(manifest)
        (dst / "manifest.json").write_text(json.dumps(m))
    return dst


@pytest.mark.parametrize("case", ["game", "players", "version", "truncated", "corrupt", "empty", "same-seed",
                                  "missing", "not-a-dataset", "bad-flag"])
def test_bad_input_is_one_line_and_nothing_written(data, tmp_path, case):
    a, b = data
    out = tmp_path / "w.npz"
    args: list = [a, "--holdout", b]
    if case == "game":
        args = [a, copy(b, tmp_path / "g", {"game": "alcazaba"})]
    elif case == "players":
        args = [a, "--holdout", copy(b, tmp_path / "p", {"players": 3})]
    elif case == "version":
        args = [copy(a, tmp_path / "v", {"version": 2}), "--holdout", b]
    elif case == "truncated":
        c = copy(b, tmp_path / "t")
        shard = shards(c)[1]
        shard.write_bytes(shard.read_bytes()[:5000])
        args = [a, "--holdout", c]
    elif case == "corrupt":  # a byte of the features changed: the shard's CRC says so
        c = copy(a, tmp_path / "c")
        shard = shards(c)[2]
        blob = bytearray(shard.read_bytes())
        blob[len(blob) // 2] ^= 0xFF
        shard.write_bytes(bytes(blob))
        args = [c, "--holdout", b]
    elif case == "empty":
        c = copy(b, tmp_path / "e")
        for shard in shards(c):
            shard.unlink()
        args = [a, "--holdout", c]
    elif case == "same-seed":
        args = [a, "--holdout", copy(a, tmp_path / "s", {"lineup": ["greedy", "greedy"]})]
    elif case == "missing":
        args = [a, "--holdout", tmp_path / "nowhere"]
    elif case == "not-a-dataset":
        (tmp_path / "x").mkdir()
        args = [tmp_path / "x"]
    elif case == "bad-flag":
        args = [a, "--holdout", b, "--hidden", "0"]
    line = one_error_line(invoke(*SMALL, "--weights", out, *args))
    assert not out.exists() and not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob(".w.npz*")), line


def test_a_failed_run_leaves_an_old_file_alone(data, trained, tmp_path):
    out = tmp_path / "w.npz"
    shutil.copy(trained[0], out)
    r = invoke(data[0], "--holdout", tmp_path / "nowhere", "--weights", out, *SMALL)
    one_error_line(r)
    assert out.read_bytes() == trained[0].read_bytes()


def rewrite(src, dst, header=None, arrays=None):
    with np.load(src) as z:
        parts = {k: z[k] for k in z.files}
    h = json.loads(bytes(parts.pop("header")).decode())
    h.update(header or {})
    parts.update(arrays or {})
    write_npz(dst, {"header": np.frombuffer(json.dumps(h).encode(), np.uint8), **parts})
    return dst


def test_weights_that_do_not_match_are_refused(trained, tmp_path):
    path, _ = trained
    m = load(path)
    w1 = m.arrays["margin_w1"]
    cases = {
        "version": rewrite(path, tmp_path / "v.npz", {"version": 9}),
        "format": rewrite(path, tmp_path / "f.npz", {"format": "something-else"}),
        "width": rewrite(path, tmp_path / "w.npz", {"features": 705}),
        "layout": rewrite(path, tmp_path / "l.npz", {"layout": m.header["layout"][:-1]}),
        "players": rewrite(path, tmp_path / "p.npz", {"players": 3}),
        "shape": rewrite(path, tmp_path / "s.npz", arrays={"margin_w1": w1[:-1]}),
        "dtype": rewrite(path, tmp_path / "d.npz", arrays={"margin_w1": w1.astype(np.float64)}),
        "nan": rewrite(path, tmp_path / "n.npz", arrays={"margin_w1": np.full_like(w1, np.nan)}),
        "kind": rewrite(path, tmp_path / "k.npz", {"model": {**m.header["model"], "win": {"kind": "mlp",
                                                                                         "hidden": 8}}}),
    }
    blob = path.read_bytes()
    (tmp_path / "t.npz").write_bytes(blob[: len(blob) // 2])
    cases["truncated"] = tmp_path / "t.npz"
    flipped = bytearray(blob)
    flipped[len(blob) // 3] ^= 0xFF
    (tmp_path / "c.npz").write_bytes(bytes(flipped))
    cases["corrupt"] = tmp_path / "c.npz"
    cases["missing"] = tmp_path / "nothing.npz"
    for name, p in cases.items():
        with pytest.raises(WeightsError) as e:
            load(p)
        assert str(p) in str(e.value) and "\n" not in str(e.value), name
        assert isinstance(e.value, BadInput)
    with pytest.raises(WeightsError, match="704 features"):
        m.predict(np.zeros((2, 703), np.int16))
    with pytest.raises(WeightsError, match="game"):
        m.check_features("alhambra", 2)
    m.check_features("dice", 2, (), "compact")
