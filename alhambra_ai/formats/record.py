"""Game records: a finished (or stopped) game as JSON that replays to the identical state.

A record holds what is needed to reproduce the game: the player count, the seed, the options and the
actions in text form; everything else follows from the seeded setup and the rules. It also carries the
game's public events as data (``events``, checked against the replay), for readers that do not replay.

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
from collections.abc import Iterable, Iterator, Sequence
from os import PathLike
from typing import Any

from alhambra_ai import registry
from alhambra_ai._core import IllegalActionError, new_game
from alhambra_ai.errors import BadInput

FORMAT = "alhambra-ai-record"
VERSION = 1

_KEYS = ("format", "version", "game", "num_players", "seed", "options", "seats", "actions", "scores",
         "forfeits", "events")
# "game" is written only for the dice games (base records as before); "events" (the game's public events as
# data, docs/formats.md "Events") is optional: records written before it load and replay as they did


class RecordError(BadInput):
    """A game record that is malformed or does not replay; the message names the first problem."""


def action_texts(state: Any) -> list[str]:
    """The actions played so far in text form: the codes of the state's ``action`` events, each written
    by ``action_to_text`` where it was played (a replay from the seed; no history text is read).

    Raises RecordError for a state whose events do not start at ``new_game`` or were not recorded.
    """
    events = state.events
    if not events or events[0]["kind"] in ("setup", "note"):
        raise RecordError("a record needs a game started by new_game with its history recorded")
    codes = [e["payload"] for e in events if e["kind"] == "action"]
    own = getattr(state, "texts_of", None)      # (a stand-in game of the tests writes its own)
    if own is not None:
        return list(own(codes))
    replayed = new_game(state.num_players, seed=state.seed, options=state.options,
                        game=getattr(state, "game", registry.DEFAULT))
    replayed.record_history = False
    out = []
    for code in codes:
        out.append(replayed.action_to_text(code))
        replayed.apply(code)
    return out


def make_record(state: Any, seats: Sequence[str], forfeits: Iterable[Any] = (), check: bool = True) -> dict:
    """The record of the game that led to ``state`` (from ``new_game``, then ``apply``).

    ``seats`` are the players' names in seat order; ``forfeits`` the seats that forfeited, as objects
    ``{"seat", "bot", "reason", "move"}`` (only ``"seat"`` required; ``move`` = the index in ``actions``
    of the first move played by the stand-in) or as bare seat ints, which become ``{"seat": s}``. With
    ``check`` the record is replayed and must reproduce ``state`` exactly (RecordError otherwise, e.g. when
    history recording was turned off).
    """
    seats = [str(name) for name in seats]
    if len(seats) != state.num_players:
        raise RecordError(f"{len(seats)} seat names for a {state.num_players}-player game")
    forfeits = [dict(f) if isinstance(f, dict) else {"seat": int(f)} for f in forfeits]
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
        "events": list(state.events),
    }
    game = getattr(state, "game", registry.DEFAULT)
    if game != registry.DEFAULT:      # records of the base game name none (the format's default)
        record["game"] = game
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
    try:
        registry.get(record.get("game", registry.DEFAULT))
    except BadInput as e:
        raise RecordError(str(e)) from None
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
    events = record.get("events", [])
    if not isinstance(events, list) or not all(isinstance(e, dict) and {"seat", "kind", "payload"} <= e.keys()
                                               for e in events):
        raise RecordError('events must be a list of objects {"seat", "kind", "payload"}')
    forfeits = record.get("forfeits", [])
    if not isinstance(forfeits, list):
        raise RecordError("forfeits must be a list")
    for f in forfeits:
        _check_forfeit(f, n, len(actions))


_FORFEIT_TYPES = {"seat": int, "bot": str, "reason": str, "move": int}


def _check_forfeit(f: Any, n: int, moves: int) -> None:
    shape = f'an object {{"seat", "bot", "reason", "move"}} with "seat" 0..{n - 1}'
    if not isinstance(f, dict) or "seat" not in f:
        raise RecordError(f"forfeit {f!r}: must be {shape}")
    for key, value in f.items():
        kind = _FORFEIT_TYPES.get(key)
        if kind is None:
            raise RecordError(f"forfeit {f!r}: unknown field {key!r}")
        if type(value) is not kind:
            raise RecordError(f"forfeit {f!r}: {key!r} must be of type {kind.__name__}")
    if not 0 <= f["seat"] < n:
        raise RecordError(f"forfeit {f!r}: must be {shape}")
    if not 0 <= f.get("move", 0) <= moves:
        raise RecordError(f"forfeit {f!r}: move must be 0..{moves} (an index into actions)")


def steps(record: dict) -> Iterator[tuple[int, int, str, Any]]:
    """Replay a record move by move: first ``(-1, -1, "", state after setup)``, then for each action
    ``(index, seat that played it, text, state after it)``. The same State object is yielded each time
    (clone it to keep one). Raises RecordError as ``replay`` does; the final scores are not checked.
    """
    _check(record)
    try:
        state = new_game(record["num_players"], seed=record["seed"], options=record["options"],
                         game=record.get("game", "alhambra"))
    except ValueError as e:
        raise RecordError(f"record setup: {e}") from None
    yield -1, -1, "", state
    for i, text in enumerate(record["actions"]):
        if state.is_terminal():
            raise RecordError(f"action {i} {text!r}: the game is already over")
        seat = state.current_player
        try:
            state.apply(text)
        except (IllegalActionError, ValueError) as e:
            raise RecordError(f"action {i} {text!r} does not replay: {e}") from None
        yield i, seat, text, state


def check_final_scores(record: dict, state: Any) -> None:
    """RecordError if the record holds scores and ``state`` (its replay) does not have them."""
    scores = record.get("scores")
    if scores is not None and list(state.scores()) != scores:
        raise RecordError(f"replayed scores {list(state.scores())} differ from the recorded {scores}")


def replay(record: dict, check_scores: bool = True) -> Any:
    """Replay a record from its seed and return the final State.

    Raises RecordError for a malformed record, for the first action that is not legal where it stands
    (naming its index and text) and, with ``check_scores``, when the final scores differ from the recorded
    ones.
    """
    *_, (_, _, _, state) = steps(record)
    if check_scores:
        check_final_scores(record, state)
    if "events" in record and record["events"] != state.events:
        raise RecordError("the recorded events differ from the replay's")
    return state


def record_text(record: dict) -> str:
    """A record as the JSON text written to files: ``json.dumps(record, indent=1)``, but each of its
    ``events`` on one line (a long game has a thousand)."""
    parts = []
    for key, value in record.items():
        if key == "events" and value:
            lines = ",\n".join("  " + json.dumps(e) for e in value)
            parts.append(f' "events": [\n{lines}\n ]')
        else:
            parts.append(f" {json.dumps(key)}: " + json.dumps(value, indent=1).replace("\n", "\n "))
    return "{\n" + ",\n".join(parts) + "\n}\n"


def save_record(record: dict, path: str | PathLike) -> None:
    """Write a record as one JSON document (checked first)."""
    _check(record)
    with open(path, "w", encoding="utf-8") as f:
        f.write(record_text(record))


def load_record(path: str | PathLike) -> dict:
    """Read and check a record file (the actions are not replayed; use ``replay`` or ``steps`` for that).

    RecordError names the file and the problem; a file that cannot be read raises OSError as ``open`` does.
    """
    try:
        with open(path, encoding="utf-8") as f:
            record = json.load(f)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise RecordError(f"{path}: not JSON ({e})") from None
    try:
        _check(record)
    except RecordError as e:
        raise RecordError(f"{path}: {e}") from None
    return record
