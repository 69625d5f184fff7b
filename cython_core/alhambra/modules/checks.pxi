# Test hook: invariants checked after every action of random games played in C (tests/core/alhambra/test_modules.py,
# the slow invariant runs). Conservation of tiles, money and falcons, and the acting seat's city valid.
# It reads the state only; it decides nothing about the rules.


cdef int _census(GameState* s, char* why) noexcept nogil:
    """0 if the state is consistent, else 1 with a short reason in why (64 bytes)."""
    cdef uint8_t seen[MAX_TILE]
    cdef uint8_t tiles[128]
    cdef int i, k, t, m, n, total, expect, f, p, x, y, types
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
        expect = (TILE_KIND[t] == KIND_BUILDING or (TILE_KIND[t] == KIND_CAMP and (s.options & OPT_CAMPS) != 0)
                  or (TILE_KIND[t] == KIND_BAZAAR and (s.options & OPT_BAZAARS) != 0))
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
    # falcons: in the supply, or on a legal corner of their seat's city, one per corner
    for f in range(NFALCONS):
        p = s.falcon_owner[f]
        if p == NO_SEAT:
            continue
        if not s.options & OPT_FALCONS or p >= s.num_players:
            memcpy(why, b"falcon owner\0", 13)
            return 1
        types = corner_types(s.cities.city[p], (s.falcon_cell[f] & 255) - 128, (s.falcon_cell[f] >> 8) - 128)
        if types < 0 or FALCON_TYPES[f] & ~types:
            memcpy(why, b"falcon corner\0", 14)
            return 1
        for k in range(f + 1, NFALCONS):
            if s.falcon_owner[k] == p and s.falcon_cell[k] == s.falcon_cell[f]:
                memcpy(why, b"two falcons\0", 12)
                return 1
    # the window's cache (window.pxi): a seat it remembers as unable to pay is unable to pay
    cdef uint64_t costs = _market_costs(s)
    if s.viz_market == four_bytes(s.market) and costs != s.viz_costs:
        memcpy(why, b"vizier costs\0", 14)
        return 1
    if s.viz_no and costs == s.viz_costs:
        for p in range(s.num_players):
            if (s.viz_no >> p) & 1 and vizier_can_buy(s, p, s.viz_costs):
                memcpy(why, b"vizier cache\0", 14)
                return 1
    if _census_change_walls(s, why):
        return 1
    return _census_thief_residents(s, why)


cdef int _census_change_walls(GameState* s, char* why) noexcept nogil:
    """Change: 6 coins per currency, held or in the bag. Walls: each wall card once (pile, face up, used); a
    used card's pieces on one tile each; every city tile shows its printed walls plus its pieces."""
    cdef int k, p, total, w, seen = 0, x, y, t, pieces = 0, used = 0
    for k in range(NCUR):
        total = s.coin_bag[k]
        for p in range(s.num_players):
            total += s.coins[p][k]
        if total != (NCOINS if s.options & OPT_CHANGE else 0):
            memcpy(why, b"coin census\0", 12)
            return 1
    for k in range(s.draw_pos, s.draw_len):
        if s.draw[k] >= WALL_CARD_FIRST:
            w = s.draw[k] - WALL_CARD_FIRST
            if (seen >> w) & 1:
                memcpy(why, b"wall card twice\0", 16)
                return 1
            seen |= 1 << w
    if seen & (s.wall_up | s.wall_used) or s.wall_up & s.wall_used \
            or (seen | s.wall_up | s.wall_used) != (255 if s.options & OPT_WALLS else 0):
        memcpy(why, b"wall card census\0", 17)
        return 1
    for t in range(1, MAX_TILE):
        pieces += s.card_walls[t] != 0
        if s.card_walls[t] & TILE_WALLS[t]:
            memcpy(why, b"piece on a wall\0", 16)
            return 1
    for p in range(s.num_players):
        pieces += s.fountain_walls[p] != 0
        for y in range(s.cities.city[p].y0, s.cities.city[p].y1 + 1):
            for x in range(s.cities.city[p].x0, s.cities.city[p].x1 + 1):
                t = city_tile(s.cities.city[p], x, y)
                if t > 0 and TILE_KIND[t] != KIND_CAMP and city_walls(s.cities.city[p], x, y) != tile_walls_now(s, t):
                    memcpy(why, b"tile walls\0", 11)
                    return 1
        if city_walls(s.cities.city[p], 0, 0) != s.fountain_walls[p]:
            memcpy(why, b"fountain walls\0", 15)
            return 1
    used = __builtin_popcountll(s.wall_used)
    if pieces != used:
        memcpy(why, b"pieces vs used cards\0", 21)
        return 1
    return 0


cdef int _census_thief_residents(GameState* s, char* why) noexcept nogil:
    """Thief cards: 3 per currency in hands, out of the game or played. Figures: 7 per type on discs, in
    buildings or in the supply; the public knowledge of each disc fits it; residents only in buildings of
    their own type in the city; a disc lies on an empty cell (or is lifted)."""
    cdef uint8_t tiles[128]
    cdef int k, p, t, m, i, total, hidden, x, y
    cdef int fig[NTYPES]
    for k in range(NCUR):
        total = s.thief_out[k] + s.thief_used[k]
        for p in range(s.num_players):
            total += s.thief[p][k]
        if total != (NTHIEVES if s.options & OPT_THIEF else 0):
            memcpy(why, b"thief census\0", 14)
            return 1
    if s.thief_holders != thief_holders_of(s):
        memcpy(why, b"thief holders\0", 15)
        return 1
    if not s.options & OPT_RESIDENTS:
        return 0
    for t in range(NTYPES):
        fig[t] = s.supply[t]
    for p in range(s.num_players):
        hidden = 0
        for t in range(NTYPES):
            fig[t] += s.disc[p][t]
            if figures_unrevealed(s):
                fig[t] += 1 - s.disc[p][t]      # setup: the seat's figure of type t kept back (or not chosen yet)
            if s.disc_seen[p][t] > s.disc[p][t]:
                memcpy(why, b"disc knowledge\0", 16)
                return 1
            m = s.disc[p][t] - s.disc_seen[p][t]
            if m > 1 or (m and (s.disc_gone[p] >> t) & 1):
                memcpy(why, b"disc first choice\0", 19)
                return 1
            hidden += m
        if hidden != s.disc_hidden[p]:
            memcpy(why, b"disc hidden count\0", 19)
            return 1
        m = mask_list(s.residents[p], tiles)
        for i in range(m):
            t = tiles[i]
            if TILE_TYPE[t] >= NTYPES or not city_holds(s.cities.city[p], t):
                memcpy(why, b"resident off its building\0", 27)
                return 1
            fig[TILE_TYPE[t]] += 1
        if s.disc_cell[p]:
            x = (s.disc_cell[p] & 255) - 128
            y = (s.disc_cell[p] >> 8) - 128
            if city_tile(s.cities.city[p], x, y) >= 0:
                memcpy(why, b"disc under a tile\0", 18)
                return 1
    for t in range(NTYPES):
        if fig[t] != NFIGURES:
            memcpy(why, b"figure census\0", 15)
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
