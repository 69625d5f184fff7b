# The Residents (rules.md §9.8): each seat's merchant disc with its secret figures, residents in buildings,
# the common supply, and their scoring.
#
# Setup (after the rest of the setup, new_game): every seat takes one figure of each type; from the start
# player on, each seat in turn secretly chooses 3 of them for its disc (phase "figures": `figures garden
# seraglio tower`), then puts the disc on an empty cell beside the fountain (phase "disc"). The 3 figures a
# seat keeps back are set aside face down and go to the supply together once every seat has chosen, so the
# supply never tells one seat's choice. (State.from_setup deals the discs at random instead: a custom setup
# names every secret or leaves it to the RNG.)
# When a seat places a tile (bought, from the reserve, a vizier's, a leftover) on its disc's cell, the disc
# is lifted and the phase "resident" asks: if a disc figure has the building's type it may move in (one
# resident per building, never on camps or bazaars) and a random supply figure goes onto the disc; otherwise
# one disc figure may be exchanged for a supply figure of the seat's choice; or "done". At the end of the
# turn (for a vizier's tile: right after its placement) the phase "disc" puts the disc back on an empty cell
# beside any tile of the city. (Decision: in the final distribution the disc is lifted but not put back: no
# turn follows.) A resident whose building is removed or swapped goes back to the supply.
#
# Information (rules.md §8): the supply is public, so every figure that arrives on a disc from the supply is
# seen by all (disc_seen); what stays secret is the first choice of 3 (distinct types), less the figures of
# it that have left (disc_hidden of them remain; disc_gone: the types known to have left). determinize
# samples exactly that (observe.pxi). The history line of a seat's `figures` is its own: other seats'
# observations show it without the types.
#
# Codes: A_EXT | sub << 4 | payload << 8 with sub SUB_RESIDENT (payload: the tile), SUB_EXCHANGE (payload:
# given type | taken type << 3), SUB_DISC (payload: the packed cell), SUB_FIGURES (payload: the 3 types as
# a bit mask). Texts: "resident 17", "exchange seraglio tower", "disc 1,-2", "figures garden seraglio tower".
# Declining in phase "resident" is "done".

cdef enum:
    SUB_WALL = 0              # the Walls module's wall card (another branch)
    SUB_RESIDENT = 1
    SUB_EXCHANGE = 2
    SUB_DISC = 3
    SUB_FIGURES = 4
    RESIDENTS_SUBS = (1 << SUB_RESIDENT) | (1 << SUB_EXCHANGE) | (1 << SUB_DISC) | (1 << SUB_FIGURES)
    RESIDENTS_PHASES = (1 << PH_RESIDENT) | (1 << PH_DISC) | (1 << PH_FIGURES)

cdef int RESIDENT_GROUP_POINTS[8]
RESIDENT_GROUP_POINTS[:] = [0, 1, 3, 6, 10, 15, 21, 28]


cdef inline int _fountain_side(int k) noexcept nogil:
    """The packed cell k (0..3) beside the fountain: north, east, south, west."""
    if k == 0:
        return city_pack(0, 1)
    if k == 1:
        return city_pack(1, 0)
    return city_pack(0, -1) if k == 2 else city_pack(-1, 0)


cdef void residents_setup(GameState* s) noexcept nogil:
    """new_game: every seat holds one figure of each type; the seats choose their discs (phase "figures")
    from the start player on."""
    cdef int p, t
    for t in range(NTYPES):
        s.supply[t] = <uint8_t>(NFIGURES - s.num_players)
    for p in range(s.num_players):
        s.disc_hidden[p] = 0
        s.disc_cell[p] = 0
    s.setup_left = <uint8_t>s.num_players
    s.phase = PH_FIGURES


