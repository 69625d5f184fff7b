"""The game registry: a game's name to everything the rest of the package needs of it.

Each game family is a package under ``alhambra_ai/games/`` whose ``__init__`` lists its :class:`Game` entries
(``GAMES``); :data:`FAMILIES` names the packages, one line per family. Everything outside a family's package
asks the registry (``get("dice").title``, ``game_of(obs).search``) instead of comparing game names, so adding
a game touches its own folder and one line here.

A :class:`Game`'s hooks are named as ``"module:attribute"`` and imported on first use: a bot worker that
plays the dice game never imports the base game's terminal code, and the registry itself imports nothing
heavy (no cycles: the families import the registry, never the other way round at import time).

>>> names()
('alhambra', 'dice', 'alcazaba')
>>> get("alcazaba").title
'Alcazaba'
>>> get("chess")
Traceback (most recent call last):
...
alhambra_ai.errors.BadInput: game must be one of alhambra, dice, alcazaba, not 'chess'
>>> game_of({"game": "dice"}).name, game_of({}).name
('dice', 'alhambra')
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from alhambra_ai._core import new_game
from alhambra_ai.errors import BadInput

FAMILIES: tuple[str, ...] = ("alhambra", "dice")   # packages alhambra_ai.games.<family>, in listing order
DEFAULT = "alhambra"                              # the game of records and observations that name none


@dataclass(frozen=True)
class Game:
    """One game of the family: its names, its limits and where its parts live.

    ``hooks`` maps a part's name to ``"module:attribute"``; :meth:`hook` imports it. The parts every game has:

    - ``search``: a module with ``greedy(obs, seed, config)``, ``expectimax(...)``, ``mcts(...)`` (each
      returns an action code) and ``value(state, seat)`` (the search's estimate of the seat's final
      margin: higher is better): the built-in bots;
    - ``session``: the terminal session class ``play`` runs for a human seat;
    - ``spectator``: ``spectator(state, names, width) -> str``, the position as a spectator sees it in text
      (``replay``), and ``spectate``: a module with ``screen(state, names, width, height, focus, events)``,
      the same on one terminal screen, and ``sentence(state, code, who)``, a move in words
      (``replay --step`` in a terminal, ``alhambra_ai.terminal.spectate``);
    - ``score_table``: ``score_table(state, names, you, final) -> str``, every seat's points summed over the
      scorings, each column adding to the total (``scores``, the end screens);
    - ``viewer``: ``viewer_data(record) -> dict``, the frames the HTML viewer draws, and ``viewer_page``:
      ``page(data) -> dict``, the template and what it needs beside the frames;
    - ``random_games``: ``random_games(game, players, count, seed, options) -> actions``, the engine's
      timed unit of ``alhambra-ai bench`` (random games played in C);
    - ``spaces``: ``spaces(game, options)``, the game's fixed-size observation and action layout for
      ``alhambra_ai.env`` (PettingZoo), and ``openspiel``: ``openspiel(game)``, its OpenSpiel facts;
    - ``analysis``: ``analyse_decision(obs, played, seed, iterations, move_time) -> dict``, the strongest
      bot's verdict on one decision (``alhambra-ai analyse``, alhambra_ai/analysis/review.py).
    """

    name: str                     # the id in records, observations, --game and the core's new_game
    family: str                   # the package under alhambra_ai/games/
    title: str                    # what people call it ("Alhambra: The Dice Game")
    a_game: str                   # the title in a sentence: "an Alhambra game", "a dice game"
    players: tuple[int, int]      # fewest and most seats
    takes_options: bool           # whether the rulebook's modules (--options) apply
    strongest: str                # the built-in bot `play` and `hint` use as the opponent
    hooks: Mapping[str, str]

    def hook(self, part: str) -> Any:
        """The part named ``part`` (see the class docstring), imported on first use."""
        try:
            target = self.hooks[part]
        except KeyError:
            raise LookupError(f"{self.name} has no {part!r} part (it has {', '.join(self.hooks)})") from None
        module, _, attribute = target.partition(":")
        found = importlib.import_module(module)
        return getattr(found, attribute) if attribute else found

    @property
    def search(self) -> Any:
        """The game's search module (the built-in bots' moves; see the class docstring)."""
        return self.hook("search")

    def new_state(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> Any:
        """A new game of this kind in the compiled core."""
        return new_game(players, seed, dict(options or {}), self.name)


@cache
def _table() -> dict[str, Game]:
    table: dict[str, Game] = {}
    for family in FAMILIES:
        for game in importlib.import_module(f"alhambra_ai.games.{family}").GAMES:
            table[game.name] = game
    return table


def names() -> tuple[str, ...]:
    """The games' names, the base game first."""
    return tuple(_table())


def get(name: Any) -> Game:
    """The game called ``name``; BadInput naming the known games otherwise."""
    table = _table()
    if isinstance(name, str) and name in table:
        return table[name]
    raise BadInput(f"game must be one of {', '.join(table)}, not {name!r}")


def game_of(thing: Any) -> Game:
    """The game of an observation, a state or a record: its ``game`` field (or attribute), the base game if
    it names none."""
    inner = getattr(thing, "_d", None)       # botapi.Observation wraps the observation dict
    if isinstance(inner, Mapping):
        thing = inner
    name = thing.get("game") if isinstance(thing, Mapping) else getattr(thing, "game", None)
    return get(name or DEFAULT)


__all__ = ["DEFAULT", "FAMILIES", "Game", "game_of", "get", "names"]
