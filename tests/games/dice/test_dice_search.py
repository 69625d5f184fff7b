"""The dice games' expectimax (alhambra_ai/games/dice/expectimax.py) and its value (games/dice/value.py):
exact chance, public information only, determinism, sound preferences."""

import itertools
import random

import pytest

from alhambra_ai import Observation, new_game
from alhambra_ai.bot.api import load_bot
from alhambra_ai.games.dice.expectimax import Turn, choose
from alhambra_ai.games.dice.value import Value, value_of


def positions(game, seed, phase=None, limit=40):
    """States along a random 2-player game (every phase, or only ``phase``)."""
    rng = random.Random(seed)
    s = new_game(2, seed, game=game)
    out = []
    while not s.is_terminal() and len(out) < limit:
        if phase is None or s.phase == phase:
            out.append(s.clone())
        s.apply(rng.choice(s.legal_actions()))
    return out


def test_reroll_value_is_the_exact_expectation_over_ordered_outcomes():
    """The value of a re-roll of 3 dice from chance_outcomes (56 multisets) equals the plain average over all
    216 ordered outcomes applied to the state."""
    s = positions("dice", 3, "after_roll")[0]
    turn = Turn(s, Value(s, s.current_player))
    action = s.parse_action("reroll 1 2 3")
    brute = 0.0
    for faces in itertools.product(range(6), repeat=3):
        c = s.clone()
        c.apply(action, outcome=list(faces))
        dice, black = c.dice()
        counts = [dice.count(t) + (black == t) for t in range(6)]
        brute += turn.after(tuple(counts), c.rolls) / 216
    assert turn.reroll_value(action) == pytest.approx(brute, abs=1e-9)


@pytest.mark.parametrize("game", ["dice", "alcazaba"])
def test_value_and_choice_read_public_facts_only(game):
    """The value is a function of the seat's observation: equal on the true state and on determinizations
    with other hidden parts; so is the choice after a roll (no sampled future enters it)."""
    checked = 0
    for s in positions(game, 8, limit=60):
        seat = s.current_player
        truth = value_of(s, seat).total()
        for k in (1, 2):
            d = s.determinized(seat, k)
            assert value_of(d, seat).total() == pytest.approx(truth, abs=1e-9)
        if s.phase == "after_roll":
            assert choose(s) == choose(s.determinized(seat, 5))
            checked += 1
    assert checked >= 5


def test_a_higher_field_is_worth_at_least_a_lower_one_and_points_help_their_owner():
    s = positions("dice", 5, "after_roll")[0]
    seat = s.current_player
    v = Value(s, seat)
    turn = Turn(s, v)
    for t in range(6):
        vals = [turn.field_value(t, i) for i in range(24)]
        assert all(b >= a - 1e-9 for a, b in zip(vals[:-1], vals[1:], strict=True)), t
        assert v.gain(seat, t, 2) >= v.gain(seat, t, 1) >= 0
        assert v.gain(1 - seat, t, 1) <= 0


def test_eight_of_a_kind_on_an_empty_column_stops():
    s = new_game(2, 1, game="dice")
    s.apply("roll")
    free = next(t for t in range(6) if all(o is None for o in s.column(t)))
    c = s.clone()
    c.apply(s.parse_action("reroll 1 2 3 4 5 6 7 8"), outcome=[free] * 8)
    assert c.action_to_text(choose(c)).startswith("stop")


@pytest.mark.parametrize("game", ["dice", "alcazaba"])
def test_expectimax_bot_is_deterministic_with_a_seed(game):
    """With ``samples`` (strength --iterations) the bot has no deadline: a seed gives the same moves."""
    def run():
        s = new_game(2, 12, game=game)
        bots = []
        for seat in range(2):
            b = load_bot("bots/expectimax.py")()
            b.setup({"seat": seat, "num_players": 2, "seed": 40 + seat, "samples": 1})
            bots.append(b)
        for _ in range(50):
            s.apply(bots[s.current_player].act(Observation(s.observation(s.current_player))))
        return s.history

    assert run() == run()


@pytest.mark.parametrize("game,n", [("dice", 4), ("alcazaba", 3)])
def test_expectimax_plays_legal_moves_without_dirk(game, n):
    """With 3+ players there is no Dirk (no gift to him, no Dirk row in the value)."""
    s = new_game(n, 9, game=game)
    rng = random.Random(2)
    for _ in range(150):
        a = choose(s) if s.current_player == 0 else rng.choice(s.legal_actions())
        s.apply(a)                                   # an illegal action would raise
    assert s.round >= 2
