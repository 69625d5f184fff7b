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


# ---------------------------------------------------------------- benchmark kernels (alhambra_ai.bench)

def _bench_games(int num_players, int games, seed0, options=None):
    """Set up and play `games` uniformly random games in C (seeds seed0, seed0 + 1, ...; choices seeded
    alike); returns the total number of actions."""
    cdef GameState g
    cdef Rng r
    cdef int i, total = 0
    cdef uint64_t seed = seed0
    bits, _ = _normalize_options(num_players, options)
    cdef GenCache* gc = <GenCache*>malloc(sizeof(GenCache))
    if gc == NULL:
        raise MemoryError()
    for i in range(games):
        setup_game(&g, num_players, seed + i, bits, NULL)
        rng_seed(&r, seed + i)
        total += playout_random_cached(&g, &r, 1000000, gc)
        state_release(&g)
    free(gc)
    return total


def _bench_generate(list states, int reps):
    """gen_legal (no cache) over the states, `reps` times; returns the number of actions generated."""
    cdef int i, k, total = 0
    cdef State st
    cdef int* buf = <int*>malloc(MAX_LEGAL * sizeof(int))
    for k in range(reps):
        for st in states:
            total += gen_legal(&st.st, buf)
    free(buf)
    return total


def _bench_copy(State st, int reps):
    """reps x (copy the C state, sharing cities, and release it)."""
    cdef GameState g
    cdef int k
    for k in range(reps):
        state_copy(&g, &st.st)
        state_release(&g)


def _bench_replay(State start, list codes, int reps):
    """reps x (copy `start`, apply every code unchecked, release): the cost of apply_action."""
    cdef GameState g
    cdef int k, i, n = len(codes)
    cdef int* c = <int*>malloc(max(n, 1) * sizeof(int))
    for i in range(n):
        c[i] = codes[i]
    for k in range(reps):
        state_copy(&g, &start.st)
        for i in range(n):
            apply_action(&g, c[i], NULL)
        state_release(&g)
    free(c)
