"""Alhambra: The Dice Game (§dice-1 to §dice-9, §dice-11 to §dice-13): every rule and Decision of the basic
game."""

import pytest
from dicehelpers import (
    ARC,
    CHA,
    GAR,
    PAV,
    SEAT1,
    SER,
    TOW,
    empty_columns,
    position,
    rolled,
    texts,
    unchanged,
    v_of,
)

from alhambra_ai import DiceState, IllegalActionError, new_game

# ---------------------------------------------------------------- set-up


@pytest.mark.parametrize("n,markers", [(2, 5), (3, 5), (4, 4), (5, 3), (6, 3)])
def test_markers_per_player_count_and_turns_per_round(n, markers):
    s = new_game(n, seed=4, game="dice")
    assert s.observation(0)["markers"] == markers
    names = ["pavilion", "seraglio", "arcades", "chambers", "garden", "tower"]
    while s.round == 1 and s.phase in ("roll", "after_roll"):
        s.apply("roll" if s.phase == "roll" else "stop " + names[s.dice()[0][0]])
    assert s.turn == n * markers


def test_setup_round_one_bonus_tiles_and_start_tile():
    s = new_game(4, seed=9, game="dice")
    fields = s.bonus_fields()
    assert fields.count("start") == 1 and None not in fields
    # the 5 tiles of stack 1, top first, fill the other fields from the left (D8)
    assert [f for f in fields if f != "start"] == s._hidden()["stacks"][:5]
    normal = ["points1"] * 4 + ["points2"] * 4 + ["points3"] * 2 + ["void"] * 3 + ["convert"] * 2
    assert sorted(s._hidden()["stacks"]) == sorted(normal + ["black"] * 3 + ["push"] * 2)
    assert sorted(s._hidden()["dark"]) == sorted(["points1", "points2", "points3"] * 2)


def test_same_seed_same_game_and_new_game_dispatch():
    a, b = new_game(3, 5, game="dice"), new_game(3, 5, game="dice")
    a.random_playout(1)
    b.random_playout(1)
    assert a.history == b.history and a.scores() == b.scores()
    assert isinstance(a, DiceState) and a.game == "dice"
    assert type(new_game(3, 5)).__name__ == "State"            # the base game stays the default
    with pytest.raises(ValueError, match="unknown game"):
        new_game(3, 5, game="poker")
    with pytest.raises(ValueError, match="dirk"):
        new_game(3, 5, game="dice", options={"dirk": True})


# ---------------------------------------------------------------- a turn (§dice-4)


def test_roll_one_uses_all_eight_dice_D4_and_rerolls_are_subsets_D5():
    s = new_game(3, seed=2, game="dice")
    assert texts(s) == ["roll"]
    unchanged(s, 1 | (0b11 << 4), "first roll uses all 8 dice")
    rolled(s, [GAR, GAR, TOW, PAV, PAV, PAV, SER, CHA])
    rerolls = [t for t in texts(s) if t.startswith("reroll")]
    # one per multiset of kept faces: garden 0-2, pavilion 0-3, tower/seraglio/chambers 0-1, minus keep-all
    assert len(rerolls) == 3 * 4 * 2 * 2 * 2 - 1
    assert "reroll 1 2 3 4 5 6 7 8" in rerolls
    s.apply("reroll 2 4")                      # any mask is accepted, not only the listed ones
    d = s.dice()[0]
    assert [d[i] for i in (0, 2, 4, 5, 6, 7)] == [GAR, TOW, PAV, PAV, SER, CHA] and s.rolls == 2
    s.apply("keep 1 2 3 4 5 6 7")              # = reroll 8
    assert s.rolls == 3
    assert not [t for t in texts(s) if t.startswith("reroll")]
    unchanged(s, "reroll 1", "three rolls were made")


def test_named_type_must_show_D6_and_target_field_rank():
    s = position(n=3, seed=3)
    rolled(s, [GAR, GAR, GAR, TOW, TOW, PAV, PAV, PAV])
    assert [t for t in texts(s) if t.startswith("stop")] == ["stop pavilion", "stop garden", "stop tower"]
    unchanged(s, "stop arcades", "no die shows arcades")
    seat = s.current_player
    s.apply("stop garden")                      # 3 gardens in 1 roll
    assert s.column(GAR)[v_of(3, 1) - 1] == seat
    assert v_of(8, 1) == 24 and v_of(1, 3) == 1 and v_of(5, 3) == 13 and v_of(4, 1) == 12


