"""rules.md §9.0-9.4: the interrupt window, Vizier, Camps, Bazaars, Falconers (each ruling of docs/rules.md
"Modules" is pinned by a test here)."""

import collections

import pytest
from gamehelpers import random_game_checking_every_action

from alhambra_ai import City, IllegalActionError, State, _core, new_game

ALL = {"vizier": True, "camps": True, "bazaars": True, "falcons": True}


def setup(n=3, options=None, **kw):
    """A position with the draw pile given (the other cards go to the discard)."""
    kw.setdefault("draw_pile", ["y1", "y2", "y3", "s1", "s2"])
    kw.setdefault("display", ["o2", "o3", "o4", "o5"])
    return State.from_setup(n, options=options or {}, **kw)


# ---------------------------------------------------------------------------------------------------------
# options
# ---------------------------------------------------------------------------------------------------------


def test_options_switch_modules_on_and_off():
    assert new_game(4, 1, ALL).options == {"dirk": False, **ALL}
    assert new_game(2, 1, {"camps": True}).options == {"dirk": True, "camps": True}
    assert new_game(4, 1, {"camps": False}).options == {"dirk": False}
    missing = [m for m in _core.MODULE_OPTIONS if m not in _core.MODULES]
    for name in missing[:1]:
        with pytest.raises(ValueError, match=f"'{name}'.*not implemented"):
            new_game(4, 1, {name: True})
    with pytest.raises(ValueError, match="true or false"):
        new_game(4, 1, {"camps": 1})


def test_module_tiles_are_in_the_bag_only_when_on():
    base = new_game(4, 3)
    assert base.bag_size + 4 == 54
    s = new_game(4, 3, {"camps": True, "bazaars": True})
    tiles = set(s._bag()) | set(s.market()) | set(s.bazaars_waiting())
    assert tiles == set(range(1, 71))
    assert not set(s.market()) & set(range(63, 71))       # bazaars never lie in a slot


def test_base_game_unchanged_by_the_module_code():
    """The same seed gives the same base game as before the modules (bag shuffled over the 54 tiles only)."""
    a = new_game(3, 11)
    b = new_game(3, 11, {"vizier": False, "camps": False})
    assert a._fingerprint() == b._fingerprint()


# ---------------------------------------------------------------------------------------------------------
# camps (§9.2)
# ---------------------------------------------------------------------------------------------------------

# 22: arcades without walls; 13: seraglio with a south wall; 30: chambers, south wall; 23: arcades, no walls
ROW = "1,0:22 2,0:13"


def test_camp_rulebook_example_4_4_2():
    # two one-bastion camps at the ends of a row of four tiles, one more below a column of two
    c = City.from_text("-1,0:12 1,0:22 2,0:21 1,1:20 -2,0:56 3,0:58 1,2:57")
    assert c.camp_score() == 4 + 4 + 2


@pytest.mark.parametrize("city, camp, cell, reason", [
    (ROW, 55, (2, -1), None),                                           # bastion on a building wall
    (ROW, 59, (2, -1), None),                                           # a second bastion may face nothing
    (ROW, 55, (1, -1), "camp sides must touch building walls"),         # bastion on an open side
    (ROW, 56, (2, -1), "plain side would touch a building"),            # plain side on a wall
    (ROW, 55, (0, -1), "camp sides must touch"),                        # bastion on the fountain
    (ROW + " 3,0:30 2,-1:55", 59, (3, -1), None),                       # plain side to a camp's plain side
    (ROW + " 3,0:30 2,-1:55", 62, (3, -1), "camp sides must touch"),    # bastion on a camp
    (ROW + " 2,-1:55", 57, (2, -2), "needs a bastion against a building wall"),   # held by a camp only
    (ROW, 55, (5, 5), "no tile on any side"),
])
def test_camp_placements(city, camp, cell, reason):
    c = City.from_text(city)
    got = c.can_place(*cell, camp)
    assert got == reason if reason is None else reason in got
    assert (cell in c.placements(camp)) == (reason is None)


