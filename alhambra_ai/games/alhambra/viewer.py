"""The HTML viewer's frames of a base-game record (``alhambra-ai report`` and ``replay --html``).

The page itself (``html/templates/viewer.html``, ``viewer.js`` and the scripts of the modules in play,
``games/alhambra/assets/modules/``) is written by ``alhambra_ai.html.report``.

>>> from alhambra_ai import new_game
>>> from alhambra_ai.formats.record import make_record
>>> s = new_game(2, seed=1)
>>> s.apply(s.legal_actions()[0])
>>> frames = viewer_data(make_record(s, ["a", "b"]))["frames"]
>>> len(frames), frames[1]["move"]
(2, 'seat 2: take b4')
"""

from __future__ import annotations

from typing import Any

from alhambra_ai._core import TYPE_NAMES
from alhambra_ai.formats.record import check_final_scores, steps
from alhambra_ai.games.alhambra.modules import MODULES, SCORE_COLUMNS, in_play
from alhambra_ai.html.viewer import seat_names, tile_table
from alhambra_ai.terminal.text import summed_breakdown

TEMPLATE = "viewer.html"
ASSETS = "games/alhambra/assets/"  # the modules' scripts (their ``script``), relative to the package
#: the modules' tile types: the legend names them only where the game has them
MODULE_TILES = {kind for m in MODULES for kind in m.tile_kinds}
# The public module fields a frame carries (observation ``modules``, each module's ``public_fields``; never
# the observing seat's own ``thieves`` or ``disc``: the frames are what a spectator sees, and those are seat
# 1's secrets in observation(0)). A frame holds them in the observation's order.
PUBLIC_MODULE_FIELDS = tuple(f for m in MODULES for f in m.public_fields)
# The legend's module pieces, in the order drawn: (key the page draws the icon by, option, words).
PIECES = tuple((key, m.name, label) for m in MODULES for key, label in m.pieces)


def viewer_data(record: dict) -> dict:
    """Everything the viewer draws, one frame per position: the set-up, then the position after each move.

    A frame: ``move`` (``"seat 2: buy 1 y3"``, empty for the set-up), ``events`` (the public history
    since the previous frame), ``market``, ``display``, ``hands`` (every seat's: a record is seen by a
    spectator after the game), ``cities`` (``[x, y, tile, walls]`` per cell), ``reserves``, ``scores``,
    ``dirk_score``, ``dirk_tiles``, ``turn``, ``phase``, ``current_player``, ``pending``; with modules
    ``modules``: the observation's public module fields (PUBLIC_MODULE_FIELDS) plus what the modules in play
    add (their ``follow``: the Thief's ``thieves_by_seat``, the thieves each seat played so far, public as
    ``seat 2: thief y6``). The record's tables (the falcons, the wall cards) are the modules' ``tables``.
    Secrets stay secret: the thieves held are counts, a disc's first figures are counts until seen, and a
    ``figures`` choice reads ``figures (secret)`` as in every other seat's history.
    Raises RecordError for a record that does not replay.
    """
    frames: list[dict] = []
    seen = 0
    state = None
    tiles: set[int] = set()
    modules = any(v for k, v in (record.get("options") or {}).items() if k != "dirk")
    in_game = in_play(record.get("options"))
    hooks = [m.follow(record["num_players"]) for m in in_game if m.follow]
    public = set(PUBLIC_MODULE_FIELDS)
    for _, seat, text, state in steps(record):
        obs = state.observation(0)
        lines, kinds = state.seen_log(-1)      # a spectator's: every seat's secret (figures) masked
        move, events, played = "", [], None
        for line, ev in zip(lines[seen:], kinds[seen:], strict=True):
            if text and not move and ev["seat"] == seat and ev["kind"] in ("action", "secret"):
                move, played = line, ev        # the move played, as the history writes it
            elif not (ev["seat"] == seat and ev["kind"] in ("action", "secret")):
                events.append(line)
        seen = len(lines)
        added: dict[str, Any] = {}
        for hook in hooks:
            added.update(hook(seat, played, obs.get("modules") or {}))
        frame = {
            "move": move,
            "events": events,
            "market": obs["market"], "display": obs["display"],
            "hands": [list(state.hand(p)) for p in range(state.num_players)],
            "cities": obs["cities"], "reserves": obs["reserves"], "scores": obs["scores"],
            "dirk_score": obs.get("dirk_score"), "dirk_tiles": obs.get("dirk_tiles"),
            "turn": obs["turn"], "phase": obs["phase"], "current_player": obs["current_player"],
            "pending": obs.get("pending") or [],
        }
        if modules and obs.get("modules"):
            frame["modules"] = {k: v for k, v in obs["modules"].items() if k in public} | added
            for m in in_game:
                tiles.update(m.frame_tiles(obs["modules"]))
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
                "columns": [key for key, _ in SCORE_COLUMNS],       # then the modules' (where some scored)
                "breakdown": [summed_breakdown(breakdown, p, SCORE_COLUMNS)
                              for p in range(state.num_players)],
                "dirk": {k: v for k, v in summed_breakdown(breakdown, "dirk", SCORE_COLUMNS).items()
                         if k != "wall"} if state.dirk_score is not None else None}     # Dirk builds no wall
    options = {k: bool(v) for k, v in (record.get("options") or {}).items() if v}
    table = tile_table(tiles)
    for t, info in table.items():
        for m in in_game:
            if m.tile_info:
                m.tile_info(t, info)       # a bazaar's currency
    data = {"game": "alhambra", "seats": seat_names(record), "seed": record["seed"],
            "num_players": record["num_players"], "forfeits": record.get("forfeits", []), "frames": frames,
            "tiles": table, "options": options, "types": list(TYPE_NAMES)}
    for m in MODULES:                      # every module's tables, empty where it is not in play
        for key, build in m.tables.items():
            data[key] = build() if options.get(m.name) else {}
    return data


def page(data: dict) -> dict[str, Any]:
    """What the page's template needs beside the frames: its name, the legend's tile types and module pieces,
    the scripts that draw the modules (each only in a game with its module; after ``viewer.js``)."""
    extra = sorted({t["type"] for t in data["tiles"].values()} & MODULE_TILES)
    modules = in_play(data.get("options") or {})
    pieces = [{"key": key, "label": label} for m in modules for key, label in m.pieces]
    return {"template": TEMPLATE, "types": [*TYPE_NAMES, "fountain", *extra], "pieces": pieces,
            "scripts": {"module_scripts": [ASSETS + m.script for m in modules if m.script]}}