cdef void residents_deal(GameState* s) noexcept nogil:
    """State.from_setup: 3 random figures of distinct types on each disc, on a random empty cell beside the
    fountain (a custom setup leaves what it does not name to the RNG)."""
    cdef uint8_t types[NTYPES]
    cdef int cells[4]
    cdef int p, t, i, k, cell, free_
    for t in range(NTYPES):
        s.supply[t] = NFIGURES
    for p in range(s.num_players):
        for t in range(NTYPES):
            types[t] = <uint8_t>t
        rng_shuffle_u8(&s.rng, types, NTYPES)
        for i in range(3):
            s.disc[p][types[i]] = 1
            s.supply[types[i]] -= 1
        s.disc_hidden[p] = 3
        free_ = 0                   # the empty cells beside the fountain, north, east, south, west
        for k in range(4):
            cell = _fountain_side(k)
            if city_tile(s.cities.city[p], (cell & 255) - 128, (cell >> 8) - 128) < 0:
                cells[free_] = cell
                free_ += 1
        # (none empty: lifted, it goes back at the end of the seat's turn)
        s.disc_cell[p] = <uint16_t>cells[rng_below(&s.rng, free_)] if free_ else 0


cdef inline bint figures_unrevealed(GameState* s) noexcept nogil:
    """Setup: some seat has still to choose its figures, so the kept-back ones are not in the supply yet."""
    return s.setup_left > 1 or (s.setup_left == 1 and s.phase == PH_FIGURES)


cdef void figures_chosen(GameState* s, int mask) noexcept nogil:
    """The seat's 3 figures go on its disc; after the last seat's choice the kept-back ones join the supply."""
    cdef int p, t
    for t in range(NTYPES):
        s.disc[s.current][t] = (mask >> t) & 1
    s.disc_hidden[s.current] = 3
    if s.setup_left == 1:
        for p in range(s.num_players):
            for t in range(NTYPES):
                s.supply[t] += 1 - s.disc[p][t]
    s.phase = PH_DISC


cdef void setup_disc_placed(GameState* s) noexcept nogil:
    """Setup: the seat's disc lies beside the fountain: the next seat chooses, or the first turn begins."""
    s.setup_left -= 1
    if s.setup_left:
        s.current = (s.current + 1) % s.num_players
        s.phase = PH_FIGURES
    else:
        s.current = s.start_player
        s.phase = PH_ACTION


cdef inline int disc_count(GameState* s, int seat) noexcept nogil:
    cdef int t, n = 0
    for t in range(NTYPES):
        n += s.disc[seat][t]
    return n


cdef inline int supply_count(GameState* s) noexcept nogil:
    cdef int t, n = 0
    for t in range(NTYPES):
        n += s.supply[t]
    return n


cdef inline void disc_take(GameState* s, int seat, int t) noexcept nogil:
    """A figure of type t leaves the disc. Public knowledge: a figure seen arriving may be the one; if none of
    type t was seen, it was the secret first choice's (which had one figure per type)."""
    s.disc[seat][t] -= 1
    if s.disc_seen[seat][t]:
        s.disc_seen[seat][t] -= 1
    else:
        s.disc_hidden[seat] -= 1
        s.disc_gone[seat] |= 1 << t


cdef inline void disc_give(GameState* s, int seat, int t) noexcept nogil:
    """A supply figure of type t goes onto the disc (seen by all)."""
    s.supply[t] -= 1
    s.disc[seat][t] += 1
    s.disc_seen[seat][t] += 1


cdef bint residents_lift(GameState* s, int seat, int x, int y, int t) noexcept nogil:
    """Tile t was just placed at (x, y) of the seat's city: if that is the disc's cell, lift the disc and,
    when it holds figures, ask (phase "resident"). Returns 1 when the phase "resident" starts."""
    if s.disc_cell[seat] == 0 or s.disc_cell[seat] != city_pack(x, y):
        return 0
    s.disc_cell[seat] = 0
    if disc_count(s, seat) == 0:
        return 0
    s.res_tile = <uint8_t>t
    s.res_phase = s.phase
    s.phase = PH_RESIDENT
    return 1


cdef void residents_release(GameState* s, int seat, int t) noexcept nogil:
    """Tile t left the seat's city (removed or swapped out): its resident goes back to the supply."""
    if mask_has(s.residents[seat], t):
        mask_clear(s.residents[seat], t)
        s.supply[TILE_TYPE[t]] += 1


cdef bint residents_turn_end(GameState* s) noexcept nogil:
    """At the end of a turn (or of a vizier's placement): a lifted disc goes back first (phase "disc")."""
    if s.options & OPT_RESIDENTS and s.disc_cell[s.current] == 0:
        s.phase = PH_DISC
        return 1
    return 0


