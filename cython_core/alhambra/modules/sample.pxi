# The random player in games with modules (rules.md §9): a uniformly random legal action, drawn without
# listing every one, as sample_legal (actions.pxi) does for the base game. "Random" means the same in both:
# uniform over the legal actions (gen_legal_cached's list: every action alike, whatever its kind).
#
# The short parts are listed (takes, buys, and what gen_action_modules / gen_module_phase list); the long ones
# are counted: falcon purchases (card kinds held x the (corner, falcon) pairs of falcon_spots, remembered per
# city and supply), builds, swaps and placements per wall mask and removals from the seat's CityView (its
# removals are found only when asked: never in a city with camps). Without camps in the seat's city, reserve
# or pending tiles the draw is exactly gen_legal_cached's list at the index rng_below(count)
# (tests/core/alhambra/test_modules.py checks this along games).
#
# Camps: the CityView knows walls, not the camp rules (a camp is a tile whose bastions count as walls there).
# With camps in the seat's city its builds, placements and swaps of buildings are a superset of the legal ones
# (the camp rules only forbid more) and its tiles but the fountain a superset of the removals. A building's
# cell needs one more test there, camp_green_facing (_kth_cell_of). A camp tile draws from supersets too: its
# cells from the view's (tile, side) pairs where a wall faces one of its bastions, each legal cell once
# (_camp_cell_draw), its swaps from the tiles its bastions match as a building's walls would (the view's
# swap count; _camp_swap_draw). Counting a camp's legal cells exactly cost a scan of the city after every
# change of it; a draw tests one cell. A draw that may be illegal is kept only
# if it passes the camp rules (check_action, or the camp's own cell test), else the whole draw is repeated:
# rejection keeps the result uniform over the legal actions. After SAMPLE_TRIES rejections the full list is
# made (uniform as well).
#
# HOOK for new modules (issue 13): an action kind listed by gen_action_modules or gen_module_phase is drawn
# here with no change. A kind with very many actions can be counted instead, like the falcons (a counted
# segment in draw_plan / draw_pick). A module that changes a city other than by place / build / remove / swap
# must tell the GenCache (gen_cache_touch), or the views go stale. The falcons and the camps are named here, not
# reached through modules/table.pxi: the random player's every draw (docs/design.md, adding a module).

cdef enum:
    SAMPLE_TRIES = 32         # rejected draws (camps) before the full list is made
    DRAW_AGAIN = -2           # a draw from a superset that the camp rules refused


cdef struct Draw:
    int ntake                 # the takes first: GenCache.take's (not copied)
    int n                     # codes listed in GenCache.legal
    int at                    # where the counted falcon purchases stand in the list
    int nf                    # falcon purchases (counted)
    int fcap                  # their cap (as in the list)
    int nr                    # the counted city actions (with camps a superset's count)
    int total
    SeatView* sv              # the seat's view, and its memo (NULL when not needed)
    SeatMemo* m
    FalconCorners* corners
    bint place                # the counted city actions are placements (else builds, removals, swaps)
    bint dirk                 # placements: Dirk takes tiles too (one more action per pending tile)
    Segments* sg              # the counted city actions per tile: the memo's rebuild segments, or own
    Segments own              # (placements: counted for every draw)


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
        m.camp_cells[0] = -1
        m.rb_walls = -1
        m.tree = -1
    return m


cdef inline int _falcon_count(GameState* s, SeatMemo* m, FalconCorners* corners, int cap) noexcept nogil:
    """falcon_buys' count: card kinds held x (corner, falcon) pairs, the pairs remembered per city and
    supply. corners: draw_plan's (NULL: no purchase - no falcon now, no card, or a city of the fountain
    alone, which has no corner). Inline: draw_plan's two calls mostly end at the first test."""
    cdef int free, n
    if corners == NULL or corners.n == 0:
        return 0                  # no corner of four tiles: no purchase, whatever the supply and the cards
    free = falcons_free(s)
    if m.spots_free != free:
        m.spots_free = free
        m.spots = falcon_spots(s, corners, free)
    if m.spots == 0:
        return 0
    n = card_kinds_held(s, s.current) * m.spots
    return n if n < cap else cap


