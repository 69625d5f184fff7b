# City views for action generation: the lists of city actions of one city (both games; the base game keeps
# them between generations in its GenCache, alhambra/gencache.pxi).
#
# A CityView lists, for one city: every tile with its side pattern (which wall masks may replace it: swaps)
# and its on-foot links; every empty cell where some tile may be placed, with its side pattern (which wall
# masks fit there: builds and placements); and the removable tiles. Per wall mask it keeps how many cells /
# tiles allow it, so a uniformly random action can be drawn by counting (sample_legal) without listing all.
#
# The rules behind it (rules.md §4, as city.pxi implements them):
#   - a cell's side pattern is pm (sides touching a tile) and need (those of them facing a wall); a tile with
#     walls m fits there iff m & pm == need, provided some touching side is open (need != pm) and the hole
#     test passes. The hole test depends on occupancy only: when the empty cells of the 8 around the cell
#     stay joined around it (RING_SAFE) nothing can be enclosed; otherwise city_check_place decides.
#   - a swap needs matching sides only (a matching tile keeps every on-foot link: city.pxi).
#   - a tile may be removed iff it is not the fountain, some side is free, and it is not a cut vertex of the
#     on-foot graph (connected in a valid city). Most cities' on-foot graphs are trees, whose cut vertices are
#     the tiles with two or more links; otherwise one depth-first search (Tarjan's low links).
#
# A view mirrors its city on a PG x PG byte grid (MIR_TILE | walls per tile, flags on listed empty cells).
# Views live in a GenCache (alhambra/gencache.pxi), one per seat, kept between generations: after a change of
# the city at one cell (gen_cache_touch records it) only the 3 x 3 block around the cell is recomputed, plus
# the few cells whose ring test fails (they need the exact, global, hole test again) and the removals. The
# lists are unordered then, but always hold exactly what a fresh view would (tests/core/alhambra/test_actions.py checks
# this along games).

cdef enum:
    GC_PLACE = 128            # empty cells next to <= 55 tiles: <= 2 * 55 + 2
    GC_TILES = 64             # tiles in a city (fountain included): <= 55
    PG = 128                  # mirror side: cell (x, y) at (y + PG_OFF) * PG + x + PG_OFF
    PG_OFF = 64
    PG_LIMIT = 60             # |x|, |y| of a tile a mirror can hold (legal cities: <= 54)
    MIR_TILE = 0x10           # mirror byte of a tile: MIR_TILE | walls
    MIR_FRONT = 0x20          # empty cell in the frontier list
    MIR_UNSAFE = 0x40         # empty candidate cell whose ring test fails (in the unsafe list)
    MIR_SEEN = 0x80           # scratch mark of a full build
    VIEW_PENDING = 4          # changes remembered between generations (more: full rebuild)
    SV_EMPTY = 0              # mirror all zero
    SV_VALID = 1              # mirror and lists describe the city (after applying the pending changes)
    SV_STALE = 2              # mirror holds what the lists say, but not the city: rebuild

cdef struct CityView:
    int ntile
    int nfront
    int nunsafe
    int nremove                       # -1: not found since the last change (view_removals finds them)
    int deg2                          # sum of on-foot link counts (2 * edges)
    uint16_t tile_cell[GC_TILES]      # mirror index; the fountain is listed too (tile_id 0)
    uint8_t tile_key[GC_TILES]        # pm | need << 4: MASKS_MATCH[key] = the masks that may replace it
    uint8_t tile_links[GC_TILES]      # sides with an on-foot link
    uint8_t tile_id[GC_TILES]
    uint16_t front_cell[GC_PLACE]     # mirror index
    uint8_t front_key[GC_PLACE]       # MASKS_MATCH[key] = the masks that may be placed there
    uint16_t unsafe_cell[GC_PLACE]
    uint16_t remove_cell[GC_TILES]    # mirror index
    uint8_t remove_tile[GC_TILES]
    uint8_t front_count[16]           # frontier cells allowing wall mask m
    uint8_t swap_count[16]            # tiles (not the fountain) a tile with walls m may replace
    uint8_t at[PG * PG]               # mirror index -> its entry in tile_cell (a tile) or front_cell (a frontier
                                      # cell): dropping an entry needs no search (read only at listed cells)

