# Module points of one scoring round (rules.md §9.2-9.8), called by score_round for every seat: each module's
# `points` hook (modules/table.pxi) fills its score_breakdown column.


cdef int module_points(GameState* s, int seat, int r, int col) noexcept nogil:
    """Points of breakdown column col (BD_CAMPS ..) for seat in round r (0..2)."""
    cdef int i
    for i in range(NMODULES):
        if MODULES_TABLE[i].column == col and s.options & MODULES_TABLE[i].bit and MODULES_TABLE[i].points != NULL:
            return MODULES_TABLE[i].points(s, seat, r)
    return 0
