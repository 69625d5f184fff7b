cimport cython

# Information in the dice games (D25): hidden are the unrevealed bonus stacks and dark tiles (basic game), the
# unrevealed Alcazaba stacks (each known to hold one tile per type) and the bag order (its composition is known),
# and the rng (future rolls). Everything else is public. The observation holds every public fact, so
# determinization rebuilds a full state from it alone and resamples the hidden rest: no leak by construction.


cdef object _owner(int o):
    return None if o == EMPTY else ("dirk" if o == DIRK else o)


cdef int _owner_row(object o, int n, bint dirk) except -1:
    if o is None:
        return EMPTY
    if o == "dirk" and dirk:
        return DIRK
    if isinstance(o, int) and not isinstance(o, bool) and 0 <= o < n:
        return o
    raise ValueError(f"bad marker owner {o!r}")


def dice_observation(DiceState st, int row):
    """``DiceState.observation(seat)``: a JSON-ready dict, equal for states that differ only in hidden parts."""
    cdef DiceGame* g = &st.g
    cdef int n = g.n, i, t, r
    rows = list(range(n)) + ([DIRK] if g.dirk else [])
    obs = {
        "game": GAME_NAMES[g.game], "seat": "dirk" if row == DIRK else row, "num_players": n,
        "options": {"dirk": bool(g.dirk)}, "phase": DICE_PHASE_NAMES[g.phase],
        "current_player": -1 if g.phase == DP_OVER else g.current, "round": g.round, "turn": g.turn,
        "turn_in_round": g.turn_in_round, "start_player": g.start_player, "round_start": g.round_start,
        "markers": g.markers,
        "dice": [None if f == NO_FACE else f for f in g.dice[:NDICE]],
        "prev_dice": [None if f == NO_FACE else f for f in g.prev_dice[:NDICE]],
        "black": None if g.black == NO_FACE else g.black, "rolls": g.rolls, "prev_rolls": g.prev_rolls,
        "can_void": bool(g.can_void), "black_used": [s for s in range(n) if (g.black_used >> s) & 1],
        "columns": [[_owner(g.field[t][i]) for i in range(NFIELDS)] for t in range(NTYPES)],
        "fallen": [g.fallen[x] for x in rows], "aside": [g.aside[x] for x in rows],
        "evaluation": {"column": g.ev_col, "rank": g.ev_rank, "first": g.ev_first},
        "scores": [g.score[i] for i in range(n)], "dirk_score": g.score[DIRK] if g.dirk else None,
        "score_breakdown": st.score_breakdown(),
        "scored": g.scored,
        "history": st.history,
        "events": st.events,
        "legal_actions": st.legal_actions() if row == g.current and g.phase != DP_OVER else [],
    }
    if g.game == GAME_DICE:
        obs["bonus_fields"] = [None if c == BT_NONE else BONUS_NAMES[c] for c in g.bonus[:NTYPES]]
        obs["bonus_tiles"] = [[g.held[x][c] for c in range(NBT)] for x in rows]
        obs["building_points"] = [[g.bp[x][t] for t in range(NTYPES)] for x in rows]
        obs["arrivals"] = [[g.arrive[x][t] for t in range(NTYPES)] for x in rows]
        obs["clock"] = g.clock
        unrevealed = [0] * NBT                        # composition public, order hidden
        for i in range(5 * min(g.round, 4), NSTACK):
            unrevealed[g.stacks[i]] += 1
        obs["bonus_unrevealed"] = unrevealed
    else:
        obs["cities"] = [_cells_of(g.cities.city[i]) for i in range(n)]
        obs["reserves"] = [st.reserve(i) for i in range(n)]
        obs["dirk_tiles"] = st.dirk_tiles() if g.dirk else None
        obs["column_items"] = [st.column_items(t) for t in range(NTYPES)]
        obs["aside_tiles"] = st.aside_tiles()
        obs["pending"] = [g.pending] if g.phase == DP_PLACE else []
        obs["bag_size"] = g.abag_n
    return obs