cdef struct SeatView:
    int state                         # SV_*
    uint32_t version                  # changes whenever the view does (answers derived from the city keep it)
    int npend                         # changed cells since the view was right (-1: too many)
    uint16_t pend[VIEW_PENDING]
    CityView v
    uint8_t g[PG * PG]

# MASKS_MATCH[pm | need << 4]: wall masks m with (m & pm) == need
cdef uint16_t MASKS_MATCH[256]
cdef uint64_t MATCH_LANES[256][2]    # the same as sixteen bytes in two words: 1 in byte m for each mask m
# RING_SAFE[empty8]: the 8 cells around a cell in the order N NE E SE S SW W NW (bit i: position i empty).
# Filling the cell cannot enclose anything when its empty side neighbours (positions 0, 2, 4, 6) are all
# joined to each other through consecutive empty ring positions.
cdef uint8_t RING_SAFE[256]
cdef uint8_t POP4[16]
cdef int PG_STEP[4]


cdef void _init_view_tables() noexcept nogil:
    cdef int pm, need, m, bits, i, e, first, p, grp, ok, g0
    cdef int group[8]
    for pm in range(16):
        for need in range(16):
            bits = 0
            for m in range(16):
                if (m & pm) == need:
                    bits |= 1 << m
            MASKS_MATCH[pm | (need << 4)] = bits
            MATCH_LANES[pm | (need << 4)][0] = 0
            MATCH_LANES[pm | (need << 4)][1] = 0
            for m in range(16):
                if (bits >> m) & 1:
                    MATCH_LANES[pm | (need << 4)][m >> 3] |= (<uint64_t>1) << (8 * (m & 7))
    for e in range(256):
        if e == 255:
            RING_SAFE[e] = 1
            continue
        first = 0
        while (e >> first) & 1:
            first += 1              # a filled position: groups start after it
        grp = 0
        for p in range(1, 9):
            i = (first + p) & 7
            if (e >> i) & 1:
                if p > 1 and (e >> ((i + 7) & 7)) & 1:
                    group[i] = grp
                else:
                    grp += 1
                    group[i] = grp
            else:
                group[i] = 0
        ok = 1
        g0 = -1
        for p in range(0, 8, 2):
            if (e >> p) & 1:
                if g0 < 0:
                    g0 = group[p]
                elif group[p] != g0:
                    ok = 0
        RING_SAFE[e] = ok
    for i in range(16):
        POP4[i] = ((i >> 0) & 1) + ((i >> 1) & 1) + ((i >> 2) & 1) + ((i >> 3) & 1)
    PG_STEP[0] = PG                   # N E S W: the wall bit order
    PG_STEP[1] = 1
    PG_STEP[2] = -PG
    PG_STEP[3] = -1


_init_view_tables()


cdef inline int pg_index(int x, int y) noexcept nogil:
    return (y + PG_OFF) * PG + x + PG_OFF


cdef inline int pg_cidx(CityGrid* c, int gi) noexcept nogil:
    """Mirror index -> the city's storage index of the same cell."""
    return _cidx(c, (gi & (PG - 1)) - PG_OFF, (gi >> 7) - PG_OFF)


cdef inline int pg_packed(int gi) noexcept nogil:
    """Mirror index -> packed cell (x + 128) | (y + 128) << 8."""
    return ((gi & (PG - 1)) + 128 - PG_OFF) | (((gi >> 7) + 128 - PG_OFF) << 8)


cdef inline int _pm(uint8_t* g, int p) noexcept nogil:
    return ((g[p + PG] >> 4) & 1) | ((g[p + 1] >> 3) & 2) | ((g[p - PG] >> 2) & 4) | ((g[p - 1] >> 1) & 8)


cdef inline int _need(uint8_t* g, int p) noexcept nogil:
    """Touching sides facing a wall: N's S wall, E's W wall, S's N wall, W's E wall (empty cells hold no
    wall bits)."""
    return ((g[p + PG] >> 2) & 1) | ((g[p + 1] >> 2) & 2) | ((g[p - PG] << 2) & 4) | ((g[p - 1] << 2) & 8)


cdef inline int _empty8(uint8_t* g, int p) noexcept nogil:
    return (((~g[p + PG] >> 4) & 1) | ((~g[p + PG + 1] >> 3) & 2) | ((~g[p + 1] >> 2) & 4)
            | ((~g[p - PG + 1] >> 1) & 8) | (~g[p - PG] & 16) | ((~g[p - PG - 1] << 1) & 32)
            | ((~g[p - 1] << 2) & 64) | ((~g[p + PG - 1] << 3) & 128))


