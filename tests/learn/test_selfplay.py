"""`alhambra-ai selfplay`: the dataset's bytes do not depend on --jobs or a resume, bad input is one line and
exit 2 with nothing written, and a decision's features depend on its seat's observation only (a leak test).

The games are refereed (random and greedy bots in worker processes), a few at a time: each test takes seconds.
"""

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np
import pytest
from click.testing import CliRunner

from alhambra_ai import new_game, state_to_json
from alhambra_ai.cli import main
from alhambra_ai.learn.selfplay import (
    CITY_SUMMARY,
    DatasetError,
    FeatureEncoder,
    Settings,
    game_rows,
    load,
    read_shard,
    run_selfplay,
    shards,
)
from alhambra_ai.options import MODULES

BASE = ["greedy", "random", "--games", "5", "--shard-games", "2", "--seed", "3", "--no-progress"]


def invoke(*args):
    return CliRunner().invoke(main, ["selfplay", *map(str, args)])


def files(directory):
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """5 games (3 shards: 2 + 2 + 1) played one at a time."""
    out = tmp_path_factory.mktemp("ref") / "d"
    r = invoke(*BASE, "--out", out, "--jobs", "1")
    assert r.exit_code == 0, r.output
    return out


def one_error_line(r):
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "Traceback" not in r.stderr, r.stderr
    return lines[0]


def test_the_dataset_holds_every_decision_with_the_outcome(reference):
    d = load(reference)
    m = d["manifest"]
    assert [p.name for p in shards(reference)] == ["shard-000000.npz", "shard-000001.npz", "shard-000002.npz"]
    assert m["games"] == 5 and m["players"] == 2 and m["encoding"] == "compact"
    assert d["x"].shape == (len(d["ply"]), m["features"]) and d["x"].dtype == np.int16
    assert list(d["games_index"]) == [0, 1, 2, 3, 4]
    assert (np.diff(d["game"]) >= 0).all()
    for g in range(5):  # one row per move of the game, in order; outcome per seat from the final scores
        rows = d["game"] == g
        assert list(d["ply"][rows]) == list(range(d["games_moves"][g]))
        scores = d["games_scores"][g]
        for k in (0, 1):
            mine = rows & (d["seat"] == k)
            assert (d["score"][mine] == scores[k]).all()
            assert (d["margin"][mine] == scores[k] - scores[1 - k]).all()
            assert (d["rank"][mine] == d["games_ranks"][g][k]).all()
            assert set(d["win"][mine]) <= {0.0, 0.5, 1.0}
    # the lineup rotates: greedy sits in seat 0 of even games and seat 1 of odd ones
    assert [list(b) for b in d["games_bots"]] == [[0, 1], [1, 0], [0, 1], [1, 0], [0, 1]]
    assert m["seat_names"] == ["greedy", "random"]
    names = FeatureEncoder("alhambra", 2, {}).names
    assert len(names) == m["features"] and names[-1] == "city_summary[1][8]"
    assert "--jobs" not in m["command"] and m["command"].startswith("alhambra-ai selfplay greedy random")
    assert (d["win"][d["bot"] == 0].mean()) > 0.5  # greedy beats random


def test_same_seed_same_bytes_whatever_the_jobs(reference, tmp_path):
    r = invoke(*BASE, "--out", tmp_path / "d", "--jobs", "2")
    assert r.exit_code == 0, r.output
    assert files(tmp_path / "d") == files(reference)


def test_resume_grows_and_refills_to_the_same_bytes(reference, tmp_path):
    out = tmp_path / "d"
    r = invoke(*BASE[:2], "--games", "3", *BASE[4:], "--out", out)
    assert r.exit_code == 0, r.output
    assert len(shards(out)) == 2                      # games 0-1, and game 2 alone (a short last shard)
    r = invoke(*BASE[:2], "--games", "5", "--shard-games", "2", "--no-progress", "--out", out, "--resume")
    assert r.exit_code == 0, r.output                 # the stored seed is kept
    assert "this run: 3 games" in r.output            # the short shard 1 rewritten full (2, 3), and 4
    assert files(out) == files(reference)
    (out / "shard-000000.npz").unlink()               # as if stopped before that shard was written
    (out / ".shard-000001.npz.x.tmp").write_bytes(b"half")  # and while writing another
    r = invoke(*BASE, "--out", out, "--resume")
    assert r.exit_code == 0 and "this run: 2 games" in r.output, r.output
    assert files(out) == files(reference)
    r = invoke(*BASE, "--out", out, "--resume")
    assert r.exit_code == 0 and "this run: 0 games" in r.output
    assert files(out) == files(reference)


