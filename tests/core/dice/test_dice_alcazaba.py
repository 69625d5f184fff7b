"""The Alcazaba variant (§dice-10, D18-D23): stacks, bag, picks, placements, rebuild, Dirk, scoring."""

import copy

import pytest
from dicehelpers import ARC, GAR, PAV, SER, TOW, empty_columns, rolled, texts, unchanged, v_of

from alhambra_ai import City, DiceState, new_game

TYPES = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")
# the printed tile table, read independently of the core (type, cost) + the extra tower (D23)
TILES = {}
with open("alhambra_ai/data/buildings.csv") as f:
    for line in f:
        if line[0].isdigit():
            tid, name, cost, _ = line.strip().split(",")
            TILES[int(tid)] = (TYPES.index(name), int(cost))
TILES[71] = (TOW, 10)


def alc_position(n=3, seed=1, **edits):
    """An Alcazaba position from a new game's observation with fields replaced; the bag size is recomputed
    from the tiles the edited observation shows (every tile not shown is in the stacks or the bag)."""
    s = new_game(n, seed, game="alcazaba")
    obs = copy.deepcopy(s.observation(0))
    obs.update(edits)
    seen = [t for city in obs["cities"] for (_, _, t, _) in city if t]
    seen += [t for r in obs["reserves"] for t in r]
    seen += (obs["dirk_tiles"] or []) + [t for c in obs["column_items"] for t in c if t != "start"]
    seen += obs["aside_tiles"] + obs["pending"]
    assert len(seen) == len(set(seen)), "a tile in two places"
    obs["bag_size"] = 55 - len(seen) - 6 * (5 - obs["round"])
    return DiceState.from_observation(obs, seed=seed)


def last_turn(n=3, current=0, **edits):
    """Round 1's last turn: seat `current` is to roll its last marker."""
    markers = 5 if n <= 3 else (4 if n == 4 else 3)
    edits = dict(dict(turn_in_round=n * markers - 1, turn=n * markers - 1, current_player=current,
                      start_player=(current + 1) % n, round_start=(current + 1) % n), **edits)
    return alc_position(n=n, **edits)


# ---------------------------------------------------------------- set-up and rounds


@pytest.mark.parametrize("seed", range(4))
def test_stacks_one_tile_per_type_bag_of_25_with_the_extra_tower(seed):
    s = new_game(4, seed, game="alcazaba")
    h = s._hidden()
    for stack in h["stacks"]:
        assert sorted(TILES[t][0] for t in stack) == list(range(6))
    everything = [t for st in h["stacks"] for t in st] + h["bag"] + [t for c in range(6) for t in
                                                                     s.column_items(c) if t != "start"]
    # round 1's bag tiles are already in the columns; stacks + bag + shown = all 54 tiles + tile 71
    shown = [t for c in range(6) for t in s.column_items(c) if t != "start"]
    assert len(shown) == 11 and s.bag_size == 20
    assert sorted(set(everything)) == sorted(list(range(1, 55)) + [71])
    for c in range(6):
        assert all(TILES[t][0] == c for t in s.column_items(c) if t != "start")
    assert sum(s.column_items(c).count("start") for c in range(6)) == 1


def test_eleven_tiles_per_round_and_the_bag_empties_after_round_5():
    s = new_game(3, 5, game="alcazaba")
    rounds = []
    while not s.is_terminal():
        r = s.round
        s.apply(s.legal_actions()[0])
        if s.round != r:
            rounds.append(s.bag_size)
    assert rounds == [15, 10, 5, 0]
    stacks = [h for h in s.history if h.startswith("stack:")]
    bags = [h for h in s.history if h.startswith("bag:")]
    assert len(stacks) == 5 and all(len(b.split()) == 6 for b in bags)
    assert sum(h.startswith("start tile:") for h in s.history) == 4          # rounds 1-4 only


def test_extra_tower_tile_71_D23():
    s = alc_position(n=3, reserves=[[71], [], []], column_items=[[]] * 6, current_player=0, start_player=0,
                     round_start=0)
    rolled(s, [GAR] * 8)
    assert "build 71 1,0" in texts(s)          # no walls: fits anywhere next to the fountain
    s.apply("build 71 1,0")
    assert s.city(0).tile_at(1, 0) == 71 and s.city(0).walls_at(1, 0) == 0


