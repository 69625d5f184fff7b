"""Whole tournaments on the tests' ToyGame: store, standings, resume, --jobs, hostile bots."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest
from tournament_support import GOOD, HERE, HOSTILE, ToyGame, use_toy_game

from alhambra_ai.arena.config import BadInput, Settings
from alhambra_ai.arena.runner import run_tournament
from alhambra_ai.arena.store import RESULTS, load_results
from alhambra_ai.sandbox.process import live_count

TIMING = {"duration", "move_times"}


@pytest.fixture(autouse=True)
def toy(monkeypatch):
    use_toy_game(monkeypatch)


def settings(tmp_path, bots, **kw):
    base = Settings(bots=tuple(str(b) for b in bots), seats="2", games=1, seed=3, move_time=0.5,
                    time_bank=0.5, memory=256, setup_time=20, jobs=1, out=str(tmp_path / "run"))
    return replace(base, **kw)


def run(s, **kw):
    return run_tournament(s, progress=False, out=open(os.devnull, "w"), log=open(os.devnull, "w"), **kw)


def without_timing(results):
    return [{k: v for k, v in r.items() if k not in TIMING} for r in results]


def standings_json(directory):
    return json.loads((directory / "standings.json").read_text())


def replay_toy(record):
    game = ToyGame(record["num_players"], record["seed"])
    for a in record["actions"]:
        game.apply(a)
    return game.scores()


GOOD3 = [GOOD / "first.py", GOOD / "last.py", GOOD / "seeded.py"]


def test_tournament_stores_every_game_and_rates(tmp_path):
    s = settings(tmp_path, GOOD3, seats="2-3", games=2)
    standings = run(s)
    out = tmp_path / "run"
    results = load_results(out)
    assert len(results) == 2 * (3 * 2 + 1 * 3)
    assert [r["game"] for r in results] == sorted(r["game"] for r in results)
    for r in results:
        record = json.loads((out / "games" / f"{r['game']}.json").read_text())
        assert replay_toy(record) == r["scores"] == record["scores"]
        assert len(r["sha256"]) == r["num_players"]
    table = standings_json(out)["standings"]
    assert sum(row["games"] for row in table) == sum(r["num_players"] for r in results)
    assert sum(row["wins"] for row in table) == pytest.approx(len(results))
    assert [row["name"] for row in table] == [st.name for st in standings]
    ratings = [row["rating"] for row in table]
    assert ratings == sorted(ratings, reverse=True)
    assert (out / "standings.csv").read_text().splitlines()[0].startswith("rank,name,rating,mu,sigma,games")
    assert live_count() == 0


def test_hostile_bots_forfeit_and_the_tournament_completes(tmp_path):
    bots = [GOOD / "first.py", GOOD / "last.py", HOSTILE / "raises.py", HOSTILE / "hangs.py",
            HOSTILE / "prints.py", HOSTILE / "malformed.py"]
    s = settings(tmp_path, bots, move_time=0.2, time_bank=0.1, jobs=2)
    run(s)
    results = load_results(tmp_path / "run")
    assert len(results) == 6 * 5  # 15 pairs x 2 rotations
    rows = {row["name"]: row for row in standings_json(tmp_path / "run")["standings"]}
    assert rows["raises"]["forfeits"] == {"raises": 10}
    assert rows["hangs"]["forfeits"] == {"times out": 10}
    assert rows["prints"]["forfeits"] == {"prints to stdout": 10}
    assert rows["malformed"]["forfeits"] == {"malformed action": 10}
    assert rows["first"]["forfeits"] == rows["last"]["forfeits"] == {}
    ranked = [row["name"] for row in standings_json(tmp_path / "run")["standings"]]
    assert set(ranked[:2]) == {"first", "last"}  # every game against an offender is a win
    assert live_count() == 0


def test_jobs_do_not_change_results(tmp_path):
    one = settings(tmp_path, GOOD3, seats="2-3", games=1, out=str(tmp_path / "one"), jobs=1)
    two = replace(one, out=str(tmp_path / "two"), jobs=2)
    run(one)
    run(two)
    assert without_timing(load_results(tmp_path / "one")) == without_timing(load_results(tmp_path / "two"))
    assert standings_json(tmp_path / "one") == standings_json(tmp_path / "two")


def test_resume_after_lost_games_and_a_torn_line(tmp_path):
    full = settings(tmp_path, GOOD3, seats="2-3", games=1, out=str(tmp_path / "full"))
    run(full)
    part = replace(full, out=str(tmp_path / "part"))
    run(part)
    # Lose the second half of the results and tear the last line, as a kill mid-append would.
    path = tmp_path / "part" / RESULTS
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[: len(lines) // 2]) + lines[len(lines) // 2][:25])
    (tmp_path / "part" / "standings.json").unlink()
    assert len(load_results(tmp_path / "part")) == len(lines) // 2
    run(part, resume=True)
    assert without_timing(load_results(tmp_path / "part")) == without_timing(load_results(tmp_path / "full"))
    assert standings_json(tmp_path / "part") == standings_json(tmp_path / "full")
    assert len(path.read_bytes().splitlines()) == len(lines)  # the torn line was cut, nothing counted twice


def test_resume_of_a_finished_run_plays_nothing(tmp_path):
    s = settings(tmp_path, GOOD3[:2])
    run(s)
    before = (tmp_path / "run" / RESULTS).read_bytes()
    run(s, resume=True)
    assert (tmp_path / "run" / RESULTS).read_bytes() == before


def test_existing_run_needs_resume(tmp_path):
    s = settings(tmp_path, GOOD3[:2])
    run(s)
    with pytest.raises(BadInput, match="already holds a tournament.*--resume"):
        run(s)


@pytest.mark.parametrize("change, message", [
    (dict(seed=4), "seed was 3, now 4"),
    (dict(games=2), "games was 1, now 2"),
    (dict(move_time=0.4), "move_time was 0.5, now 0.4"),
    (dict(seats="2-3"), r"seats was \[2\], now \[2, 3\]"),
])
def test_resume_refuses_other_settings(tmp_path, change, message):
    s = settings(tmp_path, GOOD3)
    run(s)
    with pytest.raises(BadInput, match=f"cannot resume .*{message}"):
        run(replace(s, **change), resume=True)


def test_resume_refuses_a_changed_bot_file(tmp_path):
    bot = tmp_path / "mine.py"
    bot.write_text((GOOD / "first.py").read_text())
    s = settings(tmp_path, [bot, GOOD / "last.py"])
    run(s)
    bot.write_text((GOOD / "last.py").read_text())
    with pytest.raises(BadInput, match="bot file .*mine.py changed"):
        run(s, resume=True)
    with pytest.raises(BadInput, match="the bots were last, mine, now first, last"):
        run(replace(s, bots=(str(GOOD / "first.py"), str(GOOD / "last.py"))), resume=True)


def no_workers_left(marker, wait=10.0):
    """True once no process started with ``marker`` in its environment is alive (waits a little:
    workers die asynchronously after their referee)."""
    deadline = time.monotonic() + wait
    while True:
        alive = []
        for env in Path("/proc").glob("[0-9]*/environ"):
            try:
                if marker.encode() in env.read_bytes():
                    alive.append(env.parent.name)
            except OSError:
                pass
        if not alive or time.monotonic() > deadline:
            return not alive
        time.sleep(0.1)


LAUNCH = (f"import sys; sys.path.insert(0, {str(HERE)!r}); import tournament_support as t; t.use_toy_game(); "
          "from alhambra_ai.cli import main; main()")


def cli(*args):
    return [sys.executable, "-c", LAUNCH, "tournament", *map(str, args)]


def marked_env(tmp_path):
    """An environment that marks the processes of this test (other test runs may share the machine)."""
    return {**os.environ, "ALHAMBRA_TEST_MARK": str(tmp_path)}


def test_sigkill_mid_run_then_resume_gives_the_same_standings(tmp_path):
    bots = [GOOD / "first.py", GOOD / "seeded.py", GOOD / "slow_once.py"]
    common = [*bots, "--players", "2-3", "--rounds", "2", "--seed", "5", "--move-time", "0.05",
              "--time-bank", "5", "--memory", "256", "--no-progress"]
    subprocess.run(cli(*common, "--out", tmp_path / "full", "--jobs", "2"), check=True, capture_output=True)
    total = len(load_results(tmp_path / "full"))

    proc = subprocess.Popen(cli(*common, "--out", tmp_path / "part", "--jobs", "2"), env=marked_env(tmp_path),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    results = tmp_path / "part" / RESULTS
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if results.exists() and len(results.read_bytes().splitlines()) >= total // 3:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    stored = len(load_results(tmp_path / "part"))
    assert 0 < stored < total, "the kill should land mid-run"

    assert no_workers_left(str(tmp_path))
    resumed = subprocess.run(cli("--out", tmp_path / "part", "--resume", "--no-progress", "--jobs", "1"),
                             capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{total} games" in resumed.stderr
    assert standings_json(tmp_path / "part") == standings_json(tmp_path / "full")
    ids = [json.loads(line)["game"] for line in results.read_bytes().splitlines()]
    assert sorted(ids) == sorted(set(ids)) and len(ids) == total


def test_ctrl_c_stops_cleanly(tmp_path):
    bots = [GOOD / "first.py", HOSTILE / "hangs.py", GOOD / "last.py"]
    args = [*bots, "--rounds", "3", "--move-time", "5", "--time-bank", "0", "--no-progress",
            "--out", tmp_path / "run"]
    proc = subprocess.Popen(cli(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=marked_env(tmp_path))
    started = ""
    while " games: " not in started and proc.poll() is None:  # the games start after the bots' checks
        started = proc.stderr.readline()
    time.sleep(2)  # games against "hangs" wait for 5 s: some are in progress now
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert "--resume" in err.splitlines()[-1]
    assert no_workers_left(str(tmp_path), wait=0)  # killed before the command returned
    # The standings reflect the stored games, on disk and on screen, with the legend and head to head.
    stored = len(load_results(tmp_path / "run"))
    assert standings_json(tmp_path / "run")["games"] == stored
    assert f"standings of the {stored} stored games of 18:" in out
    assert "rating = mu - 3 sigma" in out and "head to head" in out


def test_no_two_rotations_of_a_deal_are_ever_in_play_at_once(monkeypatch):
    """Whatever --jobs, a deal's seat rotations (games of one seed) run one after another: nothing one of
    them leaves on the machine can reach the other while it plays."""
    from alhambra_ai.arena import runner
    from alhambra_ai.arena.referee import Limits
    from alhambra_ai.arena.schedule import make_schedule

    games = make_schedule(["a", "b", "c"], [2, 3], 2, 7)
    in_play: dict[int, int] = {}
    overlaps, most = [], [0]
    lock = threading.Lock()

    def fake_game(game, bots, limits, stop, beat):
        with lock:
            in_play[game.seed] = in_play.get(game.seed, 0) + 1
            if in_play[game.seed] > 1:
                overlaps.append(game.id)
            most[0] = max(most[0], sum(in_play.values()))
        time.sleep(0.02)
        with lock:
            in_play[game.seed] -= 1
        return {"game": game.id}, {"actions": []}

    monkeypatch.setattr(runner, "run_game", fake_game)
    played = list(runner.LocalBackend(4).play(games, {}, {}, Limits(), lambda text: None))
    assert sorted(g.id for g, _, _ in played) == sorted(g.id for g in games)
    assert overlaps == [] and most[0] == 4  # the jobs are still used


def _makespan(games, jobs, duration, choose):
    """When the last game ends if ``choose`` picks the games to start whenever a slot frees (a simulation:
    no clock); also checks that no two games of a deal overlap."""
    now, running, queue = 0.0, [], list(games)
    while queue or running:
        in_play = {g.seed for _, g in running}
        for game in choose(queue, in_play, jobs - len(running), 4 * jobs):
            assert game.seed not in in_play
            in_play.add(game.seed)
            queue.remove(game)
            running.append((now + duration(game), game))
        running.sort(key=lambda r: r[0])
        now, _ = running.pop(0)
    return now


def _in_queue_order(queue, in_play, free, window):
    chosen, taken = [], set(in_play)
    for game in queue:
        if len(chosen) < free and game.seed not in taken:
            chosen.append(game)
            taken.add(game.seed)
    return chosen


@pytest.mark.parametrize("seats,rounds,jobs",
                         [([2], 2, 2), ([2], 1, 4), ([2, 3, 4], 1, 2), ([2, 3, 4], 2, 4)])
def test_the_deals_left_last_are_not_played_one_rotation_at_a_time(seats, rounds, jobs):
    """With the rotations of a deal kept apart, taking games in queue order can end a run with one deal's
    rotations played one by one while the other slots wait; next_games starts the deals with more games
    left first, near the head of the queue, and the run ends sooner (here: the main job's bots, a game with
    mcts 8 units long, with expectimax 5.5, else 1.2)."""
    from alhambra_ai.arena.runner import next_games
    from alhambra_ai.arena.schedule import make_schedule

    games = make_schedule(["mcts", "expectimax", "greedy", "random"], seats, rounds, 11)

    def duration(game):
        return 8.0 if "mcts" in game.bots else 5.5 if "expectimax" in game.bots else 1.2

    before = _makespan(games, jobs, duration, _in_queue_order)
    after = _makespan(games, jobs, duration, next_games)
    floor = sum(map(duration, games)) / jobs
    assert floor <= after < before
