"""Text screens of the dice games (Alhambra: The Dice Game, Alcazaba) for ``play`` and ``replay``.

Everything shown comes from the public observation (rules.md D25). The board is a table of the six
columns (the dice showing each symbol, the bonus tile or the tiles on offer, the markers best first) and a
table of the seats (score, markers left, building points and bonus tiles held, or city and reserve);
Alcazaba's cities are drawn by ``alhambra_ai.terminal.text.render_city``, as the base game's are. Every line
fits ``width`` (80 columns at least).

>>> from alhambra_ai import new_game
>>> s = new_game(2, 1, game="dice"); s.apply("roll")
>>> screen = render(s)
>>> "rolled dice: 1:" in screen and "pavilion" in screen and max(len(x) for x in screen.splitlines()) <= 80
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from alhambra_ai._core import BONUS_NAMES, TYPE_NAMES, tile_info
from alhambra_ai.terminal.text import (
    LEGEND_ASCII,
    LEGEND_UNICODE,
    MIN_WIDTH,
    city_block,
    city_title,
    city_whole,
    clip_event,
    fit_blocks,
    fit_city,
    render_totals,
    tile_label,
    tile_long,
    visible_len,
    wrap,
)

TYPES = TYPE_NAMES
ABBREV = tuple(t[:3] for t in TYPES)        # pav ser arc cha gar tow (the board's point columns)
#: bonus tiles in words, by the engine's names (BONUS_NAMES: the order of an observation's ``bonus_tiles``)
BONUS_WORDS = {"points1": "1-point tile", "points2": "2-point tile", "points3": "3-point tile",
               "void": "void roll", "convert": "convert", "black": "black die", "push": "push back",
               "start": "start player"}
ROLLS = 3
#: the score breakdown's columns beside the majorities: the dice game's points tiles (Alcazaba: the wall)
SCORE_COLUMNS = (("tiles", "tiles"),)


def tile_phrase(bonus: str) -> str:
    """``'the void-roll tile'``: a bonus tile in a sentence."""
    words = BONUS_WORDS[bonus]
    return "the " + (words if words.endswith("tile") else words.replace(" ", "-") + " tile")


# ---------------------------------------------------------------------------------------------------------
# names and small words


def _obs(state_or_obs: Any, seat: int | None = None) -> dict:
    """The observation dict of a DiceState (the seat's, else seat 0's: all but legal actions is public)."""
    if isinstance(state_or_obs, Mapping):
        return dict(state_or_obs)
    if hasattr(state_or_obs, "to_dict"):
        return state_or_obs.to_dict()
    return state_or_obs.observation(seat if seat is not None and seat >= 0 else 0)


def short(row: Any, you: int | None) -> str:
    """``you``, ``s2``, ``Dirk``: a seat in the board's cells."""
    if row == "dirk":
        return "Dirk"
    return "you" if row == you else f"s{row + 1}"


def label(row: Any, names: Sequence[str] | None, you: int | None) -> str:
    """``you``, ``s2 random``, ``Dirk``: a seat in lines and the seats table."""
    if row == "dirk" or row == you:
        return short(row, you)
    name = names[row] if names and row < len(names) else ""
    return f"s{row + 1} {name}" if name else f"seat {row + 1}"


def field_words(index: int) -> str:
    """Field index v - 1 of a column as its dice: ``field_words(14) == '5 in 3'`` (5 dice in 3 rolls)."""
    return f"{index // 3 + 1} in {ROLLS - index % 3}"


def bonus_words(tiles: Mapping[str, int] | Sequence[int]) -> str:
    """Bonus tiles held, in words: the points tiles by their total (what each scoring adds), the others by
    name: ``'points tiles 5, void roll x2'`` (counts in BONUS_NAMES order, or a dict)."""
    if not isinstance(tiles, Mapping):
        tiles = {BONUS_NAMES[c]: k for c, k in enumerate(tiles) if k}
    worth = sum(int(name[-1]) * k for name, k in tiles.items() if name.startswith("points"))
    words = [f"points tiles {worth}"] if worth else []
    words += [BONUS_WORDS[name] + (f" x{k}" if k > 1 else "") for name, k in tiles.items()
              if k and not name.startswith("points")]
    return ", ".join(words) or "-"


