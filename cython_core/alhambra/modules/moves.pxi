# The modules' actions in the turn flow (RULES §9.0-9.4): what gen_legal adds, check_action and apply_effect
# hand over for the kinds A_BAZAAR .. A_FALCON and for the phases "interrupt" and "falcons", and the action
# generation of games with camps (included by actions.pxi).


cdef inline bint tile_in_game(GameState* s, int t) noexcept nogil:
    """t names a tile that exists in this game (not the fountain)."""
    if t <= FOUNTAIN or t > LAST_TILE:
        return 0
    if TILE_KIND[t] == KIND_CAMP:
        return (s.options & OPT_CAMPS) != 0
    if TILE_KIND[t] == KIND_BAZAAR:
        return (s.options & OPT_BAZAARS) != 0
    return TILE_KIND[t] == KIND_BUILDING


cdef int gen_action_modules(GameState* s, int* out, int* falcons_at) noexcept nogil:
    """The modules' actions in the action phase, after take and buy: bazaars, wake, falcons. falcons_at: NULL,
    or where the random player (modules/sample.pxi), who counts the falcon purchases, is told their position
    in the list instead of getting them listed. A new module's action kind listed here is drawn by the random
    player with no further change."""
    cdef int n = 0
    if s.options & OPT_BAZAARS:
        n += gen_bazaar_buys(s, s.current, out + n)
    if s.options & OPT_VIZIER and not (s.vizier_awake >> s.current) & 1:
        out[n] = A_WAKE
        n += 1
    if s.options & OPT_FALCONS and falcons_at != NULL:
        falcons_at[0] = n
    elif s.options & OPT_FALCONS:
        n += gen_falcons(s, out + n, MAX_LEGAL // 2 - n)
    return n


cdef int gen_module_phase(GameState* s, int* out) noexcept nogil:
    """The legal actions of the phases "interrupt" and "falcons"."""
    cdef int n = 0
    if s.phase == PH_INTERRUPT:
        n = gen_vizier(s, s.current, out)
    elif s.phase == PH_FALCONS:
        n = gen_falcons(s, out, MAX_LEGAL - 1)
    else:
        return 0
    out[n] = A_DONE
    return n + 1


cdef int check_module_action(GameState* s, int code) noexcept nogil:
    """check_action for the module kinds in the action phase, and for every kind in "interrupt" / "falcons"."""
    cdef int kind = code & 15, seat = s.current, r, k
    if s.phase == PH_INTERRUPT:
        if kind == A_DONE:
            return E_OK if code == A_DONE else E_CODE
        if kind != A_BUY and kind != A_BAZAAR:
            return E_WINDOW
        if not (s.vizier_awake >> seat) & 1:
            return E_VIZIER_ASLEEP
        if kind == A_BAZAAR:
            return check_bazaar(s, code)
        if code >> 24:
            return E_CODE
        k = (code >> 4) & 3
        if s.market[k] == NO_TILE:
            return E_BUY_EMPTY
        r = check_payment(s, k, (code >> 6) & 0x3FFFF)
        if r < 0:
            return -r
        return E_OK if r == TILE_COST[s.market[k]] else E_NOT_EXACT
    if s.phase == PH_FALCONS:
        if kind == A_DONE:
            return E_OK if code == A_DONE else E_CODE
        if kind != A_FALCON:
            return E_FALCON_PHASE
        return check_falcon(s, code)
    # the action phase
    if kind == A_BAZAAR:
        return check_bazaar(s, code)
    if kind == A_WAKE:
        if code != A_WAKE:
            return E_CODE
        if not (s.options & OPT_VIZIER):
            return E_NO_MODULE
        return E_VIZIER_AWAKE if (s.vizier_awake >> seat) & 1 else E_OK
    if kind == A_DONE:
        return E_DONE if code == A_DONE else E_CODE
    return check_falcon(s, code)


cdef inline int vizier_bought(GameState* s) noexcept nogil:
    """The window's seat bought with its vizier: the vizier sleeps; the tile is placed at once."""
    s.vizier_awake &= ~(1 << s.current)
    s.phase = PH_PLACE
    return GOES_ON


cdef int apply_module_action(GameState* s, int code) noexcept nogil:
    """apply_effect for the kinds A_BAZAAR .. A_FALCON."""
    cdef int kind = code & 15
    if kind == A_BAZAAR:
        apply_bazaar(s, code)
        if s.phase == PH_INTERRUPT:
            return vizier_bought(s)
        s.actions_taken += 1
        return GOES_ON                      # a bazaar is always paid exactly
    if kind == A_WAKE:
        s.vizier_awake |= 1 << s.current
        s.actions_taken += 1
        return ACTIONS_OVER
    if kind == A_DONE:
        return WINDOW_NEXT if s.phase == PH_INTERRUPT else ACTIONS_OVER
    apply_falcon(s, code)
    return GOES_ON


# ---------------------------------------------------------------- games with camps

cdef int _cells_for(CityGrid* c, int t, int* cells) noexcept nogil:
    if TILE_KIND[t] == KIND_CAMP:
        return camp_place_cells(c, TILE_WALLS[t], cells)
    return city_place_cells(c, TILE_WALLS[t], cells)


cdef int gen_legal_camps(GameState* s, GenCache* gc, int* out) noexcept nogil:
    """gen_legal for games with the Camps module: the same lists, from the city's own (camp-aware) answers
    instead of the CityView mirrors (which know walls only)."""
    cdef CityGrid* c = s.city[s.current]
    cdef uint8_t tiles[128]
    cdef int cells[CITY_MAX_CELLS]
    cdef int n = 0, nt, i, j, m, t
    cdef bint dirk
    if s.phase == PH_ACTION:
        n = gen_take(s, out)
        n += gen_buy(s, out + n, NULL if gc == NULL else gc.buy[s.current])
        n += gen_action_modules(s, out + n, NULL)
        nt = mask_list(s.reserve[s.current], tiles)
        for i in range(nt):
            m = _cells_for(c, tiles[i], cells)
            for j in range(m):
                out[n] = code_cell(A_BUILD, tiles[i], cells[j])
                n += 1
        m = city_remove_cells(c, cells)
        for j in range(m):
            out[n] = code_cell(A_REMOVE, city_tile(c, (cells[j] & 255) - 128, (cells[j] >> 8) - 128), cells[j])
            n += 1
        for i in range(nt):
            t = tiles[i]
            m = 0 if TILE_KIND[t] == KIND_CAMP else city_swap_cells(c, TILE_WALLS[t], cells)
            m += camp_swap_cells(c, t, cells + m)
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
            m = _cells_for(c, t, cells)
            for j in range(m):
                out[n] = code_cell(A_PLACE, t, cells[j])
                n += 1
            out[n] = A_PLACE_RESERVE | (t << 4)
            n += 1
            if dirk:
                out[n] = A_PLACE_DIRK | (t << 4)
                n += 1
        return n
    return gen_module_phase(s, out)
