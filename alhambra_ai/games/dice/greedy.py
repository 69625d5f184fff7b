"""The dice games' one-ply greedy policy and the quick heuristics the searches share.

``greedy_action`` works on a determinized DiceState, by public knowledge only: each action is applied to a
clone and the position scored by :func:`evaluate`; after a roll, a re-roll is valued by the binomial value of
keeping one type (no outcome enumeration). The other bots are in ``expectimax.py`` and ``mcts.py``; the bot
files reach all three through ``search.py``.

>>> from alhambra_ai import new_game
>>> s = new_game(3, 1, game="dice"); s.apply("roll")
>>> greedy_action(s) in s.legal_actions()
True
"""

from __future__ import annotations

from math import comb

from alhambra_ai._core import TYPE_NAMES, majority_points, tile_info

ROUNDS_SCORED = {1: 0, 3: 1, 5: 2}          # round after which scoring A, B, C comes
MAJ = majority_points()                     # [scoring A/B/C][type] -> the places' points
TILE_VALUE = {"void": 1.0, "convert": 1.0, "black": 1.5, "push": 1.0}


def _remaining_scorings(state) -> list[int]:
    """Scorings (0 = A, 1 = B, 2 = C) still to come."""
    done = state.scoring_rounds_done
    return [r for r in range(done, 3)]


def _rows(state) -> list:
    return list(range(state.num_players)) + (["dirk"] if state.num_players == 2 else [])


def evaluate(state, seat: int) -> float:
    """The seat's projected final score minus the best other seat's (Dirk never wins: not compared)."""
    rows = _rows(state)
    remaining = _remaining_scorings(state)
    value = {row: 0.0 for row in rows}
    if state.game == "dice":
        proj = _project_dice(state, rows, remaining)
        for row in rows:
            tiles = state.bonus_tiles(row)
            value[row] = proj[row] + len(remaining) * (tiles.get("points1", 0) + 2 * tiles.get("points2", 0)
                                                       + 3 * tiles.get("points3", 0))
            actions = sum(TILE_VALUE.get(k, 0) * v for k, v in tiles.items())
            value[row] += actions * (0.5 if state.round < 5 else 0)
    else:
        counts = {}
        for row in rows:
            if row == "dirk":
                tiles = state.dirk_tiles()
            else:
                tiles = [t for (_, _, t, _) in state.city(row).cells() if t]
            c = [0] * 6
            for t in tiles:
                c[_tile_type(t)] += 1
            counts[row] = c
        proj = _project_ties(counts, remaining)
        for row in rows:
            value[row] = proj[row]
            if row != "dirk":
                value[row] += len(remaining) * state.city(row).wall_score() + 0.5 * len(state.reserve(row))
    value = {row: v + (state.scores()[row] if row != "dirk" else 0) for row, v in value.items()}
    value.update(_marker_values(state, rows))
    mine = value[seat]
    others = [v for row, v in value.items() if row not in (seat, "dirk")]
    return mine - max(others)


_TYPES: dict[int, int] = {}


def _tile_type(t: int) -> int:
    if t not in _TYPES:
        names = list(TYPE_NAMES)
        _TYPES[t] = names.index(tile_info(t)[0])        # the extra tower 71 included (D23)
    return _TYPES[t]


def _project_dice(state, rows, remaining) -> dict:
    """Basic game: no ties (stack order); places by (points desc, arrival asc)."""
    arr = state.observation(0)["arrivals"]
    out = {row: 0.0 for row in rows}
    for t in range(6):
        order = sorted((k for k, row in enumerate(rows) if state.building_points(row)[t] > 0),
                       key=lambda k: (-state.building_points(rows[k])[t], arr[k][t]))
        for r in remaining:
            for place, k in enumerate(order[:r + 1]):
                out[rows[k]] += MAJ[r][t][place]
    return out


def _project_ties(counts: dict, remaining: list[int]) -> dict:
    """Alcazaba: base majorities, ties share the places' sum (rounded down)."""
    out = {row: 0.0 for row in counts}
    for t in range(6):
        levels = sorted({c[t] for c in counts.values() if c[t] > 0}, reverse=True)
        for r in remaining:
            place = 0
            for lv in levels:
                group = [row for row, c in counts.items() if c[t] == lv]
                pts = sum(MAJ[r][t][p] for p in range(place, min(place + len(group), len(MAJ[r][t]))))
                for row in group:
                    out[row] += pts // len(group)
                place += len(group)
    return out


def _marker_values(state, rows) -> dict:
    """What this round's markers are likely worth: the best marker of a column ~ 2 building points or a pick,
    the second ~ 1 point + a tile."""
    extra: dict[int | str, float] = {}
    for t in range(6):
        owners = [o for o in reversed(state.column(t)) if o is not None]
        for rank, o in enumerate(owners[:2]):
            worth = (3.0 if rank == 0 else 1.5) * (1.0 if state.game == "dice" else 1.2)
            extra[o] = extra.get(o, 0.0) + worth
    return {row: extra.get(row, 0.0) for row in rows if row in extra}