def test_buildings_beside_camps():
    c = City.from_text(ROW + " 2,-1:55")
    # 23 (no walls) would fit west of the camp on foot from 22, but its east side meets the camp's plain side
    assert "plain side would touch a building" in c.can_place(1, -1, 23)
    c = City.from_text("1,0:22 2,0:13 3,0:23 2,-1:59")
    # 12 (west wall) south of 23: its wall meets the camp's east bastion, its north side is the on-foot link
    assert c.can_place(3, -1, 12) is None
    assert c.with_tile(3, -1, 12).is_valid() is None
    assert c.can_place(3, -1, 22) is not None        # an open side against a bastion


def test_camp_removal_and_support():
    c = City.from_text(ROW + " 2,-1:55")
    assert "last bastion" in c.can_remove(2, 0)      # 13 is the camp's only wall
    assert c.can_remove(2, -1) is None               # camps may always go (they hold nothing up)
    assert (2, 0) not in c.removals() and (2, -1) in c.removals()


def test_camp_swaps_keep_the_city_valid():
    c = City.from_text(ROW + " 2,-1:55")
    assert c.can_swap(2, 0, 30) is None              # 30 has the south wall too
    assert c.can_swap(2, 0, 23) is not None          # no wall left for the camp
    assert c.can_swap(2, -1, 59) is None             # camp for camp, bastion still on the wall
    assert c.can_swap(2, -1, 56) is not None
    assert c.can_swap(2, -1, 51) is not None         # a tower there: its open north side faces 13's wall


def _swapped(city, x, y, tile):
    """The city's text with the tile at (x, y) replaced (printed walls), or None if that city is invalid."""
    words = [w for w in city.to_text().split() if not w.startswith(f"{x},{y}:")]
    try:
        return City.from_text(" ".join(words + [f"{x},{y}:{tile}"]))
    except ValueError:
        return None


def test_camp_swaps_agree_with_validating_the_swapped_city():
    # the swap check looks at the swapped cell only; the whole swapped city, validated from scratch, must
    # agree for every swap with a camp (a camp for a building or a camp, a building for a camp) in the
    # cities of random games with camps
    import random
    rng, seen = random.Random(5), collections.Counter()
    for seed in range(6):
        s = new_game(3, seed, {"camps": True, "bazaars": True})
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))
        for seat in range(3):
            c = s.city(seat)
            tiles = {t for (_, _, t, _) in c.cells()}
            for (x, y, t, _) in c.cells():
                for new in [n for n in range(55, 63)] + ([30, 51, 23] if t >= 55 else []):
                    if t == 0 or new in tiles:
                        continue
                    ok = c.can_swap(x, y, new) is None
                    assert ok == (_swapped(c, x, y, new) is not None), (c.to_text(), x, y, new)
                    seen[t >= 55, new >= 55, ok] += 1
    assert seen[True, True, True] > 10 and seen[True, False, True] > 10      # legal swaps of both kinds
    assert seen[False, True, False] > 100 and seen[True, True, False] > 10   # and refused ones


def test_walls_facing_a_camp_stay_outer_walls():
    c = City.from_text(ROW)
    assert c.with_tile(2, -1, 55).wall_score() == c.wall_score() == 1


def test_camp_lines_stop_at_camps_and_empty_cells():
    c = City.from_text("-1,0:12 1,0:22 2,0:21 -2,0:56")
    assert c.camp_score() == 4                      # -1, 0 (the fountain), 1, 2
    assert c.with_tile(3, 0, 58).camp_score() == 8  # the second camp's line stops at the first camp


# ---------------------------------------------------------------------------------------------------------
# bazaars (§9.3)
# ---------------------------------------------------------------------------------------------------------