def test_occupied_target_goes_to_the_best_free_lower_field_or_falls_off():
    cols = empty_columns()
    cols[GAR][v_of(3, 1) - 1] = 0            # 3-in-1 taken by seat 1
    cols[GAR][v_of(3, 2) - 1] = 2            # 3-in-2 taken
    s = position(n=3, seed=3, columns=cols, **SEAT1)
    rolled(s, [GAR, GAR, GAR, TOW, TOW, PAV, PAV, PAV])
    s.apply("stop garden")
    assert s.column(GAR)[v_of(3, 3) - 1] == 1          # 5-in-3 style: next free lower field
    # a column full below the target: the marker falls off and earns nothing
    cols = empty_columns()
    for i in range(v_of(1, 1)):
        cols[TOW][i] = 0
    s = position(n=3, seed=3, columns=cols, **SEAT1)
    rolled(s, [TOW, GAR, GAR, GAR, SER, SER, PAV, PAV])
    s.apply("stop tower")
    assert s.fallen(1) == 1 and 1 not in s.column(TOW)
    assert "falls off" in s.history[-1] or any("falls off" in h for h in s.history[-3:])


def test_nine_equal_symbols_count_as_eight_in_one_roll():
    s = position(n=3, seed=3, held={1: {"black": 1}}, **SEAT1)
    rolled(s, [GAR] * 8)
    s.apply("reroll 1")
    s.apply("keep 2 3 4 5 6 7 8")              # roll 3; make sure the dice show 8 gardens again
    d = DiceState.from_observation(dict(s.observation(1), dice=[GAR] * 8), seed=1)
    d.apply("black garden")
    d.apply("stop garden")
    assert d.column(GAR)[23] == 1              # field (8, 1) = v 24, although 3 rolls were made


def test_several_markers_of_one_player_may_share_a_column():
    cols = empty_columns()
    cols[PAV][v_of(2, 2) - 1] = 1
    s = position(n=3, seed=3, columns=cols, **SEAT1)
    rolled(s, [PAV] * 3 + [TOW] * 5)
    s.apply("stop pavilion")
    assert s.column(PAV).count(1) == 2


# ---------------------------------------------------------------- round evaluation (§dice-5)


def namings(history, r):
    """The start-player namings logged in round r's evaluation (one start-player tile: at most one)."""
    starts = [i for i, h in enumerate(history) if h.startswith(f"round {r}:")]
    ends = [i for i, h in enumerate(history) if h.startswith(f"round {r + 1}:")]
    return [h for h in history[starts[-1]:ends[0] if ends else None] if " names seat " in h]


def finish_round(s):
    """Take 2 points for every remaining reward decision of the round (e.g. the tower marker placed last); a
    naming is answered only if the round's start player was not named yet (a second request fails)."""
    r = s.round
    while s.round == r and s.phase in ("reward", "name"):
        if s.phase == "name":
            done = namings(s.history, r)
            assert not done, f"seat {s.current_player} asked to name again after: {done}"
        s.apply("points" if s.phase == "reward" else "start 1")
    return s


def evaluation_position(cols, n=3, held=None, bp=None, arrivals=None, bonus=None, current=0):
    """A position on the last turn of round 1: seat `current` stops, then the evaluation runs."""
    s = new_game(n, seed=11, game="dice")
    obs = s.observation(0)
    rows = n + (1 if n == 2 else 0)
    markers = obs["markers"]
    edits = dict(columns=cols, turn_in_round=n * markers - 1, turn=n * markers - 1, current_player=current,
                 start_player=(current + 1) % n, round_start=(current + 1) % n)
    if bp:
        edits["building_points"] = bp
        edits["arrivals"] = arrivals or [[1] * 6 for _ in range(rows)]
        edits["clock"] = 100
    if bonus:
        edits["bonus_fields"] = bonus
    return position(n=n, seed=11, held=held, **edits)


