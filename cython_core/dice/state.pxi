# Alhambra: The Dice Game and its Alcazaba variant (rules.md §dice): one C struct (DiceGame) for both games and the
# round flow (round set-up, Dirk's markers, turns, round evaluation, scorings A/B/C). Alcazaba's cities, reserves,
# Dirk's tiles and type counts are a Cities (shared/cities.pxi), the base game's very struct, so placement,
# rebuild lists / effects and the majority + wall scoring are the functions both games share (gen_place,
# gen_rebuild, city_action_apply: shared/city_actions.pxi; score_cities).
# Actions are in actions.pxi, the Python class DiceState in state_py.pxi, observation / chance in observe.pxi.

cdef enum:
    GAME_DICE = 0
    GAME_ALCAZABA = 1
    NDICE = 8
    NFIELDS = 24              # per column: field index v - 1, v = 3 * (count - 1) + (4 - rolls) in 1..24
    EMPTY = 255
    NO_FACE = 255
    # bonus tile codes (tiles of one code are interchangeable, so a tile is its code)
    BT_POINTS1 = 0            # points tiles 1..3 = codes 0..2
    BT_VOID = 3
    BT_CONVERT = 4
    BT_BLACK = 5
    BT_PUSH = 6
    BT_START = 7              # the start-player tile (never kept)
    NBT = 8
    BT_NONE = 255
    START_ITEM = 254          # Alcazaba: the start-player tile in a column's display
    MAX_ITEMS = 12
    NSTACK = 20               # normal-backed bonus tiles: 4 stacks of 5
    NDARK = 6
    ALC_BAG = 56               # bag capacity (25 in a real game; positions set up for analysis may hold more)
    # phases
    DP_ROLL = 0               # the turn's first roll is due (or again after roll 1 was voided)
    DP_AFTER = 1              # after a roll: stop / re-roll / void / black die / (Alcazaba) rebuild
    DP_REWARD = 2             # evaluation: the reward (2 points or 1 point + tile) and a convert
    DP_NAME = 3               # the receiver of the start-player tile names the next start player
    DP_PICK = 4               # Alcazaba evaluation: pick an item of the column
    DP_PLACE = 5              # Alcazaba: place the picked tile (city / reserve / Dirk)
    DP_OVER = 6
    DICE_BD_COLS = NTYPES + 1  # breakdown columns: majorities per type, then tiles (dice) / outer wall (Alcazaba)

DICE_PHASE_NAMES = ("roll", "after_roll", "reward", "name", "pick", "place", "over")
GAME_NAMES = ("dice", "alcazaba")
BONUS_NAMES = ("points1", "points2", "points3", "void", "convert", "black", "push", "start")


cdef struct DiceGame:
    Rng rng                   # the game's only source of chance
    Cities cities             # Alcazaba: cities, reserves, Dirk's tiles, type counts
    int16_t score[NROWS]      # cumulative; [DIRK] = Dirk
    uint8_t breakdown[3][NROWS][DICE_BD_COLS]   # per scoring A/B/C
    uint8_t scored            # bit r: scoring r was scored
    uint8_t bd_mask           # bit r: breakdown[r] is recorded
    uint8_t pending           # Alcazaba: the tile to place (or the one Dirk placed last)
    uint8_t npending          # 1 while `pending` waits to be placed
    uint8_t game              # GAME_DICE | GAME_ALCAZABA
    uint8_t n                 # human players
    uint8_t dirk              # 2 players: Dirk (row DIRK)
    uint8_t round             # 1..5
    uint8_t phase
    uint8_t current           # seat to decide (EMPTY when over)
    uint8_t start_player      # holder of the caliph stone
    uint8_t round_start       # start player of the round being played (Dirk names the other human)
    uint8_t markers           # markers per human player
    uint8_t turn_in_round     # turns played this round
    uint16_t turn             # turns completed in the game
    uint8_t dice[NDICE]       # faces 0..5 (NO_FACE before roll 1)
    uint8_t prev_dice[NDICE]  # before the last roll (void roll)
    uint8_t black             # the black die's face or NO_FACE
    uint8_t rolls             # counted rolls this turn
    uint8_t prev_rolls
    uint8_t can_void          # the last decision was a roll (D10)
    uint8_t black_used        # bit per seat: a black-die tile used this round (D12)
    uint8_t field[NTYPES][NFIELDS]   # marker owner row (seat or DIRK) or EMPTY
    uint8_t fallen[NROWS]     # markers fallen off this round
    uint8_t aside[NROWS]      # Alcazaba: markers put on the reserve board (rebuilt) this round
    # basic game
    uint8_t bonus[NTYPES]     # bonus field of each column: a BT_ code or BT_NONE
    uint8_t stacks[NSTACK]    # stack r (round r + 1) = stacks[5r .. 5r + 4], top first (hidden until revealed)
    uint8_t dark[NDARK]       # round 5's tiles, column order (hidden until round 5)
    uint8_t held[NROWS][NBT]  # bonus tiles held, by code
    uint8_t bp[NROWS][NTYPES]       # building points 0..12
    uint16_t arrive[NROWS][NTYPES]  # when the disc arrived on its field: lower = lower in the stack
    uint16_t clock
    # evaluation cursor
    uint8_t ev_col
    uint8_t ev_rank           # rank of the marker being served in ev_col (0 = best)
    uint8_t ev_first          # basic game: the best's reward (0 = 2 points, 1 = point + tile)
    # Alcazaba
    uint8_t astack[5][NTYPES] # stack r: six tiles in reveal order (hidden until revealed)
    uint8_t abag[ALC_BAG]     # next tile = abag[abag_n - 1] (hidden order)
    uint8_t abag_n
    uint8_t items[NTYPES][MAX_ITEMS]   # tiles shown in each column (+ START_ITEM), in arrival order
    uint8_t nitems[NTYPES]
    uint8_t nleft             # tiles gone aside, out of the game
    uint8_t left[60]


