"""rules.md §6 end of the game (leftover tiles, final placements, round 3) and §7 Dirk's tiles."""

import random

import pytest
from gamehelpers import play, setup, texts

from alhambra_ai import IllegalActionError, State, new_game

MARKET = [7, 14, 22, 52]          # wall-less: pavilion 8 (y), seraglio 9 (g), arcades 9 (b), tower 11 (o)


def rest_tiles(*used):
    used = set(MARKET).union(*used)
    return [t for t in range(1, 55) if t not in used]


def end_state(hands, current=1, **kw):
    """4 players, empty bag (all other tiles in seat 0's reserve), seat `current` to act."""
    return setup(4, market=MARKET, bag=[], reserves=[rest_tiles(), [], [], []], hands=hands,
                 current_player=current, display=["y1", "g1", "b1", "o1"], draw_pile=[],
                 scoring_rounds_done=2, **kw)


def test_game_ends_when_a_slot_stays_empty_and_leftovers_go_to_the_richest():
    # seat 1 (to act) buys slot 1; at the end the market cannot be refilled. Leftovers: slot 2 (dirham) to
    # seat 0, slots 3 and 4 (denar, ducat) to seat 3 (strictly richest). Placement order starts after seat 1:
    # seat 2 (nothing), seat 3 (two tiles), then seat 0.
    hands = [["g5", "b3"], ["y9", "g4"], ["b8", "o2"], ["b9", "o3", "g2"]]
    s = end_state(hands)
    play(s, "buy 1 y9", "place 7 1,0")
    assert s.phase == "final" and s.current_player == 3
    assert sorted(s.pending()) == [22, 52] and s.market() == [None, None, None, None]
    # the leftovers of the seats still to come are visible too; served and empty-handed seats have none
    assert s.pending(3) == s.pending() and s.pending(0) == [14] and s.pending(1) == s.pending(2) == []
    h = s.history
    assert "game end: market 1 stays empty" in h
    assert h[-3:] == ["leftover market 2: 14 to seat 1", "leftover market 3: 22 to seat 4",
                      "leftover market 4: 52 to seat 4"]
    assert s.scoring_rounds_done == 2                     # round 3 only after the final placements
    with pytest.raises(IllegalActionError, match="must be placed now"):
        s.apply("take y1")
    s.apply("place 52 reserve")
    assert s.phase == "final" and s.current_player == 3 and s.pending() == [22]   # all of seat 3's first
    s.apply("place 22 1,0")
    assert s.phase == "final" and s.current_player == 0 and s.pending() == [14]
    assert [s.pending(p) for p in range(4)] == [[14], [], [], []]          # seat 3 was served
    s.apply("place 14 reserve")
    assert s.is_terminal() and s.scoring_rounds_done == 3
    assert [s.pending(p) for p in range(4)] == [[], [], [], []] and s.pending() == []
    assert s.history[-1].startswith("score 3: ")
    assert s.city(3).tile_at(1, 0) == 22 and 52 in s.reserve(3) and 14 in s.reserve(0)


def test_tie_for_most_money_leaves_the_tile_in_the_market():
    # dirham: 5 vs 5; denar: nobody holds any (0 = 0 = 0 = 0); ducat: 4 vs 4
    hands = [["g5", "o4"], ["y9"], ["g3", "g2"], ["o1", "o3"]]
    s = end_state(hands)
    play(s, "buy 1 y9", "place 7 reserve")
    assert s.history[-4:-1] == ["leftover market 2: 14 stays (tie for most dirham)",
                                "leftover market 3: 22 stays (tie for most denar)",
                                "leftover market 4: 52 stays (tie for most ducat)"]
    assert s.market() == [None, 14, 22, 52]
    assert s.is_terminal() and [b["round"] for b in s.score_breakdown()] == [3]


def test_both_rounds_due_at_the_end_due_round_first():
    # round 2's card lies on top of the pile; the exact buy's extra action takes a card, so the refill
    # draws it: round 2 is scored first, then the final distribution and round 3
    s = setup(4, market=MARKET, bag=[], reserves=[rest_tiles(), [], [], []], hands=[[], ["y8"], [], []],
              current_player=1, display=["y1", "g1", "b1", "o1"], draw_pile=["s2", "o5"],
              scoring_rounds_done=1)
    play(s, "buy 1 y8", "take b1", "place 7 reserve")
    # round 2 is already scored; seat 2 (only holder of denar) places its leftover tile, then round 3
    assert [b["round"] for b in s.score_breakdown()] == [2]
    assert s.phase == "final" and s.current_player == 1 and s.pending() == [22]
    s.apply("place 22 reserve")
    assert s.is_terminal()
    assert [b["round"] for b in s.score_breakdown()] == [2, 3]
    h = s.history
    assert h.index("scoring card 2") < h.index("display: o5")
    assert [line.split(":")[0] for line in h if line.startswith("score")] == ["score 2", "score 3"]
    assert h.index("scoring card 2") < [line.startswith("score 2") for line in h].index(True)
    assert h[-1].startswith("score 3")