def test_best_chooses_then_second_gets_the_other_reward():
    cols = empty_columns()
    cols[SER][v_of(4, 1) - 1] = 1            # best
    cols[SER][v_of(2, 3) - 1] = 2            # second
    cols[SER][v_of(1, 3) - 1] = 0            # third: nothing
    bonus = ["points1", "points2", "start", "void", "black", "push"]
    s = evaluation_position(cols, bonus=bonus)
    rolled(s, [TOW] * 8)
    s.apply("stop tower")                    # seat 1 (index 0) puts its last marker on tower 8-in-1
    # pavilion: nobody; seraglio: seat index 1 decides
    assert s.phase == "reward" and s.current_player == 1
    assert texts(s) == ["points", "tile"]
    s.apply("tile")
    assert s.building_points(1)[SER] == 1 and s.bonus_tiles(1) == {"points2": 1}
    assert s.building_points(2)[SER] == 2                     # the other reward, automatically
    assert s.building_points(0)[SER] == 0


def test_both_rewards_to_one_player_and_a_lone_marker_gets_one():
    cols = empty_columns()
    cols[PAV][v_of(4, 1) - 1] = 1
    cols[PAV][v_of(3, 1) - 1] = 1
    cols[ARC][v_of(2, 1) - 1] = 2
    bonus = ["points3", "points2", "points1", "void", "black", "push"]
    s = evaluation_position(cols, bonus=bonus)
    rolled(s, [TOW] * 8)
    s.apply("stop tower")
    s.apply("points")                         # seat idx 1 best on pavilion: 2 points, then the tile as second
    assert s.building_points(1)[PAV] == 3 and s.bonus_tiles(1) == {"points3": 1}
    assert s.current_player == 2
    s.apply("points")                         # lone arcades marker: 2 points, the second reward is not given
    assert s.building_points(2)[ARC] == 2 and s.bonus_tiles(2) == {}


def test_markers_return_and_leftover_bonus_tiles_leave():
    cols = empty_columns()
    s = evaluation_position(cols)
    rolled(s, [TOW] * 8)
    s.apply("stop tower")
    s.apply("tile")
    assert s.round == 2 and all(c.count(None) == 24 for c in (s.column(t) for t in range(6)))
    assert s.bonus_fields() != [None] * 6       # round 2's tiles, the round-1 ones are gone
    assert sum(sum(s.bonus_tiles(i).values()) for i in range(3)) == 1


# --------------------------------------------------------------- building points (§dice-6), scoring (§dice-7)


def test_twelve_point_cap_D15_and_stack_order():
    cols = empty_columns()
    cols[GAR][v_of(2, 1) - 1] = 1
    bp = [[0] * 6 for _ in range(3)]
    bp[1][GAR] = 11
    bp[2][GAR] = 12
    arr = [[0] * 6 for _ in range(3)]
    arr[2][GAR] = 5
    s = evaluation_position(cols, bp=bp, arrivals=arr)
    rolled(s, [TOW] * 8)
    s.apply("stop tower")
    s.apply("points")                     # 11 + 2 -> 12 (one point lost), on top of seat 2's disc
    assert s.building_points(1)[GAR] == 12
    o = s.observation(0)
    assert o["arrivals"][1][GAR] > o["arrivals"][2][GAR]
    finish_round(s)
    # scoring A: seat idx 2 is lower in the 12-stack -> first
    a = s.score_breakdown()[0]
    assert a["seats"][2]["majorities"][GAR] == 5 and a["seats"][1]["majorities"][GAR] == 0


def test_disc_already_on_twelve_stays_put():
    cols = empty_columns()
    cols[GAR][v_of(2, 1) - 1] = 1
    bp = [[0] * 6 for _ in range(3)]
    bp[1][GAR] = 12
    bp[2][GAR] = 12
    arr = [[0] * 6 for _ in range(3)]
    arr[1][GAR] = 3
    arr[2][GAR] = 5
    s = evaluation_position(cols, bp=bp, arrivals=arr)
    rolled(s, [TOW] * 8)
    s.apply("stop tower")
    s.apply("points")
    assert s.observation(0)["arrivals"][1][GAR] == 3          # did not move: still below seat 2's disc
    finish_round(s)
    assert s.score_breakdown()[0]["seats"][1]["majorities"][GAR] == 5