cdef inline int field_v(int count, int rolls) noexcept nogil:
    """Rank of the field (count, rolls), 1..24; 9 symbols count as 8 in 1 roll."""
    if count >= 9:
        return 24
    return 3 * (count - 1) + (4 - rolls)


cdef inline int row_dirk(DiceGame* g, int row) noexcept nogil:
    return row == DIRK


# ---------------------------------------------------------------- building points and bonus tiles

cdef void add_points(DiceGame* g, int row, int t, int pts) noexcept nogil:
    """Move the row's disc of type t on by pts; above 12 it stays on 12 (D15: a disc already on 12 stays put,
    one arriving there goes on top of the stack)."""
    if pts <= 0 or g.bp[row][t] >= 12:
        return
    g.bp[row][t] = <uint8_t>min(12, g.bp[row][t] + pts)
    g.clock += 1
    g.arrive[row][t] = g.clock


cdef inline int tile_points(DiceGame* g, int row) noexcept nogil:
    return g.held[row][0] + 2 * g.held[row][1] + 3 * g.held[row][2]


cdef void dice_majorities(DiceGame* g, int* rows, int nrows, int r, int16_t* score, uint8_t* bd,
                          int stride) noexcept nogil:
    """The majorities of scoring r (0, 1, 2) among ``rows[0..nrows-1]``: per type, rows with points ranked by
    points, then by stack order (lower in the stack = arrived earlier = better); places pay MAJORITY_POINTS
    (D1; 0 points = no place, D16). Points go onto score[row], into bd[row * stride + type] (the caller zeroes
    bd first)."""
    cdef int t, p, i, best, row, pts
    cdef uint8_t done[NROWS]
    for t in range(NTYPES):
        memset(done, 0, NROWS)
        for p in range(r + 1):
            best = -1
            for i in range(nrows):
                row = rows[i]
                if done[i] or g.bp[row][t] == 0:
                    continue
                if best < 0 or g.bp[row][t] > g.bp[rows[best]][t] or (
                        g.bp[row][t] == g.bp[rows[best]][t] and g.arrive[row][t] < g.arrive[rows[best]][t]):
                    best = i
            if best < 0:
                break
            done[best] = 1
            pts = MAJORITY_POINTS[r][t][p]
            bd[rows[best] * stride + t] = <uint8_t>pts
            score[rows[best]] += pts


cdef void score_dice(DiceGame* g, int r, list log):
    """Scoring A/B/C (r = 0, 1, 2): the majorities (dice_majorities), then each row's points tiles."""
    cdef int t, i, rows[NROWS], nrows = g.n, row, pts
    for i in range(g.n):
        rows[i] = i
    if g.dirk:
        rows[nrows] = DIRK
        nrows += 1
    for i in range(NROWS):
        for t in range(DICE_BD_COLS):
            g.breakdown[r][i][t] = 0
    dice_majorities(g, rows, nrows, r, g.score, &g.breakdown[r][0][0], DICE_BD_COLS)
    for i in range(nrows):
        row = rows[i]
        pts = tile_points(g, row)
        g.breakdown[r][row][NTYPES] = <uint8_t>pts
        g.score[row] += pts
    g.bd_mask |= 1 << r
    g.scored |= 1 << r
    if log is not None:
        log.append(event(None, "score", {"round": "ABC"[r], "scores": [g.score[i] for i in range(g.n)],
                                         "dirk": g.score[DIRK] if g.dirk else None}))


