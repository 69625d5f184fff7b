# What the modules' points are worth to the bots (rules.md §9.1-9.4): one place for the valuation that greedy,
# expectimax and the MCTS evaluation add to the base game's (search.pxi calls these through one-line hooks).
#
# - camps: the arrow lines as they stand now score again in every round still to come;
# - bazaars: their neighbourhoods as they stand now score once, in round 3;
# - falcons: the sets held now score in every round still to come;
# - the vizier: an awake vizier is a possible extra tile later (worth less as the game nears its end);
# - coins (Change) are money like cards; wall pieces (Walls) count through the city's wall score, and a wall
#   card action is worth the longer outer wall it makes in the rounds still to come.
# - thieves: each card in hand is a card of money later (worth less as the game nears its end);
# - residents: the groups as they stand now score again in every round still to come; a figure on the disc
#   is a possible resident (a little).
# A camp or bazaar not yet in a city (pending / reserve) is valued by what it could add where it may go.

cdef double MOD_VIZIER = 2.0        # an awake vizier (an extra exact buy out of turn, once)
cdef double MOD_CAMP = 1.5          # a camp off the city: per bastion, per round left (a line of ~1.5 tiles)
cdef double MOD_BAZAAR = 3.0        # a bazaar off the city (round 3: a few neighbours of its types)
cdef double MOD_WALL_RESERVE = 0.3  # wall pieces on a reserve tile (they may lengthen a wall later)
cdef double MOD_THIEF = 1.2         # a thief card in hand (one display card, out of turn)
cdef double MOD_FIGURE = 0.4        # a figure on the disc (a possible resident), per round left


cdef inline int rounds_left(GameState* s) noexcept nogil:
    return 3 - __builtin_popcountll(s.scored & 7)


cdef double module_tile_worth(GameState* s, int seat, int t) noexcept nogil:
    """tile_worth for a camp or a bazaar (no building type): what it may add to the seat's points."""
    if TILE_KIND[t] == KIND_CAMP:
        return MOD_CAMP * __builtin_popcountll(TILE_WALLS[t]) * rounds_left(s)
    if TILE_KIND[t] == KIND_BAZAAR:
        return MOD_BAZAAR if not s.scored & 4 else 0.0
    return 0.0


cdef void module_values(GameState* s, double* out) noexcept nogil:
    """Add the modules' expected points per seat to out (eval_values' projection of the base game)."""
    cdef int i, k, n = s.num_players, left = rounds_left(s)
    cdef double p = game_progress(s)
    for i in range(n):
        if s.options & OPT_CAMPS:
            out[i] += left * city_camp_score(s.cities.city[i])
        if s.options & OPT_BAZAARS and left > 0:
            out[i] += city_bazaar_score(s.cities.city[i])
        if s.options & OPT_FALCONS:
            out[i] += left * falcon_points(s, i)
        if s.options & OPT_VIZIER and (s.vizier_awake >> i) & 1:
            out[i] += MOD_VIZIER * (1.0 - p)
        if s.options & OPT_CHANGE:
            out[i] += EV_MONEY * (1.0 - 0.6 * p) * (s.coins[i][0] + s.coins[i][1] + s.coins[i][2] + s.coins[i][3])
        if s.options & OPT_THIEF:
            out[i] += MOD_THIEF * (1.0 - p) * thief_count(s, i)
        if s.options & OPT_RESIDENTS:
            out[i] += left * (resident_points(s, i) + MOD_FIGURE * disc_count(s, i))
    if s.phase == PH_PLACE or s.phase == PH_FINAL:
        for k in range(s.npending):
            if TILE_TYPE[s.pending[k]] >= NTYPES:
                out[s.current] += 0.5 * module_tile_worth(s, s.current, s.pending[k])


