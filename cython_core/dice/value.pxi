# The dice games' learned position value, compiled: the value features of a position seen by one seat and a
# model over them (linear, or one hidden layer) (weights fitted by `alhambra-ai train` on `alhambra-ai selfplay --encoding value`
# data, loaded by alhambra_ai/learn/value_model.py), evaluated in C at the leaves of DiceMcts.
#
# The features read only what every seat sees (the facts dm_public_hash covers: no dice, rng, hidden stacks
# or bag), so two determinizations of one observation give the same vector (a test checks it) and the leaf
# cache keyed by that hash stays exact. They are whole numbers (selfplay stores them as int16) and put the
# majorities' thresholds into the vector (the points each row would score if a scoring came now), which a
# linear model cannot build from raw counts. Rows are relative: row 0 the seat, then the other seats in seat
# order, then Dirk (2 players); docs/formats.md "Value features" lists every column.

cdef enum:
    DV_VERSION = 2
    DV_GLOBAL = 5 + 2 * NTYPES     # round, scorings left, rounds to the next scoring, turn in round, over;
                                   # per column the best and second marker's field (index + 1, 0: none)
    DV_ROW = 9                     # score, then the game's six row facts, markers to place, to act
    DV_TYPE = 10                   # per row and type: level, next scoring's points, later scorings' points,
                                   # lead over the best other row, best marker, second marker, each of
                                   # these two times its field (1-24: how hard it is to top) and times the
                                   # other rows' markers still to place (how many may try)
    DV_MAX = DV_GLOBAL + NROWS * (DV_ROW + NTYPES * DV_TYPE)

#: the value features' version: a weights file records it (its layout's name) and loading refuses another
DICE_VALUE_VERSION = DV_VERSION


cdef inline int dv_rows(DiceGame* g) noexcept nogil:
    return g.n + (1 if g.dirk else 0)


cdef int dv_width(int n, bint dirk) noexcept nogil:
    cdef int rows = n + (1 if dirk else 0)
    return DV_GLOBAL + rows * (DV_ROW + NTYPES * DV_TYPE)


cdef void dv_points_now(DiceGame* g, int* rows, int nrows, int r, uint8_t* bd) noexcept nogil:
    """bd[row * DICE_BD_COLS + t] = the points `row` would take for type t in scoring r if it came now, as the
    game scores it (dice: dice_majorities; Alcazaba: score_majorities, ties sharing)."""
    cdef int16_t sc[NROWS]
    memset(bd, 0, NROWS * DICE_BD_COLS)
    if g.game == GAME_ALCAZABA:
        score_majorities(g.cities.type_count, rows, nrows, r, sc, bd, DICE_BD_COLS)
    else:
        dice_majorities(g, rows, nrows, r, sc, bd, DICE_BD_COLS)


cdef int dv_features(DiceGame* g, int seat, int16_t* out) noexcept nogil:
    """The value features of the position seen by `seat` into out (dv_width values); returns the width."""
    cdef int rows[NROWS], nrows = dv_rows(g), i, j, t, r, k, c, f, best, nxt = -1, left = 0, at
    cdef int placed[NROWS]
    cdef uint8_t bd[NROWS * DICE_BD_COLS]
    cdef int16_t lvl[NROWS]
    cdef int width = dv_width(g.n, g.dirk)
    cdef int scoring_after[3]      # scoring A, B, C come after these rounds (§dice-7)
    scoring_after[0], scoring_after[1], scoring_after[2] = 1, 3, 5
    memset(out, 0, width * sizeof(int16_t))
    for i in range(g.n):
        rows[i] = (seat + i) % g.n
    if g.dirk:
        rows[g.n] = DIRK
    for r in range(3):
        if not (g.scored >> r) & 1:
            left += 1
            if nxt < 0:
                nxt = r
    # global
    out[0] = g.round
    out[1] = left
    out[2] = scoring_after[nxt] - g.round if nxt >= 0 else 0
    out[3] = g.turn_in_round
    out[4] = 1 if g.phase == DP_OVER else 0
    for c in range(NTYPES):
        f = marker_at_rank(g, c, 0)
        out[5 + 2 * c] = f + 1
        f = marker_at_rank(g, c, 1)
        out[6 + 2 * c] = f + 1
    # markers placed this round, per row
    memset(placed, 0, sizeof(placed))
    for c in range(NTYPES):
        for f in range(NFIELDS):
            if g.field[c][f] != EMPTY:
                for i in range(nrows):
                    if rows[i] == g.field[c][f]:
                        placed[i] += 1
    # per row
    for i in range(nrows):
        k = rows[i]
        at = DV_GLOBAL + i * DV_ROW
        out[at] = g.score[k]
        if g.game == GAME_DICE:
            out[at + 1] = tile_points(g, k)
            out[at + 2] = tile_points(g, k) * left
            out[at + 3] = g.held[k][BT_VOID]
            out[at + 4] = g.held[k][BT_CONVERT]
            out[at + 5] = g.held[k][BT_BLACK]
            out[at + 6] = g.held[k][BT_PUSH]
        elif k != DIRK:
            j = city_wall_score(g.cities.city[k]) if g.cities.city[k] != NULL else 0
            out[at + 1] = j
            out[at + 2] = j * left
            out[at + 3] = mask_count(g.cities.reserve[k])
            out[at + 4] = g.aside[k]
        if k != DIRK:
            out[at + 7] = g.markers - placed[i] - g.fallen[k] - g.aside[k]
            out[at + 8] = 1 if g.current == k else 0
    # per row and type
    for t in range(NTYPES):
        best = 0
        for i in range(nrows):
            k = rows[i]
            lvl[i] = g.bp[k][t] if g.game == GAME_DICE else g.cities.type_count[k][t]
        for i in range(nrows):
            at = DV_GLOBAL + nrows * DV_ROW + (i * NTYPES + t) * DV_TYPE
            out[at] = lvl[i]
            best = -99
            for j in range(nrows):
                if j != i and lvl[j] > best:
                    best = lvl[j]
            out[at + 3] = lvl[i] - best
        for r in range(2):
            f = marker_at_rank(g, t, r)
            if f >= 0:
                for i in range(nrows):
                    if rows[i] == g.field[t][f]:
                        at = DV_GLOBAL + nrows * DV_ROW + (i * NTYPES + t) * DV_TYPE
                        out[at + 4 + r] = 1
                        out[at + 6 + r] = f + 1
                        for j in range(nrows):
                            if j != i:
                                out[at + 8 + r] += out[DV_GLOBAL + j * DV_ROW + 7]
    # the majorities of every scoring still to come, as if it came now: one pass per scoring for all types
    for r in range(3):
        if (g.scored >> r) & 1:
            continue
        dv_points_now(g, rows, nrows, r, bd)
        for i in range(nrows):
            for t in range(NTYPES):
                out[DV_GLOBAL + nrows * DV_ROW + (i * NTYPES + t) * DV_TYPE + (1 if r == nxt else 2)] += \
                    bd[rows[i] * DICE_BD_COLS + t]
    return width


