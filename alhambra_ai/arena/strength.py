"""A reproducible strength evaluation of bots (``alhambra-ai strength``): a schedule and a summary.

Each match pits bot A against bot B: in 2-player games one A against one B, in 4-player games one A against
three copies of B (seat names ``B``, ``B#2``, ``B#3``). The lineup rotates over the seats of one deal seed (2
games per seed with 2 players, 4 with 4), so every deal is played from every seat. A's result per game is its
win share (1 for a sole win, 1/k when k seats share the top rank, else 0; a seat that forfeits ranks last);
the report gives the mean and a 95% Wilson interval (``alhambra_ai.arena.stats``).

This module only says which games (``Match.games``) and sums them up (``summarize``): the games are played
by the tournament's own backend (``tournament.runner.LocalBackend``, or the Ray backend), so every seat is
its own sandboxed worker process with the tournament's setup config (seat, seed, move_time, time_bank),
limits (time per move and bank, memory) and watchdog, and an illegal move, a crash or a timeout is a
forfeit recorded with the game, never an error of the run. A bot is a name in ``bots/`` or a path to a bot
file, optionally with its own time per move: ``mcts@1`` plays at 1 s per move whatever ``--move-time`` says
(for "mcts at 1 s against mcts at 0.1 s"). Finished games go to a JSON-lines log (``ResultLog``, kill-safe
with the store's primitives), from which an interrupted run continues.

>>> wilson(15, 20)   # 15 wins in 20 games
(0.531, 0.888)
>>> parse_side("mcts@1.5")
('mcts', 1.5)
"""

from __future__ import annotations

import json
import math
import sys
import textwrap
from collections.abc import Callable, Iterable
from contextlib import closing
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from alhambra_ai import registry
from alhambra_ai.arena.referee import Limits
from alhambra_ai.arena.runner import Backend, backend_named, play_all
from alhambra_ai.arena.schedule import ScheduledGame, lineup_names, stable_seed
from alhambra_ai.arena.stats import ranks as ranks_from
from alhambra_ai.arena.stats import wilson, win_share
from alhambra_ai.arena.store import StoreError, append_line, read_lines
from alhambra_ai.bot.api import bot_name
from alhambra_ai.bot.builtin import bots_dir
from alhambra_ai.errors import BadInput
from alhambra_ai.options import check_game
from alhambra_ai.sandbox.process import BotSource

DEFAULT_MATCHES = ("greedy:random", "expectimax:greedy", "mcts:greedy", "mcts:expectimax")
FORMAT_VERSION = 2  # results refereed in worker processes (version 1: in-process, no forfeits)


def bot_path(name: str) -> Path:
    """A bot name (``greedy``) or a path to a bot file."""
    p = Path(name)
    return p if p.suffix == ".py" else bots_dir() / f"{name}.py"


