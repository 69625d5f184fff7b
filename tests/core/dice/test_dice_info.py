"""Chance nodes (exact roll distributions) and information (D25: observation, determinization, no leaks)."""

import itertools
import json
from collections import Counter
from fractions import Fraction

import pytest
from dicehelpers import GAR, PAV, TOW, rolled

from alhambra_ai import DiceState, Observation, determinize, new_game

# ---------------------------------------------------------------- chance outcomes


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_reroll_distribution_equals_brute_force_enumeration(k):
    s = new_game(3, seed=1, game="dice")
    rolled(s, [GAR] * 8)
    action = s.parse_action("reroll " + " ".join(str(i + 1) for i in range(k)))
    outs = s.chance_outcomes(action)
    brute = Counter(tuple(sorted(faces)) for faces in itertools.product(range(6), repeat=k))
    assert len(outs) == len(brute) == len(set(o for o, _ in outs))
    for outcome, p in outs:
        assert p == pytest.approx(float(Fraction(brute[outcome], 6 ** k)), rel=1e-12, abs=0)
    assert sum(p for _, p in outs) == pytest.approx(1.0, abs=1e-12)


def test_first_roll_distribution_by_die_by_die_enumeration():
    """All 8 dice: built one die at a time with exact fractions (independent of the multinomial formula)."""
    dist = {(): Fraction(1)}
    for _ in range(8):
        nxt = Counter()
        for faces, p in dist.items():
            for f in range(6):
                nxt[tuple(sorted(faces + (f,)))] += p / 6
        dist = nxt
    s = new_game(4, seed=2, game="alcazaba")
    outs = s.chance_outcomes("roll")
    assert len(outs) == len(dist) == 1287
    for outcome, p in outs:
        assert p == pytest.approx(float(dist[outcome]), rel=1e-12, abs=0)


def test_apply_with_an_outcome_sets_the_rolled_dice_in_position_order():
    s = new_game(3, seed=1, game="dice")
    rolled(s, [GAR] * 8)
    s.apply("reroll 2 5 7", outcome=(PAV, TOW, TOW))
    assert s.dice()[0] == [GAR, PAV, GAR, GAR, TOW, GAR, TOW, GAR] and s.rolls == 2
    assert s.chance_outcomes("stop garden") == [(None, 1.0)]
    with pytest.raises(ValueError, match="3 faces"):
        s.clone().apply("reroll 1 2 3", outcome=(1, 2))
    with pytest.raises(ValueError, match="only for a roll"):
        s.clone().apply("stop garden", outcome=(1,))


def test_rng_rolls_follow_the_distribution_roughly():
    """A chi-square sanity check of the game's own rolls (the rng is the only chance)."""
    counts = Counter()
    for seed in range(300):
        s = new_game(2, seed=seed, game="dice")
        s.apply("roll")
        counts.update(s.dice()[0])
    expected = 300 * 8 / 6
    chi2 = sum((counts[f] - expected) ** 2 / expected for f in range(6))
    assert chi2 < 20.5            # 5 degrees of freedom, p ~ 0.001


# ---------------------------------------------------------------- observation and determinization


def random_positions(game, n, seed, every=17):
    s = new_game(n, seed, game=game)
    k = 0
    while not s.is_terminal():
        if k % every == 0:
            yield s
        acts = s.legal_actions()
        s.apply(acts[(k * 31 + seed) % len(acts)])
        k += 1
    yield s


@pytest.mark.parametrize("game", ["dice", "alcazaba"])
@pytest.mark.parametrize("n", [2, 3, 5])
def test_determinized_state_has_the_same_observation(game, n):
    for s in random_positions(game, n, seed=n):
        for seat in range(n):
            obs = s.observation(seat)
            json.dumps(obs)
            d = s.determinized(seat, seed=7)
            assert d.observation(seat) == obs
            assert determinize(Observation(obs), 3).observation(seat) == obs
            if seat != s.current_player:
                assert obs["legal_actions"] == []
            else:
                assert obs["legal_actions"] == s.legal_actions() and d.legal_actions() == s.legal_actions()


def test_hidden_parts_are_resampled_and_the_revealed_kept_dice():
    s = new_game(3, seed=4, game="dice")
    seen = set()
    for seed in range(30):
        d = s.determinized(0, seed)
        h = d._hidden()
        assert Counter(h["stacks"]) == Counter(s._hidden()["stacks"])       # composition is public
        assert Counter(h["dark"]) == Counter(s._hidden()["dark"])
        seen.add((tuple(h["stacks"][5:]), tuple(h["dark"])))
        d.random_playout(seed)                                             # a playable full state
        assert d.is_terminal()
    assert len(seen) > 20


def test_hidden_parts_are_resampled_alcazaba():
    s = new_game(2, seed=4, game="alcazaba")
    truth = s._hidden()
    seen = set()
    for seed in range(20):
        d = s.determinized(1, seed)
        h = d._hidden()
        assert len(h["bag"]) == len(truth["bag"]) == 20 and 71 in h["bag"]
        # the unseen tiles (later stacks + bag) are the same set, dealt anew
        assert sorted([t for st in h["stacks"][1:] for t in st] + h["bag"]) == \
            sorted([t for st in truth["stacks"][1:] for t in st] + truth["bag"])
        seen.add(tuple(h["bag"]))
        d.random_playout(seed)
        assert d.is_terminal()
    assert len(seen) == 20


def test_stacks_hold_one_tile_per_type_after_determinization():
    from alhambra_ai import tile_info
    s = new_game(3, seed=9, game="alcazaba")
    for _ in range(40):
        s.apply(s.legal_actions()[-1])
    d = s.determinized(2, 5)
    for st in d._hidden()["stacks"][d.round:]:
        assert sorted(tile_info(t)[0] for t in st) == sorted(
            ["pavilion", "seraglio", "arcades", "chambers", "garden", "tower"])


def test_observation_does_not_depend_on_hidden_parts():
    """Two games that share every public fact but differ in the hidden stacks give equal observations."""
    for game in ("dice", "alcazaba"):
        s = new_game(3, seed=12, game=game)
        a, b = s.determinized(0, 1), s.determinized(0, 2)
        assert a._hidden() != b._hidden()
        for x in (a, b):
            x.apply("roll", outcome=(0, 0, 1, 1, 2, 2, 3, 3))
        assert a.observation(1) == b.observation(1)


def test_bad_observations_raise_value_error():
    s = new_game(3, seed=12, game="dice")
    obs = s.observation(0)
    for key, value in (("round", "x"), ("dice", None), ("columns", [[]]), ("bonus_unrevealed", [9] * 8)):
        with pytest.raises(ValueError, match="not a dice-game observation"):
            DiceState.from_observation(dict(obs, **{key: value}))
