"""rules.md §3: take money, buy (exact payment -> another action), rebuild, pass, the end of a turn."""

import pytest
from gamehelpers import play, setup, texts

from alhambra_ai import IllegalActionError, State

# wall-less tiles: 7 pavilion 8, 14 seraglio 9, 22 arcades 9, 52 tower 11, 53 tower 12
MARKET = [7, 14, 22, 52]
MARKET2 = [6, 14, 22, 52]   # 6: pavilion 7 with an E wall


def unchanged(s, action, match):
    before = s._fingerprint(), s.history
    with pytest.raises(IllegalActionError, match=match):
        s.apply(action)
    assert (s._fingerprint(), s.history) == before


# ---------------------------------------------------------------- take

def test_take_one_card_or_several_up_to_five():
    s = State.from_setup(3, seed=1, market=MARKET, display=["y3", "y3", "b2", "g6"])
    assert sorted(texts(s)) == ["take b2", "take g6", "take y3", "take y3 b2"]
    # y3 + y3 = 6 > 5: illegal, and the state is unchanged
    unchanged(s, 1 | (0b0011 << 4), "add up to 6")
    unchanged(s, "take y3 g6", "add up to 9")
    unchanged(s, "take o9", "not .*in the display")
    s.apply("take g6")                      # one card of any value
    assert s.hand(0) == ["g6"] and s.current_player == 1 and s.turn == 1
    assert s.display()[:3] == ["y3", "y3", "b2"] and s.display()[3] is not None   # refilled at the turn's end


def test_take_any_position_mask_is_accepted():
    s = State.from_setup(3, seed=1, market=MARKET, display=["y3", "y3", "b2", "g6"])
    s.apply(1 | (0b0110 << 4))              # second y3 and b2: a legal, non-canonical mask
    assert s.hand(0) == ["y3", "b2"]
    assert s.display()[0] == "y3" and s.display()[3] == "g6"


def test_take_lists_one_action_per_multiset():
    s = State.from_setup(3, seed=1, market=MARKET, display=["y1", "y1", "y1", "b1"])
    assert sorted(texts(s)) == sorted(["take y1", "take b1", "take y1 y1", "take y1 b1", "take y1 y1 y1",
                                       "take y1 y1 b1", "take y1 y1 y1 b1"])
    assert len(s.legal_actions()) == 7


# ---------------------------------------------------------------- buy

def buy_state(**kw):
    return State.from_setup(3, seed=2, market=MARKET, display=["o1", "o2", "b7", "g8"],
                            hands=[["y9", "y5", "y3", "g9", "b4", "b4", "b1"], ["y8"], []], **kw)


def test_buy_lists_minimal_payments_only():
    s = buy_state()
    buys = sorted(t for t in texts(s) if t.startswith("buy"))
    # slot 1 costs 8: y9 alone or y5 y3 (y9 y5 would pay more while containing y9)
    # slot 2 costs 9: g9; slot 3 costs 9: b4 b4 b1; slot 4 (11 ducat): nothing
    assert buys == ["buy 1 y5 y3", "buy 1 y9", "buy 2 g9", "buy 3 b4 b4 b1"]


def test_overpayment_is_accepted_and_ends_the_actions():
    s = buy_state()
    s.apply("buy 1 y9 y5")
    assert s.phase == "place" and s.pending() == [7] and s.current_player == 0
    assert s.hand(0) == ["y3", "g9", "b1", "b4", "b4"] and sorted(s.discard()) == ["y5", "y9"]
    assert s.market()[0] is None


def test_exact_payment_gives_another_action_and_market_is_not_refilled():
    s = buy_state()
    bag_before = s.bag_size
    s.apply("buy 1 y5 y3")                  # 8 for a tile of cost 8: another action
    assert s.phase == "action" and s.current_player == 0 and s.actions_this_turn == 1
    assert s.market() == [None, 14, 22, 52] and s.bag_size == bag_before
    kinds = {t.split()[0] for t in texts(s)}
    assert kinds == {"take", "buy"}         # any action again (nothing to rebuild here)
    s.apply("buy 2 g9")                     # exact again
    assert s.phase == "action" and s.market() == [None, None, 22, 52]
    s.apply("take o2")                      # the third action ends the actions
    assert s.phase == "place" and sorted(s.pending()) == [7, 14]
    # the pending tiles are placed in any order, each to the city or the reserve
    s.apply("place 14 1,0")
    assert s.phase == "place" and s.pending() == [7]
    s.apply("place 7 reserve")
    assert s.phase == "action" and s.current_player == 1 and s.turn == 1
    assert s.market()[2:] == [22, 52] and None not in s.market() and s.bag_size == bag_before - 2
    assert s.city(0).tile_at(1, 0) == 14 and s.reserve(0) == [7]
    assert s.building_counts(0) == [0, 1, 0, 0, 0, 0]
    assert None not in s.display()
    h = s.history
    assert h[-8:] == ["seat 1: buy 1 y5 y3", "seat 1: buy 2 g9", "seat 1: take o2",
                      "seat 1: place 14 1,0", "seat 1: place 7 reserve", f"display: {s.display()[1]}",
                      f"market 1: {s.market()[0]}", f"market 2: {s.market()[1]}"]


def test_illegal_buys_are_refused_with_the_reason():
    s = buy_state()
    unchanged(s, "buy 1 y9 y9", "do not hold y9")
    unchanged(s, "buy 1 y3", "3 florin does not pay the cost 8 of tile 7")
    unchanged(s, "buy 1 g9", "slot 1 sells for florin")
    unchanged(s, "buy 4 o1", "do not hold o1")
    unchanged(s, "buy 5 y9", "bad slot")
    unchanged(s, 2 | (0 << 4), "no cards paid")


