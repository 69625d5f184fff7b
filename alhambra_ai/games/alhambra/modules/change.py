"""Change (rules.md §9.5): coins of value 1, drawn for overpaying, that pay like cards.

>>> obs = {"modules": {"coins": [[0, 2, 0, 0], [0, 0, 0, 0]], "coin_bag": [6, 4, 6, 6]}}
>>> MODULE.screen_words(obs, None, 0)
['coins: you gcx2 (bag 22)']
>>> MODULE.overpaid(5)
'5 over, up to 2 coins back'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from alhambra_ai._core import CURRENCY_LETTERS
from alhambra_ai.games.alhambra.modules.parts import Command, Module
from alhambra_ai.terminal.text import count, seat_name, short_seat

if TYPE_CHECKING:
    from alhambra_ai.env.parts import Field, View
    from alhambra_ai.env.spaces import ObservationEncoder


def overpaid(over: int) -> str:
    """What paying ``over`` points too much brings: a coin per 2 points, while the bag has coins."""
    return f"{over} over, up to {count(over // 2, 'coin')} back"


def table_lines(obs: Mapping[str, Any], names: Sequence[str] | None, you: int | None) -> list[str]:
    """Coins per seat and in the bag."""
    mods = obs.get("modules") or {}
    coins = mods.get("coins")
    if coins is None:
        return []

    def held(row: Sequence[int]) -> str:
        return " ".join(f"{CURRENCY_LETTERS[k]}c x{v}" for k, v in enumerate(row) if v) or "none"
    seats = ", ".join(f"{seat_name(p, names, you)} {held(row)}" for p, row in enumerate(coins))
    return [f"Coins (value 1, pay like cards, e.g. buy 2 g4 gc): {seats}; bag {sum(mods['coin_bag'])}"]


def screen_words(obs: Mapping[str, Any], names: Sequence[str] | None, you: int | None) -> list[str]:
    """The coins held and in the bag (few words)."""
    m = obs.get("modules") or {}
    coins = m.get("coins")
    if coins is None:
        return []
    held = [f"{short_seat(p, None, you)} " + " ".join(f"{CURRENCY_LETTERS[k]}c" + (f"x{v}" if v > 1 else "")
                                                     for k, v in enumerate(row) if v)
            for p, row in enumerate(coins) if any(row)]
    return ["coins: " + (", ".join(held) if held else "none held") + f" (bag {sum(m['coin_bag'])})"]


def fields(enc: ObservationEncoder) -> list[Field]:
    return [("coins", (enc.n, 4)), ("coin_bag", (4,))]


def encode(enc: ObservationEncoder, m: dict[str, Any], v: View, rel: list[int]) -> None:
    coins = v("coins")
    for k, row in enumerate(m["coins"]):
        coins[rel[k]] = row
    v("coin_bag")[:] = m["coin_bag"]


MODULE = Module(
    name="change",
    commands=(Command("buy 2 g4 gc gc", "coins pay like cards (gc: a green coin)"),),
    overpaid=overpaid,
    table_lines=table_lines, screen_words=screen_words,
    pays_coins=True, fields=fields, encode=encode,
    public_fields=("coins", "coin_bag"),
    pieces=(("coin", "coin (value 1, its currency's colour)"),),
    script="modules/change.js",
)