@cython.boundscheck(True)
@cython.wraparound(True)
def dice_determinize(obs, seed):
    """A full DiceState consistent with the observation: the public facts copied, the hidden parts (D25)
    sampled uniformly from what they can be, the rng seeded from ``seed`` (so future rolls are fresh)."""
    cdef DiceState st = DiceState.__new__(DiceState)
    cdef DiceGame* g = &st.g
    cdef int n, i, t, c, k, r, x, row
    cdef uint8_t pool[64]
    cdef uint8_t bytype[NTYPES][16]
    cdef int ntype[NTYPES]
    get = obs.get if isinstance(obs, dict) else obs.to_dict().get
    try:
        game = GAME_NAMES.index(get("game"))
        n = get("num_players")
        _check_num_players(n)
        _check_seed(seed)
        memset(g, 0, sizeof(DiceGame))
        rng_seed(&g.rng, <uint64_t>seed)
        g.game = game
        g.n = n
        g.dirk = n == 2
        rows = list(range(n)) + ([DIRK] if g.dirk else [])
        g.phase = DICE_PHASE_NAMES.index(get("phase"))
        g.current = EMPTY if g.phase == DP_OVER else get("current_player")
        g.round = get("round")
        g.turn = get("turn")
        g.turn_in_round = get("turn_in_round")
        g.start_player = get("start_player")
        g.round_start = get("round_start")
        g.markers = get("markers")
        for i in range(NDICE):
            f = get("dice")[i]
            g.dice[i] = NO_FACE if f is None else f
            f = get("prev_dice")[i]
            g.prev_dice[i] = NO_FACE if f is None else f
        g.black = NO_FACE if get("black") is None else get("black")
        g.rolls = get("rolls")
        g.prev_rolls = get("prev_rolls")
        g.can_void = bool(get("can_void"))
        for x in get("black_used"):
            g.black_used |= 1 << x
        for t in range(NTYPES):
            for i in range(NFIELDS):
                g.field[t][i] = _owner_row(get("columns")[t][i], n, g.dirk)
        for k, row in enumerate(rows):
            g.fallen[row] = get("fallen")[k]
            g.aside[row] = get("aside")[k]
        ev = get("evaluation")
        g.ev_col = ev["column"]
        g.ev_rank = ev["rank"]
        g.ev_first = ev["first"]
        for i in range(n):
            g.score[i] = get("scores")[i]
        if g.dirk:
            g.score[DIRK] = get("dirk_score")
        g.scored = get("scored")
        for entry in get("score_breakdown"):
            r = entry["round"] - 1
            g.bd_mask |= 1 << r
            for k, row in enumerate(rows):
                e = entry["seats"][k] if k < n else entry["dirk"]
                for t in range(NTYPES):
                    g.breakdown[r][row][t] = e["majorities"][t]
                g.breakdown[r][row][NTYPES] = e.get("tiles", e.get("wall", 0))
        if game == GAME_DICE:
            _determinize_bonus(g, get)
        else:
            _determinize_alcazaba(g, get)
    except (KeyError, TypeError, ValueError, IndexError, OverflowError) as e:
        raise ValueError(f"not a dice-game observation: {type(e).__name__}: {e}") from None
    st._hist = list(get("history"))
    events = obs.get("events")
    st._ev = checked_events([event(None, "note", h) for h in st._hist] if events is None else events,
                            len(st._hist), ValueError)
    st._hist_len = len(st._hist)
    st.record_history = True
    st._seed = None
    return st