def test_scorings_A_B_C_values_places_and_points_tiles():
    # independent tables (rules.md §dice-7, D1)
    table = {0: [[1], [2], [3], [4], [5], [6]],
             1: [[8, 1], [9, 2], [10, 3], [11, 4], [12, 5], [13, 6]],
             2: [[16, 8, 1], [17, 9, 2], [18, 10, 3], [19, 11, 4], [20, 12, 5], [21, 13, 6]]}
    for r, rnd in ((0, 1), (1, 3), (2, 5)):
        bp = [[3, 0, 5, 1, 0, 2], [3, 0, 4, 2, 0, 0], [1, 0, 4, 0, 7, 0]]
        arr = [[1, 0, 2, 1, 0, 1], [2, 0, 1, 1, 0, 0], [1, 0, 3, 0, 1, 0]]
        s = new_game(3, seed=11, game="dice")
        obs = s.observation(0)
        obs.update(round=rnd, turn_in_round=14, turn=14, current_player=0, start_player=1, round_start=1,
                   building_points=bp, arrivals=arr, clock=10, bonus_fields=[None] * 6,
                   bonus_unrevealed=[0] * 8 if rnd >= 4 else obs["bonus_unrevealed"])
        obs["bonus_tiles"][2][2] = 1                 # a points-3 tile
        if rnd >= 4:
            obs["bonus_unrevealed"] = [0] * 8
        else:
            obs["bonus_unrevealed"] = [3, 3, 2, 3, 1, 2, 1, 0] if rnd == 1 else [2, 1, 0, 1, 0, 1, 0, 0]
        s = DiceState.from_observation(obs, seed=1)
        rolled(s, [SER] * 8)
        s.apply("stop seraglio")
        s.apply("points")                            # seraglio: 2 points to seat 0
        bd = s.score_breakdown()[-1]
        assert bd["round"] == r + 1
        bp[0][SER] = 2
        # expected ranking per type: points desc, then lower arrival
        exp = [[0] * 6 for _ in range(3)]
        for t in range(6):
            order = sorted((i for i in range(3) if bp[i][t] > 0),
                           key=lambda i: (-bp[i][t], arr[i][t] if t != SER else 11))
            for place, i in enumerate(order[:r + 1]):
                exp[i][t] = table[r][t][place]
        assert [row["majorities"] for row in bd["seats"]] == exp
        assert [row["tiles"] for row in bd["seats"]] == [0, 0, 3]
        assert s.scores() == [sum(e) + (3 if i == 2 else 0) for i, e in enumerate(exp)]


def test_zero_points_give_no_place_D16():
    cols = empty_columns()
    s = evaluation_position(cols, bp=[[0, 0, 0, 0, 0, 1], [0] * 6, [0] * 6])
    rolled(s, [PAV] * 8)
    s.apply("stop pavilion")
    s.apply("points")
    bd = s.score_breakdown()[0]
    assert [r["majorities"][SER] for r in bd["seats"]] == [0, 0, 0]
    assert bd["seats"][0]["majorities"][TOW] == 6 and bd["seats"][0]["majorities"][PAV] == 1


# ---------------------------------------------------------------- bonus tiles (§dice-8)


def test_points_tiles_score_at_every_scoring_held():
    s = evaluation_position(empty_columns(), held={1: {"points2": 1, "points3": 1}})
    rolled(s, [PAV] * 8)
    s.apply("stop pavilion")
    s.apply("points")
    assert s.score_breakdown()[0]["seats"][1]["tiles"] == 5


