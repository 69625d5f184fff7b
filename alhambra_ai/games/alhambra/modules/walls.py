"""Walls (rules.md §9.7): wall cards that add wall pieces to a seat's tile or fountain.

>>> from alhambra_ai._core import wall_card_sides
>>> words = MODULE.screen_words({"modules": {"walls": {"face_up": [5]}}}, None, 0)
>>> words == [f"wall cards: 5 {wall_card_sides(5)}"]
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from alhambra_ai._core import wall_card_sides
from alhambra_ai.games.alhambra.modules.parts import Command, Module
from alhambra_ai.terminal.text import seat_name, tile_words

if TYPE_CHECKING:
    from alhambra_ai.env.parts import Block, Field, View
    from alhambra_ai.env.spaces import ActionSpace, ObservationEncoder


def describe(state: Any, words: list[str], subject: str, verb: Callable[[str], str]) -> str:
    sides = state.wall_cards().get(int(words[1]), "?")
    where = "fountain" if words[2] == "fountain" else tile_words(int(words[2]))
    return f"{subject} {verb('put')} wall card {words[1]} ({sides}) on the {where}"


def table_lines(obs: Mapping[str, Any], names: Sequence[str] | None, you: int | None) -> list[str]:
    """The face-up wall cards with the sides they add, and the pieces wall cards put on tiles."""
    walls = (obs.get("modules") or {}).get("walls")
    if walls is None:
        return []
    up = ", ".join(f"{c} {wall_card_sides(c)}" for c in walls["face_up"]) or "none"
    line = f"Wall cards face up (wall <card> <tile>): {up}"
    placed = [f"{seat_name(p, names, you)} " + " ".join(f"{t or 'fountain'}+{w}" for t, w in row)
              for p, row in enumerate(walls["pieces"]) if row]
    if placed:
        line += "; pieces on: " + ", ".join(placed)
    return [line]


def screen_words(obs: Mapping[str, Any], names: Sequence[str] | None, you: int | None) -> list[str]:
    """The face-up wall cards (few words)."""
    walls = (obs.get("modules") or {}).get("walls")
    if walls is None:
        return []
    return ["wall cards: " + (", ".join(f"{c} {wall_card_sides(c)}" for c in walls["face_up"])
                              or "none face up")]


def action_blocks(space: ActionSpace) -> list[Block]:
    return [("wall", 8 * (len(space.tiles) + 1), "card * (tiles + 1) + (0 fountain, tile index + 1)")]


def action_index(space: ActionSpace, code: int) -> int | None:
    if code & 15 != 15 or (code >> 4) & 15 != 0:
        return None
    t = (code >> 11) & 127
    return space.offset["wall"] + ((code >> 8) & 7) * (len(space.tiles) + 1) + (0 if t == 0 else
                                                                                 space.tile_index[t] + 1)


def fields(enc: ObservationEncoder) -> list[Field]:
    nt = len(enc.tiles)
    return [("wall_cards", (2, 8)), ("wall_pieces", (nt, 4)), ("fountain_walls", (enc.n, 4)),
            ("wall_piles", (4, 3))]


def encode(enc: ObservationEncoder, m: dict[str, Any], v: View, rel: list[int]) -> None:
    w = m["walls"]
    cards = v("wall_cards")
    for c in w["face_up"]:
        cards[0, c - 1] = 1
    for c in w["used"]:
        cards[1, c - 1] = 1
    pieces, fountain = v("wall_pieces"), v("fountain_walls")
    for k, seat_pieces in enumerate(w["pieces"]):
        for t, sides in seat_pieces:
            row = fountain[rel[k]] if t == 0 else pieces[enc.tile_index[t]]
            for ch in sides:
                row["NESW".index(ch)] = 1
    piles = v("wall_piles")
    for i, p in enumerate(w["piles"]):
        if p is not None:
            piles[i] = p


def wall_card_table() -> dict[int, Any]:
    """The sides each wall card adds, for the page."""
    return {n: wall_card_sides(n) for n in range(1, 9)}


MODULE = Module(
    name="walls",
    commands=(Command("wall 5 17", "wall card 5 on your tile 17 (or: wall 5 fountain)"),),
    verbs=("wall",), describe={"wall": describe},
    table_lines=table_lines, screen_words=screen_words,
    action_blocks=action_blocks, action_index=action_index, fields=fields, encode=encode,
    public_fields=("walls",), tables={"wall_cards": wall_card_table},
    pieces=(("wall-card", "wall card face up; the walls it added to a tile (striped)"),),
    script="modules/walls.js",
)
