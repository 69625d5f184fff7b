# The random player in games with modules (RULES §9): a uniformly random legal action, drawn without listing
# every one, as sample_legal (actions.pxi) does for the base game. "Random" means the same in both: uniform
# over the legal actions (gen_legal_cached's list: every action alike, whatever its kind).
#
# The short parts are listed (takes, buys, and what gen_action_modules / gen_module_phase list); the long ones
# are counted: falcon purchases (card kinds held x the (corner, falcon) pairs of falcon_spots, remembered per
# city and supply), builds, swaps and placements per wall mask and removals from the seat's CityView (its
# removals are found only when asked: never in a city with camps). Without camps in the seat's city, reserve
# or pending tiles the draw is exactly gen_legal_cached's list at the index rng_below(count)
# (tests/test_modules.py checks this along games).
#
# Camps: the CityView knows walls, not the camp rules (a camp is a tile whose bastions count as walls there).
# With camps in the seat's city its builds, placements and swaps of buildings are a superset of the legal ones
# (the camp rules only forbid more) and its tiles but the fountain a superset of the removals. A building's
# cell needs one more test there, camp_green_facing (_kth_cell_of). A camp tile draws from supersets too: its
# cells from the view's (tile, side) pairs where a wall faces one of its bastions, each legal cell once
# (_camp_cell_draw), its swaps from the tiles but the fountain. Counting a camp's legal cells exactly cost a
# scan of the city after every change of it; a draw tests one cell. A draw that may be illegal is kept only
# if it passes the camp rules (check_action, or the camp's own cell test), else the whole draw is repeated:
# rejection keeps the result uniform over the legal actions. After SAMPLE_TRIES rejections the full list is
# made (uniform as well).
#
# HOOK for new modules (issue 13): an action kind listed by gen_action_modules or gen_module_phase is drawn
# here with no change. A kind with very many actions can be counted instead, like the falcons (a counted
# segment in draw_plan / draw_pick). A module that changes a city other than by place / build / remove / swap
# must tell the GenCache (gen_cache_touch), or the views go stale.

cdef enum:
    SAMPLE_TRIES = 32         # rejected draws (camps) before the full list is made
    DRAW_AGAIN = -2           # a draw from a superset that the camp rules refused
    SEGS_MAX = 3 * 128 + 1    # city-action segments of a draw: <= 2 per reserve tile + removals, 3 per pending
    SEG_BUILD = 0
    SEG_REMOVE = 1
    SEG_SWAP = 2
    SEG_PLACE = 3
    SEG_RESERVE = 4
    SEG_DIRK = 5


cdef struct Draw:
    int n                     # codes listed in GenCache.legal
    int at                    # where the counted falcon purchases stand in the list
    int nf                    # falcon purchases (counted)
    int fcap                  # their cap (as in the list)
    int nr                    # builds / removes / swaps, or placements (counted; with camps a superset's count)
    int total
    SeatView* sv              # the seat's view, and its memo (NULL when not needed)
    SeatMemo* m
    FalconCorners* corners
    int nseg                  # the counted city actions' segments (per tile and kind), in the list's order
    int seg_end[SEGS_MAX]     # cumulative counts: segment i holds seg_end[i - 1] .. seg_end[i] - 1
    uint8_t seg_kind[SEGS_MAX]
    uint8_t seg_tile[SEGS_MAX]


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
        m.spots_free = -1
        m.open_walls[0] = -1
    return m


cdef int _falcon_count(GameState* s, SeatMemo* m, FalconCorners* corners, int cap) noexcept nogil:
    """falcon_buys' count: card kinds held x (corner, falcon) pairs, the pairs remembered per city and
    supply."""
    cdef int free, n
    if corners == NULL or not falcon_may_start(s) or s.hand_n[s.current] == 0:
        return falcon_buys(s, NULL, cap, -1, corners)
    if corners.n == 0:
        return 0                  # no corner of four tiles: no purchase, whatever the supply and the cards
    free = falcons_free(s)
    if m.spots_free != free:
        m.spots_free = free
        m.spots = falcon_spots(s, corners, free)
    if m.spots == 0:
        return 0
    n = card_kinds_held(s, s.current) * m.spots
    return n if n < cap else cap


