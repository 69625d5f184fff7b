# The random player in games with modules (RULES §9): a uniformly random legal action, drawn without listing
# every one, as sample_legal (actions.pxi) does for the base game. "Random" means the same in both: uniform
# over the legal actions (gen_legal_cached's list: every action alike, whatever its kind).
#
# The short parts are listed (takes, buys, and what gen_action_modules / gen_module_phase list); the long ones
# are counted: falcon purchases (falcon_buys), builds, swaps and placements per wall mask and removals from the
# seat's CityView. Without camps in the seat's city the draw is exactly gen_legal_cached's list at the index
# rng_below(count) (tests/test_modules.py checks this along games).
#
# Camps: the CityView knows walls, not the camp rules (a camp is a tile whose bastions count as walls there).
# With camps in the seat's city its builds, placements and swaps of buildings are a superset of the legal ones
# (the camp rules only forbid more) and its tiles but the fountain a superset of the removals; camp tiles get
# their own cells from the camp rules (camp_place_cells, exactly; swaps: the tiles whose sides fit the camp).
# A draw that may be illegal is kept only if check_action accepts it, else the whole draw is repeated:
# rejection keeps the result uniform over the legal actions. After SAMPLE_TRIES rejections the full list is
# made (uniform as well).
#
# HOOK for new modules (issue 13): an action kind listed by gen_action_modules or gen_module_phase is drawn
# here with no change. A kind with very many actions can be counted instead, like the falcons (a counted
# segment in draw_plan / draw_pick). A module that changes a city other than by place / build / remove / swap
# must tell the GenCache (gen_cache_touch), or the views go stale.

cdef enum:
    SAMPLE_TRIES = 32         # rejected draws (camps) before the full list is made
    DRAW_AGAIN = -2           # a draw from a superset that check_action refused


cdef struct Draw:
    int n                     # codes listed in GenCache.legal
    int at                    # where the counted falcon purchases stand in the list
    int nf                    # falcon purchases (counted)
    int fcap                  # their cap (as in the list)
    int nr                    # builds / removes / swaps, or placements (counted; with camps a superset's count)
    int total
    CityView* v               # the seat's view, and its memo (NULL when the city is the fountain alone)
    SeatMemo* m
    FalconCorners* corners


cdef int sample_legal_modules(GameState* s, GenCache* gc, Rng* r) noexcept nogil:
    """sample_legal for games with modules (see the top of this file); -1 when the game is over."""
    cdef Draw d
    cdef int i, code, n
    draw_plan(s, gc, &d)
    if d.total == 0:
        return A_PASS if s.phase == PH_ACTION else -1
    for i in range(SAMPLE_TRIES):
        code = draw_pick(s, gc, &d, rng_below(r, d.total))
        if code != DRAW_AGAIN:
            return code
    n = gen_legal_cached(s, gc, gc.legal)
    return gc.legal[rng_below(r, n)] if n > 0 else -1


cdef inline int _walls(GameState* s, int t) noexcept nogil:
    """The walls building tile t shows: the one place here that reads them (printed, plus a wall card's pieces:
    tile_walls_now, state.pxi)."""
    return tile_walls_now(s, t)


cdef inline int _checked(GameState* s, int code, bint maybe_illegal) noexcept nogil:
    if maybe_illegal and (code < 0 or check_action(s, code) != E_OK):
        return DRAW_AGAIN
    return code


cdef SeatMemo* _memo(GenCache* gc, int seat) noexcept nogil:
    """The seat's SeatMemo, emptied when its view has changed (call seat_view first)."""
    cdef SeatMemo* m = &gc.memo[seat]
    if m.version != gc.seat[seat].version:
        m.version = gc.seat[seat].version
        m.corners.n = -1
        memset(m.camp_cells, 0xFF, NCAMPS * sizeof(int16_t))
        memset(m.camp_fits, 0xFF, NCAMPS * sizeof(int16_t))
    return m


cdef inline FalconCorners* _corners(GameState* s, SeatMemo* m) noexcept nogil:
    if m == NULL:
        return NULL
    if m.corners.n < 0:
        falcon_corners(s.city[s.current], &m.corners)
    return &m.corners


