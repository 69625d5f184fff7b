"""--backend ray: tournaments (and strength) on a two-node Ray cluster started on this machine by the tests.

The cluster (a head and a second node, 2 CPUs each, small object stores, no dashboard) is shared by the
module and torn down at its end. Its job ships the tests' ToyGame with the package, so the nodes referee the
same small game as the local runs they are compared with.
"""

import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from tournament_support import GOOD, HERE, use_toy_game

from alhambra_ai.arena.config import BadInput, Settings, check_settings, load_definition
from alhambra_ai.arena.ray_backend import ClusterError, DamagedInTransit, node_cpu, pack_bots, received
from alhambra_ai.arena.runner import run_tournament
from alhambra_ai.arena.store import RESULTS, load_results
from alhambra_ai.cli import main
from alhambra_ai.sandbox.process import BotSource

TIMING = {"duration", "move_times"}
BOTS = [GOOD / "first.py", GOOD / "seeded.py", GOOD / "slow_once.py"]
# Ray runs the tests' ToyGame: tournament_support travels with the job and patches each Ray worker.
TOY_ENV = {"py_modules": [str(HERE / "tournament_support.py")],
           "worker_process_setup_hook": "tournament_support.use_toy_game"}


@pytest.fixture(autouse=True)
def toy(monkeypatch):
    use_toy_game(monkeypatch)


@pytest.fixture(scope="module")
def ray_cluster():
    """A head node and a second node on this machine, shared by the module's tests."""
    ray = pytest.importorskip("ray")
    from ray.cluster_utils import Cluster

    temp = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # short: Ray's socket paths must fit in 107 bytes
    small = {"num_cpus": 1, "object_store_memory": 80 * 2**20}  # a game per node at a time
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RAY_TMPDIR", temp)  # the cluster's files (and its address) stay out of /tmp/ray
        c = Cluster(initialize_head=True, head_node_args={**small, "include_dashboard": False})
        try:
            c.add_node(**small)
            c.wait_for_nodes()
            yield c
        finally:
            ray.shutdown()
            c.shutdown()
            shutil.rmtree(temp, ignore_errors=True)


@pytest.fixture
def cluster(ray_cluster):
    """The cluster, with this process connected to it as a job whose Ray workers play the ToyGame (the job
    stays connected from test to test: its workers are started once)."""
    import ray

    from alhambra_ai.arena.ray_backend import job_runtime_env

    if not ray.is_initialized():
        ray.init(address=ray_cluster.address, runtime_env=job_runtime_env(TOY_ENV), log_to_driver=False,
                 logging_level="warning")
    return ray_cluster


def settings(out, **kw):
    base = Settings(bots=tuple(map(str, BOTS)), seats="2", games=2, seed=7, move_time=0.2, time_bank=5,
                    memory=256, setup_time=30, jobs=2, out=str(out))
    return replace(base, **kw)


def run(s, backend="local", log=None, **kw):
    s = replace(s, backend=backend)
    return run_tournament(s, progress=False, out=io.StringIO(), log=log or io.StringIO(), **kw)


def stored(directory):
    """Everything a run stores except timings: results, standings, game records."""
    directory = Path(directory)
    results = [{k: v for k, v in r.items() if k not in TIMING} for r in load_results(directory)]
    records = {p.name: json.loads(p.read_text()) for p in sorted((directory / "games").glob("*.json"))}
    return results, json.loads((directory / "standings.json").read_text()), records


@pytest.fixture(scope="module")
def local_run(tmp_path_factory):
    directory = tmp_path_factory.mktemp("local") / "run"
    with pytest.MonkeyPatch.context() as patch:  # module scope: the autouse patch is not active yet
        use_toy_game(patch)
        run(settings(directory))
    return directory


def test_ray_gives_the_results_of_local_jobs(cluster, local_run, tmp_path):
    run(settings(tmp_path / "ray"), backend="ray")
    ray_results, ray_standings, ray_records = stored(tmp_path / "ray")
    results, standings, records = stored(local_run)
    assert len(results) == 12 and ray_results == results
    assert ray_standings == standings and ray_records == records