cdef void _view_corners(SeatView* sv, CityGrid* c, FalconCorners* fc) noexcept nogil:
    """falcon_corners (the same list, in its order) from the seat's view: a corner's south-west tile has tiles
    north and east (its side pattern says so) and north-east (the mirror), so only the view's tiles are
    visited, not every row of the city's box."""
    cdef CityView* v = &sv.v
    cdef uint8_t* g = sv.g
    cdef int j, p, j8
    cdef uint64_t keys
    fc.n = 0
    for j8 in range(0, v.ntile, 8):             # eight side patterns at a time: tiles north and east
        keys = eight_bytes(v.tile_key + j8)     # (bits 0 and 1; tile_key holds GC_TILES: no overread)
        keys &= (keys >> 1) & (lanes_upto(v.ntile - j8) >> 7)
        while keys:
            j = j8 + (__builtin_ctzll(keys) >> 3)
            keys &= keys - 1
            p = v.tile_cell[j]
            if g[p + PG + 1] & MIR_TILE:
                _corner_add(fc, c, p)


cdef inline void _corner_add(FalconCorners* fc, CityGrid* c, int p) noexcept nogil:
    """Add the corner whose south-west tile is on mirror index p (four tiles meet there) if some building
    type meets there, keeping falcon_corners' order (north row first, then west to east)."""
    cdef int types = _corner_bits(c.tid, pg_cidx(c, p), c.w), k = fc.n, key = pg_packed(p)
    if types == 0:
        return
    while k > 0 and _corner_before(key, fc.cell[k - 1]):
        fc.cell[k] = fc.cell[k - 1]
        fc.types[k] = fc.types[k - 1]
        k -= 1
    fc.cell[k] = <uint16_t>key
    fc.types[k] = <uint8_t>types
    fc.n += 1


cdef inline bint _corner_before(int a, int b) noexcept nogil:
    """Packed corner a comes before b in falcon_corners' order (north row first, then west to east)."""
    return (a >> 8) > (b >> 8) or ((a >> 8) == (b >> 8) and (a & 255) < (b & 255))


cdef inline FalconCorners* _corners(GameState* s, SeatView* sv, SeatMemo* m) noexcept nogil:
    """The seat's falcon_corners, found once per version of its city (from its view)."""
    if m == NULL:
        return NULL
    if m.corners.n < 0:
        _view_corners(sv, s.cities.city[s.current], &m.corners)
    return &m.corners


cdef uint32_t SIDE_BYTES[16]          # side bits -> 1 in byte d for each side d: four counts in one add
for _sides in range(16):
    SIDE_BYTES[_sides] = sum(1 << (8 * _d) for _d in range(4) if (_sides >> _d) & 1)


cdef inline int _camp_pair_sides(CityView* v, uint8_t* g, int j, int b) noexcept nogil:
    """The sides of view tile j that a camp with bastions b could lean on: a wall (on the mirror: a camp's
    bastions too) with no tile beside it, facing a bastion of the camp (the camp's side (d + 2) & 3)."""
    return g[v.tile_cell[j]] & ~v.tile_key[j] & ((b << 2) | (b >> 2)) & 15


cdef void _camp_memo(SeatView* sv, SeatMemo* m) noexcept nogil:
    """Fill the memo's camp counts if this version of the city has none yet: per bastion mask, the (tile,
    side) pairs a camp could lean on (_camp_cell_draw)."""
    cdef int j, d, b
    cdef uint32_t per_side = 0                  # per side d, a byte: the tiles with a wall there, none beside
    if m.camp_cells[0] >= 0:
        return
    for j in range(sv.v.ntile):                 # (< 256 tiles: no carry), no branch per side
        per_side += SIDE_BYTES[_camp_pair_sides(&sv.v, sv.g, j, 15)]
    for b in range(16):                         # a bastion on side d leans on walls on side (d + 2) & 3
        m.camp_cells[b] = 0
        for d in range(4):
            m.camp_cells[b] += ((per_side >> (8 * ((d + 2) & 3))) & 255) * ((b >> d) & 1)


