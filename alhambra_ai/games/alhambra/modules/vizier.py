"""The Vizier (rules.md §9.1): each seat's vizier buys a market tile out of turn, in the window between turns.

>>> MODULE.screen_words({"modules": {"vizier_awake": [True, False]}}, None, 0)
['vizier awake: you']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from alhambra_ai.games.alhambra.modules.parts import DONE, Command, Module, done_index
from alhambra_ai.terminal.text import short_seat

if TYPE_CHECKING:
    from alhambra_ai.env.parts import Block, Field, View
    from alhambra_ai.env.spaces import ActionSpace, ObservationEncoder


def screen_words(obs: Mapping[str, Any], names: Sequence[str] | None, you: int | None) -> list[str]:
    """Who has woken the vizier (few words)."""
    awake = (obs.get("modules") or {}).get("vizier_awake")
    if awake is None:
        return []
    woke = [short_seat(p, None, you) for p, a in enumerate(awake) if a]
    return ["vizier awake: " + ", ".join(woke) if woke else "vizier: asleep (wake between turns)"]


def window_offer(state: Any, words: list[str]) -> tuple[bool, tuple] | None:
    """A vizier's buy in the window: a market tile (or bazaar) paid exactly, always worth asking about; its
    payments are one offer (the slot and the tile).

    >>> window_offer(type("S", (), {"market": lambda self: [17, 5, None, 33]})(), ["buy", "2", "g4", "g1"])
    (True, ('vizier', 2, 5))
    """
    if words[0] == "buy" and len(words) > 1 and words[1].isdigit():
        market = list(state.market())
        slot = int(words[1])
        return True, ("vizier", slot, market[slot - 1] if 1 <= slot <= len(market) else None)
    if words[0] == "bazaar" and len(words) > 1:
        return True, ("vizier", "bazaar", words[1])
    return None


def action_blocks(space: ActionSpace) -> list[Block]:
    return [("wake", 1, "wake the vizier"), DONE]


def action_index(space: ActionSpace, code: int) -> int | None:
    return space.offset["wake"] if code & 15 == 11 else done_index(space, code)


def fields(enc: ObservationEncoder) -> list[Field]:
    return [("vizier_awake", (enc.n,)), ("window_order", (enc.n,))]


def encode(enc: ObservationEncoder, m: dict[str, Any], v: View, rel: list[int]) -> None:
    va, wo = v("vizier_awake"), v("window_order")
    for k, awake in enumerate(m["vizier_awake"] or ()):
        va[rel[k]] = awake
    for pos, k in enumerate(m["window_order"]):
        wo[rel[k]] = pos + 1


MODULE = Module(
    name="vizier",
    commands=(Command("wake | done", "buy out of turn with your vizier | let it pass"),),
    verbs=("wake", "done"), window="vizier", window_offer=window_offer,
    screen_words=screen_words,
    action_blocks=action_blocks, action_index=action_index, fields=fields, encode=encode,
    public_fields=("vizier_awake", "window_order"),
    pieces=(("vizier", "vizier (gold: awake, grey: asleep)"),),
    script="modules/vizier.js",
)