def bot_worker_parents(session_dir: str) -> set[int]:
    """Pids of the Ray workers running games of this cluster: the nearest ``ray::`` ancestors of the bot
    workers (between them stand the sandbox's unshare and its init) whose raylet belongs to the cluster's
    session directory."""
    parents = set()
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if b"alhambra_ai.sandbox.worker" not in (proc / "cmdline").read_bytes():
                continue
            pid = int(proc.name)
            while pid > 1 and not Path(f"/proc/{pid}/cmdline").read_bytes().startswith(b"ray::"):
                pid = parent_of(pid)
            if pid > 1 and session_dir.encode() in Path(f"/proc/{parent_of(pid)}/cmdline").read_bytes():
                parents.add(pid)
        except (OSError, ValueError, IndexError):
            pass
    return parents


def test_a_killed_ray_worker_loses_only_its_game_which_is_played_again(cluster, local_run, tmp_path):
    session = cluster.head_node.get_session_dir_path()
    killed = []

    def kill_one_game():
        deadline = time.monotonic() + 60
        while not killed and time.monotonic() < deadline:
            for pid in bot_worker_parents(session):
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
                return
            time.sleep(0.02)

    killer = threading.Thread(target=kill_one_game)
    killer.start()
    log = io.StringIO()
    run(settings(tmp_path / "ray"), backend="ray", log=log)
    killer.join()
    assert killed, "no game was seen running"
    again = [line for line in log.getvalue().splitlines() if "playing it again" in line]
    assert len(again) == 1 and "WorkerCrashedError" in again[0], log.getvalue()
    ids = [json.loads(line)["game"] for line in (tmp_path / "ray" / RESULTS).read_bytes().splitlines()]
    assert sorted(ids) == sorted(set(ids)) and len(ids) == 12
    assert stored(tmp_path / "ray") == stored(local_run)


DRIVER = """
import sys
sys.path.insert(0, {tests!r})
from alhambra_ai.arena.config import Settings
from alhambra_ai.arena.ray_backend import RayBackend
from alhambra_ai.arena.runner import run_tournament
s = Settings(**{settings!r})
run_tournament(s, progress=False, backend=RayBackend({address!r}, runtime_env={env!r}))
"""


@pytest.mark.slow  # a second driver: a new Ray job with its own workers
def test_sigkill_of_the_driver_then_resume_gives_the_same_standings(cluster, local_run, tmp_path):
    s = settings(tmp_path / "part", backend="ray")
    fields = {k: getattr(s, k) for k in ("bots", "seats", "games", "seed", "move_time", "time_bank", "memory",
                                         "setup_time", "out", "backend")}
    code = DRIVER.format(tests=str(HERE), settings=fields, address=cluster.address, env=TOY_ENV)
    driver = subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.DEVNULL)
    results = tmp_path / "part" / RESULTS
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and driver.poll() is None:
        if results.exists() and len(results.read_bytes().splitlines()) >= 4:
            break
        time.sleep(0.02)
    driver.send_signal(signal.SIGKILL)
    driver.wait()
    assert 0 < len(load_results(tmp_path / "part")) < 12, "the kill should land mid-run"

    run(s, backend="ray", resume=True)
    assert stored(tmp_path / "part") == stored(local_run)
    ids = [json.loads(line)["game"] for line in results.read_bytes().splitlines()]
    assert sorted(ids) == sorted(set(ids)) and len(ids) == 12
    # the dead driver's games were stopped by Ray: no bot worker of this cluster outlives them
    deadline = time.monotonic() + 20
    while bot_worker_parents(cluster.head_node.get_session_dir_path()) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not bot_worker_parents(cluster.head_node.get_session_dir_path())


