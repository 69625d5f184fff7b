"""The Bazaars (rules.md §9.3): bazaar tiles, bought at the price of a market tile, always exactly.

>>> MODULE.screen_words({"modules": {"bazaars_waiting": [63, 65]}}, None, 0)
['bazaars: 63 65']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from alhambra_ai._core import bazaar_info
from alhambra_ai.games.alhambra.modules.camps import TILES
from alhambra_ai.games.alhambra.modules.parts import Command, Module

if TYPE_CHECKING:
    from alhambra_ai.env.parts import Block, Field, View
    from alhambra_ai.env.spaces import ActionSpace, ObservationEncoder


def screen_words(obs: Mapping[str, Any], names: Sequence[str] | None, you: int | None) -> list[str]:
    """The bazaars waiting to be bought."""
    waiting = (obs.get("modules") or {}).get("bazaars_waiting")
    return ["bazaars: " + " ".join(str(t) for t in waiting)] if waiting else []


def action_blocks(space: ActionSpace) -> list[Block]:
    return [("bazaar", 8 * len(space.payments), "bazaar (tile - 63) * payments + payment")]


def action_index(space: ActionSpace, code: int) -> int | None:
    if code & 15 != 10:
        return None
    pay = space.payment_index[((code >> 7) & 0x3FFFF, (code >> 25) & 7)]
    return int(space.offset["bazaar"] + ((code >> 4) & 7) * len(space.payments) + pay)


def fields(enc: ObservationEncoder) -> list[Field]:
    return [("bazaars_waiting", (8,)), ("bag_modules", (2,))]   # bag_modules: shared with the Camps


def encode(enc: ObservationEncoder, m: dict[str, Any], v: View, rel: list[int]) -> None:
    for t in m["bazaars_waiting"]:
        v("bazaars_waiting")[t - 63] = 1
    v("bag_modules")[1] = m.get("bag_bazaars", 0)


def frame_tiles(m: Mapping[str, Any]) -> Iterable[int]:
    return m.get("bazaars_waiting") or []


def tile_info(t: int, info: dict[str, Any]) -> None:
    """A bazaar's currency (its price is that slot's tile's cost)."""
    if info["type"] == "bazaar":
        info["currency"] = bazaar_info(t)[0]


MODULE = Module(
    name="bazaars",
    commands=(Command("bazaar 65 b4 b3", "buy bazaar 65 with b4 + b3 (always exact)"),),
    verbs=("bazaar",),
    screen_words=screen_words, score_column=("bazaars", "bzr"),
    tiles=TILES, action_blocks=action_blocks, action_index=action_index, fields=fields, encode=encode,
    public_fields=("bazaars_waiting",), frame_tiles=frame_tiles, tile_info=tile_info,
    tile_kinds=("bazaar",),
    script="modules/bazaars.js",
)
