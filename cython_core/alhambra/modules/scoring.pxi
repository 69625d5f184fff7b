# Module points of one scoring round (rules.md §9.2-9.4), called by score_round for every seat.

cdef int FALCON_SET_POINTS[6]
FALCON_SET_POINTS[:] = [0, 2, 6, 12, 20, 30]


cdef int falcon_points(GameState* s, int seat) noexcept nogil:
    """rules.md §9.4: per falcon colour held, 1 -> 2, 2 -> 6, 3 -> 12, 4 -> 20, 5 -> 30."""
    cdef int f, k, pts = 0
    cdef int held[NFALCON_COLOURS]
    for k in range(NFALCON_COLOURS):
        held[k] = 0
    for f in range(NFALCONS):
        if s.falcon_owner[f] == seat:
            held[FALCON_COLOUR[f]] += 1
    for k in range(NFALCON_COLOURS):
        pts += FALCON_SET_POINTS[held[k]]
    return pts


cdef int module_points(GameState* s, int seat, int r, int col) noexcept nogil:
    """Points of breakdown column col (BD_CAMPS .. BD_RESIDENTS) for seat in round r (0..2)."""
    if col == BD_CAMPS and s.options & OPT_CAMPS:
        return city_camp_score(s.cities.city[seat])
    if col == BD_BAZAARS and s.options & OPT_BAZAARS and r == 2:
        return city_bazaar_score(s.cities.city[seat])
    if col == BD_FALCONS and s.options & OPT_FALCONS:
        return falcon_points(s, seat)
    if col == BD_RESIDENTS and s.options & OPT_RESIDENTS:
        return resident_points(s, seat)
    return 0
