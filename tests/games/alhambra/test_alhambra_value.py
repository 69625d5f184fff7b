"""The base game's learned value, compiled (cython_core/alhambra/value.pxi, shared/learned.pxi): the value
features read only what the seat may know, the selfplay ``value`` encoding is the core's vector, a model
evaluates the same in C as in numpy, weights of another feature version are refused, and mcts searches with
it at its rollout cut-off."""

from __future__ import annotations

import json

import numpy as np
import pytest
from gamehelpers import random_positions

from alhambra_ai import determinize, new_game
from alhambra_ai._core import (
    ALHAMBRA_VALUE_VERSION,
    LearnedValue,
    Mcts,
    _bench_leaf,
    alhambra_value_features,
    alhambra_value_names,
    search_evaluate,
    value_features,
    value_layout,
    value_names,
)
from alhambra_ai.errors import BadInput
from alhambra_ai.learn.selfplay import FeatureEncoder, write_npz
from alhambra_ai.learn.value_model import WeightsError, load


def positions(n, seed, count=10, options=None):
    """States along a random game, one every few moves."""
    return random_positions(n, seed, count, options=options, most=30)


def test_names_are_unique_versioned_and_one_per_concept():
    for n in (2, 3, 4, 5, 6):
        names = alhambra_value_names(n)
        assert len(names) == len(set(names)) == len(value_names("alhambra", n))
        assert ("dirk.score" in names) == (n == 2)
    assert len(alhambra_value_names(2, dirk=False)) < len(alhambra_value_names(2))
    assert value_layout("alhambra") == f"alhambra_value_v{ALHAMBRA_VALUE_VERSION}"
    # the same concepts under the dice games' names
    dice = set(value_names("dice", 2))
    for name in ("seat+0.score", "seat+1.level[tower]", "seat+0.next_points[garden]",
                 "dirk.later_points[pavilion]", "seat+0.lead[arcades]"):
        assert name in dice and name in alhambra_value_names(2)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_features_see_nothing_hidden(n):
    """Every determinization of an observation (the draw pile's and the bag's order, the RNG resampled) gives
    the seat the same vector, over many observations of several games."""
    seen = 0
    for game in range(3):
        for s in positions(n, seed=10 * n + game):
            for seat in range(n):
                f = alhambra_value_features(s, seat)
                assert all(isinstance(v, int) for v in f)
                obs = s.observation(seat)
                for k in (1, 2, 3, 4):
                    d = determinize(obs, k)
                    assert alhambra_value_features(d, seat) == f
                    assert value_features(d, seat) == f
                seen += 1
    assert seen >= 20 * n


def test_rows_are_relative_and_hold_the_hand_value():
    s = positions(3, seed=9)[-1]
    names = alhambra_value_names(3)
    f0, f1 = alhambra_value_features(s, 0), alhambra_value_features(s, 1)
    sc = {k: names.index(f"seat+{k}.score") for k in range(3)}
    assert f0[sc[0]] == s.scores()[0] and f0[sc[1]] == s.scores()[1] == f1[sc[0]]
    assert f1[sc[2]] == s.scores()[0]
    hand = search_evaluate(s)
    for seat, f in ((0, f0), (1, f1)):
        assert f[names.index("seat+0.hand_value_x10")] == round(10 * hand[seat])
        best = max(v for k, v in enumerate(hand) if k != seat)
        assert abs(f[names.index("seat+0.hand_margin_x10")] - 10 * (hand[seat] - best)) <= 1


def test_next_points_are_what_the_scoring_would_pay():
    """next_points per row and type are the majority shares of the coming scoring (the game's own code)."""
    from alhambra_ai._core import majority_shares
    names = alhambra_value_names(2)
    types = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")
    for s in positions(2, seed=4):
        f = alhambra_value_features(s, 0)
        counts = [[f[names.index(f"{r}.level[{t}]")] for t in types] for r in ("seat+0", "seat+1", "dirk")]
        done = f[names.index("scorings_done")]
        if done == 3:
            continue
        paid = majority_shares(counts, done + 1)
        for r, row in zip(("seat+0", "seat+1", "dirk"), paid, strict=True):
            assert [f[names.index(f"{r}.next_points[{t}]")] for t in types] == row


