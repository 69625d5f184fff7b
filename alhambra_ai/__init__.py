"""alhambra-ai: reference engine, bot arena and AI opponent for the board game Alhambra.

>>> from alhambra_ai import new_game
>>> s = new_game(4, seed=7)
>>> s.apply(s.legal_actions()[0])
>>> s.turn
1
"""

from alhambra_ai._core import (
    City,
    IllegalActionError,
    State,
    card_text,
    new_game,
    parse_card,
    tile_info,
    tile_walls,
)

__all__ = [
    "City",
    "IllegalActionError",
    "State",
    "card_text",
    "new_game",
    "parse_card",
    "tile_info",
    "tile_walls",
]
