"""The HTML viewer's frames of a dice or Alcazaba record (``alhambra-ai report`` and ``replay --html``).

The page (``assets/dice_viewer.html`` with ``assets/viewer_dice.js`` on top of ``html/templates/viewer.js``)
is written by ``alhambra_ai.html.report``; every frame is replayed by the engine, so the page holds no rules.
"""

from __future__ import annotations

from typing import Any

from alhambra_ai._core import TYPE_NAMES
from alhambra_ai.formats.record import check_final_scores, steps
from alhambra_ai.html.viewer import seat_names, tile_table

TEMPLATE = "games/dice/assets/dice_viewer.html"  # relative to the package (alhambra_ai.html.report)
DIRK_COLOUR = "#7f7f7f"


_EVALUATING = ("reward", "name", "pick", "place")      # the phases in which ev_col is the column being scored

_ROLL, _STOP = 1, 2     # the action kinds (code & 15) of a (re-)roll and a stop (rules.md "The dice games")


def viewer_data(record: dict) -> dict:
    """The viewer's frames of a dice or Alcazaba record, each replayed by the engine (no rules in the page).

    A frame: ``move``, ``events`` (as in the base game), ``seat`` (who moved, -1 at the set-up), ``round``,
    ``turn``, ``phase``, ``current_player``, ``start_player``, ``dice`` (8 faces 0-5 or None), ``black``,
    ``rolls``, ``rolled`` (0-based dice this move rolled: the rest were kept), ``stopped`` (after a stop,
    which clears the dice: the dice the turn ended with, the named ``type`` and ``rolls``), ``markers``
    (``[type, field, owner]`` per marker on the board: field = v - 1, 0..23, owner a seat or ``"dirk"``),
    ``changed`` (``[type, field]`` whose owner this move set), ``evaluating`` (the column being scored, else
    None), ``fallen`` / ``aside`` (per row: seats, then Dirk), ``scores``, ``dirk_score``,
    ``score_breakdown`` and, once the game is over, ``final`` (``{"ranking"}``, 1 = won). The basic game
    adds ``bonus_fields``, ``building_points``, ``arrivals`` (lower = earlier on the field: ranks better at
    equal points) and ``bonus_tiles`` (``{name: count}`` per row); Alcazaba adds ``column_items``,
    ``cities``, ``reserves``, ``dirk_tiles``, ``pending``, ``aside_tiles``, ``bag_size``.
    """
    frames: list[dict] = []
    seen, state, tiles = 0, None, {0}
    shown: tuple = ([None] * 8, None, 0)         # the dice on the table before this move
    before: dict = {}                            # (type, field) -> owner in the previous frame
    for _, seat, text, state in steps(record):
        obs = state.observation(0)
        history, log = state.history, state.events
        played = next((e for e in log[seen:] if e["kind"] == "action"), None)    # (one per move)
        events = [line for line, e in zip(history[seen:], log[seen:], strict=True) if e["kind"] != "action"]
        seen = len(history)
        # the move's code (a record may say "keep 1 2" for "reroll 3 4 5 6 7 8"): kind = code & 15
        code = played["payload"] if played is not None else 0
        board = {(t, i): o for t, column in enumerate(obs["columns"])
                 for i, o in enumerate(column) if o is not None}
        rows = list(range(state.num_players)) + (["dirk"] if state.dirk_score is not None else [])
        frame = {
            "move": f"seat {seat + 1}: {text}" if text else "", "seat": seat,
            "events": events,
            "round": obs["round"], "turn": obs["turn"], "phase": obs["phase"],
            "current_player": obs["current_player"], "start_player": obs["start_player"],
            "dice": obs["dice"], "black": obs["black"], "rolls": obs["rolls"],
            "rolled": [i for i in range(8) if code >> (4 + i) & 1] if code & 15 == _ROLL else [],
            "markers": [[t, i, o] for (t, i), o in board.items()],
            "changed": [[t, i] for (t, i), o in board.items() if before.get((t, i)) != o],
            "evaluating": obs["evaluation"]["column"] if obs["phase"] in _EVALUATING else None,
            "fallen": obs["fallen"], "aside": obs["aside"],
            "scores": obs["scores"], "dirk_score": obs["dirk_score"],
            "score_breakdown": obs["score_breakdown"],
        }
        if code & 15 == _STOP:
            frame["stopped"] = {"dice": shown[0], "black": shown[1], "rolls": shown[2],
                                "type": (code >> 4) & 7}
        if state.game == "dice":
            frame.update(bonus_fields=obs["bonus_fields"], building_points=obs["building_points"],
                         arrivals=obs["arrivals"], bonus_tiles=[state.bonus_tiles(r) for r in rows])
        else:
            frame.update(column_items=obs["column_items"], cities=obs["cities"], reserves=obs["reserves"],
                         dirk_tiles=obs["dirk_tiles"], pending=obs["pending"], aside_tiles=obs["aside_tiles"],
                         bag_size=obs["bag_size"])
            for city in obs["cities"]:
                tiles.update(c[2] for c in city)
            for group in (obs["column_items"], obs["reserves"], [obs["dirk_tiles"] or []], [obs["pending"]],
                          [obs["aside_tiles"]]):
                for ts in group:
                    tiles.update(t for t in ts if isinstance(t, int))
        if state.is_terminal():
            frame["final"] = {"ranking": state.ranking()}
        frames.append(frame)
        shown, before = (obs["dice"], obs["black"], obs["rolls"]), board
    if state is not None:
        check_final_scores(record, state)
    return {"game": record["game"], "seats": seat_names(record), "seed": record["seed"],
            "num_players": record["num_players"], "forfeits": record.get("forfeits", []),
            "types": list(TYPE_NAMES), "markers_each": obs["markers"], "frames": frames,
            "tiles": tile_table(tiles) if record["game"] == "alcazaba" else {}}


def page(data: dict) -> dict[str, Any]:
    """What the page's template needs beside the frames (the dice board reuses viewer.js and adds its own
    drawing, viewer_dice.js)."""
    game = data["game"]
    return {"template": TEMPLATE, "game": game, "dirk_colour": DIRK_COLOUR,
            "scripts": {"dice_script": "games/dice/assets/viewer_dice.js"},
            "types": list(TYPE_NAMES) + (["fountain"] if data["tiles"] else [])}
