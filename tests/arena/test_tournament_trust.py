"""What makes a tournament's results trustworthy besides the sandbox (issue 15): secret seeds, a checked
store, verified ladder entrants, escaped bot text, and the isolation in force said, stored and required."""

import io
import json
import os
import re
import time
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from tournament_support import GOOD, StallingGame, settled, use_toy_game

from alhambra_ai.arena import config, referee
from alhambra_ai.arena.config import BadInput, Settings
from alhambra_ai.arena.ladder import Ladder
from alhambra_ai.arena.referee import Heartbeat, Limits, run_game
from alhambra_ai.arena.runner import run_tournament
from alhambra_ai.arena.schedule import ScheduledGame, derive_seed, make_schedule, seat_seed, stable_seed
from alhambra_ai.arena.store import FAILED, RESULTS, StoreError, load_results
from alhambra_ai.cli import main
from alhambra_ai.sandbox import process
from alhambra_ai.sandbox.launch import Isolation
from alhambra_ai.sandbox.process import BotSource, printable

BOTS = (str(GOOD / "first.py"), str(GOOD / "seeded.py"))
BASE = Settings(bots=BOTS, seats="2", games=1, move_time=1.0, time_bank=1.0, memory=256, setup_time=20,
                jobs=1)


@pytest.fixture(autouse=True)
def toy(monkeypatch):
    use_toy_game(monkeypatch)


def run(s, log=None):
    devnull = open(os.devnull, "w")
    return run_tournament(s, resume=os.path.exists(os.path.join(s.out, "tournament.json")), progress=False,
                          out=devnull, log=log or devnull)


def test_seeds_are_keyed_by_the_master_seed():
    games = make_schedule(["a", "b", "c"], seats=[2], repeats=1, master_seed=5)
    assert games == make_schedule(["c", "b", "a"], seats=[2], repeats=1, master_seed=5)  # deterministic
    # Not the unkeyed hash of the public parts: without the master seed no game's seed can be computed.
    assert games[0].seed == derive_seed(5, "r1", 2, "a,b") != stable_seed(5, "r1", 2, "a,b")
    assert seat_seed(games[0].seed, 0) != seat_seed(games[0].seed, 1) != games[0].seed
    assert derive_seed(2**63 - 1, "x") != derive_seed(0, "x")


def test_the_default_master_seed_is_random_stored_and_kept_on_resume(tmp_path):
    logs = []
    for name in ("a", "b"):
        with open(tmp_path / f"{name}.log", "w") as log:
            run(replace(BASE, out=str(tmp_path / name)), log=log)
        logs.append((tmp_path / f"{name}.log").read_text())
    seeds = [json.loads((tmp_path / d / "tournament.json").read_text())["seed"] for d in ("a", "b")]
    assert seeds[0] != seeds[1] and all(f"master seed {s}" in log for s, log in zip(seeds, logs, strict=True))
    (tmp_path / "a" / RESULTS).write_text("")  # lose the games: a resume replays them from the stored seed
    before = {r["game"]: r["seed"] for r in load_results(tmp_path / "b")}
    run(replace(BASE, out=str(tmp_path / "a")))
    assert {r["game"]: r["seed"] for r in load_results(tmp_path / "a")}.keys() == before.keys()
    assert json.loads((tmp_path / "a" / "tournament.json").read_text())["seed"] == seeds[0]


def test_the_isolation_is_said_stored_and_can_be_required(tmp_path, monkeypatch):
    monkeypatch.setattr(process, "_isolation", Isolation(namespaces=False, landlock=3, seccomp=True))
    with pytest.raises(BadInput, match="--require-sandbox: this machine lacks namespaces"):
        run(replace(BASE, out=str(tmp_path / "req"), require_sandbox=True))
    assert not (tmp_path / "req").exists()
    with open(tmp_path / "log", "w") as log:
        run(replace(BASE, out=str(tmp_path / "ok")), log=log)
    said = [line for line in (tmp_path / "log").read_text().splitlines() if line.startswith("sandbox:")]
    assert said == ["sandbox: Landlock ABI 3, seccomp; NOT available: namespaces, cgroup (so open: "
                    "the host's tree, shared lookups of missing names; memory outside the address space, "
                    "threads); caps per worker: memory 256 MB address space (memfd, SysV IPC refused); "
                    "tasks 1 (threads refused)"]
    record = json.loads((tmp_path / "ok" / "tournament.json").read_text())["isolation"]
    assert record == {"namespaces": False, "landlock": 3, "seccomp": True, "cgroup": False,
                      "missing": ["namespaces", "cgroup"],
                      "caps": {"memory": "256 MB address space (memfd, SysV IPC refused)",
                               "tasks": "1 (threads refused)"}}


