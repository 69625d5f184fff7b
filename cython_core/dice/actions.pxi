# Dice-game actions (rules.md D26): compact codes in the base game's scheme (kind = code & 15, payload above).
# Kinds 3..8 are the base game's own (place / place reserve / place dirk / build / remove / swap: Alcazaba's
# placements and rebuilds, same codes and text); the dice kinds use the numbers the base game leaves free.
#
#   ROLL    1   bits 4-11: mask of white dice rolled        "roll" (roll 1: all 8), "reroll 2 5 6" (positions 1-8)
#   STOP    2   bits 4-6 type, bit 7 push back               "stop garden", "stop garden push"
#   VOID    9                                                "void"
#   BLACK  10   bits 4-6 face                                "black garden"
#   REWARD 11   bit 4: 0 = 2 points, 1 = point + tile; bits 5-7 convert target type + 1 (0 none)
#                                                            "points", "tile", "points convert tower"
#   NAME   12   bits 4-6 seat                                "start 2" (seat 1-based)
#   PICK   13   bits 4-11 tile (254 = start-player tile)     "pick 17", "pick start"
#
# The generator lists one re-roll per distinct multiset of kept faces (the lowest positions of each face are
# kept): dice are interchangeable, so other masks are the same move; apply() accepts every non-empty mask.

cdef enum:
    D_ROLL = 1
    D_STOP = 2
    D_VOID = 9
    D_BLACK = 10
    D_REWARD = 11
    D_NAME = 12
    D_PICK = 13
    MAX_DICE_LEGAL = 8192

    DE_OK = 0
    DE_CODE = 1
    DE_OVER = 2
    DE_PHASE = 3
    DE_ROLL_ALL = 4
    DE_NO_ROLLS = 5
    DE_NO_SYMBOL = 6
    DE_PUSH_FREE = 7
    DE_NO_TILE = 8
    DE_VOID_LATE = 9
    DE_BLACK_SET = 10
    DE_BLACK_USED = 11
    DE_GAME = 12
    DE_CONVERT_SAME = 13
    DE_WHICH = 14
    DE_SEAT = 15
    DE_NO_ITEM = 16
    DE_REBUILD_ROLL = 17
    DE_NOT_PENDING = 18
    DE_RESERVE = 19
    DE_REMOVE_TILE = 20
    DE_BAD_TILE = 21
    DE_NO_DIRK = 22
    DE_CITY = 32

DICE_ERRORS = {
    DE_CODE: "not an action code of this game",
    DE_OVER: "the game is over",
    DE_PHASE: "not now",
    DE_ROLL_ALL: "the first roll uses all 8 dice",
    DE_NO_ROLLS: "three rolls were made already: stop and name a type",
    DE_NO_SYMBOL: "no die shows that symbol",
    DE_PUSH_FREE: "push back only when the target field is occupied",
    DE_VOID_LATE: "a void roll cancels only the roll just made, as the very next decision (D10)",
    DE_BLACK_SET: "the black die is set already",
    DE_BLACK_USED: "one black-die tile per round (D12)",
    DE_GAME: "not in this game",
    DE_CONVERT_SAME: "convert puts the points on another type",
    DE_WHICH: "the second-best marker gets the reward the best did not take",
    DE_SEAT: "no such seat (name a human seat)",
    DE_NO_ITEM: "that item is not in this column",
    DE_REBUILD_ROLL: "rebuild only after roll 1 or 2",
    DE_NOT_PENDING: "that tile is not the one to place",
    DE_RESERVE: "that tile is not in your reserve",
    DE_REMOVE_TILE: "the tile bits do not match the tile at that cell",
    DE_BAD_TILE: "no such tile",
    DE_NO_DIRK: "there is no Dirk in this game",
}


cdef inline bint dice_tile(int t) noexcept nogil:
    """A tile of Alcazaba: the 54 buildings and the extra tower (D23)."""
    return 1 <= t <= NBUILDINGS or t == EXTRA_TOWER