cdef int _cells_count(GameState* s, SeatView* sv, SeatMemo* m, int t) noexcept nogil:
    """Cells where tile t may be built / placed: a building's from the view; a camp's a superset's count, the
    (tile, side) pairs it could lean on (_camp_cell_draw), counted once per city (_camp_memo)."""
    if TILE_KIND[t] == KIND_CAMP:
        _camp_memo(sv, m)
        return m.camp_cells[TILE_WALLS[t]]
    return sv.v.front_count[_walls(s, t)]


cdef int _camp_cell_draw(GameState* s, SeatView* sv, int kind, int t, int k) noexcept nogil:
    """The k-th (tile, side) pair camp t could lean on (_camp_pair_sides): the cell there, as a `kind` code of
    camp t if the camp may go there and the pair is the cell's first (its lowest side with a bastion on a
    wall, N E S W), else DRAW_AGAIN. A legal camp cell has a bastion on a building's wall (rules.md §9.2), so
    it has exactly one first pair: drawing pairs is uniform over the legal cells."""
    cdef CityView* v = &sv.v
    cdef uint8_t* g = sv.g
    cdef CityGrid* c = s.cities.city[s.current]
    cdef int j, d, q, need, b = TILE_WALLS[t], sides
    for j in range(v.ntile):
        sides = _camp_pair_sides(v, g, j, b)
        k -= POP4[sides]                            # (no branch per tile: as _kth_cell)
        if k >= 0:
            continue
        k += POP4[sides]
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
    cdef CityGrid* c = s.cities.city[s.current]
    cdef int code, i
    if TILE_KIND[t] == KIND_CAMP:
        return _camp_cell_draw(s, sv, kind, t, k)
    code = _kth_cell(s, &sv.v, kind, t, k)
    if c.ncamps and code >= 0:
        i = _cidx(c, cell_x(code), cell_y(code))
        if camp_green_facing(c.occ[i + c.w], c.occ[i + 1], c.occ[i - c.w], c.occ[i - 1]):
            return DRAW_AGAIN
    return code


cdef inline int _kth_tile(CityView* v, int k) noexcept nogil:
    """The view's index of its k-th tile but the fountain (-1: fewer). The fountain is listed too, and its
    entry is known (at[]): no scan."""
    cdef int j = k + (k >= v.at[pg_index(0, 0)])
    return j if j < v.ntile else -1


cdef int _camp_swap_draw(CityGrid* c, CityView* v, int t, int k) noexcept nogil:
    """Camp t swapped with the k-th tile (not the fountain) whose side pattern its bastions match as a
    building's walls would (v.swap_count[its bastions] of them): a superset of camp t's swaps, since a legal
    camp shows a bastion exactly where a neighbour shows a wall (a building's wall; a camp's plain side faces
    only a camp's plain side, rules.md §9.2). The swap code if the neighbours fit the camp's sides, else
    DRAW_AGAIN (check_action decides the rest)."""
    cdef int code = _kth_swap(v, t, TILE_WALLS[t], k), i
    if code < 0:
        return DRAW_AGAIN
    i = _cidx(c, cell_x(code), cell_y(code))
    if camp_sides_match(c.occ, i, c.w, TILE_WALLS[t]) and _camp_sides(c, i, TILE_WALLS[t]) == CITY_OK:
        return code
    return DRAW_AGAIN


cdef int _buildings_tree(CityView* v, SeatMemo* m) noexcept nogil:
    """The buildings' on-foot graph of a city with camps is a tree (connected in a valid city: a tree iff it
    has one link fewer than tiles). The view's link count takes the camps' own links away (a camp links to
    no building, only to camps beside its plain sides). Once per version of the city."""
    cdef int j, camp, deg2, n
    if m.tree < 0:
        deg2 = v.deg2
        n = v.ntile
        for j in range(v.ntile):
            camp = TILE_KIND[v.tile_id[j]] == KIND_CAMP
            deg2 -= camp * POP4[v.tile_links[j]]
            n -= camp
        m.tree = deg2 == 2 * (n - 1)
    return m.tree


