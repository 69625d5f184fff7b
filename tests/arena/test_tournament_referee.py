"""The referee: bots in worker processes, forfeits with reasons, the game always completes.

Played on the tests' ToyGame (tournament_support.py) so the machinery is tested fast and on its own.
"""

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from tournament_support import GOOD, HOSTILE, use_toy_game

from alhambra_ai.arena.referee import Limits, final_ranks, run_game
from alhambra_ai.arena.schedule import ScheduledGame
from alhambra_ai.sandbox import cgroup, process
from alhambra_ai.sandbox.process import live_count

LIMITS = Limits(move_time=0.3, time_bank=0.2, memory_mb=256, setup_time=20)


@pytest.fixture(autouse=True)
def toy(monkeypatch):
    use_toy_game(monkeypatch)


def play(*files, seed=5, limits=LIMITS):
    names = tuple(f.stem for f in files)
    return run_game(ScheduledGame("g00001", names, seed), {f.stem: str(f) for f in files}, limits)


def test_good_bots_play_a_whole_game():
    result, record = play(GOOD / "first.py", GOOD / "last.py", GOOD / "seeded.py")
    assert result["forfeits"] == []
    assert sum(result["scores"]) >= 24 and result["moves"] == len(record["actions"])
    assert record["seats"] == ["first", "last", "seeded"] and record["format"] == "alhambra-ai-record"
    assert all(t["moves"] > 0 for t in result["move_times"])
    assert live_count() == 0


def test_numpy_integer_actions_are_accepted():
    result, _ = play(GOOD / "numpy_int.py", GOOD / "first.py")
    assert result["forfeits"] == []


def test_same_seed_same_game():
    a, ra = play(GOOD / "seeded.py", GOOD / "last.py", seed=9)
    b, rb = play(GOOD / "seeded.py", GOOD / "last.py", seed=9)
    assert ra["actions"] == rb["actions"] and a["scores"] == b["scores"]


@pytest.mark.parametrize(
    "bot, reason, detail",
    [
        ("raises", "raises", "RuntimeError: deliberate failure"),
        ("hangs", "times out", "no reply within"),
        ("spins", "times out", "no reply within"),
        ("exits", "exits", "exit code 3"),
        ("sys_exit", "exits", "exit(0)"),
        ("crashes", "crashes", "SIGSEGV"),
        ("illegal", "illegal action", "not a legal action"),
        ("bad_text", "illegal action", "fly to the moon"),
        ("malformed", "malformed action", "not an int or str"),
        ("prints", "prints to stdout", "stdout"),
        ("writes_fd1", "prints to stdout", "stdout"),
        ("memory", "exceeds memory", "MemoryError"),
        ("no_bot", "load error", "defines no class Bot"),
        ("forks", "raises", "PermissionError"),
    ],
)
def test_hostile_bot_forfeits_and_the_game_goes_on(bot, reason, detail):
    result, record = play(GOOD / "first.py", HOSTILE / f"{bot}.py", GOOD / "last.py")
    assert [(f["seat"], f["bot"], f["reason"]) for f in result["forfeits"]] == [(1, bot, reason)]
    assert detail in result["forfeits"][0]["detail"]
    assert result["ranks"][1] == 3  # ranked last, whatever its stand-in scored
    assert sum(result["scores"]) >= 24  # the game was played to the end
    move = result["forfeits"][0]["move"]
    assert record["forfeits"] == [{"seat": 1, "bot": bot, "reason": reason, "move": move}]
    assert live_count() == 0


def test_forfeit_stand_in_is_deterministic():
    a, ra = play(HOSTILE / "raises.py", GOOD / "seeded.py", seed=3)
    b, rb = play(HOSTILE / "raises.py", GOOD / "seeded.py", seed=3)
    assert ra["actions"] == rb["actions"] and a["ranks"] == b["ranks"] == [2, 1]


def test_time_bank_pays_for_a_slow_move():
    limits = Limits(move_time=0.2, time_bank=2.0, memory_mb=256, setup_time=20)
    result, _ = play(GOOD / "slow_once.py", GOOD / "first.py", limits=limits)
    assert result["forfeits"] == []
    assert result["move_times"][0]["max"] > 0.2


def test_slow_move_without_bank_times_out():
    limits = Limits(move_time=0.2, time_bank=0.0, memory_mb=256, setup_time=20)
    result, _ = play(GOOD / "slow_once.py", GOOD / "first.py", limits=limits)
    assert [f["reason"] for f in result["forfeits"]] == ["times out"]