# ---------------------------------------------------------------- generation

cdef int gen_rerolls(DiceGame* g, int* out) noexcept nogil:
    """One re-roll mask per multiset of kept faces (keeping the lowest positions of each face), not keep-all."""
    cdef int kept[NTYPES][NDICE + 1]    # kept[f][k]: bits of the k lowest positions showing face f
    cdef int cnt[NTYPES]
    cdef int keep[NTYPES]
    cdef int f, i, n = 0, mask
    for f in range(NTYPES):
        cnt[f] = 0
        keep[f] = 0
        kept[f][0] = 0
    for i in range(NDICE):
        f = g.dice[i]
        kept[f][cnt[f] + 1] = kept[f][cnt[f]] | (1 << i)
        cnt[f] += 1
    while True:
        mask = 0
        for f in range(NTYPES):
            mask |= kept[f][keep[f]]
        mask = 0xFF & ~mask
        if mask:
            out[n] = D_ROLL | (mask << 4)
            n += 1
        f = 0
        while f < NTYPES:                     # odometer over keep[f] in 0..cnt[f]
            if keep[f] < cnt[f]:
                keep[f] += 1
                break
            keep[f] = 0
            f += 1
        if f == NTYPES:
            return n


cdef inline bint holds(DiceGame* g, int code) noexcept nogil:
    return g.held[g.current][code] > 0


cdef inline bint can_rebuild(DiceGame* g) noexcept nogil:
    return g.game == GAME_ALCAZABA and (g.rolls == 1 or g.rolls == 2)


cdef int gen_city(DiceGame* g, bint place, int* out) noexcept nogil:
    """Alcazaba: the shared placement (place phase) or rebuild (after a roll) list for the seat to act."""
    cdef SeatView* sv = seat_view_new()
    cdef int n
    if sv == NULL:
        abort()
    view_build(sv, g.cities.city[g.current])
    if place:
        n = gen_place(&g.pending, g.npending, g.dirk, NO_CARD_WALLS, &sv.v, out)
    else:
        n = gen_rebuild(&g.cities, g.current, NO_CARD_WALLS, &sv.v, out)
    free(sv)
    return n


cdef int dice_gen_legal(DiceGame* g, int* out) noexcept nogil:
    """All legal actions of the seat to act (0 when over), in a fixed order."""
    cdef int n = 0, t, f, conv, which, s, k, row = g.current
    if g.phase == DP_ROLL:
        out[0] = D_ROLL | (0xFF << 4)
        return 1
    if g.phase == DP_AFTER:
        for t in range(NTYPES):
            if face_count(g, t):
                out[n] = D_STOP | (t << 4)
                n += 1
                if holds(g, BT_PUSH) and g.field[t][target_v(g, t) - 1] != EMPTY:
                    out[n] = D_STOP | (t << 4) | 128
                    n += 1
        if g.rolls < 3:
            n += gen_rerolls(g, out + n)
        if g.can_void and holds(g, BT_VOID):
            out[n] = D_VOID
            n += 1
        if g.game == GAME_DICE and g.black == NO_FACE and holds(g, BT_BLACK) and not (g.black_used >> row) & 1:
            for f in range(NTYPES):
                out[n] = D_BLACK | (f << 4)
                n += 1
        if can_rebuild(g):
            n += gen_city(g, False, out + n)
        return n
    if g.phase == DP_REWARD:
        for which in range(2):
            if g.ev_rank == 1 and which != 1 - g.ev_first:
                continue
            out[n] = D_REWARD | (which << 4)
            n += 1
            if holds(g, BT_CONVERT):
                for conv in range(NTYPES):
                    if conv != g.ev_col:
                        out[n] = D_REWARD | (which << 4) | ((conv + 1) << 5)
                        n += 1
        return n
    if g.phase == DP_NAME:
        for s in range(g.n):
            out[n] = D_NAME | (s << 4)
            n += 1
        return n
    if g.phase == DP_PICK:
        for k in range(g.nitems[g.ev_col]):
            out[n] = D_PICK | (g.items[g.ev_col][k] << 4)
            n += 1
        return n
    if g.phase == DP_PLACE:
        return gen_city(g, True, out)
    return 0


