"""Tournaments, submissions and replays on the real Alhambra engine."""

import io
import json
import os
from dataclasses import replace

import pytest
from click.testing import CliRunner
from tournament_support import GOOD, HERE, HOSTILE

from alhambra_ai.arena import ladder as ladder_module
from alhambra_ai.arena.config import Settings
from alhambra_ai.arena.ladder import Refused, submit
from alhambra_ai.arena.runner import run_tournament
from alhambra_ai.arena.store import load_results
from alhambra_ai.cli import main
from alhambra_ai.formats.record import load_record, replay
from alhambra_ai.sandbox.process import BotSource, live_count
from alhambra_ai.terminal import replay as replay_text

RANDOM = HERE.parent / "bots" / "random.py"
BOTS = [RANDOM, GOOD / "first.py", GOOD / "checks_obs.py", GOOD / "seeded.py"]
NULL = open(os.devnull, "w")  # noqa: SIM115


def settings(tmp_path, **kw):
    base = Settings(bots=tuple(map(str, BOTS)), games=1, seed=2, move_time=1.0, time_bank=2.0, memory=1024,
                    setup_time=20, jobs=2, out=str(tmp_path / "run"))
    return replace(base, **kw)


def replayed_scores(record):
    return replay(record, check_scores=False).scores()


@pytest.mark.parametrize("seats, games", [("2", 6 * 2), ("4", 4)])
def test_engine_tournament(tmp_path, seats, games):
    standings = run_tournament(settings(tmp_path, seats=seats), progress=False, out=NULL, log=NULL)
    results = load_results(tmp_path / "run")
    assert len(results) == games
    assert all(r["forfeits"] == [] for r in results), [r["forfeits"] for r in results if r["forfeits"]]
    for r in results:
        record = load_record(tmp_path / "run" / "games" / f"{r['game']}.json")
        assert replayed_scores(record) == r["scores"]
        assert r["moves"] == len(record["actions"]) > 50
    assert {s.name for s in standings} == {"random", "first", "checks_obs", "seeded"}
    assert sum(s.games for s in standings) == sum(r["num_players"] for r in results)
    assert live_count() == 0


def test_engine_hostile_bot_forfeits(tmp_path):
    s = settings(tmp_path, bots=(str(RANDOM), str(HOSTILE / "illegal.py")), games=1)
    run_tournament(s, progress=False, out=NULL, log=NULL)
    results = load_results(tmp_path / "run")
    assert [[f["reason"] for f in r["forfeits"]] for r in results] == [["illegal action"]] * 2
    assert all(r["ranks"][r["bots"].index("illegal")] == 2 for r in results)
    for r in results:  # the stand-in finished the game: the record replays to the stored scores
        assert replayed_scores(load_record(tmp_path / "run" / "games" / f"{r['game']}.json")) == r["scores"]


def entrant_names(lad):
    return [e["name"] for e in json.loads((lad / "ladder.json").read_text())["entrants"]]


def test_a_new_ladder_starts_with_the_built_in_bots(tmp_path, monkeypatch):
    assert [p.stem for p in ladder_module.BUILTIN_BOTS] == ["random", "greedy", "expectimax", "mcts"]
    assert all(p.is_file() for p in ladder_module.BUILTIN_BOTS)
    # Played here with two fast stand-ins for the built-ins (the real ones take minutes on the toy game).
    monkeypatch.setattr(ladder_module, "BUILTIN_BOTS", [GOOD / "first.py", GOOD / "last.py"])
    monkeypatch.setitem(ladder_module.DEFAULTS, "games", 1)
    lad = tmp_path / "ladder"
    log = io.StringIO()
    rank, n = submit(GOOD / "seeded.py", lad, progress=False, out=io.StringIO(), log=log)
    assert entrant_names(lad) == ["first", "last", "seeded"] and n == 3
    # the newcomer against each built-in, and the built-ins against each other (issue 44: a new ladder's
    # order is right at once), both seatings; said before they are played, with the longest they may take
    ids = sorted(r["game"] for r in load_results(lad))
    assert ids == ["e001-o000-r1-s0", "e001-o000-r1-s1", "e002-o000-r1-s0", "e002-o000-r1-s1",
                   "e002-o001-r1-s0", "e002-o001-r1-s1"]
    assert ("seeded: 6 ladder games (4 against 2 entrants, 2 among the earlier entrants (not yet played)); "
            "about ") in log.getvalue()
    assert "at most " in log.getvalue() and "with --jobs 1" in log.getvalue()
    assert "seeded validated: an Alhambra game against random" in log.getvalue()  # not "a alhambra game"
    before = (lad / "results.jsonl").read_bytes()
    submit(GOOD / "seeded.py", lad, progress=False, out=io.StringIO(), log=io.StringIO())
    assert (lad / "results.jsonl").read_bytes() == before  # nothing left to play


