"""A reproducible strength evaluation of the built-in bots (``alhambra-ai strength``).

Each match pits bot A against bot B: in 2-player games one A against one B, in 4-player games one A against
three copies of B. Seats rotate over games that share a deal seed (2 games per seed with 2 players, 4 with 4),
so every deal is played from every seat. A's result per game is its win share (1 for a sole win, 1/k when k
seats share the top score, else 0); the report gives the mean and a 95% Wilson interval. The bots run
in-process, so this is for trusted files such as our own (``alhambra-ai tournament`` isolates each seat);
games run in parallel worker processes with ``jobs``; results do not depend on ``jobs``.

>>> wilson(15, 20)   # 15 wins in 20 games
(0.531, 0.888)
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from alhambra_ai.botapi import Observation, load_bot

BOTS_DIR = Path(__file__).resolve().parent.parent / "bots"

DEFAULT_MATCHES = ("greedy:random", "expectimax:greedy", "mcts:greedy", "mcts:expectimax")


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate (fractional wins allowed), rounded to 3 places."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3))


def bot_path(name: str) -> Path:
    """A bot name (``greedy``) or a path to a bot file."""
    p = Path(name)
    return p if p.suffix == ".py" else BOTS_DIR / f"{name}.py"


@dataclass(frozen=True)
class GameSpec:
    seats: tuple[str, ...]  # bot name per seat
    seed: int
    config: dict = field(default_factory=dict)  # per bot name: extra config (move_time, iterations, ...)


def play_game(spec: GameSpec, paths: dict[str, str] | None = None) -> dict:
    """Play one game in-process; every bot sees only its observations. Returns scores and per-seat move
    times. The bots' files are ``paths[name]`` (default: ``bot_path(name)``)."""
    from alhambra_ai import new_game

    n = len(spec.seats)
    state = new_game(n, seed=spec.seed)
    classes = {name: load_bot(paths[name] if paths else bot_path(name)) for name in set(spec.seats)}
    bots = []
    for seat, name in enumerate(spec.seats):
        bot = classes[name]()
        cfg = {"seat": seat, "num_players": n, "options": state.options, "seed": spec.seed * 8 + seat}
        cfg.update(spec.config.get(name, {}))
        if hasattr(bot, "setup"):
            bot.setup(cfg)
        bots.append(bot)
    times: list[list[float]] = [[] for _ in range(n)]
    while not state.is_terminal():
        seat = state.current_player
        obs = Observation(state.observation(seat))
        t = time.monotonic()
        action = bots[seat].act(obs)
        times[seat].append(time.monotonic() - t)
        state.apply(action)
    return {"seats": list(spec.seats), "seed": spec.seed, "scores": state.scores(),
            "max_move_time": [max(ts, default=0.0) for ts in times]}


def win_share(scores: list[int], seats: Iterable[int]) -> float:
    """The share of the win held by the given seats (ties for the top split it equally)."""
    best = max(scores)
    top = [i for i, s in enumerate(scores) if s == best]
    return sum(1 for i in seats if i in top) / len(top)


def match_specs(a: str, b: str, players: int, games: int, seed: int, config: dict) -> list[GameSpec]:
    """``games`` games of A against B at ``players`` seats: A rotates over the seats of each deal seed."""
    specs = []
    for g in range(games):
        deal, a_seat = divmod(g, players)
        seats = tuple(a if i == a_seat else b for i in range(players))
        specs.append(GameSpec(seats, seed * 1_000_003 + players * 10_007 + deal, config))
    return specs


@dataclass
class MatchResult:
    a: str
    b: str
    players: int
    games: int
    wins: float
    mean_score_a: float
    mean_score_b: float
    max_move_time: dict

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def row(self) -> str:
        lo, hi = wilson(self.wins, self.games)
        slow = " ".join(f"{k} {v:.3f}s" for k, v in sorted(self.max_move_time.items()))
        return (f"{self.a:>10} vs {self.b:<10} {self.players}p  games {self.games:4d}  "
                f"win {self.rate:6.1%}  95% [{lo:.3f}, {hi:.3f}]  "
                f"score {self.mean_score_a:6.1f} vs {self.mean_score_b:6.1f}  max move {slow}")