cdef void _count_camp_cells(GameState* s, SeatMemo* m) noexcept nogil:
    """m.camp_cells for the camp tiles the seat to act may put into its city now (from the reserve in the
    action phase, else the pending ones), in one scan of the city."""
    cdef int b, t, j, k = 0
    cdef int which[NCAMPS]
    cdef int bastions[NCAMPS]
    cdef int counts[NCAMPS]
    for b in range(NCAMPS):
        t = CAMP_FIRST + b
        if m.camp_cells[b] < 0 and (mask_has(s.reserve[s.current], t) if s.phase == PH_ACTION
                                    else _pending_index(s, t) >= 0):
            which[k] = b
            bastions[k] = TILE_WALLS[t]
            k += 1
    camp_place_counts(s.city[s.current], bastions, k, counts)
    for j in range(k):
        m.camp_cells[which[j]] = <int16_t>counts[j]


cdef int _cells_count(GameState* s, CityView* v, SeatMemo* m, int t) noexcept nogil:
    """Cells where tile t may be built / placed: a camp's by the camp rules, a building's from the view."""
    if TILE_KIND[t] == KIND_CAMP:
        if m.camp_cells[t - CAMP_FIRST] < 0:
            _count_camp_cells(s, m)
        return m.camp_cells[t - CAMP_FIRST]
    return v.front_count[_walls(s, t)]


cdef int _kth_cell_of(GameState* s, CityView* v, CityGrid* c, int kind, int t, int k) noexcept nogil:
    """The k-th of _cells_count's cells as an action code of `kind`."""
    cdef int cells[CITY_MAX_CELLS]
    if TILE_KIND[t] == KIND_CAMP:
        camp_place_cells(c, TILE_WALLS[t], cells)
        return code_cell(kind, t, cells[k])
    return _kth_cell(s, v, kind, t, k)


cdef int _camp_swap_fits(CityGrid* c, CityView* v, int t, int k) noexcept nogil:
    """The tiles (not the fountain) whose neighbours fit camp t's sides: a superset of camp t's swaps. k < 0:
    their number; else the k-th as a swap code."""
    cdef int j, p, i, n = 0
    for j in range(v.ntile):
        if v.tile_id[j] == FOUNTAIN:
            continue
        p = v.tile_cell[j]
        i = _cidx(c, (p & (PG - 1)) - PG_OFF, (p >> 7) - PG_OFF)
        if camp_sides_match(c.occ, i, c.w, TILE_WALLS[t]) and _camp_sides(c, i, TILE_WALLS[t]) == CITY_OK:
            if n == k:
                return code_cell(A_SWAP, t, pg_packed(p))
            n += 1
    return n if k < 0 else -1


cdef int _kth_any_removal(CityView* v, int k) noexcept nogil:
    """The k-th tile of the view but the fountain, as a remove code."""
    cdef int j
    for j in range(v.ntile):
        if v.tile_id[j] != FOUNTAIN:
            if k == 0:
                return code_cell(A_REMOVE, v.tile_id[j], pg_packed(v.tile_cell[j]))
            k -= 1
    return -1


cdef int _rebuild(GameState* s, CityView* v, SeatMemo* mm, int k) noexcept nogil:
    """The seat's builds, removes and swaps in gen_rebuild's order. k < 0: their number (with camps in the city
    a superset's); else the k-th (DRAW_AGAIN when a superset's draw is illegal)."""
    cdef CityGrid* c = s.city[s.current]
    cdef bint camps = c.ncamps > 0
    cdef uint8_t tiles[128]
    cdef int nt = mask_list(s.reserve[s.current], tiles), i, t, m, n = 0
    for i in range(nt):
        t = tiles[i]
        m = _cells_count(s, v, mm, t)
        if 0 <= k < n + m:
            return _checked(s, _kth_cell_of(s, v, c, A_BUILD, t, k - n), camps and TILE_KIND[t] != KIND_CAMP)
        n += m
    m = v.ntile - 1 if camps else v.nremove
    if 0 <= k < n + m:
        if camps:
            return _checked(s, _kth_any_removal(v, k - n), 1)
        return code_cell(A_REMOVE, v.remove_tile[k - n], pg_packed(v.remove_cell[k - n]))
    n += m
    for i in range(nt):
        t = tiles[i]
        if TILE_KIND[t] == KIND_CAMP:
            if mm.camp_fits[t - CAMP_FIRST] < 0:
                mm.camp_fits[t - CAMP_FIRST] = <int16_t>_camp_swap_fits(c, v, t, -1)
            m = mm.camp_fits[t - CAMP_FIRST]
            if 0 <= k < n + m:
                return _checked(s, _camp_swap_fits(c, v, t, k - n), 1)
        else:
            m = v.swap_count[_walls(s, t)]
            if 0 <= k < n + m:
                return _checked(s, _kth_swap(v, t, _walls(s, t), k - n), camps)
        n += m
    return n if k < 0 else -1


