# Playouts: whole games played inside C, for benchmarks and as the rollout of the MCTS bot.

cdef int playout_random_cached(GameState* s, Rng* r, int max_actions, GenCache* gc) noexcept nogil:
    """Play uniformly random legal actions (over gen_legal's list) until the game is over or max_actions were
    played; returns the number of actions. gc: scratch cache (any content; it is reset here). No allocation,
    no Python objects: reusable from nogil search code."""
    cdef int n = 0, code
    gen_cache_reset(gc)
    while s.phase != PH_OVER and n < max_actions:
        code = sample_legal(s, gc, r)
        gen_cache_touch(gc, s.current, code)
        apply_action(s, code, NULL)
        n += 1
    return n


cdef int playout_random(GameState* s, Rng* r, int max_actions) noexcept nogil:
    """As playout_random_cached, with a cache allocated for this playout (one malloc per playout)."""
    cdef GenCache* gc = <GenCache*>malloc(sizeof(GenCache))
    cdef int n
    if gc == NULL:
        return -1
    n = playout_random_cached(s, r, max_actions, gc)
    free(gc)
    return n


def _ab_playouts(State st, int games, bint cached):
    """Benchmark helper: play `games` random games from clones of st (no history); returns total actions."""
    cdef GameState g
    cdef Rng r
    cdef int i, k, n = 0, total = 0
    cdef int buf[MAX_LEGAL]
    cdef GenCache* gc = <GenCache*>malloc(sizeof(GenCache))
    for i in range(games):
        state_copy(&g, &st.st)
        rng_seed(&r, i)
        if cached:
            total += playout_random_cached(&g, &r, 1000000, gc)
        else:
            n = 0
            while g.phase != PH_OVER:
                k = gen_legal(&g, buf)
                apply_action(&g, buf[rng_below(&r, k)], NULL)
                n += 1
            total += n
        state_release(&g)
    free(gc)
    return total
