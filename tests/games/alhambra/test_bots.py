"""The built-in bots (bots/*.py) and the search toolkit: legal complete games at 2-6 players, observations
only, no leak through determinization, determinism given seed and iteration budget, the per-move time
budget."""

from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner
from paths import ROOT

from alhambra_ai import _core, new_game
from alhambra_ai.arena.strength import Match, run_strength, wilson, win_share
from alhambra_ai.bot import toolkit as search
from alhambra_ai.bot.api import Observation, load_bot
from alhambra_ai.cli import main
from alhambra_ai.errors import BadInput

BOTS = ROOT / "bots"
TINY = {"greedy": {}, "random": {}, "mcts": {"iterations": 30}, "expectimax": {"samples": 1, "breadth": 3}}


def make_bot(name: str, seat: int, n: int, seed: int = 0, **extra):
    bot = load_bot(BOTS / f"{name}.py")()
    cfg = {"seat": seat, "num_players": n, "options": {}, "seed": seed, **TINY.get(name, {}), **extra}
    bot.setup(cfg)
    return bot


def play(names: list[str], seed: int, on_act=None, **extra):
    """A game in-process; asserts every action is legal; on_act(state, seat, obs) sees each decision."""
    n = len(names)
    state = new_game(n, seed=seed)
    bots = [make_bot(name, i, n, seed, **extra) for i, name in enumerate(names)]
    actions = []
    while not state.is_terminal():
        seat = state.current_player
        obs = Observation(state.observation(seat))
        if on_act:
            on_act(state, seat, obs)
        a = bots[seat].act(obs)
        if isinstance(a, str):
            a = state.parse_action(a)
        assert a in obs.legal_actions, f"{names[seat]} played an illegal action {a}"
        state.apply(a)
        actions.append(a)
    return state, actions


# ---------------------------------------------------------------- complete legal games

@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_search_bots_play_complete_legal_games(n):
    names = ["greedy", "mcts", "expectimax", "random", "greedy", "mcts"][:n]
    state, actions = play(names, seed=100 + n)
    assert state.is_terminal() and len(actions) > 20
    assert state.scoring_rounds_done >= 2


def test_greedy_beats_random_clearly():
    wins = sum(win_share(play(["greedy", "random"][::1 - 2 * (g % 2)], seed=g)[0].ranking(), [g % 2])
               for g in range(6))
    assert wins >= 5


# ---------------------------------------------------------------- observations only

def _hidden_sequences(state, k=5):
    """Runs of the true hidden order a bot must not see: the next k draw-pile cards and bag tiles."""
    out = []
    pile = state._draw_pile()
    bag = state._bag()
    if len(pile) >= k:
        out.append([c for c in pile[:k]])
    if len(bag) >= k:
        out.append(bag[:k])
    return out


def _lists_in(x):
    if isinstance(x, list):
        yield x
        for y in x:
            yield from _lists_in(y)
    elif isinstance(x, dict):
        for y in x.values():
            yield from _lists_in(y)


def _contains_run(lst, run):
    k = len(run)
    return any(lst[i:i + k] == run for i in range(len(lst) - k + 1))


def test_bots_receive_observations_without_hidden_order():
    seen = []

    def spy(state, seat, obs):
        assert isinstance(obs, Observation)
        d = obs.to_dict()
        assert not {"draw_pile", "bag", "rng", "seed"} & set(d), "a hidden field in the observation"
        json.dumps(d)  # plain data, no State inside
        runs = _hidden_sequences(state)
        for lst in _lists_in(d):
            for run in runs:
                assert not _contains_run(lst, run), f"hidden order {run} found in the observation"
        seen.append(len(runs))

    play(["mcts", "greedy", "expectimax"], seed=11, on_act=spy)
    assert sum(seen) > 50  # the scan really looked at hidden runs


def test_spy_catches_a_leaking_observation():
    """The scan above can fail: an observation that carries the bag order is caught."""
    state = new_game(3, seed=4)
    d = state.observation(0)
    d["extra"] = list(state._bag())
    runs = _hidden_sequences(state)
    assert any(_contains_run(lst, run) for lst in _lists_in(d) for run in runs)