def test_bazaar_rulebook_examples():
    # 63: pavilion seraglio arcades; 4 of them around it, all 3 types (31, chambers, does not count)
    assert City.from_text("1,0:63 2,0:7 1,1:14 1,-1:22 2,1:23 0,1:31").bazaar_score() == 4 * 3
    # 64: chambers garden tower; 2 chambers and a garden: 3 x 2
    assert City.from_text("1,0:64 2,0:31 1,1:32 1,-1:41 2,1:7").bazaar_score() == 3 * 2


def test_bazaar_waits_beside_the_market_and_costs_the_slot_price():
    s = setup(3, {"bazaars": True}, hands=[["y8", "y9", "y1"], [], []], market=[7, 14, 31, 41],
              bazaars_waiting=[63, 64])
    assert s.bazaars_waiting() == [63, 64]
    assert s.bazaar_price(63) == 8                   # florin: the cost of tile 7 in slot 1
    assert "bazaar 63 y8" in [s.action_to_text(a) for a in s.legal_actions()]
    with pytest.raises(IllegalActionError, match="paid exactly"):
        s.apply("bazaar 63 y9")
    with pytest.raises(IllegalActionError, match="not waiting"):
        s.apply("bazaar 68 y8")
    s.apply("bazaar 63 y8")                           # exact: another action follows
    assert s.phase == "action" and s.pending() == [63] and s.bazaars_waiting() == [64]
    s.apply("buy 1 y9")
    assert s.phase == "place" and sorted(s.pending()) == [7, 63]


def test_bazaar_without_price_cannot_be_bought():
    s = setup(3, {"bazaars": True}, hands=[["y8", "y9"], [], []], market=[7, 14, 31, 41],
              bazaars_waiting=[63])
    s.apply("buy 1 y8")                               # slot 1 is empty now: bazaar 63 has no price
    assert s.bazaar_price(63) is None
    with pytest.raises(IllegalActionError, match="no price now"):
        s.apply("bazaar 63 y8")


def test_bazaar_drawn_while_refilling_waits_and_drawing_goes_on():
    rest = [t for t in list(range(1, 55)) + list(range(63, 71)) if t not in (7, 14, 31, 41, 66, 20)]
    s = setup(3, {"bazaars": True}, hands=[["y9"], [], []], market=[7, 14, 31, 41], bag=[66, 20] + rest)
    s.apply("buy 1 y9")
    s.apply("place 7 reserve")                         # end of turn: slot 1 draws 66 (waits), then 20
    assert s.market()[0] == 20 and s.bazaars_waiting() == [66]
    assert "bazaar waits: 66" in s.history


# ---------------------------------------------------------------------------------------------------------
# vizier and the interrupt window (§9.0, §9.1)
# ---------------------------------------------------------------------------------------------------------


def vizier_table():
    # market costs 8 (florin), 9 (dirham), 10, 10; seat 1 can pay 8 exactly, seat 2 can pay 9 exactly
    return setup(3, {"vizier": True}, hands=[["b1"], ["y8", "y9"], ["g9"]], market=[7, 14, 31, 41])


def test_window_asks_in_order_from_the_next_seat_and_restarts_after_a_use():
    s = vizier_table()
    s.apply("take o2")                                 # seat 0's turn is over: the window opens
    assert (s.phase, s.current_player, s.window_order()) == ("interrupt", 1, [1, 2, 0])
    assert sorted(s.action_to_text(a) for a in s.legal_actions()) == ["buy 1 y8", "done"]
    s.apply("done")
    assert (s.phase, s.current_player) == ("interrupt", 2)
    s.apply("buy 2 g9")                                # the vizier buys exactly, and places at once
    assert (s.phase, s.current_player, s.pending()) == ("place", 2, [14])
    assert not s.vizier_awake(2)
    s.apply("place 14 reserve")
    assert s.market()[1] not in (None, 14)             # refilled at once
    assert (s.phase, s.current_player) == ("interrupt", 1)   # the order restarts from the top
    s.apply("done")
    # seat 2 sleeps, seat 0 cannot pay anything exactly: the window closes, seat 1 starts its turn
    assert (s.phase, s.current_player, s.window_order()) == ("action", 1, [])
    assert s.reserve(2) == [14]


