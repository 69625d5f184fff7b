"""The HTML viewer's frames of a base-game record (``alhambra-ai report`` and ``replay --html``).

The page itself (``templates/viewer.html``, ``viewer.js``) is written by ``alhambra_ai.report``.

>>> from alhambra_ai import new_game
>>> from alhambra_ai.record import make_record
>>> s = new_game(2, seed=1)
>>> s.apply(s.legal_actions()[0])
>>> frames = viewer_data(make_record(s, ["a", "b"]))["frames"]
>>> len(frames), frames[1]["move"]
(2, 'seat 2: take b4')
"""

from __future__ import annotations

from typing import Any

from alhambra_ai._core import TYPE_NAMES
from alhambra_ai.record import check_final_scores, steps
from alhambra_ai.text import summed_breakdown
from alhambra_ai.viewer import seat_names, tile_table

TEMPLATE = "viewer.html"
MODULE_TILES = {"camp", "bazaar"}          # the legend names the module tiles only where the game has them


def viewer_data(record: dict) -> dict:
    """Everything the viewer draws, one frame per position: the set-up, then the position after each move.

    A frame: ``move`` (``"seat 2: buy 1 y3"``, empty for the set-up), ``events`` (the public history
    since the previous frame), ``market``, ``display``, ``hands`` (every seat's: a record is seen by a
    spectator after the game), ``cities`` (``[x, y, tile, walls]`` per cell), ``reserves``, ``scores``,
    ``dirk_score``, ``dirk_tiles``, ``turn``, ``phase``, ``current_player``, ``pending``.
    Raises RecordError for a record that does not replay.
    """
    frames: list[dict] = []
    seen = 0
    state = None
    tiles: set[int] = set()
    for _, seat, text, state in steps(record):
        obs = state.observation(0)
        history = state.history
        events, seen = list(history[seen:]), len(history)
        frame = {
            "move": f"seat {seat + 1}: {text}" if text else "",
            "events": [e for e in events if not e.startswith(f"seat {seat + 1}: ")],
            "market": obs["market"], "display": obs["display"],
            "hands": [list(state.hand(p)) for p in range(state.num_players)],
            "cities": obs["cities"], "reserves": obs["reserves"], "scores": obs["scores"],
            "dirk_score": obs.get("dirk_score"), "dirk_tiles": obs.get("dirk_tiles"),
            "turn": obs["turn"], "phase": obs["phase"], "current_player": obs["current_player"],
            "pending": obs.get("pending") or [],
        }
        frames.append(frame)
        for city in obs["cities"]:
            tiles.update(c[2] for c in city)
        tiles.update(t for t in obs["market"] if t is not None)
        for group in (obs["reserves"], [obs.get("dirk_tiles") or []], [obs.get("pending") or []]):
            for ts in group:
                tiles.update(ts)
    if state is not None:
        check_final_scores(record, state)
        if state.is_terminal():  # the last frame names the winner and shows every seat's breakdown
            breakdown = state.score_breakdown()
            frames[-1]["final"] = {
                "ranking": list(state.ranking()), "types": list(TYPE_NAMES),  # the breakdown's column order
                "breakdown": [summed_breakdown(breakdown, p) for p in range(state.num_players)],
                "dirk": summed_breakdown(breakdown, "dirk") if state.dirk_score is not None else None}
    return {"game": "alhambra", "seats": seat_names(record), "seed": record["seed"],
            "num_players": record["num_players"], "forfeits": record.get("forfeits", []), "frames": frames,
            "tiles": tile_table(tiles)}


def page(data: dict) -> dict[str, Any]:
    """What the page's template needs beside the frames: its name and the legend's tile types."""
    extra = sorted({t["type"] for t in data["tiles"].values()} & MODULE_TILES)
    return {"template": TEMPLATE, "types": [*TYPE_NAMES, "fountain", *extra]}