# ---------------------------------------------------------------- determinization does not leak

def _prefix(d, k=8):
    return (tuple(d._draw_pile()[:k]), tuple(d._bag()[:k]))


def check_determinizations(records):
    """records: (true state, [determinized states used for one observation]). The determinizations must vary
    with the seed, and match the true hidden order (first 8 cards / tiles) no more often than chance
    allows."""
    assert records
    varied = sum(1 for _truth, dets in records if len({_prefix(d) for d in dets}) > 1)
    assert varied >= 0.8 * len(records), "determinizations do not vary with the seed"
    total = sum(len(dets) for _t, dets in records)
    pile_hits = sum(1 for truth, dets in records for d in dets
                    if len(truth._draw_pile()) >= 8 and _prefix(d)[0] == _prefix(truth)[0])
    bag_hits = sum(1 for truth, dets in records for d in dets
                   if len(truth._bag()) >= 8 and _prefix(d)[1] == _prefix(truth)[1])
    # the chance of a random 8-card prefix matching is far below 1%
    assert pile_hits <= 0.05 * total and bag_hits <= 0.05 * total, "determinizations reveal the hidden order"


def _record_determinizations(monkeypatch, bot_name, determinizer, moves=12):
    records = []
    state = new_game(2, seed=21)
    bots = [make_bot(bot_name, i, 2, 5) for i in range(2)]
    current = {}

    def recording(obs, seed):
        d = determinizer(obs, seed)
        current.setdefault("dets", []).append(d)
        return d

    monkeypatch.setattr(search, "determinize", recording)
    while not state.is_terminal() and len(records) < moves:
        seat = state.current_player
        obs = Observation(state.observation(seat))
        current.clear()
        a = bots[seat].act(obs)
        if current.get("dets"):
            dets = current["dets"]
            if len(dets) == 1:  # a bot that takes one sample: ask the same determinizer for more
                dets = dets + [determinizer(obs, 1000 + k) for k in range(3)]
            records.append((state.clone(), dets))
        state.apply(a)
    return records


@pytest.mark.parametrize("bot_name", ["mcts", "expectimax", "greedy"])
def test_bots_use_determinizations_that_do_not_leak(monkeypatch, bot_name):
    records = _record_determinizations(monkeypatch, bot_name, search.determinize)
    check_determinizations(records)


def test_a_leaking_determinizer_is_caught(monkeypatch):
    """The check above can fail: a determinizer that hands the bot the true hidden order is caught."""
    truth = {}

    def leaking(obs, seed):
        return truth["state"].clone()

    records = []
    state = new_game(2, seed=21)
    bot = make_bot("mcts", 0, 2)

    def recording(obs, seed):
        d = leaking(obs, seed)
        records[-1][1].append(d)
        return d

    monkeypatch.setattr(search, "determinize", recording)
    for _ in range(6):
        truth["state"] = state
        records.append((state.clone(), []))
        state.apply(bot.act(Observation(state.observation(state.current_player))))
    with pytest.raises(AssertionError):
        check_determinizations(records)


def test_resample_keeps_the_observation_and_changes_the_order():
    s = new_game(3, seed=8)
    for _ in range(25):
        s.apply(search.greedy_action(s))
    obs = s.observation(s.current_player)
    d = search.determinize(obs, 1)
    ranges = search.scoring_ranges(obs)
    orders = set()
    for k in range(6):
        c = d.clone()
        search.search_resample(c, k, ranges)
        assert c.observation(obs["seat"]) == obs
        assert sorted(c._draw_pile()) == sorted(d._draw_pile()) and sorted(c._bag()) == sorted(d._bag())
        for r, (lo, hi) in enumerate(ranges, start=1):
            if lo >= 0:
                assert lo <= c._draw_pile().index(f"s{r}") <= hi
        orders.add(_prefix(c))
    assert len(orders) == 6


# ---------------------------------------------------------------- determinism and budgets

@pytest.mark.parametrize("name", ["mcts", "expectimax", "greedy"])
def test_deterministic_given_seed_and_iterations(name):
    _, a1 = play([name, "greedy"], seed=3)
    _, a2 = play([name, "greedy"], seed=3)
    assert a1 == a2