cdef void score_alcazaba(DiceGame* g, int r) noexcept nogil:
    """Alcazaba's scoring A/B/C (r = 0, 1, 2) as the base game's (§dice-10): majorities and outer walls."""
    memset(&g.breakdown[r][0][0], 0, NROWS * DICE_BD_COLS)
    score_cities(&g.cities, g.n, g.dirk, r, g.score, &g.breakdown[r][0][0], DICE_BD_COLS)
    g.scored |= 1 << r
    g.bd_mask |= 1 << r


# ---------------------------------------------------------------- round set-up

cdef inline object row_seat(int row):
    """A row's seat in an event: None for Dirk."""
    return None if row == DIRK else row


cdef void put_dirk_markers(DiceGame* g, int* cols, list log):
    """Dirk's five markers into the right sub-column (3 rolls): marker k (0-based) on row k + 2 of cols[k]."""
    cdef int k
    for k in range(5):
        g.field[cols[k]][field_v(k + 2, 3) - 1] = DIRK
    if log is not None:
        log.append(event(None, "dirk_markers", [cols[k] for k in range(5)]))


cdef void start_round(DiceGame* g, list log):
    """Lay out the round's tiles (and the start-player tile), place Dirk's markers, start the first turn."""
    cdef int c, k, i, t, m, cols[5]
    cdef int r = g.round - 1
    memset(g.field, EMPTY, sizeof(g.field))
    memset(g.fallen, 0, NROWS)
    memset(g.aside, 0, NROWS)
    g.black_used = 0
    g.round_start = g.start_player
    if log is not None:
        log.append(event(g.start_player, "round", g.round))
    if g.game == GAME_DICE:
        if g.round <= 4:
            c = rng_below(&g.rng, NTYPES)           # D7
            g.bonus[c] = BT_START
            k = 0
            for i in range(NTYPES):
                if g.bonus[i] == BT_NONE:
                    g.bonus[i] = g.stacks[5 * r + k]
                    k += 1
        else:
            for i in range(NTYPES):
                g.bonus[i] = g.dark[i]
        if log is not None:
            log.append(event(None, "bonus", [g.bonus[i] for i in range(NTYPES)]))
        if g.dirk:
            c = rng_below(&g.rng, NTYPES)
            for k in range(5):
                cols[k] = (c + k) % NTYPES
            put_dirk_markers(g, cols, log)
    else:
        for i in range(NTYPES):
            t = g.astack[r][i]
            c = TILE_TYPE[t]
            g.items[c][g.nitems[c]] = <uint8_t>t
            g.nitems[c] += 1
        m = min(5, g.abag_n)                          # (a position set up with fewer tiles may run short)
        for k in range(m):
            g.abag_n -= 1
            t = g.abag[g.abag_n]
            c = TILE_TYPE[t]
            g.items[c][g.nitems[c]] = <uint8_t>t
            g.nitems[c] += 1
        if log is not None:
            log.append(event(None, "stack", [g.astack[r][i] for i in range(NTYPES)]))
            log.append(event(None, "bag", [g.abag[g.abag_n + m - 1 - k] for k in range(m)]))
        if g.round <= 4:
            c = rng_below(&g.rng, NTYPES)
            g.items[c][g.nitems[c]] = START_ITEM
            g.nitems[c] += 1
            if log is not None:
                log.append(event(None, "start_tile", c))
        if g.dirk:                                    # D21: T1 -> its column, Tk (k >= 2) -> the column right of it
            cols[0] = TILE_TYPE[g.astack[r][0]]
            for k in range(1, 5):
                cols[k] = (TILE_TYPE[g.astack[r][k]] + 1) % NTYPES
            put_dirk_markers(g, cols, log)
    g.turn_in_round = 0
    begin_turn(g, g.start_player)


cdef void begin_turn(DiceGame* g, int seat) noexcept nogil:
    g.current = <uint8_t>seat
    g.phase = DP_ROLL
    g.rolls = 0
    g.prev_rolls = 0
    g.can_void = 0
    g.black = NO_FACE
    memset(g.dice, NO_FACE, NDICE)
    memset(g.prev_dice, NO_FACE, NDICE)


