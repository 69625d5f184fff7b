"""Self-play datasets (``alhambra-ai selfplay``): games refereed like a tournament's, every decision of every
seat as a row of numbers seen from that seat, with the game's final outcome (docs/formats.md "Self-play
dataset", docs/bots.md "Learning from self-play").

The games are played by the tournament's backends (``tournament.runner.backend_named``: local worker
processes, or Ray), so every seat is its own sandboxed bot process under the referee's limits, exactly as in
``strength``. The referee returns each game's record; the rows are computed here by replaying that record
from its seed (``record.steps``) and encoding, before each action, ``state.observation(seat)`` of the seat
to act: the very dictionary the referee sent that seat (less the clock fields). The features are a function
of that dictionary alone (``FeatureEncoder.encode(obs)``), so they hold nothing the seat could not know
(docs/rules.md §8); the tests resample every hidden part and find the features unchanged.

The dataset is a folder: ``manifest.json`` (what made it and how to read it) and shards
``shard-NNNNNN.npz``, each holding a fixed run of games (``shard_games`` of them, by game index), written
atomically (a temporary file renamed) when all of its games are done, in game order. So a dataset streams
to disk, memory holds at most a few shards' games, an interrupted run loses only unfinished shards
(``--resume`` plays them again), and the bytes depend only on the settings and the seed, never on
``--jobs``, the backend, the order games finished in or a resume (with deterministic bots: random, greedy,
and the search bots with ``--iterations``).

>>> enc = FeatureEncoder("alhambra", 2, {})
>>> from alhambra_ai import new_game
>>> x = enc.encode(new_game(2, seed=1).observation(0))
>>> x.shape == (enc.size,) and x.dtype == np.int16
True
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import zipfile
import zlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import closing
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from alhambra_ai import City, DiceState, determinize, registry
from alhambra_ai._core import value_features, value_layout, value_names
from alhambra_ai.arena.runner import backend_named, check_bots, play_all
from alhambra_ai.arena.schedule import ScheduledGame, stable_seed
from alhambra_ai.arena.store import write_json_atomic
from alhambra_ai.arena.strength import Match, check_match
from alhambra_ai.env.spaces import DEFAULT_RADIUS, ObservationEncoder
from alhambra_ai.errors import BadInput
from alhambra_ai.formats.record import RecordError, steps
from alhambra_ai.options import check_game
from alhambra_ai.sandbox.process import BotSource

FORMAT = "alhambra-ai-selfplay"
VERSION = 1
ENCODINGS = ("compact", "env", "value")
#: the games whose core computes value features (``encoding="value"``: what the compiled searches read)
VALUE_GAMES = ("alhambra", "dice", "alcazaba")
#: games per shard by default: compact rows are ~1-2 KB, env rows (with the city planes) 40-115 KB, value
#: rows 0.3-0.4 KB
DEFAULT_SHARD_GAMES = {"compact": 32, "env": 4, "value": 64}
#: the per-seat city summary of the compact encoding, replacing the env vector's city planes
CITY_SUMMARY = ("tiles", "pavilion", "seraglio", "arcades", "chambers", "garden", "tower", "wall", "extent")
#: moves after which the referee ends a game unfinished: no rule bounds a game's length, and two greedy
#: bots can swap the same tiles for ever (about 1 game in 20 of greedy against itself); such a game has no
#: outcome and gives no rows
DEFAULT_MAX_MOVES = 3000
SHARD_NAME = re.compile(r"shard-(\d{6})\.npz")
#: the per-row columns of a shard (besides the features ``x``) and their dtypes
ROW_COLUMNS = {"game": np.int64, "ply": np.int32, "seat": np.int8, "bot": np.int8, "action": np.int64,
               "legal": np.int32, "stand_in": np.bool_, "score": np.int32, "margin": np.int32,
               "rank": np.int8, "win": np.float32}
#: the per-game columns of a shard
GAME_COLUMNS = {"games_index": np.int64, "games_seed": np.int64, "games_bots": np.int8,
                "games_scores": np.int32, "games_ranks": np.int8, "games_forfeit": np.bool_,
                "games_moves": np.int32, "games_dirk": np.int32, "games_truncated": np.bool_}


class DatasetError(BadInput):
    """A dataset folder or shard that cannot be used as asked (the message names it): exit 2."""


# ------------------------------------------------------------------------------------------- features


class FeatureEncoder:
    """One seat's observation dict -> int16 vector (every value the encoders give is a whole number).

    ``env``: the environment's observation vector (docs/env.md "Observation"), city planes included.
    ``compact``: the same vector with each seat's city planes (15 x 25 x 25 numbers) replaced by a summary of
    ``CITY_SUMMARY``: tiles built, buildings per type, the longest wall (``City.wall_score``) and the
    farthest cell from the fountain; for the dice game (no cities) compact and env are the same vector.
    ``layout`` lists ``(name, shape)`` in vector order, ``names`` a name per column (``scores[0]``: relative
    seat 0, the observer). Reads the observation dict and nothing else.
    """

    def __init__(self, game: str, num_players: int, options: Mapping[str, Any] | None,
                 encoding: str = "compact", radius: int = DEFAULT_RADIUS) -> None:
        if encoding not in ENCODINGS:
            raise BadInput(f"encoding must be one of {', '.join(ENCODINGS)}, not {encoding!r}")
        if encoding == "value" and game not in VALUE_GAMES:
            raise BadInput(f"the value encoding is computed for {', '.join(VALUE_GAMES)} only, not {game}")
        if encoding == "value" and game == "alhambra" and any(v for k, v in (options or {}).items()
                                                              if k != "dirk"):
            raise BadInput("the base game's value encoding reads the base game only: no --options module")
        self.env = ObservationEncoder(game, num_players, dict(options or {}), radius)
        self.encoding, self.n, self.game = encoding, num_players, game
        self.summarize = encoding == "compact" and "cities" in self.env.slices
        self.layout: list[tuple[str, tuple[int, ...]]]
        if encoding == "value":
            # the name carries the core's feature version: weights of another version are refused on load
            self.layout = [(value_layout(game), (len(value_names(game, num_players)),))]
        elif self.summarize:
            cut = self.env.slices["cities"]
            self.keep = np.r_[0:cut.start, cut.stop:self.env.size]
            self.layout = [(name, tuple(shape)) for name, shape in self.env.layout if name != "cities"]
            self.layout.append(("city_summary", (num_players, len(CITY_SUMMARY))))
        else:
            self.layout = [(name, tuple(shape)) for name, shape in self.env.layout]
        self.size = sum(int(np.prod(shape)) for _name, shape in self.layout)
        self._walls: dict[tuple, int] = {}

    @cached_property
    def names(self) -> list[str]:
        if self.encoding == "value":
            return list(value_names(self.game, self.n))
        out = []
        for name, shape in self.layout:
            for idx in np.ndindex(*shape):
                out.append(name + "".join(f"[{i}]" for i in idx) if shape != (1,) else name)
        return out

    def encode(self, obs: Mapping[str, Any]) -> np.ndarray:
        if self.encoding == "value":  # the core's, of a state made from the observation (hidden parts unread)
            state = (determinize(dict(obs), 0) if self.game == "alhambra"
                     else DiceState.from_observation(dict(obs)))
            return np.array(value_features(state, obs["seat"]), np.int16)
        if self.summarize:  # the planes are cut out: not drawn (the env parts read the cities for them only)
            vec = self.env.encode({**obs, "cities": [[] for _ in obs["cities"]]})
            vec = np.concatenate([vec[self.keep], self.city_summary(obs).ravel()])
        else:
            vec = self.env.encode(dict(obs))
        out = vec.astype(np.int16)
        if not np.array_equal(out, vec):  # a part that is not whole numbers or out of range: say so
            raise ValueError("a feature is not a whole number in the int16 range")
        return out

    def city_summary(self, obs: Mapping[str, Any]) -> np.ndarray:
        """Per relative seat (row 0 the observer): ``CITY_SUMMARY`` of its city as the observation shows."""
        n, seat = self.n, obs["seat"]
        out = np.zeros((n, len(CITY_SUMMARY)), dtype=np.float32)
        kinds = self.env._type
        for k, cells in enumerate(obs["cities"]):
            row = out[(k - seat) % n]
            for x, y, t, _walls in cells:
                typ, _special = kinds[t]
                if t:
                    row[0] += 1
                if typ >= 0:
                    row[1 + typ] += 1
                row[8] = max(row[8], abs(x), abs(y))
            row[7] = self.wall(cells)
        return out

    def wall(self, cells: list) -> int:
        key = tuple(tuple(c) for c in cells)
        w = self._walls.get(key)
        if w is None:
            if len(self._walls) > 4096:
                self._walls.clear()
            text = " ".join(f"{x},{y}:{t}/{''.join(c for b, c in enumerate('NESW') if walls >> b & 1) or '-'}"
                            for x, y, t, walls in cells)
            w = self._walls[key] = City.from_text(text).wall_score()
        return w


# ------------------------------------------------------------------------------------------- shards


def write_npz(path: Path, arrays: Mapping[str, np.ndarray]) -> None:
    """A compressed .npz (``np.load`` reads it) whose bytes depend only on the arrays: fixed member times
    and order, unlike ``np.savez_compressed``; written to a temporary file, synced, then renamed, so ``path``
    is either absent or complete."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            with zipfile.ZipFile(f, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
                for name, arr in arrays.items():
                    buf = io.BytesIO()
                    np.lib.format.write_array(buf, np.ascontiguousarray(arr), allow_pickle=False)
                    info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
                    info.compress_type = zipfile.ZIP_DEFLATED
                    info.external_attr = 0o644 << 16
                    z.writestr(info, buf.getvalue(), compresslevel=6)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_shard(path: str | Path, check: bool = True) -> dict[str, Any]:
    """A shard's arrays (``meta``, the shard's JSON header, decoded to a dict). DatasetError for a file that
    is truncated, corrupt (checksums), or not a shard of this format and version."""
    path = Path(path)
    try:
        with zipfile.ZipFile(path) as z:
            if check:
                bad = z.testzip()
                if bad is not None:
                    raise DatasetError(f"{path}: corrupt shard (member {bad} fails its checksum); delete it "
                                       "and --resume plays its games again")
            data = {}
            for name in z.namelist():
                with z.open(name) as f:
                    data[name.removesuffix(".npy")] = np.lib.format.read_array(f, allow_pickle=False)
    except DatasetError:
        raise
    except (zipfile.BadZipFile, zlib.error, ValueError, OSError, EOFError) as e:
        raise DatasetError(f"{path}: truncated or corrupt shard ({' '.join(str(e).split())}); delete it "
                           "and --resume plays its games again") from None
    try:
        meta = json.loads(bytes(data.pop("meta")).decode())
    except (KeyError, ValueError):
        raise DatasetError(f"{path}: not a self-play shard (no readable meta)") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise DatasetError(f"{path}: not a self-play shard")
    if meta.get("version") != VERSION:
        raise DatasetError(f"{path}: format version {meta.get('version')}, this code reads {VERSION}")
    missing = [c for c in ("x", *ROW_COLUMNS, *GAME_COLUMNS) if c not in data]
    if missing:
        raise DatasetError(f"{path}: shard lacks {', '.join(missing)}")
    out: dict[str, Any] = dict(data)
    out["meta"] = meta
    return out