def test_void_roll_D10():
    s = position(n=3, seed=3, held={1: {"void": 2}}, **SEAT1)
    rolled(s, [GAR, GAR, TOW, TOW, PAV, PAV, SER, CHA])
    assert "void" in texts(s)
    s.apply("void")                            # cancelling roll 1 forces a new roll of all 8 dice
    assert s.phase == "roll" and s.rolls == 0 and s.bonus_tiles(1) == {"void": 1}
    rolled(s, [GAR, GAR, TOW, TOW, PAV, PAV, SER, CHA])
    s.apply("reroll 3 4", outcome=(ARC, ARC))
    s.apply("void")                            # back to the dice and count before roll 2
    assert s.dice()[0] == [GAR, GAR, TOW, TOW, PAV, PAV, SER, CHA] and s.rolls == 1
    assert s.bonus_tiles(1) == {}
    s2 = position(n=3, seed=3, held={1: {"void": 2}}, **SEAT1)
    rolled(s2, [GAR] * 8)
    s2.apply("reroll 1", outcome=(TOW,))
    s2.apply("void")
    unchanged(s2, "void", "cancels only the roll just made")   # a restored roll cannot be voided in turn


def test_void_roll_only_as_the_very_next_decision():
    s = position(n=3, seed=3, held={1: {"void": 1, "black": 1}}, **SEAT1)
    rolled(s, [GAR] * 4 + [TOW] * 4)
    s.apply("black pavilion")
    unchanged(s, "void", "very next decision")
    s.apply("reroll 5", outcome=(SER,))
    s.apply("void")                            # the black die set before stays set
    assert s.dice()[1] == PAV and s.dice()[0][4] == TOW


def test_black_die_D12_once_per_round_counts_as_a_die_never_rolled():
    s = position(n=3, seed=3, held={1: {"black": 2}}, **SEAT1)
    unchanged(s, "black garden", "not now")                   # only after roll 1
    rolled(s, [ARC] * 8)
    assert [t for t in texts(s) if t.startswith("black")] == [f"black {n}" for n in
                                                              ("pavilion", "seraglio", "arcades", "chambers",
                                                               "garden", "tower")]
    s.apply("black garden")
    assert "stop garden" in texts(s)          # D6: a type shown by the black die alone, count 1
    unchanged(s, "black tower", "set already")
    s.apply("reroll 1 2 3 4 5 6 7 8", outcome=(GAR,) * 8)
    assert s.dice()[1] == GAR
    s.apply("stop garden")
    assert s.column(GAR)[v_of(9, 2) - 1] == 1  # 9 symbols: 8-in-1
    assert s.bonus_tiles(1) == {"black": 1}
    # the second tile waits for a later round (one per round per player)
    while s.current_player != 1:
        s.apply("roll" if s.phase == "roll" else texts(s)[0])
    rolled(s, [ARC] * 8)
    assert not [t for t in texts(s) if t.startswith("black")]
    unchanged(s, "black garden", "one black-die tile per round")


def test_push_back_D13_shifts_the_run_and_the_last_falls_off():
    cols = empty_columns()
    v = v_of(2, 1)
    for i in range(v):                        # fields 1..v all occupied: seat 0, then Dirk-less seat 2
        cols[CHA][i] = 0 if i % 2 else 2
    s = position(n=3, seed=3, held={1: {"push": 1}}, columns=cols, **SEAT1)
    rolled(s, [CHA, CHA] + [TOW] * 6)
    assert "stop chambers push" in texts(s) and "stop tower push" not in texts(s)
    before = s.column(CHA)
    s.apply("stop chambers push")
    after = s.column(CHA)
    assert after[v - 1] == 1 and after[:v - 1] == before[1:v]
    assert s.fallen(before[0]) == 1 and s.bonus_tiles(1) == {}


def test_push_back_run_stops_at_a_free_field_and_only_on_an_occupied_target():
    cols = empty_columns()
    cols[CHA][v_of(2, 1) - 1] = 0
    cols[CHA][v_of(2, 2) - 1] = 2
    s = position(n=3, seed=3, held={1: {"push": 1}}, columns=cols, **SEAT1)
    rolled(s, [CHA, CHA] + [TOW] * 6)
    unchanged(s, "stop tower push", "only when the target field is occupied")
    s.apply("stop chambers push")
    c = s.column(CHA)
    assert c[v_of(2, 1) - 1] == 1 and c[v_of(2, 2) - 1] == 0 and c[v_of(2, 3) - 1] == 2
    assert s.fallen(0) == s.fallen(2) == 0


