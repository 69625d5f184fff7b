"""The bot sandbox (issue 15): every attack class is contained, honest bots are unaffected, nothing survives.

The attack bots (tests/attack_bots/, one per attack class) raise "ESCAPED: ..." when their attack works.
Each is played against an honest bot on the tests' ToyGame; some are also played without the sandbox,
to show the attack is real and the test can fail.
"""

import os
import subprocess
import sys
import tempfile
import time
from dataclasses import replace

import pytest
from tournament_support import GOOD, HERE, use_toy_game

from alhambra_ai.tournament import sandbox
from alhambra_ai.tournament.config import Settings
from alhambra_ai.tournament.process import BotProcess, BotSource, live_count
from alhambra_ai.tournament.referee import Limits, run_game
from alhambra_ai.tournament.runner import run_tournament
from alhambra_ai.tournament.sandbox import Isolation
from alhambra_ai.tournament.schedule import ScheduledGame
from alhambra_ai.tournament.store import load_results

ATTACK = HERE / "attack_bots"
ATTACKS = sorted(p.stem for p in ATTACK.glob("*.py"))
LIMITS = Limits(move_time=1.0, time_bank=2.0, memory_mb=256, setup_time=20)
FULL = sandbox.isolation()
needs_full_sandbox = pytest.mark.skipif(bool(FULL.missing()), reason=f"this machine's {FULL.summary()}")


@pytest.fixture(autouse=True)
def toy(monkeypatch, tmp_path):
    use_toy_game(monkeypatch)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # workers' private dirs: survivors are findable


@pytest.fixture
def out(tmp_path):
    """A tournament output directory holding secrets (protected like a real results store)."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "tournament.json").write_text('{"seed": 8913728172}\n')
    (out / "results.jsonl").write_text('{"game": "g00001", "seed": 4242}\n')
    sandbox.protect(out)
    return out


def attacker(name: str, out) -> BotSource:
    text = (ATTACK / f"{name}.py").read_text()
    targets = os.pathsep.join(str(GOOD / f) for f in ("first.py", "sleepy.py"))
    for key, value in (("@OUT@", str(out)), ("@REFEREE@", str(os.getpid())), ("@TARGETS@", targets)):
        text = text.replace(key, value)
    return BotSource(name, text.encode())


def play(source: BotSource) -> dict:
    honest = "sleepy" if source.name == "threads" else "first"  # threads needs time between its moves
    bots = {source.name: source, honest: BotSource.from_file(GOOD / f"{honest}.py")}
    result, _ = run_game(ScheduledGame("g00001", (source.name, honest), 5), bots, LIMITS)
    return result


def escapes(result: dict) -> list[str]:
    return [f["detail"].splitlines()[0] for f in result["forfeits"] if "ESCAPED" in f["detail"]]


def survivors(tmp_path) -> list[str]:
    """Processes started for this test (their command line names its private directories)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmdline = f.read()
            with open(f"/proc/{pid}/stat") as f:
                zombie = f.read().rsplit(")", 1)[1].split()[0] == "Z"
        except OSError:
            continue
        if str(tmp_path).encode() in cmdline and not zombie:
            found.append(pid)
    return found


def kill_survivors(tmp_path, grace: float = 3.0) -> list[str]:
    """Processes of this test still alive after ``grace`` seconds (time for SIGKILLed ones to end): killed."""
    deadline = time.monotonic() + grace
    while (found := survivors(tmp_path)) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid in found:
        try:
            os.kill(int(pid), 9)
        except OSError:
            pass
    return found


@needs_full_sandbox
@pytest.mark.parametrize("name", ATTACKS)
def test_attack_is_contained(name, out, tmp_path):
    result = play(attacker(name, out))
    assert escapes(result) == []
    assert all(f["seat"] == 0 for f in result["forfeits"])  # the honest seat plays its whole game
    assert sum(result["scores"]) >= 24
    assert kill_survivors(tmp_path) == [] and live_count() == 0


CONTROLS = ["leak", "signals", "proc", "tamper", "plant", "forkbomb", "memsplit"]


@pytest.mark.parametrize("name", CONTROLS)
def test_attack_works_without_the_sandbox(name, out, tmp_path, monkeypatch):
    monkeypatch.setattr(sandbox, "_isolation", Isolation(False, 0, False))
    result = play(attacker(name, out))
    assert escapes(result), result["forfeits"]
    assert kill_survivors(tmp_path) == []


def test_a_daemon_escapes_only_without_the_sandbox(out, tmp_path, monkeypatch):
    if not FULL.missing():
        play(attacker("daemon", out))
        assert kill_survivors(tmp_path) == []
    monkeypatch.setattr(sandbox, "_isolation", Isolation(False, 0, False))
    play(attacker("daemon", out))
    assert kill_survivors(tmp_path, grace=0), "without the sandbox the daemon should have survived its game"


@needs_full_sandbox
def test_the_worker_reports_the_isolation_in_force():
    with BotProcess(GOOD / "first.py", 256) as proc:
        proc.request(None, 20)
        assert proc.isolation == FULL
    assert FULL.namespaces and FULL.landlock and FULL.seccomp


