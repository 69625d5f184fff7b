"""rules.md §8: an observation shows exactly what its seat may know; card counting recovers every hand."""

import json

import pytest
from infohelpers import dumps, hidden_variant, random_game, sampled_positions

from alhambra_ai import PositionError, State, count_cards, new_game, state_to_json
from alhambra_ai._core import parse_card

FIELDS = {
    "seat", "num_players", "options", "phase", "current_player", "turn", "actions_this_turn", "start_player",
    "scoring_rounds_done", "hand", "hand_sizes", "cities", "reserves", "market", "display", "discard",
    "pending", "dirk_tiles", "scores", "dirk_score", "score_breakdown", "draw_pile_size", "bag_size",
    "scoring_cards", "final", "history", "events", "legal_actions", "modules",
}


def test_fields_and_public_table():
    s = new_game(4, seed=11)
    for seat in range(4):
        o = s.observation(seat)
        assert set(o) == FIELDS
        assert json.loads(json.dumps(o)) == o          # plain JSON: lists, ints, strings, None
        assert o["seat"] == seat and o["num_players"] == 4
        assert o["hand"] == s.hand(seat)
        assert o["hand_sizes"] == [s.hand_size(i) for i in range(4)]
        assert o["market"] == s.market() and o["display"] == s.display()
        assert o["cities"] == [[list(c) for c in s.city(i).cells()] for i in range(4)]
        assert o["draw_pile_size"] == s.draw_pile_size and o["bag_size"] == s.bag_size
        assert o["history"] == s.history
        assert o["dirk_tiles"] is None and o["dirk_score"] is None
        assert o["legal_actions"] == (s.legal_actions() if seat == s.current_player else [])


def test_no_hidden_information_in_the_observation():
    """Neither the seed nor another hand's contents appear anywhere (the draw-pile order cannot either:
    the independence test below proves it)."""
    s = new_game(3, seed=123456789)
    o = s.observation(0)
    text = dumps(o)
    assert "123456789" not in text
    assert "seed" not in o and "rng" not in o and "hands" not in o


def test_dirk_fields():
    s = new_game(2, seed=5)
    o = s.observation(1)
    assert o["dirk_tiles"] == s.dirk_tiles() and len(o["dirk_tiles"]) == 6
    assert o["dirk_score"] == 0
    assert o["options"] == {"dirk": True}


def test_bad_seat():
    s = new_game(3, seed=1)
    for bad in (3, -1, "0", None, True):
        with pytest.raises(ValueError, match="no seat"):
            s.observation(bad)


def test_scoring_card_ranges_hold_the_cards():
    """The public range of each undrawn scoring card contains its true place; the range follows the setup
    piles 2 and 4 and shrinks from the top as cards are drawn."""
    for n in (2, 3, 5):
        for s in sampled_positions(n, seed=40 + n, count=40):
            o = s.observation(0)
            pile = s._draw_pile()
            for sc in o["scoring_cards"]:
                code = f"s{sc['round']}"
                if sc["drawn"]:
                    assert sc["positions"] is None and code not in pile
                else:
                    lo, hi = sc["positions"]
                    assert lo <= pile.index(code) <= hi
                    assert sc["positions"] == list(s.scoring_card_range(sc["round"]))


def test_scoring_card_ranges_at_setup_are_the_piles():
    s = new_game(4, seed=3)
    money = s.draw_pile_size - 2
    base, extra = divmod(money, 5)
    sizes = [base + (k < extra) for k in range(5)]
    o = s.observation(2)
    assert o["scoring_cards"][0]["positions"] == [sizes[0], sizes[0] + sizes[1]]
    start4 = sizes[0] + sizes[1] + 1 + sizes[2]
    assert o["scoring_cards"][1]["positions"] == [start4, start4 + sizes[3]]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_hidden_information_independence(n):
    """Two states differing only in hidden order give byte-identical observations for every seat."""
    checked = 0
    for k, s in enumerate(sampled_positions(n, seed=100 + n, count=25)):
        v = hidden_variant(s, seed=k)
        assert state_to_json(v) != state_to_json(s)          # the variant really differs
        for seat in range(n):
            assert dumps(v.observation(seat)) == dumps(s.observation(seat))
            checked += 1
    assert checked >= 25 * n


def test_phases_covered_by_observations():
    phases = set()
    for n in (2, 4):
        for s in random_game(n, seed=7 + n):
            o = s.observation(max(s.current_player, 0))
            phases.add(o["phase"])
            if o["phase"] in ("final", "over"):
                assert o["final"] is not None and o["final"]["ender"] in range(n)
            else:
                assert o["final"] is None
    assert phases == {"action", "place", "final", "over"}


def test_over_observation():
    s = [x for x in random_game(3, seed=2)][-1]
    o = s.observation(1)
    assert o["phase"] == "over" and o["current_player"] == -1 and o["legal_actions"] == []
    assert o["scores"] == s.scores() and o["score_breakdown"] == s.score_breakdown()


# ---------------------------------------------------------------- card counting

@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_count_cards_is_every_hand(n):
    for s in sampled_positions(n, seed=200 + n, count=30):
        truth = [s.hand(i) for i in range(n)]
        for seat in range(n):
            assert count_cards(s.observation(seat)) == truth


def test_count_cards_from_setup_knows_only_what_the_history_shows():
    """A from_setup position has no public deal: only the cards taken since are known to the others."""
    s = State.from_setup(3, hands=[["y3", "b9"], ["g2", "g7"], ["o4"]], seed=1)
    assert count_cards(s.observation(0)) == [["y3", "b9"], [], []]
    taken = s.display()[0]
    s.apply("take " + taken)
    assert count_cards(s.observation(1)) == [[taken], ["g2", "g7"], []]
    assert count_cards(s.observation(0))[0] == s.hand(0)


def test_count_cards_payment_with_an_unknown_card():
    """A paid card known to be held leaves the known part; one not known came from the unknown part."""
    o = State.from_setup(3, seed=1).observation(2)
    y3, b2, y4, g1 = (parse_card(c) for c in ("y3", "b2", "y4", "g1"))
    o["events"] = [{"seat": None, "kind": "setup", "payload": None},
                   {"seat": 0, "kind": "action", "payload": 1 | 3 << 4, "gains": [y3, b2]},
                   {"seat": 0, "kind": "action", "payload": 2, "pays": [y3, y4]},
                   {"seat": 1, "kind": "action", "payload": 1 | 1 << 4, "gains": [g1]}]
    assert count_cards(o)[:2] == [["b2"], ["g1"]]


def test_count_cards_bad_input():
    with pytest.raises(PositionError, match="needs an observation"):
        count_cards({"seat": 0})
    o = new_game(3, seed=1).observation(0)
    o["events"] = o["events"] + [{"seat": 1, "kind": "action", "payload": 1 | 1 << 4, "gains": [99]}]
    with pytest.raises(PositionError, match="no card"):
        count_cards(o)