cdef inline FalconCorners* _corners(GameState* s, SeatMemo* m) noexcept nogil:
    """The seat's falcon_corners, found once per version of its city."""
    if m == NULL:
        return NULL
    if m.corners.n < 0:
        falcon_corners(s.city[s.current], &m.corners)
    return &m.corners


cdef uint32_t SIDE_BYTES[16]          # side bits -> 1 in byte d for each side d: four counts in one add
for _sides in range(16):
    SIDE_BYTES[_sides] = sum(1 << (8 * _d) for _d in range(4) if (_sides >> _d) & 1)


cdef inline int _camp_pair_sides(CityView* v, uint8_t* g, int j, int b) noexcept nogil:
    """The sides of view tile j that a camp with bastions b could lean on: a wall (on the mirror: a camp's
    bastions too) with no tile beside it, facing a bastion of the camp (the camp's side (d + 2) & 3)."""
    return g[v.tile_cell[j]] & ~v.tile_key[j] & ((b << 2) | (b >> 2)) & 15


cdef int _cells_count(GameState* s, SeatView* sv, SeatMemo* m, int t) noexcept nogil:
    """Cells where tile t may be built / placed: a building's from the view; a camp's a superset's count, the
    (tile, side) pairs it could lean on (_camp_cell_draw): the open walls per side, counted once per city."""
    cdef int j, d, n = 0
    cdef uint32_t per_side = 0
    if TILE_KIND[t] == KIND_CAMP:
        if m.open_walls[0] < 0:
            for j in range(sv.v.ntile):          # a byte per side (< 256 tiles: no carry), no branch per side
                per_side += SIDE_BYTES[_camp_pair_sides(&sv.v, sv.g, j, 15)]
            for d in range(4):
                m.open_walls[d] = (per_side >> (8 * d)) & 255
        for d in range(4):                      # a bastion on side d leans on walls on side (d + 2) & 3
            n += m.open_walls[(d + 2) & 3] * ((TILE_WALLS[t] >> d) & 1)
        return n
    return sv.v.front_count[_walls(s, t)]


cdef int _camp_cell_draw(GameState* s, SeatView* sv, int kind, int t, int k) noexcept nogil:
    """The k-th (tile, side) pair camp t could lean on (_camp_pair_sides): the cell there, as a `kind` code of
    camp t if the camp may go there and the pair is the cell's first (its lowest side with a bastion on a
    wall, N E S W), else DRAW_AGAIN. A legal camp cell has a bastion on a building's wall (RULES §9.2), so it
    has exactly one first pair: drawing pairs is uniform over the legal cells."""
    cdef CityView* v = &sv.v
    cdef uint8_t* g = sv.g
    cdef CityGrid* c = s.city[s.current]
    cdef int j, d, q, need, b = TILE_WALLS[t], sides
    for j in range(v.ntile):
        sides = _camp_pair_sides(v, g, j, b)
        if k >= POP4[sides]:
            k -= POP4[sides]
            continue
        while k:
            sides &= sides - 1
            k -= 1
        d = __builtin_ctzll(sides)
        q = v.tile_cell[j] + PG_STEP[d]
        need = _need(g, q)                          # the tile drawn is on side (d + 2) & 3 of cell q
        if (b & _pm(g, q)) != need or __builtin_ctzll(need) != ((d + 2) & 3):
            return DRAW_AGAIN                       # (the mirror shows a camp's bastions as walls, as occ does)
        if _camp_check_at(c, pg_cidx(c, q), b) != CITY_OK:
            return DRAW_AGAIN
        return code_cell(kind, t, pg_packed(q))
    return DRAW_AGAIN


