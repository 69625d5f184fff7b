"""The PettingZoo AEC environment (alhambra_ai/env/pettingzoo.py, docs/env.md): PettingZoo's own API and seed
checks, the same games as the native API, what each agent sees, rewards and truncation."""

import warnings
from types import SimpleNamespace

import numpy as np
import pytest
from paths import ROOT

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from alhambra_ai import new_game  # noqa: E402
from alhambra_ai.env.pettingzoo import env, final_rewards, raw_env  # noqa: E402

ALL = {m: True for m in ("vizier", "camps", "bazaars", "falcons", "change", "thief", "walls", "residents")}


@pytest.mark.parametrize("game,n,options", [("alhambra", 2, None), ("alhambra", 3, ALL), ("dice", 3, None),
                                            ("alcazaba", 2, None)])
def test_pettingzoo_api_test_passes(game, n, options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # advice for plain Box observations (ours hold a mask, as chess's)
        api_test(env(game, n, options), num_cycles=200)


@pytest.mark.parametrize("game", ["alhambra", "dice"])
def test_pettingzoo_seed_test_passes(game):
    seed_test(lambda: env(game, 2), num_cycles=60)


def play(e, seed, choose):
    """Observations, rewards and actions of one game, actions chosen by choose(rng, mask)."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = []
    for agent in e.agent_iter():
        obs, reward, term, trunc, _info = e.last()
        action = None if term or trunc else choose(rng, obs["action_mask"])
        trace.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, action))
        e.step(action)
    return trace


def random_choice(rng, mask):
    return int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize("game", ["alhambra", "dice", "alcazaba"])
def test_same_seed_and_actions_give_the_same_observations_and_rewards(game):
    a = play(env(game, 3), 11, random_choice)
    b = play(env(game, 3), 11, random_choice)
    assert a == b
    assert a != play(env(game, 3), 12, random_choice)
    rewards = [r for *_x, r, act in a if act is None]
    assert len(rewards) == 3 and abs(sum(rewards)) < 1e-9


def test_the_env_plays_the_native_game():
    """reset(seed=s) is new_game(n, seed=s); the env's codes replay on a native state to the same end."""
    e = raw_env("alhambra", 2)
    e.reset(seed=7)
    native = new_game(2, seed=7)
    rng = np.random.default_rng(0)
    while not e.game_state.is_terminal():
        seat = e.game_state.current_player
        assert e.agent_selection == f"player_{seat}"
        mask = e.observe(e.agent_selection)["action_mask"]
        index = random_choice(rng, mask)
        assert e.action_text(index) == native.action_to_text(e.action_code(index))
        native.apply(e.action_code(index))
        e.step(index)
        assert e.game_state.observation(seat) == native.observation(seat)
    assert native.is_terminal() and e.game_state.scores() == native.scores()


def test_an_agent_sees_only_its_own_information():
    """Leak test through the env: swapping the full state for one that differs only in hidden information
    (a determinization of the agent's view) leaves the agent's observation as it was."""
    e = raw_env("alhambra", 3, {"thief": True})
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(80):
        e.step(random_choice(rng, e.observe(e.agent_selection)["action_mask"]))
    for seat, agent in enumerate(e.possible_agents):
        before = e.observe(agent)
        real = e.state_
        e.state_ = real.determinized(seat, 99)
        after = e.observe(agent)
        e.state_ = real
        assert np.array_equal(before["observation"], after["observation"])
        assert np.array_equal(before["action_mask"], after["action_mask"])
        assert (before["action_mask"].sum() > 0) == (seat == real.current_player)


def test_an_illegal_action_is_refused_by_name():
    e = raw_env("dice", 2)
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    with pytest.raises(ValueError, match="not legal"):
        e.step(int(np.flatnonzero(mask == 0)[0]))


def test_rewards_win_share_and_score_difference():
    def fake(ranking, scores):
        return SimpleNamespace(num_players=len(ranking), ranking=lambda: ranking, scores=lambda: scores)

    assert final_rewards(fake([1, 2], [90, 80])) == [1.0, -1.0]
    assert final_rewards(fake([1, 1], [90, 90])) == [0.0, 0.0]
    assert final_rewards(fake([2, 1, 3], [1, 2, 0])) == [-0.5, 1.0, -0.5]
    assert final_rewards(fake([1, 1, 3], [5, 5, 0])) == [0.25, 0.25, -0.5]
    assert final_rewards(fake([1, 2, 3], [30, 20, 10]), "score") == [15.0, 0.0, -15.0]
    with pytest.raises(ValueError):
        raw_env(reward="money")


def test_a_city_beyond_the_radius_truncates_the_game():
    e = env("alhambra", 2, radius=1)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    truncated = set()
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if trunc:
            assert reward == 0 and not term and "beyond radius 1" in info["truncated"]
            truncated.add(agent)
        e.step(None if term or trunc else random_choice(rng, obs["action_mask"]))
    assert truncated == {"player_0", "player_1"} and not e.unwrapped.agents


def test_render_and_spaces():
    e = raw_env("alhambra", 2, render_mode="ansi")
    e.reset(seed=1)
    assert "seat" in e.render().lower()
    assert e.action_space("player_0").n == e.actions.n
    assert e.observation_space("player_1")["observation"].shape == (e.encoder.size,)


def test_docstring_examples():
    import doctest

    import alhambra_ai.env.pettingzoo as module

    assert doctest.testmod(module).failed == 0


def test_the_example_runs(capsys, monkeypatch):
    import runpy

    example = ROOT / "examples" / "env_random_vs_greedy.py"
    monkeypatch.setattr("sys.argv", [str(example), "2"])
    runpy.run_path(str(example), run_name="__main__")
    assert "greedy-like vs random:" in capsys.readouterr().out
    assert len(example.read_text().splitlines()) <= 40