def test_convert_D11_whole_reward_another_type_same_evaluation():
    cols = empty_columns()
    cols[PAV][v_of(4, 1) - 1] = 1
    cols[PAV][v_of(3, 1) - 1] = 1
    bonus = ["convert", "points2", "points1", "void", "black", "push"]
    s = evaluation_position(cols, bonus=bonus)
    rolled(s, [TOW] * 8)
    s.apply("stop tower")
    assert texts(s) == ["points", "tile"]      # no convert tile yet
    unchanged(s, "tile convert garden", "no convert tile")
    s.apply("tile")                            # 1 pavilion + a convert tile, then as second: 2 points
    assert s.phase == "reward" and "points convert garden" in texts(s)
    assert "points convert pavilion" not in texts(s)
    unchanged(s, "tile", "reward the best did not take")
    s.apply("points convert garden")
    assert s.building_points(1)[PAV] == 1 and s.building_points(1)[GAR] == 2 and s.bonus_tiles(1) == {}


def test_start_player_tile_names_the_next_start_player():
    cols = empty_columns()
    cols[ARC][v_of(3, 1) - 1] = 2
    bonus = ["points1", "points2", "start", "void", "black", "push"]
    s = evaluation_position(cols, bonus=bonus)
    rolled(s, [TOW] * 8)
    s.apply("stop tower")
    s.apply("tile")
    assert s.phase == "name" and texts(s) == ["start 1", "start 2", "start 3"]
    s.apply("start 3")                         # self included
    finish_round(s)
    assert s.round == 2 and s.start_player == 2 and s.current_player == 2
    assert s.bonus_tiles(2) == {}              # never kept


def test_start_player_is_named_once_then_the_evaluation_goes_on_issue_43():
    cols = empty_columns()
    cols[ARC][v_of(4, 1) - 1] = 1            # best
    cols[ARC][v_of(2, 3) - 1] = 2            # second: served automatically right after the naming
    bonus = ["points1", "points2", "start", "void", "black", "push"]
    s = evaluation_position(cols, bonus=bonus)
    rolled(s, [TOW] * 8)
    s.apply("stop tower")                     # seat idx 0: a lone tower marker, served after arcades
    s.apply("tile")
    assert s.phase == "name" and s.current_player == 1
    s.apply("start 3")
    assert s.building_points(2)[ARC] == 2 and s.start_player == 2
    # the bug: the engine stayed in "name" and asked seat idx 1 again (the second answer won)
    assert s.phase == "reward" and s.current_player == 0 and texts(s) == ["points", "tile"]
    s.apply("points")
    assert s.round == 2 and s.start_player == 2 and s.current_player == 2
    assert len(namings(s.history, 1)) == 1


@pytest.mark.parametrize("game", ["dice", "alcazaba"])
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_at_most_one_naming_per_round_in_random_games(n, game):
    named = 0
    for seed in range(12):
        s = new_game(n, seed=seed, game=game)
        s.random_playout(seed)
        for r in range(1, 6):
            assert len(namings(s.history, r)) <= 1, (seed, r, namings(s.history, r))
            named += len(namings(s.history, r))
    assert named > 0


def test_finish_round_fails_on_a_second_naming():
    cols = empty_columns()
    cols[ARC][v_of(3, 1) - 1] = 2
    s = evaluation_position(cols, bonus=["points1", "points2", "start", "void", "black", "push"])
    rolled(s, [TOW] * 8)
    s.apply("stop tower")
    s.apply("tile")
    s.apply("start 2")
    # a copy of this position asking for the name again, as the bug did
    obs = dict(s.observation(0), phase="name", current_player=2)
    again = DiceState.from_observation(obs, seed=1)
    with pytest.raises(AssertionError, match="asked to name again"):
        finish_round(again)


def test_unawarded_start_tile_keeps_the_start_player():
    s = evaluation_position(empty_columns(), current=0)
    rolled(s, [PAV] * 8)
    s.apply("stop pavilion")
    if s.phase == "reward":
        s.apply("points")
    assert s.round == 2 and s.start_player == 1


