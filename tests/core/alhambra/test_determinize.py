"""Determinization: full states consistent with an observation, hidden parts sampled uniformly."""

import random
from collections import Counter

import pytest
from infohelpers import chi2_ok, dumps, random_game, sampled_positions

from alhambra_ai import PositionError, State, count_cards, determinize, new_game, state_to_json


def check_consistent(d, s, seat, obs):
    """``d`` (a determinization for ``seat``) never contradicts ``obs`` = ``s.observation(seat)``."""
    assert dumps(d.observation(seat)) == dumps(obs)
    pile = d._draw_pile()
    assert Counter(pile) == Counter(s._draw_pile())             # base game: the unseen cards are the pile's
    assert sorted(d._bag()) == sorted(s._bag())
    for sc in obs["scoring_cards"]:
        if not sc["drawn"]:
            lo, hi = sc["positions"]
            assert lo <= pile.index(f"s{sc['round']}") <= hi
    assert [d.hand(i) for i in range(s.num_players)] == [s.hand(i) for i in range(s.num_players)]
    assert d.seed is None


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_fast_path_never_contradicts_the_observation(n):
    checked = 0
    for k, s in enumerate(sampled_positions(n, seed=300 + n, count=40)):
        for seat in range(n):
            obs = s.observation(seat)
            for seed in (k, 10 ** 6 + k):
                check_consistent(s.determinized(seat, seed), s, seat, obs)
                checked += 1
    assert checked >= 80 * n


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_observation_path_never_contradicts_the_observation(n):
    for k, s in enumerate(sampled_positions(n, seed=400 + n, count=25)):
        for seat in range(n):
            obs = s.observation(seat)
            check_consistent(determinize(obs, seed=k), s, seat, obs)


def test_every_phase():
    """Placement, the final distribution and the end: both paths, both seats, every such state of a game."""
    phases = Counter()
    for k, s in enumerate(random_game(2, seed=31)):
        if s.phase == "action" and k % 10:
            continue
        phases[s.phase] += 1
        for seat in range(2):
            obs = s.observation(seat)
            check_consistent(s.determinized(seat, k), s, seat, obs)
            check_consistent(determinize(obs, k), s, seat, obs)
    assert set(phases) == {"action", "place", "final", "over"}


@pytest.mark.slow
@pytest.mark.compute
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_thousands_of_positions(n):
    """Every state of several random games: both paths, every seat."""
    checked = 0
    for g in range(4):
        for k, s in enumerate(random_game(n, seed=1000 * n + g)):
            for seat in range(n):
                obs = s.observation(seat)
                check_consistent(s.determinized(seat, k), s, seat, obs)
                if seat == max(s.current_player, 0):
                    check_consistent(determinize(obs, k), s, seat, obs)
                checked += 1
    assert checked > 1000


def test_determinized_states_play_on_to_the_end():
    for n in (2, 4, 6):
        for k, s in enumerate(sampled_positions(n, seed=500 + n, count=4)):
            seat = max(s.current_player, 0)
            for d in (s.determinized(seat, k), determinize(s.observation(seat), k)):
                d.random_playout(seed=k)
                assert d.is_terminal()


def test_same_seed_same_state_other_seed_other_order():
    s = sampled_positions(4, seed=9, count=3)[1]
    a, b, c = s.determinized(2, 77), s.determinized(2, 77), s.determinized(2, 78)
    assert state_to_json(a) == state_to_json(b)
    assert a._draw_pile() != c._draw_pile() and a._bag() != c._bag()
    o = s.observation(2)
    assert state_to_json(determinize(o, 5)) == state_to_json(determinize(dict(o), 5))


def test_the_rng_and_seed_are_not_leaked():
    """The future reshuffles of a determinized state come from the determinization seed, not the game's."""
    s = new_game(3, seed=12)
    d = s.determinized(0, 1)
    assert state_to_json(d)["rng"] != state_to_json(s)["rng"]
    assert d.seed is None and s.seed == 12


def test_the_original_state_is_untouched():
    s = sampled_positions(3, seed=4, count=3)[1]
    before = state_to_json(s)
    s.determinized(1, 3)
    determinize(s.observation(1), 3)
    assert state_to_json(s) == before


# ---------------------------------------------------------------- uniformity (chi-square, fixed seeds)

def position_with_both_cards_undrawn():
    s = new_game(4, seed=21)
    r = random.Random(3)
    while s.draw_pile_size >= 75:      # draw some cards: both scoring cards are still undrawn
        s.apply(r.choice(s.legal_actions()))
    assert not any(sc["drawn"] for sc in s.observation(0)["scoring_cards"])
    return s


N_SAMPLES = 6000


def test_scoring_card_positions_are_uniform_in_their_ranges():
    s = position_with_both_cards_undrawn()
    o = s.observation(1)
    for sc in o["scoring_cards"]:
        lo, hi = sc["positions"]
        counts = Counter(s.determinized(1, seed)._draw_pile().index(f"s{sc['round']}")
                         for seed in range(N_SAMPLES))
        assert set(counts) <= set(range(lo, hi + 1))
        bins = [counts[i] for i in range(lo, hi + 1)]
        ok, stat, crit = chi2_ok(bins, [N_SAMPLES / len(bins)] * len(bins))
        assert ok, (sc, stat, crit)