cdef double module_action_prior(GameState* s, int a) noexcept nogil:
    """action_prior for the modules' kinds (points-like scale; only the order matters)."""
    cdef int kind = a & 15, f, k
    if kind == A_BAZAAR:
        return module_tile_worth(s, s.current, BAZAAR_FIRST + ((a >> 4) & 7)) + 1.0
    if kind == A_WAKE:
        return MOD_VIZIER * (1.0 - game_progress(s)) - 1.0
    if kind == A_EXT and (a >> 4) & 15 == SUB_WALL:
        k = wall_score_gain(s, a)
        return (k * rounds_left(s) if k > 0 else MOD_WALL_RESERVE) - 0.5
    if kind == A_THIEF:
        return 0.5 * card_value(s.display[(a >> 4) & 3]) - MOD_THIEF * (1.0 - game_progress(s)) + 1.0
    if kind == A_EXT:
        return residents_prior(s, a)
    if kind == A_FALCON:
        f = (a >> 4) & 15
        s.falcon_owner[f] = s.current              # the set value it adds, less the card it costs
        kind = falcon_points(s, s.current)
        s.falcon_owner[f] = NO_SEAT
        return (kind - falcon_points(s, s.current)) * rounds_left(s) * 0.5 - 0.4 * card_value((a >> 8) & 63)
    return 0.0


cdef double residents_prior(GameState* s, int a) noexcept nogil:
    """A resident moving in: what it adds to the groups; an exchange: a figure of a type in the market for one
    that is not; the figures: types the market offers; the disc: a cell with more tiles around (it is likely
    to be built on)."""
    cdef int sub = (a >> 4) & 15, seat = s.current, before, k, t, x, y, g, b2, a2
    if sub == SUB_RESIDENT:
        before = resident_points(s, seat)
        mask_set(s.residents[seat], s.res_tile)
        g = resident_points(s, seat) - before
        mask_clear(s.residents[seat], s.res_tile)
        return g * rounds_left(s) + 1.0
    if sub == SUB_EXCHANGE:
        a2 = (a >> 8) & 7
        b2 = (a >> 11) & 7
        g = 0
        for k in range(NCUR):
            t = s.market[k]
            if t != NO_TILE and TILE_TYPE[t] < NTYPES:
                g += (TILE_TYPE[t] == b2) - (TILE_TYPE[t] == a2)
        return 0.5 * g - 0.1
    if sub == SUB_FIGURES:
        g = 0                               # types the market offers now are the likelier first residents
        for k in range(NCUR):
            t = s.market[k]
            if t != NO_TILE and TILE_TYPE[t] < NTYPES:
                g += ((a >> (8 + TILE_TYPE[t])) & 1)
        return 0.1 + 0.2 * g
    x = ((a >> 8) & 255) - 128
    y = ((a >> 16) & 255) - 128
    g = 0
    g += city_tile(s.cities.city[seat], x + 1, y) >= 0
    g += city_tile(s.cities.city[seat], x - 1, y) >= 0
    g += city_tile(s.cities.city[seat], x, y + 1) >= 0
    g += city_tile(s.cities.city[seat], x, y - 1) >= 0
    return 0.1 + 0.2 * g


cdef int module_policy(GameState* s, Rng* r, int* buf) noexcept nogil:
    """The rollout policy in the phases "interrupt", "falcons", "resident", "disc" and "figures": the best
    action by prior, or "done" (the disc: the best cell; the figures: any)."""
    cdef int n = gen_legal(s, buf), i, best = -1
    cdef double b = 0.0, v
    for i in range(n):
        if (buf[i] & 15) == A_DONE:
            continue
        v = action_prior(s, buf[i]) + rng_below(r, 100) * 1e-4
        if v > b:
            b = v
            best = i
    if best < 0 and s.phase == PH_DISC:
        return buf[0]
    if best < 0 and s.phase == PH_FIGURES:
        return buf[rng_below(r, n)]         # (no prior for a secret choice: any of the 20)
    return buf[best] if best >= 0 else A_DONE