def test_submit_good_then_broken_bot(tmp_path, monkeypatch):
    monkeypatch.setitem(ladder_module.DEFAULTS, "games", 1)
    monkeypatch.setattr(ladder_module, "BUILTIN_BOTS", [ladder_module.RANDOM_BOT])
    lad = tmp_path / "ladder"
    out, log = io.StringIO(), io.StringIO()
    rank, n = submit(GOOD / "seeded.py", lad, progress=False, out=out, log=log)
    assert n == 2 and rank in (1, 2)  # random entered first as the anchor
    assert "seeded validated" in log.getvalue() and "ms per move" in log.getvalue()
    assert f"rank {rank} of 2" in out.getvalue()
    assert entrant_names(lad) == ["random", "seeded"]
    assert (lad / "bots" / "seeded.py").read_text() == (GOOD / "seeded.py").read_text()
    assert len(load_results(lad)) == 2

    with pytest.raises(Refused, match=r"raises refused: raises at move .*RuntimeError: deliberate failure "
                                      r"\(.*raises\.py:\d+\)"):  # where in the bot's file (issue 44)
        submit(HOSTILE / "raises.py", lad, progress=False, out=out, log=log)
    assert entrant_names(lad) == ["random", "seeded"]

    # The same file again changes nothing; a different file under a taken name is refused.
    before = (lad / "results.jsonl").read_bytes()
    submit(GOOD / "seeded.py", lad, progress=False, out=out, log=log)
    assert (lad / "results.jsonl").read_bytes() == before
    other = tmp_path / "seeded.py"
    other.write_text((GOOD / "first.py").read_text())
    with pytest.raises(Exception, match="a different bot named 'seeded'"):
        submit(other, lad, progress=False, out=out, log=log)


def test_a_dice_ladder_plays_its_game_and_refuses_another(tmp_path, monkeypatch):
    monkeypatch.setitem(ladder_module.DEFAULTS, "games", 1)
    monkeypatch.setattr(ladder_module, "BUILTIN_BOTS", [ladder_module.RANDOM_BOT])
    lad = tmp_path / "ladder"
    out, log = io.StringIO(), io.StringIO()
    submit(GOOD / "first.py", lad, progress=False, out=out, log=log, game="dice")
    assert "first validated: a dice game" in log.getvalue()
    assert json.loads((lad / "ladder.json").read_text())["settings"]["game"] == "dice"
    games = sorted((lad / "games").glob("*.json"))
    assert len(games) == 2 and all(load_record(g)["game"] == "dice" for g in games)
    with pytest.raises(Exception, match="plays dice, not alcazaba"):
        submit(GOOD / "last.py", lad, progress=False, out=out, log=log, game="alcazaba")
    assert entrant_names(lad) == ["random", "first"]
    submit(GOOD / "last.py", lad, progress=False, out=out, log=log)     # no --game: the ladder's own
    assert entrant_names(lad) == ["random", "first", "last"]
    result = CliRunner().invoke(main, ["submit", str(GOOD / "seeded.py"), "--ladder", str(lad), "--game",
                                       "alhambra", "--no-progress"])
    assert result.exit_code == 2 and "plays dice, not alhambra" in result.output


def test_submit_command_refuses_with_exit_2(tmp_path):
    result = CliRunner().invoke(main, ["submit", str(HOSTILE / "exits.py"), "--ladder", str(tmp_path / "l"),
                                       "--no-progress"])
    assert result.exit_code == 2
    assert "exits refused: exits" in result.output
    entrants = json.loads((tmp_path / "l" / "ladder.json").read_text())["entrants"]  # made with the ladder
    assert [e["name"] for e in entrants] == [p.stem for p in ladder_module.BUILTIN_BOTS]
    assert load_results(tmp_path / "l") == []


