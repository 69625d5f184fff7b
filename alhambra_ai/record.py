"""Game records: a finished (or stopped) game as JSON that replays to the identical state.

A record holds only what is needed to reproduce the game: the player count, the seed, the options and the
actions in text form. Everything else follows from the seeded setup and the rules.

>>> from alhambra_ai import new_game
>>> s = new_game(3, seed=7)
>>> while not s.is_terminal():
...     s.apply(s.legal_actions()[0])
>>> rec = make_record(s, ["a", "b", "c"])
>>> replay(rec).scores() == s.scores()
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from os import PathLike
from typing import Any

FORMAT = "alhambra-ai-record"
VERSION = 1

_KEYS = ("format", "version", "num_players", "seed", "options", "seats", "actions", "scores", "forfeits")


class RecordError(ValueError):
    """A game record that is malformed or does not replay; the message names the first problem."""


def action_texts(state: Any) -> list[str]:
    """The actions played so far in text form, read from the state's public history (``"seat 2: take y3"``).

    Raises RecordError for a state whose history does not start at ``new_game`` or was not recorded.
    """
    history = state.history
    if not history or history[0].startswith("setup:"):
        raise RecordError("a record needs a game started by new_game with its history recorded")
    out = []
    for line in history:
        if line.startswith("seat "):
            head, sep, rest = line.partition(": ")
            if sep and len(head.split()) == 2:      # "seat 2: buy ..." (not "seat 2 dealt: ...")
                out.append(rest)
    return out


def make_record(state: Any, seats: Sequence[str], forfeits: Iterable[Any] = (), check: bool = True) -> dict:
    """The record of the game that led to ``state`` (from ``new_game``, then ``apply``).

    ``seats`` are the players' names in seat order; ``forfeits`` the seats that forfeited, as ints or as
    dicts with a ``"seat"`` key (kept as given, e.g. with the reason). With ``check`` the record is replayed
    and must reproduce ``state`` exactly (RecordError otherwise, e.g. when history recording was turned off).
    """
    seats = [str(name) for name in seats]
    if len(seats) != state.num_players:
        raise RecordError(f"{len(seats)} seat names for a {state.num_players}-player game")
    forfeits = [f if isinstance(f, dict) else int(f) for f in forfeits]
    record = {
        "format": FORMAT,
        "version": VERSION,
        "num_players": state.num_players,
        "seed": state.seed,
        "options": dict(state.options),
        "seats": seats,
        "actions": action_texts(state),
        "scores": list(state.scores()),
        "forfeits": forfeits,
    }
    _check(record)
    if check and replay(record)._fingerprint() != state._fingerprint():
        raise RecordError("the recorded actions do not reproduce the state (was its history recorded?)")
    return record


def _check(record: Any) -> None:
    """Raise RecordError naming the first malformed field."""
    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object, not {type(record).__name__}")
    if record.get("format") != FORMAT:
        raise RecordError(f"not a game record: format is {record.get('format')!r}, expected {FORMAT!r}")
    if record.get("version") != VERSION:
        raise RecordError(f"unsupported record version {record.get('version')!r} "
                          f"(this reader knows {VERSION})")
    for key in ("num_players", "seed", "options", "actions"):
        if key not in record:
            raise RecordError(f"record has no {key!r}")
    unknown = sorted(set(record) - set(_KEYS))
    if unknown:
        raise RecordError(f"unknown record field {unknown[0]!r}")
    n = record["num_players"]
    if type(n) is not int or not 2 <= n <= 6:
        raise RecordError(f"num_players must be an int 2..6, not {n!r}")
    if type(record["seed"]) is not int or record["seed"] < 0:
        raise RecordError(f"seed must be a non-negative int, not {record['seed']!r}")
    if not isinstance(record["options"], dict):
        raise RecordError("options must be an object")
    actions = record["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError("actions must be a list of action texts")
    seats = record.get("seats")
    if seats is not None and (
        not isinstance(seats, list) or len(seats) != n or not all(isinstance(x, str) for x in seats)
    ):
        raise RecordError(f"seats must be a list of {n} names")
    scores = record.get("scores")
    if scores is not None and (
        not isinstance(scores, list) or len(scores) != n or not all(type(x) is int for x in scores)
    ):
        raise RecordError(f"scores must be a list of {n} ints")
    forfeits = record.get("forfeits", [])
    if not isinstance(forfeits, list):
        raise RecordError("forfeits must be a list")
    for f in forfeits:
        seat = f.get("seat") if isinstance(f, dict) else f
        if type(seat) is not int or not 0 <= seat < n:
            raise RecordError(f"forfeit {f!r}: a seat 0..{n - 1}, or an object with such a \"seat\"")


def replay(record: dict, check_scores: bool = True) -> Any:
    """Replay a record from its seed and return the final State.

    Raises RecordError for a malformed record, for the first action that is not legal where it stands
    (naming its index and text) and, with ``check_scores``, when the final scores differ from the recorded
    ones.
    """
    from alhambra_ai import IllegalActionError, new_game

    _check(record)
    try:
        state = new_game(record["num_players"], seed=record["seed"], options=record["options"])
    except ValueError as e:
        raise RecordError(f"record setup: {e}") from None
    for i, text in enumerate(record["actions"]):
        if state.is_terminal():
            raise RecordError(f"action {i} {text!r}: the game is already over")
        try:
            state.apply(text)
        except (IllegalActionError, ValueError) as e:
            raise RecordError(f"action {i} {text!r} does not replay: {e}") from None
    scores = record.get("scores")
    if check_scores and scores is not None and list(state.scores()) != scores:
        raise RecordError(f"replayed scores {list(state.scores())} differ from the recorded {scores}")
    return state


def save_record(record: dict, path: str | PathLike) -> None:
    """Write a record as one JSON document (checked first)."""
    _check(record)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(record, f, indent=1)
        f.write("\n")


def load_record(path: str | PathLike) -> dict:
    """Read and check a record file (the actions are not replayed; use ``replay`` for that)."""
    try:
        with open(path, encoding="utf-8") as f:
            record = json.load(f)
    except json.JSONDecodeError as e:
        raise RecordError(f"{path}: not JSON ({e})") from None
    _check(record)
    return record
