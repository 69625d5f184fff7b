# What the modules' points are worth to the bots (rules.md §9.1-9.8): greedy, expectimax and the MCTS evaluation
# add each module's valuation (its hooks in modules/table.pxi: values, prior, tile_worth; the weights and the
# reasons beside them, in its own file) to the base game's. search.pxi calls these through one-line hooks.


cdef inline int rounds_left(GameState* s) noexcept nogil:
    return 3 - __builtin_popcountll(s.scored & 7)


cdef double module_tile_worth(GameState* s, int seat, int t) noexcept nogil:
    """tile_worth for a module's tile (no building type): what it may add to the seat's points."""
    cdef uint32_t bit = TILE_KIND_BIT[TILE_KIND[t]]
    cdef int i
    for i in range(NMODULES):
        if MODULES_TABLE[i].bit == bit and MODULES_TABLE[i].tile_worth != NULL:
            return MODULES_TABLE[i].tile_worth(s, seat, t)
    return 0.0


cdef void module_values(GameState* s, double* out) noexcept nogil:
    """Add the modules' expected points per seat to out (eval_values' projection of the base game), per seat in
    the table's order (a sum of doubles: the order is part of the result)."""
    cdef int i, k, n = s.num_players, left = rounds_left(s)
    cdef double p = game_progress(s)
    for i in range(n):
        module_values_of(s, i, left, p, out)
    if s.phase == PH_PLACE or s.phase == PH_FINAL:
        for k in range(s.npending):
            if TILE_TYPE[s.pending[k]] >= NTYPES:
                out[s.current] += 0.5 * module_tile_worth(s, s.current, s.pending[k])


cdef double module_action_prior(GameState* s, int a) noexcept nogil:
    """action_prior for the modules' kinds (points-like scale; only the order matters): the owner's prior."""
    cdef ModuleHooks* m = code_owner(a)
    if m == NULL or m.prior == NULL:
        return 0.0
    return m.prior(s, a)


cdef int module_policy(GameState* s, Rng* r, int* buf) noexcept nogil:
    """The rollout policy in the phases "interrupt", "falcons", "resident", "disc" and "figures": the best
    action by prior, or "done" (the disc: the best cell; the figures: any)."""
    cdef int n = gen_legal(s, buf), i, best = -1
    cdef double b = 0.0, v
    for i in range(n):
        if (buf[i] & 15) == A_DONE:
            continue
        v = action_prior(s, buf[i]) + rng_below(r, 100) * 1e-4
        if v > b:
            b = v
            best = i
    if best < 0 and s.phase == PH_DISC:
        return buf[0]
    if best < 0 and s.phase == PH_FIGURES:
        return buf[rng_below(r, n)]         # (no prior for a secret choice: any of the 20)
    return buf[best] if best >= 0 else A_DONE
