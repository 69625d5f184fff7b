# Playouts: whole games played inside C, for benchmarks and as the rollout of the MCTS bot.

cdef int playout_random(GameState* s, Rng* r, int max_actions) noexcept nogil:
    """Play uniformly random legal actions (over gen_legal's list) until the game is over or max_actions were
    played; returns the number of actions. No allocation, no Python objects: reusable from nogil search code."""
    cdef int buf[MAX_LEGAL]
    cdef int n = 0, k
    while s.phase != PH_OVER and n < max_actions:
        k = gen_legal(s, buf)
        apply_action(s, buf[rng_below(r, k)], NULL)
        n += 1
    return n