def test_iteration_budget_is_exact_and_seed_matters():
    s = new_game(2, seed=9)
    obs = Observation(s.observation(s.current_player))
    stats = set()
    for seed in range(3):
        dets = [search.determinize(obs, seed)]
        m = search.Mcts(dets, seed)
        assert m.run(300, 0.0) == 300
        stats.add(tuple(m.root_children()))
    assert len(stats) > 1


def _positions(n: int, seed: int, count: int):
    """Observations of the seat to act, along a greedy game, where it has a choice."""
    state = new_game(n, seed=seed)
    bots = [make_bot("greedy", i, n, seed) for i in range(n)]
    out, ply = [], 0
    while not state.is_terminal() and len(out) < count:
        obs = Observation(state.observation(state.current_player))
        if len(obs.legal_actions) > 1 and ply % 7 == 0:
            out.append(obs)
        state.apply(bots[state.current_player].act(obs))
        ply += 1
    return out


def _root_lead(kids) -> int:
    return kids[0][1] - (kids[1][1] if len(kids) > 1 else 0)


def test_stop_early_keeps_the_move_of_the_full_iteration_budget():
    """Stopping once the leader cannot be overtaken picks the very action the whole budget picks."""
    stopped = 0
    for obs in _positions(2, seed=4, count=10):
        best = []
        for stop in (False, True):
            m = search.Mcts([search.determinize(obs, 1)], 5)
            done = m.run(800, 0.0, stop)
            kids = m.root_children()
            best.append(kids[0][0])
            if stop and done < 800:
                stopped += 1
                assert _root_lead(kids) > 800 - done
            else:
                assert done == 800
        assert best[0] == best[1]
    assert stopped >= 3


def test_stop_early_under_a_deadline_ends_before_it_once_the_lead_is_safe():
    obs = _positions(2, seed=4, count=1)[0]
    m = search.Mcts([search.determinize(obs, 1)], 5)
    t0 = time.monotonic()
    done = m.run(0, t0 + 3.0, True)
    assert time.monotonic() - t0 < 3.0 and done >= 64
    assert _root_lead(m.root_children()) > 0


@pytest.mark.parametrize("name", ["mcts", "expectimax"])
def test_time_budget_holds(name):
    """Each move uses at most the move time + 10% of CPU time (wall time only loosely: the machine is
    shared)."""
    limit = 0.05
    state = new_game(4, seed=2)
    bot_cfg = {"move_time": limit}
    cpu_worst = wall_worst = 0.0
    moves = 0
    while not state.is_terminal() and moves < 12:
        seat = state.current_player
        obs = Observation(state.observation(seat))
        bot = load_bot(BOTS / f"{name}.py")()
        bot.setup({"seat": seat, "num_players": 4, "seed": 1, **bot_cfg})
        c0, w0 = time.process_time(), time.monotonic()
        a = bot.act(obs)
        cpu_worst = max(cpu_worst, time.process_time() - c0)
        wall_worst = max(wall_worst, time.monotonic() - w0)
        state.apply(a)
        moves += 1
    assert cpu_worst <= 1.10 * limit
    assert wall_worst <= 5 * limit


def test_referee_time_fields_set_the_budget():
    obs = {"move_time": 0.2, "time_left": 0.1, "history": []}
    assert search.MoveClock(obs, {"move_time": 5.0}).limit == pytest.approx(0.1)
    assert search.MoveClock({"history": []}, {"move_time": 0.3}).limit == pytest.approx(0.3)
    assert search.MoveClock({"history": []}, {}).limit == search.DEFAULT_MOVE_TIME


# ---------------------------------------------------------------- compiled helpers

def test_compiled_helpers_on_a_position():
    s = new_game(4, seed=5)
    s.record_history = False
    values = search.search_evaluate(s)
    assert len(values) == 4 and all(v > 0 for v in values)
    best, margins = search.search_greedy(s)
    assert best in s.legal_actions() and [a for a, _ in margins] == s.legal_actions()
    assert max(m for _, m in margins) == dict(margins)[best]
    c = s.clone()
    search.search_rollout(c, 1)
    assert c.is_terminal()
    r = search.search_rewards(c)
    assert all(0 <= x <= 1 for x in r) and r.index(max(r)) in [i for i, v in enumerate(c.scores())
                                                                if v == max(c.scores())]
    m = search.Mcts([s], 7)
    assert m.run(100, 0.0) == 100
    kids = m.root_children()
    assert kids and all(a in s.legal_actions() for a, _, _ in kids)
    assert sum(v for _, v, _ in kids) == 100