cdef int _kth_cell_of(GameState* s, SeatView* sv, int kind, int t, int k) noexcept nogil:
    """The k-th of _cells_count's cells as an action code of `kind`, or DRAW_AGAIN: a camp's cell that is not
    legal, or a building's cell where a camp shows a plain side. (That is the one camp rule a building's cell
    must pass beyond the view's: _check_place_at's camp_green_facing. Camps' bastions are walls in the grid,
    so the view already matches them; camps count as tiles for the holes.)"""
    cdef CityGrid* c = s.city[s.current]
    cdef int code, i
    if TILE_KIND[t] == KIND_CAMP:
        return _camp_cell_draw(s, sv, kind, t, k)
    code = _kth_cell(s, &sv.v, kind, t, k)
    if c.ncamps and code >= 0:
        i = _cidx(c, cell_x(code), cell_y(code))
        if camp_green_facing(c.occ[i + c.w], c.occ[i + 1], c.occ[i - c.w], c.occ[i - 1]):
            return DRAW_AGAIN
    return code


cdef int _kth_tile(CityView* v, int k) noexcept nogil:
    """The view's index of its k-th tile but the fountain (-1: fewer)."""
    cdef int j
    for j in range(v.ntile):
        if v.tile_id[j] != FOUNTAIN:
            if k == 0:
                return j
            k -= 1
    return -1


cdef int _camp_swap_draw(CityGrid* c, CityView* v, int t, int k) noexcept nogil:
    """Camp t swapped with the k-th tile of the view but the fountain (a superset of camp t's swaps: ntile - 1
    of them): the swap code if the tile's neighbours fit the camp's sides, else DRAW_AGAIN (check_action
    decides the rest)."""
    cdef int j = _kth_tile(v, k), i
    if j < 0:
        return DRAW_AGAIN
    i = pg_cidx(c, v.tile_cell[j])
    if camp_sides_match(c.occ, i, c.w, TILE_WALLS[t]) and _camp_sides(c, i, TILE_WALLS[t]) == CITY_OK:
        return code_cell(A_SWAP, t, pg_packed(v.tile_cell[j]))
    return DRAW_AGAIN


cdef int _kth_any_removal(CityView* v, int k) noexcept nogil:
    """The k-th tile of the view but the fountain, as a remove code."""
    cdef int j = _kth_tile(v, k)
    return -1 if j < 0 else code_cell(A_REMOVE, v.tile_id[j], pg_packed(v.tile_cell[j]))


cdef inline int _segment(Draw* d, int kind, int t, int n, int m) noexcept nogil:
    """Append a segment of m city actions after the n counted so far (none if m is 0: written anyway, not
    kept, so that no branch depends on the count); returns n + m. (At most 2 per reserve tile + 1, or 3 per
    pending tile: SEGS_MAX holds them.)"""
    d.seg_kind[d.nseg] = <uint8_t>kind
    d.seg_tile[d.nseg] = <uint8_t>t
    d.seg_end[d.nseg] = n + m
    d.nseg += m > 0
    return n + m


cdef int _rebuild_segments(GameState* s, Draw* d) noexcept nogil:
    """The seat's builds, removes and swaps as segments in gen_rebuild's order (with camps in the city a
    superset's); returns their number."""
    cdef CityView* v = &d.sv.v
    cdef uint8_t tiles[128]
    cdef int swaps[128]
    cdef int nt = mask_list(s.reserve[s.current], tiles), i, t, w, n = 0
    for i in range(nt):
        t = tiles[i]
        if TILE_KIND[t] == KIND_CAMP:
            n = _segment(d, SEG_BUILD, t, n, _cells_count(s, d.sv, d.m, t))
            swaps[i] = v.ntile - 1
        else:
            w = _walls(s, t)
            n = _segment(d, SEG_BUILD, t, n, v.front_count[w])
            swaps[i] = v.swap_count[w]
    n = _segment(d, SEG_REMOVE, 0, n, v.ntile - 1 if s.city[s.current].ncamps > 0 else view_removals(v))
    for i in range(nt):
        n = _segment(d, SEG_SWAP, tiles[i], n, swaps[i])
    return n


cdef int _place_segments(GameState* s, Draw* d) noexcept nogil:
    """Placements as segments in gen_place's order (per pending tile: cells, reserve, Dirk; with camps in the
    city a superset's); returns their number."""
    cdef bint dirk = (s.options & OPT_DIRK) and s.phase == PH_PLACE
    cdef int i, t, n = 0
    for i in range(s.npending):
        t = s.pending[i]
        n = _segment(d, SEG_PLACE, t, n, _cells_count(s, d.sv, d.m, t))
        n = _segment(d, SEG_RESERVE, t, n, 1)
        if dirk:
            n = _segment(d, SEG_DIRK, t, n, 1)
    return n