cdef inline uint64_t _disc_lanes(CityGrid* c, int j) noexcept nogil:
    """Bit 7 of byte k set iff the cell at storage index j + k is empty with a tile beside it: where the disc
    may lie (rules.md §9.8). The cell j must be in the box or the ring around it (the reads stay in the
    storage: two margin rows and columns, and tid after the last row)."""
    cdef uint8_t* occ = c.occ
    return (~bytes_nonzero(city_eight(occ + j))
            & bytes_nonzero(city_eight(occ + j + c.w) | city_eight(occ + j - c.w)
                            | city_eight(occ + j + 1) | city_eight(occ + j - 1)))


cdef inline bint _disc_cell_ok(CityGrid* c, int x, int y) noexcept nogil:
    if x < c.x0 - 1 or x > c.x1 + 1 or y < c.y0 - 1 or y > c.y1 + 1:
        return 0                        # (no tile beside it)
    return (_disc_lanes(c, _cidx(c, x, y)) & 0x80) != 0


cdef int gen_residents(GameState* s, int* out) noexcept nogil:
    """The legal actions of the phases "resident" (without "done"), "disc" and "figures"."""
    cdef int seat = s.current, n = 0, a, b, x, y, ty, j, lane
    cdef uint64_t keep
    cdef CityGrid* c
    if s.phase == PH_FIGURES:
        for a in range(1 << NTYPES):
            if CITY_POPCOUNT(a) == 3:
                out[n] = A_EXT | (SUB_FIGURES << 4) | (a << 8)
                n += 1
        return n
    if s.phase == PH_RESIDENT:
        ty = TILE_TYPE[s.res_tile]
        if ty < NTYPES and s.disc[seat][ty]:
            out[0] = A_EXT | (SUB_RESIDENT << 4) | (s.res_tile << 8)
            return 1
        for a in range(NTYPES):
            if s.disc[seat][a]:
                for b in range(NTYPES):
                    if b != a and s.supply[b]:
                        out[n] = A_EXT | (SUB_EXCHANGE << 4) | ((a | (b << 3)) << 8)
                        n += 1
        return n
    c = s.cities.city[seat]                    # the box and the ring around it, eight cells of a row at a time
    for y in range(c.y1 + 1, c.y0 - 2, -1):
        j = _cidx(c, c.x0 - 1, y)
        for x in range(c.x0 - 1, c.x1 + 2, 8):
            keep = _disc_lanes(c, j) & lanes_upto(c.x1 + 2 - x)
            while keep:
                lane = __builtin_ctzll(keep) >> 3
                keep &= keep - 1
                out[n] = A_EXT | (SUB_DISC << 4) | (city_pack(x + lane, y) << 8)
                n += 1
            j += 8
    return n


cdef int check_residents(GameState* s, int code) noexcept nogil:
    """check_action in the phases "resident" and "disc", and for the residents' codes anywhere."""
    cdef int kind = code & 15, sub = (code >> 4) & 15, seat = s.current, a, b, ty, packed
    if kind == A_EXT and sub != SUB_WALL and sub > SUB_FIGURES:
        return E_CODE
    if kind == A_EXT and sub != SUB_WALL and not (s.options & OPT_RESIDENTS):
        return E_NO_MODULE
    if s.phase == PH_FIGURES:
        if kind != A_EXT or sub != SUB_FIGURES:
            return E_FIGURES_PHASE
        return E_OK if code >> 14 == 0 and CITY_POPCOUNT((code >> 8) & 63) == 3 else E_CODE
    if kind == A_EXT and sub == SUB_FIGURES:
        return E_FIGURES_WHEN
    if s.phase == PH_DISC:
        if kind == A_EXT and sub == SUB_DISC:
            packed = (code >> 8) & 0xFFFF
            if code >> 24:
                return E_CODE
            return E_OK if _disc_cell_ok(s.cities.city[seat], (packed & 255) - 128, (packed >> 8) - 128) \
                else E_DISC_CELL
        return E_DISC_PHASE
    if s.phase != PH_RESIDENT:
        return E_RESIDENT_WHEN if sub == SUB_RESIDENT or sub == SUB_EXCHANGE else E_DISC_WHEN
    if kind == A_DONE:
        return E_OK if code == A_DONE else E_CODE
    if kind != A_EXT or (sub != SUB_RESIDENT and sub != SUB_EXCHANGE):
        return E_RESIDENT_PHASE
    ty = TILE_TYPE[s.res_tile]
    if sub == SUB_RESIDENT:
        if code >> 16:
            return E_CODE
        if (code >> 8) != s.res_tile:
            return E_RESIDENT_TILE
        if ty >= NTYPES:
            return E_RESIDENT_CAMP
        return E_OK if s.disc[seat][ty] else E_RESIDENT_NONE
    if code >> 14:
        return E_CODE
    a = (code >> 8) & 7
    b = (code >> 11) & 7
    if a >= NTYPES or b >= NTYPES or a == b:
        return E_CODE
    if ty < NTYPES and s.disc[seat][ty]:
        return E_EXCHANGE_MATCH
    if not s.disc[seat][a]:
        return E_EXCHANGE_NONE
    return E_OK if s.supply[b] else E_SUPPLY_EMPTY


