# The modules' actions in the turn flow (rules.md §9.0-9.4): what gen_legal adds, check_action and
# apply_effect hand over for the kinds A_BAZAAR .. A_FALCON and for the phases "interrupt" and "falcons", and
# the action generation of games with camps (included by actions.pxi).


cdef inline bint tile_in_game(GameState* s, int t) noexcept nogil:
    """t names a tile that exists in this game (not the fountain)."""
    if t <= FOUNTAIN or t > LAST_TILE:
        return 0
    if TILE_KIND[t] == KIND_CAMP:
        return (s.options & OPT_CAMPS) != 0
    if TILE_KIND[t] == KIND_BAZAAR:
        return (s.options & OPT_BAZAARS) != 0
    return TILE_KIND[t] == KIND_BUILDING


cdef inline int gen_action_modules(GameState* s, int* out, int* falcons_at, BuyMemo* memo,
                                   GenCache* gc) noexcept nogil:
    """The modules' actions in the action phase, after take and buy: bazaars, wake, falcons, wall cards.
    falcons_at: NULL, or where the random player (modules/sample.pxi), who counts the falcon purchases, is
    told their position in the list instead of getting them listed. A new module's action kind listed here is
    drawn by the random player with no further change. Inline: the random player asks it on every draw of the
    action phase, where its frame cost as much as the usual answers (the wall cards' loops stay out of line:
    gen_walls_ptr). gc: the GenCache whose seat views the wall cards read, or NULL."""
    cdef int n = 0
    if s.options & OPT_BAZAARS:
        n += gen_bazaar_buys(s, s.current, out + n, memo)
    if s.options & OPT_VIZIER and not (s.vizier_awake >> s.current) & 1:
        out[n] = A_WAKE
        n += 1
    if s.options & OPT_FALCONS and falcons_at != NULL:
        falcons_at[0] = n
    elif s.options & OPT_FALCONS:
        n += gen_falcons(s, out + n, MAX_LEGAL // 2 - n)
    if s.options & OPT_WALLS and s.wall_up:
        n += gen_walls_ptr(s, out + n, gc)
    return n


cdef int gen_module_phase(GameState* s, int* out, BuyMemo* memo) noexcept nogil:
    """The legal actions of the phases "interrupt", "falcons", "resident", "disc" and "figures". memo: NULL,
    or the seat's BuyMemo of a GenCache (the vizier's exact payments)."""
    cdef int n = 0
    if s.phase == PH_INTERRUPT:
        n = gen_vizier(s, s.current, out, memo)
        n += gen_thief(s, s.current, out + n)
    elif s.phase == PH_RESIDENT:
        n = gen_residents(s, out)
    elif s.phase == PH_DISC or s.phase == PH_FIGURES:
        return gen_residents(s, out)            # the disc must go back, the figures be chosen: no "done"
    elif s.phase == PH_FALCONS:
        n = gen_falcons(s, out, MAX_LEGAL - 1)
    else:
        return 0
    out[n] = A_DONE
    return n + 1


cdef int check_module_action(GameState* s, int code) noexcept nogil:
    """check_action for the module kinds in the action phase, and for every kind in "interrupt" / "falcons"."""
    cdef int kind = code & 15, seat = s.current, r, k
    if kind == A_EXT and (code >> 4) & 15 != SUB_WALL:
        return check_residents(s, code)
    if s.phase == PH_INTERRUPT:
        if kind == A_DONE:
            return E_OK if code == A_DONE else E_CODE
        if kind == A_THIEF:
            return check_thief(s, code)
        if kind != A_BUY and kind != A_BAZAAR:
            return E_WINDOW
        if not (s.vizier_awake >> seat) & 1:
            return E_VIZIER_ASLEEP
        if kind == A_BAZAAR:
            return check_bazaar(s, code)
        r = buy_total(s, code)
        if r < 0:
            return -r
        return E_OK if r == TILE_COST[s.market[(code >> 4) & 3]] else E_NOT_EXACT
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
    if kind == A_THIEF:
        return check_thief(s, code)
    if kind == A_EXT:
        return check_ext(s, code)
    if kind != A_FALCON:
        return E_CODE
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
        if s.phase == PH_RESIDENT:
            return RESIDENT_DONE
        return WINDOW_NEXT if s.phase == PH_INTERRUPT else ACTIONS_OVER
    if kind == A_EXT and (code >> 4) & 15 == SUB_WALL:
        apply_wall(s, code)
        s.actions_taken += 1
        return ACTIONS_OVER                 # a wall card is an action like take: nothing follows
    if kind == A_THIEF:
        apply_thief(s, code)
        return THIEF_USED
    if kind == A_EXT:
        apply_residents(s, code)
        if (code >> 4) & 15 == SUB_DISC:
            return DISC_BACK
        if (code >> 4) & 15 == SUB_FIGURES:
            return FIGURES_CHOSEN               # (the phase "disc" follows: nothing else happens)
        return RESIDENT_MOVED if (code >> 4) & 15 == SUB_RESIDENT else RESIDENT_DONE
    apply_falcon(s, code)
    return GOES_ON


cdef void module_follows(GameState* s, int follows, EventLog* log) noexcept nogil:
    """What follows the Thief's and the Residents' actions (apply_action's part for THIEF_USED ..)."""
    if follows == THIEF_USED:
        thief_after_use(s, log)
    elif follows == RESIDENT_MOVED or follows == RESIDENT_DONE:
        if follows == RESIDENT_MOVED:
            resident_draw(s, log)
        s.phase = s.res_phase                   # go on where the placement left off
        if s.phase == PH_ACTION:
            after_action(s, log)
        else:
            _after_place(s, log)
    elif follows == DISC_BACK:
        if s.setup_left:
            setup_disc_placed(s)                # setup: the next seat chooses, or the first turn
        elif s.in_window:
            window_after_use(s, log)
        else:
            finish_turn(s, log)


# ---------------------------------------------------------------- games with camps

cdef int _cells_for(CityGrid* c, int t, int walls, int* cells) noexcept nogil:
    if TILE_KIND[t] == KIND_CAMP:
        return camp_place_cells(c, TILE_WALLS[t], cells)
    return city_place_cells(c, walls, cells)


cdef int gen_legal_camps(GameState* s, GenCache* gc, int* out) noexcept nogil:
    """gen_legal for games with the Camps module: the same lists, from the city's own (camp-aware) answers
    instead of the CityView mirrors (which know walls only)."""
    cdef CityGrid* c = s.cities.city[s.current]
    cdef uint8_t tiles[128]
    cdef int cells[CITY_MAX_CELLS]
    cdef int n = 0, nt, i, j, m, t
    cdef bint dirk
    if s.phase == PH_ACTION:
        n = gen_take(s, out)
        n += gen_buy(s, out + n, NULL if gc == NULL else gc.buy[s.current])
        n += gen_action_modules(s, out + n, NULL, NULL if gc == NULL else gc.buy[s.current], gc)
        nt = mask_list(s.cities.reserve[s.current], tiles)
        for i in range(nt):
            m = _cells_for(c, tiles[i], tile_walls_now(s, tiles[i]), cells)
            for j in range(m):
                out[n] = code_cell(A_BUILD, tiles[i], cells[j])
                n += 1
        m = city_remove_cells(c, cells)
        for j in range(m):
            out[n] = code_cell(A_REMOVE, city_tile(c, (cells[j] & 255) - 128, (cells[j] >> 8) - 128), cells[j])
            n += 1
        for i in range(nt):
            t = tiles[i]
            m = 0 if TILE_KIND[t] == KIND_CAMP else city_swap_cells(c, tile_walls_now(s, t), cells)
            m += camp_swap_cells(c, t, tile_walls_now(s, t), cells + m)
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
            m = _cells_for(c, t, tile_walls_now(s, t), cells)
            for j in range(m):
                out[n] = code_cell(A_PLACE, t, cells[j])
                n += 1
            n += gen_place_aside(t, dirk, out + n)
        return n
    return gen_module_phase(s, out, NULL if gc == NULL else gc.buy[s.current])


# ---------------------------------------------------------------- text forms of the Thief and the Residents

def residents_text(int code):
    """Text of a residents' code: "resident 17", "exchange seraglio tower", "disc 1,-2",
    "figures pavilion seraglio tower" (the types in the order of TYPE_NAMES)."""
    cdef int sub = (code >> 4) & 15
    if sub == SUB_RESIDENT:
        if code >> 16 or not 1 <= (code >> 8) <= LAST_TILE:
            raise ValueError(f"not an action code: {code}")
        return f"resident {code >> 8}"
    if sub == SUB_EXCHANGE:
        if code >> 14 or ((code >> 8) & 7) >= NTYPES or ((code >> 11) & 7) >= NTYPES:
            raise ValueError(f"not an action code: {code}")
        return f"exchange {TYPE_NAMES[(code >> 8) & 7]} {TYPE_NAMES[(code >> 11) & 7]}"
    if sub == SUB_FIGURES:
        if code >> 14 or bin((code >> 8) & 63).count("1") != 3:
            raise ValueError(f"not an action code: {code}")
        return "figures " + " ".join(TYPE_NAMES[t] for t in range(NTYPES) if (code >> (8 + t)) & 1)
    if code >> 24:
        raise ValueError(f"not an action code: {code}")
    x, y = _unpack_cell((code >> 8) & 0xFFFF)
    return f"disc {x},{y}"


def _figure_type_arg(str verb, str word):
    if word not in TYPE_NAMES:
        raise ValueError(f"{verb}: no building type {word!r} ({', '.join(TYPE_NAMES)})")
    return TYPE_NAMES.index(word)


cdef int _parse_residents_thief(GameState* s, str verb, list args) except -1:
    """Text -> code for "thief y6", "resident 17", "exchange seraglio tower", "disc 1,-2", "figures a b c"."""
    cdef int i, c
    if verb == "thief":
        if len(args) != 1:
            raise ValueError("thief: name the display card taken, e.g. 'thief y6'")
        c = parse_card(args[0])
        for i in range(4):
            if s.display[i] == c:
                return A_THIEF | (i << 4)
        shown = " ".join(card_text(d) for d in s.display[:4] if d != NO_CARD) or "empty"
        raise ValueError(f"thief: {card_text(c)} is not in the display ({shown})")
    if verb == "resident":
        if len(args) != 1:
            raise ValueError("resident: name the building that lifted the disc, e.g. 'resident 17'")
        return A_EXT | (SUB_RESIDENT << 4) | (_parse_tile(args[0]) << 8)
    if verb == "exchange":
        if len(args) != 2:
            raise ValueError("exchange: name the type given and the type taken, e.g. 'exchange seraglio tower'")
        return A_EXT | (SUB_EXCHANGE << 4) | ((_figure_type_arg(verb, args[0]) | (_figure_type_arg(verb, args[1]) << 3)) << 8)
    if verb == "figures":
        if len(args) != 3 or len(set(args)) != 3:
            raise ValueError("figures: name 3 different building types for your disc, e.g. "
                             "'figures garden seraglio tower'")
        c = 0
        for w in args:
            c |= 1 << _figure_type_arg(verb, w)
        return A_EXT | (SUB_FIGURES << 4) | (c << 8)
    if len(args) != 1:
        raise ValueError("disc: name the cell, e.g. 'disc 1,-2'")
    x, y = _parse_cell(args[0])
    return A_EXT | (SUB_DISC << 4) | (city_pack(x, y) << 8)
