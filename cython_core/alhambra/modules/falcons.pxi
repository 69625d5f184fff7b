# Falconers (rules.md §9.4): buying falcons, giving them back, and where they may sit.
#
# A falcon sits on a corner where four tiles of its owner's city meet, named by the south-west cell of the
# four: corner "x,y" is shared by cells (x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1). Both building types
# on the falcon's back must occur among the four tiles (camps, bazaars and the fountain give no type); one
# falcon per corner. Buying falcons is the single action of a turn: the first one (with actions_this_turn 0)
# starts the "falcons" phase, where more falcons or "done" follow.
#
# Code: A_FALCON | f << 4 | card << 8 | corner << 14 (f 0..14, card 0..35, corner packed as a cell).
# Text: "falcon 3 g4 0,1" (falcon 1..15, the card paid, the corner).

cdef enum:
    CORNERS_MAX = 128         # corners of four tiles in one city (<= its tiles)


cdef uint8_t TYPE_BIT[MAX_TILE]       # per tile id: 1 << its building type; 0 for camps, bazaars, the fountain
for _t in range(MAX_TILE):
    TYPE_BIT[_t] = (1 << TILE_TYPE[_t]) if TILE_TYPE[_t] < NTYPES else 0


cdef inline int _corner_bits(uint8_t* tid, int i, int w) noexcept nogil:
    """The building types (bits) of the four tiles around the corner whose south-west cell has storage index i
    in a grid of row width w (all four cells known to hold tiles)."""
    return TYPE_BIT[tid[i]] | TYPE_BIT[tid[i + 1]] | TYPE_BIT[tid[i + w]] | TYPE_BIT[tid[i + w + 1]]


cdef int corner_types(CityGrid* c, int x, int y) noexcept nogil:
    """Type bits of the four tiles around corner (x, y), or -1 unless all four cells hold tiles."""
    cdef int i
    if x < c.x0 or x >= c.x1 or y < c.y0 or y >= c.y1:
        return -1
    i = _cidx(c, x, y)
    if not (c.occ[i] and c.occ[i + 1] and c.occ[i + c.w] and c.occ[i + c.w + 1]):
        return -1
    return _corner_bits(c.tid, i, c.w)


cdef inline bint falcon_may_start(GameState* s) noexcept nogil:
    """Falcons are the turn's single action: the first action of the turn, or more after a first falcon."""
    return (s.options & OPT_FALCONS) and (s.phase == PH_FALCONS or (s.phase == PH_ACTION and s.actions_taken == 0))


cdef struct FalconCorners:
    int n                             # corners where four tiles with some building type meet
    uint16_t cell[CORNERS_MAX]        # packed, in falcon_buys' order (north row first, then west to east)
    uint8_t types[CORNERS_MAX]


cdef void falcon_corners(CityGrid* c, FalconCorners* fc) noexcept nogil:
    """The corners of city c a falcon may sit on as far as the city decides (the falcons' own types and the
    supply are falcon_buys' business). The box's rows eight corners at a time: where four tiles meet is
    found without a branch per cell."""
    cdef int x, y, j, lane, types, w = c.w
    cdef uint64_t four
    cdef uint8_t* occ = c.occ
    cdef uint8_t* tid = c.tid                   # (locals: the stores into fc may alias the grid's fields)
    fc.n = 0
    for y in range(c.y1 - 1, c.y0 - 1, -1):
        j = _cidx(c, c.x0, y)
        for x in range(c.x0, c.x1, 8):
            four = ((city_eight(occ + j) & city_eight(occ + j + 1) & city_eight(occ + j + w)
                     & city_eight(occ + j + w + 1) & LANES_TILE) << 3) & lanes_upto(c.x1 - x)
            while four:                         # (four tiles: their type bits from a table, no test)
                lane = __builtin_ctzll(four) >> 3
                four &= four - 1
                types = _corner_bits(tid, j + lane, w)
                if types and fc.n < CORNERS_MAX:
                    fc.cell[fc.n] = <uint16_t>city_pack(x + lane, y)
                    fc.types[fc.n] = <uint8_t>types
                    fc.n += 1
            j += 8


cdef uint16_t FALCON_FITS[1 << NTYPES]     # per set of type bits: the falcons whose two types are both in it