# ---------------------------------------------------------------- random draws without the list

# A uniformly random legal action, drawn as dice_gen_legal's list would give it (one rng_below over the list's
# length, the entry at that index) without writing the list: the re-rolls are counted (a product over the
# faces) and the drawn one found from its index, and Alcazaba's seats keep their city views (DiceScratch)
# until their city changes. Random games (bench, rollouts) stay the very games the listed draw plays.

cdef struct DiceScratch:
    SeatView* sv[MAX_PLAYERS]         # a view per seat, allocated when first needed
    CityGrid* built[MAX_PLAYERS]      # the city sv[seat] was built from; NULL: build it again
    int buf[MAX_DICE_LEGAL]


cdef DiceScratch* dice_scratch_new() noexcept nogil:
    """Scratch for dice_sample_legal (NULL when out of memory); free with dice_scratch_free."""
    return <DiceScratch*>calloc(1, sizeof(DiceScratch))


cdef void dice_scratch_free(DiceScratch* sc) noexcept nogil:
    cdef int i
    if sc != NULL:
        for i in range(MAX_PLAYERS):
            free(sc.sv[i])
        free(sc)


cdef inline void dice_scratch_reset(DiceScratch* sc) noexcept nogil:
    """Forget every view: call when the scratch goes on with another game (or a game changed elsewhere)."""
    memset(sc.built, 0, sizeof(sc.built))


cdef inline void dice_scratch_touch(DiceScratch* sc, DiceGame* g, int code) noexcept nogil:
    """Call before dice_apply(g, code): a placement or rebuild changes the acting seat's city."""
    cdef int kind = code & 15
    if kind == A_PLACE or kind == A_BUILD or kind == A_REMOVE or kind == A_SWAP:
        sc.built[g.current] = NULL


cdef CityView* _scratch_view(DiceScratch* sc, DiceGame* g) noexcept nogil:
    """The acting seat's city view, built again only after its city changed (a fresh view_build lists in the
    same order as gen_city's new view: the lists depend on the city only)."""
    cdef int seat = g.current
    cdef CityGrid* c = g.cities.city[seat]
    if sc.sv[seat] == NULL:
        sc.sv[seat] = seat_view_new()
        if sc.sv[seat] == NULL:
            abort()
        sc.built[seat] = NULL
    if sc.built[seat] != c:
        view_build(sc.sv[seat], c)
        sc.built[seat] = c
    return &sc.sv[seat].v


cdef inline int _nth_cell(CityView* v, int walls, int kind, int t, int i) noexcept nogil:
    """The i-th entry _emit_cells would write."""
    cdef int j, bit = 1 << walls
    for j in range(v.nfront):
        if MASKS_MATCH[v.front_key[j]] & bit:
            if i == 0:
                return code_cell(kind, t, pg_packed(v.front_cell[j]))
            i -= 1
    return -1


cdef int _nth_rebuild(DiceGame* g, CityView* v, int i) noexcept nogil:
    """The i-th entry of gen_rebuild's list (builds per reserve tile, removals, swaps per reserve tile)."""
    cdef uint8_t tiles[128]
    cdef int nt = mask_list(g.cities.reserve[g.current], tiles), k, j, w, bit
    for k in range(nt):
        w = TILE_WALLS[tiles[k]]
        if i < v.front_count[w]:
            return _nth_cell(v, w, A_BUILD, tiles[k], i)
        i -= v.front_count[w]
    if i < view_removals(v):
        return code_cell(A_REMOVE, v.remove_tile[i], pg_packed(v.remove_cell[i]))
    i -= view_removals(v)
    for k in range(nt):
        bit = 1 << TILE_WALLS[tiles[k]]
        for j in range(v.ntile):
            if v.tile_id[j] != FOUNTAIN and MASKS_MATCH[v.tile_key[j]] & bit:
                if i == 0:
                    return code_cell(A_SWAP, tiles[k], pg_packed(v.tile_cell[j]))
                i -= 1
    return -1


