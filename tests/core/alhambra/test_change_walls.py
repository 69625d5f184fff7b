"""rules.md §9.5 Change and §9.7 Walls: each rule and each ruling of docs/rules.md "Change" / "Walls" is
pinned by a test here (the oracle's checks are in tests/core/alhambra/test_oracle_modules.py)."""

import json
import random

import pytest
from gamehelpers import built_in_bots_game, random_game_checking_every_action

from alhambra_ai import IllegalActionError, State, new_game

CHANGE = {"change": True}
WALLS = {"walls": True}
EIGHT = dict.fromkeys(("vizier", "camps", "bazaars", "falcons", "change", "thief", "walls", "residents"),
                      True)


def setup(n=3, options=None, **kw):
    """A position with the draw pile given (the other cards go to the discard)."""
    kw.setdefault("draw_pile", ["y1", "y2", "y3", "s1", "s2"])
    kw.setdefault("display", ["o2", "o3", "o4", "o5"])
    kw.setdefault("market", [7, 14, 31, 41])            # costs 8 (florin), 9 (dirham), 10 (denar), 10 (ducat)
    return State.from_setup(n, options=options or {}, **kw)


def texts(s):
    return sorted(s.action_to_text(a) for a in s.legal_actions())


# ---------------------------------------------------------------------------------------------------------
# Change (§9.5)
# ---------------------------------------------------------------------------------------------------------


def test_rulebook_example_17_paid_for_a_10_draws_3_coins():
    s = setup(3, CHANGE, hands=[["b9", "b8"], [], []])
    assert s.coins() == [6, 6, 6, 6] and s.coins(0) == [0, 0, 0, 0]
    s.apply("buy 3 b9 b8")
    assert sum(s.coins(0)) == 3 and sum(s.coins()) == 21
    assert sum(1 for h in s.history if h.startswith("coin to seat 1: ")) == 3
    assert s.phase == "place"                            # an overpayment: no extra action


@pytest.mark.parametrize("paid, coins", [(["b9", "b2"], 0), (["b9", "b3"], 1), (["b9", "b9", "b8"], 8)])
def test_one_coin_per_two_points_overpaid_rounded_down(paid, coins):
    s = setup(3, CHANGE, hands=[paid, [], []])
    s.apply("buy 3 " + " ".join(paid))
    assert sum(s.coins(0)) == coins


def test_change_only_while_the_bag_lasts():
    held = ["yc"] * 6 + ["gc"] * 6 + ["bc"] * 6 + ["oc"] * 4          # 2 coins left in the bag
    s = setup(3, CHANGE, hands=[["b9", "b8"], [], []], coins=[[], held, []])
    s.apply("buy 3 b9 b8")
    assert s.coins(0) == [0, 0, 0, 2] and s.coins() == [0, 0, 0, 0]


def test_coins_pay_alone_exactly_and_go_back_into_the_bag():
    # tile 1 costs 2
    s = setup(3, CHANGE, hands=[[], [], []], coins=[["yc", "yc"], [], []], market=[1, 14, 31, 41])
    assert "buy 1 yc yc" in texts(s)
    s.apply("buy 1 yc yc")
    assert s.coins(0) == [0, 0, 0, 0] and s.coins() == [6, 6, 6, 6]
    assert s.phase == "action" and s.actions_this_turn == 1       # exact with coins: an extra action


def test_coins_pay_with_cards_and_the_minimal_payments_are_listed():
    s = setup(3, CHANGE, hands=[["y1", "y3"], [], []], coins=[["yc"], [], []], market=[1, 14, 31, 41])
    buys = [t for t in texts(s) if t.startswith("buy")]
    assert buys == ["buy 1 y1 yc", "buy 1 y3"]         # y3 overpays by 1; y1 + y3 is not minimal
    s.apply("buy 1 y1 yc")
    assert s.actions_this_turn == 1 and s.hand(0) == ["y3"]


def test_paid_coins_go_back_before_the_change_is_drawn():
    # every other coin is held by seat 1: the only coin the change can come from is the one just paid
    others = ["yc"] * 5 + ["gc"] * 6 + ["bc"] * 6 + ["oc"] * 6
    s = setup(3, CHANGE, hands=[["y3"], [], []], coins=[["yc"], others, []], market=[1, 14, 31, 41])
    s.apply("buy 1 y3 yc")                              # 4 paid for a 2: one coin of change
    assert s.coins(0) == [1, 0, 0, 0] and s.coins() == [0, 0, 0, 0]