def test_greedy_prefers_an_exact_payment():
    # seat 0 can pay tile 7 (pavilion, cost 7?) exactly or take money; an exact buy gives an extra action
    s = new_game(2, seed=1)
    best, margins = search.search_greedy(s)
    exact = [a for a, _ in margins if a & 15 == 2 and _is_exact(s, a)]
    if exact:
        assert max(dict(margins)[a] for a in exact) > max(m for a, m in margins if a & 15 == 1)


def _is_exact(s, a):
    from alhambra_ai import tile_info
    pay = a >> 6
    total = sum(v * ((pay >> (2 * (v - 1))) & 3) for v in range(1, 10))
    return total == tile_info(s.market()[(a >> 4) & 3])[1]


def test_mcts_rejects_bad_input():
    with pytest.raises(ValueError):
        _core.Mcts([], 1)
    s = new_game(2, seed=1)
    s.random_playout(1)
    with pytest.raises(ValueError):
        _core.Mcts([s], 1)


# ---------------------------------------------------------------- strength evaluation

def test_wilson_interval():
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(19, 20)
    assert lo < 0.95 < hi and hi <= 1.0
    assert wilson(10, 20)[0] < 0.5 < wilson(10, 20)[1]


def test_match_games_rotate_seats_over_shared_deals():
    games = Match("a:b").games(4, 8, 1)
    assert [g.bots.index("a") for g in games] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert len({g.seed for g in games[:4]}) == 1 and games[0].seed != games[4].seed
    assert all(sorted(g.bots) == ["a", "b", "b#2", "b#3"] for g in games)  # each copy of b its own seat name
    assert Match("mcts@1:mcts").lineup(2) == ["mcts@1", "mcts"]
    assert Match("greedy:greedy").lineup(2) == ["greedy", "greedy#2"]
    assert Match("mcts,greedy,greedy").fixed_players == 3


def test_win_share_splits_ties():
    assert win_share([1, 1, 3], [0]) == 0.5
    assert win_share([2, 1, 3], [0]) == 0.0


def test_strength_run_is_reproducible():
    lines = []
    r1 = run_strength(["greedy:random"], [2], 2, seed=3, iterations=20, echo=lines.append)
    r2 = run_strength(["greedy:random"], [2], 2, seed=3, iterations=20, echo=lines.append)
    assert r1[0].wins == r2[0].wins and r1[0].games == 2
    assert "greedy" in lines[0] and "95%" in lines[0]


def test_strength_out_file_resumes_with_only_the_missing_games(tmp_path):
    out = tmp_path / "s.jsonl"
    whole = run_strength(["greedy:random"], [2], 4, seed=3, iterations=10, echo=lambda _l: None)
    run_strength(["greedy:random"], [2], 2, seed=3, iterations=10, echo=lambda _l: None, out=out)
    # a process killed mid-write leaves a torn last line: it is dropped and that game played again
    with out.open("a") as f:
        f.write('{"match": "greedy:random", "players": 2, "ga')
    seen = []
    resumed = run_strength(["greedy:random"], [2], 4, seed=3, iterations=10, echo=lambda _l: None, out=out,
                           progress=lambda m, p, done, total: seen.append(done))
    assert seen == [3, 4]  # games 2 and 3 only
    assert (resumed[0].wins, resumed[0].mean_score_a) == (whole[0].wins, whole[0].mean_score_a)
    lines = out.read_text().splitlines()
    assert len(lines) == 5 and all(json.loads(line) for line in lines)
    with out.open("a") as f:
        f.write('{"match": "greedy:rand')  # a run still writing: the report reads and leaves the file alone
    before = out.read_text()
    r = CliRunner().invoke(main, ["strength", "--report", str(out)])
    assert r.exit_code == 0 and out.read_text() == before
    assert "greedy vs random     2p  games    4" in r.output and "10 iterations per move" in r.output


