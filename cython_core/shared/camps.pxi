# Camps (rules.md §9.2): the city rules of camp tiles and the camps' arrow lines. Included by _core.pyx right
# after shared/city.pxi, whose checks call the camp_* functions below only when a city holds camps
# (CityGrid.ncamps > 0), so the base game never pays for them.
#
# A camp lies in the grid as CELL_TILE | CELL_CAMP | its bastion sides (in the wall bits). With that, the
# base matching rule already demands a building wall where a bastion faces a building; what the base rules
# do not know is added here:
#   - a camp side touches either an empty cell, a building (or fountain / bazaar) side with a wall by a
#     bastion, or another camp's plain (green) side by a plain side;
#   - each camp keeps at least one bastion on a building wall, through every change of the city;
#   - camps are off the on-foot graph (no building may face them with an open side, so walking never enters
#     one); they are tiles for the no-holes rule.


cdef inline bint camp_green_facing(int n, int e, int s, int v) noexcept nogil:
    """Some side neighbour (occ bytes N, E, S, W of an empty cell) is a camp showing the cell a plain side:
    no building may go there."""
    return (((n & CELL_CAMP) and not (n & WALL_S)) or ((e & CELL_CAMP) and not (e & WALL_W))
            or ((s & CELL_CAMP) and not (s & WALL_N)) or ((v & CELL_CAMP) and not (v & WALL_E)))


cdef inline bint camp_pair_bad(int a, int b, int a_side, int b_side) noexcept nogil:
    """Tiles a and b (occ bytes) touch, a's a_side facing b's b_side: do they break a camp rule?"""
    if a == 0 or b == 0 or not ((a | b) & CELL_CAMP):
        return 0
    if (a & CELL_CAMP) and (b & CELL_CAMP):
        return (a & a_side) != 0 or (b & b_side) != 0         # camp to camp: plain to plain only
    return not ((a & a_side) and (b & b_side))                # camp to other tile: bastion on a wall only


cdef int _camp_supports(uint8_t* occ, int j, int w, int skip) noexcept nogil:
    """Bastions of the camp on storage cell j that lean on a building wall (not counting cell `skip`)."""
    cdef int a = occ[j], n = 0, b
    b = occ[j + w]
    if (a & WALL_N) and j + w != skip and b and not (b & CELL_CAMP) and (b & WALL_S):
        n += 1
    b = occ[j + 1]
    if (a & WALL_E) and j + 1 != skip and b and not (b & CELL_CAMP) and (b & WALL_W):
        n += 1
    b = occ[j - w]
    if (a & WALL_S) and j - w != skip and b and not (b & CELL_CAMP) and (b & WALL_N):
        n += 1
    b = occ[j - 1]
    if (a & WALL_W) and j - 1 != skip and b and not (b & CELL_CAMP) and (b & WALL_E):
        n += 1
    return n


cdef bint camp_support_lost(CityGrid* c, int i) noexcept nogil:
    """Taking the tile on storage cell i away would leave a neighbouring camp without a bastion on a wall."""
    cdef uint8_t* occ = c.occ
    cdef int w = c.w, k
    cdef int nb[4]
    nb[0] = i + w
    nb[1] = i + 1
    nb[2] = i - w
    nb[3] = i - 1
    for k in range(4):
        if (occ[nb[k]] & CELL_CAMP) and _camp_supports(occ, nb[k], w, i) == 0:
            return 1
    return 0


cdef bint camps_unsupported(CityGrid* c, int* where) noexcept nogil:
    """Some camp has no bastion on a building wall (where[0] = its packed cell)."""
    cdef int x, y, i
    for y in range(c.y1, c.y0 - 1, -1):
        for x in range(c.x0, c.x1 + 1):
            i = _cidx(c, x, y)
            if (c.occ[i] & CELL_CAMP) and _camp_supports(c.occ, i, c.w, -1) == 0:
                where[0] = city_pack(x, y)
                return 1
    return 0


