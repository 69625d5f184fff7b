# Falconers (RULES §9.4): buying falcons, giving them back, and where they may sit.
#
# A falcon sits on a corner where four tiles of its owner's city meet, named by the south-west cell of the
# four: corner "x,y" is shared by cells (x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1). Both building types
# on the falcon's back must occur among the four tiles (camps, bazaars and the fountain give no type); one
# falcon per corner. Buying falcons is the single action of a turn: the first one (with actions_this_turn 0)
# starts the "falcons" phase, where more falcons or "done" follow.
#
# Code: A_FALCON | f << 4 | card << 8 | corner << 14 (f 0..14, card 0..35, corner packed as a cell).
# Text: "falcon 3 g4 0,1" (falcon 1..15, the card paid, the corner).


cdef int corner_types(CityGrid* c, int x, int y) noexcept nogil:
    """Type bits of the four tiles around corner (x, y), or -1 unless all four cells hold tiles."""
    cdef int dx, dy, t, bits = 0
    for dy in range(2):
        for dx in range(2):
            t = city_tile(c, x + dx, y + dy)
            if t < 0:
                return -1
            if TILE_TYPE[t] < NTYPES:
                bits |= 1 << TILE_TYPE[t]
    return bits


cdef inline bint corner_taken(GameState* s, int seat, int packed) noexcept nogil:
    cdef int f
    for f in range(NFALCONS):
        if s.falcon_owner[f] == seat and s.falcon_cell[f] == packed:
            return 1
    return 0


cdef inline bint falcon_may_start(GameState* s) noexcept nogil:
    """Falcons are the turn's single action: the first action of the turn, or more after a first falcon."""
    return (s.options & OPT_FALCONS) and (s.phase == PH_FALCONS or (s.phase == PH_ACTION and s.actions_taken == 0))


cdef int gen_falcons(GameState* s, int* out, int cap) noexcept nogil:
    """Every falcon purchase of the seat to act: corner x falcon x distinct card held (at most cap codes)."""
    cdef CityGrid* c = s.city[s.current]
    cdef int seat = s.current, n = 0, x, y, types, f, card, packed
    if not falcon_may_start(s) or s.hand_n[seat] == 0:
        return 0
    for y in range(c.y1 - 1, c.y0 - 1, -1):
        for x in range(c.x0, c.x1):
            types = corner_types(c, x, y)
            if types <= 0:
                continue
            packed = city_pack(x, y)
            if corner_taken(s, seat, packed):
                continue
            for f in range(NFALCONS):
                if s.falcon_owner[f] != NO_SEAT or (FALCON_TYPES[f] & ~types):
                    continue
                for card in range(NCARD_KINDS):
                    if s.hand[seat][card] and n < cap:
                        if out != NULL:
                            out[n] = A_FALCON | (f << 4) | (card << 8) | (packed << 14)
                        n += 1
    return n


cdef int check_falcon(GameState* s, int code) noexcept nogil:
    cdef int f = (code >> 4) & 15, card = (code >> 8) & 63, packed = (code >> 14) & 0xFFFF, types
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
    types = corner_types(s.city[s.current], (packed & 255) - 128, (packed >> 8) - 128)
    if types < 0:
        return E_FALCON_CORNER
    if FALCON_TYPES[f] & ~types:
        return E_FALCON_TYPES
    if corner_taken(s, s.current, packed):
        return E_FALCON_OCCUPIED
    return E_OK


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
    cdef int f, fx, fy
    for f in range(NFALCONS):
        if s.falcon_owner[f] == seat:
            fx = (s.falcon_cell[f] & 255) - 128
            fy = (s.falcon_cell[f] >> 8) - 128
            if (x == fx or x == fx + 1) and (y == fy or y == fy + 1):
                s.falcon_owner[f] = NO_SEAT
                s.falcon_cell[f] = 0