def shard_path(directory: Path, k: int) -> Path:
    return directory / f"shard-{k:06d}.npz"


def shards(directory: str | Path) -> list[Path]:
    """The shard files of a dataset, in order."""
    return sorted(p for p in Path(directory).iterdir() if SHARD_NAME.fullmatch(p.name))


def read_manifest(directory: str | Path) -> dict:
    """The dataset's manifest; DatasetError if there is none or it is not one of this format and version."""
    path = Path(directory) / "manifest.json"
    try:
        manifest = json.loads(path.read_text())
    except FileNotFoundError:
        raise DatasetError(f"{directory}: no self-play dataset here (no manifest.json)") from None
    except (OSError, ValueError) as e:
        raise DatasetError(f"{path}: unreadable manifest ({e})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise DatasetError(f"{path}: not a self-play manifest")
    if manifest.get("version") != VERSION:
        raise DatasetError(f"{path}: format version {manifest.get('version')}, this code reads {VERSION}")
    return manifest


def iter_shards(directory: str | Path) -> Iterator[dict[str, Any]]:
    """Each shard of a dataset in order (a dict of arrays and its ``meta``), checked against the manifest:
    for data larger than memory."""
    manifest = read_manifest(directory)
    for path in shards(directory):
        shard = read_shard(path)
        _check_shard(path, shard["meta"], manifest)
        yield shard


def load(directory: str | Path) -> dict[str, Any]:
    """The whole dataset in memory: every column concatenated over the shards (rows in game order), and
    ``manifest``. ``x`` is int16; ``x.astype(np.float32)`` for learning code."""
    parts: dict[str, list[np.ndarray]] = {}
    manifest = read_manifest(directory)
    for shard in iter_shards(directory):
        for name, arr in shard.items():
            if name != "meta":
                parts.setdefault(name, []).append(arr)
    width = manifest["features"]
    out: dict[str, Any] = {name: np.concatenate(arrs) for name, arrs in parts.items()}
    if not parts:
        out = {"x": np.zeros((0, width), np.int16), **{c: np.zeros(0, t) for c, t in ROW_COLUMNS.items()}}
    out["manifest"] = manifest
    return out


# ------------------------------------------------------------------------------------------- settings


@dataclass(frozen=True)
class Settings:
    """What a dataset depends on: the same settings give the same bytes (with deterministic bots)."""

    bots: tuple[str, ...]            # per seat before rotation: a bot name or file, NAME@SECONDS allowed
    players: int
    games: int
    seed: int
    game: str = registry.DEFAULT
    options: tuple[str, ...] = ()
    encoding: str = "compact"
    shard_games: int = 0             # 0: DEFAULT_SHARD_GAMES[encoding]
    move_time: float = 0.1
    time_bank: float = 5.0
    iterations: int | None = None
    max_moves: int = DEFAULT_MAX_MOVES  # a game still running after this many moves ends unfinished

    @property
    def per_shard(self) -> int:
        return self.shard_games or DEFAULT_SHARD_GAMES[self.encoding]

    @cached_property
    def match(self) -> Match:
        return Match(",".join(self.bots), self.move_time, self.time_bank, self.iterations, self.options,
                     self.game)

    def schedule(self, start: int, stop: int) -> list[ScheduledGame]:
        """Games ``start`` to ``stop - 1``: each its own deal; the lineup rotates one seat per game, so every
        bot sits in every seat equally often."""
        line = self.match.lineup(self.players)
        n = self.players
        out = []
        for g in range(start, stop):
            shift = g % n
            seated = tuple(line[-shift:] + line[:-shift]) if shift else tuple(line)
            seed = stable_seed(self.seed, "selfplay", self.game, ",".join(self.options), n, g)
            out.append(ScheduledGame(f"s{g:07d}", seated, seed, self.options, self.game))
        return out

    def command(self) -> str:
        """The command that makes this dataset (``--jobs`` and the backend never change it)."""
        words = ["alhambra-ai", "selfplay", *self.bots, "--game", self.game, "--players", str(self.players),
                 "--games", str(self.games), "--seed", str(self.seed), "--encoding", self.encoding,
                 "--shard-games", str(self.per_shard)]
        if self.options:
            words += ["--options", ",".join(self.options)]
        words += (["--iterations", str(self.iterations)] if self.iterations else [])
        words += ["--move-time", f"{self.move_time:g}", "--time-bank", f"{self.time_bank:g}",
                  "--max-moves", str(self.max_moves)]
        return " ".join(words)


def check_settings(s: Settings) -> None:
    """BadInput for settings that cannot make a dataset (before anything is written)."""
    game = check_game(s.game, dict.fromkeys(s.options, True))
    lo, hi = game.players
    if not lo <= s.players <= hi:
        raise BadInput(f"--players must be {lo}..{hi} for {game.a_game}, not {s.players}")
    if len(s.bots) != s.players:
        raise BadInput(f"{len(s.bots)} bots for {s.players} seats: give one bot (every seat) or one per seat")
    check_match(",".join(s.bots))
    if s.games < 1:
        raise BadInput(f"--games must be at least 1, not {s.games}")
    if s.shard_games < 0 or s.shard_games > 100_000:
        raise BadInput(f"--shard-games must be 1..100000, not {s.shard_games}")
    if not s.move_time > 0 or s.time_bank < 0:
        raise BadInput("--move-time must be > 0 and --time-bank >= 0")
    if s.iterations is not None and s.iterations < 1:
        raise BadInput(f"--iterations must be at least 1, not {s.iterations}")
    if s.max_moves < 1:
        raise BadInput(f"--max-moves must be at least 1, not {s.max_moves}")
    if s.encoding not in ENCODINGS:
        raise BadInput(f"--encoding must be one of {', '.join(ENCODINGS)}, not {s.encoding!r}")


def code_version() -> dict:
    """The package's version and, from a git checkout, its commit (and whether files differ from it)."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        package = version("alhambra-ai")
    except PackageNotFoundError:
        package = None
    here = Path(__file__).resolve().parents[1]  # the package
    commit, dirty = None, None
    try:
        commit = subprocess.run(["git", "-C", str(here), "rev-parse", "HEAD"], capture_output=True,
                                text=True, timeout=10, check=True).stdout.strip() or None
        dirty = bool(subprocess.run(["git", "-C", str(here), "status", "--porcelain", "--", "."],
                                    capture_output=True, text=True, timeout=10, check=True).stdout.strip())
    except (OSError, subprocess.SubprocessError):
        pass
    return {"package": package, "git": commit, "dirty": dirty}


#: manifest fields a --resume must match (games may grow; jobs and backend never matter)
RESUME_KEYS = ("format", "version", "game", "options", "players", "lineup", "bots", "seed", "encoding",
               "features", "layout", "shard_games", "move_time", "time_bank", "iterations", "max_moves")


def make_manifest(s: Settings, enc: FeatureEncoder, sources: Mapping[str, BotSource]) -> dict:
    return {
        "format": FORMAT, "version": VERSION, "game": s.game, "options": list(s.options),
        "rules": enc.env.options, "players": s.players, "lineup": list(s.bots),
        "bots": {name: {"file": Path(src.origin).name, "sha256": src.sha256}
                 for name, src in sources.items()},
        "seat_names": s.match.lineup(s.players),
        "seed": s.seed, "games": s.games, "shard_games": s.per_shard,
        "move_time": s.move_time, "time_bank": s.time_bank, "iterations": s.iterations,
        "max_moves": s.max_moves, "encoding": s.encoding, "features": enc.size, "dtype": "int16",
        "layout": [[name, list(shape)] for name, shape in enc.layout],
        "columns": {name: np.dtype(t).name for name, t in {**ROW_COLUMNS, **GAME_COLUMNS}.items()},
        "outcome": {"margin": "own final score minus the best final score of the other seats (Dirk is no "
                              "seat)",
                    "rank": "1 = first, tied seats share; a seat that forfeited ranks below every finisher",
                    "win": "1 for a sole first place, 1/k when k seats share it, else 0"},
        "command": s.command(), "code": code_version(),
    }


def _check_shard(path: Path, meta: dict, manifest: dict) -> None:
    for key in ("game", "options", "players", "encoding", "features"):
        if meta.get(key) != manifest.get(key):
            raise DatasetError(f"{path}: {key} is {meta.get(key)!r}, the dataset's {manifest.get(key)!r}")


# ------------------------------------------------------------------------------------------- one game


def game_rows(result: dict, enc: FeatureEncoder, index: int, seat_names: list[str]) -> dict[str, np.ndarray]:
    """The rows of one refereed game (its result, with ``actions``): replayed from its seed, each decision
    encoded from the observation its seat received; plus the game's own row."""
    n = result["num_players"]
    record = {"format": "alhambra-ai-record", "version": 1, "num_players": n, "seed": result["seed"],
              "options": result["options"], "seats": result["bots"], "actions": result["actions"],
              "scores": result["scores"], "forfeits": []}
    if result.get("game_type"):
        record["game"] = result["game_type"]
    scores, ranks = list(result["scores"]), list(result["ranks"])
    top = [k for k in range(n) if ranks[k] == 1]
    margin = [scores[k] - max(scores[j] for j in range(n) if j != k) for k in range(n)]
    win = [1.0 / len(top) if k in top else 0.0 for k in range(n)]
    forfeit_at = {f["seat"]: f["move"] for f in result["forfeits"]}
    bot_index = [seat_names.index(b) for b in result["bots"]]
    truncated = bool(result.get("truncated"))
    actions = [] if truncated else result["actions"]  # unfinished: no outcome, so no rows
    xs: list[np.ndarray] = []
    cols: dict[str, list[int]] = {name: [] for name in ("ply", "seat", "action", "legal")}
    state = None
    try:
        for i, _seat, _text, state in steps(record):
            ply = i + 1
            if ply >= len(actions):
                break
            k = state.current_player
            obs = state.observation(k)
            xs.append(enc.encode(obs))
            cols["ply"].append(ply)
            cols["seat"].append(k)
            cols["action"].append(state.parse_action(actions[ply]))
            cols["legal"].append(len(obs["legal_actions"]))
    except RecordError as e:  # the referee played it: a replay that differs is a bug, not bad input
        raise RuntimeError(f"game {result.get('id')} does not replay: {e}") from None
    if not truncated and (state is None or not state.is_terminal() or list(state.scores()) != scores):
        raise RuntimeError(f"game {result.get('id')}: the replay does not end with the referee's scores")
    seat = np.array(cols["seat"], dtype=np.int64)
    plies = np.array(cols["ply"], dtype=np.int64)
    stand_in = np.array([k in forfeit_at and p >= forfeit_at[k] for k, p in zip(cols["seat"], cols["ply"],
                                                                                strict=True)], dtype=bool)
    rows: dict[str, np.ndarray] = {
        "x": np.stack(xs) if xs else np.zeros((0, enc.size), np.int16),
        "game": np.full(len(xs), index), "ply": plies, "seat": seat, "bot": np.array(bot_index)[seat],
        "action": np.array(cols["action"], dtype=np.int64), "legal": np.array(cols["legal"]),
        "stand_in": stand_in, "score": np.array(scores)[seat], "margin": np.array(margin)[seat],
        "rank": np.array(ranks)[seat], "win": np.array(win)[seat],
        "games_index": np.array([index]), "games_seed": np.array([result["seed"]]),
        "games_bots": np.array([bot_index]), "games_scores": np.array([scores]),
        "games_ranks": np.array([ranks]),
        "games_forfeit": np.array([[k in forfeit_at for k in range(n)]]),
        "games_moves": np.array([len(result["actions"])]), "games_truncated": np.array([truncated]),
        "games_dirk": np.array([-1 if result.get("dirk_score") is None else result["dirk_score"]]),
    }
    return {name: arr.astype(ROW_COLUMNS.get(name) or GAME_COLUMNS.get(name) or np.int16, copy=False)
            for name, arr in rows.items()}


def shard_arrays(games: list[dict[str, np.ndarray]], meta: dict) -> dict[str, np.ndarray]:
    """The games' rows (in game order) as one shard's arrays, ``meta`` first."""
    out: dict[str, np.ndarray] = {"meta": np.frombuffer(json.dumps(meta, sort_keys=True).encode(), np.uint8)}
    for name in ("x", *ROW_COLUMNS, *GAME_COLUMNS):
        out[name] = np.concatenate([g[name] for g in games])
    return out


# ------------------------------------------------------------------------------------------- the run


@dataclass
class RunStats:
    games: int = 0          # games played by this run
    positions: int = 0      # rows they gave
    seconds: float = 0.0
    truncated: int = 0      # of ``games``: ended unfinished at ``max_moves`` (no rows)
    failed: int = 0         # of ``truncated``: never played (the referee stalled on every attempt)
    stored_games: int = 0   # games in the dataset at the end
    stored_positions: int = 0
    driver_seconds: float = 0.0  # of ``seconds``: replaying, encoding and writing here (the games aside)


def prepare(s: Settings, out: Path, resume: bool, manifest: dict) -> tuple[dict | None, dict[int, int]]:
    """Check the output folder before anything is written: (the old manifest or None, positions per
    complete shard kept). DatasetError for a folder that holds something else, a dataset of other settings
    (game, options, players, format version, ...: ``RESUME_KEYS``), or a damaged shard."""
    if out.exists() and not out.is_dir():
        raise DatasetError(f"{out} is a file, not a dataset folder")
    manifest_path = out / "manifest.json"
    if not out.exists() or (not manifest_path.exists() and not any(out.iterdir())):
        return None, {}
    if not manifest_path.exists():
        raise DatasetError(f"{out} is not empty and holds no self-play dataset: choose another --out")
    old = read_manifest(out)
    if not resume:
        raise DatasetError(f"{out} already holds a self-play dataset: add --resume to continue it, or choose "
                           "another --out")
    for key in RESUME_KEYS:
        if old.get(key) != manifest.get(key):
            raise DatasetError(f"cannot resume {out}: {key} was {json.dumps(old.get(key))}, now "
                               f"{json.dumps(manifest.get(key))}")
    kept: dict[int, int] = {}
    per = s.per_shard
    for path in shards(out):
        shard = read_shard(path)
        meta = shard["meta"]
        _check_shard(path, meta, old)
        k = int(path.name[6:12])
        first, n = k * per, min(per, s.games - k * per)
        if meta.get("first_game") != first or meta.get("shard") != k:
            raise DatasetError(f"{path}: holds games from {meta.get('first_game')}, not {first}: not this "
                               "dataset's shard")
        if n <= 0 or meta.get("games", 0) > n:
            raise DatasetError(f"{path}: holds games beyond --games {s.games}: ask for at least as many "
                               "games as the dataset holds")
        if meta.get("games") == n:
            kept[k] = len(shard["ply"])
        # else: the short last shard of a run that now has more games: played again and rewritten
    return old, kept


def run_selfplay(s: Settings, out: str | Path, resume: bool = False, jobs: int = 1, backend: str = "local",
                 address: str | None = None, bar: Any = None, note: Callable[[str], None] | None = None,
                 ) -> RunStats:
    """Play the games of ``s`` that ``out`` lacks and write their shards. BadInput (nothing written) for bad
    settings, an output folder of something else, or a ``--resume`` of a dataset with other settings."""
    note = note or (lambda text: print(text, file=sys.stderr))
    check_settings(s)
    out = Path(out)
    enc = FeatureEncoder(s.game, s.players, dict.fromkeys(s.options, True), s.encoding)
    paths = s.match.paths(s.players)
    sources = {name: BotSource.from_file(p) for name, p in paths.items()}  # read once; workers get copies
    hashes = {name: src.sha256 for name, src in sources.items()}
    manifest = make_manifest(s, enc, sources)
    _old, kept = prepare(s, out, resume, manifest)
    limits = replace(s.match.limits(s.players), max_moves=s.max_moves)
    per = s.per_shard
    count = -(-s.games // per)
    todo_shards = [k for k in range(count) if k not in kept]
    stats = RunStats(stored_games=sum(min(per, s.games - k * per) for k in kept),
                     stored_positions=sum(kept.values()))
    if bar is not None:
        bar.reset(total=s.games)
        bar.update(stats.stored_games)
    arena = backend_named(backend, jobs, address)
    with arena:
        first = s.schedule(0, 1)
        arena.check(first, limits)
        check_bots(list(paths.values()), limits, list(sources.values()))
        # every check passed: only now is anything written
        out.mkdir(parents=True, exist_ok=True)
        for stale in out.glob(".shard-*.tmp"):
            stale.unlink()
        write_json_atomic(out / "manifest.json", manifest)
        os.chmod(out / "manifest.json", 0o644)  # readable as the shards are (the temporary file was 0600)
        started = time.monotonic()
        # a few shards' games at a time: memory stays flat however many games, and the cores are busy
        chunk = max(4, -(-max(8 * per, 64 * jobs, 512 if backend == "ray" else 0) // per))
        for i in range(0, len(todo_shards), chunk):
            _play_shards(s, out, todo_shards[i:i + chunk], arena, sources, hashes, limits, enc, manifest,
                         stats, bar, note)
        stats.seconds = time.monotonic() - started
    return stats


def _unplayed(spec: ScheduledGame) -> dict:
    """The result of a game that could not be played (runner.play_all gave up on it): no moves, no outcome
    (stored as truncated, so it gives no rows)."""
    n = spec.num_players
    return {"num_players": n, "seed": spec.seed, "options": list(spec.options), "bots": list(spec.bots),
            "scores": [0] * n, "ranks": [1] * n, "forfeits": [], "truncated": True, "dirk_score": None}


def _play_shards(s: Settings, out: Path, ks: list[int], arena, sources, hashes, limits,
                 enc: FeatureEncoder, manifest: dict, stats: RunStats, bar, note) -> None:
    per = s.per_shard
    specs: list[ScheduledGame] = []
    for k in ks:
        specs += s.schedule(k * per, min((k + 1) * per, s.games))
    index = {spec.id: int(spec.id[1:]) for spec in specs}
    waiting: dict[int, dict[int, dict]] = {k: {} for k in ks}
    names = manifest["seat_names"]
    with closing(play_all(arena, specs, sources, hashes, limits, note)) as played:
        for spec, result, record in played:
            t0 = time.monotonic()
            g = index[spec.id]
            k = g // per
            if record is None:  # its referee stalled on every play: kept as a game without an outcome
                stats.failed += 1
                result, record = _unplayed(spec), {"actions": []}
            rows = game_rows({**result, "actions": record["actions"], "id": spec.id}, enc, g, names)
            waiting[k][g] = rows
            stats.games += 1
            stats.truncated += bool(result.get("truncated"))
            stats.positions += len(rows["ply"])
            if bar is not None:
                bar.update(1)
                bar.set_postfix_str(f"{stats.stored_positions + stats.positions} positions", refresh=False)
            first, n = k * per, min(per, s.games - k * per)
            if len(waiting[k]) == n:
                done = waiting.pop(k)
                games = [done[g] for g in range(first, first + n)]
                meta = {"format": FORMAT, "version": VERSION, "game": s.game, "options": list(s.options),
                        "players": s.players, "encoding": s.encoding, "features": enc.size, "shard": k,
                        "first_game": first, "games": n}
                write_npz(shard_path(out, k), shard_arrays(games, meta))
                stats.stored_games += n
                stats.stored_positions += sum(len(g["ply"]) for g in games)
            stats.driver_seconds += time.monotonic() - t0


__all__ = ["CITY_SUMMARY", "ENCODINGS", "FORMAT", "VERSION", "DatasetError", "FeatureEncoder", "RunStats",
           "Settings", "iter_shards", "load", "read_manifest", "read_shard", "run_selfplay", "shards",
           "write_npz"]