cdef int _camp_check_at(CityGrid* c, int i, int bastions) noexcept nogil:
    cdef int r
    if c.occ[i]:
        return CITY_ERR_NOT_EMPTY
    r = _camp_sides(c, i, bastions)
    if r:
        return r
    if not HOLE_SAFE[_ring_empty8(c.occ, i, c.w)] and not _hole_flood_ok(c, i):
        return CITY_ERR_HOLE
    return CITY_OK


cdef int _camp_sides(CityGrid* c, int i, int bastions) noexcept nogil:
    """The camp rules of a camp with these bastions on storage cell i against its 4 side neighbours."""
    cdef uint8_t* occ = c.occ
    cdef int w = c.w, k, b, support = 0, present = 0
    cdef int nb[4]
    cdef int mine[4]
    cdef int theirs[4]
    nb[0] = i + w
    nb[1] = i + 1
    nb[2] = i - w
    nb[3] = i - 1
    mine[0] = WALL_N
    mine[1] = WALL_E
    mine[2] = WALL_S
    mine[3] = WALL_W
    theirs[0] = WALL_S
    theirs[1] = WALL_W
    theirs[2] = WALL_N
    theirs[3] = WALL_E
    for k in range(4):
        b = occ[nb[k]]
        if b == 0:
            continue
        present = 1
        if b & CELL_CAMP:
            if (bastions & mine[k]) or (b & theirs[k]):
                return CITY_ERR_CAMP_SIDES
        elif not (bastions & mine[k]):
            return CITY_ERR_CAMP_GREEN
        elif not (b & theirs[k]):
            return CITY_ERR_CAMP_SIDES
        else:
            support += 1
    if not present:
        return CITY_ERR_NO_NEIGHBOUR
    if support == 0:
        return CITY_ERR_CAMP_NO_WALL
    return CITY_OK


cdef int camp_check_place(CityGrid* c, int x, int y, int bastions) noexcept nogil:
    """0 if a camp with these bastion sides may be placed at (x, y), else a CITY_ERR_* code."""
    if x < -CITY_COORD_MAX or x > CITY_COORD_MAX or y < -CITY_COORD_MAX or y > CITY_COORD_MAX:
        return CITY_ERR_OFF_GRID
    if x < c.x0 - 1 or x > c.x1 + 1 or y < c.y0 - 1 or y > c.y1 + 1:
        return CITY_ERR_NO_NEIGHBOUR
    return _camp_check_at(c, _cidx(c, x, y), bastions)


cdef inline bint camp_sides_match(uint8_t* occ, int i, int w, int bastions) noexcept nogil:
    """A necessary condition of _camp_sides, cheap enough to try first on every cell: some neighbour, and
    bastions exactly on the sides whose neighbours show a wall or a bastion (a building wall needs a bastion,
    a camp's plain side a plain side)."""
    cdef int n = occ[i + w], e = occ[i + 1], s = occ[i - w], v = occ[i - 1]
    cdef int pm = _present4(n, e, s, v)
    return pm != 0 and (bastions & pm) == _facing4(n, e, s, v)


cdef int camp_place_cells(CityGrid* c, int bastions, int* out) noexcept nogil:
    """Every legal cell for a camp with these bastions (packed, north row first); returns the count."""
    cdef int x, y, i, n = 0
    for y in range(c.y1 + 1, c.y0 - 2, -1):
        for x in range(c.x0 - 1, c.x1 + 2):
            i = _cidx(c, x, y)
            if c.occ[i] or not camp_sides_match(c.occ, i, c.w, bastions):
                continue
            if n < CITY_MAX_CELLS and _camp_check_at(c, i, bastions) == CITY_OK:
                out[n] = city_pack(x, y)
                n += 1
    return n


cdef int city_check_place_tile(CityGrid* c, int x, int y, int tile, int walls) noexcept nogil:
    """city_check_place for any tile: camps by their own rule, the others by their walls (as they are now:
    a wall card may have added some, rules.md §9.7)."""
    if TILE_KIND[tile] == KIND_CAMP:
        return camp_check_place(c, x, y, TILE_WALLS[tile])
    return city_check_place(c, x, y, walls)


