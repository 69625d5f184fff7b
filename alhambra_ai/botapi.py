"""The bot API under its published name: bot files import ``alhambra_ai.botapi`` (it lives in
``alhambra_ai.bot.api``; this module re-exports its public names)."""

from alhambra_ai.bot.api import (
    CURRENCY_LETTERS,
    KIND_CODES,
    KINDS,
    Action,
    BotLoadError,
    Observation,
    SearchBot,
    Tile,
    bot_file_problem,
    bot_name,
    decode_action,
    load_bot,
    tile_facts,
)

__all__ = ["CURRENCY_LETTERS", "KIND_CODES", "KINDS", "Action", "BotLoadError", "Observation", "SearchBot",
           "Tile", "bot_file_problem", "bot_name", "decode_action", "load_bot", "tile_facts"]
