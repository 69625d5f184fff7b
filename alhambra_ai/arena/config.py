"""Tournament settings: defaults, ready definitions (TOML), and the checks made before any game.

A definition file holds the same settings as the command line options, e.g.::

    bots = ["../bots/random.py", "../bots/greedy.py"]   # relative to the definition file
    seats = "2-3"
    games = 2
    move_time = 0.5
    backend = "ray"        # optional: play on a Ray cluster (see README "Tournaments on a cluster")
    game = "dice"          # optional: a game of the registry (alhambra, the default; dice; alcazaba)

or, for one fixed lineup played in every seat rotation (a bot file may be seated several times; its seats
are named ``greedy``, ``greedy#2``, ... and each is its own process)::

    lineup = ["../bots/mcts.py", "../bots/greedy.py", "../bots/greedy.py", "../bots/greedy.py"]

Options given on the command line override the file; ``stored_definition`` reads the settings of a run
back from its output directory (``--resume`` without bot files).
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10 (requires-python): tomllib's backport, a dependency there
    import tomli as tomllib

from alhambra_ai import registry
from alhambra_ai.bot.api import bot_file_problem, bot_name
from alhambra_ai.errors import BadInput
from alhambra_ai.options import check_game, options_from_table
from alhambra_ai.sandbox.process import MAX_BOT_BYTES

from .referee import Limits
from .schedule import MAX_SEATS, MIN_SEATS, lineup_names, parse_seats
from .store import ResultStore

BACKENDS = ("local", "ray")


def default_jobs() -> int:
    """One game per core: a game runs one bot move at a time, so each game keeps about one core busy."""
    return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class Settings:
    """The defaults are the README's main job: the four built-in bots in about a minute on 2 cores (24
    two-seat games at 0.06 s per move, a 2 s bank); tournaments/ holds longer definitions."""

    bots: tuple[str, ...] = ()
    lineup: tuple[str, ...] = ()  # bot files seat by seat (repeats allowed): replaces bots and seats
    seats: str = "2"
    games: int = 2
    seed: int | None = None  # None: a random master seed, chosen (and stored) when the run starts
    move_time: float = 0.06
    time_bank: float = 2.0
    memory: int = 2048
    setup_time: float = 10.0
    jobs: int = field(default_factory=default_jobs)
    out: str | None = None
    options: tuple[str, ...] = ()  # the modules that are on, e.g. ("camps",) (alhambra_ai.options)
    game: str = registry.DEFAULT  # the game played: a name of alhambra_ai.registry
    require_sandbox: bool = False  # refuse to run unless every isolation mechanism is available
    backend: str = "local"  # where games run: "local" (this machine, --jobs at once) or "ray" (a cluster)
    address: str | None = None  # the Ray cluster (None: one running on this machine, else a new local one)

    @property
    def seat_counts(self) -> list[int]:
        return [len(self.lineup)] if self.lineup else parse_seats(self.seats)

    @property
    def limits(self) -> Limits:
        return Limits(self.move_time, self.time_bank, self.memory or None, self.setup_time)

    def seat_names(self) -> list[str]:
        """The lineup's seat names (``greedy``, ``greedy#2``, ...); empty without a lineup."""
        return lineup_names([bot_name(p) for p in self.lineup])

    def paths(self) -> dict[str, str]:
        if self.lineup:
            return {name: str(Path(p)) for name, p in zip(self.seat_names(), self.lineup, strict=True)}
        return {bot_name(p): str(Path(p)) for p in self.bots}


SETTING_NAMES = {f.name for f in fields(Settings)}


