"""rules.md §8 with the Thief and the Residents: a seat sees its own thieves and disc and only the public
rest; determinization deals the others' thieves and hidden figures anew, consistently with everything public
and uniformly over the consistent assignments (chi-square); no observation or determinization leaks a
secret."""

import itertools
import json
import math
import random
from collections import Counter

import pytest
from infohelpers import chi2_ok, dumps, hidden_variant, random_game, sampled_positions

from alhambra_ai import State, count_cards, determinize, state_from_json, state_to_json

TR = {"thief": True, "residents": True, "vizier": True}
ALL8 = {**TR, "camps": True, "bazaars": True, "falcons": True, "change": True, "walls": True}
TYPES = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")


def secrets_variant(state, seat, seed):
    """``state`` with every secret ``seat`` cannot see dealt anew by an independent sampler: the other seats'
    thieves and those out of the game; the other seats' hidden disc figures (distinct types, none gone)."""
    r = random.Random(seed)
    d = state_to_json(state)
    m = d["modules"]
    n = d["num_players"]
    others = [p for p in range(n) if p != seat]
    if m.get("thief_hands") is not None:
        pool = [c for p in others for c in m["thief_hands"][p]] + m["thieves_out"]
        r.shuffle(pool)
        for p in others:
            k = len(m["thief_hands"][p])
            m["thief_hands"][p], pool = sorted(pool[:k], key="ygbo".index), pool[k:]
        m["thieves_out"] = sorted(pool, key="ygbo".index)
    if m.get("discs") is not None:
        seen = {p: Counter(m["discs"][p]["seen"]) for p in others}
        pool = [t for p in others for t in (Counter(m["disc_figures"][p]) - seen[p]).elements()]
        while True:
            r.shuffle(pool)
            deal, rest, ok = {}, list(pool), True
            for p in others:
                k = m["discs"][p]["hidden"]
                deal[p], rest = rest[:k], rest[k:]
                ok = ok and len(set(deal[p])) == k and not set(deal[p]) & set(m["discs"][p]["gone"])
            if ok:
                break
        for p in others:
            m["disc_figures"][p] = sorted(list(seen[p].elements()) + deal[p], key=TYPES.index)
    return state_from_json(d)


@pytest.mark.parametrize("n, seed, options", [(2, 3, TR), (3, 4, TR), (5, 5, TR), (6, 6, TR), (4, 7, ALL8)])
def test_no_leak_of_thieves_or_discs(n, seed, options):
    phases = set()
    special = {}
    for s in random_game(n, seed, options=options):
        if s.phase in ("interrupt", "resident", "disc") and len(special.setdefault(s.phase, [])) < 2:
            special[s.phase].append(s.clone())
    special = [s for group in special.values() for s in group]
    for s in sampled_positions(n, seed, 10, options=options) + special:
        phases.add(s.phase)
        twin = hidden_variant(s, seed)
        for seat in range(n):
            obs = s.observation(seat)
            m = obs["modules"]
            assert m["thieves"] == s.thieves(seat) and m["disc"] == s.disc(seat)
            assert not {"thief_hands", "thieves_out", "disc_figures"} & set(m)
            other = secrets_variant(s, seat, seed + seat)
            assert dumps(other.observation(seat)) == dumps(obs)          # the secrets never show
            assert dumps(twin.observation(seat)) == dumps(obs)
            for d in (s.determinized(seat, 7), determinize(json.loads(dumps(obs)), 8)):
                assert dumps(d.observation(seat)) == dumps(obs)
                state_from_json(state_to_json(d))                        # consistent with everything public
            a, b = s.determinized(seat, 9), other.determinized(seat, 9)
            for p in range(n):     # a pure function of what the seat sees and the seed
                assert (a.thieves(p), a.disc(p)) == (b.thieves(p), b.disc(p))
            assert count_cards(obs) == [s.hand(i) for i in range(n)]
        d = state_to_json(s)
        assert state_to_json(state_from_json(json.loads(json.dumps(d)))) == d
    assert {"interrupt", "resident", "disc"} <= phases


def _same_play(a, b, seed, steps=60):
    """Play the same random actions on a and b; they must offer the same actions to the same seat throughout.
    Returns how many thief plays were on offer."""
    r, thieves = random.Random(seed), 0
    for _ in range(steps):
        if a.is_terminal():
            break
        legal = a.legal_actions()
        assert (a.phase, a.current_player, legal) == (b.phase, b.current_player, b.legal_actions())
        thieves += sum(a.action_to_text(x).startswith("thief") for x in legal)
        x = r.choice(legal)
        a.apply(x)
        b.apply(x)
    return thieves


def test_loaded_and_determinized_states_ask_the_same_thief_holders():
    """The window asks the seats holding thieves from a set kept beside the hands (thief_holders): a position
    loaded from JSON, and a determinization, must set it as their hands say. Played on, each offers the
    same actions as its JSON twin (whose set is counted afresh from the hands)."""
    thieves = 0
    for k, s in enumerate(sampled_positions(4, 11, 12, ALL8)):
        thieves += _same_play(s.clone(), state_from_json(state_to_json(s)), k)
        d = s.determinized(k % 4, k)
        thieves += _same_play(d, state_from_json(state_to_json(d)), k)
    assert thieves > 0                      # (the windows offered thieves: the set was read)


def test_determinization_varies_the_secrets_it_may():
    s = State.from_setup(4, seed=2, options={"thief": True, "residents": True})
    hands, discs = set(), set()
    for k in range(200):
        d = s.determinized(0, k)
        assert d.thieves(0) == s.thieves(0) and d.disc(0) == s.disc(0)
        hands.add(tuple(d.thieves(1)))
        discs.add(tuple(d.disc(2)))
    assert len(hands) > 5 and len(discs) > 1


