"""What every game's viewer frames share: the seats' names and the table of the tiles drawn.

>>> seat_names({"num_players": 2})
['seat 1', 'seat 2']
>>> tile_table({0, 71})[71]["type"]
'tower'
"""

from __future__ import annotations

from alhambra_ai._core import tile_info


def seat_names(record: dict) -> list[str]:
    """The record's seat names, or ``seat N``."""
    return list(record.get("seats") or [f"seat {k + 1}" for k in range(record["num_players"])])


def tile_table(tiles: set[int]) -> dict[int, dict]:
    """Type, cost and printed walls of each tile drawn (the viewer colours and walls tiles from this)."""
    info = {}
    for t in sorted(tiles):
        kind, cost, walls = tile_info(t)  # Alcazaba's extra tower 71 included
        info[t] = {"type": "fountain" if t == 0 else kind, "cost": cost, "walls": walls}
    return info