def test_noisy_stderr_does_not_block_or_forfeit():
    result, _ = play(HOSTILE / "stderr_spam.py", GOOD / "first.py")
    assert result["forfeits"] == []


def test_two_forfeiters_tie_for_last():
    result, _ = play(HOSTILE / "raises.py", GOOD / "first.py", HOSTILE / "illegal.py")
    assert result["ranks"] == [2, 1, 2]


def test_final_ranks():
    assert final_ranks([1, 2, 3], set()) == [1, 2, 3]
    assert final_ranks([1, 1, 3], {0}) == [3, 1, 2]
    assert final_ranks([2, 1], {0, 1}) == [1, 1]


def test_forking_is_refused_and_nothing_survives():
    result, _ = play(HOSTILE / "forks.py", GOOD / "first.py")
    assert result["forfeits"][0]["reason"] == "raises"
    assert "PermissionError" in result["forfeits"][0]["detail"]
    out = subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True).stdout
    assert "alhambra-bot-" not in out


def test_workers_die_with_their_referee():
    """Workers whose referee is gone end by themselves: one hung in a move, one stopped between moves."""
    # A middleman starts two workers, asks one for a move (the bot hangs in it), leaves the other stopped
    # after its hello, and dies without cleaning up: only the lifeline can end them.
    script = ("import os; from alhambra_ai.sandbox.process import BotProcess, BotFailure; "
              f"a, b = BotProcess({str(HOSTILE / 'hangs.py')!r}), BotProcess({str(HOSTILE / 'hangs.py')!r}); "
              "a.request(None, 30); b.request(None, 30)\n"
              "try: a.request({'cmd': 'act', 'obs': {}}, 0.5)\n"
              "except BotFailure: pass\n"
              "print(os.getpid(), a.proc.pid, b.proc.pid, b._worker_pid or b.proc.pid, a.private, b.private, "
              "flush=True); "
              "os._exit(0)")
    child = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    middleman, *pids, private_a, private_b = child.stdout.split()
    pids = [int(p) for p in pids]
    assert len(pids) == 3, child.stderr
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        alive = [p for p in pids if _running(p)]
        if not alive:
            if process.isolation().namespaces:  # the namespace's init removes the private directories
                assert not os.path.exists(private_a) and not os.path.exists(private_b)
            # their cgroups are left (empty) to the next referee's sweep, which removes them
            theirs = f"{cgroup.PREFIX}{process._referee_tag(int(middleman))}-"
            if process.isolation().cgroup:
                assert len(_cgroups_named(theirs)) == 2 * len(cgroup.parents())
                assert cgroup.sweep(process._referee_gone) >= 2
            assert _cgroups_named(theirs) == []
            return
        time.sleep(0.1)
    for p in alive:
        os.kill(p, 9)
    pytest.fail(f"orphaned workers were still running: {alive}")


