# The base game's learned position value, compiled: the value features of a position seen by one seat (the
# model over them is shared/learned.pxi's LearnedValue; weights fitted by `alhambra-ai train` on
# `alhambra-ai selfplay --encoding value --game alhambra` data), evaluated in C at Mcts's rollout cut-off.
#
# The features read only what the seat may know (rules.md §8): the cities, reserves, scores, market, display,
# discard, pile and bag sizes, the scoring cards' public ranges, and the hands (in a game dealt by new_game
# every card entering or leaving a hand is public, so card counting recovers every hand; a state made from
# an observation has them exactly). Never the order of the draw pile or the bag, the RNG, or a module's
# secret (the value encoding is the base game's, Dirk included: no module). So every determinization of one
# observation gives the same vector (tests/games/alhambra/test_alhambra_value.py checks it).
#
# They are whole numbers (selfplay stores int16) and put the majorities' thresholds into the vector (per row
# and type the points each coming scoring would pay if it came now: score_majorities, the game's own code)
# together with the hand-written evaluation's own output (eval_values: per seat its expected final points,
# x10), so a model can learn a correction of the hand value. Rows are relative: row 0 the seat, then the
# other seats in seat order, then Dirk (2 players); docs/formats.md "Value features" lists every column.

from libc.math cimport floor

cdef enum:
    AV_VERSION = 1
    AV_GLOBAL = 14 + 3 * NCUR + 2 * NTYPES   # sizes, scorings, phase, turn; per currency the market slot's
                                             # type and cost and the display's value; per type the market's
                                             # tiles of it and the cheapest
    AV_ROW = 16                    # score, hand value and margin (x10), wall, wall x scorings left, reserve,
                                   # cards, money per currency, money, exact buys, affordable buys, to act,
                                   # buildings
    AV_TYPE = 5                    # per row and type: level, next scoring's points, later scorings' points,
                                   # lead over the best other row, the market's tile of it in reach (2 exact)
    AV_MAX = AV_GLOBAL + NROWS * (AV_ROW + NTYPES * AV_TYPE)

#: the base game's value features' version: a weights file records it (its layout's name, alhambra_value_v1)
#: and loading refuses another
ALHAMBRA_VALUE_VERSION = AV_VERSION


cdef inline int av_rows(GameState* s) noexcept nogil:
    return s.num_players + (1 if s.options & OPT_DIRK else 0)


cdef int av_width(int n, bint dirk) noexcept nogil:
    cdef int rows = n + (1 if dirk else 0)
    return AV_GLOBAL + rows * (AV_ROW + NTYPES * AV_TYPE)


cdef inline int16_t _av_x10(double v) noexcept nogil:
    v = floor(v * 10.0 + 0.5)
    return <int16_t>(32767 if v > 32767 else (-32767 if v < -32767 else v))


cdef void av_hand(GameState* s, int* wall, double* ev) noexcept nogil:
    """What every seat's features share: each seat's outer wall and the hand evaluation (eval_values)."""
    cdef int i
    for i in range(s.num_players):
        wall[i] = city_wall_score(s.cities.city[i])
    eval_values(s, wall, ev)


cdef int av_features(GameState* s, int seat, int16_t* out) noexcept nogil:
    """The value features of the position seen by `seat` into out (av_width values); returns the width."""
    cdef int wall[MAX_PLAYERS]
    cdef double ev[MAX_PLAYERS]
    av_hand(s, wall, ev)
    return av_features_with(s, seat, out, wall, ev)