def parse_side(text: str) -> tuple[str, float | None]:
    """``"NAME"`` or ``"NAME@SECONDS"`` -> (NAME, seconds per move or None). Raises BadInput."""
    name, at, secs = text.partition("@")
    if not at:
        return name, None
    try:
        t = float(secs)
    except ValueError:
        raise BadInput(f"{text!r}: write NAME@SECONDS, e.g. mcts@1") from None
    if not t > 0 or math.isinf(t):
        raise BadInput(f"{text!r}: the time per move must be a positive number of seconds")
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
    game: str = registry.DEFAULT  # the game played: a name of alhambra_ai.registry
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

    def limits(self, players: int) -> Limits:
        """The limits of every seat: the match's, a side's own time per move (``NAME@SECONDS``), and with
        ``iterations`` an iteration budget in every seat's setup config, whatever its file is called (a search
        reads its own key: mcts ``iterations``, expectimax ``samples``, a tenth as many; other bots ignore
        both)."""
        own, budgets = {}, {}
        for name, side in zip(self.lineup(players), self.sides(players), strict=True):
            t = parse_side(side)[1]
            if t is not None:
                own[name] = Limits(move_time=t, time_bank=self.time_bank, memory_mb=self.memory_mb)
            if self.iterations:
                budgets[name] = {"iterations": self.iterations, "samples": max(1, self.iterations // 10)}
        return Limits(move_time=self.move_time or 1.0, time_bank=self.time_bank, memory_mb=self.memory_mb,
                      own=own, budgets=budgets)

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
    results = [r for r in results if "failed" not in r]  # a game that could not be played counts for none
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
    """Finished games as JSON lines (``--results``), so a long evaluation survives being stopped: the first
    line holds the settings, every further line one game keyed by match, player count and game number. Lines
    are appended and read with the tournament store's kill-safe primitives (``store.append_line``,
    ``store.read_lines``): a torn last line (the process killed mid-write) is dropped and cut off. A file
    written with other settings is refused (StoreError: bad input).

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
                raise StoreError(f"{self.path} was written with other settings {head.get('settings')}; "
                                 f"now {settings}: use another --results file")
            if torn:  # cut the torn tail off, so appends start on a fresh line
                read_lines(self.path, _log_line, repair=True)
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            append_line(self.path, json.dumps({"settings": settings}))

    @staticmethod
    def read(path: Path) -> tuple[dict, dict[tuple[str, int, int], dict], bool]:
        """(first line, games by key, whether the last line was torn); reads only. StoreError for a file
        that is not a strength log or is damaged before its last line."""
        lines, torn = read_lines(path, _log_line)
        head = lines[0] if lines else None
        if not isinstance(head, dict) or not isinstance(head.get("settings"), dict):
            raise StoreError(f"{path}: not a strength result file")
        done: dict[tuple[str, int, int], dict] = {}
        for i, r in enumerate(lines[1:], start=2):
            if "settings" in r:
                raise StoreError(f"{path}: line {i} is not a game result")
            done[(r["match"], r["players"], r["game"])] = r
        return head, done, torn

    def add(self, match: str, players: int, game: int, result: dict) -> None:
        r = {**result, "match": match, "players": players, "game": game}
        self.done[(match, players, game)] = r
        if self.path is not None:
            append_line(self.path, json.dumps(r))


def _log_line(item: object) -> None:
    """A line of a strength log: the settings, or a game keyed by match, players and game (ValueError)."""
    if not isinstance(item, dict) or not (
            isinstance(item.get("settings"), dict)
            or (isinstance(item.get("match"), str) and isinstance(item.get("players"), int)
                and isinstance(item.get("game"), int))):
        raise ValueError("not a line of a strength log")


def report(path: str | Path) -> tuple[dict, list[MatchResult]]:
    """The settings and a summary per match and player count of the games a ``--results`` file holds (done so
    far; nothing is played). Raises BadInput for a file that is not one."""
    path = Path(path)
    if not path.is_file():
        raise BadInput(f"{path}: no such file")
    head, done, _torn = ResultLog.read(path)  # a run may be appending to it: read only
    groups: dict[tuple[str, int], list[dict]] = {}
    for (match_text, players, _game), r in sorted(done.items()):
        groups.setdefault((match_text, players), []).append(r)
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
    """Raise BadInput unless ``text`` is ``A:B`` or a lineup ``A,B,...`` (2-6 seats) of known bots."""
    sides = text.split(":") if ":" in text else text.split(",")
    if (":" in text and len(sides) != 2) or not 2 <= len(sides) <= 6 or not all(sides):
        raise BadInput(f"{text!r}: write A:B or a lineup A,B,B,B (bot names in bots/ or .py files, "
                       "optionally NAME@SECONDS)")
    for side in sides:
        name, _t = parse_side(side)
        if not bot_path(name).is_file():
            raise BadInput(f"{text!r}: no bot file {bot_path(name)}")


def run_settings(seed: int, move_time: float | None, iterations: int | None, time_bank: float,
                 options: Iterable[str] | None, game: str) -> dict:
    """What the games of a run depend on, as kept in its log's first line (a rerun must match them)."""
    settings: dict[str, object] = {"seed": seed, "move_time": move_time, "iterations": iterations,
                                   "time_bank": time_bank, "format": FORMAT_VERSION}
    if options:
        settings["options"] = list(options)
    if game != registry.DEFAULT:  # the base game's logs keep the settings line they always had
        settings["game"] = game
    return settings


def run_strength(matches=DEFAULT_MATCHES, players=(2, 4), games: int = 20, seed: int = 1,
                 move_time: float | None = 0.1, iterations: int | None = None, jobs: int = 1,
                 echo=print, out: str | Path | None = None, progress=None,
                 time_bank: float = 5.0, backend: str = "local",
                 address: str | None = None, options: dict | None = None,
                 game: str = registry.DEFAULT, bar=None) -> list[MatchResult]:
    """Run every match at every player count; ``iterations`` (MCTS iterations, expectimax samples / 10)
    replaces the search bots' time budget and makes the run deterministic (the referee's time limits stay).
    With ``out``, finished games are kept in that file and a rerun with the same settings plays only the
    missing ones. ``progress(match, players, done, total)`` is called after every game. ``backend="ray"``
    plays the games as Ray tasks on the cluster at ``address`` (README "Tournaments on a cluster"), else
    ``jobs`` at a time here: the tournament's backends (``tournament.runner.backend_named``).
    ``options``: the modules of every game (kept in the ``out`` file's settings: a rerun with another set is
    refused). ``game``: the game of every match (a name of the registry; kept in the settings too).
    ``bar``: a tqdm bar, set to the run's games and advanced as each finishes. Raises BadInput for bad input
   ."""
    for m in matches:
        check_match(m)
    check_game(game, options)
    log = ResultLog(out, run_settings(seed, move_time, iterations, time_bank, options, game))
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
    if todo:
        with backend_named(backend, jobs, address, ahead=True) as arena:  # every game is played
            arena.check([game.spec for game in todo], groups[0][2].limits(groups[0][1]))
            play(arena, todo, [(match, p) for _, p, match in groups], finished)
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


def _store(log: ResultLog, m: str, p: int, g: int, result: dict, games: int, progress) -> None:
    log.add(m, p, g, result)
    if progress:
        progress(m, p, sum(1 for k in log.done if k[:2] == (m, p) and k[2] < games), games)


def play(arena: Backend, todo: list[Game], groups: list[tuple[Match, int]],
         done: Callable[[int, int, dict], None], note: Callable[[str], None] | None = None) -> None:
    """Referee the games of ``todo`` on ``arena`` (a tournament backend, entered) and call ``done(group,
    index, result)`` as each finishes (``groups[group]`` is its match and player count; the result is the
    referee's, with the game's id as ``id`` and its ``actions``). However this ends (an interrupt, an
    exception raised by ``done``), the games still in progress are stopped and their workers killed.

    Bots are read once per file. The games go to the backend in one queue, unless two matches give one seat
    name different bots or limits (``mine.py`` from two folders): then in as many batches as that takes."""
    note = note or _to_stderr
    sources: dict[str, BotSource] = {}
    for batch, bots, limits in _batches(todo, [_Setup.of(match, p) for match, p in groups]):
        seats = {name: sources.setdefault(path, BotSource.from_file(path)) for name, path in bots.items()}
        by_id = {game.spec.id: game for game in batch}
        with closing(play_all(arena, [game.spec for game in batch], seats,
                              {name: source.sha256 for name, source in seats.items()}, limits,
                              note)) as played:
            for spec, result, record in played:
                game = by_id[spec.id]
                result["id"] = result.pop("game")  # "game" is the game's index in the match here
                if record is not None:  # else it failed: its result says why (summarize skips it)
                    result["actions"] = record["actions"]
                done(game.group, game.index, result)


@dataclass(frozen=True)
class _Setup:
    """What the referee needs for the games of one match and player count: the seats' files and limits."""

    paths: dict[str, str]
    limits: Limits

    @staticmethod
    def of(match: Match, players: int) -> _Setup:
        return _Setup(match.paths(players), match.limits(players))


def _batches(todo: list[Game], setups: list[_Setup]):
    """``todo`` in order, as (games, bot file per seat name, limits) with one meaning per seat name."""
    batch: list[Game] = []
    paths: dict[str, str] = {}
    own: dict[str, Limits] = {}
    budgets: dict[str, Any] = {}
    ids: set[str] = set()

    def limits() -> Limits:
        return replace(setups[batch[0].group].limits, own=dict(own), budgets=dict(budgets))

    for game in todo:
        setup = setups[game.group]
        clash = game.spec.id in ids or any(
            paths.get(name, path) != path or own.get(name) != setup.limits.own.get(name)
            or budgets.get(name) != setup.limits.budgets.get(name)
            for name, path in setup.paths.items() if name in paths)
        if clash:
            yield batch, paths, limits()
            batch, paths, own, budgets, ids = [], {}, {}, {}, set()
        batch.append(game)
        ids.add(game.spec.id)
        paths.update(setup.paths)
        own.update(setup.limits.own)
        budgets.update(setup.limits.budgets)
    if batch:
        yield batch, paths, limits()


def _to_stderr(text: str) -> None:
    print(text, file=sys.stderr)
