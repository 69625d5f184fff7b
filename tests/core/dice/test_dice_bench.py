"""The dice games' random games as ``alhambra-ai bench`` plays them: the draw without the list
(dice_sample_legal: re-rolls counted and found from their index, Alcazaba's rebuilds from cached city views)
is the listed draw, the same games for the same seeds."""

import pytest

from alhambra_ai import _core


@pytest.mark.compute
@pytest.mark.parametrize("game", ["dice", "alcazaba"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_sampled_draw_is_the_listed_draw(game, players):
    # every decision of 15 random games: the same action and the same use of the rng as buf[rng_below(n)]
    assert _core._dice_sample_check(game, players, 15, 1000 * players) > 15 * 150


@pytest.mark.compute
@pytest.mark.parametrize("game", ["dice", "alcazaba"])
def test_bench_games_are_the_random_playouts(game):
    # the bench kernel and DiceState.random_playout play one game alike (setup and choices from one seed)
    for players in range(2, 7):
        for seed in range(3):
            state = _core.new_dice_game(players, seed, game)
            assert _core._bench_dice_games(game, players, 1, seed) == state.random_playout(seed)
            assert state.is_terminal()