# ---------------------------------------------------------------- turns

cdef inline int face_count(DiceGame* g, int t) noexcept nogil:
    cdef int i, c = 0
    for i in range(NDICE):
        if g.dice[i] == t:
            c += 1
    if g.black == t:
        c += 1
    return c


cdef inline int target_v(DiceGame* g, int t) noexcept nogil:
    return field_v(face_count(g, t), g.rolls)


cdef int place_marker(DiceGame* g, int row, int t, int v, bint push) noexcept nogil:
    """Put row's marker on field v of column t (§dice-4.5): occupied -> the best free lower field, none -> it
    falls off; with push back (D13) it takes v and the contiguous run below shifts one field down, the last
    marker past (1, 3) falling off. Returns the field's v, or 0 if the marker fell off."""
    cdef int i, end
    cdef uint8_t* col = g.field[t]
    if col[v - 1] != EMPTY and push:
        end = v - 1
        while end >= 0 and col[end] != EMPTY:
            end -= 1
        if end < 0:                                   # the run reaches (1, 3): its last marker falls off
            g.fallen[col[0]] += 1
            end = 0
            for i in range(end, v - 1):
                col[i] = col[i + 1]
        else:
            for i in range(end, v - 1):
                col[i] = col[i + 1]
        col[v - 1] = <uint8_t>row
        return v
    i = v - 1
    while i >= 0 and col[i] != EMPTY:
        i -= 1
    if i < 0:
        g.fallen[row] += 1
        return 0
    col[i] = <uint8_t>row
    return i + 1


cdef void end_turn(DiceGame* g, list log):
    g.turn += 1
    g.turn_in_round += 1
    if g.turn_in_round >= g.n * g.markers:
        g.ev_col = 0
        g.ev_rank = 0
        memset(g.dice, NO_FACE, NDICE)
        g.black = NO_FACE
        g.rolls = 0
        run_evaluation(g, log)
    else:
        begin_turn(g, (g.start_player + g.turn_in_round) % g.n)


# ---------------------------------------------------------------- round evaluation

cdef int marker_at_rank(DiceGame* g, int c, int rank) noexcept nogil:
    """Field index (v - 1) of the rank-th best marker of column c, or -1."""
    cdef int i, k = 0
    for i in range(NFIELDS - 1, -1, -1):
        if g.field[c][i] != EMPTY:
            if k == rank:
                return i
            k += 1
    return -1


cdef void name_start(DiceGame* g, int row, int seat, list log):
    """The receiver of the start-player tile names the next start player (Dirk: the human who was not start
    player of the round just played)."""
    if row == DIRK:
        seat = 1 - g.round_start
    g.start_player = <uint8_t>seat
    if log is not None:
        log.append(event(row_seat(row), "names", seat))


cdef void give_reward(DiceGame* g, int row, int c, int which, int conv, list log):
    """which 0: 2 building points of column c; 1: 1 point + the column's bonus tile. conv: type + 1 to put
    the points on (uses a convert tile), 0 = none."""
    cdef int t = c, code
    if conv:
        t = conv - 1
        g.held[row][BT_CONVERT] -= 1
    add_points(g, row, t, 2 if which == 0 else 1)
    if log is not None:
        log.append(event(row_seat(row), "reward", {"points": 2 if which == 0 else 1, "type": t,
                                                   "converted_from": c if conv else None,
                                                   "bonus": g.bonus[c] if which == 1 else None}))
    if which == 1:
        code = g.bonus[c]
        g.bonus[c] = BT_NONE
        if code != BT_START and (row != DIRK or code <= 2):
            g.held[row][code] += 1


cdef void run_evaluation(DiceGame* g, list log):
    """Serve the markers column by column (D9) until a seat must decide, or finish the round."""
    cdef int c, i, row
    while g.ev_col < NTYPES:
        c = g.ev_col
        if g.game == GAME_DICE:
            i = marker_at_rank(g, c, g.ev_rank) if g.ev_rank < 2 else -1
            if i < 0:
                g.ev_col += 1
                g.ev_rank = 0
                continue
            row = g.field[c][i]
            if g.ev_rank == 0:
                if row == DIRK:
                    give_reward(g, DIRK, c, 0, 0, log)
                    g.ev_first = 0
                    g.ev_rank = 1
                    continue
                g.phase = DP_REWARD
                g.current = <uint8_t>row
                return
            # the second-best marker: the other reward
            if row != DIRK and g.held[row][BT_CONVERT]:
                g.phase = DP_REWARD
                g.current = <uint8_t>row
                return
            if give_second(g, row, 0, log):
                return
        else:
            i = marker_at_rank(g, c, g.ev_rank) if g.nitems[c] else -1
            if i < 0:
                column_aside(g, c, log)
                g.ev_col += 1
                g.ev_rank = 0
                continue
            row = g.field[c][i]
            if row == DIRK:
                dirk_pick(g, c, log)
                g.ev_rank += 1
                continue
            g.phase = DP_PICK
            g.current = <uint8_t>row
            return
    end_round(g, log)