@cython.boundscheck(True)
@cython.wraparound(True)
cdef void _determinize_bonus(DiceGame* g, object get) except *:
    """Basic game: the public bonus state, and the unrevealed stacks / dark tiles dealt from what is left."""
    cdef int k, row, c, t, i, r, nhid
    rows = list(range(g.n)) + ([DIRK] if g.dirk else [])
    for k, row in enumerate(rows):
        for c in range(NBT):
            g.held[row][c] = get("bonus_tiles")[k][c]
        for t in range(NTYPES):
            g.bp[row][t] = get("building_points")[k][t]
            g.arrive[row][t] = get("arrivals")[k][t]
    g.clock = get("clock")
    for i in range(NTYPES):
        name = get("bonus_fields")[i]
        g.bonus[i] = BT_NONE if name is None else BONUS_NAMES.index(name)
    # the normal tiles of the unrevealed stacks (rounds after this one): composition public, order hidden
    unrevealed = list(get("bonus_unrevealed"))
    if len(unrevealed) != NBT or any(u < 0 or u > BONUS_COUNTS[0][c] for c, u in enumerate(unrevealed)) \
            or sum(unrevealed) != 5 * max(0, 4 - g.round):
        raise ValueError(f"bonus_unrevealed {unrevealed} does not fit round {g.round}")
    nhid = sum(unrevealed)
    k = 0
    for c in range(NBT):                              # revealed slots first (their order no longer matters)
        for i in range(BONUS_COUNTS[0][c] - unrevealed[c]):
            g.stacks[k] = c
            k += 1
    for c in range(NBT):
        for i in range(unrevealed[c]):
            g.stacks[k] = c
            k += 1
    rng_shuffle_u8(&g.rng, g.stacks + NSTACK - nhid, nhid)
    k = 0
    for c in range(NBT):                              # the dark tiles: shuffled (shown on the board in round 5)
        for i in range(BONUS_COUNTS[1][c]):
            g.dark[k] = c
            k += 1
    rng_shuffle_u8(&g.rng, g.dark, NDARK)


@cython.boundscheck(True)
@cython.wraparound(True)
cdef void _determinize_alcazaba(DiceGame* g, object get) except *:
    """Alcazaba: cities, reserves, Dirk's tiles and the columns as observed; the unseen tiles dealt one per type
    into each unrevealed stack (reveal order shuffled), the rest into the bag (shuffled)."""
    cdef int i, t, c, r, k, x, y, nb = 0
    cdef uint8_t bytype[NTYPES][16]
    cdef int ntype[NTYPES]
    seen = set()
    for i in range(g.n):
        g.cities.city[i] = city_new()
        grid = city_unshare(&g.cities.city[i])
        for x, y, t, w in get("cities")[i]:
            if t != FOUNTAIN:
                city_put(grid, x, y, t, TILE_WALLS[t])
                g.cities.type_count[i][TILE_TYPE[t]] += 1
                seen.add(t)
        for t in get("reserves")[i]:
            mask_set(g.cities.reserve[i], t)
            seen.add(t)
    for t in get("dirk_tiles") or []:
        mask_set(g.cities.dirk_tiles, t)
        g.cities.type_count[DIRK][TILE_TYPE[t]] += 1
        seen.add(t)
    if len(get("aside_tiles")) > 60 or any(len(get("column_items")[c]) > MAX_ITEMS for c in range(NTYPES)):
        raise ValueError("too many tiles in a column or aside")
    for c in range(NTYPES):
        for item in get("column_items")[c]:
            g.items[c][g.nitems[c]] = START_ITEM if item == "start" else item
            g.nitems[c] += 1
            if item != "start":
                seen.add(item)
    for t in get("aside_tiles"):
        g.left[g.nleft] = t
        g.nleft += 1
        seen.add(t)
    for t in get("pending"):
        g.pending = t
        g.npending = 1
        seen.add(t)
    for c in range(NTYPES):
        ntype[c] = 0
    for t in list(range(1, NBUILDINGS + 1)):
        if t not in seen:
            c = TILE_TYPE[t]
            bytype[c][ntype[c]] = t
            ntype[c] += 1
        # (tile ids outside the set would be caught by the count check below)
    for c in range(NTYPES):                           # stacks of later rounds: one unseen tile per type
        if ntype[c] < 5 - g.round:
            raise ValueError(f"no unseen {TYPE_NAMES[c]} left for stack {g.round + ntype[c] + 1}")
    nb = deal_unseen(g, bytype, ntype, g.round, True, EXTRA_TOWER not in seen)
    if nb != get("bag_size"):
        raise ValueError(f"{nb} unseen tiles are left for the bag, the observation says {get('bag_size')}")