def test_coins_not_held_or_without_the_module_are_refused_by_name():
    s = setup(3, CHANGE, hands=[["y1"], [], []], market=[1, 14, 31, 41])
    with pytest.raises(IllegalActionError, match="do not hold that many coins"):
        s.apply("buy 1 y1 yc")
    s = setup(3, {}, hands=[["y1"], [], []], market=[1, 14, 31, 41])
    with pytest.raises(IllegalActionError, match="module is not on"):
        s.apply("buy 1 y1 yc")
    with pytest.raises(IllegalActionError, match="not for a dirham coin"):
        s.apply("buy 1 y1 gc")


def test_the_vizier_may_pay_exactly_with_coins():
    s = setup(3, {"vizier": True, "change": True}, hands=[["b1"], ["y5"], []],
              coins=[[], ["yc", "yc", "yc"], []])
    s.apply("take o2")
    assert (s.phase, s.current_player) == ("interrupt", 1)
    assert "buy 1 y5 yc yc yc" in texts(s)
    s.apply("buy 1 y5 yc yc yc")
    assert s.pending() == [7] and s.coins(1) == [0, 0, 0, 0]


def test_falcons_cannot_be_paid_with_coins():
    s = setup(3, {"falcons": True, "change": True}, cities=["0,0:0 1,0:22", "", ""], coins=[["yc"], [], []])
    with pytest.raises(IllegalActionError, match="not a money card"):
        s.apply("falcon 1 yc 0,0")


def _end_table(coins):
    """Seat 0 ends the game by buying from slot 1 with an empty bag; seat 1 holds g1, seat 2 the coins."""
    placed = {7, 14, 31, 41}
    rest = [t for t in range(1, 55) if t not in placed]
    return setup(3, CHANGE, hands=[["y8"], ["g1"], []], coins=[[], [], coins], bag=[],
                 reserves=[rest, [], []])


@pytest.mark.parametrize("coins, receiver", [(["gc", "gc"], 2), (["gc"], None)])
def test_coins_count_for_the_leftover_tiles(coins, receiver):
    s = _end_table(coins)
    s.apply("buy 1 y8")
    s.apply("take o2")
    s.apply("place 7 reserve")
    line = [h for h in s.history if h.startswith("leftover market 2:")][0]
    if receiver is None:
        assert "stays" in line                          # 1 dirham card against 1 dirham coin: a tie
    else:
        assert line == f"leftover market 2: 14 to seat {receiver + 1}"


# ---------------------------------------------------------------------------------------------------------
# Walls (§9.7)
# ---------------------------------------------------------------------------------------------------------


def test_wall_cards_lie_two_each_in_piles_2_to_5():
    for seed in range(20):
        s = new_game(4, seed, WALLS)
        m = s.observation(0)["modules"]["walls"]
        piles = m["piles"]
        assert [p[2] for p in piles] == [2, 2, 2, 2] and m["face_up"] == m["used"] == []
        pile = s._draw_pile()
        where = [i for i, c in enumerate(pile) if c.startswith("w")]
        assert sorted(pile[i] for i in where) == [f"w{k}" for k in range(1, 9)]
        for lo, hi, _ in piles:
            assert sum(lo <= i <= hi for i in where) == 2
        assert piles[0][0] > 0 and all(piles[k][1] + 1 == piles[k + 1][0] for k in range(3))
        assert piles[3][1] == len(pile) - 1
        sc = s.observation(0)["scoring_cards"]
        assert sc[0]["positions"] == piles[0][:2] and sc[1]["positions"] == piles[2][:2]


def test_base_game_deal_unchanged_by_the_walls_code():
    a, b = new_game(4, 3), new_game(4, 3, CHANGE)
    assert a._draw_pile() == b._draw_pile() and a.history == b.history


def test_wall_card_drawn_while_refilling_lies_face_up_and_the_display_is_refilled():
    s = setup(3, WALLS, draw_pile=["w3", "y1", "y2", "s1", "s2"],
              wall_cards_used=[1, 2, 4, 5, 6, 7, 8])
    s.apply("take o2")
    assert s.wall_cards() == {3: "S"} and None not in s.display() and "y1" in s.display()
    assert "wall card up: 3 (S)" in s.history