def _rows(obs: dict) -> list:
    return list(range(obs["num_players"])) + (["dirk"] if obs["options"].get("dirk") else [])


def _can(obs: dict, *kinds: int) -> bool:
    """The seat observing may play a move of these kinds now (code & 15: void 9, black 10, rebuilds 6-8)."""
    return any(a & 15 in kinds for a in obs.get("legal_actions") or [])


def doing(obs: dict) -> str:
    """The decision the seat to act faces, in the player's words (the title and the prompt)."""
    phase, rolls = obs["phase"], obs["rolls"]
    ev = obs["evaluation"]
    col = TYPES[min(ev["column"], 5)]
    if phase == "over":
        return "game over"
    if phase == "roll":
        return "roll the dice (roll 1 of 3)"
    if phase == "after_roll":
        if rolls >= ROLLS:
            return "3 rolls made: stop and place a marker"
        return f"{rolls} of 3 rolls made: keep dice and re-roll, or stop"
    if phase == "reward":
        bonus = (obs.get("bonus_fields") or [None] * 6)[ev["column"]]
        tile = f"1 point + {tile_phrase(bonus)}" if bonus else "1 point"
        if ev["rank"] == 0:
            return f"best {col} marker: 2 points, or {tile}"
        return f"second {col} marker: {'2 points' if ev['first'] else tile} (convert or not)"
    if phase == "name":
        return "name the next start player"
    if phase == "pick":
        return f"pick a tile (or the start-player tile) from the {col} column"
    if phase == "place":
        tile = (obs.get("pending") or [None])[0]
        what = tile_long(tile, cost=True) if tile else "?"
        return f"place tile {what} in your city or reserve" + ", or give it to Dirk" * obs["options"]["dirk"]
    return phase.replace("_", " ")


def prompt_words(obs: dict) -> str:
    """The prompt's short reminder of the commands for the decision at hand."""
    phase, rolls = obs["phase"], obs["rolls"]
    if phase == "roll":
        return "roll the dice: roll"
    if phase == "after_roll":
        tiles = " / void" * _can(obs, 9) + " / black <type>" * _can(obs, 10)
        if rolls >= ROLLS:
            return "rolled 3 of 3: stop <type>" + tiles
        rebuild = " / rebuild" * _can(obs, 6, 7, 8)
        return f"rolled {rolls} of 3: keep <dice> / stop <type>{tiles}{rebuild}"
    if phase == "reward":
        return f"{TYPES[obs['evaluation']['column']]} reward: points / tile"
    if phase == "name":
        return "name the next start player: start <seat>"
    if phase == "pick":
        return f"pick from the {TYPES[obs['evaluation']['column']]} column: pick <tile> / pick start"
    if phase == "place":
        tile = (obs.get("pending") or ["?"])[0]
        return f"place tile {tile}: place {tile} x,y / reserve" + " / dirk" * obs["options"]["dirk"]
    return phase.replace("_", " ")


# ---------------------------------------------------------------------------------------------------------
# the board


def _table_row(cells: Sequence[tuple[str, int]], width: int) -> list[str]:
    """One table row: each cell's text wrapped inside its width (the last cell takes the rest of ``width``),
    so a long cell grows the row downwards instead of pushing the line past the screen."""
    used = sum(w + 1 for _, w in cells[:-1])
    widths = [w for _, w in cells[:-1]] + [max(10, width - used)]
    parts = [wrap(text, w, indent="") if text else [""] for (text, _), w in zip(cells, widths, strict=True)]
    out = []
    for i in range(max(len(p) for p in parts)):
        line = " ".join((p[i] if i < len(p) else "").ljust(w) for p, w in zip(parts, widths, strict=True))
        out.append(line.rstrip())
    return out


