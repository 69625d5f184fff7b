"""Loading bot files and the Observation wrapper (alhambra_ai.bot.api)."""

import copy
import pickle

import pytest

from alhambra_ai.bot.api import BotLoadError, Observation, bot_name, load_bot


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_load_returns_fresh_bot_class(tmp_path):
    path = write(tmp_path, "counter.py", "calls = []\nclass Bot:\n    def act(self, obs):\n"
                 "        calls.append(1)\n        return len(calls)\n")
    a, b = load_bot(path), load_bot(path)
    assert a is not b  # a fresh module per load: no shared module state
    assert a().act(None) == 1 and a().act(None) == 2
    assert b().act(None) == 1


def test_bot_named_like_a_stdlib_module_does_not_shadow_it(tmp_path):
    import random

    bot = load_bot(write(tmp_path, "random.py", "import random\nclass Bot:\n    def act(self, obs):\n"
                         "        return random.choice(obs.legal_actions)\n"))
    assert bot().act(Observation({"legal_actions": [5]})) == 5
    assert random.choice is not None


def test_bot_name_is_the_stem():
    assert bot_name("bots/greedy.py") == "greedy"
    assert bot_name("/x/y/my_bot.py") == "my_bot"


@pytest.mark.parametrize(
    "name, text, message",
    [
        ("syntax.py", "class Bot:\n    def act(self, obs)\n        return 0\n", "syntax error on line 2"),
        ("nobot.py", "class Robot:\n    def act(self, obs):\n        return 0\n", "defines no class Bot"),
        ("notclass.py", "def Bot():\n    return 0\n", "defines no class Bot"),
        ("noact.py", "class Bot:\n    def play(self, obs):\n        return 0\n",
         "class Bot has no act method"),
        ("imports.py", "\nimport no_such_module_xyz\nclass Bot:\n    def act(self, o):\n        return 0\n",
         r"error while loading \(line 2\): ModuleNotFoundError"),
        ("raises.py", "raise RuntimeError('boom')\n", r"error while loading \(line 1\): RuntimeError: boom"),
        ("exits.py", "import sys\nsys.exit(3)\n", "SystemExit"),
    ],
)
def test_bad_bot_files_raise_a_clear_error(tmp_path, name, text, message):
    path = write(tmp_path, name, text)
    with pytest.raises(BotLoadError, match=message) as info:
        load_bot(path)
    assert str(path) in str(info.value)


def test_missing_file(tmp_path):
    with pytest.raises(BotLoadError, match="bot file not found: .*nope.py"):
        load_bot(tmp_path / "nope.py")


def test_directory_is_not_a_bot_file(tmp_path):
    with pytest.raises(BotLoadError, match="bot file not found"):
        load_bot(tmp_path)


def test_observation_attribute_access():
    d = {"seat": 2, "hand": ["y3"], "legal_actions": [1, 2], "time_left": 1.5, "move_time": 1.0}
    obs = Observation(d)
    assert obs.seat == 2 and obs.hand == ["y3"]
    assert obs.legal_actions == [1, 2] and obs.time_left == 1.5 and obs.move_time == 1.0
    assert "hand" in dir(obs)
    with pytest.raises(AttributeError, match="no field 'nope'"):
        _ = obs.nope


def test_observation_defaults_outside_a_tournament():
    obs = Observation({"seat": 0})
    assert obs.legal_actions == [] and obs.time_left is None and obs.move_time is None


def test_to_dict_is_a_copy():
    obs = Observation({"hand": ["y3"]})
    d = obs.to_dict()
    d["hand"].append("g1")
    assert obs.hand == ["y3"]


def test_observation_copies_and_pickles():
    obs = Observation({"seat": 1, "hand": ["b2"]})
    assert copy.deepcopy(obs).hand == ["b2"]
    assert pickle.loads(pickle.dumps(obs)).seat == 1


def test_determinize_gives_a_state_consistent_with_the_observation():
    from alhambra_ai import new_game

    state = new_game(3, seed=4)
    for _ in range(20):
        state.apply(state.legal_actions()[0])
    seat = state.current_player
    obs = Observation(dict(state.observation(seat), time_left=1.0, move_time=0.5))
    sampled = obs.determinize(7)
    assert sampled.observation(seat) == state.observation(seat)
    assert sampled.legal_actions() == obs.legal_actions


def test_observation_action_text_matches_the_state():
    from alhambra_ai import new_game
    from alhambra_ai.bot.api import Observation

    state = new_game(3, seed=11)
    rng = __import__("random").Random(5)
    for _ in range(60):
        seat = state.current_player
        obs = Observation(state.observation(seat))
        assert [obs.action_text(a) for a in obs.legal_actions] == [
            state.action_to_text(a) for a in state.legal_actions()]
        state.apply(rng.choice(state.legal_actions()))


def test_bot_files_of_the_old_tree_still_find_their_names():
    """``alhambra_ai.botapi`` and ``alhambra_ai.search`` (the toolkit's name before the package was cut by
    concept) re-export the bot API and the toolkit: bot files written for them keep working."""
    import alhambra_ai.botapi as botapi
    import alhambra_ai.search as old_search
    from alhambra_ai.bot import api, toolkit

    assert all(getattr(old_search, n) is getattr(toolkit, n) for n in old_search.__all__)
    assert set(old_search.__all__) == set(toolkit.__all__)
    assert all(getattr(botapi, n) is getattr(api, n) for n in botapi.__all__)