def test_modules_are_refused():
    s = new_game(3, seed=1, options={"vizier": True})
    with pytest.raises(ValueError, match="base game only"):
        alhambra_value_features(s, 0)
    with pytest.raises(BadInput, match="base game only"):
        FeatureEncoder("alhambra", 3, {"vizier": True}, "value")


@pytest.mark.parametrize("n", [2, 4])
def test_selfplay_value_encoding_is_the_core_vector(n):
    enc = FeatureEncoder("alhambra", n, {}, "value")
    assert enc.size == len(alhambra_value_names(n)) and enc.names == alhambra_value_names(n)
    assert enc.layout == [(f"alhambra_value_v{ALHAMBRA_VALUE_VERSION}", (enc.size,))]
    for s in positions(n, seed=5):
        for seat in range(n):
            x = enc.encode(s.observation(seat))
            assert x.dtype == np.int16 and list(x) == alhambra_value_features(s, seat)


def test_learned_value_is_the_numpy_model_and_zero_sum_for_two():
    names = alhambra_value_names(2)
    rng = np.random.default_rng(1)
    w = rng.normal(size=len(names)) * 0.01
    lv = LearnedValue("alhambra", 2, list(w), [1.5])
    for s in positions(2, seed=5):
        m = lv.margins(s)
        one = [float(np.dot(w, alhambra_value_features(s, p)) + 1.5) for p in range(2)]
        assert m[0] == pytest.approx(0.5 * (one[0] - one[1])) and m[1] == pytest.approx(-m[0])
    width, hidden = len(names), 6
    w1, b1, w2 = rng.normal(size=(width, hidden)) * 0.01, rng.normal(size=hidden), rng.normal(size=hidden)
    mlp = LearnedValue("alhambra", 2, list(w1.ravel()), list(b1), list(w2), -0.5)
    for s in positions(2, seed=7):
        one = [float(np.maximum(np.array(alhambra_value_features(s, p)) @ w1 + b1, 0) @ w2 - 0.5)
               for p in range(2)]
        assert mlp.margins(s)[0] == pytest.approx(0.5 * (one[0] - one[1]))
    lv3 = LearnedValue("alhambra", 3, [0.01] * len(alhambra_value_names(3)), [0.0])
    s = positions(3, seed=6)[-1]
    assert lv3.margins(s) == pytest.approx([0.01 * sum(alhambra_value_features(s, p)) for p in range(3)])
    with pytest.raises(ValueError, match="value features"):
        LearnedValue("alhambra", 2, [0.0] * 3, [0.0])
    with pytest.raises(ValueError, match="cannot score"):
        lv.margins(new_game(3, seed=1))
    with pytest.raises(ValueError, match="cannot score"):
        lv.margins(new_game(2, seed=1, game="dice"))
    with pytest.raises(ValueError, match="Dirk"):
        lv.margins(new_game(2, seed=1, options={"dirk": False}))


def test_mcts_scores_its_cut_off_with_the_compiled_value():
    s = new_game(2, seed=3)
    obs = s.observation(s.current_player)
    names = alhambra_value_names(2)
    w = [0.1 if n == "seat+0.hand_margin_x10" else 0.0 for n in names]
    lv = LearnedValue("alhambra", 2, w, [0.0])

    def run(value):
        t = Mcts([determinize(obs, 1)], 7, rollout_turns=6, value=value)
        t.run(300, 0.0)
        return t.root_children()

    a, b = run(lv), run(lv)
    assert a == b and s.is_legal(a[0][0]) and sum(v for _a, v, _m in a) == 300
    # the hand margin as the model: the leaf is the hand evaluation's margin (squashed as the hand's is)
    assert _bench_leaf(s, lv, 10) > 0 and _bench_leaf(s, None, 10) > 0
    with pytest.raises(ValueError, match="cannot score"):
        Mcts([determinize(new_game(3, seed=1).observation(0), 1)], 7, value=lv)
    with pytest.raises(TypeError):
        Mcts([determinize(obs, 1)], 7, value="learned")