cdef inline void _count_add(uint8_t* counts, int key, int delta) noexcept nogil:
    """counts[m] += delta (1 or -1) for every wall mask m that key allows: the sixteen byte counters as two
    words (each stays within 0..GC_PLACE: no carry between bytes), without a loop over the masks."""
    cdef uint64_t w[2]
    memcpy(w, counts, 16)
    if delta > 0:
        w[0] += MATCH_LANES[key][0]
        w[1] += MATCH_LANES[key][1]
    else:
        w[0] -= MATCH_LANES[key][0]
        w[1] -= MATCH_LANES[key][1]
    memcpy(counts, w, 16)


# ---------------------------------------------------------------- list entries

cdef inline void _front_add(CityView* v, uint8_t* g, int p, int key) noexcept nogil:
    if v.nfront < GC_PLACE:
        v.front_cell[v.nfront] = <uint16_t>p
        v.front_key[v.nfront] = <uint8_t>key
        v.at[p] = <uint8_t>v.nfront
        v.nfront += 1
        g[p] |= MIR_FRONT
        _count_add(v.front_count, key, 1)


cdef inline void _front_drop(CityView* v, uint8_t* g, int p) noexcept nogil:
    cdef int j = v.at[p]
    if j < v.nfront and v.front_cell[j] == p:
        _count_add(v.front_count, v.front_key[j], -1)
        v.nfront -= 1
        v.front_cell[j] = v.front_cell[v.nfront]
        v.front_key[j] = v.front_key[v.nfront]
        v.at[v.front_cell[j]] = <uint8_t>j
    g[p] &= ~MIR_FRONT


cdef inline void _unsafe_drop(CityView* v, uint8_t* g, int p) noexcept nogil:
    cdef int j
    for j in range(v.nunsafe):
        if v.unsafe_cell[j] == p:
            v.nunsafe -= 1
            v.unsafe_cell[j] = v.unsafe_cell[v.nunsafe]
            break
    g[p] &= ~MIR_UNSAFE


cdef inline void _tile_add(CityView* v, uint8_t* g, int p, int tile) noexcept nogil:
    cdef int pm = _pm(g, p), need = _need(g, p), key = pm | (need << 4), i = v.ntile
    if i >= GC_TILES:
        return
    v.tile_cell[i] = <uint16_t>p
    v.tile_key[i] = <uint8_t>key
    v.tile_links[i] = <uint8_t>(pm & ~need & ~g[p] & 15)
    v.tile_id[i] = <uint8_t>tile
    v.at[p] = <uint8_t>i
    v.ntile = i + 1
    v.deg2 += POP4[v.tile_links[i]]
    if tile != FOUNTAIN:
        _count_add(v.swap_count, key, 1)


cdef inline int _tile_drop(CityView* v, int p) noexcept nogil:
    """Remove the tile entry at mirror index p if there is one; returns its tile id or -1."""
    cdef int j = v.at[p], t
    if j >= v.ntile or v.tile_cell[j] != p:
        return -1
    t = v.tile_id[j]
    v.deg2 -= POP4[v.tile_links[j]]
    if t != FOUNTAIN:
        _count_add(v.swap_count, v.tile_key[j], -1)
    v.ntile -= 1
    v.tile_cell[j] = v.tile_cell[v.ntile]
    v.tile_key[j] = v.tile_key[v.ntile]
    v.tile_links[j] = v.tile_links[v.ntile]
    v.tile_id[j] = v.tile_id[v.ntile]
    v.at[v.tile_cell[j]] = <uint8_t>j
    return t


cdef inline int _cell_ok(CityGrid* c, int p, int need) noexcept nogil:
    """The exact test of a ring-unsafe candidate cell (walls == need match every side, one is open)."""
    return city_check_place(c, (p & (PG - 1)) - PG_OFF, (p >> 7) - PG_OFF, need) == 0


cdef inline void _eval_empty(CityView* v, uint8_t* g, CityGrid* c, int p) noexcept nogil:
    """List the empty cell p (no flags set) in the frontier / unsafe lists as it deserves."""
    cdef int pm = _pm(g, p), need
    if pm == 0:
        return
    need = _need(g, p)
    if need == pm:
        return                      # every touching side faces a wall: no way in on foot
    if not RING_SAFE[_empty8(g, p)]:
        g[p] |= MIR_UNSAFE
        if v.nunsafe < GC_PLACE:
            v.unsafe_cell[v.nunsafe] = <uint16_t>p
            v.nunsafe += 1
        if not _cell_ok(c, p, need):
            return
    _front_add(v, g, p, pm | (need << 4))