def test_replay_prints_every_move_and_the_final_scores(tmp_path):
    run_tournament(settings(tmp_path, bots=(str(RANDOM), str(GOOD / "first.py"))), progress=False, out=NULL,
                   log=NULL)
    path = tmp_path / "run" / "games" / "g00001.json"
    record = load_record(path)
    out = io.StringIO()
    replay_text.replay(record, out)
    text = out.getvalue()
    assert f"{len(record['actions']):4}. seat" in text
    assert "final scores: " + ", ".join(f"{n} {s}" for n, s in zip(record["seats"], record["scores"],
                                                                     strict=True)) in text
    result = CliRunner().invoke(main, ["replay", str(path), "--step"], input="\n\nq\n")
    assert result.exit_code == 0 and "   3. seat" in result.output and "   4. seat" not in result.output


def test_replay_detects_a_tampered_record(tmp_path):
    run_tournament(settings(tmp_path, bots=(str(RANDOM), str(GOOD / "first.py"))), progress=False, out=NULL,
                   log=NULL)
    path = tmp_path / "run" / "games" / "g00001.json"
    record = json.loads(path.read_text())
    record["actions"][5] = "fly 9"
    path.write_text(json.dumps(record))
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 2 and "action 5 'fly 9' does not replay" in result.output


def test_records_replay_and_hold_the_forfeits(tmp_path):
    s = settings(tmp_path, bots=(str(RANDOM), str(HOSTILE / "raises.py")))
    run_tournament(s, progress=False, out=NULL, log=NULL)
    for r in load_results(tmp_path / "run"):
        record = load_record(tmp_path / "run" / "games" / f"{r['game']}.json")
        assert replay(record).scores() == r["scores"]
        seat = r["bots"].index("raises")
        [f] = r["forfeits"]
        assert record["forfeits"] == [{"seat": seat, "bot": "raises", "reason": "raises", "move": f["move"]}]


def test_replay_names_the_forfeit_reason(tmp_path):
    run_tournament(settings(tmp_path, bots=(str(RANDOM), str(HOSTILE / "raises.py"))), progress=False,
                   out=NULL, log=NULL)
    result = CliRunner().invoke(main, ["replay", str(tmp_path / "run" / "games" / "g00001.json")])
    assert result.exit_code == 0
    assert "raises forfeited at move" in result.output and ": raises; the referee's stand-in" in result.output
    assert "(stand-in)" in result.output


@pytest.mark.slow
def test_engine_tournament_2_to_4_seats_with_hostile_bots_and_resume(tmp_path):
    bots = (*map(str, BOTS), str(HOSTILE / "raises.py"), str(HOSTILE / "memory.py"))
    s = settings(tmp_path, bots=bots, seats="2-4", games=1, memory=512)
    full = run_tournament(s, progress=False, out=NULL, log=NULL)
    results = load_results(tmp_path / "run")
    assert len(results) == 15 * 2 + 20 * 3 + 15 * 4
    reasons = {f["reason"] for r in results for f in r["forfeits"]}
    assert reasons == {"raises", "exceeds memory"}
    path = tmp_path / "run" / "results.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:40]))
    again = run_tournament(replace(s, jobs=1), resume=True, progress=False, out=NULL, log=NULL)
    assert [(x.name, x.mu, x.sigma) for x in again] == [(x.name, x.mu, x.sigma) for x in full]


def test_built_in_names_cannot_be_squatted(tmp_path, monkeypatch):
    """Issue 41: the first submission to a new ladder, a random player named mcts.py, does not take the
    built-in mcts's place; the built-in is entered with the ladder and keeps its name."""
    monkeypatch.setitem(ladder_module.DEFAULTS, "games", 1)
    squat = HERE / "attack_bots" / "squat" / "mcts.py"
    real = [p for p in ladder_module.BUILTIN_BOTS if p.stem == "mcts"]
    monkeypatch.setattr(ladder_module, "BUILTIN_BOTS", [GOOD / "first.py", *real])
    lad = tmp_path / "ladder"
    with pytest.raises(Exception, match="a different bot named 'mcts' is already in the ladder"):
        submit(squat, lad, progress=False, out=io.StringIO(), log=io.StringIO())
    entrants = json.loads((lad / "ladder.json").read_text())["entrants"]
    assert [e["name"] for e in entrants] == ["first", "mcts"]
    assert entrants[1]["sha256"] == BotSource.from_file(real[0]).sha256
    assert (lad / "bots" / "mcts.py").read_bytes() == real[0].read_bytes()
    assert load_results(lad) == []  # refused before any game