@pytest.mark.slow
def test_a_node_dying_mid_run_loses_only_its_games_which_are_played_again(cluster, local_run, tmp_path):
    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    node = cluster.add_node(num_cpus=1, object_store_memory=80 * 2**20)
    cluster.wait_for_nodes()
    session = cluster.head_node.get_session_dir_path()
    node_workers = []
    # The other nodes' CPUs are held until the new node dies, so the run's first games can only go there
    # (left to itself, Ray may play all 12 on the nodes it already has warm workers on).
    def sleep(seconds):  # defined here: sent by value (workers cannot import this test module)
        time.sleep(seconds)

    hold = ray.remote(num_cpus=1)(sleep)
    holders = [hold.options(scheduling_strategy=NodeAffinitySchedulingStrategy(n.node_id, soft=False))
               .remote(120) for n in cluster.list_all_nodes() if n is not node]
    deadline = time.monotonic() + 60
    while ray.available_resources().get("CPU", 0) > 1 and time.monotonic() < deadline:
        time.sleep(0.05)

    def kill_the_node():  # once a game runs on the new node (its raylet's child), remove the whole node
        deadline = time.monotonic() + 60
        raylet = node.all_processes["raylet"][0].process.pid
        try:
            while time.monotonic() < deadline:
                node_workers[:] = [pid for pid in bot_worker_parents(session) if parent_of(pid) == raylet]
                if node_workers:
                    cluster.remove_node(node, allow_graceful=False)
                    return
                time.sleep(0.02)
        finally:
            for ref in holders:  # the surviving nodes play the lost games again, and the rest
                ray.cancel(ref, force=True)

    killer = threading.Thread(target=kill_the_node)
    killer.start()
    log = io.StringIO()
    run(settings(tmp_path / "ray"), backend="ray", log=log)
    killer.join()
    assert node_workers, "no game was seen running on the second node"
    again = [line for line in log.getvalue().splitlines() if "playing it again" in line]
    assert again, log.getvalue()  # the game running there (and any queued there)
    ids = [json.loads(line)["game"] for line in (tmp_path / "ray" / RESULTS).read_bytes().splitlines()]
    assert sorted(ids) == sorted(set(ids)) and len(ids) == 12
    assert stored(tmp_path / "ray") == stored(local_run)


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def test_a_game_no_node_can_hold_is_refused_before_any_game(cluster, tmp_path):
    with pytest.raises(ClusterError, match="needs 1 CPU and 4000000 MB of memory on one node"):
        run(settings(tmp_path / "big", memory=2_000_000), backend="ray")
    assert not (tmp_path / "big" / RESULTS).exists()


def test_strength_on_ray_gives_the_local_results(ray_cluster, tmp_path, monkeypatch):
    import ray

    monkeypatch.undo()  # the real game: here, and on the nodes through a job of the command's own
    ray.shutdown()
    common = ["strength", "--match", "greedy:random", "--players", "2", "--games", "2", "--seed", "3",
              "--iterations", "10", "--no-progress"]
    local = CliRunner().invoke(main, [*common, "--results", str(tmp_path / "local.jsonl")])
    on_ray = CliRunner().invoke(main, [*common, "--results", str(tmp_path / "ray.jsonl"), "--backend", "ray",
                                       "--address", ray_cluster.address])
    assert local.exit_code == 0 and on_ray.exit_code == 0, local.output + on_ray.output

    def games(name):
        lines = (tmp_path / name).read_text().splitlines()[1:]
        return sorted((r["game"], r["bots"], r["scores"], r["forfeits"]) for r in map(json.loads, lines))

    assert len(games("ray.jsonl")) == 2 and games("ray.jsonl") == games("local.jsonl")
    assert not any(forfeits for *_, forfeits in games("ray.jsonl"))
    row = ["\n".join(line for line in r.output.splitlines() if not line.startswith("strength:"))
           .split("move mean")[0] for r in (local, on_ray)]  # the row's win rate and scores
    assert "games    2" in row[0] and row[0] == row[1]


# ---------------------------------------------------------------- without a cluster