def _dice_line(obs: dict) -> str | None:
    dice, black = obs["dice"], obs["black"]
    if all(f is None for f in dice):
        return None
    line = "rolled dice: " + " ".join(f"{k + 1}:{ABBREV[f]}" for k, f in enumerate(dice) if f is not None)
    if black is not None:
        line += f"  black die: {TYPES[black]}"
    return line


def _dice_cell(obs: dict, t: int) -> str:
    """``3: 2 3 6`` (three dice show it: dice 2, 3 and 6; ``b`` the black die); blank before a roll."""
    where = [str(k + 1) for k, f in enumerate(obs["dice"]) if f == t]
    if obs["black"] == t:
        where.append("b")
    return f"{len(where)}: {' '.join(where)}" if where else ""


def _item_words(item: Any) -> str:
    """A tile on offer: ``17 [SW]`` (its cost matters to Dirk only: ``moves`` shows it when picking)."""
    return "start player" if item == "start" else f"{item} [{tile_info(item)[2]}]"


def _markers_cell(obs: dict, t: int, you: int | None) -> str:
    col = obs["columns"][t]
    return ", ".join(f"{short(o, you)} {field_words(i)}" for i in range(len(col) - 1, -1, -1)
                     if (o := col[i]) is not None) or "-"


def _column_table(obs: dict, you: int | None, width: int) -> list[str]:
    alcazaba = obs["game"] == "alcazaba"
    middle = ("tiles: id [walls]", 20) if alcazaba else ("bonus tile", 13)
    out = _table_row([("column", 9), ("dice", 10), middle, ("markers (5 in 3 = 5 dice, 3 rolls)", 0)], width)
    for t, name in enumerate(TYPES):
        if alcazaba:
            stuff = ", ".join(_item_words(x) for x in obs["column_items"][t]) or "-"
        else:
            field = obs["bonus_fields"][t]
            stuff = BONUS_WORDS[field] if field else "-"
        out += _table_row([(name, 9), (_dice_cell(obs, t), 10), (stuff, middle[1]),
                           (_markers_cell(obs, t, you), 0)], width)
    return out


def _markers_left(obs: dict, k: int, row: Any) -> str:
    """Markers the row has still to place this round: ``3``, ``2 (1 fell off)``, ``2 (1 rebuilt)``."""
    if row == "dirk":
        return "-"
    placed = sum(1 for col in obs["columns"] for o in col if o == row)
    fallen, aside = obs["fallen"][k], obs["aside"][k]
    left = max(0, obs["markers"] - placed - fallen - aside) if obs["phase"] in ("roll", "after_roll") else 0
    extra = [f"{fallen} fell off"] * bool(fallen) + [f"{aside} rebuilt"] * bool(aside)
    return f"{left}" + (f" ({', '.join(extra)})" if extra else "")


def _seat_rows(obs: dict, names, you: int | None) -> tuple[list, list[str], list[int], int]:
    rows = _rows(obs)
    scores = obs["scores"] + ([obs["dirk_score"]] if "dirk" in rows else [])
    lab = [label(r, names, you) + (" *" if r == obs["start_player"] else "") for r in rows]
    return rows, lab, scores, max(6, *(len(x) for x in lab)) + 1


def _dirk_tiles(obs: dict) -> str:
    return " ".join(tile_label(t).replace(" ", "") for t in obs["dirk_tiles"] or []) or "none"


def _seat_table(obs: dict, names, you: int | None, width: int) -> list[str]:
    """Per seat (and Dirk): score, markers left and (basic game) building points and bonus tiles held, or
    (Alcazaba) the city's size and wall and the reserve."""
    rows, lab, scores, w = _seat_rows(obs, names, you)
    if obs["game"] == "dice":
        head = [("seat", w), ("score", 5), ("markers left", 12), (" ".join(ABBREV), 23),
                ("bonus tiles held", 0)]
        out = _table_row(head, width)
        for k, row in enumerate(rows):
            points = " ".join(f"{p:>3}" if p else "  ." for p in obs["building_points"][k])
            out += _table_row([(lab[k], w), (f"{scores[k]:>5}", 5), (_markers_left(obs, k, row), 12),
                               (points, 23), (bonus_words(obs["bonus_tiles"][k]), 0)], width)
        return out
    out = _table_row([("seat", w), ("score", 5), ("markers left", 14), ("city", 22), ("reserve", 0)], width)
    for k, row in enumerate(rows):
        if row == "dirk":
            out += _table_row([(lab[k], w), (f"{scores[k]:>5}", 5), ("-", 14),
                               (f"tiles: {_dirk_tiles(obs)}", 0)], width)
            continue
        city = city_title(obs, row, None, None).split(": ", 1)[1]
        reserve = ", ".join(tile_long(t) for t in obs["reserves"][row]) or "-"
        out += _table_row([(lab[k], w), (f"{scores[k]:>5}", 5), (_markers_left(obs, k, row), 14), (city, 22),
                           (reserve, 0)], width)
    return out