def test_vizier_must_pay_exactly_and_only_buys_in_the_window():
    s = vizier_table()
    s.apply("take o2")
    with pytest.raises(IllegalActionError, match="paid exactly"):
        s.apply("buy 1 y9")
    with pytest.raises(IllegalActionError, match="interrupt window only"):
        s.apply("take y1")


def test_wake_is_an_action_and_may_follow_an_exact_payment():
    s = setup(3, {"vizier": True}, hands=[["y8"], [], []], market=[7, 14, 31, 41], vizier_asleep=[0])
    assert not s.vizier_awake(0)
    s.apply("buy 1 y8")
    assert "wake" in [s.action_to_text(a) for a in s.legal_actions()]
    s.apply("wake")
    assert s.vizier_awake(0) and s.phase == "place"
    with pytest.raises(IllegalActionError, match="awake already"):
        setup(3, {"vizier": True}).apply("wake")


def test_seats_with_nothing_usable_are_skipped():
    s = setup(3, {"vizier": True}, hands=[["b1"], [], []], market=[7, 14, 31, 41])
    s.apply("take o2")
    assert (s.phase, s.current_player) == ("action", 1)


# ---------------------------------------------------------------------------------------------------------
# falcons (§9.4)
# ---------------------------------------------------------------------------------------------------------

# a 2 x 6 block: corners 0,0 .. 4,0 can hold the five black falcons (1 pav-gar, 2 ser-gar, 5 cha-tow,
# 4 arc-cha, 3 ser-tow)
BLOCK = "0,1:41 1,0:7 1,1:14 2,0:42 2,1:52 3,0:22 3,1:31 4,0:32 4,1:53 5,0:13 5,1:23"
BLACK = {1: (0, 0), 2: (1, 0), 5: (2, 0), 4: (3, 0), 3: (4, 0)}


@pytest.mark.parametrize("k, points", [(1, 2), (2, 6), (3, 12), (4, 20), (5, 30)])
def test_falcon_set_values(k, points):
    falcons = {f: (0, corner) for f, corner in list(BLACK.items())[:k]}
    s = setup(3, {"falcons": True}, cities=[BLOCK, "", ""], falcons=falcons, market=[7 + 1, 14 - 5, 30, 43],
              draw_pile=["s1", "y1", "s2"])
    s.apply("take o2")                                 # the refill draws scoring card 1
    assert s.score_breakdown()[0]["seats"][0]["falcons"] == points


def test_falcons_single_action_one_card_each():
    s = setup(3, {"falcons": True}, cities=[BLOCK, "", ""], hands=[["y8", "b1", "g2"], [], []],
              market=[7 + 1, 14 - 5, 30, 43])
    s.apply("falcon 1 b1 0,0")
    assert s.phase == "falcons" and s.falcons(0) == [(1, (0, 0))] and s.hand(0) == ["y8", "g2"]
    with pytest.raises(IllegalActionError, match="only more falcons or 'done'"):
        s.apply("take o2")
    with pytest.raises(IllegalActionError, match="sits on that corner"):
        s.apply("falcon 2 g2 0,0")
    with pytest.raises(IllegalActionError, match="both occur"):
        s.apply("falcon 4 g2 0,0")
    with pytest.raises(IllegalActionError, match="do not meet"):
        s.apply("falcon 2 g2 5,0")
    s.apply("falcon 2 g2 1,0")
    s.apply("done")
    assert s.current_player == 1 and s.falcons(0) == [(1, (0, 0)), (2, (1, 0))]
    assert s.falcons() == [3, 4, 5] + list(range(6, 16))


