"""Helpers for the dice-game tests: positions made by editing an observation (DiceState.from_observation)."""

import copy

import pytest

from alhambra_ai import DiceState, new_game
from alhambra_ai.formats.record import make_record

PAV, SER, ARC, CHA, GAR, TOW = range(6)
SEAT1 = {"current_player": 1, "start_player": 1, "round_start": 1}   # seat index 1 starts and is to act
BONUS = ("points1", "points2", "points3", "void", "convert", "black", "push", "start")


def v_of(count, rolls):
    """Field rank v of rules.md §dice-4.4 (an independent formula, not the core's)."""
    return 3 * (min(count, 8) - 1) + (4 - (1 if count >= 9 else rolls))


def position(n=3, seed=1, game="dice", held=None, **edits):
    """A position from a new game's observation with fields replaced (``held``: {row: {"void": 1, ...}};
    row = seat index or len(seats) for Dirk)."""
    s = new_game(n, seed, game=game)
    obs = copy.deepcopy(s.observation(0))
    for k, v in edits.items():
        assert k in obs, k
        obs[k] = v
    for row, tiles in (held or {}).items():
        for name, cnt in tiles.items():
            obs["bonus_tiles"][row][BONUS.index(name)] = cnt
    return DiceState.from_observation(obs, seed=seed)


def empty_columns():
    return [[None] * 24 for _ in range(6)]


def rolled(s, faces, black=None):
    """The seat to act makes roll 1 with exactly these 8 faces."""
    s.apply("roll", outcome=tuple(faces))
    assert s.dice()[0] == list(faces)
    return s


def texts(s):
    return [s.action_to_text(a) for a in s.legal_actions()]


def unchanged(s, action, match):
    from alhambra_ai import IllegalActionError
    before = s._fingerprint(), s.history
    with pytest.raises(IllegalActionError, match=match):
        s.apply(action)
    assert (s._fingerprint(), s.history) == before


def random_record(game, players=2, seed=3):
    """The record of a random game of ``game`` (dice or alcazaba), seats named bot1, bot2, ..."""
    import random

    state, rng = new_game(players, seed, game=game), random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return make_record(state, [f"bot{k + 1}" for k in range(players)])