LEFT = 38       # the compact Alcazaba screen: the seats' column beside the own city
NARROW_LEFT = 31    # the same beside a city too wide for LEFT


def alcazaba_seats(obs: dict, names: Sequence[str] | None, you: int | None, key: str,
                   narrow: bool = False) -> list[str]:
    """Alcazaba's seats in a column LEFT wide (score, markers left, longest wall; Dirk's tiles) with the
    line of keys ``key``, for a city to stand beside: the player's screen and the spectator's. ``narrow``:
    NARROW_LEFT wide, the seats as ``s2`` (beside a wide city)."""
    rows, lab, scores, w = _seat_rows(obs, names, you)
    width, marks = (NARROW_LEFT, 12) if narrow else (LEFT, 14)
    if narrow:
        lab = [short(r, you) + (" *" if r == obs["start_player"] else "") for r in rows]
        w = max(6, *(len(x) for x in lab)) + 1
    left = _table_row([("seat", w), ("score", 5), ("markers left", marks), ("wall", 0)], width)
    for k, row in enumerate(rows):
        wall = "" if row == "dirk" else city_title(obs, row, None, None).rpartition("wall ")[2]
        left += _table_row([(lab[k], w), (f"{scores[k]:>5}", 5), (_markers_left(obs, k, row), marks),
                            (f"{wall:>4}", 0)], width)
    if "dirk" in rows:
        left += wrap(f"Dirk's tiles: {_dirk_tiles(obs)}", width, indent="  ")
    return left + wrap(f"* start player; {key}", width)


def _alcazaba_compact(obs: dict, names, you: int, width: int, unicode: bool, color: bool,
                      height: int | None = None, events: Sequence[str] = ()) -> list[str]:
    """The seats (score, markers left, longest wall; Dirk's tiles) and ``events`` (the news since the
    person's last move) beside ``you``'s city with its reserve, in at most ``height`` lines (issue 55): the
    city in narrow cells, or one line per row when they do not fit (``fit_city``), so that a 24-line screen
    holds the board, the whole city and the news."""
    left = alcazaba_seats(obs, names, you, "city N: seat N's city")
    seat_names = [("you" if p == you else "") for p in range(obs["num_players"])]
    if height is None:
        city = city_block(obs, you, seat_names, you, unicode, color, width - LEFT - 3, widest=5, margin=0)
    else:
        for narrow in (False, True):     # (the seats' column as wide as its widest line: long names)
            left = alcazaba_seats(obs, names, you, "city N: seat N's city", narrow=narrow)
            side = max(NARROW_LEFT if narrow else LEFT, *(visible_len(x) for x in left))
            city = fit_city(obs, you, seat_names, you, width - side - 3, height, unicode, color, margins=(0,),
                            widest=5)
            if city_whole(city):
                break
        news = [x.replace("\xa0", " ") for e in events                          # whole while they fit
                for x in wrap(e.replace(": ", ":\xa0", 1), side, indent="  ")]  # (the seat with its move)
        if len(left) + len(news) > height and "dirk" in _rows(obs):     # Dirk's tiles counted by type
            at = next(k for k, x in enumerate(left) if x.startswith("Dirk's tiles:"))
            key = next(k for k, x in enumerate(left) if x.startswith("* start player"))
            kinds = [tile_info(t)[0] for t in obs["dirk_tiles"] or []]
            left[at:key] = wrap("Dirk's tiles: " + (" ".join(f"{ABBREV[k]} {kinds.count(name)}"
                                                             for k, name in enumerate(TYPES) if name in kinds)
                                                    or "none"), side, indent="  ")
        if len(left) + len(news) > height:
            news = [clip_event(e, side) for e in events]
        left = [*left, *news]
    out = fit_blocks([left, city], width)
    while out and not out[-1].strip():
        out.pop()
    return out


