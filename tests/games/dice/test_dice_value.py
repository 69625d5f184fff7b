"""The dice games' learned value, compiled (cython_core/dice/value.pxi): the value features read only what
the seat may know, the selfplay ``value`` encoding is the core's vector, a trained linear model evaluates the
same in C as in numpy, weights of another feature version are refused, and mcts searches with it."""

from __future__ import annotations

import random

import numpy as np
import pytest
from gamehelpers import random_positions
from trainhelpers import make_dataset

from alhambra_ai import determinize, new_game
from alhambra_ai._core import (
    DICE_VALUE_VERSION,
    DiceMcts,
    LearnedValue,
    dice_value_features,
    dice_value_names,
)
from alhambra_ai.games.dice import mcts
from alhambra_ai.learn.selfplay import FeatureEncoder, write_npz
from alhambra_ai.learn.value_model import WeightsError, load


def positions(game, n, seed, count=12):
    """States along a random game, one every few moves."""
    return random_positions(n, seed, count, game=game, most=25)


@pytest.mark.parametrize("game", ["dice", "alcazaba"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_features_are_whole_named_and_see_nothing_hidden(game, n):
    names = dice_value_names(game, n)
    assert len(names) == len(set(names))
    for s in positions(game, n, seed=n):
        for seat in range(n):
            f = dice_value_features(s, seat)
            assert len(f) == len(names) and all(isinstance(v, int) for v in f)
            obs = s.observation(seat)
            # every hidden part resampled (the bonus stacks, the bag's order): the same vector
            for k in (1, 2, 3):
                assert dice_value_features(determinize(obs, k), seat) == f
            assert list(FeatureEncoder(game, n, {}, "value").encode(obs)) == f


def test_rows_are_relative_to_the_seat():
    s = positions("dice", 3, seed=9)[-1]
    names = dice_value_names("dice", 3)
    f0, f1 = dice_value_features(s, 0), dice_value_features(s, 1)
    sc = {k: names.index(f"seat+{k}.score") for k in range(3)}
    assert f0[sc[0]] == s.scores()[0] and f0[sc[1]] == s.scores()[1] == f1[sc[0]]
    assert f1[sc[2]] == s.scores()[0]


def test_next_points_are_what_the_scoring_pays():
    """Just before the move that brings scoring A, where that move moves no building points, every row's
    next_points (per type) are the majorities the scoring then pays (checked on the first 5 such games)."""
    names = dice_value_names("dice", 2)
    types = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")
    checked = 0
    for seed in range(60):
        s, rng = new_game(2, seed=seed, game="dice"), random.Random(seed)
        while True:
            before = s.clone()
            s.apply(rng.choice(s.legal_actions()))
            if s.observation(0)["scored"]:
                break
        if before.observation(0)["building_points"] != s.observation(0)["building_points"]:
            continue
        f = dice_value_features(before, 0)
        bd = s.score_breakdown()[0]
        for row, paid in zip(("seat+0", "seat+1", "dirk"), (bd["seats"][0], bd["seats"][1], bd["dirk"]),
                             strict=True):
            assert [f[names.index(f"{row}.next_points[{t}]")] for t in types] == paid["majorities"]
        checked += 1
        if checked == 5:
            break
    assert checked == 5


def test_linear_value_is_the_dot_product_and_zero_sum_for_two():
    names = dice_value_names("dice", 2)
    rng = np.random.default_rng(1)
    w = rng.normal(size=len(names))
    lv = LearnedValue("dice", 2, list(w), [1.5])
    for s in positions("dice", 2, seed=5):
        m = lv.margins(s)
        one = [float(np.dot(w, dice_value_features(s, p)) + 1.5) for p in range(2)]
        assert m[0] == pytest.approx(0.5 * (one[0] - one[1])) and m[1] == pytest.approx(-m[0])
    lv3 = LearnedValue("dice", 3, [0.5] * len(dice_value_names("dice", 3)), [0.0])
    s = positions("dice", 3, seed=6)[-1]
    assert lv3.margins(s) == pytest.approx([0.5 * sum(dice_value_features(s, p)) for p in range(3)])
    with pytest.raises(ValueError, match="value features"):
        LearnedValue("dice", 2, [0.0] * 3, [0.0])
    width, hidden = len(names), 5
    w1, b1, w2 = rng.normal(size=(width, hidden)), rng.normal(size=hidden), rng.normal(size=hidden)
    mlp = LearnedValue("dice", 2, list(w1.ravel()), list(b1), list(w2), -0.5)
    for s in positions("dice", 2, seed=7):
        one = [float(np.maximum(np.array(dice_value_features(s, p)) @ w1 + b1, 0) @ w2 - 0.5)
               for p in range(2)]
        assert mlp.margins(s)[0] == pytest.approx(0.5 * (one[0] - one[1]))
    with pytest.raises(ValueError, match="cannot score"):
        lv.margins(new_game(3, seed=1, game="dice"))


def test_mcts_takes_the_compiled_value_at_its_leaves():
    s = new_game(2, seed=3, game="dice")
    s.apply(s.legal_actions()[0])
    lv = LearnedValue("dice", 2, [0.1] * len(dice_value_names("dice", 2)), [0.0])
    obs = s.observation(s.current_player)

    def run():
        t = DiceMcts([determinize(obs, 1)], 7, lv, mcts.turn_table, mcts.rollout_policy)
        t.run(300)
        return t.best(list(obs["legal_actions"])), t.leaf_calls

    (a, calls), (b, _) = run(), run()
    assert a == b and s.is_legal(a) and calls > 0


@pytest.fixture(scope="module")
def weights(tmp_path_factory):
    pytest.importorskip("sklearn", reason='train needs the [train] extra: pip install -e ".[train]"')
    from alhambra_ai.learn.train import TrainSettings, train
    root = tmp_path_factory.mktemp("value")
    data = make_dataset(root / "d", 120, 1, encoding="value")
    out = root / "w.npz"
    train(TrainSettings((str(data),), model="linear", max_rows=4000, seed=3), out)
    return out


def test_trained_weights_compile_to_the_same_value(weights):
    m = load(weights)
    lv = m.compiled()
    for s in positions("dice", 2, seed=8):
        x = np.array([dice_value_features(s, p) for p in range(2)], np.int16)
        p = m.predict(x).margin
        assert lv.margins(s)[0] == pytest.approx(0.5 * (p[0] - p[1]), abs=1e-3)


def test_weights_of_other_value_features_are_refused(weights, tmp_path):
    import json
    with np.load(weights) as z:
        arrays = {k: z[k] for k in z.files}
    header = json.loads(bytes(arrays["header"]).decode())
    header["layout"][0][0] = f"value_v{DICE_VALUE_VERSION + 1}"
    arrays["header"] = np.frombuffer(json.dumps(header).encode(), np.uint8)
    bad = tmp_path / "bad.npz"
    write_npz(bad, arrays)
    with pytest.raises(WeightsError, match="another layout"):
        load(bad)
    compact = FeatureEncoder("dice", 2, {}, "compact")
    assert compact.size != len(dice_value_names("dice", 2))


def test_value_encoding_is_refused_for_the_base_game_with_modules():
    from alhambra_ai.errors import BadInput
    with pytest.raises(BadInput, match="value encoding"):
        FeatureEncoder("alhambra", 2, {"vizier": True}, "value")


@pytest.mark.parametrize("game", ["dice", "alcazaba"])
def test_the_shipped_values_play_in_the_sandbox(game, tmp_path):
    """A refereed game (each seat its sandboxed worker) of mcts on the shipped learned value: it loads the
    weights inside the sandbox (the package's data is in its read set; loading needs no arena import) and
    plays every move without a forfeit."""
    from click.testing import CliRunner

    from alhambra_ai.cli import main
    from alhambra_ai.learn.value_model import shipped_path
    if not shipped_path(game, 2).exists():
        pytest.skip(f"no learned value is shipped for {game} with 2 players")
    learned = tmp_path / "learned.py"
    learned.write_text("from alhambra_ai.bot.api import SearchBot\n\n\nclass Bot(SearchBot):\n"
                       "    search = 'mcts'\n\n    def setup(self, config):\n"
                       "        super().setup({**config, 'value': 'learned', 'iterations': 40})\n")
    r = CliRunner().invoke(main, ["tournament", str(learned), "greedy", "--game", game, "--players", "2",
                                  "--rounds", "1", "--seed", "3", "--out", str(tmp_path / "t"),
                                  "--no-progress"])
    assert r.exit_code == 0, r.output
    import json
    results = [json.loads(line) for line in (tmp_path / "t" / "results.jsonl").read_text().splitlines()]
    assert len(results) == 2 and all(res["forfeits"] == [] for res in results)