def dice_value_names(game, int num_players):
    """The value features' column names (docs/formats.md "Value features"), row 0 the observing seat."""
    cdef bint dirk = num_players == 2
    if game not in GAME_NAMES:
        raise ValueError(f"no dice game {game!r}")
    rows = [f"seat+{i}" for i in range(num_players)] + (["dirk"] if dirk else [])
    own = (("tile_points", "tile_points_x_scorings", "void", "convert", "black", "push") if game == "dice"
           else ("wall", "wall_x_scorings", "reserve", "rebuilt", "unused", "unused2"))
    out = ["round", "scorings_left", "rounds_to_scoring", "turn_in_round", "over"]
    for t in TYPE_NAMES:
        out += [f"best_field[{t}]", f"second_field[{t}]"]
    for r in rows:
        out += [f"{r}.score"] + [f"{r}.{x}" for x in own] + [f"{r}.to_place", f"{r}.to_act"]
    for r in rows:
        for t in TYPE_NAMES:
            out += [f"{r}.{x}[{t}]" for x in ("level", "next_points", "later_points", "lead", "best", "second",
                                              "best_field", "second_field", "best_x_others_to_place",
                                              "second_x_others_to_place")]
    if len(out) != dv_width(num_players, dirk):
        raise AssertionError("value feature names out of step with dv_features")
    return out


def dice_value_features(DiceState state, int seat):
    """The value features (a list of ints) of `state` as `seat` sees it (cython_core/dice/value.pxi)."""
    cdef int16_t buf[DV_MAX]
    if not 0 <= seat < state.g.n:
        raise ValueError(f"seat {seat} is not in a {state.g.n}-player game")
    cdef int w = dv_features(&state.g, seat, buf)
    return [buf[i] for i in range(w)]


cdef void dv_margins(LVNet* m, DiceGame* g, double* out) noexcept nogil:
    """Every seat's margin by the learned model m (shared/learned.pxi) over the value features: with 2 players
    the antisymmetric mean (the two sum to 0)."""
    cdef int16_t buf[DV_MAX]
    cdef int p
    cdef double a, b
    if g.n == 2:
        dv_features(g, 0, buf)
        a = lv_eval(m, buf)
        dv_features(g, 1, buf)
        b = lv_eval(m, buf)
        out[0], out[1] = 0.5 * (a - b), 0.5 * (b - a)
        return
    for p in range(g.n):
        dv_features(g, p, buf)
        out[p] = lv_eval(m, buf)


def dice_value_margins(LearnedValue lv, DiceState state):
    """LearnedValue.margins of a dice state: every seat's expected final margin by the model."""
    cdef double out[MAX_PLAYERS]
    lv.check(GAME_NAMES[state.g.game], state.g.n)
    dv_margins(&lv.net, &state.g, out)
    return [out[p] for p in range(state.g.n)]