# ---------------------------------------------------------------- Dirk (D21, D18, D22)


@pytest.mark.parametrize("seed", range(5))
def test_dirk_markers_from_the_stack_reveal_order_D21(seed):
    s = new_game(2, seed, game="alcazaba")
    stack = [int(t) for t in next(h for h in s.history if h.startswith("stack:")).split()[1:]]
    cols = [TILES[stack[0]][0]] + [(TILES[stack[k]][0] + 1) % 6 for k in range(1, 5)]
    for k in range(5):
        assert s.column(cols[k])[v_of(k + 2, 3) - 1] == "dirk"
    assert sum(s.column(c).count("dirk") for c in range(6)) == 5


def test_dirk_takes_the_lowest_tile_then_the_start_tile_D18():
    cols = empty_columns()
    cols[GAR][v_of(8, 1) - 1] = "dirk"
    cols[GAR][v_of(7, 1) - 1] = "dirk"
    cols[GAR][v_of(6, 1) - 1] = "dirk"
    cols[GAR][v_of(5, 1) - 1] = "dirk"
    items = [[] for _ in range(6)]
    items[GAR] = [41, 35, "start", 36]           # costs 10, 8, -, 8: 35 (lower id), 36, 41, then start
    s = last_turn(n=2, columns=cols, column_items=items, cities=[[[0, 0, 0, 0]]] * 2, reserves=[[], []],
                  dirk_tiles=[], aside_tiles=[], pending=[])
    rolled(s, [TOW] * 8)
    s.apply("stop tower")
    assert s.dirk_tiles() == [35, 36, 41]
    # the fourth took the start tile and named the human who was not start player (round start: seat idx 1)
    assert s.start_player == 0 and "dirk names seat 1" in " ".join(s.history)


def test_picks_in_marker_order_one_item_per_marker_leftovers_aside_D19():
    cols = empty_columns()
    cols[PAV][v_of(5, 1) - 1] = 1
    cols[PAV][v_of(4, 1) - 1] = 2
    cols[PAV][v_of(3, 1) - 1] = 1
    items = [[] for _ in range(6)]
    items[PAV] = [1, 7, "start", 3]
    items[SER] = [14]
    s = last_turn(n=3, columns=cols, column_items=items, reserves=[[], [], []], cities=[[[0, 0, 0, 0]]] * 3,
                  aside_tiles=[], pending=[])
    rolled(s, [TOW] * 8)
    s.apply("stop tower")
    assert s.phase == "pick" and s.current_player == 1
    assert texts(s) == ["pick 1", "pick 7", "pick start", "pick 3"]
    s.apply("pick 7")
    assert s.phase == "place" and s.pending() == [7]
    assert "place 7 reserve" in texts(s) and "place 7 dirk" not in texts(s)   # no Dirk with 3 players
    unchanged(s, "place 7 dirk", "no Dirk")
    unchanged(s, "place 1 reserve", "not the one to place")
    s.apply("place 7 1,0")
    assert s.current_player == 2
    s.apply("pick start")
    assert s.phase == "name"
    s.apply("start 3")
    assert s.current_player == 1 and texts(s) == ["pick 1", "pick 3"]   # one pick per marker: seat 1 again
    s.apply("pick 3")
    s.apply("place 3 reserve")
    # pavilion done: tile 1 is left over and goes aside; seraglio had no marker: 14 aside too
    assert 1 in s.aside_tiles() and 14 in s.aside_tiles()
    assert s.reserve(1) == [3] and s.city(1).tile_at(1, 0) == 7
    assert s.round == 2 and s.start_player == 2


def test_a_human_may_give_a_tile_to_dirk_D22():
    cols = empty_columns()
    cols[ARC][v_of(5, 1) - 1] = 1
    items = [[] for _ in range(6)]
    items[ARC] = [22]
    s = last_turn(n=2, columns=cols, column_items=items, cities=[[[0, 0, 0, 0]]] * 2, reserves=[[], []],
                  dirk_tiles=[], aside_tiles=[], pending=[])
    rolled(s, [TOW] * 8)
    s.apply("stop tower")
    s.apply("pick 22")
    assert "place 22 dirk" in texts(s)
    s.apply("place 22 dirk")
    assert s.dirk_tiles() == [22]


# ---------------------------------------------------------------- rebuild instead of a marker (D20)