cdef int _rebuild_count(DiceGame* g, CityView* v) noexcept nogil:
    """gen_rebuild's length, from the view's counts per wall mask."""
    cdef uint8_t tiles[128]
    cdef int nt = mask_list(g.cities.reserve[g.current], tiles), k, n = view_removals(v)
    for k in range(nt):
        n += v.front_count[TILE_WALLS[tiles[k]]] + v.swap_count[TILE_WALLS[tiles[k]]]
    return n


cdef int dice_sample_legal(DiceGame* g, Rng* r, DiceScratch* sc) noexcept nogil:
    """The action buf[rng_below(r, n)] for dice_gen_legal's list buf of n (the game not over): the same draw
    and the same rng use, without listing the re-rolls and rebuilds. sc: scratch of this game (see
    dice_scratch_touch)."""
    cdef int n = 0, nstop, nrr = 1, ntail, ncity = 0, i, t, f, row = g.current, mask, d
    cdef int cnt[NTYPES]
    cdef int kept[NTYPES][NDICE + 1]
    cdef int* out = sc.buf
    cdef CityView* v = NULL
    if g.phase != DP_AFTER:
        if g.phase == DP_PLACE:
            n = gen_place(&g.pending, g.npending, g.dirk, NO_CARD_WALLS, _scratch_view(sc, g), out)
        else:
            n = dice_gen_legal(g, out)
        return out[rng_below(r, n)]
    # after a roll: stops | re-rolls (counted) | void, black | rebuilds (counted)
    for f in range(NTYPES):
        cnt[f] = 0
    for i in range(NDICE):
        cnt[g.dice[i]] += 1
    for t in range(NTYPES):
        if cnt[t] or g.black == t:
            out[n] = D_STOP | (t << 4)
            n += 1
            if holds(g, BT_PUSH) and g.field[t][target_v(g, t) - 1] != EMPTY:
                out[n] = D_STOP | (t << 4) | 128
                n += 1
    nstop = n
    if g.rolls < 3:
        for f in range(NTYPES):
            nrr *= cnt[f] + 1
    nrr -= 1                                  # not keep-all (the odometer's last state)
    if g.can_void and holds(g, BT_VOID):
        out[n] = D_VOID
        n += 1
    if g.game == GAME_DICE and g.black == NO_FACE and holds(g, BT_BLACK) and not (g.black_used >> row) & 1:
        for f in range(NTYPES):
            out[n] = D_BLACK | (f << 4)
            n += 1
    ntail = n - nstop
    if can_rebuild(g):
        v = _scratch_view(sc, g)
        ncity = _rebuild_count(g, v)
    i = rng_below(r, nstop + nrr + ntail + ncity)
    if i < nstop:
        return out[i]
    i -= nstop
    if i < nrr:                               # gen_rerolls' i-th mask: keep[f] = digit f of i, radix cnt[f] + 1
        for f in range(NTYPES):
            kept[f][0] = 0
            cnt[f] = 0
        for d in range(NDICE):
            f = g.dice[d]
            kept[f][cnt[f] + 1] = kept[f][cnt[f]] | (1 << d)
            cnt[f] += 1
        mask = 0
        for f in range(NTYPES):
            mask |= kept[f][i % (cnt[f] + 1)]
            i //= cnt[f] + 1
        return D_ROLL | ((0xFF & ~mask) << 4)
    i -= nrr
    if i < ntail:
        return out[nstop + i]
    return _nth_rebuild(g, v, i - ntail)


# ---------------------------------------------------------------- checking