cdef int av_features_with(GameState* s, int seat, int16_t* out, int* wall, double* ev) noexcept nogil:
    """av_features given av_hand's walls and hand values (computed once for all seats)."""
    cdef int rows[NROWS]
    cdef int nrows = av_rows(s), n = s.num_players, i, j, k, t, r, c, at, nxt = -1, left = 0, best, lo, hi
    cdef double bo
    cdef int16_t sc[NROWS]
    cdef uint8_t bd[NROWS * NTYPES]
    cdef uint64_t reach
    cdef int width = av_width(n, s.options & OPT_DIRK)
    memset(out, 0, width * sizeof(int16_t))
    for i in range(n):
        rows[i] = (seat + i) % n
    if s.options & OPT_DIRK:
        rows[n] = DIRK
    for r in range(3):
        if not (s.scored >> r) & 1:
            left += 1
            if nxt < 0:
                nxt = r
    # global
    out[0] = s.bag_n
    out[1] = s.draw_len - s.draw_pos
    out[2] = s.discard_n
    out[3] = 3 - left
    out[4] = __builtin_popcountll(s.due)
    for k in range(2):             # the next scoring card still in the pile: cards above it, at least / most
        if not ((s.due | s.scored) >> k) & 1:
            lo = s.sc_lo[k] - s.draw_pos
            hi = s.sc_hi[k] - 1 - s.draw_pos
            out[5] = lo if lo > 0 else 0
            out[6] = hi if hi > 0 else 0
            break
    out[7] = 1 if s.phase == PH_PLACE or s.phase == PH_FINAL else 0
    out[8] = s.ended
    out[9] = s.actions_taken
    out[10] = s.npending
    for c in range(NCUR):
        if s.market[c] != NO_TILE:
            out[11] += 1
        if s.display[c] != NO_CARD:
            out[12] += 1
    out[13] = <int16_t>(s.turn if s.turn < 32767 else 32767)
    at = 14
    for c in range(NCUR):
        if s.market[c] != NO_TILE:
            out[at + c] = (TILE_TYPE[s.market[c]] + 1) if TILE_TYPE[s.market[c]] < NTYPES else 0
            out[at + NCUR + c] = TILE_COST[s.market[c]]
            t = TILE_TYPE[s.market[c]]
            if t < NTYPES:
                out[at + 3 * NCUR + t] += 1
                j = at + 3 * NCUR + NTYPES + t
                if out[j] == 0 or TILE_COST[s.market[c]] < out[j]:
                    out[j] = TILE_COST[s.market[c]]
        if s.display[c] != NO_CARD:
            out[at + 2 * NCUR + card_currency(s.display[c])] += card_value(s.display[c])
    # per row
    for i in range(nrows):
        k = rows[i]
        at = AV_GLOBAL + i * AV_ROW
        out[at] = s.score[k]
        if k == DIRK:
            continue
        bo = -1e18
        for j in range(n):
            if j != k and ev[j] > bo:
                bo = ev[j]
        out[at + 1] = _av_x10(ev[k])
        out[at + 2] = _av_x10(ev[k] - bo)
        out[at + 3] = wall[k]
        out[at + 4] = wall[k] * left
        out[at + 5] = mask_count(s.cities.reserve[k])
        out[at + 6] = s.hand_n[k]
        for c in range(NCUR):
            out[at + 7 + c] = s.cur_sum[k][c]
            out[at + 11] += s.cur_sum[k][c]
            t = s.market[c]
            if t == NO_TILE or s.cur_sum[k][c] < TILE_COST[t]:
                continue
            reach = exact_sums(s, k, c)
            out[at + 13] += 1
            if (reach >> TILE_COST[t]) & 1:
                out[at + 12] += 1
            if TILE_TYPE[t] < NTYPES:
                j = AV_GLOBAL + nrows * AV_ROW + (i * NTYPES + TILE_TYPE[t]) * AV_TYPE + 4
                out[j] = 2 if (reach >> TILE_COST[t]) & 1 else (1 if out[j] < 1 else out[j])
        out[at + 14] = 1 if s.current == k else 0
        for t in range(NTYPES):
            out[at + 15] += s.cities.type_count[k][t]
    # per row and type
    for t in range(NTYPES):
        for i in range(nrows):
            at = AV_GLOBAL + nrows * AV_ROW + (i * NTYPES + t) * AV_TYPE
            out[at] = s.cities.type_count[rows[i]][t]
            best = -99
            for j in range(nrows):
                if j != i and s.cities.type_count[rows[j]][t] > best:
                    best = s.cities.type_count[rows[j]][t]
            out[at + 3] = out[at] - best
    # the majorities of every scoring still to come, as if it came now (the game's own score_majorities)
    for r in range(3):
        if (s.scored >> r) & 1:
            continue
        memset(bd, 0, sizeof(bd))
        memset(sc, 0, sizeof(sc))
        score_majorities(s.cities.type_count, rows, nrows, r, sc, bd, NTYPES)
        for i in range(nrows):
            for t in range(NTYPES):
                out[AV_GLOBAL + nrows * AV_ROW + (i * NTYPES + t) * AV_TYPE + (1 if r == nxt else 2)] += \
                    bd[rows[i] * NTYPES + t]
    return width


cdef void av_margins(LVNet* m, GameState* s, double* out) noexcept nogil:
    """Every seat's margin by the learned model m over the value features: with 2 players the antisymmetric
    mean (the two sum to 0)."""
    cdef int16_t buf[AV_MAX]
    cdef int p
    cdef double a, b
    cdef int wall[MAX_PLAYERS]
    cdef double ev[MAX_PLAYERS]
    av_hand(s, wall, ev)
    if s.num_players == 2:
        av_features_with(s, 0, buf, wall, ev)
        a = lv_eval(m, buf)
        av_features_with(s, 1, buf, wall, ev)
        b = lv_eval(m, buf)
        out[0], out[1] = 0.5 * (a - b), 0.5 * (b - a)
        return
    for p in range(s.num_players):
        av_features_with(s, p, buf, wall, ev)
        out[p] = lv_eval(m, buf)


