"""alhambra-ai: reference engine, bot arena and AI opponent for the board game Alhambra.

>>> from alhambra_ai import new_game
>>> s = new_game(4, seed=7)
>>> s.apply(s.legal_actions()[0])
>>> s.turn
1
"""

from alhambra_ai._core import (
    City,
    DiceState,
    IllegalActionError,
    PositionError,
    State,
    card_text,
    count_cards,
    determinize,
    new_game,
    parse_card,
    tile_info,
    tile_walls,
)
from alhambra_ai.bot.api import Observation
from alhambra_ai.formats.position import state_from_json, state_to_json

__all__ = [
    "City",
    "DiceState",
    "IllegalActionError",
    "Observation",
    "PositionError",
    "State",
    "card_text",
    "count_cards",
    "determinize",
    "new_game",
    "parse_card",
    "state_from_json",
    "state_to_json",
    "tile_info",
    "tile_walls",
]