def test_rebuild_after_roll_1_or_2_not_after_3_and_the_marker_is_out():
    s = alc_position(n=3, reserves=[[7], [], []], cities=[[[0, 0, 0, 0]]] * 3, current_player=0,
                     start_player=0, round_start=0)
    rolled(s, [GAR] * 8)
    reb = [t for t in texts(s) if t.split()[0] in ("build", "remove", "swap")]
    assert reb == ["build 7 0,1", "build 7 1,0", "build 7 0,-1", "build 7 -1,0"] or sorted(reb) == sorted(
        ["build 7 0,1", "build 7 1,0", "build 7 0,-1", "build 7 -1,0"])
    s.apply("reroll 1")
    assert any(t.startswith("build") for t in texts(s))
    s.apply("reroll 1")
    assert not any(t.startswith("build") for t in texts(s))
    unchanged(s, "build 7 1,0", "rebuild only after roll 1 or 2")
    s2 = alc_position(n=3, reserves=[[7], [], []], cities=[[[0, 0, 0, 0]]] * 3, current_player=0,
                      start_player=0, round_start=0)
    rolled(s2, [GAR] * 8)
    s2.apply("build 7 1,0")
    assert s2.city(0).tile_at(1, 0) == 7 and s2.reserve(0) == [] and s2.current_player == 1
    assert s2.observation(0)["aside"][0] == 1 and 0 not in [o for c in range(6) for o in s2.column(c)]


def test_no_rebuild_option_without_a_legal_rebuild():
    s = alc_position(n=3, reserves=[[], [], []], cities=[[[0, 0, 0, 0]]] * 3, current_player=0,
                     start_player=0, round_start=0)
    rolled(s, [GAR] * 8)
    assert all(t.split()[0] in ("stop", "reroll") for t in texts(s))


def test_dice_game_actions_do_not_exist_in_alcazaba():
    s = alc_position(n=3, current_player=0, start_player=0, round_start=0)
    rolled(s, [GAR] * 8)
    unchanged(s, "black garden", "not in this game")


# ---------------------------------------------------------------- scoring (base majorities + wall)


def test_scoring_ties_split_reserve_never_counts_and_the_wall():
    # round 3 (scoring B): seat 0 two pavilions + the extra tower, seat 1 two pavilions, seat 2 one pavilion
    # and a seraglio in the reserve, which never counts
    c0 = [[0, 0, 0, 0], [1, 0, 7, 0], [-1, 0, 5, 1], [0, 1, 71, 0]]
    c1 = [[0, 0, 0, 0], [1, 0, 3, 6], [-1, 0, 4, 9]]
    c2 = [[0, 0, 0, 0], [0, -1, 2, 12]]
    s = last_turn(n=3, round=3, cities=[c0, c1, c2], reserves=[[], [], [8]], column_items=[[]] * 6,
                  aside_tiles=[], pending=[])
    rolled(s, [GAR] * 8)
    s.apply("stop garden")
    b = s.score_breakdown()[-1]
    assert b["round"] == 2
    assert [r["majorities"][PAV] for r in b["seats"]] == [(8 + 1) // 2, (8 + 1) // 2, 0]
    assert [r["majorities"][TOW] for r in b["seats"]] == [13, 0, 0]
    assert [r["majorities"][SER] for r in b["seats"]] == [0, 0, 0]      # seat 2's seraglio is in reserve
    walls = [City.from_text(" ".join(f"{x},{y}:{t}" for x, y, t, _ in c if t != 71)).wall_score()
             for c in (c0, c1, c2)]
    assert [r["wall"] for r in b["seats"]] == [s.city(i).wall_score() for i in range(3)]
    assert [r["wall"] for r in b["seats"]][1:] == walls[1:] and walls[1:] != [0, 0]
    assert s.scores() == [r["total"] for r in b["seats"]]


def test_dirk_scores_majorities_only():
    s = new_game(2, 8, game="alcazaba")
    s.random_playout(8)
    for b in s.score_breakdown():
        assert "wall" not in b["dirk"] and b["dirk"]["total"] == sum(b["dirk"]["majorities"])
    assert s.dirk_score == sum(b["dirk"]["total"] for b in s.score_breakdown())
    assert sorted(s.ranking()) in ([1, 1], [1, 2])