def test_draw_order_and_bag_order_are_uniform():
    """The top money card follows the unseen multiset; the next tile of the bag is any bag tile equally."""
    s = position_with_both_cards_undrawn()
    o = s.observation(3)
    money = Counter(c for c in s._draw_pile() if c not in ("s1", "s2"))
    total = sum(money.values())
    top, nxt, first_pair = Counter(), Counter(), Counter()
    for seed in range(N_SAMPLES):
        d = determinize(o, seed)
        pile = [c for c in d._draw_pile() if c not in ("s1", "s2")]
        top[pile[0]] += 1
        first_pair[pile[0] == pile[-1]] += 1
        nxt[d._bag()[0]] += 1
    cards = sorted(money)
    ok, stat, crit = chi2_ok([top[c] for c in cards], [N_SAMPLES * money[c] / total for c in cards])
    assert ok, (stat, crit)
    tiles = sorted(s._bag())
    ok, stat, crit = chi2_ok([nxt[t] for t in tiles], [N_SAMPLES / len(tiles)] * len(tiles))
    assert ok, (stat, crit)
    # first and last money card equal: probability sum m(m-1) / (T(T-1))
    p_same = sum(m * (m - 1) for m in money.values()) / (total * (total - 1))
    ok, stat, crit = chi2_ok([first_pair[True], first_pair[False]],
                             [N_SAMPLES * p_same, N_SAMPLES * (1 - p_same)])
    assert ok, (stat, crit)


# ---------------------------------------------------------------- hands nobody saw (from_setup)

def setup_with_secret_hands():
    return State.from_setup(3, seed=8, hands=[["y3", "b9", "o1"], ["g2", "g7", "y5", "y6"], ["o4", "o4"]])


def test_unknown_hand_cards_are_resampled_from_the_unseen_pool():
    s = setup_with_secret_hands()
    o = s.observation(0)
    assert count_cards(o) == [["y3", "b9", "o1"], [], []]
    unseen = Counter(s._draw_pile()) + Counter(c for i in (1, 2) for c in s.hand(i))
    hands1 = set()
    for seed in range(200):
        for d in (s.determinized(0, seed), determinize(o, seed)):
            assert dumps(d.observation(0)) == dumps(o)
            assert d.hand(0) == s.hand(0)
            assert [d.hand_size(i) for i in range(3)] == [3, 4, 2]
            assert Counter(d._draw_pile()) + Counter(c for i in (1, 2) for c in d.hand(i)) == unseen
            state_to_json(d)            # a complete, consistent position
            hands1.add(tuple(d.hand(1)))
    assert len(hands1) > 100


def test_known_cards_of_other_hands_are_kept():
    s = setup_with_secret_hands()
    s.apply("take " + s.display()[0])          # seat 0 takes a card: now public
    s.apply(s.legal_actions()[0])              # seat 1 acts too
    o = s.observation(2)
    known = count_cards(o)
    for seed in range(50):
        d = determinize(o, seed)
        for i in range(3):
            assert not Counter(known[i]) - Counter(d.hand(i))
        assert d.hand(2) == s.hand(2)


def test_unknown_hand_cards_are_uniform():
    """Seat 1's 4 unknown cards are a uniform sample of the unseen pool: per card kind, the expected count."""
    s = setup_with_secret_hands()
    o = s.observation(0)
    pool = Counter(s._draw_pile()) + Counter(c for i in (1, 2) for c in s.hand(i))
    del pool["s1"], pool["s2"]
    total = sum(pool.values())
    got = Counter()
    n = 3000
    for seed in range(n):
        got.update(determinize(o, seed).hand(1))
    kinds = sorted(pool)
    ok, stat, crit = chi2_ok([got[c] for c in kinds], [4 * n * pool[c] / total for c in kinds])
    assert ok, (stat, crit)


# ---------------------------------------------------------------- bad input

def test_bad_observations():
    s = new_game(3, seed=2)
    o = s.observation(1)
    with pytest.raises(PositionError, match="observation is a dict"):
        determinize(42, 1)
    with pytest.raises(PositionError, match="has no 'bag_size'"):
        determinize({k: v for k, v in o.items() if k != "bag_size"}, 1)
    with pytest.raises(PositionError, match="tiles unseen, but bag_size"):
        determinize(dict(o, bag_size=o["bag_size"] + 1), 1)
    with pytest.raises(PositionError, match="hand_sizes"):
        determinize(dict(o, hand=o["hand"][1:]), 1)
    with pytest.raises(PositionError, match="legal_actions does not fit"):
        determinize(dict(o, legal_actions=[1]), 1)
    with pytest.raises(PositionError, match="no seat|seat must be"):
        determinize(dict(o, seat=5), 1)
    with pytest.raises(ValueError, match="seed"):
        determinize(o, 1.5)  # any int is a seed (reduced modulo 2**64); a float is not
    assert determinize(o, -1).observation(1) == o
    with pytest.raises(ValueError, match="no seat"):
        s.determinized(3, 1)


def test_a_mutated_observation_is_not_served_from_the_cache():
    o = new_game(3, seed=2).observation(1)
    determinize(o, 1)
    o["bag_size"] += 1
    with pytest.raises(PositionError, match="bag_size"):
        determinize(o, 1)