cdef int _segment_pick(GameState* s, Draw* d, int k) noexcept nogil:
    """The k-th counted city action: a code, or DRAW_AGAIN when a superset's draw is illegal."""
    cdef CityView* v = &d.sv.v
    cdef CityGrid* c = s.city[s.current]
    cdef bint camps = c.ncamps > 0
    cdef int i = 0, n = d.nseg, half, t, kind, code
    while n > 1:                                # the first segment ending after k, by bisection without
        half = n >> 1                           # a branch on the data (a mispredicted branch costs more
        i = i + half if d.seg_end[i + half - 1] <= k else i     # than the few steps)
        n -= half
    if i > 0:
        k -= d.seg_end[i - 1]
    t = d.seg_tile[i]
    kind = d.seg_kind[i]
    if kind == SEG_BUILD or kind == SEG_PLACE:
        return _kth_cell_of(s, d.sv, A_BUILD if kind == SEG_BUILD else A_PLACE, t, k)
    if kind == SEG_REMOVE:
        if camps:
            return _checked(s, _kth_any_removal(v, k), 1)
        return code_cell(A_REMOVE, v.remove_tile[k], pg_packed(v.remove_cell[k]))
    if kind == SEG_SWAP:
        if TILE_KIND[t] == KIND_CAMP:
            return _checked(s, _camp_swap_draw(c, v, t, k), 1)
        code = _kth_swap(v, t, _walls(s, t), k)
        # a building for a building: _check_swap_at's side rule, the view's (camps' bastions are walls there,
        # and no camp shows a plain side to a building); a building for a camp: the whole city is tried
        return _checked(s, code, camps and code >= 0
                        and c.occ[_cidx(c, cell_x(code), cell_y(code))] & CELL_CAMP)
    return (A_PLACE_RESERVE if kind == SEG_RESERVE else A_PLACE_DIRK) | (t << 4)


cdef void draw_plan(GameState* s, GenCache* gc, Draw* d) noexcept nogil:
    """What a draw chooses from, in gen_legal_cached's order: the listed codes (into gc.legal), the counted
    falcon purchases among them, then the counted city actions; d.total in all."""
    cdef int* buf = gc.legal
    cdef int falcons_at = -1, seat = s.current
    d.at = d.nf = d.nr = 0
    d.fcap = MAX_LEGAL - 1
    d.sv = NULL
    d.m = NULL
    d.nseg = 0
    if s.phase == PH_ACTION or s.phase == PH_PLACE or s.phase == PH_FINAL or s.phase == PH_FALCONS:
        if s.phase != PH_ACTION or _has_rebuild(s):
            seat_view(&gc.seat[seat], s.city[seat])
            d.sv = &gc.seat[seat]
            d.m = _memo(gc, seat)
    d.corners = _corners(s, d.m) if falcon_may_start(s) and s.hand_n[seat] else NULL
    if s.phase == PH_ACTION:
        d.n = gen_take(s, buf)
        d.n += gen_buy(s, buf + d.n, gc.buy[seat])
        d.at = d.n
        d.n += gen_action_modules(s, buf + d.n, &falcons_at, gc.buy[seat])
        if falcons_at >= 0:
            d.at += falcons_at
            d.fcap = MAX_LEGAL // 2 - falcons_at
            d.nf = _falcon_count(s, d.m, d.corners, d.fcap)
        else:
            d.at = d.n
        if d.sv != NULL:
            d.nr = _rebuild_segments(s, d)
    elif s.phase == PH_PLACE or s.phase == PH_FINAL:
        d.n = 0
        d.nr = _place_segments(s, d)
    elif s.phase == PH_FALCONS:            # gen_module_phase's list there: the falcons, then "done"
        d.nf = _falcon_count(s, d.m, d.corners, d.fcap)
        buf[0] = A_DONE
        d.n = 1
    else:
        d.n = gen_module_phase(s, buf, gc.buy[seat])
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
    return _segment_pick(s, d, k - (d.n - d.at))