cdef void resident_draw(GameState* s, EventLog* log) noexcept nogil:
    """After a resident moved in: a random supply figure onto the disc (everyone sees which: the supply is
    public). Chance, so it follows the action (residents_follows) rather than being part of it."""
    cdef int k = supply_count(s), b
    if k == 0:
        return
    k = rng_below(&s.rng, k)
    for b in range(NTYPES):
        if k < s.supply[b]:
            disc_give(s, s.current, b)
            log_event(log, EV_FIGURE_DRAWN, s.current, b, 0)
            return
        k -= s.supply[b]


cdef void apply_residents(GameState* s, int code) noexcept nogil:
    """The effect of "resident", "exchange", "disc" or "figures" (what follows: residents_follows)."""
    cdef int sub = (code >> 4) & 15, seat = s.current, t, a, b
    if sub == SUB_RESIDENT:
        t = s.res_tile
        disc_take(s, seat, TILE_TYPE[t])
        mask_set(s.residents[seat], t)
    elif sub == SUB_EXCHANGE:
        a = (code >> 8) & 7
        b = (code >> 11) & 7
        disc_take(s, seat, a)
        s.supply[a] += 1
        disc_give(s, seat, b)
    elif sub == SUB_DISC:
        s.disc_cell[seat] = <uint16_t>((code >> 8) & 0xFFFF)
    elif sub == SUB_FIGURES:
        figures_chosen(s, (code >> 8) & 63)


cdef int resident_points(GameState* s, int seat) noexcept nogil:
    """rules.md §9.8: groups of different types, each time the largest possible: group k of the split has as
    many figures as there are types with at least k residents; a group of g scores g (g + 1) / 2."""
    cdef uint8_t tiles[128]
    cdef int cnt[NTYPES]
    cdef int n = mask_list(s.residents[seat], tiles), i, k, g, t, pts = 0
    for t in range(NTYPES):
        cnt[t] = 0
    for i in range(n):
        cnt[TILE_TYPE[tiles[i]]] += 1
    for k in range(1, NFIGURES + 1):
        g = 0
        for t in range(NTYPES):
            g += cnt[t] >= k
        if g == 0:
            break
        pts += RESIDENT_GROUP_POINTS[g]
    return pts


# ---------------------------------------------------------------- its hooks (modules/table.pxi)

cdef double MOD_FIGURE = 0.4        # a figure on the disc (a possible resident), per round left


cdef int residents_check(GameState* s, int code) noexcept nogil:
    """The residents' codes anywhere (other A_EXT sub-kinds but the wall card too: E_CODE), and every code in
    the phases "resident", "disc" and "figures"."""
    if ((code & 15) == A_EXT and (code >> 4) & 15 != SUB_WALL) or (RESIDENTS_PHASES >> s.phase) & 1:
        return check_residents(s, code)
    return -1


cdef int residents_apply(GameState* s, int code) noexcept nogil:
    cdef int sub = (code >> 4) & 15
    if (code & 15) == A_DONE:
        return RESIDENT_DONE
    apply_residents(s, code)
    if sub == SUB_DISC:
        return DISC_BACK
    if sub == SUB_FIGURES:
        return FIGURES_CHOSEN               # (the phase "disc" follows: nothing else happens)
    return RESIDENT_MOVED if sub == SUB_RESIDENT else RESIDENT_DONE