def test_switched_off_mechanisms_degrade_and_the_cli_refuses_with_require(tmp_path, monkeypatch):
    monkeypatch.setattr(process, "_isolation", None)  # probe again, with Landlock switched off
    monkeypatch.setenv("ALHAMBRA_AI_SANDBOX_OFF", "landlock")
    result = CliRunner().invoke(main, ["tournament", *BOTS, "--require-sandbox", "--out", str(tmp_path / "r"),
                                       "--no-progress"])
    assert result.exit_code == 2 and "lacks landlock" in result.output
    assert process.isolation().landlock == 0


def test_damaged_result_lines_are_refused(tmp_path):
    good = {"game": "g1", "bots": ["a", "b"], "scores": [3, 1], "ranks": [1, 2], "forfeits": []}
    forged = {**good, "game": "g2", "ranks": [1, 2, 3]}
    (tmp_path / RESULTS).write_text("\n".join(json.dumps(r) for r in (good, forged, good)) + "\n")
    with pytest.raises(StoreError, match="line 2 is damaged"):
        load_results(tmp_path)


def test_a_ladder_entrant_changed_on_disk_is_refused(tmp_path):
    ladder = Ladder(tmp_path)
    ladder.enter(BotSource.from_file(GOOD / "first.py"))
    assert ladder.sources()["first"].code == (GOOD / "first.py").read_bytes()
    with open(tmp_path / "bots" / "first.py", "a") as f:
        f.write("# changed\n")
    with pytest.raises(StoreError, match="changed since it entered"):
        ladder.sources()


def test_bot_text_is_escaped_and_unprintable_names_refused(tmp_path):
    code = b"class Bot:\n    def act(self, obs):\n        raise RuntimeError('\\x1b[2J\\x07')\n"
    evil = BotSource("evil", code)
    first = BotSource.from_file(GOOD / "first.py")
    result, _ = run_game(ScheduledGame("g1", ("evil", "first"), 3), {"evil": evil, "first": first},
                         Limits(move_time=1.0, time_bank=1.0, memory_mb=256, setup_time=20))
    detail = result["forfeits"][0]["detail"]
    assert "\\x1b[2J\\x07" in detail and "\x1b" not in detail
    assert printable("a\tb\nc") == "a\\tb\nc"
    weird = tmp_path / "bad\x1b[31mname.py"
    weird.write_bytes(first.code)
    with pytest.raises(BadInput, match="unprintable"):
        run(replace(BASE, bots=(str(weird), BOTS[0]), out=str(tmp_path / "w")))


@pytest.fixture
def stalling(monkeypatch):
    """Games whose referee stalls (StallingGame), under a watchdog of 2.5 s."""
    monkeypatch.setattr(StallingGame, "stalled", False)       # (shared: each test stalls once)
    monkeypatch.setattr(StallingGame, "stuck_seed", None)
    monkeypatch.setattr(referee, "new_game", StallingGame)
    monkeypatch.setattr(Heartbeat, "longest_step", staticmethod(lambda limits: 0.5))
    monkeypatch.setattr(referee, "WATCHDOG_GRACE", 2.0)


def test_a_stalled_game_is_played_again_and_the_run_goes_on(tmp_path, stalling):
    log = io.StringIO()
    run(replace(BASE, out=str(tmp_path / "r"), jobs=2), log=log)
    assert len(load_results(tmp_path / "r")) == 2
    assert settled()
    assert re.search(r"game g0000\d failed \(its referee made no progress for \d+ s.*playing it again",
                     log.getvalue()), log.getvalue()
    assert not (tmp_path / "r" / FAILED).exists()


def test_a_game_that_always_stalls_is_recorded_failed_and_never_replayed(tmp_path, stalling):
    games = make_schedule([Path(b).stem for b in BOTS], [2], 2, 1)
    StallingGame.stuck_seed = games[2].seed  # the second deal: both its rotations stall, every time
    out = tmp_path / "r"
    log = io.StringIO()
    started = time.monotonic()
    run(replace(BASE, out=str(out), games=2, seed=1), log=log)
    assert time.monotonic() - started < 2 * referee.MAX_ATTEMPTS * 8 + 30
    assert sorted(r["game"] for r in load_results(out)) == ["g00001", "g00002"]
    failed = [json.loads(line) for line in (out / FAILED).read_text().splitlines()]
    assert sorted(f["game"] for f in failed) == ["g00003", "g00004"] and settled()
    assert "recorded as failed" in log.getvalue() and "2 game(s) failed (not rated)" in log.getvalue()
    again = time.monotonic()
    run(replace(BASE, out=str(out), games=2, seed=1))  # --resume: nothing left to play
    assert time.monotonic() - again < 5
    assert len(load_results(out)) == 2


def test_an_oversized_bot_file_is_refused_before_any_worker(tmp_path, monkeypatch):
    monkeypatch.setattr(config, "MAX_BOT_BYTES", 10)
    with pytest.raises(BadInput, match=r"first\.py is larger than 0 MB"):
        run(replace(BASE, out=str(tmp_path / "big")))
