"""A persistent ladder: ``alhambra-ai submit BOT_FILE`` validates a bot and plays it into the ladder.

LADDER/ladder.json      settings (with "game": a game of the registry; absent = its default, the base game)
                        and entrants in order of entry: {"name", "sha256", "file", "entered"}
LADDER/bots/NAME.py     the entered copy of each bot (what the ladder plays)
LADDER/results.jsonl, LADDER/games/, LADDER/standings.*   as for a tournament (store.py)

A new entrant plays every earlier entrant at 2 seats, both rotations, ``games`` times. Game ids
(``e003-o001-r1-s0``: entrant 3 vs entrant 1, repeat 1, rotation 0) and seeds are fixed, so an
interrupted submission continues when the same file is submitted again. A new ladder starts with the
built-in bots (bots/random.py, greedy.py, expectimax.py, mcts.py) as its first entrants, entered when the
ladder is made, before the first submission is even validated: their names are taken, and no submission
replaces an entrant unless it is the same file (the same hash). The first submission plays the built-ins'
games among themselves as well as its own, so that a new ladder's order is right from the start; it says
beforehand how many games it will play and the longest they may take.
"""

from __future__ import annotations

import json
import random
import re
import sys
import time
from pathlib import Path
from typing import TextIO

from alhambra_ai import registry
from alhambra_ai.bot.api import bot_file_problem, bot_name
from alhambra_ai.bot.builtin import NAMES, bots_dir
from alhambra_ai.sandbox.process import MAX_BOT_BYTES, BotSource, isolation

from .config import BadInput
from .ratings import format_report, write_standings
from .referee import Limits, run_game
from .runner import check_bot, run_games
from .schedule import ScheduledGame, derive_seed, new_master_seed
from .store import ResultStore, StoreError, write_json_atomic

DEFAULTS = {"games": 2, "seed": None, "move_time": 1.0, "time_bank": 10.0, "memory": 2048, "setup_time": 10.0}
RANDOM_BOT = bots_dir() / "random.py"
BUILTIN_BOTS = [bots_dir() / f"{name}.py" for name in NAMES]


class Refused(BadInput):
    """The bot failed validation (message: the reason)."""


def _limits(settings: dict) -> Limits:
    return Limits(settings["move_time"], settings["time_bank"], settings["memory"] or None,
                  settings["setup_time"])


class Ladder:
    def __init__(self, directory: str | Path, game: str | None = None, clock: dict | None = None) -> None:
        """The ladder in ``directory``; a new one plays ``game`` (default: the registry's default) with
        ``clock`` (``move_time``, ``time_bank``; None: the defaults), an existing one refuses another game
        or clock (its ratings would mix them)."""
        clock = {k: v for k, v in (clock or {}).items() if v is not None}
        self.dir = Path(directory)
        self.store = ResultStore(self.dir)
        path = self.dir / "ladder.json"
        if path.exists():
            try:
                self.data = json.loads(path.read_text())
            except ValueError:
                raise StoreError(f"{path} is damaged") from None
        else:
            self.data = {"format": "alhambra-ai-ladder", "version": 1,
                         "settings": dict(DEFAULTS, **clock, seed=new_master_seed(),
                                          game=game or registry.DEFAULT),
                         "entrants": []}
        if game is not None and game != self.game:
            raise BadInput(f"the ladder in {self.dir} plays {self.game}, not {game}; use another --ladder "
                           f"directory for {game}")
        for key, value in clock.items():
            if value != self.settings[key]:
                flag = "--" + key.replace("_", "-")
                raise BadInput(f"the ladder in {self.dir} plays at {flag} {self.settings[key]:g}, not "
                               f"{value:g}; use another --ladder directory for {flag} {value:g}")

    @property
    def game(self) -> str:
        return self.settings.get("game", registry.DEFAULT)

    @property
    def settings(self) -> dict:
        return self.data["settings"]

    @property
    def entrants(self) -> list[dict]:
        return self.data["entrants"]

    def paths(self) -> dict[str, str]:
        return {e["name"]: str(self.dir / e["file"]) for e in self.entrants}

    def sources(self) -> dict[str, BotSource]:
        """Every entrant's stored file, checked against the hash recorded when it entered."""
        sources = {}
        for e in self.entrants:
            path = self.dir / e["file"]
            try:
                source = BotSource(e["name"], path.read_bytes())
            except OSError as err:
                raise StoreError(f"ladder entrant {e['name']}: cannot read {path}: {err}") from None
            if source.sha256 != e["sha256"]:
                raise StoreError(f"ladder entrant {e['name']}: {path} changed since it entered "
                                 "(sha256 differs); restore it")
            sources[e["name"]] = source
        return sources

    def enter(self, source: BotSource) -> int:
        """Store the bot's (validated) content and register it; returns its entrant index. An entrant's
        name is taken for good: the same file again returns its index, another file under it is refused."""
        name = source.name
        for i, e in enumerate(self.entrants):
            if e["name"] == name:
                if e["sha256"] != source.sha256:
                    raise BadInput(f"a different bot named {name!r} is already in the ladder; "
                                   "rename the file to enter it")
                return i
        target = self.dir / "bots" / f"{name}.py"
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(".py.tmp")
        tmp.write_bytes(source.code)
        tmp.replace(target)
        self.entrants.append({"name": name, "sha256": source.sha256, "file": f"bots/{name}.py",
                              "entered": time.strftime("%Y-%m-%dT%H:%M:%S")})
        write_json_atomic(self.dir / "ladder.json", self.data)
        return len(self.entrants) - 1

    def games_for(self, index: int) -> list[ScheduledGame]:
        """The new entrant ``index`` against every earlier entrant."""
        new = self.entrants[index]["name"]
        games = []
        for j, old in enumerate(self.entrants[:index]):
            for r in range(1, self.settings["games"] + 1):
                seed = derive_seed(self.settings["seed"], "ladder", new, old["name"], r)
                for k, seated in enumerate([(new, old["name"]), (old["name"], new)]):
                    games.append(ScheduledGame(f"e{index:03d}-o{j:03d}-r{r}-s{k}", seated, seed,
                                               game=self.game))
        return games


