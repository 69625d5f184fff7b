"""Whole games: determinism, clone independence (copy-on-write), history, playouts."""

import random

import pytest

from alhambra_ai import IllegalActionError, new_game


def play_random(s, seed, limit=None):
    rng = random.Random(seed)
    actions = []
    while not s.is_terminal() and (limit is None or len(actions) < limit):
        a = rng.choice(s.legal_actions())
        actions.append(a)
        s.apply(a)
    return actions


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_same_seed_and_actions_give_the_same_game(n):
    a = new_game(n, 100 + n)
    actions = play_random(a, n)
    b = new_game(n, 100 + n)
    for act in actions:
        b.apply(b.action_to_text(act))            # replaying through the text forms
    assert a.is_terminal() and b.is_terminal()
    assert a._fingerprint() == b._fingerprint()
    assert a.history == b.history
    assert a.scores() == b.scores() and a.score_breakdown() == b.score_breakdown()


def test_games_end_with_three_rounds_and_consistent_totals():
    for seed in range(8):
        s = new_game(2 + seed % 5, seed)
        play_random(s, seed)
        assert s.is_terminal() and s.current_player == -1 and s.legal_actions() == []
        assert s.score_breakdown()[-1]["round"] == 3
        assert s.history[-1].startswith("score 3: ")
        with pytest.raises(IllegalActionError, match="game is over"):
            s.apply("pass")


def test_clone_is_independent():
    s = new_game(4, 5)
    play_random(s, 5, limit=120)
    seat_cities = {i: s.city(i).cells() for i in range(4)}
    before = s._fingerprint()
    history = s.history
    c = s.clone()
    assert c._fingerprint() == before and c.history == history
    play_random(c, 6)
    assert c.is_terminal()
    # the original did not move: cities (shared copy-on-write), hands, history
    assert s._fingerprint() == before and s.history == history
    assert {i: s.city(i).cells() for i in range(4)} == seat_cities
    # and it can go on its own way
    play_random(s, 7)
    assert s.is_terminal()


def test_city_values_do_not_follow_the_state():
    s = new_game(3, 8)
    c0 = s.city(0)
    cells = c0.cells()
    play_random(s, 8)
    assert c0.cells() == cells
    assert s.city(0).cells() != cells or len(cells) == len(s.city(0).cells())


def test_shared_history_appends_safely():
    s = new_game(3, 9)
    c1, c2 = s.clone(), s.clone()
    play_random(c1, 1, limit=5)
    play_random(c2, 2, limit=7)
    h1, h2, h0 = c1.history, c2.history, s.history
    assert h1[:len(h0)] == h0 and h2[:len(h0)] == h0
    assert h1 != h2 and len(s.history) == len(h0)
    play_random(s, 3, limit=3)
    assert c1.history == h1 and c2.history == h2


def test_record_history_off():
    s = new_game(4, 10)
    n = len(s.history)
    s.record_history = False
    play_random(s, 10, limit=50)
    assert len(s.history) == n
    s.record_history = True
    a = s.legal_actions()[0]
    text = s.action_to_text(a)
    s.apply(a)
    assert s.history[n].endswith(text)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_random_playout_fast_path_equals_recorded_path(n):
    s = new_game(n, 20 + n)
    play_random(s, n, limit=30)
    fast, slow = s.clone(), s.clone()
    fast.record_history = False
    k1 = fast.random_playout(99)
    k2 = slow.random_playout(99)
    assert fast.is_terminal() and slow.is_terminal()
    assert k1 == k2 > 0
    assert fast._fingerprint() == slow._fingerprint()
    assert len(slow.history) > len(s.history) + k2      # every action and the events were recorded


def test_random_playout_is_deterministic_and_seed_dependent():
    s = new_game(4, 11)
    s.record_history = False
    a, b, c = s.clone(), s.clone(), s.clone()
    assert a.random_playout(1) == b.random_playout(1)
    c.random_playout(2)
    assert a._fingerprint() == b._fingerprint() != c._fingerprint()
    assert s.turn == 0


def test_random_playout_max_actions():
    s = new_game(4, 12)
    s.record_history = False
    assert s.random_playout(3, 10) == 10 and not s.is_terminal()
    assert s.random_playout(3) > 0 and s.is_terminal()
    assert s.random_playout(3) == 0


def test_ranking_shares_ties():
    s = new_game(3, 13)
    play_random(s, 13)
    sc = s.scores()
    rk = s.ranking()
    for i in range(3):
        assert rk[i] == 1 + sum(1 for o in sc if o > sc[i])


def test_state_is_not_constructed_directly():
    from alhambra_ai import State
    with pytest.raises(TypeError, match="new_game"):
        State()


def test_queries_validate_seats():
    s = new_game(3, 14)
    for bad in (-1, 3, "0", None):
        with pytest.raises(ValueError, match="no seat"):
            s.hand(bad)
        with pytest.raises(ValueError, match="no seat"):
            s.city(bad)