cdef bint give_second(DiceGame* g, int row, int conv, list log):
    """The second-best marker's owner takes the reward the best did not; a start-player tile is named at once.
    True when a human got it and must name now (phase DP_NAME)."""
    cdef int c = g.ev_col
    cdef bint start = g.ev_first == 0 and g.bonus[c] == BT_START
    give_reward(g, row, c, 1 - g.ev_first, conv, log)
    g.ev_rank = 2
    if start:
        if row == DIRK:
            name_start(g, DIRK, 0, log)
        else:
            g.phase = DP_NAME
            g.current = <uint8_t>row
            return True
    return False


cdef void column_aside(DiceGame* g, int c, list log):
    """Alcazaba: tiles nobody took leave the game (face up: public)."""
    cdef int k
    for k in range(g.nitems[c]):
        if g.items[c][k] != START_ITEM:
            g.left[g.nleft] = g.items[c][k]
            g.nleft += 1
    if log is not None and g.nitems[c]:
        log.append(event(None, "aside", {"type": c, "items": [
            None if g.items[c][k] == START_ITEM else g.items[c][k] for k in range(g.nitems[c])]}))
    g.nitems[c] = 0


cdef void take_item(DiceGame* g, int c, int item) noexcept nogil:
    cdef int k, j = 0
    for k in range(g.nitems[c]):
        if g.items[c][k] != item:
            g.items[c][j] = g.items[c][k]
            j += 1
    g.nitems[c] = <uint8_t>j


cdef void dirk_pick(DiceGame* g, int c, list log):
    """D18: Dirk takes the lowest tile (printed cost, then id); the start-player tile only when it is all that
    is left (then he names the other human)."""
    cdef int k, t, best = -1
    for k in range(g.nitems[c]):
        t = g.items[c][k]
        if t != START_ITEM and (best < 0 or TILE_COST[t] < TILE_COST[best]
                                or (TILE_COST[t] == TILE_COST[best] and t < best)):
            best = t
    if best < 0:
        take_item(g, c, START_ITEM)
        name_start(g, DIRK, 0, log)
        return
    take_item(g, c, best)
    g.pending = <uint8_t>best
    g.npending = 0
    city_action_apply(&g.cities, DIRK, A_PLACE_DIRK | (best << 4), NO_CARD_WALLS)
    if log is not None:
        log.append(event(None, "dirk_takes", best))


