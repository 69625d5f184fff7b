# Test hook: invariants checked after every action of random games played in C (tests/core/alhambra/test_modules.py,
# the slow invariant runs). Conservation of tiles and money, the cities valid, and each module's census hook
# (modules/table.pxi).
# It reads the state only; it decides nothing about the rules.


cdef int _census(GameState* s, char* why) noexcept nogil:
    """0 if the state is consistent, else 1 with a short reason in why (64 bytes)."""
    cdef uint8_t seen[MAX_TILE]
    cdef uint8_t tiles[128]
    cdef int i, k, t, m, n, total, expect, p, x, y
    cdef int where[2]
    memset(seen, 0, MAX_TILE)
    # tiles: every tile of the game in exactly one place
    for k in range(NCUR):
        if s.market[k] != NO_TILE:
            seen[s.market[k]] += 1
        if s.final_tile[k] != NO_TILE and s.final_seat[k] != NO_SEAT:
            p = s.final_seat[k]
            if (p - s.ender - 1 + 2 * s.num_players) % s.num_players >= s.final_pos:
                seen[s.final_tile[k]] += 1     # not handed out yet
    for i in range(s.bag_n):
        seen[s.bag[i]] += 1
    for i in range(s.npending):
        seen[s.pending[i]] += 1
    for i in range(NBAZAARS):
        if (s.bazaar_wait >> i) & 1:
            seen[BAZAAR_FIRST + i] += 1
    m = mask_list(s.cities.dirk_tiles, tiles)
    for i in range(m):
        seen[tiles[i]] += 1
    for p in range(s.num_players):
        m = mask_list(s.cities.reserve[p], tiles)
        for i in range(m):
            seen[tiles[i]] += 1
        for y in range(s.cities.city[p].y0, s.cities.city[p].y1 + 1):
            for x in range(s.cities.city[p].x0, s.cities.city[p].x1 + 1):
                t = city_tile(s.cities.city[p], x, y)
                if t > 0:
                    seen[t] += 1
        if city_validate(s.cities.city[p], where):
            memcpy(why, b"invalid city\0", 13)
            return 1
    for t in range(1, MAX_TILE):
        expect = TILE_KIND[t] == KIND_BUILDING or (s.options & TILE_KIND_BIT[TILE_KIND[t]]) != 0
        if seen[t] != expect:
            memcpy(why, b"tile census\0", 12)
            return 1
    # money: every card in one place (scoring cards: undrawn in the pile, or drawn)
    total = s.discard_n
    for p in range(s.num_players):
        total += s.hand_n[p]
    for i in range(4):
        total += s.display[i] != NO_CARD
    n = 0
    for i in range(s.draw_pos, s.draw_len):
        if s.draw[i] < NCARD_KINDS:
            n += 1
    if total + n != NCARD_KINDS * (2 if s.options & OPT_DIRK else 3):
        memcpy(why, b"money census\0", 13)
        return 1
    # the modules' parts, every module's whether it is on or not
    for i in range(NMODULES):
        if MODULES_TABLE[i].census != NULL and MODULES_TABLE[i].census(s, why):
            return 1
    return 0


def _invariant_games(int num_players, int games, seed0, options=None):
    """Play `games` uniformly random games in C, checking _census after every action; returns (actions, None)
    or raises AssertionError naming the game, the action and the broken invariant."""
    cdef GameState g
    cdef Rng r
    cdef int i, k, code, total = 0
    cdef char why[64]
    cdef uint64_t seed = seed0
    bits, _ = _normalize_options(num_players, options)
    cdef GenCache* gc = gen_cache_new()
    if gc == NULL:
        raise MemoryError()
    try:
        for i in range(games):
            setup_game(&g, num_players, seed + i, bits, NULL)
            rng_seed(&r, seed + i)
            gen_cache_reset(gc)
            k = 0
            try:
                while g.phase != PH_OVER:
                    code = sample_legal(&g, gc, &r)
                    if code < 0 or check_action(&g, code) != E_OK:
                        raise AssertionError(f"game {seed + i}: action {k} ({code}) is not legal")
                    gen_cache_touch(gc, &g, code)
                    apply_action(&g, code, NULL)
                    k += 1
                    if _census(&g, why):
                        raise AssertionError(f"game {seed + i}, after action {k}: {why.decode()}")
                total += k
            finally:
                state_release(&g)
    finally:
        free(gc)
    return total


def _check_module_sampler(State st, seed, int max_actions=100000):
    """(test hook) Play a random playout from a copy of st; before every action compare what the random
    player draws from (draw_plan / draw_pick for every index) with gen_legal_cached's list: the same list in
    the same order without the Camps module, the same multiset of actions after dropping the refused draws
    with it (so each legal action has exactly one index: the draw is uniform). Returns the number
    of states compared; raises AssertionError on the first difference."""
    cdef GameState g
    cdef Rng r
    cdef Draw d
    cdef GenCache* gc = gen_cache_new()
    cdef int* buf = <int*>malloc(MAX_LEGAL * sizeof(int))
    cdef int n = 0, code, k, m, refused = 0
    state_copy(&g, &st.st)
    rng_seed(&r, <uint64_t>seed)
    try:
        while g.phase != PH_OVER and n < max_actions:
            draw_plan(&g, gc, &d)
            drawn = [draw_pick(&g, gc, &d, k) for k in range(d.total)]
            m = gen_legal_cached(&g, gc, buf)
            listed = [buf[k] for k in range(m)]
            refused += drawn.count(DRAW_AGAIN)
            if not drawn or (g.phase == PH_ACTION and all(c == DRAW_AGAIN for c in drawn)):
                drawn = [A_PASS] if g.phase == PH_ACTION else []
            if not (g.options & OPT_CAMPS):
                if drawn != listed:
                    raise AssertionError(f"draws differ from the list after {n} actions: {drawn} != {listed}")
            elif sorted(c for c in drawn if c != DRAW_AGAIN) != sorted(listed):
                raise AssertionError(f"accepted draws differ from the list after {n} actions (camps): "
                                     f"{sorted(drawn)} != {sorted(listed)}")
            code = sample_legal(&g, gc, &r)
            gen_cache_touch(gc, &g, code)
            apply_action(&g, code, NULL)
            n += 1
        return n, refused
    finally:
        state_release(&g)
        free(gc)
        free(buf)
