"""The base game's modules (rules.md §9), one file each, in the rulebook's order (``options.MODULES``).

Each file declares its module's Python parts as one :class:`~alhambra_ai.games.alhambra.modules.parts.Module`
value (``MODULE``): its commands and words, its lines on the table and the screen, its part of the numeric
views, its viewer pieces. The base game's generic files (``session.py``, ``words.py``, ``text.py``,
``spaces.py``, ``viewer.py``) loop over :data:`MODULES` or :func:`in_play` and name no module; adding one is
its file and one line below (and its rules in the core: docs/design.md "Adding a game, adding a module").

>>> [m.name for m in MODULES] == list(OPTION_NAMES)
True
>>> [m.name for m in in_play({"residents": True, "vizier": True, "dirk": True})]
['vizier', 'residents']
>>> [c.example for c in in_play({"thief": True})[0].commands]
['thief y6']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from alhambra_ai.games.alhambra.modules import (
    bazaars,
    camps,
    change,
    falcons,
    residents,
    thief,
    vizier,
    walls,
)
from alhambra_ai.games.alhambra.modules.parts import Command, Module
from alhambra_ai.options import MODULES as OPTION_NAMES

__all__ = ["BLOCK_ORDER", "FIELD_ORDER", "MODULES", "SCORE_COLUMNS", "Command", "Module", "by_name",
           "in_play", "ordered"]

MODULES: tuple[Module, ...] = (
    vizier.MODULE,
    camps.MODULE,
    bazaars.MODULE,
    falcons.MODULE,
    change.MODULE,
    thief.MODULE,
    walls.MODULE,
    residents.MODULE,
)

assert [m.name for m in MODULES] == list(OPTION_NAMES), "one module file per implemented option, in order"

# The numeric views' order of the modules' action blocks and observation fields, as published before the
# modules were files (docs/env.md): a policy's index keeps its meaning. A new module's blocks and fields come
# after these, in the order of MODULES.
BLOCK_ORDER = ("bazaar", "wake", "done", "falcon", "thief", "wall", "resident", "exchange", "disc", "figures")
FIELD_ORDER = ("vizier_awake", "window_order", "bazaars_waiting", "bag_modules", "falcons", "coins",
               "coin_bag", "wall_cards", "wall_pieces", "fountain_walls", "wall_piles", "thief_counts",
               "thieves_played", "thieves", "supply", "residents", "discs", "disc", "lifted", "setup_left")

#: the modules' columns of the scoring tables, (key in ``score_breakdown()``, header): a column shows where
#: some row has points of it
SCORE_COLUMNS: tuple[tuple[str, str], ...] = tuple(m.score_column for m in MODULES if m.score_column)

_BY_NAME = {m.name: m for m in MODULES}


def by_name(name: str) -> Module:
    """The module of option ``name`` (KeyError for another name)."""
    return _BY_NAME[name]


def in_play(options: Mapping[str, Any] | None) -> tuple[Module, ...]:
    """The modules switched on in ``options`` (an observation's or a state's), in the rulebook's order."""
    return tuple(m for m in MODULES if (options or {}).get(m.name))


def ordered(items: list[tuple[Any, ...]], order: tuple[str, ...]) -> list[tuple[Any, ...]]:
    """Named items (``(name, ...)``, the modules' blocks or fields in the order of MODULES) once each, those
    ``order`` names in its order first.

    >>> ordered([("b", 1), ("x", 2), ("a", 3), ("b", 1)], ("a", "b"))
    [('a', 3), ('b', 1), ('x', 2)]
    """
    once: dict[Any, tuple[Any, ...]] = {}
    for item in items:
        once.setdefault(item[0], item)
    return sorted(once.values(), key=lambda item: order.index(item[0]) if item[0] in order else len(order))