cdef int check_city(DiceGame* g, int code) noexcept nogil:
    """Alcazaba's placements and rebuilds: the shared city rules; the tile range admits the extra tower (D23)."""
    cdef int kind = code & 15, t = code_tile(code), seat = g.current, r
    if code >> 28:
        return DE_CODE
    if kind != A_REMOVE and not dice_tile(t):
        return DE_BAD_TILE
    if kind == A_PLACE or kind == A_PLACE_RESERVE or kind == A_PLACE_DIRK:
        if g.phase != DP_PLACE:
            return DE_PHASE
        if kind != A_PLACE and (code >> 12):
            return DE_CODE
        if g.npending != 1 or g.pending != t:
            return DE_NOT_PENDING
        if kind == A_PLACE_DIRK and not g.dirk:
            return DE_NO_DIRK
        if kind == A_PLACE:
            r = city_check_place(g.cities.city[seat], cell_x(code), cell_y(code), TILE_WALLS[t])
            return DE_CITY + r if r else DE_OK
        return DE_OK
    if g.phase != DP_AFTER:
        return DE_PHASE
    if not can_rebuild(g):
        return DE_REBUILD_ROLL
    if kind == A_REMOVE:
        r = city_check_remove(g.cities.city[seat], cell_x(code), cell_y(code))
        if r:
            return DE_CITY + r
        return DE_REMOVE_TILE if city_tile(g.cities.city[seat], cell_x(code), cell_y(code)) != t else DE_OK
    if not mask_has(g.cities.reserve[seat], t):
        return DE_RESERVE
    if kind == A_BUILD:
        r = city_check_place(g.cities.city[seat], cell_x(code), cell_y(code), TILE_WALLS[t])
    else:
        r = city_check_swap(g.cities.city[seat], cell_x(code), cell_y(code), TILE_WALLS[t])
    return DE_CITY + r if r else DE_OK


cdef int dice_check(DiceGame* g, int code) noexcept nogil:
    """0 if legal for the seat to act, else a DE_* code."""
    cdef int kind = code & 15, t, m, which, conv, k, f, row = g.current
    if code < 0:
        return DE_CODE
    if g.phase == DP_OVER:
        return DE_OVER
    if A_PLACE <= kind <= A_SWAP:
        if g.game != GAME_ALCAZABA:
            return DE_GAME
        return check_city(g, code)
    if kind == D_ROLL:
        m = (code >> 4) & 0xFF
        if (code >> 12) or m == 0:
            return DE_CODE
        if g.phase == DP_ROLL:
            return DE_OK if m == 0xFF else DE_ROLL_ALL
        if g.phase != DP_AFTER:
            return DE_PHASE
        return DE_NO_ROLLS if g.rolls >= 3 else DE_OK
    if kind == D_STOP:
        if code >> 8:
            return DE_CODE
        t = (code >> 4) & 7
        if t >= NTYPES:
            return DE_CODE
        if g.phase != DP_AFTER:
            return DE_PHASE
        if not face_count(g, t):
            return DE_NO_SYMBOL
        if code & 128:
            if not holds(g, BT_PUSH):
                return DE_NO_TILE
            if g.field[t][target_v(g, t) - 1] == EMPTY:
                return DE_PUSH_FREE
        return DE_OK
    if kind == D_VOID:
        if code != D_VOID:
            return DE_CODE
        if g.phase != DP_AFTER:
            return DE_PHASE
        if not holds(g, BT_VOID):
            return DE_NO_TILE
        return DE_OK if g.can_void else DE_VOID_LATE
    if kind == D_BLACK:
        f = (code >> 4)
        if f >= NTYPES:
            return DE_CODE
        if g.game != GAME_DICE:
            return DE_GAME
        if g.phase != DP_AFTER:
            return DE_PHASE
        if not holds(g, BT_BLACK):
            return DE_NO_TILE
        if g.black != NO_FACE:
            return DE_BLACK_SET
        return DE_BLACK_USED if (g.black_used >> row) & 1 else DE_OK
    if kind == D_REWARD:
        if code >> 8:
            return DE_CODE
        which = (code >> 4) & 1
        conv = (code >> 5) & 7
        if conv > NTYPES:
            return DE_CODE
        if g.phase != DP_REWARD:
            return DE_PHASE
        if g.ev_rank == 1 and which != 1 - g.ev_first:
            return DE_WHICH
        if conv:
            if not holds(g, BT_CONVERT):
                return DE_NO_TILE
            if conv - 1 == g.ev_col:
                return DE_CONVERT_SAME
        return DE_OK
    if kind == D_NAME:
        if code >> 7:
            return DE_CODE
        if g.phase != DP_NAME:
            return DE_PHASE
        return DE_OK if (code >> 4) < g.n else DE_SEAT
    if kind == D_PICK:
        if code >> 12:
            return DE_CODE
        if g.phase != DP_PICK:
            return DE_PHASE
        t = code >> 4
        for k in range(g.nitems[g.ev_col]):
            if g.items[g.ev_col][k] == t:
                return DE_OK
        return DE_NO_ITEM
    return DE_CODE


