"""The OpenSpiel games (alhambra_ai/env/openspiel.py, docs/env.md): OpenSpiel's own random-simulation checks,
chance nodes, information strings and tensors, resampling with our determinizer, and OpenSpiel's IS-MCTS
playing our greedy bot through the OpenSpiel state."""

import random

import numpy as np
import pytest
from paths import ROOT

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from alhambra_ai import state_to_json  # noqa: E402
from alhambra_ai.bot.api import Observation, load_bot  # noqa: E402
from alhambra_ai.env import openspiel as aos  # noqa: E402
from alhambra_ai.env.spaces import ObservationEncoder  # noqa: E402

ALL = "vizier+camps+bazaars+falcons+change+thief+walls+residents"
GREEDY = load_bot(ROOT / "bots" / "greedy.py")


@pytest.mark.parametrize("name,params", [("alhambra", {"players": 2}),
                                         ("alhambra", {"players": 3, "options": ALL}),
                                         ("alhambra_dice", {"players": 2}),
                                         ("alhambra_alcazaba", {"players": 2})])
def test_openspiel_random_simulation_checks_pass(name, params):
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def walk(state, steps, seed):
    """Random legal moves (and chance outcomes) from state, at most `steps`."""
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choice(outcomes)[0] if len(outcomes) < 5000 else seed)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_games_load_by_name_and_parameters():
    game = pyspiel.load_game("alhambra(players=3,options=vizier+camps)")
    assert game.num_players() == 3 and game.cfg.options == {"vizier": True, "camps": True}
    assert game.num_distinct_actions() == game.cfg.actions.n
    assert aos.load("alhambra", 3, {"camps": True, "vizier": True}).cfg.options == game.cfg.options
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    with pytest.raises(ValueError, match="unknown module"):
        aos.load("alhambra", 2, {"dragons": True})


def test_the_deal_is_one_chance_node_over_seeds():
    game = aos.load("alhambra", 2, deals=1000)
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert state.is_chance_node() and len(outcomes) == 1000 == game.max_chance_outcomes()
    assert abs(sum(p for _a, p in outcomes) - 1) < 1e-9
    state.apply_action(7)
    from alhambra_ai import new_game
    assert state.engine.observation(0) == new_game(2, seed=7).observation(0)
    assert state.current_player() == state.engine.current_player


def test_dice_rolls_are_chance_nodes_with_the_engines_probabilities():
    game = aos.load("dice", 2, deals=10)
    state = game.new_initial_state()
    state.apply_action(3)
    seen = 0
    while seen < 5 and not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            engine_outcomes = state.engine.chance_outcomes(state._c.roll)
            assert [p for _a, p in outcomes] == [p for _f, p in engine_outcomes]
            assert abs(sum(p for _a, p in outcomes) - 1) < 1e-9
            k = len(outcomes) // 2
            faces = engine_outcomes[k][0]
            rolled = [i for i in range(8) if state._c.roll >> (4 + i) & 1]
            state.apply_action(k)                      # the faces go to the rolled dice in order
            assert [state.engine.dice()[0][i] for i in rolled] == list(faces)
            seen += 1
        else:
            state.apply_action(state.legal_actions()[0])
    assert seen == 5


@pytest.mark.parametrize("name", ["alhambra", "dice", "alcazaba"])
def test_resampling_keeps_the_information_state_and_changes_the_hidden_rest(name):
    game = aos.load(name, 3, deals=100)
    state = walk(game.new_initial_state(), 60, seed=2)
    while state.is_chance_node():
        state = walk(state, 1, seed=3)
    player = state.current_player()
    samples = [state.resample_from_infostate(player, random.Random(k).random) for k in range(4)]
    for s in samples:
        assert s.information_state_string(player) == state.information_state_string(player)
        assert s.legal_actions() == state.legal_actions()
        assert np.array_equal(s.information_state_tensor(player), state.information_state_tensor(player))
    if name == "alhambra":
        hidden = {str(state_to_json(s.engine)["draw_pile"]) for s in samples}
    else:
        hidden = {repr(s.engine._hidden()) for s in samples}
    assert len(hidden) > 1
    other = (player + 1) % 3          # strings are per seat: another seat's differs (legal actions)
    assert state.information_state_string(other) != state.information_state_string(player)


def test_strings_and_tensors_are_the_seats_observation():
    game = aos.load("alhambra", 2, deals=100)
    state = walk(game.new_initial_state(), 40, seed=4)
    enc = ObservationEncoder("alhambra", 2, {})
    for p in range(2):
        vec = enc.encode(state.engine.observation(p))
        assert np.array_equal(np.asarray(state.observation_tensor(p)), vec)
        assert np.array_equal(np.asarray(state.information_state_tensor(p)), vec)
        assert '"history"' in state.information_state_string(p)
        assert '"history"' not in state.observation_string(p) and '"hands"' in state.observation_string(p)
    assert game.observation_tensor_shape() == [enc.size]


def test_openspiel_ismcts_plays_our_greedy_bot_through_the_openspiel_state():
    """OpenSpiel's Python IS-MCTS (resampling with our determinizer) against bots/greedy.py, which decides
    from its bot-API observation; a whole legal game, zero-sum returns."""
    game = aos.load("alhambra", 2, deals=100)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)), uct_c=2.0,
                           max_simulations=4, random_state=np.random.RandomState(2))
    greedy = GREEDY()
    greedy.setup({"seat": 1, "num_players": 2, "seed": 5})
    state = game.new_initial_state()
    state.apply_action(11)
    searched = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
            searched += 1
        else:
            action = game.cfg.actions.index(greedy.act(Observation(state.engine.observation(1))))
        assert action in state.legal_actions()
        state.apply_action(int(action))
    assert searched > 20 and sum(state.returns()) == 0 and max(state.returns()) == 1.0


@pytest.mark.slow
@pytest.mark.compute
def test_openspiel_ismcts_beats_random_play():
    """A sanity check of the whole loop: OpenSpiel's IS-MCTS at 30 simulations a move wins most of 12 games
    against uniformly random moves (both seats). Its search is not reproducible across processes (OpenSpiel's
    own iteration orders), so the bar has room: it won 21 of 24 in four runs of 6 (4-6 each, and one tie); at
    that rate 12 games fall below 7 wins in under 1% of runs."""
    game = aos.load("alhambra", 2, deals=1000)
    wins = 0.0
    for g in range(12):
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(g)), uct_c=2.0,
                               max_simulations=30, random_state=np.random.RandomState(g))
        rng = random.Random(g)
        state = game.new_initial_state()
        state.apply_action(g // 2)
        seat = g % 2
        while not state.is_terminal():
            if state.current_player() == seat:
                state.apply_action(int(bot.step(state)))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        wins += state.returns()[seat] > 0
    assert wins >= 7


def test_docstring_examples():
    import doctest

    assert doctest.testmod(aos).failed == 0


def test_a_game_loaded_with_several_modules_pickles():
    """load() joins the modules with '+': with ',' the game's string could not be parsed back."""
    import pickle

    game = aos.load("alhambra", 3, {"camps": True, "vizier": True}, deals=10)
    state = walk(game.new_initial_state(), 30, seed=2)
    again = pickle.loads(pickle.dumps(state))
    assert again.get_game().cfg.options == {"vizier": True, "camps": True}
    assert again.information_state_string(0) == state.information_state_string(0)