cdef void margin_rewards(double* m, int n, double* out) noexcept nogil:
    """rewards() from margins (each seat's expected final score minus the best other's): half a logistic of
    the margin, half the win share (the seats of the highest margin share it)."""
    cdef int i, nwin = 0
    cdef double best = -1e18
    for i in range(n):
        if m[i] > best + 1e-9:
            best = m[i]
            nwin = 1
        elif m[i] > best - 1e-9:
            nwin += 1
    for i in range(n):
        out[i] = 0.5 / (1.0 + exp(-m[i] / (EV_SCALE * 0.5)))
        if m[i] > best - 1e-9:
            out[i] += 0.5 / nwin


def alhambra_value_names(int num_players, dirk=None):
    """The base game's value features' column names (docs/formats.md "Value features"), row 0 the observing
    seat. ``dirk``: Dirk's row is there (default: with 2 players, as the rules set him)."""
    cdef bint d
    if not 2 <= num_players <= MAX_PLAYERS:
        raise ValueError(f"the base game has 2 to {MAX_PLAYERS} players, not {num_players}")
    d = (num_players == 2) if dirk is None else bool(dirk)
    rows = [f"seat+{i}" for i in range(num_players)] + (["dirk"] if d else [])
    out = ["bag", "draw_pile", "discard", "scorings_done", "scorings_due", "cards_to_scoring_min",
           "cards_to_scoring_max", "placing", "ended", "actions_this_turn", "pending", "market_tiles",
           "display_cards", "turn"]
    out += [f"market_type[{c}]" for c in CURRENCY_NAMES] + [f"market_cost[{c}]" for c in CURRENCY_NAMES]
    out += [f"display_value[{c}]" for c in CURRENCY_NAMES]
    out += [f"market_count[{t}]" for t in TYPE_NAMES] + [f"market_min_cost[{t}]" for t in TYPE_NAMES]
    for r in rows:
        out += [f"{r}.{x}" for x in ("score", "hand_value_x10", "hand_margin_x10", "wall", "wall_x_scorings",
                                     "reserve", "cards")]
        out += [f"{r}.money[{c}]" for c in CURRENCY_NAMES]
        out += [f"{r}.{x}" for x in ("money", "exact_buys", "affordable_buys", "to_act", "buildings")]
    for r in rows:
        for t in TYPE_NAMES:
            out += [f"{r}.{x}[{t}]" for x in ("level", "next_points", "later_points", "lead", "in_reach")]
    if len(out) != av_width(num_players, d):
        raise AssertionError("value feature names out of step with av_features")
    return out


cdef int _av_check(GameState* s) except -1:
    if s.options & MODULE_BITS:
        raise ValueError("the base game's value features read the base game only (no module)")
    return 0


def alhambra_value_features(State state, int seat):
    """The value features (a list of ints) of `state` as `seat` sees it (cython_core/alhambra/value.pxi)."""
    cdef int16_t buf[AV_MAX]
    cdef int w
    if not 0 <= seat < state.st.num_players:
        raise ValueError(f"seat {seat} is not in a {state.st.num_players}-player game")
    _av_check(&state.st)
    w = av_features(&state.st, seat, buf)
    return [buf[i] for i in range(w)]


def alhambra_value_margins(LearnedValue lv, State state):
    """LearnedValue.margins of a base-game state: every seat's expected final margin by the model."""
    cdef double out[MAX_PLAYERS]
    lv.check("alhambra", state.st.num_players)
    _av_check(&state.st)
    if lv.width != av_width(state.st.num_players, state.st.options & OPT_DIRK):
        raise ValueError(f"a value of {lv.width} features cannot score this game's "
                         f"{av_width(state.st.num_players, state.st.options & OPT_DIRK)} (Dirk on or off)")
    av_margins(&lv.net, &state.st, out)
    return [out[p] for p in range(state.st.num_players)]


def _bench_leaf(State state, value=None, int reps=10000):
    """(benchmark hook) Seconds per cut-off evaluation of ``state`` as Mcts does it: every seat's rewards by
    the hand-written evaluation (value None: eval_values) or by a LearnedValue (its features and model)."""
    cdef double r[MAX_PLAYERS]
    cdef double m[MAX_PLAYERS]
    cdef LVNet* net = NULL
    cdef int i, n = state.st.num_players
    cdef double t0
    if value is not None:
        alhambra_value_margins(value, state)     # checks the game, players and width
        net = &(<LearnedValue>value).net
    t0 = now_monotonic()
    with nogil:
        for i in range(reps):
            if net != NULL:
                av_margins(net, &state.st, m)
                margin_rewards(m, n, r)
            else:
                rewards(&state.st, r)
    return (now_monotonic() - t0) / reps
