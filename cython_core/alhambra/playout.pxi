# Playouts: whole games played inside C, for benchmarks and as the rollout of the MCTS bot.

cdef int playout_random_cached(GameState* s, Rng* r, int max_actions, GenCache* gc) noexcept nogil:
    """Play uniformly random legal actions (over gen_legal's list) until the game is over or max_actions were
    played; returns the number of actions. gc: scratch cache (any content; it is reset here). No allocation,
    no Python objects: reusable from nogil search code."""
    cdef int n = 0, code
    gen_cache_reset(gc)
    while s.phase != PH_OVER and n < max_actions:
        code = sample_legal(s, gc, r)
        gen_cache_touch(gc, s, code)
        apply_action(s, code, NULL)
        n += 1
    return n


cdef int playout_random(GameState* s, Rng* r, int max_actions) noexcept nogil:
    """As playout_random_cached, with a cache allocated for this playout (searches should keep one cache
    and call playout_random_cached: a fresh cache costs an allocation and page faults)."""
    cdef GenCache* gc = gen_cache_new()
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
    cdef GenCache* gc = gen_cache_new()
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
    """gen_legal_cached with a fresh view each time (reset cache: what a search calls for a new position)
    over the states, `reps` times; returns the number of actions generated."""
    cdef int i, k, total = 0
    cdef State st
    cdef int* buf = <int*>malloc(MAX_LEGAL * sizeof(int))
    cdef GenCache* gc = gen_cache_new()
    for k in range(reps):
        for st in states:
            gen_cache_reset(gc)
            total += gen_legal_cached(&st.st, gc, buf)
    free(buf)
    free(gc)
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


def _bench_views(list states, int reps):
    """reps x a full city-view build for the seat to act in each state (profiling aid)."""
    cdef State st
    cdef SeatView* sv = seat_view_new()
    cdef int k, total = 0
    for k in range(reps):
        for st in states:
            view_build(sv, st.st.cities.city[st.st.current if st.st.current != NO_SEAT else 0])
            total += sv.v.nfront + view_removals(&sv.v)
    free(sv)
    return total


cdef _view_sets(CityView* v):
    front = sorted((v.front_cell[j], v.front_key[j]) for j in range(v.nfront))
    tiles = sorted((v.tile_cell[j], v.tile_key[j], v.tile_links[j], v.tile_id[j]) for j in range(v.ntile))
    removes = sorted((v.remove_cell[j], v.remove_tile[j]) for j in range(view_removals(v)))
    counts = ([v.front_count[m] for m in range(16)], [v.swap_count[m] for m in range(16)], v.deg2)
    return front, tiles, removes, counts


def _check_views(State st, seed, int max_actions=100000):
    """(test hook) Play a random playout from a copy of st with a GenCache; before every action compare the
    acting seat's cached (incrementally updated) view with a fresh one. Returns the number of comparisons;
    raises AssertionError on the first difference."""
    cdef GameState g
    cdef Rng r
    cdef GenCache* gc = gen_cache_new()
    cdef SeatView* fresh = seat_view_new()
    cdef CityView* v
    cdef int n = 0, code
    state_copy(&g, &st.st)
    rng_seed(&r, <uint64_t>seed)
    try:
        while g.phase != PH_OVER and n < max_actions:
            if g.phase != PH_ACTION or _has_rebuild(&g):
                v = seat_view(&gc.seat[g.current], g.cities.city[g.current])
                view_build(fresh, g.cities.city[g.current])
                a, b = _view_sets(v), _view_sets(&fresh.v)
                if a != b:
                    raise AssertionError(f"view differs after {n} actions (seat {g.current}): {a} != {b}")
            code = sample_legal(&g, gc, &r)
            gen_cache_touch(gc, &g, code)
            apply_action(&g, code, NULL)
            n += 1
        return n
    finally:
        state_release(&g)
        free(gc)
        free(fresh)
include "modules/checks.pxi"
