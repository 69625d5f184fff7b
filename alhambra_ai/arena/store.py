"""The results of a tournament on disk, safe against being killed at any moment.

DIR/tournament.json   the settings (the master seed too), the bots' file hashes (a resume must match them),
                      and "isolation": the sandbox in force ({"namespaces", "landlock", "seccomp", "missing"})
DIR/results.jsonl     one JSON line per finished game, appended with one write + fsync
DIR/games/ID.json     each game's replayable record (docs/design.md "Game record"), tmp + rename
DIR/failed.jsonl      one JSON line per game that could not be played ({"game", "bots", "failed": why}: its
                      referee stalled on every attempt); never rated, and --resume does not play it again
DIR/standings.csv, DIR/standings.json   the leaderboard, rewritten at the end

Only the referee reads or writes here: the directory is hidden from every bot worker (sandbox.protect).
A result line is appended only after its record is in place, so every counted game has a record.
A kill can leave at most a torn last line: ``load_results`` drops it (and truncates it away).

The JSON-lines primitives under it, ``append_line`` and ``read_lines``, are the arena's one kill-safe log:
``strength --out`` (one file: a settings line, then a line per game) is kept with them too.

A result line: {"game", "seed", "bots", "sha256", "num_players", "options", ["game_type": the game's name,
for any game but the registry's default; "game" is the game's id], "scores", "dirk_score",
"ranks" (for the ratings: forfeiters last), "game_ranks" (the game's own), "forfeits": [{"seat",
"bot", "reason", "detail", "move"}], "moves", "move_times": [{"moves", "mean", "max"} per seat],
"duration"}.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from alhambra_ai import registry
from alhambra_ai.errors import BadInput
from alhambra_ai.formats.record import record_text
from alhambra_ai.sandbox import launch as sandbox

RESULTS = "results.jsonl"
FAILED = "failed.jsonl"
SETTINGS = "tournament.json"


class StoreError(BadInput):
    """The output directory or log cannot be used as asked (message says why): bad input, exit 2."""


def file_sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def write_json_atomic(path: Path, data: object, text: str | None = None) -> None:
    """Write JSON (or its ``text`` when given) so that ``path`` holds either the old or the complete new
    content, never a part."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            if text is None:
                json.dump(data, f, indent=1)
                f.write("\n")
            else:
                f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def check_result(item: object) -> None:
    """Raise ValueError unless ``item`` has the shape of a result line (what the ratings rely on).

    >>> check_result({"game": "g1", "bots": ["a", "b"], "scores": [3, 1], "ranks": [1, 2], "forfeits": []})
    >>> check_result({"game": "g1", "bots": ["a", "b"], "scores": [3], "ranks": [1, 2], "forfeits": []})
    Traceback (most recent call last):
    ValueError: scores: not one int per seat
    """
    if not isinstance(item, dict) or not isinstance(item.get("game"), str):
        raise ValueError("not a result")
    bots = item.get("bots")
    if not isinstance(bots, list) or not bots or not all(isinstance(b, str) for b in bots):
        raise ValueError("bots: not a list of names")
    for key in ("scores", "ranks"):
        values = item.get(key)
        if not isinstance(values, list) or len(values) != len(bots) or \
                not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise ValueError(f"{key}: not one int per seat")
    forfeits = item.get("forfeits")
    if not isinstance(forfeits, list) or not all(
            isinstance(f, dict) and f.get("seat") in range(len(bots)) and isinstance(f.get("reason"), str)
            for f in forfeits):
        raise ValueError("forfeits: not a list of {seat, reason, ...}")


def _check_failed(item: object) -> None:
    if not (isinstance(item, dict) and isinstance(item.get("game"), str)
            and isinstance(item.get("failed"), str)):
        raise ValueError("not a failed game's line")


