# The modules' actions in the turn flow (rules.md §9.0-9.8): what gen_legal adds, what check_action and
# apply_effect hand over for the kinds A_BAZAAR .. A_EXT and for the modules' phases, and what follows; each
# through the hooks of modules/table.pxi (dispatch.pxi: their direct calls; included by actions.pxi).


cdef inline bint tile_in_game(GameState* s, int t) noexcept nogil:
    """t names a tile that exists in this game (not the fountain): a building, or a tile of a module on."""
    if t <= FOUNTAIN or t > LAST_TILE:
        return 0
    return TILE_KIND[t] == KIND_BUILDING or (s.options & TILE_KIND_BIT[TILE_KIND[t]]) != 0


cdef inline int gen_action_modules(GameState* s, int* out, int* falcons_at, BuyMemo* memo,
                                   GenCache* gc) noexcept nogil:
    """The modules' actions in the action phase, after take and buy: each module's gen_action in the order of
    their action_at (bazaars, wake, falcons, wall cards). falcons_at: NULL, or where the random player
    (modules/sample.pxi), who counts the falcon purchases, is told their position in the list instead of
    getting them listed. A new module's action kind listed here is drawn by the random player with no
    further change. Inline, with direct calls (dispatch.pxi): the random player asks it on every draw of the
    action phase, where its frame cost as much as the usual answers (the wall cards' loops stay out of line:
    gen_walls_ptr). gc: the GenCache whose seat views the wall cards read, or NULL."""
    return module_gen_action(s, out, falcons_at, memo, gc)


cdef int gen_module_phase(GameState* s, int* out, BuyMemo* memo) noexcept nogil:
    """The legal actions of the modules' phases: each module's part (gen_phase, in the table's order), then
    "done" unless the phase is closed (the modules' phases follow PH_OVER). memo: NULL, or the seat's BuyMemo
    of a GenCache (the vizier's exact payments)."""
    cdef int n
    if s.phase <= PH_OVER:
        return 0
    n = module_gen_phase(s, out, memo)
    if (CLOSED_PHASES >> s.phase) & 1:
        return n
    out[n] = A_DONE
    return n + 1


cdef int check_module_action(GameState* s, int code) noexcept nogil:
    """check_action for the modules' kinds in the action phase, and for every code in the modules' phases:
    the module owning the code is asked first, then every module (its phases, the window's buys); a code no
    module takes is "done" (the window), or wrong here."""
    cdef ModuleHooks* owner = code_owner(code)
    cdef int i, r
    if owner == NULL and (code & 15) == A_EXT:
        return E_CODE                       # an A_EXT sub-kind no module owns
    if owner != NULL and owner.check != NULL:
        r = owner.check(s, code)
        if r >= 0:
            return r
    for i in range(NMODULES):
        if &MODULES_TABLE[i] != owner and MODULES_TABLE[i].check != NULL:
            r = MODULES_TABLE[i].check(s, code)
            if r >= 0:
                return r
    if (code & 15) == A_DONE:
        if s.phase == PH_INTERRUPT:
            return E_OK if code == A_DONE else E_CODE
        return E_DONE if code == A_DONE else E_CODE
    return E_WINDOW if s.phase == PH_INTERRUPT else E_CODE


cdef int apply_module_action(GameState* s, int code) noexcept nogil:
    """apply_effect for the kinds A_BAZAAR ..: the owner's apply ("done": the phase's owner's, or the
    window's next seat, or the end of the seat's actions)."""
    cdef ModuleHooks* m
    if (code & 15) == A_DONE:
        m = PHASE_OWNER[s.phase]
        if m != NULL:
            return m.apply(s, code)
        return WINDOW_NEXT if s.phase == PH_INTERRUPT else ACTIONS_OVER
    m = code_owner(code)
    if m == NULL or m.apply == NULL:
        return ACTIONS_OVER                 # (no such code is legal)
    return m.apply(s, code)


cdef int module_gen_legal(GameState* s, GenCache* gc, int* out) noexcept nogil:
    """gen_legal_cached for a game with a module that lists every legal action itself (camps)."""
    cdef int i
    for i in range(NMODULES):
        if s.options & MODULES_TABLE[i].bit and MODULES_TABLE[i].gen_legal != NULL:
            return MODULES_TABLE[i].gen_legal(s, gc, out)
    return 0
