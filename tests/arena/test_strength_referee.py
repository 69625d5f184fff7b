"""`strength` with bot files (the tournament's referee, config and forfeits), one bot seated several times
(`--lineup`, `greedy#2`), per-side move times (`mcts@1`), and seeds of any size for the bots' helpers.

The command tests run on the tests' ToyGame (tournament_support): the machinery, not Alhambra, is tested."""

import json
import time

import pytest
from click.testing import CliRunner
from tournament_support import GOOD, HOSTILE, StallingGame, settled, use_toy_game

from alhambra_ai import new_game, state_to_json
from alhambra_ai.arena.store import load_results
from alhambra_ai.arena.strength import report
from alhambra_ai.bot import toolkit as search
from alhambra_ai.cli import main

FIRST, LAST = str(GOOD / "first.py"), str(GOOD / "last.py")
FAST = ["--players", "2", "--move-time", "0.5", "--time-bank", "0.5", "--no-progress", "--seed", "1"]

CHECKS_CONFIG = '''
"""Raises in setup unless it got the tournament's config: then it forfeits with the reason."""

class Bot:
    def setup(self, config):
        assert set(config) >= {"seat", "num_players", "options", "seed", "move_time", "time_bank"}, config
        assert isinstance(config["seed"], int) and 0 <= config["seed"] < 2 ** 63, config
        assert config["move_time"] == MOVE_TIME and config["time_bank"] == 0.5, config

    def act(self, obs):
        assert obs.move_time == MOVE_TIME and obs.time_left is not None
        return obs.legal_actions[0]
'''


@pytest.fixture
def toy(monkeypatch):
    use_toy_game(monkeypatch)


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def config_bot(tmp_path, name="checks", move_time=0.5):
    path = tmp_path / f"{name}.py"
    path.write_text(CHECKS_CONFIG.replace("MOVE_TIME", repr(move_time)))
    return path


def games_in(path):
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def test_an_illegal_move_is_a_forfeit_not_a_crash_of_the_run(toy, tmp_path):
    out = tmp_path / "s.jsonl"
    illegal = HOSTILE / "illegal.py"
    r = invoke("strength", "--match", f"{illegal}:{FIRST}", "--games", "2", "--results", out, *FAST)
    assert r.exit_code == 0, r.output
    assert "win   0.0%" in r.output and "forfeits illegal (illegal action) 2" in r.output
    games = games_in(out)
    assert len(games) == 2 and all(g["forfeits"][0]["reason"] == "illegal action" for g in games)
    assert all(g["ranks"][g["bots"].index("illegal")] == 2 for g in games)  # the forfeiter ranks last
    _settings, rows = report(out)
    assert rows[0].wins == 0 and rows[0].forfeits == {"illegal (illegal action)": 2}


def test_a_bot_file_gets_the_tournament_config_and_its_own_process_per_seat(toy, tmp_path, monkeypatch):
    from alhambra_ai.arena import referee

    pids = []

    class Recorded(referee.BotProcess):
        def __init__(self, *args, **kw):
            super().__init__(*args, **kw)
            pids.append(self.proc.pid)

    monkeypatch.setattr(referee, "BotProcess", Recorded)
    checks = config_bot(tmp_path)
    out = tmp_path / "s.jsonl"
    r = invoke("strength", "--lineup", f"{FIRST},{checks},{checks},{checks}", "--games", "4",
               "--results", out, *FAST)
    assert r.exit_code == 0, r.output
    assert "forfeits" not in r.output and "first vs checks" in r.output and " 4p " in r.output
    games = games_in(out)
    assert [g["bots"] for g in games[:2]] == [["first", "checks", "checks#2", "checks#3"],
                                              ["checks#3", "first", "checks", "checks#2"]]
    assert all(not g["forfeits"] for g in games)
    assert len(set(pids)) == len(pids) == 4 * 4  # every seat of every game: a process of its own

    # the same file in a tournament gets the same config (a failed assert would be a forfeit)
    r = invoke("tournament", "--lineup", f"{checks},{checks}", "--rounds", "1", "--out", tmp_path / "t",
               "--move-time", "0.5", "--time-bank", "0.5", "--no-progress")
    assert r.exit_code == 0, r.output
    results = load_results(tmp_path / "t")
    assert [r["bots"] for r in results] == [["checks", "checks#2"], ["checks#2", "checks"]]
    assert all(not res["forfeits"] for res in results)