BLOCK = "0,1:41 1,0:7 1,1:14 2,0:42 2,1:52 3,0:22 3,1:31 4,0:32 4,1:53 5,0:13 5,1:23"
CITY = "0,0:0 1,0:22"       # tile 22 (arcades, no walls) east of the fountain


def walls_table(**kw):
    kw.setdefault("cities", [CITY, "", ""])
    kw.setdefault("reserves", [[5], [13], []])          # tile 5: pavilion with a wall N; 13: seraglio, wall S
    kw.setdefault("wall_cards", [1, 2, 4, 5, 7])         # N, E, W, NE, SW
    kw.setdefault("wall_cards_used", [3, 6, 8])
    return setup(3, {**WALLS, **kw.pop("extra", {})}, **kw)


def test_wall_action_puts_the_pieces_and_the_card_leaves_the_game():
    s = walls_table()
    s.apply("wall 5 22")
    assert s.city(0).walls_at(1, 0) == 3 and s.card_walls(0) == {22: "NE"}
    assert 5 not in s.wall_cards() and s.wall_cards_used() == [3, 5, 6, 8]
    assert s.current_player == 1                         # an action like any: the turn is over


@pytest.mark.parametrize("action, reason", [
    ("wall 4 22", "facing an empty cell"),              # W of 22 faces the fountain
    ("wall 7 22", "facing an empty cell"),
    ("wall 2 fountain", "facing an empty cell"),        # E of the fountain faces 22
    ("wall 1 5", "already has a wall"),                 # tile 5 has its N wall printed
    ("wall 2 13", "not in your city or reserve"),        # seat 1's tile
    ("wall 2 30", "not in your city or reserve"),
    ("wall 3 22", "does not lie face up"),              # used already
])
def test_wall_action_refused_with_the_reason(action, reason):
    s = walls_table()
    before = s._fingerprint()
    with pytest.raises(IllegalActionError, match=reason):
        s.apply(action)
    assert s._fingerprint() == before


def test_walls_on_the_fountain_and_on_reserve_tiles():
    s = walls_table()
    assert {"wall 1 fountain", "wall 2 5", "wall 5 22", "wall 4 fountain"} <= set(texts(s))
    s.apply("wall 1 fountain")
    assert s.city(0).walls_at(0, 0) == 1 and s.card_walls(0) == {0: "N"}
    t = walls_table()
    t.apply("wall 2 5")                                  # a reserve tile gets its piece for later
    assert t.card_walls(0) == {5: "E"} and t.city(0).walls_at(1, 0) == 0


def test_never_a_second_card_on_the_same_tile():
    s = walls_table(card_walls={5: "E"}, wall_cards=[1, 4, 5, 7], wall_cards_used=[2, 3, 6, 8])
    with pytest.raises(IllegalActionError, match="already got wall pieces"):
        s.apply("wall 4 5")                              # W is free, but tile 5 had a card already
    assert not any(t.startswith("wall") and t.endswith(" 5") for t in texts(s))


def test_no_walls_on_camps():
    s = walls_table(extra={"camps": True}, cities=["0,0:0 1,0:5", "", ""], reserves=[[55], [], []])
    with pytest.raises(IllegalActionError, match="camp has bastions"):
        s.apply("wall 2 55")


def test_wall_card_as_the_extra_action_after_an_exact_payment():
    s = walls_table(hands=[["y8"], [], []])
    s.apply("buy 1 y8")
    assert s.phase == "action" and "wall 5 22" in texts(s)
    with pytest.raises(IllegalActionError, match="not in your city or reserve"):
        s.apply("wall 2 7")                              # the tile just bought is pending: no pieces yet
    s.apply("wall 5 22")
    assert s.phase == "place"


def test_wall_card_not_in_the_interrupt_window():
    s = walls_table(extra={"vizier": True}, hands=[["b1"], ["y8"], []])
    s.apply("take o2")
    assert s.phase == "interrupt"
    with pytest.raises(IllegalActionError, match="interrupt window"):
        s.apply("wall 2 13")