# ---------------------------------------------------------------- Dirk (§dice-11), D24


def test_dirk_marker_pattern():
    for seed in range(6):
        s = new_game(2, seed=seed, game="dice")
        line = [h for h in s.history if h.startswith("dirk markers")][0]
        cols = {name: int(row) for name, row in (w.split(":") for w in line.split()[2:])}
        names = ["pavilion", "seraglio", "arcades", "chambers", "garden", "tower"]
        first = names.index(next(iter(cols)))
        assert list(cols) == [names[(first + k) % 6] for k in range(5)]
        assert list(cols.values()) == [2, 3, 4, 5, 6]
        for k in range(5):
            t = (first + k) % 6
            assert s.column(t)[v_of(k + 2, 3) - 1] == "dirk"
        assert sum(c.count("dirk") for c in (s.column(t) for t in range(6))) == 5


def test_dirk_takes_two_points_keeps_only_points_tiles_names_the_other_human():
    cols = empty_columns()
    cols[PAV][v_of(8, 1) - 1] = "dirk"
    cols[SER][v_of(8, 1) - 1] = 0
    cols[SER][v_of(7, 1) - 1] = "dirk"
    cols[ARC][v_of(8, 1) - 1] = 1
    cols[ARC][v_of(7, 1) - 1] = "dirk"
    cols[CHA][v_of(8, 1) - 1] = 0
    cols[CHA][v_of(7, 1) - 1] = "dirk"
    bonus = ["points1", "void", "start", "points3", "black", "push"]
    s = evaluation_position(cols, n=2, bonus=bonus, current=0)   # round start: seat idx 1
    rolled(s, [TOW] * 8)
    s.apply("stop tower")
    assert s.building_points("dirk")[PAV] == 2                   # best: always 2 points
    # seraglio: seat 0 best, Dirk gets void -> gone
    s.apply("points")
    assert s.bonus_tiles("dirk") == {} and s.building_points("dirk")[SER] == 1
    s.apply("points")                                            # arcades: Dirk gets the start tile
    assert s.start_player == 0                                   # the human who was not start player
    s.apply("points")                                            # chambers: Dirk gets points3 -> kept
    assert s.bonus_tiles("dirk") == {"points3": 1}


def test_dirk_ranks_in_majorities_but_never_wins_D24():
    s = new_game(2, seed=21, game="dice")
    s.random_playout(3)
    assert s.is_terminal() and s.dirk_score is not None
    assert sorted(s.ranking()) in ([1, 2], [1, 1])
    assert all(bd["dirk"] is not None for bd in s.score_breakdown())


def test_final_ties_share_the_win_D17():
    for seed in range(40):
        s = new_game(3, seed=seed, game="dice")
        s.random_playout(seed)
        sc = s.scores()
        assert s.ranking() == [1 + sum(o > v for o in sc) for v in sc]


# ---------------------------------------------------------------- text forms, errors


def test_text_forms_round_trip_over_random_games():
    for game in ("dice", "alcazaba"):
        for seed, n in ((1, 2), (2, 3), (3, 5)):
            s = new_game(n, seed=seed, game=game)
            k = 0
            while not s.is_terminal():
                acts = s.legal_actions()
                for a in acts:
                    assert s.parse_action(s.action_to_text(a)) == a
                s.apply(acts[(k * 7919 + seed) % len(acts)])
                k += 1


def test_illegal_actions_name_the_reason_and_leave_the_state():
    s = new_game(3, seed=2, game="dice")
    unchanged(s, "stop garden", "not now")
    unchanged(s, "fly away", "unknown action")
    unchanged(s, "reroll 9", "bad die")
    unchanged(s, 2 ** 40, "not an action code")
    unchanged(s, 3.5, "int code or a text")
    unchanged(s, "place 17 1,0", "not in this game")
    unchanged(s, "void", "not now")
    rolled(s, [GAR] * 8)
    unchanged(s, "void", "no void roll tile")
    unchanged(s, "stop garden push", "no push back tile")
    unchanged(s, "points", "not now")
    with pytest.raises(IllegalActionError):
        s.apply("start 9")