cdef bint residents_follows(GameState* s, int follows, EventLog* log) noexcept nogil:
    """After a resident decision: go on where the placement left off; after the disc is back: the setup's
    next seat, the window, or the end of the turn."""
    if follows == RESIDENT_MOVED or follows == RESIDENT_DONE:
        if follows == RESIDENT_MOVED:
            resident_draw(s, log)
        s.phase = s.res_phase                   # go on where the placement left off
        if s.phase == PH_ACTION:
            after_action(s, log)
        else:
            _after_place(s, log)
        return 1
    if follows == DISC_BACK:
        if s.setup_left:
            setup_disc_placed(s)                # setup: the next seat chooses, or the first turn
        elif s.in_window:
            window_after_use(s, log)
        else:
            finish_turn(s, log)
        return 1
    return follows == FIGURES_CHOSEN


cdef int residents_gen_phase(GameState* s, int* out, BuyMemo* memo) noexcept nogil:
    if not (RESIDENTS_PHASES >> s.phase) & 1:
        return 0
    return gen_residents(s, out)


cdef bint residents_placed(GameState* s, int seat, int x, int y, int t) noexcept nogil:
    return residents_lift(s, seat, x, y, t)


cdef void residents_removed(GameState* s, int seat, int x, int y, int t) noexcept nogil:
    residents_release(s, seat, t)


cdef int residents_census(GameState* s, char* why) noexcept nogil:
    """Figures: 7 per type on discs, in buildings or in the supply; the public knowledge of each disc fits it;
    residents only in buildings of their own type in the city; a disc lies on an empty cell (or is lifted)."""
    cdef uint8_t tiles[128]
    cdef int k, p, t, m, i, hidden, x, y
    cdef int fig[NTYPES]
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


cdef int residents_points(GameState* s, int seat, int r) noexcept nogil:
    return resident_points(s, seat)


cdef void residents_values(GameState* s, int i, int left, double p, double* out) noexcept nogil:
    """The groups as they stand now score again in every round still to come; a figure on the disc is a
    possible resident (a little)."""
    out[i] += left * (resident_points(s, i) + MOD_FIGURE * disc_count(s, i))


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


cdef void disc_resample(GameState* s, int seat, Rng* r) noexcept nogil:
    """The other seats' hidden figures (what is left of their secret first choices) are shuffled together and
    dealt back, each seat as many as it hides, until every seat's share has distinct types none of which is
    known to have left its disc (rejection: uniform over the consistent assignments, since each assignment
    is reached by the same number of shuffles). At setup, before the kept-back figures reach the supply, each
    seat that has chosen gets 3 types uniformly, independently of the others."""
    cdef uint8_t pool[MAX_PLAYERS * 3]
    cdef uint8_t types[NTYPES]
    cdef int n = 0, p, t, i, j, tries, ok, seen
    cdef int per[NTYPES]
    if figures_unrevealed(s):
        for p in range(s.num_players):      # setup: nothing public ties one seat's choice to another's
            if p != seat and s.disc_hidden[p]:
                for t in range(NTYPES):
                    types[t] = <uint8_t>t
                rng_shuffle_u8(r, types, NTYPES)
                for t in range(NTYPES):
                    s.disc[p][types[t]] = t < 3
        return
    for t in range(NTYPES):
        per[t] = 0
    for p in range(s.num_players):
        if p == seat:
            continue
        for t in range(NTYPES):
            per[t] += s.disc[p][t] - s.disc_seen[p][t]
            s.disc[p][t] = s.disc_seen[p][t]
    for t in range(NTYPES):                 # gathered by type: the sample depends on public facts only
        for i in range(per[t]):
            pool[n] = <uint8_t>t
            n += 1
    if n == 0:
        return
    for tries in range(1 << 20):
        rng_shuffle_u8(r, pool, n)
        ok = 1
        i = 0
        for p in range(s.num_players):
            if p == seat:
                continue
            seen = s.disc_gone[p]
            for j in range(s.disc_hidden[p]):
                if (seen >> pool[i + j]) & 1:
                    ok = 0
                seen |= 1 << pool[i + j]
            i += s.disc_hidden[p]
            if not ok:
                break
        if ok:
            break
    i = 0
    for p in range(s.num_players):
        if p != seat:
            for j in range(s.disc_hidden[p]):
                s.disc[p][pool[i]] += 1
                i += 1


# ---------------------------------------------------------------- its text forms (Python level; table.pxi)

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