def test_added_walls_stay_on_the_tile_and_count_for_every_rule():
    s = walls_table()
    assert s.city(0).wall_score() == 0
    s.apply("wall 5 22")
    assert s.city(0).wall_score() == 2                   # N and E of 22: one stretch of 2
    s.apply("take o2")
    s.apply("take o3")
    s.apply("remove 1,0")                               # 22 goes to the reserve with its pieces
    s.apply("take o4")
    s.apply("take o5")
    assert s.current_player == 0 and s.card_walls(0) == {22: "NE"}
    assert {"build 22 0,1", "build 22 1,0"} <= set(texts(s))
    with pytest.raises(IllegalActionError, match="sides do not match"):
        s.apply("build 22 -1,0")                         # its new E wall would face the fountain's open W


@pytest.mark.parametrize("options", [{"walls": True}, "all"])
def test_cached_views_follow_wall_cards(options):
    """A wall card changes one city cell's walls: the GenCache updates that cell of the acting seat's view
    (a card on a reserve tile leaves the view alone); the view must stay what a fresh build shows."""
    from alhambra_ai._core import _check_views
    from alhambra_ai.options import MODULES
    opts = dict.fromkeys(MODULES, True) if options == "all" else options
    total = 0
    for seed in range(10):
        total += _check_views(new_game(2 + seed % 3, 700 + seed, opts), seed)
    assert total > 2000


def test_wall_card_not_between_falcons():
    s = walls_table(extra={"falcons": True}, cities=[BLOCK, "", ""], hands=[["b1", "g2"], [], []],
                    reserves=[[], [], []], market=[1, 2, 3, 4])
    s.apply("falcon 1 b1 0,0")
    with pytest.raises(IllegalActionError, match="only more falcons"):
        s.apply("wall 1 fountain")


# ---------------------------------------------------------------------------------------------------------
# information: observation, determinization, positions
# ---------------------------------------------------------------------------------------------------------


def test_observation_shows_coins_and_wall_cards_to_everyone():
    s = walls_table(extra=CHANGE, coins=[["gc"], [], ["bc", "bc"]], card_walls={22: "NE"},
                    wall_cards=[1, 2, 4, 7], wall_cards_used=[3, 5, 6, 8])
    for seat in range(3):
        m = s.observation(seat)["modules"]
        assert m["coins"] == [[0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 2, 0]] and m["coin_bag"] == [6, 5, 4, 6]
        assert m["walls"]["face_up"] == [1, 2, 4, 7] and m["walls"]["used"] == [3, 5, 6, 8]
        assert m["walls"]["pieces"] == [[[22, "NE"]], [], []]


def test_determinization_keeps_each_pile_s_wall_cards_and_samples_which_they_are():
    s = new_game(4, 11, WALLS)
    piles = s.observation(2)["modules"]["walls"]["piles"]
    counts = {}
    draws = 400
    for seed in range(draws):
        pile = s.determinized(2, seed)._draw_pile()
        for k, (lo, hi, cnt) in enumerate(piles):
            got = [w for w in pile[lo:hi + 1] if w.startswith("w")]
            assert len(got) == cnt
            for w in got:
                counts[(k, w)] = counts.get((k, w), 0) + 1
    # every card equally likely in every pile: 2 of 8 places -> 1/4; chi-square over the 32 cells (df 21)
    expect = draws / 4
    chi2 = sum((counts.get((k, f"w{c}"), 0) - expect) ** 2 / expect for k in range(4) for c in range(1, 9))
    assert chi2 < 46.8                                  # p = 0.001 for 21 degrees of freedom


def test_positions_round_trip_mid_game_and_reject_broken_wall_parts():
    from alhambra_ai import PositionError, state_from_json, state_to_json

    s = new_game(3, 5, EIGHT)
    rng = random.Random(5)
    while s.turn < 40 and not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
    d = state_to_json(s)
    again = state_to_json(state_from_json(json.loads(json.dumps(d))))
    assert again == d
    bad = json.loads(json.dumps(d))
    bad["modules"]["coin_bag"][0] += 1
    with pytest.raises(PositionError, match="coin"):
        state_from_json(bad)
    bad = json.loads(json.dumps(d))
    used = bad["modules"]["walls"]["used"]
    used.append(used[0] if used else 1)                  # a card twice (or one the pile still holds)
    with pytest.raises(PositionError, match="wall card"):
        state_from_json(bad)


# ---------------------------------------------------------------------------------------------------------
# all together: text forms, legality, invariants along random games
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 5])
def test_every_legal_action_round_trips_with_change_and_walls(n):
    kinds = random_game_checking_every_action(n, 70 + n, EIGHT)
    assert "wall" in kinds


