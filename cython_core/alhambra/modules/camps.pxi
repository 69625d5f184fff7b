# Camps (rules.md §9.2): the module's part of the base game. Its city rules (where a camp may lie, what it
# scores) are shared/camps.pxi's, a city fact that every city of the family obeys; the random player's draws
# with camps in a city are modules/sample.pxi's (its counted segments: a hot path).

cdef double MOD_CAMP = 1.5          # a camp off the city: per bastion, per round left (a line of ~1.5 tiles)


cdef void camps_setup(GameState* s) noexcept nogil:
    """The camps go into the bag with the buildings (before the shuffle)."""
    cdef int i
    for i in range(NCAMPS):
        s.bag[s.bag_n] = <uint8_t>(CAMP_FIRST + i)
        s.bag_n += 1


cdef int camps_points(GameState* s, int seat, int r) noexcept nogil:
    return city_camp_score(s.cities.city[seat])


cdef void camps_values(GameState* s, int i, int left, double p, double* out) noexcept nogil:
    """The arrow lines as they stand now score again in every round still to come."""
    out[i] += left * city_camp_score(s.cities.city[i])


cdef double camps_tile_worth(GameState* s, int seat, int t) noexcept nogil:
    """A camp not yet in the city: what it could add where it may go."""
    return MOD_CAMP * __builtin_popcountll(TILE_WALLS[t]) * rounds_left(s)


# ---------------------------------------------------------------- the legal actions with camps

cdef int _cells_for(CityGrid* c, int t, int walls, int* cells) noexcept nogil:
    if TILE_KIND[t] == KIND_CAMP:
        return camp_place_cells(c, TILE_WALLS[t], cells)
    return city_place_cells(c, walls, cells)


cdef int gen_legal_camps(GameState* s, GenCache* gc, int* out) noexcept nogil:
    """gen_legal for games with the Camps module: the same lists, from the city's own (camp-aware) answers
    instead of the CityView mirrors (which know walls only)."""
    cdef CityGrid* c = s.cities.city[s.current]
    cdef uint8_t tiles[128]
    cdef int cells[CITY_MAX_CELLS]
    cdef int n = 0, nt, i, j, m, t
    cdef bint dirk
    if s.phase == PH_ACTION:
        n = gen_take(s, out)
        n += gen_buy(s, out + n, NULL if gc == NULL else gc.buy[s.current])
        n += gen_action_modules(s, out + n, NULL, NULL if gc == NULL else gc.buy[s.current], gc)
        nt = mask_list(s.cities.reserve[s.current], tiles)
        for i in range(nt):
            m = _cells_for(c, tiles[i], tile_walls_now(s, tiles[i]), cells)
            for j in range(m):
                out[n] = code_cell(A_BUILD, tiles[i], cells[j])
                n += 1
        m = city_remove_cells(c, cells)
        for j in range(m):
            out[n] = code_cell(A_REMOVE, city_tile(c, (cells[j] & 255) - 128, (cells[j] >> 8) - 128), cells[j])
            n += 1
        for i in range(nt):
            t = tiles[i]
            m = 0 if TILE_KIND[t] == KIND_CAMP else city_swap_cells(c, tile_walls_now(s, t), cells)
            m += camp_swap_cells(c, t, tile_walls_now(s, t), cells + m)
            for j in range(m):
                out[n] = code_cell(A_SWAP, t, cells[j])
                n += 1
        if n == 0:
            out[0] = A_PASS
            n = 1
        return n
    if s.phase == PH_PLACE or s.phase == PH_FINAL:
        dirk = (s.options & OPT_DIRK) and s.phase == PH_PLACE
        for i in range(s.npending):
            t = s.pending[i]
            m = _cells_for(c, t, tile_walls_now(s, t), cells)
            for j in range(m):
                out[n] = code_cell(A_PLACE, t, cells[j])
                n += 1
            n += gen_place_aside(t, dirk, out + n)
        return n
    return gen_module_phase(s, out, NULL if gc == NULL else gc.buy[s.current])


# ---------------------------------------------------------------- JSON (its table line's seen: observe.pxi)

cdef int camps_seen(GameState* s, object st, int seat, dict out) except -1:
    """"bag_camps": how many camps the bag holds (its composition is public, its order is not; 0 while off)."""
    cdef int i, k = 0
    for i in range(s.bag_n):
        k += TILE_KIND[s.bag[i]] == KIND_CAMP
    out["bag_camps"] = k
    return 0
