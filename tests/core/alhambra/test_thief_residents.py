"""rules.md §9.6 (Thief) and §9.8 (Residents): each rule and ruling of docs/rules.md "Thief" / "Residents" as
a test, the residents' scoring example, text forms, invariants in random games."""

import random

import pytest
from gamehelpers import built_in_bots_game, random_game_checking_every_action

from alhambra_ai import IllegalActionError, State, new_game

TR = {"thief": True, "residents": True}
ALL8 = {"vizier": True, "camps": True, "bazaars": True, "falcons": True, "change": True, "walls": True, **TR}


def setup(n=3, options=None, **kw):
    """A position with the draw pile given (the other cards go to the discard)."""
    kw.setdefault("draw_pile", ["y1", "y2", "y3", "s1", "s2"])
    kw.setdefault("display", ["o2", "o3", "y4", "b5"])
    return State.from_setup(n, options=options or {"thief": True}, **kw)


def texts(s):
    return sorted(s.action_to_text(a) for a in s.legal_actions())


# ---------------------------------------------------------------------------------------------------------
# Thief (§9.6)
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n, each", [(2, 4), (3, 4), (4, 3), (5, 2), (6, 2)])
def test_thief_cards_dealt_secretly(n, each):
    s = new_game(n, 7, {"thief": True})
    assert [len(s.thieves(i)) for i in range(n)] == [each] * n
    m = s.observation(0)["modules"]
    assert m["thief_counts"] == [each] * n and m["thieves"] == s.thieves(0) and m["thieves_played"] == []
    assert "thief_hands" not in m and "thieves_out" not in m
    assert not any("thie" in line for line in s.history)          # the deal is secret


def test_thief_takes_one_card_of_its_currency_and_the_display_is_refilled():
    s = setup(thieves=[[], ["o"], ["y", "b"]])
    s.apply("take o2")                        # seat 0's turn ends: the window asks seat 2 (seat 1 is next)
    assert (s.phase, s.current_player, s.window_order()) == ("interrupt", 2, [1, 2, 0])
    assert texts(s) == ["done", "thief b5", "thief y1", "thief y4"]       # (y1: the refill)
    s.apply("thief b5")                       # one card only (b5 alone is more than 5 anyway)
    assert "b5" in s.hand(2) and s.thieves(2) == ["y"]
    assert None not in s.display()            # refilled at once
    assert s.observation(0)["modules"]["thieves_played"] == ["b"]
    assert "seat 3: thief b5" in s.history
    assert (s.phase, s.current_player) == ("interrupt", 2)         # the order restarts from the top
    s.apply("thief y4")                       # no thief left anywhere: the window closes
    assert (s.phase, s.current_player) == ("action", 1)


def test_thief_takes_one_card_even_when_small():
    s = setup(thieves=[[], [], ["o"]], display=["o2", "o3", "y1", "y2"])
    s.apply("take y1 y2")
    s.apply("thief o2")
    assert s.hand(2).count("o2") == 1 and "o3" in s.display()


def test_the_seat_who_is_next_may_not_play_a_thief():
    s = setup(thieves=[[], ["o"], []])
    s.apply("take b5")
    assert (s.phase, s.current_player) == ("action", 1)            # nobody else could act: no window decision
    s = setup(thieves=[[], ["o"], ["y"]])
    s.apply("take b5")
    assert s.current_player == 2
    with pytest.raises(IllegalActionError, match="hold no thief"):
        s.apply("thief o2")


def test_a_seat_with_thieves_is_asked_even_without_a_matching_card():
    """Ruling: who is asked must not tell the table which currencies a seat's thieves have."""
    s = setup(thieves=[[], [], ["g"]])
    s.apply("take o2")
    assert (s.phase, s.current_player, texts(s)) == ("interrupt", 2, ["done"])


def test_thief_outside_the_window_is_refused():
    s = setup(thieves=[["o"], [], []])
    with pytest.raises(IllegalActionError, match="only in the interrupt window"):
        s.apply("thief o2")
    with pytest.raises(IllegalActionError, match="not in the display"):
        s.apply("thief g9")


def test_scoring_card_drawn_by_a_thief_refill_is_scored_at_once():
    s = setup(thieves=[[], [], ["o"]], draw_pile=["y1", "s1", "y2", "y3", "s2"])
    s.apply("take y4")                        # the refill takes y1
    s.apply("thief o2")                       # the refill meets s1: round 1 is scored now, in the window
    assert s.scoring_rounds_done == 1
    k = s.history.index("seat 3: thief o2")
    assert s.history[k + 1:k + 3] == ["scoring card 1", "display: y2"]
    assert s.history[k + 3].startswith("score 1")