# ---------------------------------------------------------------- applying

cdef void roll_dice(DiceGame* g, int mask, uint8_t* faces):
    """Roll the dice of mask (their new faces from `faces` in position order if given, else from the rng)."""
    cdef int i, k = 0
    memcpy(g.prev_dice, g.dice, NDICE)
    g.prev_rolls = g.rolls
    for i in range(NDICE):
        if (mask >> i) & 1:
            g.dice[i] = faces[k] if faces != NULL else <uint8_t>rng_below(&g.rng, NTYPES)
            k += 1
    g.rolls += 1
    g.can_void = 1
    g.phase = DP_AFTER


cdef void dice_apply(DiceGame* g, int code, list log, uint8_t* faces=NULL):
    """Apply a legal action (check first unless it came from dice_gen_legal). faces: a chance outcome to use
    for a roll instead of the rng (see DiceState.apply_outcome)."""
    cdef int kind = code & 15, row = g.current, t, v, which, conv
    if kind == D_ROLL:
        roll_dice(g, (code >> 4) & 0xFF, faces)
        if log is not None:
            log.append(event(row, "dice", {"faces": [None if g.dice[t] == NO_FACE else g.dice[t] for t in range(NDICE)],
                                           "black": None if g.black == NO_FACE else g.black}))
        return
    g.can_void = 0
    if kind == D_STOP:
        t = (code >> 4) & 7
        if code & 128:
            g.held[row][BT_PUSH] -= 1
        v = place_marker(g, row, t, target_v(g, t), code & 128)
        if log is not None:
            log.append(event(row, "marker", {"type": t, "field": v or None}))
        end_turn(g, log)
    elif kind == D_VOID:
        g.held[row][BT_VOID] -= 1
        memcpy(g.dice, g.prev_dice, NDICE)
        g.rolls = g.prev_rolls
        if g.rolls == 0:
            g.phase = DP_ROLL
    elif kind == D_BLACK:
        g.held[row][BT_BLACK] -= 1
        g.black_used |= 1 << row
        g.black = <uint8_t>(code >> 4)
    elif kind == D_REWARD:
        which = (code >> 4) & 1
        conv = (code >> 5) & 7
        if g.ev_rank == 0:
            t = g.bonus[g.ev_col]
            give_reward(g, row, g.ev_col, which, conv, log)
            g.ev_first = <uint8_t>which
            g.ev_rank = 1
            if which == 1 and t == BT_START:
                g.phase = DP_NAME
                return
        elif give_second(g, row, conv, log):
            return
        run_evaluation(g, log)
    elif kind == D_NAME:
        name_start(g, row, code >> 4, log)
        g.phase = DP_REWARD                 # leave the naming phase (issue 43: a stale DP_NAME made the same seat
        run_evaluation(g, log)              # name twice); run_evaluation sets the next phase
    elif kind == D_PICK:
        t = code >> 4
        take_item(g, g.ev_col, t)
        g.ev_rank += 1
        if t == START_ITEM:
            g.phase = DP_NAME
            return
        g.pending = <uint8_t>t
        g.npending = 1
        g.phase = DP_PLACE
    elif kind == A_PLACE or kind == A_PLACE_RESERVE or kind == A_PLACE_DIRK:
        g.npending = 0
        city_action_apply(&g.cities, row, code, NO_CARD_WALLS)
        run_evaluation(g, log)
    else:                                   # rebuild instead of a marker placement: the marker is out (D20)
        city_action_apply(&g.cities, row, code, NO_CARD_WALLS)
        g.aside[row] += 1
        end_turn(g, log)