def summarize(a: str, b: str, players: int, results: list[dict]) -> MatchResult:
    wins = 0.0
    sa, sb = [], []
    slow: dict[str, float] = {}
    for r in results:
        a_seats = [i for i, name in enumerate(r["seats"]) if name == a]
        wins += win_share(r["scores"], a_seats)
        sa += [r["scores"][i] for i in a_seats]
        sb += [s for i, s in enumerate(r["scores"]) if i not in a_seats]
        for name, t in zip(r["seats"], r["max_move_time"], strict=True):
            slow[name] = max(slow.get(name, 0.0), t)
    return MatchResult(a, b, players, len(results), wins, sum(sa) / max(1, len(sa)),
                       sum(sb) / max(1, len(sb)), slow)


def bot_config(move_time: float | None, iterations: int | None) -> dict:
    """Per bot name: the config a match gives it (time budget, or an iteration budget for the search bots)."""
    config: dict = {}
    for name in ("mcts", "expectimax", "greedy", "random"):
        c: dict = {}
        if move_time is not None:
            c["move_time"] = move_time
        if iterations:
            if name == "mcts":
                c["iterations"] = iterations
            elif name == "expectimax":
                c["samples"] = max(1, iterations // 10)
        config[name] = c
    return config


class ResultLog:
    """Finished games as JSON lines (``--out``), so a long evaluation survives being stopped: the first line
    holds the settings, every further line one game keyed by match, player count and game number. A torn last
    line (the process killed mid-write) is ignored; a file written with other settings is refused.

    >>> import tempfile, os; path = os.path.join(tempfile.mkdtemp(), "s.jsonl")
    >>> ResultLog(path, {"seed": 1}).add("a:b", 2, 0, {"scores": [1, 2]})
    >>> len(ResultLog(path, {"seed": 1}).done)
    1
    """

    def __init__(self, path: str | Path | None, settings: dict):
        self.path = Path(path) if path else None
        self.done: dict[tuple[str, int, int], dict] = {}
        if self.path is None:
            return
        if self.path.exists() and self.path.stat().st_size:
            head, self.done, torn = self.read(self.path)
            if head.get("settings") != settings:
                raise ValueError(f"{self.path} was written with other settings {head.get('settings')}; "
                                 f"now {settings}: use another --out file")
            if torn:  # rewrite without the torn tail, so appends start on a fresh line
                lines = [json.dumps(head), *(json.dumps(r) for r in self.done.values())]
                self.path.write_text("\n".join(lines) + "\n")
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._append({"settings": settings})

    @staticmethod
    def read(path: Path) -> tuple[dict, dict[tuple[str, int, int], dict], bool]:
        """(first line, games by key, whether the last line was torn); reads only."""
        lines = path.read_text().splitlines()
        try:
            head = json.loads(lines[0]) if lines else None
        except json.JSONDecodeError:
            head = None
        if not isinstance(head, dict) or not isinstance(head.get("settings"), dict):
            raise ValueError(f"{path}: not a strength result file")
        done: dict[tuple[str, int, int], dict] = {}
        for i, line in enumerate(lines[1:], start=2):
            try:
                r = json.loads(line)
                done[(r["match"], r["players"], r["game"])] = r
            except (json.JSONDecodeError, KeyError, TypeError):
                if i == len(lines):
                    return head, done, True
                raise ValueError(f"{path}: line {i} is not a game result") from None
        return head, done, False

    def _append(self, obj: dict) -> None:
        assert self.path is not None
        with self.path.open("a") as f:
            f.write(json.dumps(obj) + "\n")
            f.flush()
            os.fsync(f.fileno())

    def add(self, match: str, players: int, game: int, result: dict) -> None:
        r = {"match": match, "players": players, "game": game, **result}
        self.done[(match, players, game)] = r
        if self.path is not None:
            self._append(r)


def report(path: str | Path) -> tuple[dict, list[MatchResult]]:
    """The settings and a summary per match and player count of the games a ``--out`` file holds (done so
    far; nothing is played). Raises ValueError for a file that is not one."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{path}: no such file")
    head, done, _torn = ResultLog.read(path)  # a run may be appending to it: read only
    groups: dict[tuple[str, int], list[dict]] = {}
    for (match, players, _game), r in sorted(done.items()):
        groups.setdefault((match, players), []).append(r)
    return head["settings"], [summarize(*m.split(":"), p, rs) for (m, p), rs in groups.items()]


def _play_keyed(item: tuple[tuple, GameSpec], paths: dict[str, str] | None = None) -> tuple[tuple, dict]:
    return item[0], play_game(item[1], paths)


def play_games(todo: list[tuple[tuple, GameSpec]], jobs: int = 1, backend: str = "local",
               address: str | None = None, note=print) -> Iterator[tuple[tuple, dict]]:
    """Play ``(key, spec)`` items; yield ``(key, result)`` as games finish: in ``jobs`` local processes, or
    as Ray tasks (``backend="ray"``, the cluster at ``address``: one CPU per game, whose bots share one
    process; the bot files travel by content)."""
    if backend == "ray":
        from alhambra_ai.tournament.ray_backend import RayBackend, pack_bot_files

        names = sorted({name for _, spec in todo for name in spec.seats})
        files = pack_bot_files({name: str(bot_path(name)) for name in names})
        with RayBackend(address) as ray:
            ray.check_fits([{"num_cpus": 1}])
            for _, played in ray.map(_play_keyed, todo, files, (), lambda _: {"num_cpus": 1}, note,
                                     label=lambda item: "game {} {}p #{}".format(*item[0])):
                yield played
        return
    pool = multiprocessing.get_context("fork").Pool(jobs) if jobs > 1 and len(todo) > 1 else None
    try:
        yield from (pool.imap_unordered(_play_keyed, todo, chunksize=1) if pool else map(_play_keyed, todo))
    finally:
        if pool:
            pool.close()
            pool.join()


def run_strength(matches: Iterable[str] = DEFAULT_MATCHES, players: Iterable[int] = (2, 4), games: int = 20,
                 seed: int = 1, move_time: float | None = 0.1, iterations: int | None = None, jobs: int = 1,
                 echo=print, out: str | Path | None = None, progress=None, backend: str = "local",
                 address: str | None = None) -> list[MatchResult]:
    """Run every match at every player count; ``iterations`` (MCTS iterations, expectimax samples / 10)
    replaces the time budget and makes the run deterministic. With ``out``, finished games are kept in that
    file and a rerun with the same settings plays only the missing ones. ``progress(match, players, done,
    total)`` is called after every game. Every game is in flight at once (``jobs`` processes, or a Ray
    cluster: see ``play_games``); each match's row is echoed, in order, once its games are done."""
    config = bot_config(move_time, iterations)
    log = ResultLog(out, {"seed": seed, "move_time": move_time, "iterations": iterations})
    groups = [(m, p) for m in matches for p in players]
    todo = [((m, p, g), spec) for m, p in groups
            for g, spec in enumerate(match_specs(*m.split(":"), p, games, seed, config))
            if (m, p, g) not in log.done]
    out_rows: list[MatchResult] = []

    def echo_finished_rows() -> None:
        while len(out_rows) < len(groups):
            m, p = groups[len(out_rows)]
            if not all((m, p, g) in log.done for g in range(games)):
                return
            out_rows.append(summarize(*m.split(":"), p, [log.done[(m, p, g)] for g in range(games)]))
            echo(out_rows[-1].row())

    echo_finished_rows()
    for (m, p, g), r in play_games(todo, jobs, backend, address, partial(print, file=sys.stderr)):
        log.add(m, p, g, r)
        if progress:
            progress(m, p, sum(1 for k in log.done if k[:2] == (m, p) and k[2] < games), games)
        echo_finished_rows()
    return out_rows


# ---------------------------------------------------------------- command line

def _strength_command():
    import click

    @click.command("strength")
    @click.option("--match", "matches", multiple=True, metavar="A:B",
                  help="Bot A against bot B (names in bots/ or .py paths); repeatable. "
                       f"[default: {' '.join(DEFAULT_MATCHES)}]")
    @click.option("--players", default="2,4", show_default=True, help="Player counts, comma separated.")
    @click.option("--games", default=20, show_default=True, help="Games per match and player count.")
    @click.option("--seed", default=1, show_default=True, help="Master seed of the deals.")
    @click.option("--move-time", default=0.1, show_default=True, type=float, help="Seconds per move.")
    @click.option("--iterations", type=int, default=None,
                  help="MCTS iterations per move (expectimax: a tenth as many samples) instead of the time "
                       "budget: a deterministic run.")
    @click.option("--jobs", "-j", default=1, show_default=True,
                  help="Games in parallel (processes; local backend).")
    @click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
                  help='Where games run: this machine, or a Ray cluster (needs pip install -e ".[ray]").')
    @click.option("--address", metavar="auto|HOST:PORT", default=None,
                  help="The Ray cluster (--backend ray). [default: the one running here, else a new one]")
    @click.option("--out", type=click.Path(dir_okay=False), default=None,
                  help="Keep finished games in this JSON-lines file; rerunning with the same file and "
                       "settings plays only the missing games (a long run can be stopped and resumed).")
    @click.option("--progress/--no-progress", default=True, show_default=True,
                  help="A progress line on stderr.")
    @click.option("--report", "report_file", type=click.Path(dir_okay=False), default=None,
                  help="Only summarize the games an --out file holds so far (plays nothing).")
    def strength(matches, players, games, seed, move_time, iterations, jobs, backend, address, out, progress,
                 report_file):
        """Win rates of the built-in bots against each other, with 95% Wilson intervals."""
        from alhambra_ai.tournament.command import InputError
        from alhambra_ai.tournament.config import BadInput

        if report_file:
            try:
                settings, rows = report(report_file)
            except ValueError as e:
                raise click.UsageError(str(e)) from None
            click.echo(f"{report_file}: seed {settings.get('seed')}, "
                       + (f"{settings['iterations']} iterations per move" if settings.get("iterations")
                          else f"{settings.get('move_time')} s per move"))
            for row in rows:
                click.echo(row.row())
            return
        try:
            counts = [int(p) for p in players.split(",")]
        except ValueError:
            raise click.BadParameter(f"{players!r}: write player counts like 2,4",
                                     param_hint="--players") from None
        if any(not 2 <= p <= 6 for p in counts):
            raise click.BadParameter("player counts are 2..6", param_hint="--players")
        for m in matches:
            names = m.split(":")
            if len(names) != 2 or not all(bot_path(x).is_file() for x in names):
                raise click.BadParameter(f"{m!r}: write A:B with bots in bots/ or .py files",
                                         param_hint="--match")
        if games < 1 or jobs < 1:
            raise click.BadParameter("--games and --jobs must be at least 1")
        if address and backend != "ray":
            raise InputError("--address is the Ray cluster's (auto or HOST:PORT) and needs --backend ray")
        if backend == "ray":
            from alhambra_ai.tournament.ray_backend import import_ray

            try:
                import_ray()
            except BadInput as e:
                raise InputError(str(e)) from None
        click.echo(f"strength: {games} games per match, players {counts}, seed {seed}, "
                   + (f"{iterations} iterations per move" if iterations else f"{move_time} s per move")
                   + (f", jobs {jobs}" if backend == "local" else f", on Ray at {address or 'this machine'}"))
        def show(match, p, done, total):
            click.echo(f"\r{match} {p}p: {done}/{total} games", nl=done == total, err=True)

        try:
            run_strength(matches or DEFAULT_MATCHES, counts, games, seed, move_time, iterations, jobs,
                         click.echo, out, show if progress else None, backend, address)
        except BadInput as e:
            raise InputError(str(e)) from None
        except ValueError as e:
            raise click.UsageError(str(e)) from None

    return strength


strength_command = _strength_command()
