"""Engine benchmarks (pytest-benchmark). Run: ``PYTHONPATH=. python -m pytest benchmarks/bench_engine.py``.

Figures: random games per player count (setup + uniform random play in C), legal-action generation and clone
on early / late 4-player states, apply (Python, checked, no history). The same figures as text:
``alhambra-ai bench``.
"""

import random

import pytest

from alhambra_ai import _core, new_game
from alhambra_ai.bench import sample_states

GAMES = 50


@pytest.fixture(scope="module")
def states():
    return sample_states(4, 100)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games(benchmark, players):
    """One round = GAMES complete random games; games/s = GAMES / mean."""
    benchmark.extra_info["games_per_round"] = GAMES
    actions = benchmark(_core._bench_games, players, GAMES, 1)
    benchmark.extra_info["actions_per_game"] = actions / GAMES
    assert actions > GAMES * 50


@pytest.mark.parametrize("phase", ["early", "late"])
def test_legal_actions(benchmark, states, phase):
    group = states[0] if phase == "early" else states[1]
    benchmark.extra_info["states_per_round"] = len(group)
    total = benchmark(_core._bench_generate, group, 1)
    assert total >= len(group)


@pytest.mark.parametrize("phase", ["early", "late"])
def test_clone(benchmark, states, phase):
    s = (states[0] if phase == "early" else states[1])[50]
    c = benchmark(s.clone)
    assert c._fingerprint() == s._fingerprint()


def test_apply_python(benchmark):
    s = new_game(4, 3)
    s.record_history = False
    rng = random.Random(3)
    codes = []
    while not s.is_terminal():
        codes.append(rng.choice(s.legal_actions()))
        s.apply(codes[-1])
    start = new_game(4, 3)
    start.record_history = False

    def replay():
        t = start.clone()
        for a in codes:
            t.apply(a)
        return t

    benchmark.extra_info["actions_per_round"] = len(codes)
    assert benchmark(replay).is_terminal()
