"""Search toolkit for bot files: determinization, move budgets and the compiled search helpers.

Bots see only observations. To search, a bot turns its observation into full states consistent with what its
seat knows (``determinize``), then uses the compiled helpers of ``alhambra_ai._core`` (search.pxi): the one-
ply greedy policy, expectimax chance samples and the MCTS, which resample the hidden order themselves.

>>> from alhambra_ai import new_game
>>> s = new_game(2, seed=1)
>>> obs = s.observation(s.current_player)
>>> d = determinize(obs, seed=5)
>>> d.observation(obs["seat"]) == obs
True
>>> greedy_action(d) in obs["legal_actions"]
True
"""

from __future__ import annotations

import time
from typing import Any

from alhambra_ai import _core
from alhambra_ai._core import (  # noqa: F401  (re-exported for bot files)
    Mcts,
    search_chance_leaf,
    search_evaluate,
    search_greedy,
    search_priors,
    search_resample,
    search_rewards,
    search_rollout,
    search_weights,
)

__all__ = [
    "Mcts",
    "MoveClock",
    "decisions_left",
    "determinize",
    "greedy_action",
    "move_seed",
    "obs_dict",
    "scoring_ranges",
]

DEFAULT_MOVE_TIME = 1.0  # seconds per move when neither the observation nor the config gives a limit
SAFETY = 0.85  # fraction of the move limit a bot plans to use (the rest covers overhead and IPC)


def obs_dict(obs: Any) -> dict:
    """The observation as a dict (an ``Observation`` wrapper or a plain dict), without copying it."""
    if isinstance(obs, dict):
        return obs
    d = getattr(obs, "_d", None)
    if isinstance(d, dict):
        return d
    return obs.to_dict()


def determinize(obs: Any, seed: int):
    """A full State consistent with the observation (``alhambra_ai.determinize``, sampled with ``seed``).

    Looked up at call time, so a test can replace it (and catch a bot that would use a leaking one)."""
    return _core.determinize(obs_dict(obs), seed)


def scoring_ranges(obs: Any) -> tuple[tuple[int, int], tuple[int, int]]:
    """Per scoring card 1, 2: the public (first, last) draw-pile index it may lie at, (-1, -1) once drawn."""
    out = []
    for card in obs_dict(obs).get("scoring_cards") or []:
        pos = card.get("positions")
        out.append((int(pos[0]), int(pos[1])) if pos and not card.get("drawn") else (-1, -1))
    while len(out) < 2:
        out.append((-1, -1))
    return out[0], out[1]


def move_seed(seed: int, obs: Any, salt: int = 0) -> int:
    """A seed for this move: stable across runs (no Python hash), different for every decision of a game."""
    d = obs_dict(obs)
    x = (seed * 0x9E3779B1 + len(d.get("history") or ()) * 0x85EBCA77 + int(d.get("turn", 0)) * 0xC2B2AE3D
         + int(d.get("actions_this_turn", 0) or 0) * 0x27D4EB2F + len(d.get("pending") or ()) * 0x165667B1
         + salt * 0xD3A2646C)
    return x % (2 ** 63)


def greedy_action(state) -> int:
    """The one-ply greedy choice of the seat to act in ``state``."""
    return search_greedy(state)[0]


def decisions_left(obs: Any) -> float:
    """About how many more decisions the seat will make this game, from the bag (what ends the game).

    Fitted on greedy games: 2 players start with about 60 decisions each, 4 players about 40.
    """
    d = obs_dict(obs)
    n = int(d.get("num_players") or 2)
    return max(1.0, (int(d.get("bag_size") or 0) + 3) * 2.6 / n)


class MoveClock:
    """The time a bot may spend on one move.

    The limit is the observation's ``move_time`` (capped by ``time_left``) when the referee gives one,
    else the configured ``move_time``, else DEFAULT_MOVE_TIME; a bot plans to use SAFETY of it, counted from
    when the clock was made (the start of ``act``). With ``bank_share`` > 0 it also spends that share of the
    time bank left (``time_left - move_time``: what the referee lends to slow moves) spread over the
    decisions still to come (``decisions_left``), so a bot that uses it never runs its bank dry: each move
    takes a share of what is left.

    >>> c = MoveClock({"move_time": 0.2}, {})
    >>> round(c.budget, 2)
    0.17
    >>> obs = {"move_time": 0.1, "time_left": 5.1, "bag_size": 27, "num_players": 2}
    >>> round(MoveClock(obs, {}, bank_share=0.5).budget, 3)   # 0.085 + 0.5 * 5.0 / 39
    0.149
    """

    def __init__(self, obs: Any, config: dict | None = None, bank_share: float = 0.0) -> None:
        self.start = time.monotonic()
        d = obs_dict(obs)
        limit = d.get("move_time")
        left = d.get("time_left")
        if limit is None:
            limit = (config or {}).get("move_time") or DEFAULT_MOVE_TIME
        if left is not None:
            limit = min(limit, left)
        self.limit = max(0.0, float(limit))
        self.budget = SAFETY * self.limit
        if bank_share > 0 and left is not None:
            bank = max(0.0, float(left) - self.limit)
            self.budget += bank_share * bank / decisions_left(d)

    @property
    def deadline(self) -> float:
        """time.monotonic() value at which the move should be decided."""
        return self.start + self.budget

    def left(self) -> float:
        return self.deadline - time.monotonic()