@pytest.fixture(scope="module")
def weights(tmp_path_factory):
    pytest.importorskip("sklearn", reason='train needs the [train] extra: pip install -e ".[train]"')
    from trainhelpers import make_dataset

    from alhambra_ai.learn.train import TrainSettings, train
    root = tmp_path_factory.mktemp("value")
    data = make_dataset(root / "d", 6, 1, game="alhambra", encoding="value", shard_games=3)
    out = root / "w.npz"
    train(TrainSettings((str(data),), model="linear", max_rows=4000, seed=3), out)
    return out


def test_trained_weights_compile_to_the_same_value(weights):
    m = load(weights)
    lv = m.compiled()
    for s in positions(2, seed=8):
        x = np.array([alhambra_value_features(s, p) for p in range(2)], np.int16)
        p = m.predict(x).margin
        assert lv.margins(s)[0] == pytest.approx(0.5 * (p[0] - p[1]), abs=1e-2)


def test_weights_of_other_value_features_are_refused(weights, tmp_path):
    with np.load(weights) as z:
        arrays = {k: z[k] for k in z.files}
    header = json.loads(bytes(arrays["header"]).decode())
    assert header["layout"][0][0] == f"alhambra_value_v{ALHAMBRA_VALUE_VERSION}"
    header["layout"][0][0] = f"alhambra_value_v{ALHAMBRA_VALUE_VERSION + 1}"
    arrays["header"] = np.frombuffer(json.dumps(header).encode(), np.uint8)
    bad = tmp_path / "bad.npz"
    write_npz(bad, arrays)
    with pytest.raises(WeightsError, match="another layout"):
        load(bad)


def test_a_refereed_game_with_the_learned_value_has_no_forfeit(weights, tmp_path):
    """A refereed game (each seat its sandboxed worker) of mcts with value: learned: it loads weights inside
    the sandbox (the package's values folder is in its read set) and plays every move without a forfeit."""
    import shutil

    from click.testing import CliRunner

    from alhambra_ai.cli import main
    from alhambra_ai.learn.value_model import SHIPPED
    from alhambra_ai.sandbox import process
    name = "_test-alhambra-2p.npz"
    shutil.copy(weights, SHIPPED / name)
    process.trees.renew()  # the workers' trees of links hold the package's files as they were when planned
    try:
        learned = tmp_path / "learned.py"
        learned.write_text("from alhambra_ai.botapi import SearchBot\n\n\nclass Bot(SearchBot):\n"
                           "    search = 'mcts'\n\n    def setup(self, config):\n"
                           "        super().setup({**config, 'value': 'learned', 'weights': "
                           f"{name!r}, 'iterations': 30, 'rollout_turns': 6}})\n")
        r = CliRunner().invoke(main, ["tournament", str(learned), "greedy", "--players", "2", "--rounds", "1",
                                      "--seed", "3", "--out", str(tmp_path / "t"), "--no-progress"])
        assert r.exit_code == 0, r.output
        results = [json.loads(line) for line in (tmp_path / "t" / "results.jsonl").read_text().splitlines()]
        assert len(results) == 2 and all(res["forfeits"] == [] for res in results)
    finally:
        (SHIPPED / name).unlink()
        process.trees.renew()  # (a plan naming a file that is gone could not be linked)


def test_the_shipped_value_loads_and_scores_its_features():
    from alhambra_ai.learn.value_model import shipped_path, shipped_value
    if not shipped_path("alhambra", 2).exists():
        pytest.skip("no learned value is shipped for the base game with 2 players")
    m = load(shipped_path("alhambra", 2))
    width = len(alhambra_value_names(2))
    assert m.header["layout"] == [[f"alhambra_value_v{ALHAMBRA_VALUE_VERSION}", [width]]]
    lv = shipped_value("alhambra", 2)
    for s in positions(2, seed=11, count=4):
        x = np.array([alhambra_value_features(s, p) for p in range(2)], np.int16)
        p = m.predict(x).margin
        assert lv.margins(s)[0] == pytest.approx(0.5 * (p[0] - p[1]), abs=1e-2)