def test_strength_out_file_with_other_settings_is_refused(tmp_path):
    out = tmp_path / "s.jsonl"
    run_strength(["greedy:random"], [2], 1, seed=3, iterations=10, echo=lambda _l: None, out=out)
    before = out.read_text()
    with pytest.raises(BadInput, match="other settings"):
        run_strength(["greedy:random"], [2], 1, seed=4, iterations=10, echo=lambda _l: None, out=out)
    assert out.read_text() == before
    bad = tmp_path / "bad.jsonl"
    bad.write_text("hello\n")
    r = CliRunner().invoke(main, ["strength", "--match", "greedy:random", "--games", "1",
                                  "--results", str(bad)])
    assert r.exit_code == 2 and "not a strength result file" in r.output and bad.read_text() == "hello\n"
    r = CliRunner().invoke(main, ["strength", "--report", str(bad)])
    assert r.exit_code == 2 and "not a strength result file" in r.output
    r = CliRunner().invoke(main, ["strength", "--report", str(tmp_path / "none.jsonl")])
    assert r.exit_code == 2 and "no such file" in r.output


def test_rollout_policy_lists_the_same_buys_as_the_generator():
    checked = 0
    for seed in range(4):
        s = new_game(2 + seed, seed=seed)
        s.record_history = False
        while not s.is_terminal():
            if s.phase == "action":
                buys = sorted(a for a in s.legal_actions() if a & 15 == 2)
                assert sorted(_core._search_policy_buys(s)) == buys
                checked += 1
            s.apply(search.greedy_action(s))
    assert checked > 100


def test_partial_apply_matches_apply_on_the_seats_own_effects():
    """apply_partial (greedy's one-ply comparison) mirrors apply_action apart from the turn's end."""
    checked = 0
    for seed in range(3):
        s = new_game(2 + seed, seed=seed)
        s.record_history = False
        while not s.is_terminal():
            me = s.current_player
            for a in s.legal_actions()[:: max(1, len(s.legal_actions()) // 6)]:
                p = _core._search_apply_partial(s, a)
                full = s.clone()
                full.apply(a)
                assert p.hand(me) == full.hand(me) and p.reserve(me) == full.reserve(me)
                assert p.city(me).cells() == full.city(me).cells()
                assert p.building_counts(me) == full.building_counts(me)
                if full.current_player == me and full.turn == s.turn:  # the turn goes on: same state
                    assert p.phase == full.phase and p.pending() == full.pending()
                checked += 1
            s.apply(search.greedy_action(s))
    assert checked > 300


def test_cached_rollout_plays_only_legal_actions():
    """The rollout lists placements from a GenCache kept in step with the state (as inside Mcts): replayed
    through the checked State.apply, every action it played is legal and the game ends the same."""
    for n in (2, 3, 4, 6):
        s = new_game(n, seed=40 + n)
        s.record_history = False
        for _ in range(5 * n):  # some way into the game, so cities have tiles to build around
            s.apply(search.greedy_action(s))
        for seed in range(2):
            actions = _core._search_rollout_actions(s, seed)
            replay = s.clone()
            for a in actions:
                assert a in replay.legal_actions()
                replay.apply(a)
            assert replay.is_terminal()
            direct = s.clone()
            search.search_rollout(direct, seed)  # the public rollout: the same cache, the same game
            assert direct.scores() == replay.scores()


def test_mcts_rolls_out_longer_with_a_long_move_time():
    from alhambra_ai.games.alhambra.search import rollout_turns

    two = Observation(new_game(2, seed=1).observation(0))
    four = Observation(new_game(4, seed=1).observation(0))
    assert rollout_turns(two, {}, 0.1) == 12 and rollout_turns(two, {}, 1.0) == 24
    assert rollout_turns(four, {}, 0.1) == 16 and rollout_turns(four, {}, 1.0) == 32
    assert rollout_turns(four, {}, 0.49) == 16 and rollout_turns(four, {}, 0.5) == 32
    assert rollout_turns(two, {"rollout_turns": 8}, 1.0) == 8   # a configured cut-off always wins