def load_definition(path: str | Path) -> dict:
    """The settings in a TOML definition (bot paths are taken relative to the file)."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text())
    except OSError:
        raise BadInput(f"cannot read tournament definition {path}") from None
    except tomllib.TOMLDecodeError as e:
        raise BadInput(f"{path}: not valid TOML: {e}") from None
    unknown = sorted(set(data) - SETTING_NAMES)
    if unknown:
        raise BadInput(f"{path}: unknown setting {unknown[0]!r} (known: {', '.join(sorted(SETTING_NAMES))})")
    for key in ("bots", "lineup"):
        if key in data:
            if not isinstance(data[key], list) or not all(isinstance(b, str) for b in data[key]):
                raise BadInput(f"{path}: {key} must be a list of file paths")
            data[key] = tuple(os.path.normpath(path.parent / b) for b in data[key])
    if "seats" in data:
        data["seats"] = str(data["seats"])
    if "game" in data:
        try:
            registry.get(data["game"])
        except BadInput as e:
            raise BadInput(f"{path}: {e}") from None
    if "options" in data:
        try:
            data["options"] = tuple(options_from_table(data["options"]))
        except ValueError as e:
            raise BadInput(f"{path}: {e}") from None
    return data


def make_settings(definition: dict | None = None, **options) -> Settings:
    """Defaults, then the definition file, then the options that were given (None = not given; an empty
    value is given: ``options=()`` switches a file's [options] off)."""
    settings = Settings()
    values = dict(definition or {})
    values.update({k: v for k, v in options.items() if v is not None})
    try:
        settings = replace(settings, **values)
    except TypeError as e:
        raise BadInput(str(e)) from None
    return settings


def check_settings(s: Settings) -> None:
    """Everything that can be checked without running bot code; raises BadInput."""
    if s.lineup:
        return _check_lineup(s)
    if not s.bots:
        raise BadInput("no bot files given (alhambra-ai tournament BOT_FILE... or --config FILE)")
    for p in s.bots:
        if bot_file_problem(p):
            raise BadInput(bot_file_problem(p))
        if Path(p).stat().st_size > MAX_BOT_BYTES:
            raise BadInput(f"bot file {p} is larger than {MAX_BOT_BYTES >> 20} MB")
    names = [bot_name(p) for p in s.bots]
    for name in names:
        if not name.isprintable():
            raise BadInput(f"bot name {name!r} has unprintable characters; rename the file")
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise BadInput(f"two bot files are named {dupes[0]!r}; bot names (file stems) must be unique")
    try:
        counts = s.seat_counts
    except ValueError as e:
        raise BadInput(str(e)) from None
    if counts[-1] > len(names):
        raise BadInput(f"{counts[-1]} seats need at least {counts[-1]} bots, got {len(names)} (to seat a "
                       "bot several times, use --lineup)")
    _check_numbers(s)


def _check_lineup(s: Settings) -> None:
    """A fixed lineup: 2-6 seats, existing files, one file per bot name (the same file may repeat)."""
    if s.bots:
        raise BadInput("give either bot files (every combination) or --lineup (one lineup), not both")
    if not MIN_SEATS <= len(s.lineup) <= MAX_SEATS:
        raise BadInput(f"a lineup has {MIN_SEATS}-{MAX_SEATS} seats, not {len(s.lineup)}")
    for p in s.lineup:
        if bot_file_problem(p):
            raise BadInput(bot_file_problem(p))
    names = [bot_name(p) for p in s.lineup]
    files = {n: {str(Path(p).resolve()) for p, m in zip(s.lineup, names, strict=True) if m == n}
             for n in names}
    clash = sorted(n for n, f in files.items() if len(f) > 1)
    if clash:
        raise BadInput(f"two different bot files are named {clash[0]!r}; bot names (file stems) must be "
                       "unique")
    _check_numbers(s)


def _check_numbers(s: Settings) -> None:
    for name, value, low in (("games", s.games, 1), ("jobs", s.jobs, 1), ("seed", s.seed, 0)):
        if name == "seed" and value is None:
            continue
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            raise BadInput(f"{name} must be an integer >= {low}, not {value!r}")
    if s.seed is not None and s.seed >= 2**63:
        raise BadInput(f"seed must be below 2**63, not {s.seed}")
    for name, seconds in (("move-time", s.move_time), ("time-bank", s.time_bank),
                          ("setup-time", s.setup_time)):
        if not isinstance(seconds, int | float) or seconds < 0 or (name != "time-bank" and seconds == 0):
            raise BadInput(f"{name} must be a positive number of seconds, not {seconds!r}")
    if not isinstance(s.memory, int) or s.memory < 0 or 0 < s.memory < 64:
        raise BadInput(f"memory must be a number of MB >= 64 (0 = no cap), not {s.memory!r}")
    check_game(s.game, s.options)
    if s.backend not in BACKENDS:
        raise BadInput(f"backend must be one of {', '.join(BACKENDS)}, not {s.backend!r}")
    if s.address is not None and (s.backend != "ray" or not isinstance(s.address, str)):
        raise BadInput("address is the Ray cluster's (auto or HOST:PORT) and needs backend ray")


def stored_definition(directory: Path) -> dict:
    """The settings of the run in ``directory``, as a definition (for --resume without bot files)."""
    stored = ResultStore(directory).settings()  # StoreError (bad input) for a damaged one
    if stored is None:
        raise BadInput(f"nothing to resume in {directory} (no tournament.json); give the bot files")
    seats = stored["seats"]
    if "lineup" in stored:  # seat names in lineup order -> their files
        return {"lineup": tuple(stored["bots"][name]["path"] for name in stored["lineup"]),
                **{k: stored[k] for k in ("games", "seed", "move_time", "time_bank", "memory", "setup_time")},
                "options": tuple(stored.get("options", ())), "game": stored.get("game", registry.DEFAULT)}
    return {"bots": tuple(b["path"] for b in stored["bots"].values()),
            "seats": f"{seats[0]}-{seats[-1]}" if len(seats) > 1 else str(seats[0]),
            **{k: stored[k] for k in ("games", "seed", "move_time", "time_bank", "memory", "setup_time")},
            "options": tuple(stored.get("options", ())), "game": stored.get("game", registry.DEFAULT)}


def default_out() -> str:
    return time.strftime("tournament-%Y%m%d-%H%M%S")


__all__ = ["BACKENDS", "BadInput", "MAX_SEATS", "MIN_SEATS", "Settings", "check_settings",
           "default_out", "load_definition", "make_settings", "stored_definition"]