def _scoring_words(obs: dict) -> str:
    r = obs["round"]
    if obs["phase"] == "over":
        return "round 5 of 5, game over"
    nxt = next(x for x in (1, 3, 5) if x >= r)
    return f"round {r} of 5 (scoring {'ABC'[nxt // 2]} after " + ("it)" if nxt == r else f"round {nxt})")


def render(state: Any, names: Sequence[str] | None = None, width: int = MIN_WIDTH, you: int | None = None,
           compact: bool = False, unicode: bool = False, color: bool = False, height: int | None = None,
           events: Sequence[str] = ()) -> str:
    """The public board of a DiceState (or its observation dict): title, rolled dice, the columns, the seats
    and (Alcazaba) the cities. ``names``: per seat (``""`` for nobody); ``you``: the seat shown as "you" (None
    for a spectator). ``compact`` (a screen of about 24 lines): one title line, the dice in the columns only
    and (Alcazaba) only ``you``'s city, drawn in narrow cells beside the seats. Every line fits ``width``
    (at least 80). ``height`` (the compact Alcazaba screen): the lines the board may take, with ``events``
    (the news) under the seats; the city is then drawn whole in whatever form fits."""
    width = max(MIN_WIDTH, width)
    obs = _obs(state, you)
    cur, over = obs["current_player"], obs["phase"] == "over"
    if compact:
        head = f"{obs['game']}: {_scoring_words(obs)}"
        head += "" if over else f"; {label(cur, names, you)} to act"
        out = [head + f": {doing(obs)}" if not over and len(head) + len(doing(obs)) + 2 <= width else head]
    else:
        out = wrap(f"{obs['game']}: {_scoring_words(obs)}, start player "
                   f"{label(obs['start_player'], names, you)}", width)
        if not over:
            out += wrap(f"{label(cur, names, you)} to act: {doing(obs)}", width)
        dice = _dice_line(obs)
        if dice:
            out += wrap(dice, width)
    out += _column_table(obs, you, width)
    if obs["game"] == "alcazaba" and compact and you is not None:
        room = None if height is None else height - len(out)
        return "\n".join(line.rstrip() for line in out + _alcazaba_compact(obs, names, you, width, unicode,
                                                                           color, room, events))
    out += _seat_table(obs, names, you, width)
    if obs["game"] == "dice":
        out += wrap('legend: "5 in 3" = the field of 5 dice in 3 rolls (more dice win, then fewer rolls); '
                    "* = start player; pav ... tow = building points per type (max 12)", width)
        return "\n".join(out)
    out += _cities(obs, names, you, width, unicode, color)
    return "\n".join(line.rstrip() for line in out)


def spectator(state: Any, names: Sequence[str], width: int = MIN_WIDTH) -> str:
    """The board as a spectator of a record sees it (``replay``): nobody is "you"."""
    return render(state, names, width=width)


def _cities(obs: dict, names, you: int | None, width: int, unicode: bool, color: bool) -> list[str]:
    """Alcazaba's cities, drawn as the base game's, side by side while they fit."""
    n = obs["num_players"]
    names = [("you" if p == you else (names[p] if names and p < len(names) else "")) for p in range(n)]
    order = ([you] if you is not None else []) + [p for p in range(n) if p != you]
    blocks = [city_block(obs, p, names, you, unicode, color, width) for p in order]
    return [*wrap(LEGEND_UNICODE if unicode else LEGEND_ASCII, width), "", *fit_blocks(blocks, width)]


# ---------------------------------------------------------------------------------------------------------
# the moves