def test_market_slot_empty_during_the_turn_cannot_be_bought():
    s = buy_state()
    s.apply("buy 1 y5 y3")
    unchanged(s, "buy 1 y9", "slot 1 is empty")


# ---------------------------------------------------------------- placement phase

def test_placement_phase_rules():
    s = buy_state()
    unchanged(s, "place 7 reserve", "no tiles to place now")
    s.apply("buy 1 y9")
    assert s.phase == "place"
    unchanged(s, "take o1", "must be placed now")
    unchanged(s, "place 14 reserve", "tile 14 is not pending")
    unchanged(s, "place 7 dirk", "no Dirk")
    # every generated cell is legal, every other cell around is not; the reserve is always possible
    listed = {a for a in s.legal_actions()}
    assert s.parse_action("place 7 reserve") in listed
    for x in range(-2, 3):
        for y in range(-2, 3):
            code = s.parse_action(f"place 7 {x},{y}")
            assert (code in listed) == s.is_legal(code)
            if (x, y) in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                assert code in listed
    unchanged(s, "place 7 0,0", "taken|occupied|empty|cell")


def test_gift_to_dirk_in_two_player_game():
    s = State.from_setup(2, seed=3, market=MARKET, hands=[["y9"], []])
    s.apply("buy 1 y9")
    assert "place 7 dirk" in texts(s)
    s.apply("place 7 dirk")
    assert s.dirk_tiles() == [7] and s.dirk_building_counts()[0] == 1 and s.current_player == 1


# ---------------------------------------------------------------- rebuild

def test_build_remove_swap():
    s = State.from_setup(3, seed=4, cities=["0,0:0 1,0:7", None, None], reserves=[[14, 22], [], []])
    t = texts(s)
    assert "build 14 -1,0" in t and "build 22 0,1" in t and "remove 1,0" in t
    assert "swap 14 1,0" in t and "swap 22 1,0" in t
    assert not any(x.startswith(("swap", "remove")) and x.endswith(" 0,0") for x in t)
    unchanged(s, "remove 0,0", "remove 0,0")
    unchanged(s, "build 7 -1,0", "not in your reserve")
    unchanged(s, "swap 53 1,0", "not in your reserve")
    unchanged(s, "remove 2,0", "empty")
    s.apply("swap 14 1,0")
    assert s.city(0).tile_at(1, 0) == 14 and s.reserve(0) == [7, 22]
    assert s.building_counts(0) == [0, 1, 0, 0, 0, 0] and s.current_player == 1
    s2 = play(s.clone(), "take " + s.display()[0], "take " + s.display()[1])
    play(s2, "remove 1,0")
    assert s2.city(0).tile_at(1, 0) is None and s2.reserve(0) == [7, 14, 22]
    assert s2.building_counts(0) == [0] * 6


def test_remove_code_must_name_the_tile_there():
    s = State.from_setup(3, seed=4, cities=["0,0:0 1,0:7", None, None])
    good = s.parse_action("remove 1,0")
    assert (good >> 4) & 255 == 7
    bad = (good & ~(255 << 4)) | (8 << 4)
    unchanged(s, bad, "tile bits")


# ---------------------------------------------------------------- pass

def test_pass_only_when_nothing_else_is_legal():
    # empty display (all money in seat 2's hand), nothing to rebuild, no money: pass is the only action
    s = setup(3, rest_to=2, market=MARKET, display=[], scoring_rounds_done=2)
    assert texts(s) == ["pass"]
    s.apply("pass")
    assert s.current_player == 1 and s.turn == 1
    assert texts(s) == ["pass"]
    s.apply("pass")
    assert "pass" not in texts(s)          # seat 2 holds money: it can buy, so it may not pass
    unchanged(s, "pass", "only when no other action is legal")


# ---------------------------------------------------------------- end of turn: display

def test_reshuffle_when_the_draw_pile_is_empty():
    s = State.from_setup(3, seed=5, market=MARKET, display=["y1", "g2", "b3", "o4"], draw_pile=[],
                         scoring_rounds_done=2)
    n = len(s.discard())
    assert s.draw_pile_size == 0 and n == 108 - 4
    s.apply("take y1")
    assert s.display()[1:] == ["g2", "b3", "o4"] and s.display()[0] is not None
    assert s.discard() == [] and s.draw_pile_size == n - 1
    assert f"reshuffle: {n} cards" in s.history


def test_display_stays_short_when_pile_and_discard_are_empty():
    s = setup(3, rest_to=2, market=MARKET, display=["y1", "g2", "b3", "o4"], scoring_rounds_done=2)
    s.apply("take g2")
    assert s.display() == ["y1", None, "b3", "o4"] and s.current_player == 1


def test_scoring_card_is_set_aside_and_replaced():
    s = setup(3, rest_to=2, market=MARKET2, display=["y1", "g2", "b3", "o4"], draw_pile=["s1", "y7", "s2"],
              cities=["0,0:0 1,0:7", None, None])
    assert s.scoring_card_range(1) == (0, 2)
    s.apply("take b3")
    assert s.display() == ["y1", "g2", "y7", "o4"] and s._draw_pile() == ["s2"]
    assert s.scoring_rounds_done == 1 and s.scoring_card_range(1) is None
    assert s.scores()[0] == 1                  # the only pavilion: round 1 first place
    h = s.history
    assert h.index("scoring card 1") < h.index("display: y7") < h.index("score 1: 1 0 0")