def test_thief_and_vizier_one_after_the_other():
    s = setup(options={"thief": True, "vizier": True}, thieves=[[], [], ["o"]],
              hands=[[], [], ["g9"]], market=[7, 14, 31, 41])
    s.apply("take y4")
    assert s.current_player == 2
    s.apply("thief o2")
    s.apply("buy 2 g9")                       # then the vizier, by the same seat
    s.apply("place 14 reserve")
    assert s.reserve(2) == [14] and s.thieves(2) == []


def test_thief_card_counting_sees_the_stolen_card():
    from alhambra_ai import count_cards

    s = new_game(3, 5, {"thief": True})
    r = random.Random(1)
    stole = False
    while not s.is_terminal() and not stole:
        s.apply(r.choice(s.legal_actions()))
        stole = any(": thief " in line for line in s.history)
    assert stole
    assert count_cards(s.observation(0)) == [s.hand(i) for i in range(3)]


# ---------------------------------------------------------------------------------------------------------
# Residents (§9.8)
# ---------------------------------------------------------------------------------------------------------

# a row beside the fountain: tile 14 (seraglio, no walls) at 1,0; the disc of seat 0 at 2,0
def res_setup(disc=("seraglio", "garden", "tower"), **kw):
    kw.setdefault("options", {"residents": True})
    kw.setdefault("cities", ["1,0:14", "", ""])
    kw.setdefault("discs", [list(disc), None, None])
    s = setup(**kw)
    return s


def choose_discs(s, picks):
    """Play the Residents' setup: each seat in turn (from the start player) its figures, then its cell."""
    for figures, cell in picks:
        s.apply("figures " + " ".join(figures))
        s.apply(f"disc {cell}")


def test_setup_each_seat_secretly_chooses_three_figures_and_a_cell_beside_the_fountain():
    for n in (2, 6):
        s = new_game(n, 3, {"residents": True})
        assert s.phase == "figures" and s.current_player == s.start_player
        assert s.supply() == [7 - n] * 6                   # every seat holds one figure of each type
        acts = texts(s)
        assert len(acts) == 20 and all(len(set(a.split()[1:])) == 3 for a in acts)
        types = ["pavilion", "seraglio", "arcades", "chambers", "garden", "tower"]
        order = [(s.start_player + k) % n for k in range(n)]
        picks = [(types[k % 4:k % 4 + 3], ["0,1", "1,0", "0,-1", "-1,0"][k % 4]) for k in range(n)]
        s.apply("figures " + " ".join(picks[0][0]))
        assert s.phase == "disc" and s.current_player == order[0]
        assert texts(s) == ["disc -1,0", "disc 0,-1", "disc 0,1", "disc 1,0"]
        assert s.supply() == [7 - n] * 6                   # the kept-back figures wait face down
        s.apply(f"disc {picks[0][1]}")
        choose_discs(s, picks[1:])
        assert s.phase == "action" and s.current_player == s.start_player
        for k, p in enumerate(order):
            assert sorted(s.disc(p)) == sorted(picks[k][0])
            assert s.disc_cell(p) == [int(v) for v in picks[k][1].split(",")]
        assert s.supply() == [7 - sum(t in f for f, _ in picks) for t in types]    # all back at once
        m = s.observation(order[-1])["modules"]
        assert m["discs"][order[0]] == {"cell": s.disc_cell(order[0]), "seen": [], "hidden": 3, "gone": []}


def test_a_seats_figures_stay_secret_until_the_supply_shows_the_sum():
    a = new_game(3, 4, {"residents": True})
    b = a.clone()
    first, second = a.start_player, (a.start_player + 1) % 3
    a.apply("figures garden seraglio tower")
    b.apply("figures pavilion arcades chambers")
    for s in (a, b):
        s.apply("disc 0,1")
    assert a.observation(second) == b.observation(second)           # history and supply included
    assert a.observation(second)["history"][-2] == f"seat {first + 1}: figures (secret)"
    assert a.observation(first)["history"][-2] == f"seat {first + 1}: figures seraglio garden tower"
    assert a.determinized(second, 9).disc(first) == b.determinized(second, 9).disc(first)
    from alhambra_ai._core import state_from_observation

    view = state_from_observation(a.observation(second))             # a seat's view as a state
    assert view.observation(second) == a.observation(second)
    view.apply("figures pavilion seraglio arcades")                  # and it plays on
    assert view.phase == "disc"