cdef int _camp_city_removal(GameState* s, Draw* d, int k) noexcept nogil:
    """The k-th tile but the fountain as a removal in a city with camps (a superset: all of them), or
    DRAW_AGAIN when the city's removal rule (_check_remove_at) refuses it. One shortcut before it: a
    building with two or more on-foot links is a cut vertex when the buildings' on-foot graph is a tree,
    which the view tells without the rule's search."""
    cdef CityView* v = &d.sv.v
    cdef CityGrid* c = s.cities.city[s.current]
    cdef int j = _kth_tile(v, k)
    if j < 0:
        return DRAW_AGAIN
    if TILE_KIND[v.tile_id[j]] != KIND_CAMP and POP4[v.tile_links[j]] >= 2 and _buildings_tree(v, d.m):
        return DRAW_AGAIN
    if _check_remove_at(c, pg_cidx(c, v.tile_cell[j])) != CITY_OK:
        return DRAW_AGAIN
    return code_cell(A_REMOVE, v.tile_id[j], pg_packed(v.tile_cell[j]))


cdef int _rebuild_segments(GameState* s, Draw* d) noexcept nogil:
    """The seat's builds, removes and swaps in gen_rebuild's order, counted per reserve tile (with camps in
    the city a superset's); returns their number. One pass over the reserve without a branch per tile, kept
    in the seat's memo while its view, its reserve and the wall cards used stay (the turn after a take, a
    falcon or a wake finds them there)."""
    cdef CityView* v = &d.sv.v
    cdef SeatMemo* m = d.m
    cdef Segments* sg = &m.rebuild
    cdef uint64_t* res = s.cities.reserve[s.current]
    cdef uint64_t b
    cdef int i = 0, word, t, w, camp, cells, swaps, nb = 0, ns = 0
    cdef bint camps = (res[0] & (<uint64_t>((1 << NCAMPS) - 1) << CAMP_FIRST)) != 0   # (camps: 55..62)
    d.sg = sg
    if m.rb_walls == s.wall_used and m.rb_reserve[0] == res[0] and m.rb_reserve[1] == res[1]:   # (MASK_WORDS)
        return sg.nbuild + sg.nremove + sg.nswap
    if camps:
        _camp_memo(d.sv, m)
    for word in range(MASK_WORDS):
        b = res[word]
        while b:
            t = word * 64 + __builtin_ctzll(b)
            b &= b - 1
            w = _walls(s, t)
            cells = v.front_count[w]
            swaps = v.swap_count[w]
            if camps:                   # (the same for every tile of the reserve: no misprediction)
                camp = TILE_KIND[t] == KIND_CAMP
                cells += camp * (m.camp_cells[TILE_WALLS[t]] - cells)
            nb += cells
            ns += swaps
            sg.tile[i] = <uint8_t>t
            sg.end[i] = nb
            sg.swap_end[i] = ns
            i += 1
    sg.nt = i
    sg.nbuild = nb
    sg.nswap = ns
    sg.nremove = v.ntile - 1 if s.cities.city[s.current].ncamps > 0 else view_removals(v)
    m.rb_reserve[0] = res[0]
    m.rb_reserve[1] = res[1]
    m.rb_walls = s.wall_used
    return nb + sg.nremove + ns


cdef int _place_segments(GameState* s, Draw* d) noexcept nogil:
    """Placements in gen_place's order, counted per pending tile (cells, reserve, Dirk; with camps in the city
    a superset's); returns their number."""
    cdef Segments* sg = &d.own
    cdef int i, t, n = 0
    d.dirk = (s.options & OPT_DIRK) and s.phase == PH_PLACE
    for i in range(s.npending):
        t = s.pending[i]
        n += _cells_count(s, d.sv, d.m, t) + 1 + d.dirk
        sg.tile[i] = <uint8_t>t
        sg.end[i] = n
    d.place = 1
    d.sg = sg
    sg.nt = s.npending
    sg.nbuild = n
    sg.nremove = sg.nswap = 0
    return n


cdef inline int _tile_at(int* end, int n, int* k) noexcept nogil:
    """The first i < n with end[i] > k (end ascending, k < end[n - 1]), k made relative to tile i's first; by
    bisection without a branch on the data (a mispredicted branch costs more than the few steps)."""
    cdef int i = 0, half
    while n > 1:
        half = n >> 1
        i = i + half if end[i + half - 1] <= k[0] else i
        n -= half
    if i > 0:
        k[0] -= end[i - 1]
    return i


