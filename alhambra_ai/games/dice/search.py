"""The dice games' moves for the built-in bots (the registry's ``search`` part; bots/*.py call these).

Each takes the seat's observation, the bot's seed and its config, and returns an action code; the choice uses
public knowledge only (the observation is determinized first):

- ``greedy``: one ply (``greedy.py``);
- ``expectimax``: the exact expectation over re-roll outcomes on the position value (``expectimax.py``,
  ``value.py``), within the move's time, or exact and deterministic when the config gives ``samples``;
- ``mcts``: a compiled UCT tree with chance nodes over the exact roll outcomes, cut off by the position
  value (``mcts.py``; config: iterations, c_uct, depth, scale, pw, dets, value: ``hand`` for value.py or
  ``learned`` for the shipped weights evaluated in C; ``flat`` = the first flat UCB with random playouts, kept
  for comparisons).

>>> from alhambra_ai import new_game
>>> s = new_game(2, 1, game="dice"); s.apply("roll")
>>> obs = s.observation(s.current_player)
>>> all(s.is_legal(f(obs, 3, {"iterations": 30, "samples": 1})) for f in (greedy, expectimax, mcts))
True
"""

from __future__ import annotations

from typing import Any

from alhambra_ai.bot import (
    toolkit as toolkit,  # determinize looked up at call time: tests swap it to catch leaks
)
from alhambra_ai.bot.toolkit import MoveClock, move_seed, obs_dict
from alhambra_ai.games.dice import expectimax as _expectimax
from alhambra_ai.games.dice import greedy as _greedy
from alhambra_ai.games.dice import mcts as _mcts
from alhambra_ai.games.dice.value import value_of

_MCTS_PARAMS = (("c_uct", float), ("depth", int), ("scale", float), ("pw", float), ("dets", int),
                ("own_markers", int),
                ("narrow", int), ("qmc", int), ("value", str))


def greedy(obs: Any, seed: int, config: dict | None = None) -> int:
    """The one-ply greedy move."""
    return _greedy.greedy_action(toolkit.determinize(obs, move_seed(seed, obs)))


def expectimax(obs: Any, seed: int, config: dict | None = None) -> int:
    """The expectimax move within the move's time (``samples`` in the config: exact, no clock)."""
    config = config or {}
    deadline = None if config.get("samples") else MoveClock(obs, config).deadline
    return _expectimax.choose(toolkit.determinize(obs, move_seed(seed, obs)), deadline)


def mcts(obs: Any, seed: int, config: dict | None = None) -> int:
    """The MCTS move within the move's time (``iterations`` in the config: that many, no clock)."""
    config = config or {}
    clock = MoveClock(obs, config)
    iterations = int(config["iterations"]) if config.get("iterations") else None
    seed = move_seed(seed, obs)
    if config.get("flat"):
        return _mcts.flat_search(obs_dict(obs), seed, clock.deadline, iterations)
    params = {k: kind(config[k]) for k, kind in _MCTS_PARAMS if k in config}
    return _mcts.search(obs_dict(obs), seed, clock.deadline, iterations, **params)


def value(state: Any, seat: int) -> float:
    """The seat's expected final margin over the other seats, in points (``value.py``)."""
    return value_of(state, seat).total()


__all__ = ["expectimax", "greedy", "mcts", "value"]