cdef void _init_falcon_fits() noexcept nogil:
    cdef int types, f
    for types in range(1 << NTYPES):
        FALCON_FITS[types] = 0
        for f in range(NFALCONS):
            if not (FALCON_TYPES[f] & ~types):
                FALCON_FITS[types] |= 1 << f


_init_falcon_fits()


cdef inline int falcons_of(GameState* s, int seat) noexcept nogil:
    """The falcons (bits) the seat has in its city (NO_SEAT: in the supply), owners 0..7 and 7..14 read as two
    words."""
    cdef uint64_t lo = eight_bytes(s.falcon_owner), hi = eight_bytes(s.falcon_owner + NFALCONS - 8)
    cdef uint64_t mine = <uint64_t>seat * 0x0101010101010101ULL
    return (byte_flags(bytes_nonzero(lo ^ mine) ^ LANES_TOP)
            | byte_flags(bytes_nonzero(hi ^ mine) ^ LANES_TOP) << (NFALCONS - 8)) & ((1 << NFALCONS) - 1)


cdef inline bint _taken_by(GameState* s, int own, int packed) noexcept nogil:
    """One of the falcons `own` (bits: falcons_of) sits on corner `packed` (a city holds few: a short loop)."""
    while own:
        if s.falcon_cell[__builtin_ctzll(own)] == packed:
            return 1
        own &= own - 1
    return 0


cdef inline bint corner_taken(GameState* s, int seat, int packed) noexcept nogil:
    """One of the seat's falcons sits on corner `packed`."""
    return _taken_by(s, falcons_of(s, seat), packed)


cdef inline int falcons_free(GameState* s) noexcept nogil:
    """The falcons (bits) in the supply."""
    return falcons_of(s, NO_SEAT)


cdef inline uint64_t card_kinds(GameState* s, int seat) noexcept nogil:
    """The money cards the seat holds, as bits (bit c: card code c), read eight counts at a time."""
    cdef uint8_t* h = s.hand[seat]
    return (<uint64_t>byte_flags(bytes_nonzero(eight_bytes(h)))
            | <uint64_t>byte_flags(bytes_nonzero(eight_bytes(h + 8))) << 8
            | <uint64_t>byte_flags(bytes_nonzero(eight_bytes(h + 16))) << 16
            | <uint64_t>byte_flags(bytes_nonzero(eight_bytes(h + 24))) << 24
            | <uint64_t>byte_flags(bytes_nonzero(four_bytes(h + 32))) << 32)


cdef inline int card_kinds_held(GameState* s, int seat) noexcept nogil:
    """How many distinct money cards the seat holds (a falcon is paid with any one card)."""
    cdef uint64_t kinds = card_kinds(s, seat)
    return CITY_POPCOUNT(<uint32_t>kinds) + CITY_POPCOUNT(<uint32_t>(kinds >> 32))


cdef inline int falcon_spot(GameState* s, FalconCorners* corners, int i, int free, int own) noexcept nogil:
    """The falcons (bits) the seat to act may put on corner i: free ones whose two types both meet there,
    none if one of its own falcons (own: falcons_of the seat) sits there."""
    cdef int fits = FALCON_FITS[corners.types[i]] & free
    if fits and own and _taken_by(s, own, corners.cell[i]):
        return 0
    return fits


cdef int falcon_spots(GameState* s, FalconCorners* corners, int free) noexcept nogil:
    """The (corner, falcon) pairs the seat to act may buy now; times card_kinds_held: its falcon purchases."""
    cdef int i, n = 0, own = falcons_of(s, s.current)
    for i in range(corners.n):
        n += CITY_POPCOUNT(falcon_spot(s, corners, i, free, own))
    return n