# ---------------------------------------------------------------- the dice decisions


def _field_value(col: list, i: int, t: int) -> float:
    """A marker on field index i of column t: its rank there decides the reward it can expect."""
    above = sum(1 for o in col[i + 1:] if o is not None)
    return (3.0 if above == 0 else 1.5 if above == 1 else 0.1) * (1.0 + 0.15 * t) + 0.02 * i


def _stop_values(state, seat: int) -> dict:
    """value[(t, count, rolls)] of stopping with `count` symbols of type t after `rolls` rolls (the marker
    slides down past occupied fields; off the board = -1)."""
    out = {}
    for t in range(6):
        col = state.column(t)
        for rolls in (1, 2, 3):
            out[(t, 0, rolls)] = -1.0              # a type no die shows cannot be named
        for count in range(1, 10):
            for rolls in (1, 2, 3):
                i = (24 if count >= 9 else 3 * (count - 1) + 4 - rolls) - 1
                while i >= 0 and col[i] is not None:
                    i -= 1
                out[(t, count, rolls)] = -1.0 if i < 0 else _field_value(col, i, t)
    return out


def _keep_type_value(vals: dict, t: int, have: int, free: int, rolls: int) -> float:
    """Exact expectation of keeping `have` symbols of type t and re-rolling `free` dice, then stopping on t
    (binomial over how many re-rolled dice show t)."""
    return sum(comb(free, j) * (1 / 6) ** j * (5 / 6) ** (free - j) * vals[(t, min(9, have + j), rolls)]
               for j in range(free + 1)) if have + free else -1.0


def _counts(dice: list, black) -> list[int]:
    c = [0] * 6
    for f in dice:
        if f is not None:
            c[f] += 1
    if black is not None:
        c[black] += 1
    return c


def _roll_value(state, action: int, vals: dict) -> float:
    """Value of a re-roll: the keep-one-type binomial value of the type it keeps (no outcome enumeration)."""
    dice, black = state.dice()
    mask = (action >> 4) & 0xFF
    kept = [dice[i] for i in range(8) if not (mask >> i) & 1]
    kc = _counts(kept, black)
    return max(_keep_type_value(vals, t, kc[t], bin(mask).count("1"), state.rolls + 1) for t in range(6))


def _keep_type_actions(state) -> dict:
    """Candidate re-rolls: for each type shown, keep its dice and re-roll the others (and re-roll all)."""
    dice, _black = state.dice()
    out = {}
    for t in set(f for f in dice if f is not None):
        mask = sum(1 << i for i in range(8) if dice[i] != t)
        if mask:
            out[t] = 1 | (mask << 4)
    out[-1] = 1 | (0xFF << 4)
    return out


def _after_roll_choice(state) -> int:
    seat = state.current_player
    legal = state.legal_actions()
    vals = _stop_values(state, seat)
    dice, black = state.dice()
    c = _counts(dice, black)
    best_a, best_v = None, -1e9
    for a in legal:
        kind = a & 15
        if kind == 2 and not a & 128:              # stop
            t = (a >> 4) & 7
            v = vals[(t, c[t], state.rolls)]
        elif kind == 2:                            # stop with push back: the target field itself (tile spent)
            t = (a >> 4) & 7
            target = (24 if c[t] >= 9 else 3 * (c[t] - 1) + 4 - state.rolls) - 1
            v = _field_value(state.column(t), target, t) - 0.8
        else:
            continue
        if v > best_v:
            best_a, best_v = a, v
    if state.rolls < 3:
        for a in _keep_type_actions(state).values():
            if state.is_legal(a):
                v = _roll_value(state, a, vals)
                if v > best_v + 1e-9:
                    best_a, best_v = a, v
    for a in legal:
        kind = a & 15
        if kind == 10:                             # black die: the stop it allows
            t = a >> 4
            c2 = list(c)
            c2[t] += 1
            v = vals[(t, c2[t], state.rolls)] - 0.3
            if v > best_v:
                best_a, best_v = a, v
        elif kind in (6, 7, 8) and state.rolls in (1, 2):
            v = _one_ply(state, a, seat) - evaluate(state, seat) + 1.0
            if v > best_v:
                best_a, best_v = a, v
        elif kind == 9 and best_v < 0.5:           # void a roll that left nothing
            best_a, best_v = a, 0.5
    return best_a if best_a is not None else legal[0]


def _one_ply(state, action: int, seat: int) -> float:
    c = state.clone()
    c.record_history = False
    c.apply(action)
    return evaluate(c, seat)


def greedy_action(state) -> int:
    """One-ply choice of the seat to act (see the module docstring)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    if state.phase == "after_roll":
        return _after_roll_choice(state)
    seat = state.current_player
    return max(legal, key=lambda a: _one_ply(state, a, seat))


def state_has_hidden(obs: dict) -> bool:
    return obs.get("round", 5) < 5 or obs.get("game") == "alcazaba"