def test_without_ray_the_backend_says_how_to_install_it(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails as if it were not installed
    for args in (["tournament", *map(str, BOTS), "--backend", "ray", "--out", str(tmp_path / "t")],
                 ["strength", "--match", "greedy:random", "--backend", "ray"]):
        result = CliRunner().invoke(main, args)
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert result.exit_code == 2 and len(lines) == 1, result.output
        assert 'pip install -e ".[ray]"' in lines[0]
    assert not (tmp_path / "t").exists()


def test_backend_and_address_in_a_definition(tmp_path):
    toml = tmp_path / "t.toml"
    toml.write_text('bots = []\nbackend = "ray"\naddress = "auto"\n')
    assert load_definition(toml)["backend"] == "ray"
    with pytest.raises(BadInput, match="backend must be one of local, ray"):
        check_settings(settings(tmp_path, backend="spark"))
    with pytest.raises(BadInput, match="needs backend ray"):
        check_settings(settings(tmp_path, address="auto"))


def test_bot_files_travel_by_content_and_are_checked_on_the_node():
    files = pack_bots({"first": str(BOTS[0]), "seeded": BotSource.from_file(BOTS[1])})
    assert received(files)["first"].code == BOTS[0].read_bytes()
    damaged = {"first": (BotSource("first", b"class Bot: pass\n"), files["first"][1])}
    with pytest.raises(DamagedInTransit, match="bot first arrived on this node damaged"):
        received(damaged)
    with pytest.raises(BadInput, match="changed since the run started"):
        pack_bots({"first": str(BOTS[0])}, {"first": "0" * 64})


def test_games_on_one_machine_hold_different_cpus():
    cpus = sorted(os.sched_getaffinity(0))
    with node_cpu() as first:
        assert os.sched_getaffinity(0) == {first}
        done = []
        thread = threading.Thread(target=lambda: done.append(claim_in_a_thread(cpus)))
        thread.start()
        thread.join()
        if len(cpus) > 1:
            assert done[0] not in (first, None)
    assert sorted(os.sched_getaffinity(0)) == cpus  # given back


def claim_in_a_thread(cpus):
    os.sched_setaffinity(0, cpus)  # a thread starts with its creator's CPUs: widen them again
    with node_cpu() as cpu:
        return cpu


@pytest.mark.slow  # a driver of its own: a new Ray job with its own workers
def test_ctrl_c_on_a_ray_run_cancels_its_games_and_says_how_to_resume(ray_cluster, tmp_path, monkeypatch):
    monkeypatch.undo()  # the real game, through the command line as a user runs it
    out = tmp_path / "run"
    args = ["tournament", str(HERE.parent / "bots" / "random.py"), str(HERE / "hostile_bots" / "hangs.py"),
            "--rounds", "4", "--move-time", "5", "--time-bank", "0", "--no-progress", "--out", str(out),
            "--backend", "ray", "--address", ray_cluster.address]
    env = {**os.environ, "PYTHONPATH": str(HERE.parent)}
    proc = subprocess.Popen([sys.executable, "-c", "from alhambra_ai.cli import main; main()", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    session = ray_cluster.head_node.get_session_dir_path()
    deadline = time.monotonic() + 120
    while not bot_worker_parents(session) and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.1)  # until games are in progress on the cluster (a hanging seat holds each 5 s)
    assert bot_worker_parents(session), "no game started"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "--resume" in err.strip().splitlines()[-1]
    deadline = time.monotonic() + 20  # Ray cancelled the running games (force): their workers went too
    while bot_worker_parents(session) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not bot_worker_parents(session)


class _FakeRay:
    """Just enough of Ray for RayBackend.map: tasks 'run' for a while after they are submitted; records how
    many tasks of each deal are in flight at once."""

    class exceptions:  # noqa: N801 - Ray's own spelling
        class WorkerCrashedError(Exception): ...
        class NodeDiedError(Exception): ...
        class OutOfMemoryError(Exception): ...
        class ObjectLostError(Exception): ...
        class RayTaskError(Exception): ...

    def __init__(self) -> None:
        self.in_flight: dict[object, tuple[float, object, int]] = {}
        self.most_per_deal, self.most = 0, 0

    def put(self, value):
        return value

    def submit(self, item):
        ref = object()
        self.in_flight[ref] = (time.monotonic() + 0.01, item, item.seed)
        seeds = [s for _, _, s in self.in_flight.values()]
        self.most_per_deal = max(self.most_per_deal, seeds.count(item.seed))
        self.most = max(self.most, len(seeds))
        return ref

    def wait(self, refs, num_returns, timeout):
        time.sleep(0.002)
        done = [r for r in refs if self.in_flight[r][0] <= time.monotonic()][:num_returns]
        return done, [r for r in refs if r not in done]

    def get(self, ref):
        return self.in_flight.pop(ref)[1].id

    def cancel(self, ref, force=False):
        self.in_flight.pop(ref, None)


def test_ray_never_runs_two_rotations_of_a_deal_at_once():
    from alhambra_ai.arena.ray_backend import RayBackend
    from alhambra_ai.arena.schedule import make_schedule

    fake = _FakeRay()
    backend = object.__new__(RayBackend)
    backend.ray, backend._window, backend._window_at = fake, 8, time.monotonic() + 3600

    class Remote:
        def options(self, **resources):
            return self

        def remote(self, fn, files, item, *args):
            return fake.submit(item)

    backend.remote = Remote()
    games = make_schedule(["a", "b", "c", "d"], [2, 3], 1, 11)
    done = [item.id for item, _ in backend.map(lambda *a: None, games, {}, (), lambda g: {}, lambda t: None,
                                                apart=lambda g: g.seed)]
    assert sorted(done) == sorted(g.id for g in games)
    assert fake.most_per_deal == 1 and fake.most == 8  # the window is still filled
    fake.most_per_deal = 0
    list(backend.map(lambda *a: None, games, {}, (), lambda g: {}, lambda t: None))  # without apart:
    assert fake.most_per_deal > 1                                                   # rotations overlap