# ---------------------------------------------------------------- text forms

cdef str v_text(int v):
    """Field v as 'count/rolls', e.g. '5/3'."""
    return f"{(v - 1) // 3 + 1}/{3 - (v - 1) % 3}"


cdef str dice_text(DiceGame* g):
    s = " ".join("-" if g.dice[i] == NO_FACE else TYPE_NAMES[g.dice[i]] for i in range(NDICE))
    if g.black != NO_FACE:
        s += f" black {TYPE_NAMES[g.black]}"
    return s


cdef str dice_action_text(DiceGame* g, int code):
    """Text form of a structurally valid code (ValueError otherwise)."""
    cdef int kind = code & 15, m
    if code < 0:
        raise ValueError(f"not an action code: {code}")
    if kind == D_ROLL and not (code >> 12):
        m = (code >> 4) & 0xFF
        if m == 0xFF and g.phase == DP_ROLL:
            return "roll"
        if m:
            return "reroll " + " ".join(str(i + 1) for i in range(NDICE) if (m >> i) & 1)
    elif kind == D_STOP and not (code >> 8) and ((code >> 4) & 7) < NTYPES:
        return f"stop {TYPE_NAMES[(code >> 4) & 7]}" + (" push" if code & 128 else "")
    elif code == D_VOID:
        return "void"
    elif kind == D_BLACK and (code >> 4) < NTYPES:
        return f"black {TYPE_NAMES[code >> 4]}"
    elif kind == D_REWARD and not (code >> 8) and ((code >> 5) & 7) <= NTYPES:
        s = "tile" if (code >> 4) & 1 else "points"
        if (code >> 5) & 7:
            s += f" convert {TYPE_NAMES[((code >> 5) & 7) - 1]}"
        return s
    elif kind == D_NAME and not (code >> 7):
        return f"start {(code >> 4) + 1}"
    elif kind == D_PICK and not (code >> 12):
        return "pick start" if (code >> 4) == START_ITEM else f"pick {code >> 4}"
    elif A_PLACE <= kind <= A_SWAP:
        return city_action_text(code)
    raise ValueError(f"not an action code: {code}")


cdef int _type_arg(str word, str verb) except -1:
    for i, name in enumerate(TYPE_NAMES):
        if name.startswith(word) and len(word) >= 2:
            return i
    raise ValueError(f"{verb}: unknown building type {word!r} ({', '.join(TYPE_NAMES)})")


cdef int _dice_args(list args, str verb) except -1:
    cdef int m = 0
    for w in args:
        if w not in ("1", "2", "3", "4", "5", "6", "7", "8"):
            raise ValueError(f"{verb}: bad die {w!r} (dice are 1-8)")
        m |= 1 << (int(w) - 1)
    return m


cdef int _city_tile_arg(str text) except -1:
    try:
        t = int(text)
    except ValueError:
        raise ValueError(f"bad tile {text!r} (write its id)") from None
    if not dice_tile(t):
        raise ValueError(f"no tile {t} (tiles are 1-{NBUILDINGS} and {EXTRA_TOWER})")
    return t


