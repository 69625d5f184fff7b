"""Tournament settings: defaults, ready definitions (TOML), and the checks made before any game.

A definition file holds the same settings as the command line options, e.g.::

    bots = ["../bots/random.py", "../bots/greedy.py"]   # relative to the definition file
    seats = "2-3"
    games = 2
    move_time = 0.5
    backend = "ray"        # optional: play on a Ray cluster (see README "Tournaments on a cluster")

Options given on the command line override the file.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

import tomllib

from alhambra_ai.botapi import bot_name

from .referee import Limits
from .schedule import MAX_SEATS, MIN_SEATS, parse_seats

BACKENDS = ("local", "ray")


class BadInput(Exception):
    """Input that stops a tournament before any game: the message is one line for the user."""


def default_jobs() -> int:
    return max(1, (os.cpu_count() or 2) // 2)


@dataclass(frozen=True)
class Settings:
    bots: tuple[str, ...] = ()
    seats: str = "2"
    games: int = 2
    seed: int = 1
    move_time: float = 0.5
    time_bank: float = 5.0
    memory: int = 2048
    setup_time: float = 10.0
    jobs: int = field(default_factory=default_jobs)
    out: str | None = None
    backend: str = "local"  # where games run: "local" (this machine, --jobs at once) or "ray" (a cluster)
    address: str | None = None  # the Ray cluster (None: one running on this machine, else a new local one)

    @property
    def seat_counts(self) -> list[int]:
        return parse_seats(self.seats)

    @property
    def limits(self) -> Limits:
        return Limits(self.move_time, self.time_bank, self.memory or None, self.setup_time)

    def paths(self) -> dict[str, str]:
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
    if "bots" in data:
        if not isinstance(data["bots"], list) or not all(isinstance(b, str) for b in data["bots"]):
            raise BadInput(f"{path}: bots must be a list of file paths")
        data["bots"] = tuple(os.path.normpath(path.parent / b) for b in data["bots"])
    if "seats" in data:
        data["seats"] = str(data["seats"])
    return data


def make_settings(definition: dict | None = None, **options) -> Settings:
    """Defaults, then the definition file, then the options that were given (None = not given)."""
    settings = Settings()
    values = dict(definition or {})
    values.update({k: v for k, v in options.items() if v is not None and v != ()})
    try:
        settings = replace(settings, **values)
    except TypeError as e:
        raise BadInput(str(e)) from None
    return settings


def check_settings(s: Settings) -> None:
    """Everything that can be checked without running bot code; raises BadInput."""
    if not s.bots:
        raise BadInput("no bot files given (alhambra-ai tournament BOT_FILE... or --config FILE)")
    for p in s.bots:
        if not Path(p).is_file():
            raise BadInput(f"bot file not found: {p}")
    names = [bot_name(p) for p in s.bots]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise BadInput(f"two bot files are named {dupes[0]!r}; bot names (file stems) must be unique")
    try:
        counts = s.seat_counts
    except ValueError as e:
        raise BadInput(str(e)) from None
    if counts[-1] > len(names):
        raise BadInput(f"{counts[-1]} seats need at least {counts[-1]} bots, got {len(names)}")
    for name, value, low in (("games", s.games, 1), ("jobs", s.jobs, 1), ("seed", s.seed, 0)):
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            raise BadInput(f"{name} must be an integer >= {low}, not {value!r}")
    for name, value in (("move-time", s.move_time), ("time-bank", s.time_bank), ("setup-time", s.setup_time)):
        if not isinstance(value, int | float) or value < 0 or (name != "time-bank" and value == 0):
            raise BadInput(f"{name} must be a positive number of seconds, not {value!r}")
    if not isinstance(s.memory, int) or s.memory < 0 or 0 < s.memory < 64:
        raise BadInput(f"memory must be a number of MB >= 64 (0 = no cap), not {s.memory!r}")
    if s.backend not in BACKENDS:
        raise BadInput(f"backend must be one of {', '.join(BACKENDS)}, not {s.backend!r}")
    if s.address is not None and (s.backend != "ray" or not isinstance(s.address, str)):
        raise BadInput("address is the Ray cluster's (auto or HOST:PORT) and needs backend ray")


def default_out() -> str:
    return time.strftime("tournament-%Y%m%d-%H%M%S")


__all__ = ["BadInput", "MAX_SEATS", "MIN_SEATS", "Settings", "check_settings", "default_out",
           "load_definition", "make_settings"]