def landing(state: Any, code: int) -> str:
    """Where a stop's marker lands, read from the engine's event on a clone (occupied fields, push back):
    ``3 in 1``, ``2 in 1 (3 in 1 taken)``, ``falls off``."""
    c = state.clone()
    c.record_history = True
    before = len(c.events)
    c.apply(code)
    dice, black = state.dice()
    t = TYPES.index(state.action_to_text(code).split()[1])
    count = dice.count(t) + (black == t)
    target = "8 in 1" if count >= 9 else f"{count} in {state.rolls}"
    for event in c.events[before:]:
        if event["kind"] == "marker":
            v = event["payload"]["field"]       # 1..24: count (v - 1) // 3 + 1 with 3 - (v - 1) % 3 rolls
            if v is None:
                return f"falls off ({target} and every field below it taken)"
            landed = f"{(v - 1) // 3 + 1} in {3 - (v - 1) % 3}"
            return landed if landed == target else f"{landed} ({target} taken)"
    return target


def dice_words(faces: Sequence[int | None]) -> str:
    """``'3 arcades, 2 seraglio'``: dice by symbol, most first."""
    counts = [(sum(1 for f in faces if f == t), t) for t in range(len(TYPES))]
    return ", ".join(f"{k} {TYPES[t]}" for k, t in sorted(counts, key=lambda x: (-x[0], x[1])) if k)


def keep_text(state: Any, code: int) -> str:
    """A re-roll as the dice it keeps: ``keep 2 3 6`` (``reroll`` re-rolls all 8)."""
    rolled = {int(w) for w in state.action_to_text(code).split()[1:]}
    kept = [str(k) for k in range(1, 9) if k not in rolled]
    return "keep " + " ".join(kept) if kept else "reroll (all 8)"


