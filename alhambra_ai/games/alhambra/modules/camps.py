"""The Camps (rules.md §9.2): camp tiles in the bag, bought like buildings and joined to walls by bastions.

>>> MODULE.screen_words({"modules": {"bag_camps": 3}}, None, 0)
['camps in bag 3']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from alhambra_ai.games.alhambra.modules.parts import Module

if TYPE_CHECKING:
    from alhambra_ai.env.parts import Field, View
    from alhambra_ai.env.spaces import ObservationEncoder

#: the module tiles, camps 55..62 and bazaars 63..70: a game with either indexes all of them (one range)
TILES = range(55, 71)


def screen_words(obs: Mapping[str, Any], names: Sequence[str] | None, you: int | None) -> list[str]:
    """The camps left in the bag."""
    left = (obs.get("modules") or {}).get("bag_camps")
    return [] if left is None else [f"camps in bag {left}"]


def fields(enc: ObservationEncoder) -> list[Field]:
    return [("bag_modules", (2,))]          # camps, bazaars in the bag (shared with the Bazaars)


def encode(enc: ObservationEncoder, m: dict[str, Any], v: View, rel: list[int]) -> None:
    v("bag_modules")[0] = m.get("bag_camps", 0)


MODULE = Module(
    name="camps",
    screen_words=screen_words, score_column=("camps", "camp"),
    tiles=TILES, fields=fields, encode=encode,
    tile_kinds=("camp",),
)