def hypergeometric(pool, k):
    """Probability of every hand of k cards drawn from the multiset ``pool`` (Counter)."""
    kinds = sorted(pool)
    total = math.comb(sum(pool.values()), k)
    out = {}
    for counts in itertools.product(*(range(min(pool[c], k) + 1) for c in kinds)):
        if sum(counts) == k:
            out[counts] = math.prod(math.comb(pool[c], h) for c, h in zip(kinds, counts, strict=True)) / total
    return kinds, out


def test_thief_hands_are_uniform_over_the_deals():
    """4 players: seat 0 holds 3 thieves; seat 1's 3 are a uniform deal of the 9 unseen (6 dealt, 3 out)."""
    s = State.from_setup(4, seed=5, options={"thief": True}, thieves=[["y", "y", "g"], None, None, None])
    obs = s.observation(0)
    pool = Counter({"y": 1, "g": 2, "b": 3, "o": 3})
    kinds, probs = hypergeometric(pool, 3)
    n = 4000
    got = Counter()
    for k in range(n):
        h = Counter(determinize(obs, k).thieves(1))
        got[tuple(h[c] for c in kinds)] += 1
    assert set(got) <= set(probs)
    keys = sorted(probs)
    ok, stat, crit = chi2_ok([got[c] for c in keys], [n * probs[c] for c in keys])
    assert ok, (stat, crit)


def test_hidden_figures_are_uniform_over_the_consistent_assignments():
    """Seats 1-3 hide pav+ser+arc, pav+ser+cha, pav+gar+tow: seat 0 sees only the pool; each of the 36 ways to
    give every seat 3 distinct types from it is equally likely."""
    discs = [["arcades", "garden", "tower"], ["pavilion", "seraglio", "arcades"],
             ["pavilion", "seraglio", "chambers"], ["pavilion", "garden", "tower"]]
    s = State.from_setup(4, seed=6, options={"residents": True}, discs=discs)
    obs = s.observation(0)
    pool = Counter(t for d in discs[1:] for t in d)
    combos = list(itertools.combinations(TYPES, 3))
    consistent = [a for a in itertools.product(combos, repeat=3)
                  if Counter(t for c in a for t in c) == pool]
    assert len(consistent) == 36
    n = 36 * 120
    got = Counter()
    for k in range(n):
        d = determinize(obs, k)
        got[tuple(tuple(sorted(d.disc(p), key=TYPES.index)) for p in (1, 2, 3))] += 1
    assert set(got) <= set(consistent)
    ok, stat, crit = chi2_ok([got[a] for a in consistent], [n / 36] * 36)
    assert ok, (stat, crit)


def test_positions_refuse_inconsistent_secrets():
    from alhambra_ai import PositionError, new_game

    d = state_to_json(new_game(3, 1, TR))
    bad = json.loads(json.dumps(d))
    bad["modules"]["thieves_out"] = ["y"] * 3
    with pytest.raises(PositionError, match="thief cards of florin"):
        state_from_json(bad)
    bad = json.loads(json.dumps(d))
    bad["modules"]["disc_figures"][0] = ["tower", "tower", "tower"]
    with pytest.raises(PositionError, match="do not fit"):
        state_from_json(bad)
    bad = json.loads(json.dumps(d))
    del bad["modules"]["supply"]
    with pytest.raises(PositionError, match="supply must be given"):
        state_from_json(bad)


def test_observations_refuse_a_resident_on_no_building():
    """determinize (position_from_observation) reads the residents' tile types from a C table: only buildings
    get there."""
    from alhambra_ai import PositionError, new_game

    s = new_game(3, 1, TR)
    while s.observation(0)["modules"]["setup_left"]:       # (past the setup: the figures are dealt)
        s.apply(s.legal_actions()[0])
    obs = s.observation(0)
    for tile in (0, 55, 63, 70, 99, -1, 10 ** 6, True, "x", None):
        bad = json.loads(json.dumps(obs))
        bad["modules"]["residents"][1] = [tile]
        with pytest.raises(PositionError, match=r"modules.residents\[1\]: .* is no building"):
            determinize(bad, 0)


def test_records_of_thief_and_residents_games_replay():
    from alhambra_ai import new_game
    from alhambra_ai.formats.record import make_record, replay

    s = new_game(4, 13, TR)
    s.random_playout(6)
    rec = make_record(s, ["a", "b", "c", "d"])
    assert any(a.startswith(("thief", "resident", "disc")) for a in rec["actions"])
    again = replay(json.loads(json.dumps(rec)))
    assert again.scores() == s.scores() and state_to_json(again) == state_to_json(s)


def test_setup_positions_round_trip_and_refuse_an_impossible_setup():
    from alhambra_ai import PositionError, new_game, state_from_json, state_to_json

    s = new_game(3, 4, {"residents": True})
    s.apply("figures garden seraglio tower")
    d = state_to_json(s)
    assert d["modules"]["setup_left"] == 3 and d["phase"] == "disc"
    assert state_to_json(state_from_json(d)) == d
    s.apply("disc 0,1")
    d = state_to_json(s)
    for key, value, why in (("setup_left", 1, "seat by seat"), ("setup_left", "x", "setup_left")):
        bad = json.loads(json.dumps(d))
        bad["modules"][key] = value
        with pytest.raises(PositionError, match=why):
            state_from_json(bad)
    bad = json.loads(json.dumps(d))
    bad["modules"]["disc_figures"][s.start_player] = []          # the first seat has not chosen?
    bad["modules"]["discs"][s.start_player]["hidden"] = 0
    with pytest.raises(PositionError, match="hold 3 hidden figures"):
        state_from_json(bad)