@needs_full_sandbox
def test_honest_results_are_those_of_a_run_without_attackers(tmp_path):
    """A tournament with attackers: honest bots play all their games, their games against each other
    are the same as in a run without the attackers, the store reads back whole, nothing survives."""
    honest = [GOOD / "first.py", GOOD / "last.py", GOOD / "seeded.py"]
    out = tmp_path / "attacked"
    attackers = []
    for name in ("tamper", "daemon"):
        path = tmp_path / "bots" / f"{name}.py"
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(attacker(name, out).code)
        attackers.append(path)
    base = Settings(seats="2", games=1, seed=11, move_time=1.0, time_bank=2.0, memory=256, setup_time=20,
                    jobs=2)
    devnull = open(os.devnull, "w")
    run_tournament(replace(base, bots=tuple(map(str, honest)), out=str(tmp_path / "clean")),
                   progress=False, out=devnull, log=devnull)
    run_tournament(replace(base, bots=tuple(map(str, honest + attackers)), out=str(out)),
                   progress=False, out=devnull, log=devnull)

    def honest_games(results):
        names = {p.stem for p in honest}
        return sorted((tuple(r["bots"]), r["seed"], tuple(r["scores"]), tuple(r["ranks"])) for r in results
                      if set(r["bots"]) <= names)

    clean, attacked = load_results(tmp_path / "clean"), load_results(out)
    assert len(attacked) == 20 and honest_games(attacked) == honest_games(clean) != []
    assert all(f["bot"] in ("tamper", "daemon") for r in attacked for f in r["forfeits"])
    assert not any("ESCAPED" in f["detail"] for r in attacked for f in r["forfeits"])
    assert kill_survivors(tmp_path) == [] and live_count() == 0


DEGRADED = {  # what each layer alone leaves open (the README's "Security model")
    "no namespaces": (Isolation(False, FULL.landlock, FULL.seccomp), {"disk"}),  # private dir on disk
    "namespaces only": (Isolation(True, 0, False), {"tamper", "plant", "forkbomb", "memsplit"}),
}


@pytest.mark.slow
@needs_full_sandbox
@pytest.mark.parametrize("mode", sorted(DEGRADED))
@pytest.mark.parametrize("name", ATTACKS)
def test_what_each_layer_alone_leaves_open(name, mode, out, tmp_path, monkeypatch):
    """Without user namespaces (Landlock + seccomp + rlimits) only filling the disk works; with namespaces
    alone, writing files the user may write and starting processes (which still die with the namespace)."""
    plan, open_attacks = DEGRADED[mode]
    monkeypatch.setattr(sandbox, "_isolation", plan)
    result = play(attacker(name, out))
    assert bool(escapes(result)) == (name in open_attacks), result["forfeits"]
    assert all(f["seat"] == 0 for f in result["forfeits"])
    assert kill_survivors(tmp_path) == []


def test_concurrent_games_get_different_cpus(tmp_path, monkeypatch):
    monkeypatch.setattr(sandbox, "CPU_LOCKS", tmp_path / "cpus")  # no games of other processes
    everyone = sorted(os.sched_getaffinity(0))
    taken = [sandbox.take_cpu() for _ in everyone]
    try:
        assert sorted(taken) == everyone  # the least used first: no two games share a CPU while one is free
    finally:
        for cpu in taken:
            sandbox.give_cpu(cpu)


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs")
def test_games_of_another_process_count_when_choosing_a_cpu(tmp_path, monkeypatch):
    # two tournaments started side by side must not pin all their games to the same CPU
    monkeypatch.setattr(sandbox, "CPU_LOCKS", tmp_path / "cpus")
    code = ("import sys; from pathlib import Path; from alhambra_ai.tournament import sandbox; "
            f"sandbox.CPU_LOCKS = Path({str(tmp_path / 'cpus')!r}); "
            "print(sandbox.take_cpu(), flush=True); sys.stdin.read()")
    other = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True)
    try:
        theirs = int(other.stdout.readline())
        mine = sandbox.take_cpu()
        sandbox.give_cpu(mine)
        assert mine != theirs
    finally:
        other.stdin.close()
        other.wait(10)
    again = sandbox.take_cpu()  # the other process ended: its lock went with it
    sandbox.give_cpu(again)
    assert again == min(os.sched_getaffinity(0))


def test_a_bot_may_use_its_scratch_space_and_threads_but_not_change_its_file():
    code = b"""
import os, tempfile, threading
class Bot:
    def setup(self, config):
        try:
            open(__file__, "a").close()
        except OSError:
            pass
        else:
            raise RuntimeError("ESCAPED: its own file is writable")
        with open("notes.txt", "w") as f:
            f.write("x" * 100000)
        with tempfile.TemporaryFile() as f:
            f.write(b"y" * 100000)
        t = threading.Thread(target=sum, args=(range(1000),))
        t.start()
        t.join()
    def act(self, obs):
        return obs.legal_actions[0]
"""
    result = play(BotSource("scratch", code))
    assert result["forfeits"] == []


def test_the_probe_gets_all_that_the_machine_offers():
    """A sandbox that silently fell back (a bug in a confinement step) would skip the tests above."""
    assert FULL.missing() == sandbox.offered().missing()