# ---------------------------------------------------------------- removals

cdef inline int view_removals(CityView* v) noexcept nogil:
    """The removable tiles' count, the remove_* lists found first if the city changed since (they are left
    for when someone asks: a random draw in the placing phase, or in a city with camps, never does)."""
    if v.nremove < 0:
        _view_removals(v)
    return v.nremove


cdef void _view_removals(CityView* v) noexcept nogil:
    cdef int16_t node[PG * PG]            # mirror index -> tile index (read only at tiles)
    cdef int disc[GC_TILES]
    cdef int low[GC_TILES]
    cdef int parent[GC_TILES]
    cdef uint8_t cut[GC_TILES]
    cdef int stack[GC_TILES]
    cdef uint8_t todo[GC_TILES]
    cdef int n = v.ntile, i, u, w, d, sp, t = 0, root = -1, lk
    v.nremove = 0
    for i in range(n):
        if v.tile_id[i] == FOUNTAIN:
            root = i
    if root < 0:
        return
    if v.deg2 != 2 * (n - 1):
        # on-foot cycles: Tarjan's low links from the fountain
        for i in range(n):
            node[v.tile_cell[i]] = <int16_t>i
            disc[i] = -1
            cut[i] = 0
            todo[i] = v.tile_links[i]
        disc[root] = low[root] = t
        t += 1
        parent[root] = -1
        stack[0] = root
        sp = 1
        while sp > 0:
            u = stack[sp - 1]
            lk = todo[u]
            if lk:
                d = __builtin_ctzll(lk)
                todo[u] = <uint8_t>(lk & (lk - 1))
                w = node[v.tile_cell[u] + PG_STEP[d]]
                if disc[w] < 0:
                    disc[w] = low[w] = t
                    t += 1
                    parent[w] = u
                    stack[sp] = w
                    sp += 1
                elif w != parent[u] and disc[w] < low[u]:
                    low[u] = disc[w]
            else:
                sp -= 1
                w = parent[u]
                if w >= 0:
                    if low[u] < low[w]:
                        low[w] = low[u]
                    if w != root and low[u] >= disc[w]:
                        cut[w] = 1
        for i in range(n):                      # (written for every tile, kept when removable: no branch)
            v.remove_cell[v.nremove] = v.tile_cell[i]
            v.remove_tile[v.nremove] = v.tile_id[i]
            v.nremove += (i != root) & (cut[i] == 0) & (disc[i] >= 0) & ((v.tile_key[i] & 15) != 15)
        return
    # a tree (most cities): the cut vertices are the tiles with two or more links; not the fountain, not a
    # cut vertex, and not a tile whose vacated cell would be enclosed
    for i in range(n):
        v.remove_cell[v.nremove] = v.tile_cell[i]
        v.remove_tile[v.nremove] = v.tile_id[i]
        v.nremove += (i != root) & (POP4[v.tile_links[i]] <= 1) & ((v.tile_key[i] & 15) != 15)


# ---------------------------------------------------------------- full build and update

cdef void _view_clear(SeatView* sv) noexcept nogil:
    """Zero the mirror cells the lists name (they are all the nonzero ones)."""
    cdef CityView* v = &sv.v
    cdef int j
    for j in range(v.ntile):
        sv.g[v.tile_cell[j]] = 0
    for j in range(v.nfront):
        sv.g[v.front_cell[j]] = 0
    for j in range(v.nunsafe):
        sv.g[v.unsafe_cell[j]] = 0


