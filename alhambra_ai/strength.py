"""A reproducible strength evaluation of bots (``alhambra-ai strength``).

Each match pits bot A against bot B: in 2-player games one A against one B, in 4-player games one A against
three copies of B (seat names ``B``, ``B#2``, ``B#3``). The lineup rotates over the seats of one deal seed (2
games per seed with 2 players, 4 with 4), so every deal is played from every seat. A's result per game is its
win share (1 for a sole win, 1/k when k seats share the top rank, else 0; a seat that forfeits ranks last);
the report gives the mean and a 95% Wilson interval.

Games are refereed exactly as in ``alhambra-ai tournament`` (``tournament.referee.run_game``): every seat
is its own worker process, gets the same setup config (seat, seed, move_time, time_bank) and the same limits
(time per move and bank, memory), and an illegal move, a crash or a timeout is a forfeit recorded with the
game, never an error of the run. A bot is a name in ``bots/`` or a path to a bot file, optionally with its
own time per move: ``mcts@1`` plays at 1 s per move whatever ``--move-time`` says (for "mcts at 1 s against
mcts at 0.1 s").

>>> wilson(15, 20)   # 15 wins in 20 games
(0.531, 0.888)
>>> parse_side("mcts@1.5")
('mcts', 1.5)
"""

from __future__ import annotations

import json
import math
import os
import sys
import textwrap
import threading
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from contextlib import closing, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from alhambra_ai.botapi import bot_name
from alhambra_ai.builtin import bots_dir
from alhambra_ai.options import check_game_options
from alhambra_ai.stats import ranks as ranks_from
from alhambra_ai.stats import wilson, win_share
from alhambra_ai.tournament.process import kill_all
from alhambra_ai.tournament.referee import Limits, run_game
from alhambra_ai.tournament.schedule import ScheduledGame, lineup_names, stable_seed

DEFAULT_MATCHES = ("greedy:random", "expectimax:greedy", "mcts:greedy", "mcts:expectimax")
FORMAT_VERSION = 2  # results refereed in worker processes (version 1: in-process, no forfeits)


def bot_path(name: str) -> Path:
    """A bot name (``greedy``) or a path to a bot file."""
    p = Path(name)
    return p if p.suffix == ".py" else bots_dir() / f"{name}.py"


def parse_side(text: str) -> tuple[str, float | None]:
    """``"NAME"`` or ``"NAME@SECONDS"`` -> (NAME, seconds per move or None). Raises ValueError."""
    name, at, secs = text.partition("@")
    if not at:
        return name, None
    try:
        t = float(secs)
    except ValueError:
        raise ValueError(f"{text!r}: write NAME@SECONDS, e.g. mcts@1") from None
    if not t > 0 or math.isinf(t):
        raise ValueError(f"{text!r}: the time per move must be a positive number of seconds")
    return name, t


def side_label(text: str) -> str:
    """The seat name of one side of a match: the bot's name, with ``@SECONDS`` when it has its own time."""
    name, t = parse_side(text)
    return bot_name(bot_path(name)) + (f"@{t:g}" if t is not None else "")


