"""What a game's package gives ``alhambra_ai.env``: the registry parts ``spaces`` and ``openspiel``.

The interfaces in ``alhambra_ai.env`` are generic: they ask ``registry.get(game)`` for these two parts and
never compare game names. A game's package names them in its ``hooks``:

- ``spaces``: ``spaces(game, options) -> GameSpaces``, the game's half of the numeric views (its tiles, its
  action blocks and how its codes index into them, its phases, its observation fields and how its observation
  dict fills them); ``options`` are the engine's normalised options;
- ``openspiel``: ``openspiel(game) -> OpenSpielFacts``, what the OpenSpiel game needs to know of it.

This module is light (no numpy, no pyspiel): the games' packages import it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from alhambra_ai import tile_info
from alhambra_ai._core import TYPE_NAMES

if TYPE_CHECKING:
    import numpy as np

    from alhambra_ai.env.spaces import ActionSpace, ObservationEncoder

__all__ = ["Block", "Field", "GameSpaces", "OpenSpielFacts", "TYPES", "View"]

#: the six building types, in the order of the city planes and of every per-type field
TYPES = TYPE_NAMES                # the building types in the core's order

Block = tuple[str, int, str]                 # an action block: (name, size, meaning)
Field = tuple[str, tuple[int, ...]]          # an observation field: (name, shape)
View = Callable[[str], "np.ndarray"]         # a field of the vector being encoded, in its shape


class GameSpaces:
    """A game's half of ``ActionSpace`` and ``ObservationEncoder`` (one object per game and options).

    The generic half builds the blocks' offsets, the field slices and the fields every game has (``phase``,
    ``to_act``, ``start_player``, ``scores``, ``dirk``: the part places them in its layout); the part gives
    the rest. The helpers below serve the games that build cities (the tile-and-cell codes are the engine's
    in every game that has them).
    """

    #: the observation's phase names, in the one-hot's order
    phases: tuple[str, ...] = ()
    #: the action blocks whose index is ``start + k * cells + cell`` (``ActionSpace.cell_of``)
    cell_blocks: tuple[str, ...] = ()

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options

    def tiles(self) -> list[int]:
        """The tile ids the action space and the observation index (``ActionSpace.tiles``)."""
        raise NotImplementedError

    def tile_kind(self, t: int) -> tuple[int, str]:
        """(type index 0-5 or -1, special name '' / fountain / camp / bazaar) of a tile id."""
        name = tile_info(t)[0]
        return (TYPES.index(name), "") if name in TYPES else (-1, name)

    def action_blocks(self, space: ActionSpace) -> list[Block]:
        """The game's action blocks, in index order."""
        raise NotImplementedError

    def action_index(self, space: ActionSpace, code: int) -> int:
        """The index of a code (``space.offset`` holds the blocks' starts); -1 for a cell beyond the radius;
        KeyError for a code the game never lists."""
        raise NotImplementedError

    def layout(self, enc: ObservationEncoder) -> list[Field]:
        """The observation's fields in vector order, the common ones (see the class docstring) included."""
        raise NotImplementedError

    def encode(self, enc: ObservationEncoder, obs: dict[str, Any], v: View, rel: list[int]) -> None:
        """Fill the game's own fields from one observation dict (``rel``: absolute seat -> relative)."""
        raise NotImplementedError

    # ------------------------------------------------------------ the city games' shared codes

    def city_blocks(self, space: ActionSpace) -> list[Block]:
        """put / remove / reserve (and dirk, with Dirk): the tile-and-cell actions."""
        nt = len(space.tiles)
        blocks = [("put", nt * space.cells, "tile index * cells + cell: place (pending), build (reserve "
                                            "to an empty cell) or swap (reserve to an occupied cell)"),
                  ("remove", space.cells, "cell"),
                  ("reserve", nt, "place tile index in the reserve")]
        if self.options.get("dirk"):
            blocks.append(("dirk", nt, "give tile index to Dirk"))
        return blocks

    @staticmethod
    def city_index(space: ActionSpace, code: int) -> int | None:
        """The index of a place (3), reserve (4), dirk (5), build (6), remove (7) or swap (8) code; None for
        another kind."""
        kind, off, ti = code & 15, space.offset, space.tile_index
        if kind in (3, 6, 8):
            c = space.packed_cell(code >> 12)
            return -1 if c < 0 else off["put"] + ti[(code >> 4) & 255] * space.cells + c
        if kind == 7:
            c = space.packed_cell(code >> 12)
            return -1 if c < 0 else off["remove"] + c
        if kind == 4:
            return off["reserve"] + ti[(code >> 4) & 255]
        if kind == 5:
            return off["dirk"] + ti[(code >> 4) & 255]
        return None


def _drop_history(obs: dict[str, Any]) -> None:
    del obs["history"]


@dataclass(frozen=True)
class OpenSpielFacts:
    """What ``alhambra_ai.env.openspiel`` needs to know of one game."""

    short_name: str                  # pyspiel's name ("alhambra_dice")
    long_name: str
    #: no rule bounds a game's length; far above random games (docs/env.md)
    max_game_length: int
    #: the action kind (code & 15) whose outcome is a chance node after the decision (the dice games' roll)
    chance_kind: int | None = None
    #: the most outcomes one such node has
    max_chance_outcomes: int = 0
    #: two codes with one key have the same outcomes (cached per key)
    chance_key: Callable[[int], int] = int
    #: None: a state is serialized through the position format (state_to_json); else it is serialized as its
    #: origin and the moves since, and this rebuilds a determinization (observation, seed) -> engine state
    from_observation: Callable[[dict[str, Any], int], Any] | None = None
    #: observation_string's observation: drop the history in place, keeping what it reveals
    forget_history: Callable[[dict[str, Any]], None] = _drop_history
