"""The dice games' MCTS (alhambra_ai/games/dice/mcts.py through bots/mcts.py): legal in every phase,
within its time, deterministic with ``iterations``, and clearly stronger than random."""

import random
import time

import pytest

from alhambra_ai import Observation, new_game
from alhambra_ai.botapi import load_bot
from alhambra_ai.games.dice.mcts import Search


def positions(game, seed, limit=400):
    """Decisions (more than one legal action) along a random 2-player game."""
    rng = random.Random(seed)
    s = new_game(2, seed, game=game)
    out = []
    while not s.is_terminal() and len(out) < limit:
        if len(s.legal_actions()) > 1:
            out.append(s.clone())
        s.apply(rng.choice(s.legal_actions()))
    return out


def bot(seat, seed=0, **config):
    b = load_bot("bots/mcts.py")()
    b.setup(dict(seat=seat, num_players=2, options={"dirk": True}, seed=seed, **config))
    return b


@pytest.mark.parametrize("game", ["dice", "alcazaba"])
def test_mcts_plays_legal_actions_in_every_phase(game):
    seen = set()
    per_phase = {}
    for s in positions(game, 5):
        if per_phase.get(s.phase, 0) >= 3:        # a few positions of every phase keep the test quick
            continue
        per_phase[s.phase] = per_phase.get(s.phase, 0) + 1
        seat = s.current_player
        a = bot(seat, iterations=25).act(Observation(s.observation(seat)))
        assert s.is_legal(a), (s.phase, a)
        seen.add(s.phase)
    assert "after_roll" in seen and seen & {"reward", "pick", "place", "name"}   # (a roll is forced)


@pytest.mark.parametrize("game", ["dice", "alcazaba"])
def test_mcts_keeps_to_its_move_time(game):
    move_time = 0.05
    for s in positions(game, 7)[:40:4]:
        seat = s.current_player
        obs = s.observation(seat)
        obs["move_time"] = move_time
        b = bot(seat, move_time=move_time)
        t = time.process_time()
        a = b.act(Observation(obs))
        assert time.process_time() - t <= move_time * 1.1
        assert s.is_legal(a)


@pytest.mark.parametrize("game", ["dice", "alcazaba"])
def test_mcts_is_deterministic_with_iterations(game):
    for s in positions(game, 9)[:30:3]:
        seat = s.current_player
        obs = s.observation(seat)
        first = bot(seat, seed=4, iterations=60).act(Observation(obs))
        assert bot(seat, seed=4, iterations=60).act(Observation(obs)) == first


def test_the_tree_samples_roll_outcomes_as_chance_children():
    s = new_game(2, 3, game="dice")
    s.apply("roll")
    tree = Search(s.observation(s.current_player), seed=1)
    for _ in range(200):
        tree.iterate()
    outcomes = [k for node in tree.root.children.values() for k in node.children if isinstance(k, tuple)]
    assert outcomes and all(isinstance(k[1], tuple) for k in outcomes)
    assert tree.root.n == 200


@pytest.mark.parametrize("game, first", [("dice", True), ("alcazaba", False)])
def test_mcts_beats_random(game, first):
    s = new_game(2, 20, game=game)
    names = ["mcts", "random"] if first else ["random", "mcts"]
    bots = []
    for seat, name in enumerate(names):
        b = load_bot(f"bots/{name}.py")()
        b.setup(dict(seat=seat, num_players=2, options={"dirk": True}, seed=seat, iterations=20))
        bots.append(b)
    while not s.is_terminal():
        seat = s.current_player
        s.apply(bots[seat].act(Observation(s.observation(seat))))
    me = names.index("mcts")
    sc = s.scores()
    assert sc[me] - sc[1 - me] > 20