cdef int falcon_buys(GameState* s, int* out, int cap, int pick, FalconCorners* corners) noexcept nogil:
    """Every falcon purchase of the seat to act, in the order corner x free falcon x distinct card held, at
    most cap of them: listed into out (NULL: count only) and counted. With pick >= 0 nothing is listed: the
    pick-th purchase's code is returned (the random player's draw, modules/sample.pxi), or -1 when there are
    not that many. corners: the seat's city's falcon_corners, or NULL (found here)."""
    cdef FalconCorners local
    cdef int seat = s.current, n = 0, i, j, k, f, fits, many, ncards = 0, free, own
    cdef int cards[NCARD_KINDS]
    cdef uint64_t kinds
    if not falcon_may_start(s) or s.hand_n[seat] == 0:
        return -1 if pick >= 0 else 0
    free = falcons_free(s)
    if free == 0:
        return -1 if pick >= 0 else 0
    if corners == NULL:
        falcon_corners(s.cities.city[seat], &local)
        corners = &local
    if out == NULL and pick < 0:
        n = card_kinds_held(s, seat) * falcon_spots(s, corners, free)
        return n if n < cap else cap
    kinds = card_kinds(s, seat)
    while kinds:
        cards[ncards] = __builtin_ctzll(kinds)
        kinds &= kinds - 1
        ncards += 1
    own = falcons_of(s, seat)
    for i in range(corners.n):
        fits = falcon_spot(s, corners, i, free, own)
        if not fits:
            continue
        many = CITY_POPCOUNT(fits) * ncards
        if pick >= 0 and pick < n + many:
            if pick >= cap:
                return -1
            for j in range((pick - n) // ncards):
                fits &= fits - 1                      # the falcon: the ((pick - n) // ncards)-th of fits
            f = __builtin_ctzll(fits)
            return A_FALCON | (f << 4) | (cards[(pick - n) % ncards] << 8) | (corners.cell[i] << 14)
        if out != NULL:
            k = n
            while fits:
                f = __builtin_ctzll(fits)
                fits &= fits - 1
                for j in range(ncards):
                    if k < cap:
                        out[k] = A_FALCON | (f << 4) | (cards[j] << 8) | (corners.cell[i] << 14)
                    k += 1
        n += many
    if pick >= 0:
        return -1
    return n if n < cap else cap


cdef inline int gen_falcons(GameState* s, int* out, int cap) noexcept nogil:
    """Every falcon purchase of the seat to act: corner x falcon x distinct card held (at most cap codes)."""
    return falcon_buys(s, out, cap, -1, NULL)


cdef inline int falcons_gen_action(GameState* s, int* out, int n, int* counted_at, BuyMemo* memo,
                                   GenCache* gc) noexcept nogil:
    """The action phase: the falcons the seat can buy, or, for the random player who counts them
    (modules/sample.pxi), where they would be."""
    if counted_at != NULL:
        counted_at[0] = n
        return 0
    return gen_falcons(s, out, MAX_LEGAL // 2 - n)


cdef inline int falcon_corner_error(GameState* s, int f, int seat, int packed) noexcept nogil:
    """Whether falcon f (0-based) may sit on the corner (packed: city_pack) of the seat's city: E_OK, or no such
    corner, its buildings not the falcon's types, another falcon there (a buy, a position, from_setup)."""
    cdef int types = corner_types(s.cities.city[seat], (packed & 255) - 128, (packed >> 8) - 128)
    if types < 0:
        return E_FALCON_CORNER
    if FALCON_TYPES[f] & ~types:
        return E_FALCON_TYPES
    if corner_taken(s, seat, packed):
        return E_FALCON_OCCUPIED
    return E_OK


cdef int check_falcon(GameState* s, int code) noexcept nogil:
    cdef int f = (code >> 4) & 15, card = (code >> 8) & 63, packed = (code >> 14) & 0xFFFF
    if code >> 30 or f >= NFALCONS or card >= NCARD_KINDS:
        return E_CODE
    if not (s.options & OPT_FALCONS):
        return E_NO_MODULE
    if not falcon_may_start(s):
        return E_FALCON_WHEN
    if s.falcon_owner[f] != NO_SEAT:
        return E_FALCON_TAKEN
    if not s.hand[s.current][card]:
        return E_FALCON_CARD
    return falcon_corner_error(s, f, s.current, packed)


cdef void apply_falcon(GameState* s, int code) noexcept nogil:
    cdef int f = (code >> 4) & 15, card = (code >> 8) & 63
    hand_remove(s, s.current, card)
    s.discard[card] += 1
    s.discard_n += 1
    s.falcon_owner[f] = s.current
    s.falcon_cell[f] = <uint16_t>((code >> 14) & 0xFFFF)
    if s.phase == PH_ACTION:
        s.actions_taken += 1
    s.phase = PH_FALCONS


cdef void falcons_release(GameState* s, int seat, int x, int y) noexcept nogil:
    """The tile at (x, y) of the seat's city is removed or swapped: falcons on its four corners go back."""
    cdef int f, fx, fy, own = falcons_of(s, seat)
    while own:
        f = __builtin_ctzll(own)
        own &= own - 1
        fx = (s.falcon_cell[f] & 255) - 128
        fy = (s.falcon_cell[f] >> 8) - 128
        if (x == fx or x == fx + 1) and (y == fy or y == fy + 1):
            s.falcon_owner[f] = NO_SEAT
            s.falcon_cell[f] = 0


# ---------------------------------------------------------------- its hooks (modules/table.pxi)

cdef int FALCON_SET_POINTS[6]
FALCON_SET_POINTS[:] = [0, 2, 6, 12, 20, 30]


cdef int falcon_points(GameState* s, int seat, int r) noexcept nogil:
    """rules.md §9.4: per falcon colour held, 1 -> 2, 2 -> 6, 3 -> 12, 4 -> 20, 5 -> 30 (every round r)."""
    cdef int f, k, pts = 0
    cdef int held[NFALCON_COLOURS]
    for k in range(NFALCON_COLOURS):
        held[k] = 0
    for f in range(NFALCONS):
        if s.falcon_owner[f] == seat:
            held[FALCON_COLOUR[f]] += 1
    for k in range(NFALCON_COLOURS):
        pts += FALCON_SET_POINTS[held[k]]
    return pts


cdef int falcons_check(GameState* s, int code) noexcept nogil:
    """A falcon bought in the action phase; every code in the phase "falcons" (more falcons, or done)."""
    cdef int kind = code & 15
    if s.phase == PH_FALCONS:
        if kind == A_PLACE or kind == A_PLACE_RESERVE or kind == A_PLACE_DIRK:
            return E_PHASE_ACTION           # (as everywhere but the phases "place" and "final")
        if kind == A_DONE:
            return E_OK if code == A_DONE else E_CODE
        if kind != A_FALCON:
            return E_FALCON_PHASE
        return check_falcon(s, code)
    if s.phase == PH_ACTION and kind == A_FALCON:
        return check_falcon(s, code)
    return -1


cdef int falcons_apply(GameState* s, int code) noexcept nogil:
    """A falcon bought (more may follow); "done" in the phase "falcons" ends the seat's actions."""
    if (code & 15) == A_DONE:
        return ACTIONS_OVER
    apply_falcon(s, code)
    return GOES_ON


cdef int falcons_gen_phase(GameState* s, int* out, BuyMemo* memo) noexcept nogil:
    if s.phase != PH_FALCONS:
        return 0
    return gen_falcons(s, out, MAX_LEGAL - 1)


cdef void falcons_removed(GameState* s, int seat, int x, int y, int t) noexcept nogil:
    falcons_release(s, seat, x, y)


cdef int falcons_census(GameState* s, char* why) noexcept nogil:
    """Falcons: in the supply, or on a legal corner of their seat's city, one per corner."""
    cdef int f, k, p, types
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
    return 0


cdef void falcons_values(GameState* s, int i, int left, double p, double* out) noexcept nogil:
    """The sets held now score in every round still to come."""
    out[i] += left * falcon_points(s, i, 0)


cdef double falcons_prior(GameState* s, int a) noexcept nogil:
    """The set value the falcon adds, less the card it costs."""
    cdef int f = (a >> 4) & 15, pts
    s.falcon_owner[f] = s.current
    pts = falcon_points(s, s.current, 0)
    s.falcon_owner[f] = NO_SEAT
    return (pts - falcon_points(s, s.current, 0)) * rounds_left(s) * 0.5 - 0.4 * card_value((a >> 8) & 63)


# ---------------------------------------------------------------- its text forms (Python level; table.pxi)

cdef str falcons_text(GameState* s, int code):
    """"falcon 3 g4 0,1" (rules.md §9.4): the falcon, the card paid, the corner."""
    if code >> 30 or ((code >> 4) & 15) >= NFALCONS or ((code >> 8) & 63) >= NCARD_KINDS:
        raise ValueError(f"not an action code: {code}")
    x, y = _unpack_cell((code >> 14) & 0xFFFF)
    return f"falcon {((code >> 4) & 15) + 1} {card_text((code >> 8) & 63)} {x},{y}"


cdef int falcons_parse(GameState* s, str verb, list args) except -1:
    cdef int x, y
    if len(args) != 3:
        raise ValueError("falcon: name the falcon (1-15), the card paid and the corner, e.g. 'falcon 3 g4 0,1'")
    try:
        f = int(args[0])
    except ValueError:
        raise ValueError(f"falcon: bad falcon {args[0]!r} (falcons are 1-{NFALCONS})") from None
    if not 1 <= f <= NFALCONS:
        raise ValueError(f"falcon: no falcon {f} (falcons are 1-{NFALCONS})")
    c = parse_card(args[1])
    x, y = _parse_cell(args[2])
    return A_FALCON | ((f - 1) << 4) | (c << 8) | (city_pack(x, y) << 14)


# ---------------------------------------------------------------- JSON (its table line's seen, put and
# from_setup: observe.pxi, setup_py.pxi)

cdef int falcons_seen(GameState* s, object st, int seat, dict out) except -1:
    """"falcons": ``[falcon 1-15, seat, x, y]`` per falcon in a city, by seat then falcon (null while off)."""
    out["falcons"] = [[f, p, x, y] for p in range(s.num_players) for f, (x, y) in st.falcons(p)] \
        if s.options & OPT_FALCONS else None
    return 0


cdef int falcons_put(GameState* s, dict m, bint shown, object put_tile) except -1:
    """The falcons in the cities, each on a corner it may sit on (the others are in the supply)."""
    cdef int f, seat, x, y, n = s.num_players
    if not shown:
        return 0
    falcons = m.get("falcons")
    if not s.options & OPT_FALCONS:
        if falcons is not None:
            raise PositionError("modules.falcons must be null without the Falconers")
        return 0
    for e in _as_list(falcons, "modules.falcons"):
        if not isinstance(e, list) or len(e) != 4 or any(isinstance(v, bool) or not isinstance(v, int) for v in e):
            raise PositionError(f"modules.falcons: each entry is [falcon 1-15, seat, x, y], not {e!r}")
        f, seat, x, y = e
        if not 1 <= f <= NFALCONS or s.falcon_owner[f - 1] != NO_SEAT:
            raise PositionError(f"modules.falcons: falcon {f} is unknown or given twice")
        _seat_of(seat, n, "modules.falcons seat")
        if not (-60 <= x <= 60 and -60 <= y <= 60):
            raise PositionError(f"modules.falcons: corner {x},{y} is off the city")
        if falcon_corner_error(s, f - 1, seat, city_pack(x, y)) != E_OK:
            raise PositionError(f"modules.falcons: falcon {f} cannot sit on corner {x},{y} of seat {seat}")
        s.falcon_owner[f - 1] = seat
        s.falcon_cell[f - 1] = city_pack(x, y)
    return 0


cdef int falcons_from_setup(GameState* s, int step, dict kw, dict setup) except -1:
    """``falcons``: ``{falcon 1..15: (seat, (x, y))}``, checked like a buy (SETUP_END)."""
    cdef int seat, x, y, why
    falcons = kw["falcons"]
    if step != SETUP_END or not falcons:
        return 0
    if not s.options & OPT_FALCONS:
        raise ValueError("falcons: the Falconers module is not on")
    for key, value in dict(falcons).items():
        if isinstance(key, bool) or not isinstance(key, int) or not 1 <= key <= NFALCONS:
            raise ValueError(f"falcons: no falcon {key!r} (1-{NFALCONS})")
        try:
            seat, (x, y) = value
        except (TypeError, ValueError):
            raise ValueError(f"falcons[{key}]: write (seat, (x, y)), not {value!r}") from None
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < s.num_players:
            raise ValueError(f"falcons[{key}]: no seat {seat!r}")
        if not (-60 <= x <= 60 and -60 <= y <= 60):
            raise ValueError(f"falcons[{key}]: corner {x},{y} is off the city")
        why = falcon_corner_error(s, key - 1, seat, city_pack(x, y))
        if why == E_FALCON_CORNER or why == E_FALCON_TYPES:
            raise ValueError(f"falcons[{key}]: falcon {key} cannot sit on corner {x},{y} of seat {seat}'s city")
        if why == E_FALCON_OCCUPIED:
            raise ValueError(f"falcons[{key}]: corner {x},{y} of seat {seat} holds another falcon")
        s.falcon_owner[key - 1] = seat
        s.falcon_cell[key - 1] = city_pack(x, y)
    return 0