cdef int _segment_pick(GameState* s, Draw* d, int k) noexcept nogil:
    """The k-th counted city action: a code, or DRAW_AGAIN when a superset's draw is illegal."""
    cdef CityView* v = &d.sv.v
    cdef Segments* sg = d.sg
    cdef CityGrid* c = s.cities.city[s.current]
    cdef bint camps = c.ncamps > 0
    cdef int i, t, code, cells
    if k < sg.nbuild:
        i = _tile_at(sg.end, sg.nt, &k)
        t = sg.tile[i]
        if not d.place:
            return _kth_cell_of(s, d.sv, A_BUILD, t, k)
        cells = sg.end[i] - (sg.end[i - 1] if i > 0 else 0) - 1 - d.dirk
        if k < cells:
            return _kth_cell_of(s, d.sv, A_PLACE, t, k)
        return (A_PLACE_RESERVE if k == cells else A_PLACE_DIRK) | (t << 4)
    k -= sg.nbuild
    if k < sg.nremove:
        if camps:
            return _camp_city_removal(s, d, k)
        return code_cell(A_REMOVE, v.remove_tile[k], pg_packed(v.remove_cell[k]))
    k -= sg.nremove
    i = _tile_at(sg.swap_end, sg.nt, &k)
    t = sg.tile[i]
    if TILE_KIND[t] == KIND_CAMP:
        return _checked(s, _camp_swap_draw(c, v, t, k), 1)
    code = _kth_swap(v, t, _walls(s, t), k)
    # a building for a building: _check_swap_at's side rule, the view's (camps' bastions are walls there,
    # and no camp shows a plain side to a building); a building for a camp: the whole city is tried
    return _checked(s, code, camps and code >= 0 and c.occ[_cidx(c, cell_x(code), cell_y(code))] & CELL_CAMP)


cdef void draw_plan(GameState* s, GenCache* gc, Draw* d) noexcept nogil:
    """What a draw chooses from, in gen_legal_cached's order: the takes (gc.take), the listed codes (into
    gc.legal), the counted falcon purchases among them, then the counted city actions; d.total in all."""
    cdef int* buf = gc.legal
    cdef int falcons_at = -1, seat = s.current
    d.ntake = d.at = d.nf = d.nr = 0
    d.fcap = MAX_LEGAL - 1
    d.sv = NULL
    d.m = NULL
    d.place = 0
    d.sg = NULL                           # (set by the segments' count: read only when d.nr > 0)
    if s.phase == PH_ACTION or s.phase == PH_PLACE or s.phase == PH_FINAL or s.phase == PH_FALCONS:
        if s.phase != PH_ACTION or _has_rebuild(s):
            seat_view(&gc.seat[seat], s.cities.city[seat])
            d.sv = &gc.seat[seat]
            d.m = _memo(gc, seat)
    d.corners = _corners(s, d.sv, d.m) if falcon_may_start(s) and s.hand_n[seat] else NULL
    if s.phase == PH_ACTION:
        d.ntake = gen_take_fresh(s, gc)
        d.n = gen_buy(s, buf, gc.buy[seat])
        d.at = d.n
        d.n += gen_action_modules(s, buf + d.n, &falcons_at, gc.buy[seat], gc)
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
    d.total = d.ntake + d.n + d.nf + d.nr


cdef int draw_pick(GameState* s, GenCache* gc, Draw* d, int k) noexcept nogil:
    """The k-th (0 <= k < d.total) of what draw_plan counted: an action code, or DRAW_AGAIN."""
    if k < d.ntake:
        return gc.take[k]
    k -= d.ntake
    if k < d.at:
        return gc.legal[k]
    k -= d.at
    if k < d.nf:
        return falcon_buys(s, NULL, d.fcap, k, d.corners)
    k -= d.nf
    if k < d.n - d.at:
        return gc.legal[d.at + k]
    return _segment_pick(s, d, k - (d.n - d.at))
