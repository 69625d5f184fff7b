"""The Falconers (rules.md §9.4): falcons bought with one card each, set on a city's corners.

>>> MODULE.screen_words({"modules": {"falcons": [[3, 0, 1, 1]]}}, None, 0)
['falcons: 1 on offer']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from alhambra_ai._core import falcon_info
from alhambra_ai.games.alhambra.modules.parts import DONE, NCARDS, Command, Module, done_index

if TYPE_CHECKING:
    from alhambra_ai.env.parts import Block, Field, View
    from alhambra_ai.env.spaces import ActionSpace, ObservationEncoder


def screen_words(obs: Mapping[str, Any], names: Sequence[str] | None, you: int | None) -> list[str]:
    """The falcons the observation lists."""
    falcons = (obs.get("modules") or {}).get("falcons")
    return [f"falcons: {len(falcons)} on offer"] if falcons else []


def action_blocks(space: ActionSpace) -> list[Block]:
    return [DONE, ("falcon", 15 * NCARDS * space.cells, "(falcon * 36 + card) * cells + corner")]


def action_index(space: ActionSpace, code: int) -> int | None:
    if code & 15 != 13:
        return done_index(space, code)
    c = space.packed_cell(code >> 14)
    if c < 0:
        return -1
    return space.offset["falcon"] + (((code >> 4) & 15) * NCARDS + ((code >> 8) & 63)) * space.cells + c


def fields(enc: ObservationEncoder) -> list[Field]:
    return [("falcons", (15, enc.n + 3))]       # holder one-hot, in the supply, corner x, y


def encode(enc: ObservationEncoder, m: dict[str, Any], v: View, rel: list[int]) -> None:
    n, f = enc.n, v("falcons")
    f[:, n] = 1                                      # in the supply unless someone holds it
    for falcon, k, x, y in m["falcons"] or ():
        f[falcon - 1, n] = 0
        f[falcon - 1, rel[k]] = 1
        f[falcon - 1, n + 1:] = (x, y)


def falcon_table() -> dict[int, Any]:
    """Each falcon's facts (``falcon_info``), for the page."""
    return {n: list(falcon_info(n)) for n in range(1, 16)}


MODULE = Module(
    name="falcons",
    commands=(Command("falcon 3 g4 0,1", "buy falcon 3 with g4, corner at 0,1; done: no more"),),
    verbs=("falcon", "done"), phases={"falcons": "more falcons, or done"},
    screen_words=screen_words, score_column=("falcons", "flc"),
    action_blocks=action_blocks, action_index=action_index, cell_blocks=("falcon",), fields=fields,
    encode=encode,
    public_fields=("falcons",), tables={"falcons": falcon_table},
    pieces=(("falcon", "falcon on a corner (its colour, number)"),),
    script="modules/falcons.js",
)