def test_a_side_with_its_own_move_time(toy, tmp_path):
    fast = config_bot(tmp_path, "fast", 0.5)
    slow = config_bot(tmp_path, "slow", 0.75)
    out = tmp_path / "s.jsonl"
    r = invoke("strength", "--match", f"{slow}@0.75:{fast}", "--games", "2", "--results", out, *FAST)
    assert r.exit_code == 0, r.output
    games = games_in(out)
    assert games[0]["bots"] == ["slow@0.75", "fast"] and all(not g["forfeits"] for g in games)


def test_all_matches_share_one_queue_and_the_table_keeps_its_order(toy, tmp_path):
    # --jobs 2 over two matches: the games of both are queued together (no core waits for the last game of
    # a match), yet the rows come out in the order asked and the results equal a one-at-a-time run
    runs = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"s{jobs}.jsonl"
        r = invoke("strength", "--match", f"{FIRST}:{LAST}", "--match", f"{LAST}:{FIRST}", "--games", "4",
                   "--players", "2,3", "--jobs", jobs, "--results", out, *FAST[2:])
        assert r.exit_code == 0, r.output
        rows = [line.split("win")[0].split()[:4] for line in r.output.splitlines() if " win " in line]
        assert rows == [["first", "vs", "last", "2p"], ["first", "vs", "last", "3p"],
                        ["last", "vs", "first", "2p"], ["last", "vs", "first", "3p"]]
        runs[jobs] = sorted((g["id"], g["bots"], g["scores"]) for g in games_in(out))
    assert len(runs["1"]) == 16 and runs["1"] == runs["2"]


def test_tournament_lineup_from_a_definition(toy, tmp_path):
    (tmp_path / "t.toml").write_text(f'lineup = ["{FIRST}", "{LAST}", "{LAST}"]\ngames = 1\n'
                                     'move_time = 0.5\ntime_bank = 0.5\n')
    r = invoke("tournament", "--config", tmp_path / "t.toml", "--out", tmp_path / "r", "--no-progress")
    assert r.exit_code == 0, r.output
    assert "last#2" in r.output
    assert sorted(tuple(g["bots"]) for g in load_results(tmp_path / "r")) == [
        ("first", "last", "last#2"), ("last", "last#2", "first"), ("last#2", "first", "last")]
    r = invoke("tournament", "--out", tmp_path / "r", "--resume", "--no-progress")  # resumes from the run
    assert r.exit_code == 0 and len(load_results(tmp_path / "r")) == 3


def test_two_files_of_one_name_in_two_matches_each_play_their_own_games(toy, tmp_path):
    # the seat name "first" means GOOD/first.py in one match and a copy of last.py in the other: the
    # tournament's backend takes one bot per name, so the matches go to it in two batches
    (tmp_path / "other").mkdir()
    impostor = tmp_path / "other" / "first.py"
    impostor.write_text((GOOD / "last.py").read_text())
    out = tmp_path / "s.jsonl"
    r = invoke("strength", "--match", f"{impostor}:{LAST}", "--match", f"{FIRST}:{LAST}", "--games", "2",
               "--results", out, *FAST)
    assert r.exit_code == 0, r.output
    games = {(g["match"].split(":")[0], g["game"]): g for g in games_in(out)}
    assert len(games) == 4
    for g in (0, 1):  # against last (+3 a move), a copy of last ties, first (+1 a move) loses
        assert games[(str(impostor), g)]["ranks"] == [1, 1]
        assert games[(FIRST, g)]["ranks"][games[(FIRST, g)]["bots"].index("first")] == 2


def test_strength_and_sprt_run_under_the_tournaments_watchdog(tmp_path, monkeypatch):
    from alhambra_ai.arena import referee

    monkeypatch.setattr(StallingGame, "stalled", False)       # (shared: each test stalls once)
    monkeypatch.setattr(StallingGame, "stuck_seed", None)
    monkeypatch.setattr(referee, "new_game", StallingGame)
    monkeypatch.setattr(referee.Heartbeat, "longest_step", staticmethod(lambda limits: 0.5))
    monkeypatch.setattr(referee, "WATCHDOG_GRACE", 2.0)
    for command in (["strength", "--match", f"{FIRST}:{LAST}", "--games", "2", *FAST],
                    ["sprt", FIRST, LAST, "--max-games", "4", *FAST[2:]]):
        StallingGame.stalled = False
        started = time.monotonic()
        r = invoke(*command)  # the stalled game is played again: the run ends as it would have
        assert r.exit_code == 0 and "made no progress" in r.output and "playing it again" in r.output, \
            r.output
        assert time.monotonic() - started < 5 + 30 and settled()