cdef str residents_code_text(GameState* s, int code):
    return residents_text(code)


cdef int residents_parse(GameState* s, str verb, list args) except -1:
    """Text -> code for "resident 17", "exchange seraglio tower", "disc 1,-2", "figures a b c"."""
    cdef int c
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


# ---------------------------------------------------------------- JSON (its table line's seen, put, canonical
# and from_setup: observe.pxi, setup_py.pxi). Public: the supply, the residents, where each disc lies, and per
# disc the figures everyone saw arrive from the supply ("seen"), how many of the secret first choice are still
# on it ("hidden") and which types of that choice have left ("gone"). Secret: the hidden figures; a seat's
# observation adds its own disc ("disc"), a position holds every disc's figures ("disc_figures"). Its keys go
# with the Thief's (json_with): null while it is off and the Thief is on.

import itertools


cdef list _type_list(uint8_t* per_type):
    cdef int t, i
    return [TYPE_NAMES[t] for t in range(NTYPES) for i in range(per_type[t])]


cdef _types_put(uint8_t* per_type, object v, str what):
    for w in _as_list(v, what):
        if w not in TYPE_NAMES:
            raise PositionError(f"{what}: a figure is a building type ({', '.join(TYPE_NAMES)}), not {w!r}")
        per_type[TYPE_NAMES.index(w)] += 1


cdef int residents_seen(GameState* s, object st, int seat, dict out) except -1:
    """Its keys of "modules": public facts, plus the disc of ``seat`` (an observation) or every disc's figures
    (seat = -1: a position)."""
    cdef int n = s.num_players, p, k
    cdef bint res = s.options & OPT_RESIDENTS
    out["supply"] = [s.supply[p] for p in range(NTYPES)] if res else None
    out["residents"] = [st.residents(p) for p in range(n)] if res else None
    out["discs"] = [{"cell": st.disc_cell(p), "seen": _type_list(s.disc_seen[p]), "hidden": s.disc_hidden[p],
                     "gone": [TYPE_NAMES[k] for k in range(NTYPES) if (s.disc_gone[p] >> k) & 1]}
                    for p in range(n)] if res else None
    out["lifted"] = {"tile": s.res_tile, "resume": PHASE_NAMES[s.res_phase]} if s.phase == PH_RESIDENT else None
    out["setup_left"] = s.setup_left if res else None
    if seat >= 0:
        out["disc"] = _type_list(s.disc[seat]) if res else None
    else:
        out["disc_figures"] = [_type_list(s.disc[p]) for p in range(n)] if res else None
    return 0