def check_conservation(s):
    """Every tile and card exactly once somewhere; derived counts consistent with the parts."""
    from collections import Counter

    from alhambra_ai import tile_info
    n = s.num_players
    tiles = [t for t in s.market() if t is not None] + s._bag() + s.dirk_tiles() + s.pending()
    for i in range(n):
        cells = s.city(i).cells()
        tiles += s.reserve(i) + [t for _, _, t, _ in cells if t != 0]
        types = Counter(tile_info(t)[0] for _, _, t, _ in cells if t != 0)
        names = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")
        assert s.building_counts(i) == [types[k] for k in names]
        assert s.hand_size(i) == len(s.hand(i))
        for c in range(4):
            assert s.currency_total(i, c) == sum(int(x[1]) for x in s.hand(i) if x[0] == "ygbo"[c])
    if s.phase == "final":
        pass            # leftover tiles given to later seats wait outside the market until their turn
    else:
        assert sorted(tiles) == list(range(1, 55))
    copies = 2 if s.options["dirk"] else 3
    cards = Counter(c for i in range(n) for c in s.hand(i))
    cards.update(c for c in s.display() if c)
    cards.update(s.discard())
    cards.update(c for c in s._draw_pile() if c not in ("s1", "s2"))
    assert set(cards.values()) == {copies} and len(cards) == 36


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_conservation_along_random_games(n):
    s = new_game(n, 40 + n)
    s.record_history = False
    rng = random.Random(n)
    step = 0
    while not s.is_terminal():
        if step % 5 == 0:
            check_conservation(s)
        s.apply(rng.choice(s.legal_actions()))
        step += 1
    check_conservation(s)


@pytest.mark.slow
@pytest.mark.compute
def test_many_random_games_end_consistently():
    for seed in range(3000):
        s = new_game(2 + seed % 5, seed)
        s.record_history = seed % 10 == 0
        s.random_playout(seed)
        assert s.is_terminal() and s.score_breakdown()[-1]["round"] == 3
        check_conservation(s)


def test_median_interval_of_the_bench_share():
    from alhambra_ai.bench import games_per_second_pair, median_interval
    assert median_interval([0.4, 0.38, 0.41, 0.39, 0.40]) == (0.4, 0.38, 0.41)
    assert median_interval([1.0, 3.0]) == (2.0, 1.0, 3.0)
    # 400 values 0..399: the median's 95% interval is the order statistics 200 -+ 19.6
    median, low, high = median_interval([float(x) for x in reversed(range(400))])
    assert (median, low, high) == (199.5, 180.0, 220.0)
    base, mod = games_per_second_pair(2, {"vizier": True}, seconds=0.05)
    assert mod["pairs"] >= 1 and base["games"] > 0 and mod["games"] > 0
    assert mod["share_low"] <= mod["share"] <= mod["share_high"]
    assert mod["length"] > 1 and mod["per_action"] > mod["share"]  # a random vizier's games last longer


def test_bench_group_shares_per_side():
    from alhambra_ai.bench import games_per_second_group
    base, dice, alcazaba = games_per_second_group(2, [("alhambra", None), ("dice", None), ("alcazaba", None)],
                                                  seconds=0.03)
    assert "share" not in base and base["actions_per_s"] > 0
    for row in (dice, alcazaba):
        assert row["pairs"] >= 1 and row["games"] > 0
        assert row["action_share_low"] <= row["action_share"] <= row["action_share_high"]
        assert row["share_low"] <= row["share"] <= row["share_high"]


def test_bench_command_runs():
    from click.testing import CliRunner

    from alhambra_ai.cli import main
    result = CliRunner().invoke(main, ["bench", "--seconds", "0.02", "--players", "4"])
    assert result.exit_code == 0, result.output
    assert "4 players:" in result.output and "games/s" in result.output and "clone" in result.output
    rows = result.output.splitlines()
    # every game's rows give actions/s; the dice games' add their ratio to the base game's, from one run
    assert sum("4 players:" in row and "M actions/s" in row for row in rows) == 3
    for game in ("dice", "alcazaba"):
        at = rows.index(f"random {game} games, CPU time:")
        assert rows[at + 1].rstrip().endswith("x") and "95% interval of the ratio" in rows[at + 2]
    assert max(len(row) for row in rows) <= 80, max(rows, key=len)
    with_modules = CliRunner().invoke(main, ["bench", "--seconds", "0.02", "--players", "2,6",
                                             "--options", "all"])
    assert with_modules.exit_code == 0, with_modules.output
    rows = with_modules.output.splitlines()
    assert sum("with modules:" in row and row.rstrip().endswith("%") for row in rows) == 2  # share per count
    assert sum("95% interval of the share" in row for row in rows) == 2
    assert sum("per action:" in row and "x as long" in row for row in rows) == 2
    assert max(len(row) for row in rows) <= 80, max(rows, key=len)  # a terminal's width
    bad = CliRunner().invoke(main, ["bench", "--players", "9"])
    assert bad.exit_code != 0 and "2 to 6" in bad.output