def test_worker_dirs_of_a_dead_referee_are_swept(tmp_path, monkeypatch):
    """A referee killed outright (its whole process tree, as Ray's cancel or a lost node does) leaves its
    workers' private directories: the next referee's first worker removes them, and nothing else."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    dead, live = process._referee_tag(gone.pid), process._referee_tag(os.getpid())
    old = time.time() - 2 * process.STALE_AFTER
    outside = tmp_path / "users_file"
    outside.write_text("mine")
    outside.chmod(0o644)

    def make(name: str, when: float = old, full: bool = False):
        d = tmp_path / name
        d.mkdir()
        if full:  # as a worker without namespaces leaves it: a read-only bot/, a bot's symlinks
            (d / "bot").mkdir()
            (d / "bot" / "x.py").write_text("x")
            (d / "bot").chmod(0o555)
            (d / "work").mkdir()
            (d / "work" / "link").symlink_to(outside)
            (d / "escape").symlink_to(tmp_path)
        os.utime(d, (when, when))
        return d

    stale = [make(f"alhambra-bot-{dead}-a1"), make(f"alhambra-bot-{dead}-b2", full=True)]
    kept = [make(f"alhambra-bot-{dead}-c3", when=time.time()),   # changed lately
            make(f"alhambra-bot-{live}-d4"),                     # a live referee's
            make(f"alhambra-bot-1.{gone.pid}-e5"),               # a pid of another PID namespace
            make("alhambra-bot-f6"), make("alhambra-botany")]    # no referee in the name: not ours
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(process, "_swept", False)
    mine = process._private_dir()
    assert os.path.basename(mine).startswith(f"alhambra-bot-{live}-")
    assert not any(d.exists() for d in stale) and all(d.exists() for d in kept)
    assert outside.read_text() == "mine" and outside.stat().st_mode & 0o777 == 0o644
    assert process.sweep_stale_dirs(str(tmp_path)) == 0  # what is left is not to be swept


def test_removing_a_private_dir_leaves_its_parent_alone(tmp_path):
    """The referee may find the directory gone (the namespace's init removed it) or not removable: its
    parent (/tmp in real use) keeps its mode."""
    parent = tmp_path / "tmp"
    parent.mkdir()
    parent.chmod(0o1777)
    process.remove_private(str(parent / "alhambra-bot-gone"))
    assert parent.stat().st_mode & 0o7777 == 0o1777
    (parent / "alhambra-bot-ro").mkdir()
    parent.chmod(0o1555)  # its entry cannot be removed (but by root)
    process.remove_private(str(parent / "alhambra-bot-ro"))
    assert parent.stat().st_mode & 0o7777 == 0o1555
    parent.chmod(0o1777)
    process.remove_private(str(parent / "alhambra-bot-ro"))
    assert parent.stat().st_mode & 0o7777 == 0o1777 and not (parent / "alhambra-bot-ro").exists()


def _cgroups_named(prefix: str) -> list[str]:
    return [e for d in cgroup.parents().values() if os.path.isdir(d) for e in os.listdir(d)
            if e.startswith(prefix)]


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended
    except OSError:
        return False


def _hostile_tree(private, outside) -> None:
    """What a bot can leave in its private directory (issue 41): mode-000 trees, a deep tree, a FIFO, a
    socket, hard links, symlinks to its user's files and directories, unprintable names. The cleanup must
    not chmod or empty what a link points to."""
    (private / "locked" / "inner").mkdir(parents=True)
    (private / "locked" / "inner" / "f").write_text("x")
    (private / "locked" / "inner").chmod(0)
    (private / "locked").chmod(0)
    fd = os.open(private, os.O_RDONLY)
    for _ in range(3000):  # deeper than PATH_MAX: only descriptor-relative calls reach the bottom
        os.mkdir("d", dir_fd=fd)
        nxt = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = nxt
    os.close(fd)
    os.mkfifo(private / "fifo")
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(private / "sock"))
    (private / "orig").write_text("y")
    os.link(private / "orig", private / "hard")
    (private / "link").symlink_to(outside / "keep")
    (private / "bot").symlink_to(outside)  # its read-only bot/ replaced by a link to its user's files
    (private / "\x1b[2Jname").write_text("z")
    private.chmod(0o500)


def _check_removal(tmp_path) -> None:
    outside = tmp_path / "users"
    outside.mkdir()
    (outside / "keep").write_text("mine")
    outside.chmod(0o750)
    private = tmp_path / "alhambra-bot-hostile"
    private.mkdir()
    _hostile_tree(private, outside)
    assert process.remove_private(str(private)) is True
    assert not os.path.lexists(private)
    assert (outside / "keep").read_text() == "mine" and outside.stat().st_mode & 0o777 == 0o750


def test_cleanup_removes_whatever_a_bot_left_and_never_raises(tmp_path):
    _check_removal(tmp_path)
    assert process.remove_private(str(tmp_path / "gone")) is True  # nothing there: fine
    assert process.remove_private("/proc/1/nonexistent/x") is True  # no parent: fine, no exception


@pytest.mark.skipif(os.getuid() != 0, reason="drops to nobody: needs root")
def test_cleanup_as_an_unprivileged_operator(tmp_path):
    """The degraded mode's operator is not root: the same hostile tree, made and removed as nobody (a
    forked child that drops its uid; root's DAC bypass would hide a mode-000 directory it cannot list)."""
    import pwd

    nobody = pwd.getpwnam("nobody")
    base = Path(tempfile.mkdtemp(prefix="alhambra-nobody-", dir="/tmp"))  # pytest's tmp is root's 0700
    os.chown(base, nobody.pw_uid, nobody.pw_gid)
    try:
        _check_as(nobody, base)
    finally:
        process.remove_private(str(base))


def _check_as(nobody, base) -> None:
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports by its exit code
        code = 1
        try:
            os.setgroups([])
            os.setresgid(nobody.pw_gid, nobody.pw_gid, nobody.pw_gid)
            os.setresuid(nobody.pw_uid, nobody.pw_uid, nobody.pw_uid)
            _check_removal(base)
            code = 0
        except BaseException as e:  # noqa: BLE001 - any failure is the test's failure
            sys.stderr.write(f"{type(e).__name__}: {e}\n")
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