@pytest.mark.parametrize("options", [CHANGE, WALLS, EIGHT], ids=lambda o: ",".join(o))
def test_invariants_along_random_games(options):
    from alhambra_ai import _core

    for n in (2, 4, 6):
        assert _core._invariant_games(n, 6, 300 * n, options) > 0


@pytest.mark.slow
@pytest.mark.compute
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_invariants_along_random_games_slow(n):
    """1,000 random games per player count with Change and Walls among every module of the core."""
    from alhambra_ai import _core

    assert _core._invariant_games(n, 1000, 3_000_000 * n, EIGHT) > 0


def test_play_screen_shows_coins_and_wall_cards_and_takes_the_wall_action():
    from alhambra_ai.games.alhambra.text import render_table
    from alhambra_ai.games.alhambra.words import describe, resolve

    s = walls_table(extra=CHANGE, coins=[["gc", "gc"], [], []], card_walls={5: "E"}, hands=[["g7"], [], []],
                    wall_cards=[1, 4, 5, 7], wall_cards_used=[2, 3, 6, 8])
    text = render_table(s, 0, width=100)
    assert "Coins (value 1" in text and "gc x2" in text and "bag 22" in text
    assert "Wall cards face up (wall <card> <tile>): 1 N, 4 W, 5 NE, 7 SW" in text and "5+E" in text
    code = resolve(s, "wall 5 22")
    assert describe(s, code, "You") == "You put wall card 5 (NE) on the arcades 22"
    assert resolve(s, "buy g7 gc gc") == s.parse_action("buy 2 g7 gc gc")     # the slot from the currency
    assert describe(s, s.parse_action("buy 2 g7 gc gc"), "You").endswith("paying g7 gc gc exactly")


def test_bot_helpers_decode_payments_with_coins():
    from alhambra_ai.bot.api import decode_action

    s = setup(3, CHANGE, hands=[["g7"], [], []], coins=[["gc", "gc"], [], []])
    code = s.parse_action("buy 2 g7 gc gc")
    a = decode_action(code)
    assert (a.kind, a.slot, a.cards, a.code) == ("buy", 1, ("g7", "gc", "gc"), code)
    assert code in s.legal_actions()


# ---------------------------------------------------------------------------------------------------------
# the bots' valuation: coins are money, wall pieces a longer outer wall
# ---------------------------------------------------------------------------------------------------------


def test_greedy_and_priors_value_wall_pieces_by_the_longer_outer_wall():
    from alhambra_ai import _core

    s = walls_table()
    _, vals = _core.search_greedy(s)
    margin = {s.action_to_text(a): v for a, v in vals}
    assert margin["wall 5 22"] > margin["wall 1 22"] > margin["wall 2 5"]    # +2, +1, a reserve tile
    assert margin["wall 5 22"] > max(v for t, v in margin.items() if t.startswith("take"))
    prior = {s.action_to_text(a): v for a, v in _core.search_priors(s)}
    assert prior["wall 5 22"] > prior["wall 1 22"] > prior["wall 2 5"]


def test_greedy_values_coins_as_money():
    from alhambra_ai import _core

    def take_margin(coins):
        s = setup(3, CHANGE, hands=[["y1"], [], []], coins=[coins, [], []])
        return dict((s.action_to_text(a), v) for a, v in _core.search_greedy(s)[1])["take o2"]

    assert take_margin(["gc", "gc"]) > take_margin(["gc"]) > take_margin([])


def test_search_resampling_keeps_wall_cards_in_their_piles():
    from alhambra_ai import _core

    s = new_game(4, 12, WALLS)
    piles = s.observation(0)["modules"]["walls"]["piles"]
    sc = [tuple(e["positions"]) for e in s.observation(0)["scoring_cards"]]
    for seed in range(30):
        r = s.clone()
        _core.search_resample(r, seed, sc)                  # in place
        pile = r._draw_pile()
        assert pile != s._draw_pile()
        assert sorted(pile) == sorted(s._draw_pile())         # the same cards, only their order changed
        for lo, hi, cnt in piles:
            assert sum(w.startswith("w") for w in pile[lo:hi + 1]) == cnt
        for k, (lo, hi) in enumerate(sc):
            assert f"s{k + 1}" in pile[lo:hi + 1]


def test_built_in_bots_play_all_eight_modules_legally():
    used = built_in_bots_game(4, 81, EIGHT)
    assert {"wall", "buy with coins"} <= used, used