def _cells(items: list[tuple[int, str]], width: int) -> list[str]:
    """Numbered moves packed in columns."""
    cells = [f"{i:>3}) {t}" for i, t in items]
    w = max(len(c) for c in cells) + 2
    per_line = max(1, (width - 2) // w)
    return ["".join(c.ljust(w) for c in cells[k:k + per_line]).rstrip()
            for k in range(0, len(cells), per_line)]


def _by_symbol(obs: dict) -> list[str]:
    groups = []
    for t, name in enumerate(TYPES):
        where = [str(k + 1) for k, f in enumerate(obs["dice"]) if f == t]
        if where:
            groups.append((len(where), f"{name} {' '.join(where)}", where, name))
    most = max(groups)
    return [f"   dice showing {' | '.join(g[1] for g in groups)}",
            f"   keep {' '.join(most[2])} = keep the {most[3]}, re-roll the rest; reroll = re-roll all 8"]


def moves_text(state: Any, filters: Sequence[str] = (), width: int = MIN_WIDTH) -> str:
    """The legal moves of the seat to act, numbered as ``legal_actions`` (the number plays the move), in
    groups that fit a screen: stops with the field each marker reaches, re-rolls summed up (``moves keep``
    lists them), bonus-tile moves, rebuilds by tile. With a filter word: every move whose text holds it
    (``keep``: every re-roll, by the dice it keeps)."""
    width = max(MIN_WIDTH, width)
    legal = state.legal_actions()
    texts = [state.action_to_text(a) for a in legal]
    numbered = list(enumerate(texts, 1))
    if filters and filters[0] == "keep":
        items = [(i, keep_text(state, legal[i - 1])) for i, t in numbered if t.startswith("reroll")]
        rest = filters[1:]
        items = [(i, t) for i, t in items if all(f in t for f in rest)]
        return "\n".join(_cells(items, width)) if items else "No legal move matches that."
    if filters:
        items = [(i, t) for i, t in numbered if all(f in t for f in filters)]
        return "\n".join(_cells(items, width)) if items else "No legal move matches that."
    if not legal:
        return "No legal move: it is not your turn."
    obs = _obs(state, state.current_player)
    out: list[str] = []
    stops = [(i, f"{t}: {landing(state, legal[i - 1])}") for i, t in numbered if t.startswith("stop")]
    if stops:
        out.append('Stop and place a marker (the field it reaches, "5 in 3" = 5 dice in 3 rolls):')
        out += _cells(stops, width)
    rerolls = [i for i, t in numbered if t.startswith("reroll")]
    if rerolls:
        out.append(f"Keep dice and re-roll ({len(rerolls)} ways; 'moves keep' numbers them):")
        out += _by_symbol(obs)
    tiles = [(i, t) for i, t in numbered if t.split()[0] in ("void", "black")]
    if tiles:
        out.append("Bonus tiles (void: cancel the roll just made; black: set the black die to a symbol):")
        out += _cells(tiles, width)
    rebuild = [(i, t) for i, t in numbered if t.split()[0] in ("build", "remove", "swap")]
    if rebuild:
        out.append("Rebuild instead of placing a marker (the marker goes onto your reserve board):")
        out += _cells(rebuild, width) if len(rebuild) <= 12 else _grouped_cells(rebuild, width)
    other = [(i, t) for i, t in numbered
             if t.split()[0] not in ("stop", "reroll", "void", "black", "build", "remove", "swap", "roll")]
    if other:
        out.append(f"{doing(obs)[:1].upper()}{doing(obs)[1:]}:")
        out += _cells([(i, _explain(obs, t)) for i, t in other], width)
    roll = [(i, t) for i, t in numbered if t == "roll"]
    if roll:
        out += _cells(roll, width)
    out.append("Type a number or the words to play a move.")
    return "\n".join(line for chunk in out
                     for line in (wrap(chunk, width, indent="   ") if len(chunk) > width else [chunk]))


def _grouped_cells(items: list[tuple[int, str]], width: int) -> list[str]:
    """Many rebuilds: a line per verb and tile, its cells with their numbers (``build 17 at: 12) 1,0``)."""
    groups: dict[str, list[str]] = {}
    for i, t in items:
        words = t.split()
        key = " ".join(words[:-1])
        groups.setdefault(key, []).append(f"{i}) {words[-1]}")
    out = []
    for key, cells in groups.items():
        out += wrap(f"  {key} at: " + "   ".join(cells), width, indent="      ")
    return out


def _explain(obs: dict, text: str) -> str:
    """A move of the evaluation in words (``tile: 1 pavilion point + the void-roll tile``)."""
    words = text.split()
    ev = obs["evaluation"]
    col = TYPES[min(ev["column"], 5)]
    if words[0] in ("points", "tile"):
        to = words[2] if len(words) == 3 else col
        bonus = (obs.get("bonus_fields") or [None] * 6)[ev["column"]]
        what = f"2 {to} points" if words[0] == "points" else f"1 {to} point" + (
            f" + {tile_phrase(bonus)}" if bonus else "")
        return f"{text}: {what}"
    if words[0] == "pick" and words[1] != "start":
        return f"{text} [{tile_info(int(words[1]))[2]}] cost {tile_info(int(words[1]))[1]}"
    if words[0] == "start":
        seat = int(words[1]) - 1
        return f"{text} ({short(seat, obs['seat'])})"
    return text


def score_table(state: Any, names: Sequence[str] | None = None, you: int | None = None,
                final: bool = False) -> str:
    """Every seat's points so far (``scores``, the end screen, ``replay``'s scores), summed over the scorings
    done: the majorities per type (the dice game's building points, Alcazaba's buildings), then the points
    tiles (dice) or the wall (Alcazaba): each column adds to the total, as ``render_totals`` lays it out.
    The title names the last scoring and its round (§dice-7: A after round 1, B after 3, C after 5).

    >>> from alhambra_ai import new_game
    >>> score_table(new_game(2, 1, game="dice")).splitlines()[0]
    'No scoring yet   pav ser arc cha gar tow  total'
    """
    done = len(state.score_breakdown())
    title = f"After scoring {'ABC'[done - 1]} (round {2 * done - 1})" if done else "No scoring yet"
    return render_totals(state.score_breakdown(), state.scores(), state.ranking() if final else None, names,
                         you, state.dirk_score, SCORE_COLUMNS, title=title)