cdef int dice_parse(DiceGame* g, str text) except -1:
    """Text -> code (form only; apply checks legality). Also accepts ``keep 1 3 4`` (re-roll the others) and
    ``reroll`` (all eight)."""
    cdef int m, t, x, y
    words = text.strip().lower().split()
    if not words:
        raise ValueError("empty action text")
    verb, args = words[0], words[1:]
    if verb == "roll" and not args:
        return D_ROLL | (0xFF << 4)
    if verb in ("reroll", "roll"):
        m = _dice_args(args, verb) if args else 0xFF
        return D_ROLL | (m << 4)
    if verb == "keep":
        m = 0xFF & ~_dice_args(args, verb)
        if not m:
            raise ValueError("keep: keeping all 8 dice is no roll (stop instead)")
        return D_ROLL | (m << 4)
    if verb == "stop":
        if not args or len(args) > 2 or (len(args) == 2 and args[1] != "push"):
            raise ValueError("stop: name the type, e.g. 'stop garden' or 'stop garden push'")
        return D_STOP | (_type_arg(args[0], verb) << 4) | (128 if len(args) == 2 else 0)
    if verb == "void" and not args:
        return D_VOID
    if verb == "black":
        if len(args) != 1:
            raise ValueError("black: name the symbol, e.g. 'black garden'")
        return D_BLACK | (_type_arg(args[0], verb) << 4)
    if verb in ("points", "tile"):
        if args and (len(args) != 2 or args[0] != "convert"):
            raise ValueError(f"{verb}: optionally 'convert <type>', e.g. '{verb} convert tower'")
        t = _type_arg(args[1], "convert") + 1 if args else 0
        return D_REWARD | ((verb == "tile") << 4) | (t << 5)
    if verb in ("start", "name"):
        if len(args) != 1 or not args[0].isdigit() or not 1 <= int(args[0]) <= g.n:
            raise ValueError(f"{verb}: name a seat 1-{g.n}, e.g. 'start 2'")
        return D_NAME | ((int(args[0]) - 1) << 4)
    if verb == "pick":
        if len(args) != 1:
            raise ValueError("pick: name a tile or 'start', e.g. 'pick 17'")
        return D_PICK | ((START_ITEM if args[0] == "start" else _city_tile_arg(args[0])) << 4)
    if verb in ("remove", "place", "build", "swap"):
        no_city = g.game != GAME_ALCAZABA or g.current == EMPTY
        return city_action_parse(verb, args, NULL if no_city else g.cities.city[g.current],
                                 "remove: no city to remove from", _city_tile_arg)
    raise ValueError(f"unknown action {text.strip()!r} (roll, reroll, keep, stop, void, black, points, tile, "
                     "start, pick, place, build, remove, swap)")


cdef str dice_explain(DiceGame* g, int code, int err):
    try:
        what = dice_action_text(g, code)
    except ValueError:
        what = f"action code {code}"
    kind = code & 15
    if err >= DE_CITY:
        reason = city_error_text(err - DE_CITY).decode()
    elif err == DE_PHASE:
        reason = "not now (possible now: " + ", ".join(  # the player's words, not the phase's internal name
            sorted({dice_action_text(g, c).split()[0] for c in _dice_legal_list(g)})) + ")"
    elif err == DE_NO_TILE:
        need = {D_STOP: "push back", D_VOID: "void roll", D_BLACK: "black die", D_REWARD: "convert"}.get(kind, "")
        reason = f"you hold no {need} tile"
    elif err == DE_NO_SYMBOL:
        reason = f"no die shows {TYPE_NAMES[(code >> 4) & 7]} (dice: {dice_text(g)})"
    elif err == DE_NOT_PENDING:
        reason = f"tile {code_tile(code)} is not the one to place ({g.pending if g.npending else 'none'})"
    else:
        reason = DICE_ERRORS.get(err, f"error {err}")
    return f"illegal action {what!r}: {reason}"


cdef int _DICE_BUF[MAX_DICE_LEGAL]


cdef list _dice_legal_list(DiceGame* g):
    cdef int n = dice_gen_legal(g, _DICE_BUF), i
    return [_DICE_BUF[i] for i in range(n)]