@pytest.mark.parametrize("args, message", [
    (["--lineup", "nope.py,nope.py"], "bot file not found"),
    (["--lineup", "x.py"], "2-6 seats"),
])
def test_tournament_lineup_bad_input(tmp_path, args, message):
    r = invoke("tournament", *args, "--out", tmp_path / "r", "--no-progress")
    assert r.exit_code == 2 and message in r.output


@pytest.mark.parametrize("args, message", [
    (["--match", "greedy"], "write A:B"),
    (["--lineup", "greedy"], "write A,B"),
    (["--match", "greedy@x:random"], "NAME@SECONDS"),
    (["--match", "greedy@-1:random"], "positive"),
    (["--lineup", "greedy,nope"], "no bot file"),
])
def test_strength_bad_input_is_exit_2(args, message):
    r = invoke("strength", *args, "--games", "1")
    assert r.exit_code == 2 and message in r.output, r.output


@pytest.mark.parametrize("seed", [0, -1, -(10 ** 30), 2 ** 64, 2 ** 200 + 5, 2 ** 63 - 1])
def test_seeds_of_any_size_are_reduced_not_refused(seed):
    s = new_game(2, seed=1)
    obs = s.observation(s.current_player)
    d = search.determinize(obs, seed)
    assert d.observation(obs["seat"]) == obs
    # reduced modulo 2**64: the same sample as the reduced seed
    assert state_to_json(d) == state_to_json(search.determinize(obs, seed % 2 ** 64))
    search.search_resample(d, seed)
    search.search_rollout(d.clone(), seed, 4)
    m = search.Mcts([d], seed)
    assert m.run(8, 0.0) == 8
    assert search.move_seed(seed, obs) >= 0


def test_a_seed_that_is_not_an_int_is_refused():
    s = new_game(2, seed=1)
    obs = s.observation(s.current_player)
    with pytest.raises((TypeError, ValueError)):
        search.determinize(obs, 1.5)
    with pytest.raises(TypeError):
        search.Mcts([search.determinize(obs, 1)], "7")


def test_play_gives_a_bot_the_seed_a_tournament_gives():
    from pathlib import Path

    from alhambra_ai.arena.schedule import seat_seed
    from alhambra_ai.terminal.session import SeatBot

    bot = SeatBot(Path(FIRST), 1, 2, {}, 7, 0.5)
    try:
        assert bot.config["seed"] == seat_seed(7, 1) != 7 and 0 <= bot.config["seed"] < 2 ** 63
    finally:
        bot.close()


@pytest.mark.slow
def test_mcts_beats_greedy_with_a_fixed_iteration_budget():
    """The ladder's top rung on a budget that does not depend on the machine: mcts at 1,500 iterations per
    move (a deterministic run, refereed like any other) wins most 2-player games against greedy."""
    from alhambra_ai.arena.strength import run_strength

    rows = run_strength(["mcts:greedy"], [2], 10, seed=5, move_time=2.0, iterations=1500,
                        echo=lambda _l: None)
    assert rows[0].games == 10 and not rows[0].forfeits
    assert rows[0].wins >= 7, rows[0].row()


def test_an_iteration_budget_reaches_every_seat_whatever_its_file_is_called():
    """``--iterations`` gives every seat's setup both budgets (mcts reads ``iterations``, expectimax
    ``samples``): a bot file of another name (a candidate, a frozen copy) is on the same budget, not the
    clock."""
    from alhambra_ai.arena.strength import Match

    fixtures = "tests/fixtures/dice_mcts_learned.py:tests/fixtures/dice_expectimax_frozen.py"
    limits = Match(fixtures, iterations=300, game="dice").limits(2)
    assert len(limits.budgets) == 2
    assert all(b == {"iterations": 300, "samples": 30} for b in limits.budgets.values())
    assert Match("mcts:greedy").limits(2).budgets == {}