def test_falcons_not_after_another_action():
    s = setup(3, {"falcons": True}, cities=[BLOCK, "", ""], hands=[["y8", "b1"], [], []],
              market=[8, 9, 30, 43])
    s.apply("buy 1 y8")                               # tile 8 costs 3: overpaid, placement follows
    s = setup(3, {"falcons": True}, cities=[BLOCK, "", ""], hands=[["y3", "b1"], [], []],
              market=[8, 9, 30, 43])
    s.apply("buy 1 y3")                               # exact: an extra action, but not falcons
    with pytest.raises(IllegalActionError, match="single action of a turn"):
        s.apply("falcon 1 b1 0,0")


def test_falcon_goes_back_when_a_tile_of_its_corner_leaves():
    s = setup(3, {"falcons": True}, cities=[BLOCK, "", ""], falcons={1: (0, (0, 0)), 3: (0, (4, 0))},
              reserves=[[30], [], []], market=[8, 9, 29, 43])
    s.apply("remove 5,1")
    assert s.falcons(0) == [(1, (0, 0))] and 3 in s.falcons()


# ---------------------------------------------------------------------------------------------------------
# all together: text forms and legality along random games
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 4, 6])
def test_every_legal_action_round_trips_and_applies(n):
    kinds = random_game_checking_every_action(n, 40 + n, ALL)
    assert {"bazaar", "falcon", "done"} <= kinds


# ---------------------------------------------------------------------------------------------------------
# invariants along random games played in C: tiles, money and falcons conserved, cities valid
# ---------------------------------------------------------------------------------------------------------

MODULE_SETS = [{"vizier": True}, {"camps": True}, {"bazaars": True}, {"falcons": True}, ALL]


@pytest.mark.parametrize("options", MODULE_SETS, ids=lambda o: ",".join(o))
def test_invariants_along_random_games(options):
    from alhambra_ai import _core

    for n in (2, 4, 6):
        assert _core._invariant_games(n, 6, 100 * n, options) > 0


@pytest.mark.parametrize("options", [{m: True} for m in _core.MODULES] + [dict.fromkeys(_core.MODULES, True)],
                         ids=lambda o: ",".join(o))
def test_random_player_draws_uniformly_over_the_legal_actions(options):
    """The random player of C playouts (bench, rollouts) counts the long parts instead of listing them, and
    with camps draws from a superset that check_action filters. Before every action of these games each
    legal action has exactly one index among the draws (in the list's order without camps): the draw is
    uniform over the legal actions, as in the base game. Every module alone and all together (a new module's
    actions are drawn through gen_action_modules / gen_module_phase: this test covers it with no change)."""
    from alhambra_ai._core import _check_module_sampler

    runs = [_check_module_sampler(new_game(n, 700 + n, options), n) for n in (2, 3, 4, 5, 6)]
    assert sum(states for states, _ in runs) > 1000
    if "camps" in options:
        assert sum(refused for _, refused in runs) > 0       # the superset's check is exercised


@pytest.mark.slow
@pytest.mark.compute
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("options", MODULE_SETS, ids=lambda o: ",".join(o))
def test_invariants_along_random_games_slow(options, n):
    """1,000 random games per player count with each module alone and all four together."""
    from alhambra_ai import _core

    assert _core._invariant_games(n, 1000, 1_000_000 * n, options) > 0


def test_play_screen_breakdown_shows_the_modules():
    from alhambra_ai.games.alhambra.text import render_scoring

    s = new_game(3, 4, {"camps": True, "falcons": True})
    s.random_playout(1)
    text = render_scoring(s.score_breakdown()[-1])
    assert "camp" in text and "flc" in text and "bzr" not in text
    last = s.score_breakdown()[-1]["seats"][0]
    assert text.splitlines()[1].split()[-3:] == [str(last["camps"]), str(last["falcons"]), str(last["total"])]