cdef void end_round(DiceGame* g, list log):
    """Markers go back, leftover bonus tiles leave, scoring after rounds 1, 3, 5, then the next round or the end."""
    cdef int i
    memset(g.field, EMPTY, sizeof(g.field))
    for i in range(NTYPES):
        g.bonus[i] = BT_NONE
    if g.round == 1 or g.round == 3 or g.round == 5:
        if g.game == GAME_DICE:
            score_dice(g, g.round // 2, log)
        else:
            score_alcazaba(g, g.round // 2)
            if log is not None:
                log.append(event(None, "score", {"round": "ABC"[g.round // 2], "scores": [g.score[i] for i in range(g.n)],
                                                 "dirk": g.score[DIRK] if g.dirk else None}))
    if g.round == 5:
        g.phase = DP_OVER
        g.current = EMPTY
        if log is not None:
            log.append(event(None, "game_over", [g.score[i] for i in range(g.n)]))
        return
    g.round += 1
    start_round(g, log)


# ---------------------------------------------------------------- set-up

cdef int deal_unseen(DiceGame* g, uint8_t (*bytype)[16], int* ntype, int first, bint from_back,
                     bint tower) noexcept nogil:
    """Alcazaba's hidden tiles (rules.md §dice-10), at set-up and in determinize: each type's tiles
    (bytype[c][:ntype[c]]) shuffled, one of each type into the stacks first..4 (each stack's reveal order
    shuffled), the rest, with the extra tower if ``tower``, into the bag, shuffled. Set-up deals the stacks
    from the front of each type's tiles, determinize from the back: either is uniform, and each keeps the
    games and samples its seeds always gave. Returns the bag's size. The caller checks that every type has a
    tile for each stack."""
    cdef int c, r, i, lo, hi, k = 0, nstack = 5 - first
    for c in range(NTYPES):
        rng_shuffle_u8(&g.rng, bytype[c], ntype[c])
    for r in range(first, 5):
        for c in range(NTYPES):
            i = ntype[c] - 1 - (r - first) if from_back else r - first
            g.astack[r][c] = bytype[c][i]
        rng_shuffle_u8(&g.rng, g.astack[r], NTYPES)
    for c in range(NTYPES):
        lo = 0 if from_back else nstack
        hi = ntype[c] - nstack if from_back else ntype[c]
        for i in range(lo, hi):
            g.abag[k] = bytype[c][i]
            k += 1
    if tower:
        g.abag[k] = EXTRA_TOWER
        k += 1
    g.abag_n = <uint8_t>k
    rng_shuffle_u8(&g.rng, g.abag, k)
    return k


cdef void dice_setup(DiceGame* g, int game, int n, uint64_t seed, list log):
    """§dice-2 / §dice-10 set-up. Order of chance: bonus stacks (or Alcazaba's stacks and bag), the start
    player, then per round: the start-player tile's column, Dirk's column (basic game)."""
    cdef int i, t, k, r, c, m
    cdef uint8_t bytype[NTYPES][16]
    cdef int ntype[NTYPES]
    memset(g, 0, sizeof(DiceGame))
    rng_seed(&g.rng, seed)
    g.game = <uint8_t>game
    g.n = <uint8_t>n
    g.dirk = n == 2
    g.markers = 5 if n <= 3 else (4 if n == 4 else 3)
    g.round = 1
    for i in range(NTYPES):
        g.bonus[i] = BT_NONE
    if game == GAME_DICE:
        k = 0
        for c in range(NBT - 1):                       # data/dice_bonus.csv (normal backs)
            for m in range(BONUS_COUNTS[0][c]):
                g.stacks[k] = <uint8_t>c
                k += 1
        rng_shuffle_u8(&g.rng, g.stacks, NSTACK)
        k = 0
        for c in range(NBT - 1):
            for m in range(BONUS_COUNTS[1][c]):
                g.dark[k] = <uint8_t>c
                k += 1
        rng_shuffle_u8(&g.rng, g.dark, NDARK)
    else:
        for i in range(n):
            g.cities.city[i] = city_new()
        for c in range(NTYPES):
            ntype[c] = 0
        for t in range(1, NBUILDINGS + 1):
            c = TILE_TYPE[t]
            bytype[c][ntype[c]] = <uint8_t>t
            ntype[c] += 1
        deal_unseen(g, bytype, ntype, 0, False, True)
    g.start_player = <uint8_t>rng_below(&g.rng, n)
    start_round(g, log)


cdef void dice_release(DiceGame* g) noexcept nogil:
    cities_release(&g.cities)


cdef void dice_copy(DiceGame* dst, DiceGame* src) noexcept nogil:
    """dst := src (dst holds no cities); cities shared copy-on-write."""
    memcpy(dst, src, sizeof(DiceGame))
    cities_share(&dst.cities)


# ---------------------------------------------------------------- data

# BONUS_COUNTS[back][code]: tiles per code, back 0 = normal, 1 = dark (loaded from data/dice_bonus.csv)
cdef int BONUS_COUNTS[2][NBT]


def _load_dice_bonus():
    path = _os.path.join(_os.path.dirname(__file__), "data", "dice_bonus.csv")
    kinds = {"void_roll": BT_VOID, "convert": BT_CONVERT, "black_die": BT_BLACK, "push_back": BT_PUSH}
    memset(BONUS_COUNTS, 0, sizeof(BONUS_COUNTS))
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("kind,"):
                continue
            kind, back, value, count = line.split(",")
            code = int(value) - 1 if kind == "points" else kinds[kind]
            BONUS_COUNTS[0 if back == "normal" else 1][code] += int(count)
    if sum(BONUS_COUNTS[0][c] for c in range(NBT)) != NSTACK or sum(BONUS_COUNTS[1][c] for c in range(NBT)) != NDARK:
        raise RuntimeError(f"{path}: expected {NSTACK} normal and {NDARK} dark tiles")


_load_dice_bonus()