@pytest.mark.parametrize("change", [
    ["--game", "dice"], ["--options", "camps"], ["--players", "3", "greedy"], ["--encoding", "env"],
    ["--seed", "4"], ["--shard-games", "3"], ["--iterations", "5"],
], ids=lambda c: " ".join(c))
def test_resume_of_another_dataset_is_refused(reference, tmp_path, change):
    before = files(reference)
    args = [a for a in BASE if a not in ("--seed", "3")]
    if "--shard-games" in change:
        args = [a for a in args if a not in ("--shard-games", "2")]
    if "--players" in change:
        args = args[2:]
    r = invoke(*args, *change, "--out", reference, "--resume")
    line = one_error_line(r)
    assert "cannot resume" in line
    assert files(reference) == before


def test_a_damaged_or_foreign_dataset_is_one_line_and_nothing_written(reference, tmp_path):
    def copy():
        out = tmp_path / f"c{len(list(tmp_path.iterdir()))}"
        out.mkdir()
        for name, data in files(reference).items():
            (out / name).write_bytes(data)
        return out

    truncated = copy()
    shard = truncated / "shard-000001.npz"
    shard.write_bytes(shard.read_bytes()[:-100])
    corrupt = copy()
    shard = corrupt / "shard-000000.npz"
    data = bytearray(shard.read_bytes())
    data[len(data) // 2] ^= 0xFF
    shard.write_bytes(bytes(data))
    version = copy()
    m = json.loads((version / "manifest.json").read_text())
    (version / "manifest.json").write_text(json.dumps({**m, "version": 99}))
    for out, words in [(truncated, "shard-000001.npz: truncated or corrupt"),
                       (corrupt, "shard-000000.npz"), (version, "format version 99")]:
        before = files(out)
        line = one_error_line(invoke(*BASE, "--out", out, "--resume"))
        assert words in line, line
        assert files(out) == before
        with pytest.raises(DatasetError):
            load(out)


def test_bad_flags_are_one_line_and_nothing_written(reference, tmp_path):
    out = tmp_path / "new"
    for args, words in [
        (["greedy", "--players", "9"], "--players must be 2..6"),
        (["greedy", "random", "--players", "3"], "2 bots for 3 seats"),
        (["nosuchbot"], "no bot file"),
        (["greedy", "--games", "0"], "--games must be at least 1"),
        (["greedy", "--game", "dice", "--options", "camps"], "modules"),
        (["greedy", "--encoding", "pixels"], "--encoding"),
        (["greedy", "--jobs", "0"], "--jobs"),
        (["greedy", "--move-time", "0"], "--move-time"),
        (["greedy", "--address", "auto"], "--backend ray"),
        (["greedy", "--game", "dice", "--players", "7"], "--players"),
    ]:
        line = one_error_line(invoke(*args, "--no-progress", "--out", out))
        assert words in line, (args, line)
        assert not out.exists(), args
    before = files(reference)
    assert "add --resume" in one_error_line(invoke(*BASE, "--out", reference))
    assert files(reference) == before
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    assert "holds no self-play dataset" in one_error_line(invoke(*BASE, "--out", other))
    assert files(other) == {"notes.txt": b"mine"}


def test_a_game_that_does_not_end_is_cut_off_and_gives_no_rows(tmp_path):
    # no rule bounds a length, and greedy against itself swaps two tiles for ever on some deals: a cap
    s = Settings(("greedy", "greedy"), 2, 3, 1, max_moves=60, shard_games=2)
    stats = run_selfplay(s, tmp_path / "d", note=lambda text: None)
    assert stats.games == 3 and stats.truncated == 3 and stats.positions == 0
    d = load(tmp_path / "d")
    assert d["games_truncated"].all() and (d["games_moves"] == 60).all() and len(d["x"]) == 0
    assert d["manifest"]["max_moves"] == 60 and "--max-moves 60" in d["manifest"]["command"]


def test_a_bad_bot_file_is_one_line(tmp_path):
    bot = tmp_path / "broken.py"
    bot.write_text("raise ImportError('nope')\n")
    line = one_error_line(invoke(bot, "random", "--games", "1", "--no-progress", "--out", tmp_path / "d"))
    assert "broken.py" in line
    assert not (tmp_path / "d").exists()


def test_a_shard_is_self_describing(reference):
    shard = read_shard(reference / "shard-000002.npz")
    assert shard["meta"] == {"format": "alhambra-ai-selfplay", "version": 1, "game": "alhambra",
                             "options": [], "players": 2, "encoding": "compact",
                             "features": shard["x"].shape[1], "shard": 2, "first_game": 4, "games": 1}
    with np.load(reference / "shard-000002.npz") as z:  # plain numpy reads it
        assert np.array_equal(z["x"], shard["x"])


@pytest.mark.parametrize("game,players,options", [
    ("alhambra", 3, dict.fromkeys(MODULES, True)), ("alhambra", 2, {}), ("dice", 2, {}), ("dice", 4, {}),
    ("alcazaba", 2, {}), ("alcazaba", 3, {})])
@pytest.mark.parametrize("encoding", ["compact", "env"])
def test_features_depend_only_on_the_seats_observation(game, players, options, encoding):
    """Every seat at many points of random games: states that differ only in what the seat cannot know (its
    determinizations: draw pile, bag, other hands' unseen parts, rng) give the same features; and the
    encoder reads nothing but the observation (the clock fields the referee adds change nothing)."""
    enc = FeatureEncoder(game, players, options, encoding)
    rng = random.Random(5)
    hidden_differs = 0
    for seed in (1, 2):
        state = new_game(players, seed=seed, options=options or None, game=game)
        step = 0
        while not state.is_terminal():
            if step % 23 == 0:
                for seat in range(players):
                    x = enc.encode(state.observation(seat))
                    obs = dict(state.observation(seat), time_left=1.5, move_time=0.1)
                    assert np.array_equal(enc.encode(obs), x)
                    for s in range(2):
                        other = state.determinized(seat, seed=100 * step + s)
                        assert np.array_equal(enc.encode(other.observation(seat)), x), (game, step, seat)
                        if game == "alhambra":  # the test has teeth: the hidden part was resampled
                            hidden = ("draw_pile", "bag")
                            mine, theirs = state_to_json(state), state_to_json(other)
                            hidden_differs += any(mine[h] != theirs[h] for h in hidden)
            state.apply(rng.choice(state.legal_actions()))
            step += 1
    assert game != "alhambra" or hidden_differs > 10


def test_the_city_summary():
    enc = FeatureEncoder("alhambra", 2, {})
    state = new_game(2, seed=1)
    rng = random.Random(1)
    for _ in range(150):
        state.apply(rng.choice(state.legal_actions()))
    summary = enc.city_summary(state.observation(1))
    for k, row in ((1, summary[0]), (0, summary[1])):  # the observer's own city first
        cells = state.city(k).cells()
        types = [enc.env._type[t][0] for _x, _y, t, _w in cells]
        extent = max(max(abs(x), abs(y)) for x, y, _t, _w in cells)
        assert row.tolist() == [len(cells) - 1, *(types.count(i) for i in range(6)),
                                state.city(k).wall_score(), extent]
    assert summary[0].tolist() == [6, 0, 1, 2, 0, 3, 0, 3, 2]
    assert len(CITY_SUMMARY) == 9


@pytest.mark.parametrize("game", ["dice", "alcazaba"])
def test_dice_games_make_datasets(game, tmp_path):
    s = Settings(("random", "greedy"), 2, 2, 7, game, shard_games=2)
    stats = run_selfplay(s, tmp_path / "d", note=lambda text: None)
    assert stats.games == 2 and stats.positions > 100
    d = load(tmp_path / "d")
    assert d["manifest"]["game"] == game and len(d["ply"]) == stats.positions


def test_rows_are_the_replayed_observations(reference):
    d = load(reference)
    enc = FeatureEncoder("alhambra", 2, {})
    shard = read_shard(reference / "shard-000000.npz")
    state = new_game(2, seed=int(shard["games_seed"][0]))
    rows = np.flatnonzero(d["game"] == 0)
    for i in rows:
        k = state.current_player
        assert d["seat"][i] == k
        assert np.array_equal(d["x"][i], enc.encode(state.observation(k)))
        assert d["legal"][i] == len(state.legal_actions())
        state.apply(int(d["action"][i]))
    assert state.is_terminal() and list(state.scores()) == list(d["games_scores"][0])


def test_game_rows_refuse_a_game_that_does_not_replay():
    result = {"num_players": 2, "seed": 1, "options": {"dirk": True}, "bots": ["a", "b"], "actions": ["pass"],
              "scores": [0, 0], "ranks": [1, 1], "forfeits": []}
    with pytest.raises(RuntimeError, match="does not replay"):
        game_rows(result, FeatureEncoder("alhambra", 2, {}), 0, ["a", "b"])


@pytest.mark.slow  # a Ray cluster of its own: half a minute
def test_ray_gives_the_bytes_of_local_jobs(reference, tmp_path, monkeypatch):
    ray = pytest.importorskip("ray")
    from ray.cluster_utils import Cluster

    temp = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # Ray's socket paths must fit in 107 bytes
    monkeypatch.setenv("RAY_TMPDIR", temp)
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 2, "object_store_memory": 80 * 2**20,
                                                            "include_dashboard": False})
    try:
        cluster.wait_for_nodes()
        r = invoke(*BASE, "--out", tmp_path / "d", "--backend", "ray", "--address", cluster.address)
        assert r.exit_code == 0, r.output
        assert files(tmp_path / "d") == files(reference)
    finally:
        ray.shutdown()
        cluster.shutdown()
        shutil.rmtree(temp, ignore_errors=True)