def append_line(path: Path, text: str) -> None:
    """Append ``text`` and a newline to ``path`` with one write, then fsync: a kill leaves the whole line
    or a torn last line (which ``read_lines`` drops), never a damaged line before it."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, (text + "\n").encode())
        os.fsync(fd)
    finally:
        os.close(fd)


def read_lines(path: Path, check: Callable[[object], None] | None = None,
               repair: bool = False) -> tuple[list, bool]:
    """The JSON values of the lines of ``path`` in file order (blank lines skipped), each passed to ``check``
    (which raises ValueError for a value that is not one), and whether a torn last line was left out.

    A torn or unparsable last line (a kill during ``append_line``; a line without its newline counts as
    torn) is ignored, and with ``repair`` cut off the file so that the next append starts on a clean line.
    Damage anywhere else is a StoreError naming the line.

    >>> import tempfile; path = Path(tempfile.mkdtemp()) / "log.jsonl"
    >>> append_line(path, '{"a": 1}'); _ = open(path, "a").write('{"a": ')
    >>> read_lines(path, repair=True), len(path.read_text().splitlines())
    (([{'a': 1}], True), 1)
    """
    data = path.read_bytes()
    lines = data.split(b"\n")
    values, good_end, offset, torn = [], 0, 0, False
    for i, line in enumerate(lines):
        end = offset + len(line) + 1
        if line.strip():
            last = i == len(lines) - 1 or (i == len(lines) - 2 and not lines[-1])
            try:
                item = json.loads(line)
                if check is not None:
                    check(item)
                if i == len(lines) - 1:  # no final newline: the write was cut
                    raise ValueError("torn")
            except ValueError:
                if last:
                    torn = True
                    break
                raise StoreError(f"{path}: line {i + 1} is damaged; fix or remove it") from None
            values.append(item)
            good_end = end
        offset = end
    if repair and good_end < len(data):
        with open(path, "r+b") as f:
            f.truncate(good_end)
            f.flush()
            os.fsync(f.fileno())
    return values, torn


def load_results(directory: Path, repair: bool = False) -> list[dict]:
    """The finished games in DIR/results.jsonl, sorted by game id (first line wins for a repeated id),
    each checked (``check_result``); a torn last line is dropped (see ``read_lines``, ``repair``)."""
    path = directory / RESULTS
    if not path.exists():
        return []
    results: dict[str, dict] = {}
    for item in read_lines(path, check_result, repair)[0]:
        results.setdefault(item["game"], item)
    return [results[k] for k in sorted(results)]


class ResultStore:
    """Appends finished games to an output directory (one writer: the tournament's main thread)."""

    def __init__(self, directory: str | Path) -> None:
        self.dir = Path(directory)  # created by the first write, not before
        sandbox.protect(self.dir)  # hidden from every bot worker (only the referee writes or reads it)

    def add(self, result: dict, record: dict) -> None:
        write_json_atomic(self.dir / "games" / f"{result['game']}.json", record, record_text(record))
        append_line(self.dir / RESULTS, json.dumps(result, separators=(",", ":")))

    def results(self, repair: bool = False) -> list[dict]:
        return load_results(self.dir, repair)

    def add_failed(self, failure: dict) -> None:
        append_line(self.dir / FAILED, json.dumps(failure, separators=(",", ":")))

    def failed(self, repair: bool = False) -> list[dict]:
        """The games recorded as failed (``referee.failed_result``), in game-id order."""
        path = self.dir / FAILED
        if not path.exists():
            return []
        items = {i["game"]: i for i in read_lines(path, _check_failed, repair)[0]}
        return [items[k] for k in sorted(items)]

    def settings(self) -> dict | None:
        """The stored settings, None for a new directory."""
        path = self.dir / SETTINGS
        if not path.is_file():
            return None
        try:
            return json.loads(path.read_text())
        except ValueError:
            raise StoreError(f"{path} is damaged") from None

    def save_settings(self, settings: dict) -> None:
        write_json_atomic(self.dir / SETTINGS, settings)


def settings_difference(old: dict, new: dict) -> str | None:
    """A one-line description of the first difference that forbids a resume, else None."""
    unset = {"game": registry.DEFAULT}  # a setting left out of tournament.json when it has this value
    for key in sorted(set(old) | set(new)):
        if key in ("bots", "isolation"):  # the isolation is recorded, not a setting
            continue
        was, now = old.get(key, unset.get(key)), new.get(key, unset.get(key))
        if was != now:
            return f"{key} was {was!r}, now {now!r}"
    old_bots, new_bots = old.get("bots", {}), new.get("bots", {})
    if set(old_bots) != set(new_bots):
        return f"the bots were {', '.join(sorted(old_bots))}, now {', '.join(sorted(new_bots))}"
    for name in sorted(old_bots):
        if old_bots[name]["sha256"] != new_bots[name]["sha256"]:
            return f"bot file {new_bots[name]['path']} changed since the run started (sha256 differs)"
    return None