@dataclass(frozen=True)
class Match:
    """One match: ``A:B`` (one A against ``players - 1`` copies of B) or a lineup ``A,B,C,...`` (one game
    per rotation of exactly those seats); each side a bot name or path, optionally ``@SECONDS``. A is the
    first."""

    text: str
    move_time: float | None = 0.1
    time_bank: float = 5.0
    iterations: int | None = None
    options: tuple[str, ...] = ()  # the modules of every game (alhambra_ai.options)
    game: str = "alhambra"  # the game played: alhambra, dice or alcazaba (alhambra_ai.options.GAMES)
    memory_mb: int | None = Limits.memory_mb  # each worker's memory cap (None: none)

    @property
    def fixed_players(self) -> int | None:
        """The seat count of a lineup, None for ``A:B`` (played at every ``--players`` count)."""
        return None if ":" in self.text else len(self.text.split(","))

    def sides(self, players: int) -> list[str]:
        """The side text per seat before rotation (A first)."""
        if ":" in self.text:
            a, b = self.text.split(":")
            return [a] + [b] * (players - 1)
        return self.text.split(",")

    def lineup(self, players: int) -> list[str]:
        """Seat names before rotation: each side's label, repeats numbered (``greedy``, ``greedy#2``)."""
        return lineup_names([side_label(s) for s in self.sides(players)])

    def opponents(self, players: int) -> str:
        """How the report names A's opponents: B, or the lineup's other bots."""
        names = [_base(n) for n in self.lineup(players)[1:]]
        return names[0] if len(set(names)) == 1 else ",".join(names)

    def paths(self, players: int) -> dict[str, str]:
        return {name: str(bot_path(parse_side(side)[0]))
                for name, side in zip(self.lineup(players), self.sides(players), strict=True)}

    def limits(self, players: int) -> tuple[Limits, dict[str, Limits]]:
        """The default limits and, per seat name with its own time per move, its limits."""
        base = Limits(move_time=self.move_time or 1.0, time_bank=self.time_bank, memory_mb=self.memory_mb)
        own = {}
        for name, side in zip(self.lineup(players), self.sides(players), strict=True):
            t = parse_side(side)[1]
            if t is not None:
                own[name] = Limits(move_time=t, time_bank=self.time_bank, memory_mb=self.memory_mb)
        return base, own

    def bot_config(self, players: int) -> dict[str, dict]:
        """Extra setup config per seat name: an iteration budget for our search bots (``iterations``)."""
        if not self.iterations:
            return {}
        out = {}
        for name, path in self.paths(players).items():
            stem = Path(path).stem
            if stem == "mcts":
                out[name] = {"iterations": self.iterations}
            elif stem == "expectimax":
                out[name] = {"samples": max(1, self.iterations // 10)}
        return out

    def games(self, players: int, games: int, seed: int, start: int = 0) -> list[ScheduledGame]:
        """Games ``start`` to ``games - 1`` (a run that grows, as ``sprt``, asks for more later): the lineup
        rotates over the seats of each deal (so A sits in every seat of it)."""
        line = self.lineup(players)
        out = []
        for g in range(start, games):
            deal, shift = divmod(g, players)
            seated = tuple(line[-shift:] + line[:-shift]) if shift else tuple(line)
            out.append(ScheduledGame(f"{self.text}/{players}p/{g}", seated,
                                     stable_seed(seed, "strength", self.text, players, deal), self.options,
                                     self.game))
        return out


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
    forfeits: dict
    mean_move_time: dict = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def row(self, width: int = 80) -> str:
        """The match in lines of at most ``width`` columns: the result first, then scores, times, forfeits.

        >>> print(MatchResult("mcts", "greedy", 2, 200, 194.0, 150.2, 97.1, {"mcts": 0.1, "greedy": 0.01},
        ...                   {}, {"mcts": 0.085, "greedy": 0.002}).row())
              mcts vs greedy     2p  games  200  win  97.0%  95% [93.6%, 98.6%]
          score  150.2 vs   97.1; move mean/max greedy 0.002/0.010 s, mcts 0.085/0.100 s
        """
        lo, hi = wilson(self.wins, self.games)
        slow = ", ".join(f"{k} {self.mean_move_time[k]:.3f}/{v:.3f} s" if k in self.mean_move_time
                         else f"{k} {v:.3f} s" for k, v in sorted(self.max_move_time.items()))
        lost = "".join(f"; forfeits {k} {v}" for k, v in sorted(self.forfeits.items()))
        head = (f"{self.a:>10} vs {self.b:<10} {self.players}p  games {self.games:4d}  "
                f"win {self.rate:6.1%}  95% [{lo:.1%}, {hi:.1%}]")
        more = f"score {self.mean_score_a:6.1f} vs {self.mean_score_b:6.1f}; move mean/max {slow}{lost}"
        return "\n".join([head, *textwrap.wrap(more, width, initial_indent="  ", subsequent_indent="    ",
                                                break_on_hyphens=False)])


def _base(name: str) -> str:
    return name.split("#")[0]


def summarize(a: str, b: str, players: int, results: list[dict]) -> MatchResult:
    """A's record over ``results`` (A and B are seat names; B's copies ``B#k`` count as B)."""
    wins = 0.0
    sa, sb = [], []
    slow: dict[str, float] = {}
    spent: dict[str, list[float]] = {}  # per bot: [seconds, moves]
    lost: dict[str, int] = {}
    for r in results:
        seats = r.get("bots") or r["seats"]
        ranks = r.get("ranks") or ranks_from(r["scores"])  # format 1: no referee ranks
        a_seats = [i for i, name in enumerate(seats) if name == a]
        wins += win_share(ranks, a_seats)
        sa += [r["scores"][i] for i in a_seats]
        sb += [s for i, s in enumerate(r["scores"]) if i not in a_seats]
        times = r.get("max_move_time") or [t["max"] or 0.0 for t in r["move_times"]]
        for name, t in zip(seats, times, strict=True):
            slow[_base(name)] = max(slow.get(_base(name), 0.0), t)
        for name, m in zip(seats, r.get("move_times", ()), strict=False):
            if m.get("moves"):
                acc = spent.setdefault(_base(name), [0.0, 0])
                acc[0] += m["mean"] * m["moves"]
                acc[1] += m["moves"]
        for f in r.get("forfeits", ()):
            key = f"{_base(f['bot'])} ({f['reason']})"
            lost[key] = lost.get(key, 0) + 1
    return MatchResult(a, b, players, len(results), wins, sum(sa) / max(1, len(sa)),
                       sum(sb) / max(1, len(sb)), slow, lost, {k: t / n for k, (t, n) in spent.items()})


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
        self.lock = threading.Lock()
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
        r = {**result, "match": match, "players": players, "game": game}
        with self.lock:
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
    rows = []
    for (m, p), rs in groups.items():
        if "bots" in rs[0]:
            match = Match(m)
            rows.append(summarize(match.lineup(p)[0], match.opponents(p), p, rs))
        else:  # format 1: seat names as given, A:B
            a, b = m.split(":")
            rows.append(summarize(a, b, p, rs))
    return head["settings"], rows


def check_match(text: str) -> None:
    """Raise ValueError unless ``text`` is ``A:B`` or a lineup ``A,B,...`` (2-6 seats) of known bots."""
    sides = text.split(":") if ":" in text else text.split(",")
    if (":" in text and len(sides) != 2) or not 2 <= len(sides) <= 6 or not all(sides):
        raise ValueError(f"{text!r}: write A:B or a lineup A,B,B,B (bot names in bots/ or .py files, "
                         "optionally NAME@SECONDS)")
    for side in sides:
        name, _t = parse_side(side)
        if not bot_path(name).is_file():
            raise ValueError(f"{text!r}: no bot file {bot_path(name)}")


def run_strength(matches=DEFAULT_MATCHES, players=(2, 4), games: int = 20, seed: int = 1,
                 move_time: float | None = 0.1, iterations: int | None = None, jobs: int = 1,
                 echo=print, out: str | Path | None = None, progress=None,
                 time_bank: float = 5.0, backend: str = "local",
                 address: str | None = None, options: dict | None = None,
                 game: str = "alhambra", bar=None) -> list[MatchResult]:
    """Run every match at every player count; ``iterations`` (MCTS iterations, expectimax samples / 10)
    replaces the search bots' time budget and makes the run deterministic (the referee's time limits stay).
    With ``out``, finished games are kept in that file and a rerun with the same settings plays only the
    missing ones. ``progress(match, players, done, total)`` is called after every game. ``backend="ray"``
    plays the games as Ray tasks on the cluster at ``address`` (README "Tournaments on a cluster").
    ``options``: the modules of every game (kept in the ``out`` file's settings: a rerun with another set is
    refused). ``game``: the game of every match (alhambra, dice or alcazaba; kept in the settings too).
    ``bar``: a tqdm bar, set to the run's games and advanced as each finishes."""
    for m in matches:
        check_match(m)
    check_game_options(game, options)
    settings = {"seed": seed, "move_time": move_time, "iterations": iterations, "time_bank": time_bank,
                "format": FORMAT_VERSION}
    if options:
        settings["options"] = list(options)
    if game != "alhambra":
        settings["game"] = game
    log = ResultLog(out, settings)
    groups = []  # (match text, players, Match): one row of the table each, in this order
    for m in matches:
        match = Match(m, move_time, time_bank, iterations, tuple(options or ()), game)
        groups += [(m, p, match) for p in ([match.fixed_players] if match.fixed_players else players)]
    rows: list[MatchResult] = []

    def flush() -> None:  # the rows of the matches that are complete, in order
        while len(rows) < len(groups) and _complete(log, groups[len(rows)], games):
            m, p, match = groups[len(rows)]
            rows.append(summarize(match.lineup(p)[0], match.opponents(p), p,
                                  [log.done[(m, p, g)] for g in range(games)]))
            echo(rows[-1].row())

    def finished(k: int, g: int, result: dict) -> None:
        m, p, _ = groups[k]
        _store(log, m, p, g, result, games, progress)
        if bar is not None:
            bar.update(1)
            bar.set_postfix_str(f"{m} {p}p", refresh=False)
        flush()

    # every game of every match in one queue: the cores (or the cluster) never wait for a match's last game
    todo = [Game(k, g, spec) for k, (m, p, match) in enumerate(groups)
            for g, spec in enumerate(match.games(p, games, seed)) if (m, p, g) not in log.done]
    if bar is not None:
        bar.reset(total=len(groups) * games)
        bar.update(len(groups) * games - len(todo))
    flush()
    with _cluster(backend, address) as ray:
        _play(todo, [(match, p) for _, p, match in groups], jobs, finished, ray)
    return rows


@dataclass(frozen=True)
class Game:
    """One game to play: its match's index in the run, its index in the match, its schedule."""

    group: int
    index: int
    spec: ScheduledGame


def _complete(log: ResultLog, group: tuple, games: int) -> bool:
    m, p, _ = group
    return all((m, p, g) in log.done for g in range(games))


def _cluster(backend: str, address: str | None):
    """The Ray backend for ``backend="ray"`` (connected for the whole run), else nothing."""
    if backend != "ray":
        return nullcontext(None)
    from alhambra_ai.tournament.ray_backend import RayBackend

    return RayBackend(address)


def _store(log: ResultLog, m: str, p: int, g: int, result: dict, games: int, progress) -> None:
    log.add(m, p, g, result)
    if progress:
        progress(m, p, sum(1 for k in log.done if k[:2] == (m, p) and k[2] < games), games)


def _play(todo: list[Game], groups: list[tuple[Match, int]], jobs: int, done, ray=None) -> None:
    """Referee the games of ``todo``, ``jobs`` at a time (or on the Ray backend ``ray``); ``done(group,
    index, result)`` as each finishes. Interrupted (Ctrl-C): every worker is killed and the games in
    progress are dropped."""
    if not todo:
        return
    setups = [_Setup.of(match, p) for match, p in groups]

    def entry(game: Game, result: dict, record: dict) -> tuple[int, int, dict]:
        result["id"] = result.pop("game")  # "game" is the game's index in the match here
        result["actions"] = record["actions"]
        return game.group, game.index, result

    if ray is not None:
        from alhambra_ai.tournament.ray_backend import game_resources, pack_bots

        used = sorted({game.group for game in todo})
        files = pack_bots({f"{k}/{name}": path for k in used for name, path in setups[k].paths.items()})
        memory = max(setups[k].limits.memory_mb or 0 for k in used) or None
        with closing(ray.map(_referee_on_node, todo, files, (setups,),
                             lambda game: game_resources(game.spec.num_players, memory),
                             lambda text: print(text, file=sys.stderr),
                             label=lambda game: f"game {game.spec.id}")) as played:
            for game, (result, record) in played:
                done(*entry(game, result, record))
        return

    stop = threading.Event()

    def one(game: Game):
        setup = setups[game.group]
        return entry(game, *run_game(game.spec, setup.paths, setup.limits, stop, bot_limits=setup.own,
                                     bot_config=setup.config))

    pool = ThreadPoolExecutor(max(1, jobs), thread_name_prefix="strength")
    pending: dict = {}
    try:
        pending = {pool.submit(one, game) for game in todo}
        while pending:
            finished, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            for future in finished:
                done(*future.result())
    except BaseException:
        stop.set()
        pool.shutdown(wait=False, cancel_futures=True)
        running = [f for f in pending if not f.cancelled()]
        while running:
            kill_all()
            _, running = wait(running, timeout=0.2)
        kill_all()
        raise
    pool.shutdown(wait=True)


@dataclass(frozen=True)
class _Setup:
    """What the referee needs for the games of one match and player count."""

    paths: dict[str, str]
    limits: Limits
    own: dict[str, Limits]
    config: dict[str, dict]

    @staticmethod
    def of(match: Match, players: int) -> _Setup:
        limits, own = match.limits(players)
        return _Setup(match.paths(players), limits, own, match.bot_config(players))


def _referee_on_node(game: Game, bots: dict, setups: list[_Setup]) -> tuple[dict, dict]:
    """A Ray task: one game with its match's bots (``bots`` holds every match's, keyed ``match/name``)."""
    from alhambra_ai.tournament.ray_backend import referee_with_watchdog

    setup = setups[game.group]
    mine = {name: bots[f"{game.group}/{name}"] for name in setup.paths}
    return referee_with_watchdog(game.spec, mine, setup.limits, {"bot_limits": setup.own,
                                                                 "bot_config": setup.config})


# ---------------------------------------------------------------- command line

def _strength_command():
    import click

    from alhambra_ai.options import GAME_HELP, GAMES, click_callback
    from alhambra_ai.options import HELP as OPTIONS_HELP
    from alhambra_ai.tournament.config import BadInput

    class InputError(click.ClickException):
        exit_code = 2

    @click.command("strength")
    @click.option("--match", "matches", multiple=True, metavar="A:B",
                  help="Bot A against bot B: names in bots/ or .py paths, NAME@SECONDS for a bot with its "
                       "own time per move (mcts@1:mcts); repeatable. "
                       f"[default: {' '.join(DEFAULT_MATCHES)}]")
    @click.option("--lineup", "lineups", multiple=True, metavar="A,B,C,...",
                  help="One game per seat rotation of exactly these bots (a bot may appear several times: "
                       "mcts,greedy,greedy,greedy); the win rate is the first one's. Repeatable.")
    @click.option("--players", default="2,4", show_default=True, help="Player counts of the A:B matches.")
    @click.option("--games", default=20, show_default=True, help="Games per match and player count.")
    @click.option("--seed", default=1, show_default=True, type=int, help="Master seed of the deals.")
    @click.option("--move-time", default=0.1, show_default=True, type=float, help="Seconds per move.")
    @click.option("--time-bank", default=5.0, show_default=True, type=float,
                  help="Extra seconds per game and seat, drawn on by moves over their limit (as in "
                       "tournament).")
    @click.option("--iterations", type=int, default=None,
                  help="MCTS iterations per move (expectimax: a tenth as many samples) instead of their time "
                       "budget: a deterministic run.")
    @click.option("--jobs", "-j", default=1, show_default=True, help="Games in parallel (local backend).")
    @click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
                  help='Where games run: this machine, or a Ray cluster (needs pip install -e ".[ray]").')
    @click.option("--address", metavar="auto|HOST:PORT", default=None,
                  help="The Ray cluster (--backend ray). [default: the one running here, else a new one]")
    @click.option("--out", type=click.Path(dir_okay=False), default=None,
                  help="Keep finished games in this JSON-lines file; rerunning with the same file and "
                       "settings plays only the missing games (a long run can be stopped and resumed).")
    @click.option("--progress/--no-progress", default=True, show_default=True,
                  help="A progress bar on stderr.")
    @click.option("--report", "report_file", type=click.Path(dir_okay=False), default=None,
                  help="Only summarize the games an --out file holds so far (plays nothing).")
    @click.option("--options", "options", default=None, callback=click_callback, help=OPTIONS_HELP)
    @click.option("--game", "game", type=click.Choice(GAMES), default="alhambra", help=GAME_HELP)
    def strength(matches, lineups, players, games, seed, move_time, time_bank, iterations, jobs, backend,
                 address, out, progress, report_file, options, game):
        """Win rates of bots against each other, with 95% Wilson intervals.

        Every game is refereed as in `alhambra-ai tournament`: each seat its own process, the same setup
        config and limits, and a bot that fails forfeits (counted in the table) instead of stopping the run.
        """
        if report_file:
            try:
                settings, rows = report(report_file)
            except ValueError as e:
                raise InputError(str(e)) from None
            click.echo(f"{report_file}: {settings.get('game', 'alhambra')}, seed {settings.get('seed')}, "
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
            if ":" not in m:
                raise click.BadParameter(f"{m!r}: write A:B", param_hint="--match")
        for m in lineups:
            if ":" in m or "," not in m:
                raise click.BadParameter(f"{m!r}: write A,B,...", param_hint="--lineup")
        for m in (*matches, *lineups):
            try:
                check_match(m)
            except ValueError as e:
                raise click.BadParameter(str(e), param_hint="--lineup" if "," in m else "--match") from None
        if games < 1 or jobs < 1:
            raise click.BadParameter("--games and --jobs must be at least 1")
        if not move_time > 0 or time_bank < 0:
            raise click.BadParameter("--move-time must be > 0 and --time-bank >= 0")
        try:
            check_game_options(game, options)
        except ValueError as e:
            raise InputError(str(e)) from None
        if address and backend != "ray":
            raise InputError("--address is the Ray cluster's (auto or HOST:PORT) and needs --backend ray")
        if backend == "ray":
            from alhambra_ai.tournament.ray_backend import import_ray

            try:
                import_ray()
            except BadInput as e:
                raise InputError(str(e)) from None
        click.echo("strength: " + ("" if game == "alhambra" else f"{game}, ")
                   + f"{games} games per match, players {','.join(map(str, counts))}, seed {seed}, "
                   + (f"{iterations} iterations per move" if iterations else f"{move_time} s per move")
                   + f", time bank {time_bank} s, "
                   + (f"jobs {jobs}" if backend == "local" else f"on Ray at {address or 'this machine'}"))

        bar = tqdm(total=0, file=sys.stderr, unit="game", disable=not progress, dynamic_ncols=True,
                   leave=False)  # as tournament's; the rows are printed above it as matches complete
        try:
            run_strength((*matches, *lineups) or DEFAULT_MATCHES, counts, games, seed, move_time, iterations,
                         jobs, lambda text: bar.write(text, file=sys.stdout), out, None, time_bank, backend,
                         address, options, game, bar=bar)
        except (ValueError, BadInput) as e:
            raise InputError(str(e)) from None
        finally:
            bar.close()

    return strength


strength_command = _strength_command()
