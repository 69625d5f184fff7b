"""Action codes and text forms (docs/design.md "Actions"), and the generator against the City API."""

import random

import pytest

from alhambra_ai import IllegalActionError, State, new_game, tile_info
from alhambra_ai._core import _rng_below


def random_states(count, seed, players=(2, 3, 4, 5, 6)):
    """States along random games (every 7th position), deterministic."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = new_game(rng.choice(players), rng.randrange(10 ** 6))
        s.record_history = False
        step = 0
        while not s.is_terminal() and len(out) < count:
            if step % 7 == 3:
                out.append(s.clone())
            s.apply(rng.choice(s.legal_actions()))
            step += 1
    return out


STATES = random_states(300, 1)


def test_code_layout():
    s = State.from_setup(3, seed=1, market=[6, 13, 23, 51], display=["y3", "b2", "g6", "o1"],
                         hands=[["g4", "g3", "g3"], [], []], reserves=[[17], [], []],
                         cities=["0,0:0 1,-2:7 1,-1:14 1,0:22", None, None])
    assert s.parse_action("take y3 b2") == 1 | (0b0011 << 4)
    assert s.parse_action("buy 2 g4 g3 g3") == 2 | (1 << 4) | ((1 << 2 * 3) | (2 << 2 * 2)) << 6
    assert s.parse_action("place 17 1,-2") == 3 | (17 << 4) | (129 << 12) | (126 << 20)
    assert s.parse_action("place 17 reserve") == 4 | (17 << 4)
    assert s.parse_action("place 17 dirk") == 5 | (17 << 4)
    assert s.parse_action("build 17 -1,0") == 6 | (17 << 4) | (127 << 12) | (128 << 20)
    assert s.parse_action("remove 1,-2") == 7 | (7 << 4) | (129 << 12) | (126 << 20)
    assert s.parse_action("swap 17 1,0") == 8 | (17 << 4) | (129 << 12) | (128 << 20)
    assert s.parse_action("pass") == 9
    assert s.action_to_text(2 | (1 << 4) | ((1 << 2 * 3) | (2 << 2 * 2)) << 6) == "buy 2 g4 g3 g3"
    assert s.action_to_text(1 | (0b0101 << 4)) == "take y3 g6"
    assert s.action_to_text(1 | (0b0110 << 4)) == "take g6 b2"     # by card code: g (1) before b (2)


@pytest.mark.parametrize("text, match", [
    ("", "empty"), ("jump", "unknown action"), ("take", "name the cards"), ("take q3", "not a money card"),
    ("buy", "slot"), ("buy 9 y1", "bad slot"), ("buy 1", "name the cards"), ("buy 1 g3", "sells for florin"),
    ("buy 1 y1 y1 y1 y1", "more than 3"), ("place 17", "tile and the cell"), ("place x 1,0", "bad tile"),
    ("place 99 1,0", "no tile 99"), ("place 17 1;0", "bad cell"), ("build 17 1,a", "bad cell"),
    ("remove 5,5", "empty"), ("remove", "name the cell"), ("pass now", "no arguments"),
    ("place 17 999,0", "out of range"),
])
def test_parse_errors_are_clear(text, match):
    s = new_game(3, 1)
    with pytest.raises(ValueError, match=match):
        s.parse_action(text)
    before = s._fingerprint()
    with pytest.raises(IllegalActionError, match=match):
        s.apply(text)
    assert s._fingerprint() == before


@pytest.mark.parametrize("bad", [-1, 2 ** 31, 0, 10, 15, 1 | (1 << 8), 9 | (1 << 4), 4 | (7 << 4) | (1 << 12),
                                 3.0, None, [1], True])
def test_bad_codes_are_refused_cleanly(bad):
    s = new_game(4, 2)
    before = s._fingerprint(), s.history
    with pytest.raises(IllegalActionError):
        s.apply(bad)
    assert (s._fingerprint(), s.history) == before
    assert not s.is_legal(bad)


def test_text_round_trip_and_legality_over_random_states():
    for s in STATES:
        legal = s.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        for a in legal:
            text = s.action_to_text(a)
            assert s.parse_action(text) == a, text
            assert s.is_legal(a) and s.is_legal(text)


def test_generator_agrees_with_the_city_api():
    for s in STATES:
        if s.phase == "over":
            continue
        seat = s.current_player
        city = s.city(seat)
        legal = set(s.legal_actions())
        got = {}
        for a in legal:
            got.setdefault(a & 15, set()).add(a)
        if s.phase == "action":
            reserve = s.reserve(seat)
            want_build = {s.parse_action(f"build {t} {x},{y}") for t in reserve
                          for x, y in city.placements(t)}
            want_swap = {s.parse_action(f"swap {t} {x},{y}") for t in reserve for x, y in city.swaps(t)}
            want_remove = {s.parse_action(f"remove {x},{y}") for x, y in city.removals()}
            assert got.get(6, set()) == want_build
            assert got.get(8, set()) == want_swap
            assert got.get(7, set()) == want_remove
        else:
            want = {s.parse_action(f"place {t} {x},{y}") for t in s.pending() for x, y in city.placements(t)}
            assert got.get(3, set()) == want
            assert got.get(4, set()) == {s.parse_action(f"place {t} reserve") for t in s.pending()}


def test_buy_lists_exactly_the_minimal_payments():
    for s in STATES:
        if s.phase != "action":
            continue
        seat = s.current_player
        listed = {a for a in s.legal_actions() if a & 15 == 2}
        hand = s.hand(seat)
        for slot, tile in enumerate(s.market()):
            if tile is None:
                continue                            # bought earlier this turn: not refilled yet
            cost = tile_info(tile)[1]
            values = sorted((int(c[1]) for c in hand if c[0] == "ygbo"[slot]), reverse=True)
            # brute force over sub-multisets (by counts per value)
            counts = {v: values.count(v) for v in set(values)}
            subsets = [{}]
            for v, k in counts.items():
                subsets = [dict(sub, **{str(v): j}) for sub in subsets for j in range(k + 1)]
            for sub in subsets:
                pay = [int(v) for v, j in sub.items() for _ in range(j)]
                if not pay or sum(pay) < cost:
                    continue
                text = f"buy {slot + 1} " + " ".join(f"{'ygbo'[slot]}{v}" for v in sorted(pay, reverse=True))
                code = s.parse_action(text)
                assert s.is_legal(code)                       # every payment >= cost is accepted
                minimal = sum(pay) - min(pay) < cost
                assert (code in listed) == minimal, text


def test_sampling_matches_the_list():
    for i, s in enumerate(STATES):
        legal = s.legal_actions()
        if not legal:
            continue
        assert s._sample_legal(i) == legal[_rng_below(i, len(legal))]


def test_take_generation_one_per_multiset():
    for s in STATES:
        if s.phase != "action":
            continue
        takes = [a for a in s.legal_actions() if a & 15 == 1]
        texts = [s.action_to_text(a) for a in takes]
        assert len(set(texts)) == len(texts)
        # every legal position mask has its multiset listed
        disp = s.display()
        for m in range(1, 16):
            if any(m >> i & 1 and disp[i] is None for i in range(4)):
                continue
            code = 1 | (m << 4)
            if s.is_legal(code):
                assert s.action_to_text(code) in texts


def test_incremental_views_match_fresh_ones_along_games():
    from alhambra_ai._core import _check_views
    total = 0
    for seed in range(12):
        s = new_game(2 + seed % 5, 500 + seed)
        total += _check_views(s, seed)
    assert total > 2000