def test_setup_figures_are_sampled_uniformly_while_unrevealed():
    from collections import Counter

    s = new_game(3, 4, {"residents": True})
    first, second = s.start_player, (s.start_player + 1) % 3
    s.apply("figures garden seraglio tower")
    s.apply("disc 0,1")
    seen = Counter(tuple(sorted(s.determinized(second, k).disc(first))) for k in range(2000))
    assert len(seen) == 20
    chi2 = sum((v - 100) ** 2 / 100 for v in seen.values())
    assert chi2 < 43.8                                  # chi-square, 19 degrees of freedom, p = 0.001
    assert s.determinized(second, 1).disc((first + 2) % 3) == []      # not chosen yet: nothing to sample


def test_setup_figures_errors_name_the_reason():
    s = new_game(2, 4, {"residents": True})
    for text in ("pass", "disc 0,1"):
        with pytest.raises(IllegalActionError, match="choose your disc's figures first"):
            s.apply(text)
    with pytest.raises(ValueError, match="3 different building types"):
        s.parse_action("figures garden garden tower")
    with pytest.raises(ValueError, match="no building type 'castle'"):
        s.parse_action("figures garden castle tower")
    choose_discs(s, [(["garden", "seraglio", "tower"], "0,1"), (["garden", "seraglio", "tower"], "1,0")])
    with pytest.raises(IllegalActionError, match="chosen once, at the start"):
        s.apply("figures pavilion arcades chambers")


def disc_at(s, seat, x, y):
    """The same position with the seat's disc at x,y (through the position format)."""
    from alhambra_ai import state_from_json, state_to_json

    d = state_to_json(s)
    d["modules"]["discs"][seat]["cell"] = [x, y]
    return state_from_json(d)


def test_a_matching_figure_moves_in_and_a_random_one_is_drawn():
    s = disc_at(res_setup(reserves=[[13], [], []]), 0, 2, 0)
    supply = s.supply()
    s.apply("build 13 2,0")                   # 13: seraglio (south wall) on the disc's cell
    assert (s.phase, s.disc_cell(0)) == ("resident", None)
    assert texts(s) == ["done", "resident 13"]
    with pytest.raises(IllegalActionError, match="no exchange"):
        s.apply("exchange garden pavilion")
    s.apply("resident 13")
    assert s.residents(0) == [13]
    drawn = s.history[-1].split(": ")[1]
    assert s.history[-1].startswith("seat 1 draws a figure")
    assert sorted(s.disc(0)) == sorted(["garden", "tower", drawn])
    assert sum(s.supply()) == sum(supply) - 1
    assert s.phase == "disc"                  # end of the turn: the disc goes back
    cells = texts(s)
    assert "disc 3,0" in cells and "disc 0,1" in cells and "disc 2,0" not in cells
    with pytest.raises(IllegalActionError, match="empty cell beside"):
        s.apply("disc 9,9")
    s.apply("disc 3,0")
    assert (s.phase, s.current_player, s.disc_cell(0)) == ("action", 1, [3, 0])
    m = s.observation(1)["modules"]["discs"][0]
    assert m["seen"] == [drawn] and m["hidden"] == 2 and m["gone"] == ["seraglio"]


def test_without_a_match_one_figure_may_be_exchanged():
    s = disc_at(res_setup(disc=("garden", "tower", "pavilion"), reserves=[[13], [], []]), 0, 2, 0)
    s.apply("build 13 2,0")
    options = texts(s)
    assert "exchange garden seraglio" in options and "done" in options and "resident 13" not in options
    with pytest.raises(IllegalActionError, match="no figure on your disc"):
        s.apply("resident 13")
    before = s.supply()
    s.apply("exchange garden seraglio")
    assert sorted(s.disc(0)) == ["pavilion", "seraglio", "tower"]
    after = s.supply()
    assert after[4] == before[4] + 1 and after[1] == before[1] - 1
    assert s.phase == "disc"


def test_declining_keeps_the_disc():
    s = disc_at(res_setup(reserves=[[13], [], []]), 0, 2, 0)
    s.apply("build 13 2,0")
    s.apply("done")
    assert s.residents(0) == [] and sorted(s.disc(0)) == ["garden", "seraglio", "tower"]
    assert s.phase == "disc"