def test_dirk_gets_six_more_after_round_one():
    s = setup(2, rest_to=1, market=MARKET, display=["y1", "g2", "b3", "o4"], draw_pile=["s1", "y5", "s2"],
              dirk_tiles=[1, 2, 3, 4, 5, 6])
    bag = s._bag()
    s.apply("take y1")
    assert s.scoring_rounds_done == 1
    assert s.dirk_tiles() == sorted([1, 2, 3, 4, 5, 6] + bag[:6])
    assert s.bag_size == len(bag) - 6
    assert [line for line in s.history if line.startswith("dirk: ")] == [f"dirk: {t}" for t in bag[:6]]


def test_dirk_gets_a_third_of_the_bag_after_round_two():
    s = setup(2, rest_to=1, market=MARKET, display=["y1", "g2", "b3", "o4"], draw_pile=["s2", "y5"],
              scoring_rounds_done=1, dirk_tiles=list(range(1, 7)))
    n = s.bag_size
    assert n == 54 - 4 - 6
    s.apply("take y1")
    assert len(s.dirk_tiles()) == 6 + n // 3 and s.bag_size == n - n // 3


def test_dirk_in_new_two_player_games_through_both_rounds():
    for seed in range(12):
        s = new_game(2, seed)
        assert len(s.dirk_tiles()) == 6
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))
        h = s.history
        for r in (1, 2):
            lines = [line for line in h if line.startswith(f"score {r}:")]
            if not lines:
                continue
            i = h.index(lines[0]) + 1
            got = 0
            while i < len(h) and h[i].startswith("dirk: "):
                got, i = got + 1, i + 1
            if r == 1:
                assert got == 6         # the bag always holds 6 more this early
            else:
                # one third (rounded down) of the bag right after round 2: 54 minus the tiles drawn so far
                drawn = sum(1 for line in h[:i] if line.startswith(("market ", "dirk: "))) - got
                assert got == (54 - drawn) // 3
        gifts = sum(1 for line in h if line.startswith("seat ") and line.endswith(" dirk"))
        assert len(s.dirk_tiles()) == sum(1 for line in h if line.startswith("dirk: ")) + gifts


def test_no_gift_to_dirk_in_the_final_distribution():
    s = setup(2, market=MARKET, bag=[], dirk_tiles=[], reserves=[rest_tiles(), []],
              hands=[["g5"], ["y9"]], current_player=1, display=["y1", "g1", "b1", "o1"], draw_pile=[],
              scoring_rounds_done=2)
    play(s, "buy 1 y9", "place 7 dirk")          # during a turn a bought tile may go to Dirk
    assert s.phase == "final" and s.current_player == 0 and s.pending() == [14]
    assert "place 14 dirk" not in texts(s)
    with pytest.raises(IllegalActionError, match="not to Dirk"):
        s.apply("place 14 dirk")


def test_from_setup_refuses_inconsistent_positions():
    with pytest.raises(ValueError, match="tile 7 is both"):
        State.from_setup(3, market=[7, 8, 9, 10], reserves=[[7], [], []])
    with pytest.raises(ValueError, match="tiles nowhere"):
        State.from_setup(3, bag=[1, 2, 3, 4, 5])
    with pytest.raises(ValueError, match="more than 3 copies of y3"):
        State.from_setup(3, hands=[["y3", "y3"], ["y3", "y3"], []])
    with pytest.raises(ValueError, match="more than 2 copies"):
        State.from_setup(2, hands=[["y3", "y3", "y3"], []])
    with pytest.raises(ValueError, match="not a valid city"):
        State.from_setup(3, cities=["0,0:0 2,0:7", None, None])
    with pytest.raises(ValueError, match="fountain"):
        State.from_setup(3, cities=["0,0:7", None, None])
    with pytest.raises(ValueError, match="market"):
        State.from_setup(3, market=[7, None, 9, 10])
    with pytest.raises(ValueError, match="scoring card"):
        State.from_setup(3, draw_pile=["s1", "y3"])
    with pytest.raises(ValueError, match="no Dirk"):
        State.from_setup(3, dirk_tiles=[5])
    with pytest.raises(ValueError, match="expected 3 entries"):
        State.from_setup(3, hands=[[], []])
    with pytest.raises(ValueError, match="not a money card"):
        State.from_setup(3, hands=[["x3"], [], []])
    with pytest.raises(ValueError, match="short display"):
        State.from_setup(3, display=["y1"])


def test_pending_of_another_seat_outside_the_final_phase_is_empty():
    s = new_game(3, seed=4)
    while s.phase != "place":
        s.apply(s.legal_actions()[0])
    me = s.current_player
    assert s.pending(me) == s.pending() != []
    assert all(s.pending(p) == [] for p in range(3) if p != me)
    for bad in (3, -1, "1", True):
        with pytest.raises(ValueError, match="no seat"):
            s.pending(bad)