cdef int _place_kth(GameState* s, CityView* v, SeatMemo* mm, int k) noexcept nogil:
    """Placements in gen_place's order (per pending tile: cells, reserve, Dirk). k < 0: their number (with
    camps in the city a superset's); else the k-th (DRAW_AGAIN when a superset's draw is illegal)."""
    cdef CityGrid* c = s.city[s.current]
    cdef bint dirk = (s.options & OPT_DIRK) and s.phase == PH_PLACE
    cdef int i, t, m, n = 0
    for i in range(s.npending):
        t = s.pending[i]
        m = _cells_count(s, v, mm, t)
        if 0 <= k < n + m:
            return _checked(s, _kth_cell_of(s, v, c, A_PLACE, t, k - n),
                            c.ncamps > 0 and TILE_KIND[t] != KIND_CAMP)
        n += m
        if k == n:
            return A_PLACE_RESERVE | (t << 4)
        n += 1
        if dirk:
            if k == n:
                return A_PLACE_DIRK | (t << 4)
            n += 1
    return n if k < 0 else -1


cdef void draw_plan(GameState* s, GenCache* gc, Draw* d) noexcept nogil:
    """What a draw chooses from, in gen_legal_cached's order: the listed codes (into gc.legal), the counted
    falcon purchases among them, then the counted city actions; d.total in all."""
    cdef int* buf = gc.legal
    cdef int falcons_at = -1, seat = s.current
    d.at = d.nf = d.nr = 0
    d.fcap = MAX_LEGAL - 1
    d.v = NULL
    d.m = NULL
    if s.phase == PH_ACTION or s.phase == PH_PLACE or s.phase == PH_FINAL or s.phase == PH_FALCONS:
        if s.phase != PH_ACTION or _has_rebuild(s):
            d.v = seat_view(&gc.seat[seat], s.city[seat])
            d.m = _memo(gc, seat)
    d.corners = _corners(s, d.m) if falcon_may_start(s) and s.hand_n[seat] else NULL
    if s.phase == PH_ACTION:
        d.n = gen_take(s, buf)
        d.n += gen_buy(s, buf + d.n, gc.buy[seat])
        d.at = d.n
        d.n += gen_action_modules(s, buf + d.n, &falcons_at)
        if falcons_at >= 0:
            d.at += falcons_at
            d.fcap = MAX_LEGAL // 2 - falcons_at
            d.nf = falcon_buys(s, NULL, d.fcap, -1, d.corners)
        else:
            d.at = d.n
        if d.v != NULL:
            d.nr = _rebuild(s, d.v, d.m, -1)
    elif s.phase == PH_PLACE or s.phase == PH_FINAL:
        d.n = 0
        d.nr = _place_kth(s, d.v, d.m, -1)
    elif s.phase == PH_FALCONS:            # gen_module_phase's list there: the falcons, then "done"
        d.nf = falcon_buys(s, NULL, d.fcap, -1, d.corners)
        buf[0] = A_DONE
        d.n = 1
    else:
        d.n = gen_module_phase(s, buf)
        d.at = d.n
    d.total = d.n + d.nf + d.nr


cdef int draw_pick(GameState* s, GenCache* gc, Draw* d, int k) noexcept nogil:
    """The k-th (0 <= k < d.total) of what draw_plan counted: an action code, or DRAW_AGAIN."""
    if k < d.at:
        return gc.legal[k]
    k -= d.at
    if k < d.nf:
        return falcon_buys(s, NULL, d.fcap, k, d.corners)
    k -= d.nf
    if k < d.n - d.at:
        return gc.legal[d.at + k]
    k -= d.n - d.at
    if s.phase == PH_ACTION:
        return _rebuild(s, d.v, d.m, k)
    return _place_kth(s, d.v, d.m, k)