cdef int city_check_swap_tile(CityGrid* c, int x, int y, int tile, int walls) noexcept nogil:
    """city_check_swap for any tile. A swap keeps the cells a city holds (no hole, no lone tile can come of
    it), so what involves a camp is decided by the swapped cell's sides alone:
      - a camp coming in must face every building beside it with a bastion on its wall; a building there
        had an on-foot link (a valid city reaches it), which only an open side facing an open side makes,
        so a camp never replaces a building, and a camp for a camp leaves the on-foot graph and every
        camp's support as they were (camps hold no camp up);
      - a building coming into a camp's cell needs an open side, which only a building's open side may
        face: it joins the on-foot graph; the camps beside it must lean on its walls by bastions.
    (tests/core/alhambra/test_modules.py holds this against the whole swapped city validated from scratch.)"""
    cdef int i
    if x < c.x0 or x > c.x1 or y < c.y0 or y > c.y1:
        return CITY_ERR_EMPTY
    i = _cidx(c, x, y)
    if c.occ[i] == 0:
        return CITY_ERR_EMPTY
    if c.tid[i] == FOUNTAIN and i == _cidx(c, 0, 0):
        return CITY_ERR_FOUNTAIN
    if TILE_KIND[tile] == KIND_CAMP:
        return _camp_sides(c, i, TILE_WALLS[tile])
    if c.occ[i] & CELL_CAMP:
        return _building_sides(c, i, walls)
    return _check_swap_at(c, i, walls)


cdef int _building_sides(CityGrid* c, int i, int walls) noexcept nogil:
    """The side rules of a building with these walls on storage cell i (its present tile ignored)."""
    cdef uint8_t* occ = c.occ
    cdef int w = c.w
    cdef int n = occ[i + w], e = occ[i + 1], s = occ[i - w], v = occ[i - 1]
    cdef int pm = _present4(n, e, s, v)
    if camp_green_facing(n, e, s, v):
        return CITY_ERR_CAMP_GREEN
    if (walls & pm) != _facing4(n, e, s, v):
        return CITY_ERR_SIDES
    if (pm & ~walls) == 0:
        return CITY_ERR_NO_OPEN_SIDE
    return CITY_OK


cdef int camp_swap_cells(CityGrid* c, int tile, int walls, int* out) noexcept nogil:
    """The cells where `tile` may replace a tile by a swap that involves a camp (a camp comes in, or a camp's
    cell takes a building); building-for-building swaps are listed by city_swap_cells."""
    cdef int x, y, i, n = 0
    cdef bint camp = TILE_KIND[tile] == KIND_CAMP
    if not camp and c.ncamps == 0:
        return 0
    for y in range(c.y1, c.y0 - 1, -1):
        for x in range(c.x0, c.x1 + 1):
            i = _cidx(c, x, y)
            if c.occ[i] == 0 or (not camp and not (c.occ[i] & CELL_CAMP)):
                continue
            if n < CITY_MAX_CELLS and city_check_swap_tile(c, x, y, tile, walls) == CITY_OK:
                out[n] = city_pack(x, y)
                n += 1
    return n


cdef int city_camp_score(CityGrid* c) noexcept nogil:
    """rules.md §9.2 scoring: per bastion, 1 point per tile in the straight line beyond it (inner walls do not
    break it; it ends at the first empty cell or camp)."""
    cdef uint8_t* occ = c.occ
    cdef int x, y, i, j, k, pts = 0
    cdef int step[4]
    if c.ncamps == 0:
        return 0
    step[0] = c.w
    step[1] = 1
    step[2] = -c.w
    step[3] = -1
    for y in range(c.y0, c.y1 + 1):
        for x in range(c.x0, c.x1 + 1):
            i = _cidx(c, x, y)
            if not (occ[i] & CELL_CAMP):
                continue
            for k in range(4):
                if occ[i] & (1 << k):
                    j = i + step[k]
                    while occ[j] and not (occ[j] & CELL_CAMP):
                        pts += 1
                        j += step[k]
    return pts
