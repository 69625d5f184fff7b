"""JSON positions: a complete state (hidden parts included) and observations, to files and back.

``state_to_json(state)`` gives every part of the state: cities, reserves, hands, display, market, draw-pile
order, bag order, discard, pending tiles, Dirk, scores and their breakdown, phase, seat to act, turn, the RNG
state, seed and options, and the public history. ``state_from_json`` rebuilds it exactly: the two states have
the same ``state_to_json`` and the same future under the same actions. A malformed or impossible position
raises ``PositionError`` (a ValueError) naming the first problem. The format is described in docs/formats.md.

>>> from alhambra_ai import new_game
>>> s = new_game(3, seed=7)
>>> d = state_to_json(s)
>>> state_to_json(state_from_json(d)) == d
True
>>> d["seats"][0]["reserve"] = [d["market"][0]]
>>> state_from_json(d)
Traceback (most recent call last):
...
alhambra_ai._core.PositionError: tile 38 is both in the reserve of seat 0 and in market slot 1
"""

from __future__ import annotations

import json
from os import PathLike
from typing import Any

from alhambra_ai._core import (
    POSITION_FORMAT,
    POSITION_VERSION,
    PositionError,
    State,
    position_of,
    state_from_observation,
    state_from_position,
)

__all__ = [
    "POSITION_FORMAT",
    "POSITION_VERSION",
    "PositionError",
    "check_observation",
    "load_observation",
    "load_position",
    "save_observation",
    "save_position",
    "state_from_json",
    "state_to_json",
]


def state_to_json(state: State) -> dict:
    """The complete state as a JSON-ready dict (see docs/formats.md "Position")."""
    return position_of(state)


def state_from_json(d: dict | str) -> State:
    """The State of a position dict (or its JSON text); PositionError names the first problem."""
    if isinstance(d, str):
        try:
            parsed: Any = json.loads(d)     # any JSON value: the core's PositionError names one not an object
        except json.JSONDecodeError as e:
            raise PositionError(f"not JSON: {e}") from None
        return state_from_position(parsed)
    return state_from_position(d)


def check_observation(obs: dict) -> None:
    """PositionError unless ``obs`` is a consistent observation: a state built from it (hidden parts in any
    order) must give back exactly this observation for its seat."""
    state_from_observation(obs)


def _write(obj: Any, path: str | PathLike) -> None:
    with open(path, "w", encoding="utf-8") as f:
        json.dump(obj, f, indent=1, sort_keys=True)
        f.write("\n")


def _read(path: str | PathLike) -> Any:
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except json.JSONDecodeError as e:
        raise PositionError(f"{path}: not JSON ({e})") from None


def save_position(state: State, path: str | PathLike) -> None:
    """Write ``state_to_json(state)`` to ``path``."""
    _write(state_to_json(state), path)


def load_position(path: str | PathLike) -> State:
    """Read a position file; PositionError (naming the file) if it is not valid."""
    d = _read(path)
    try:
        return state_from_position(d)
    except PositionError as e:
        raise PositionError(f"{path}: {e}") from None


def save_observation(obs: Any, path: str | PathLike) -> None:
    """Write an observation (a dict, or an object with ``to_dict``) as JSON."""
    _write(obs.to_dict() if hasattr(obs, "to_dict") else obs, path)


def load_observation(path: str | PathLike) -> dict:
    """Read an observation file and check it (``check_observation``); returns the dict."""
    obs = _read(path)
    try:
        check_observation(obs)
    except PositionError as e:
        raise PositionError(f"{path}: {e}") from None
    return obs