cdef void view_build(SeatView* sv, CityGrid* c) noexcept nogil:
    """Rebuild the view of city c from scratch (sv.state SV_EMPTY: mirror zero, or lists naming its content)."""
    cdef int cells[CITY_MAX_CELLS]
    cdef int tiles[CITY_MAX_CELLS]
    cdef uint16_t seen[4 * GC_TILES]
    cdef CityView* v = &sv.v
    cdef uint8_t* g = sv.g
    cdef int n, i, d, x, y, p, q, nseen = 0
    if sv.state != SV_EMPTY:
        _view_clear(sv)
    v.ntile = 0
    v.nfront = 0
    v.nunsafe = 0
    v.nremove = 0
    v.deg2 = 0
    memset(v.front_count, 0, 16)
    memset(v.swap_count, 0, 16)
    sv.npend = 0
    sv.state = SV_VALID
    sv.version += 1
    n = city_list(c, cells, tiles)
    for i in range(n):
        x = (cells[i] & 255) - 128
        y = (cells[i] >> 8) - 128
        if x < -PG_LIMIT or x > PG_LIMIT or y < -PG_LIMIT or y > PG_LIMIT or n > GC_TILES:
            n = i                   # cannot happen for a legal city (<= 55 tiles from the fountain)
            break
        g[pg_index(x, y)] = MIR_TILE | city_walls(c, x, y)
    for i in range(n):
        _tile_add(v, g, pg_index((cells[i] & 255) - 128, (cells[i] >> 8) - 128), tiles[i])
    for i in range(v.ntile):
        for d in range(4):
            q = v.tile_cell[i] + PG_STEP[d]
            if g[q]:
                continue            # a tile, or an empty cell already looked at
            _eval_empty(v, g, c, q)
            if not g[q]:
                g[q] = MIR_SEEN
                seen[nseen] = <uint16_t>q
                nseen += 1
    for i in range(nseen):
        g[seen[i]] = 0
    v.nremove = -1


cdef void view_update(SeatView* sv, CityGrid* c) noexcept nogil:
    """Bring a valid view up to date after changes at the pending cells (the mirror still shows the old city
    there): recompute the 3 x 3 block around each, re-test the ring-unsafe cells, redo the removals."""
    cdef CityView* v = &sv.v
    cdef uint8_t* g = sv.g
    cdef int k, p, q, t, dx, dy, x, y, j, need, ok
    for k in range(sv.npend):
        p = sv.pend[k]
        if g[p] & MIR_TILE:
            _tile_drop(v, p)
        else:
            if g[p] & MIR_FRONT:
                _front_drop(v, g, p)
            if g[p] & MIR_UNSAFE:
                _unsafe_drop(v, g, p)
        x = (p & (PG - 1)) - PG_OFF
        y = (p >> 7) - PG_OFF
        g[p] = (MIR_TILE | city_walls(c, x, y)) if city_tile(c, x, y) >= 0 else 0
    for k in range(sv.npend):
        p = sv.pend[k]
        for dy in range(-1, 2):
            for dx in range(-1, 2):
                q = p + dy * PG + dx
                if g[q] & MIR_TILE:
                    t = _tile_drop(v, q)
                    if t < 0:
                        t = city_tile(c, (q & (PG - 1)) - PG_OFF, (q >> 7) - PG_OFF)
                    _tile_add(v, g, q, t)
                else:
                    if g[q] & MIR_FRONT:
                        _front_drop(v, g, q)
                    if g[q] & MIR_UNSAFE:
                        _unsafe_drop(v, g, q)
                    _eval_empty(v, g, c, q)
    # the exact hole test is global: re-test every ring-unsafe candidate
    for j in range(v.nunsafe):
        q = v.unsafe_cell[j]
        need = _need(g, q)
        ok = _cell_ok(c, q, need)
        if ok and not (g[q] & MIR_FRONT):
            _front_add(v, g, q, _pm(g, q) | (need << 4))
        elif not ok and (g[q] & MIR_FRONT):
            _front_drop(v, g, q)
    sv.npend = 0
    sv.version += 1
    v.nremove = -1


cdef SeatView* seat_view_new() noexcept nogil:
    """An empty view (zero mirror, no lists: SV_EMPTY) for one generation, or NULL; free() it. Its at[] is
    left unset (16 KB not written: it is read only at listed cells, and written when they are listed)."""
    cdef SeatView* sv = <SeatView*>malloc(sizeof(SeatView))
    cdef char* at
    if sv != NULL:
        at = <char*>sv.v.at
        memset(sv, 0, at - <char*>sv)
        memset(at + PG * PG, 0, <char*>sv + sizeof(SeatView) - (at + PG * PG))
    return sv


cdef inline CityView* seat_view(SeatView* sv, CityGrid* c) noexcept nogil:
    if sv.state != SV_VALID or sv.npend < 0:
        view_build(sv, c)
    elif sv.npend > 0:
        view_update(sv, c)
    return &sv.v