cdef int residents_put(GameState* s, dict m, bint shown, object put_tile) except -1:
    """The supply, the residents, the discs with their figures (7 figures per type; each disc's public
    knowledge fitting its figures), the lifted disc's tile."""
    cdef int p, k, t, total, n = s.num_players
    cdef uint8_t res_types[NTYPES]
    if not shown:
        return 0
    for name in ("supply", "residents", "discs", "disc_figures"):
        if (m.get(name) is not None) != bool(s.options & OPT_RESIDENTS):
            raise PositionError(f"modules.{name} must be " + ("given" if s.options & OPT_RESIDENTS else "null") +
                                " in this game")
    if not s.options & OPT_RESIDENTS:
        return 0
    supply = _as_list(m["supply"], "modules.supply", NTYPES)
    for t in range(NTYPES):
        s.supply[t] = _as_int(supply[t], "modules.supply", 0, NFIGURES)
        res_types[t] = 0
    for p, tiles in enumerate(_as_list(m["residents"], "modules.residents", n)):
        for t in _as_list(tiles, f"modules.residents[{p}]"):
            if isinstance(t, bool) or not isinstance(t, int) or not 1 <= t <= NBUILDINGS \
                    or not city_holds(s.cities.city[p], t) or mask_has(s.residents[p], t):
                raise PositionError(f"modules.residents[{p}]: {t!r} is no building of that city (or twice)")
            mask_set(s.residents[p], t)
            res_types[TILE_TYPE[t]] += 1
    s.setup_left = _as_int(m.get("setup_left") or 0, "modules.setup_left", 0, n)   # (older positions: 0)
    if s.setup_left and (s.phase != PH_FIGURES and s.phase != PH_DISC or s.turn or
                         s.current != (s.start_player + n - s.setup_left) % n):
        raise PositionError("modules.setup_left: discs are set up at the start, in the phases \"figures\" and "
                            "\"disc\", seat by seat from the start player on")
    figures = _as_list(m["disc_figures"], "modules.disc_figures", n)
    for p, d in enumerate(_as_list(m["discs"], "modules.discs", n)):
        what = f"modules.discs[{p}]"
        if not isinstance(d, dict) or set(d) != {"cell", "seen", "hidden", "gone"}:
            raise PositionError(f"{what} must be {{\"cell\", \"seen\", \"hidden\", \"gone\"}}")
        _types_put(s.disc[p], figures[p], f"modules.disc_figures[{p}]")
        _types_put(s.disc_seen[p], d["seen"], what + ".seen")
        s.disc_hidden[p] = _as_int(d["hidden"], what + ".hidden", 0, 3)
        for w in _as_list(d["gone"], what + ".gone"):
            if w not in TYPE_NAMES:
                raise PositionError(f"{what}.gone: {w!r} is no building type")
            s.disc_gone[p] |= 1 << TYPE_NAMES.index(w)
        total = 0
        for t in range(NTYPES):
            k = s.disc[p][t] - s.disc_seen[p][t]
            if k < 0 or k > 1 or (k and (s.disc_gone[p] >> t) & 1):
                raise PositionError(f"{what}: the figures {figures[p]} do not fit what the table saw")
            total += k
            res_types[t] += s.disc[p][t]
        if total != s.disc_hidden[p]:
            raise PositionError(f"{what}: {total} figures of the first choice, but hidden says {s.disc_hidden[p]}")
        cell = d["cell"]
        if cell is None:
            s.disc_cell[p] = 0
        else:
            cell = _as_list(cell, what + ".cell", 2)
            x = _as_int(cell[0], what + ".cell", -120, 120)
            y = _as_int(cell[1], what + ".cell", -120, 120)
            if city_tile(s.cities.city[p], x, y) >= 0:
                raise PositionError(f"{what}: the disc lies on a tile at {x},{y}")
            s.disc_cell[p] = city_pack(x, y)
    if figures_unrevealed(s):               # every seat still holds one of each type, on its disc or kept back
        for k in range(n):                  # the seats from the start player on have chosen, the rest not yet
            p = (s.start_player + k) % n
            if s.disc_hidden[p] != (3 if k < n - s.setup_left + (s.phase == PH_DISC) else 0):
                raise PositionError(f"modules.discs[{p}]: at setup the seats before the one to act (from the "
                                    f"start player on) hold 3 hidden figures, the others none")
        for t in range(NTYPES):
            res_types[t] = n
    for t in range(NTYPES):
        if res_types[t] + s.supply[t] != NFIGURES:
            raise PositionError(f"figures of type {TYPE_NAMES[t]}: {res_types[t] + s.supply[t]}, the game "
                                f"has {NFIGURES}")
    lifted = m.get("lifted")
    if (lifted is not None) != (s.phase == PH_RESIDENT):
        raise PositionError("modules.lifted: given exactly in the phase \"resident\"")
    if lifted is not None:
        if not isinstance(lifted, dict) or set(lifted) != {"tile", "resume"} \
                or lifted["resume"] not in ("action", "place", "final"):
            raise PositionError("modules.lifted must be {\"tile\": int, \"resume\": \"action\" | \"place\" | "
                                "\"final\"}")
        t = _as_tile(lifted["tile"], "modules.lifted.tile")
        if not city_holds(s.cities.city[s.current], t):
            raise PositionError(f"modules.lifted: tile {t} is not in the city of the seat to act")
        s.res_tile = t
        s.res_phase = PHASE_NAMES.index(lifted["resume"])
    return 0