def test_a_bought_tile_lifts_the_disc_at_placement():
    s = disc_at(res_setup(hands=[["y9"], [], []], market=[7, 9, 31, 41]), 0, 2, 0)
    s.apply("buy 1 y9")                       # pavilion 7 (cost 8): overpaid, the turn's actions are over
    s.apply("place 7 2,0")
    assert s.phase == "resident"
    assert texts(s)[0].startswith("done")
    s.apply("done")
    assert s.phase == "disc"


def test_no_resident_on_a_camp():
    s = disc_at(res_setup(options={"residents": True, "camps": True}, cities=["1,0:13", "", ""],
                          reserves=[[55], [], []]), 0, 1, -1)
    assert "build 55 1,-1" in texts(s)        # camp 55's bastion on the south wall of tile 13
    s.apply("build 55 1,-1")
    assert s.phase == "resident"
    with pytest.raises(IllegalActionError, match="never on camps"):
        s.apply("resident 55")


def test_a_removed_or_swapped_building_sends_its_resident_back():
    s = res_setup(reserves=[[13], [], []], residents=[[14], [], []])
    before = s.supply()
    s.apply("swap 13 1,0")                    # 13: seraglio (south wall) replaces 14
    assert s.residents(0) == [] and s.supply()[1] == before[1] + 1
    s = res_setup(residents=[[14], [], []])
    before = s.supply()
    s.apply("remove 1,0")
    assert s.residents(0) == [] and s.supply()[1] == before[1] + 1


# the rulebook example: 3 seraglio (red), 2 chambers (white), 2 garden (green), 1 pavilion (blue) -> 17
EXAMPLE = "1,0:14 2,0:31 3,0:32 4,0:41 5,0:42 6,0:7 0,-1:13 -1,0:12"


def test_residents_rulebook_example_17_every_round():
    s = State.from_setup(2, options={"residents": True, "dirk": False}, cities=[EXAMPLE, ""],
                         residents=[[14, 31, 32, 41, 42, 7, 13, 12], []],
                         draw_pile=["s1", "y1", "y2", "s2"], display=["o2", "o3", "y4", "b5"])
    s.apply("take o2")                        # the refill meets scoring card 1
    s.apply(s.legal_actions()[0]) if s.phase == "disc" else None
    row = s.score_breakdown()[0]["seats"][0]
    assert row["residents"] == 10 + 6 + 1
    assert row["total"] == sum(row["majorities"]) + row["wall"] + 17


@pytest.mark.parametrize("counts, points", [([1], 1), ([1, 1], 3), ([2], 2), ([1, 1, 1, 1, 1, 1], 21),
                                            ([3, 2, 2, 1], 17), ([2, 2], 6)])
def test_resident_groups(counts, points):
    # largest groups of different types first: group k holds the types with >= k residents
    groups = [sum(1 for c in counts if c >= k) for k in range(1, max(counts) + 1)]
    assert sum(g * (g + 1) // 2 for g in groups) == points


def test_residents_errors_name_the_reason():
    s = res_setup()
    with pytest.raises(IllegalActionError, match="just lifted your disc"):
        s.apply("resident 14")
    with pytest.raises(IllegalActionError, match="only at the end of a turn"):
        s.apply("disc 3,0")
    with pytest.raises(IllegalActionError, match="no building type"):
        s.apply("exchange red blue")
    with pytest.raises(IllegalActionError, match="not on in this game"):
        setup().apply("disc 1,1")


# ---------------------------------------------------------------------------------------------------------
# text forms, invariants, combinations
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 5])
def test_every_legal_action_round_trips_and_applies(n):
    kinds = random_game_checking_every_action(n, 60 + n, ALL8)
    assert {"thief", "disc"} <= kinds


SETS = [{"thief": True}, {"residents": True}, TR, ALL8]


@pytest.mark.parametrize("options", SETS, ids=lambda o: ",".join(o))
def test_invariants_along_random_games(options):
    from alhambra_ai import _core

    for n in (2, 4, 6):
        assert _core._invariant_games(n, 5, 300 * n, options) > 0


@pytest.mark.slow
@pytest.mark.compute
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("options", [TR, ALL8], ids=lambda o: ",".join(o))
def test_invariants_along_random_games_slow(options, n):
    """1,000 random games per player count with the Thief and the Residents, alone and all eight on."""
    from alhambra_ai import _core

    assert _core._invariant_games(n, 1000, 3_000_000 * n, options) > 0


# ---------------------------------------------------------------------------------------------------------
# the built-in bots play the modules legally
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 5])
def test_built_in_bots_play_all_eight_modules_legally(n):
    used = built_in_bots_game(n, 70 + n, ALL8)
    assert {"thief", "disc"} <= used