def moves_per_game(game: str, players: int = 2, samples: int = 5) -> float:
    """The mean number of decisions in a random game (the engine's own playouts: milliseconds)."""
    total = 0
    for seed in range(samples):
        state = registry.get(game).new_state(players, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            total += 1
    return total / samples


def plan_text(name: str, games: list[ScheduledGame], index: int, game: str, move_time: float,
              jobs: int) -> str:
    """What a submission will play and the longest it may take (every move using its whole time).

    >>> g = [ScheduledGame(f"e001-o000-r1-s{k}", ("a", "b"), 1) for k in range(2)]
    >>> plan_text("a", g, 1, registry.DEFAULT, 0.0, 1)
    'a: 2 ladder games (2 against 1 entrant); quick at 0 s per move'
    """
    own = sum(g.id.startswith(f"e{index:03d}-") for g in games)
    parts = [f"{own} against {index} entrant{'s' * (index != 1)}" if own else None,
             f"{len(games) - own} among the earlier entrants (not yet played)" if len(games) > own else None]
    head = f"{name}: {len(games)} ladder games (" + ", ".join(p for p in parts if p) + ")"
    if not move_time:
        return f"{head}; quick at 0 s per move"
    moves = moves_per_game(game)
    longest = len(games) * moves * move_time / max(1, jobs)
    return (f"{head}; about {moves:.0f} moves a game at up to {move_time:g} s each: at most "
            f"{_duration(longest)} with --jobs {jobs} (the bar below shows the progress)")


def _duration(seconds: float) -> str:
    """Minutes, or hours and minutes.

    >>> _duration(4000), _duration(90)
    ('1 h 7 min', '2 min')
    """
    minutes = max(1, round(seconds / 60))
    return f"{minutes // 60} h {minutes % 60} min" if minutes >= 60 else f"{minutes} min"


def validate(source: BotSource, limits: Limits, log: TextIO, game: str = registry.DEFAULT) -> dict:
    """Load the bot in a worker and play one ``game`` against bots/random.py; Refused if it fails."""
    name = source.name
    problem = check_bot(source, limits)
    if problem:
        raise Refused(f"{name} refused: {problem.strip().splitlines()[0]}")
    if not RANDOM_BOT.is_file():
        raise BadInput(f"cannot validate: {RANDOM_BOT} not found")
    opponent = "random" if name != "random" else "random-baseline"
    scheduled = ScheduledGame("validation", (name, opponent), derive_seed(new_master_seed(), "validation"),
                              game=game)
    sources = {name: source, opponent: BotSource(opponent, RANDOM_BOT.read_bytes())}
    result, _ = run_game(scheduled, sources, limits)
    for f in result["forfeits"]:
        if f["seat"] == 0:
            first = f["detail"].strip().splitlines()[0] if f["detail"].strip() else ""
            frames = re.findall(r'File "([^"]+)", line (\d+)', f["detail"])  # the bot's own, innermost last
            where = f" ({frames[-1][0]}:{frames[-1][1]})" if frames else ""
            more = f": {first}{where}" if first else ""
            raise Refused(f"{name} refused: {f['reason']} at move {f['move'] + 1}{more}")
    t = result["move_times"][0]
    print(f"{name} validated: {registry.get(game).a_game} against random, {t['moves']} moves, "
          f"{1000 * t['mean']:.1f} ms per move on average, {1000 * t['max']:.1f} ms at most; "
          f"score {result['scores'][0]} to {result['scores'][1]}", file=log)
    return result


def submit(path: str | Path, directory: str | Path, jobs: int = 1, progress: bool = True,
           out: TextIO | None = None, log: TextIO | None = None, game: str | None = None,
           move_time: float | None = None, time_bank: float | None = None) -> tuple[int, int]:
    """Validate and enter ``path`` into the ladder in ``directory``; returns (rank, entrants). ``game``,
    ``move_time``, ``time_bank``: what a new ladder plays (default: the base game, ``DEFAULTS``' clock); an
    existing ladder must match those given."""
    out, log = out or sys.stdout, log or sys.stderr
    if move_time is not None and not 0 < move_time < float("inf"):
        raise BadInput(f"--move-time must be a positive number of seconds, not {move_time:g}")
    if time_bank is not None and not 0 <= time_bank < float("inf"):
        raise BadInput(f"--time-bank must be 0 or more seconds, not {time_bank:g}")
    path = Path(path)
    if bot_file_problem(path):
        raise BadInput(bot_file_problem(path))
    if path.stat().st_size > MAX_BOT_BYTES:
        raise BadInput(f"bot file {path} is larger than {MAX_BOT_BYTES >> 20} MB")
    name = bot_name(path)
    if not name.isprintable():
        raise BadInput(f"bot name {name!r} has unprintable characters; rename the file")
    source = BotSource.from_file(path)  # read once: what is validated is what enters
    print(isolation().summary(), file=log)
    ladder = Ladder(directory, game, {"move_time": move_time, "time_bank": time_bank})
    if not ladder.entrants:  # a new ladder: the built-ins enter first, so their names are taken
        for builtin in BUILTIN_BOTS:
            if builtin.is_file():
                ladder.enter(BotSource.from_file(builtin))
    limits = _limits(ladder.settings)
    known = {e["name"]: i for i, e in enumerate(ladder.entrants)}
    if name in known:
        if ladder.entrants[known[name]]["sha256"] != source.sha256:
            raise BadInput(f"a different bot named {name!r} is already in the ladder; "
                           "rename the file to enter it")
        index = known[name]
        print(f"{name} is already in the ladder; finishing its games", file=log)
    else:
        validate(source, limits, log, ladder.game)
        index = ladder.enter(source)
    # Every pairing up to this entrant: its own games, and (on a new ladder) the built-ins' among themselves,
    # so that the ladder's order is right from the start; stored games are not played again.
    done = {r["game"] for r in ladder.store.results()}
    games = [g for i in range(1, index + 1) for g in ladder.games_for(i) if g.id not in done]
    sources = ladder.sources()
    hashes = {e["name"]: e["sha256"] for e in ladder.entrants}
    if games:
        print(plan_text(name, games, index, ladder.game, limits.move_time, jobs), file=log)
        run_games(games, sources, hashes, limits, ladder.store, jobs, progress=progress, log=log)
    results = ladder.store.results()
    standings = write_standings(ladder.dir, results, list(sources))
    print(format_report(results, list(sources)), file=out)
    rank = 1 + [s.name for s in standings].index(name)
    me = standings[rank - 1]
    print(f"{name}: rating {me.conservative:.2f} (mu {me.mu:.2f}, sigma {me.sigma:.2f}), "
          f"rank {rank} of {len(standings)}", file=out)
    return rank, len(standings)