cdef object residents_canonical(object m, uint32_t bits, bint shown, int step, object arg):
    """CANON_SECRETS: the others' hidden figures, the first assignment (seats in order, types in order) that
    fits the public facts (determinize reshuffles them). arg: (the new "modules", seat count, the observing
    seat, phase); returns its copy."""
    cdef int n, me
    if step != CANON_SECRETS or not shown:
        return None
    out, n, me, phase = arg
    out = _modules_copy(out)
    out.pop("disc", None)
    if m.get("discs") is None:
        return out
    discs = _as_list(m["discs"], "modules.discs", n)
    own = list(_as_list(m.get("disc"), "modules.disc"))
    left = m.get("setup_left")
    if type(left) is int and (left > 1 or (left == 1 and phase == "figures")):
        # setup: any 3 types for a seat that chose (nothing public ties them to the supply yet)
        out["disc_figures"] = [own if p == me else (list(TYPE_NAMES[:3]) if discs[p]["hidden"] else [])
                               for p in range(n)]
        return out
    count = {t: NFIGURES - m["supply"][i] for i, t in enumerate(TYPE_NAMES)}
    for p in range(n):
        for tile in m["residents"][p]:
            if isinstance(tile, bool) or not isinstance(tile, int) or not 1 <= tile <= NBUILDINGS:
                raise PositionError(f"modules.residents[{p}]: {tile!r} is no building")   # (TILE_TYPE: C)
            count[TYPE_NAMES[TILE_TYPE[tile]]] -= 1
    for w in own:
        count[w] -= 1
    for p in range(n):
        if p != me:
            for w in discs[p]["seen"]:
                count[w] -= 1
    others = [p for p in range(n) if p != me]
    hidden = _fill_hidden(count, [(discs[p]["hidden"], set(discs[p]["gone"])) for p in others])
    if hidden is None:
        raise PositionError("modules.discs: no figures fit the supply, the residents and the discs")
    figures = {me: own}
    for p, h in zip(others, hidden):
        figures[p] = sorted(list(discs[p]["seen"]) + h, key=TYPE_NAMES.index)
    out["disc_figures"] = [figures[p] for p in range(n)]
    return out


def _fill_hidden(count, seats):
    """Per seat (hidden count, gone types), distinct types not gone, using exactly the figures of ``count``."""
    if not seats:
        return [] if all(v == 0 for v in count.values()) else None
    k, gone = seats[0]
    for combo in itertools.combinations([t for t in TYPE_NAMES if t not in gone and count[t] > 0], k):
        for t in combo:
            count[t] -= 1
        rest = _fill_hidden(count, seats[1:])
        for t in combo:
            count[t] += 1
        if rest is not None:
            return [list(combo)] + rest
    return None


cdef int residents_from_setup(GameState* s, int step, dict kw, dict setup) except -1:
    """``discs``: per seat the figures on its disc, distinct building types (default: 3 dealt by the seed;
    the disc lies beside the fountain); ``residents``: per seat buildings of its city that hold a resident.
    SETUP_END."""
    cdef int p, t
    if step != SETUP_END:
        return 0
    discs = setup["per_seat"]("discs", kw["discs"])
    residents = setup["per_seat"]("residents", kw["residents"])
    if any(v is not None for v in discs + residents) and not s.options & OPT_RESIDENTS:
        raise ValueError("discs / residents: the Residents are not on in this game")
    if not s.options & OPT_RESIDENTS:
        return 0
    residents_deal(s)
    for p, figures in enumerate(discs):
        if figures is None:
            continue
        if len(set(figures)) != len(figures) or len(figures) > 3 or any(w not in TYPE_NAMES for w in figures):
            raise ValueError(f"discs[{p}]: up to 3 distinct building types ({', '.join(TYPE_NAMES)})")
        for t in range(NTYPES):
            s.supply[t] += s.disc[p][t]
            s.disc[p][t] = 0
        for w in figures:
            t = TYPE_NAMES.index(w)
            if s.supply[t] == 0:
                raise ValueError(f"discs: more than {NFIGURES} figures of {w}")
            s.supply[t] -= 1
            s.disc[p][t] = 1
        s.disc_hidden[p] = len(figures)
    for p, tiles in enumerate(residents):
        for t in tiles or ():
            if isinstance(t, bool) or not isinstance(t, int) or not 1 <= t <= NBUILDINGS \
                    or not city_holds(s.cities.city[p], t):
                raise ValueError(f"residents[{p}]: {t!r} is no building of that city")
            if s.supply[TILE_TYPE[t]] == 0 or mask_has(s.residents[p], t):
                raise ValueError(f"residents[{p}]: no figure of {TYPE_NAMES[TILE_TYPE[t]]} left for tile {t}")
            s.supply[TILE_TYPE[t]] -= 1
            mask_set(s.residents[p], t)
    return 0