def test_compact_is_the_env_vector_with_city_summaries():
    state = new_game(3, seed=4, options={"camps": True, "walls": True})
    rng = random.Random(4)
    compact = FeatureEncoder("alhambra", 3, state.options)
    env = FeatureEncoder("alhambra", 3, state.options, "env")
    for _ in range(120):
        state.apply(rng.choice(state.legal_actions()))
    obs = state.observation(2)
    full = env.encode(obs)
    assert env.size == env.env.size and np.array_equal(full, env.env.encode(obs))
    x = compact.encode(obs)
    assert np.array_equal(x[:-27], full[compact.keep])
    assert x[-27:].tolist() == compact.city_summary(obs).ravel().tolist()
    dice = new_game(2, seed=1, game="dice").observation(0)
    same = FeatureEncoder("dice", 2, {}).encode(dice), FeatureEncoder("dice", 2, {}, "env").encode(dice)
    assert np.array_equal(*same)


def test_the_docs_example_fits_a_model(reference, capsys):
    import runpy
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "examples" / "selfplay_value.py"
    runpy.run_path(str(example))["main"](reference, reference)
    out = capsys.readouterr().out
    assert "held-out Brier score" in out and "largest weights in:" in out


def test_killed_mid_run_then_resumed_gives_the_same_bytes(reference, tmp_path):
    out = tmp_path / "d"
    args = [sys.executable, "-m", "alhambra_ai.cli", "selfplay", *BASE, "--out", str(out)]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not (out / "shard-000000.npz").exists() and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the run and its bot workers, at once
        proc.wait()
    assert (out / "shard-000000.npz").exists()
    assert len(shards(out)) < 3
    r = invoke(*BASE, "--out", out, "--resume")
    assert r.exit_code == 0, r.output
    assert files(out) == files(reference)
