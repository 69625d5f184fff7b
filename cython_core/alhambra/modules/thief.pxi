# The Thief (rules.md §9.6): thief cards dealt secretly, played in the interrupt window (modules/window.pxi).
#
# 12 cards, 3 per currency, shuffled and dealt: 4 each with 2-3 seats, 3 with 4, 2 with 5-6; the rest leave
# the game unseen. In a window, every seat but the one who is next may play one: it takes one display card of
# the thief's currency (one card, whatever its value), the thief leaves the game, the display is refilled at
# once and a scoring card drawn there is scored at once; then the window's order restarts (§9.0).
#
# Who is asked (Decision, for the information of rules.md §8): a seat holding any thief card is asked whenever
# the display is not empty, whether or not a card of its thieves' currencies lies there. Asking only seats
# with a matching currency would tell the table which currencies a seat's thieves have.
#
# Code: A_THIEF | position << 4 (display position 0..3). Text: "thief y6" (the card taken).

cdef int THIEVES_DEALT[MAX_PLAYERS + 1]
THIEVES_DEALT[:] = [0, 0, 4, 4, 3, 2, 2]


cdef void thief_setup(GameState* s) noexcept nogil:
    """Deal the thief cards secretly (after the rest of the setup: the base game's chance stays the same)."""
    cdef uint8_t cards[NCUR * NTHIEVES]
    cdef int i, k, p, n = 0
    for k in range(NCUR):
        for i in range(NTHIEVES):
            cards[n] = <uint8_t>k
            n += 1
    rng_shuffle_u8(&s.rng, cards, n)
    n = 0
    for p in range(s.num_players):
        for i in range(THIEVES_DEALT[s.num_players]):
            s.thief[p][cards[n]] += 1
            n += 1
    while n < NCUR * NTHIEVES:
        s.thief_out[cards[n]] += 1
        n += 1
    thief_recount(s)


cdef int thief_holders_of(GameState* s) noexcept nogil:
    """The seats (bits) holding a thief card, counted from the hands."""
    cdef int seat, seats = 0
    for seat in range(s.num_players):
        if four_bytes(s.thief[seat]) != 0:
            seats |= 1 << seat
    return seats


cdef inline void thief_recount(GameState* s) noexcept nogil:
    """Set s.thief_holders after hands were dealt or loaded (a thief's use updates it itself; a
    determinization keeps every seat's count). The window reads it after every turn, where a loop over the
    hands cost more than the rest of its test."""
    s.thief_holders = <uint8_t>thief_holders_of(s)


cdef inline int thief_count(GameState* s, int seat) noexcept nogil:
    return s.thief[seat][0] + s.thief[seat][1] + s.thief[seat][2] + s.thief[seat][3]


cdef inline int thief_seats(GameState* s) noexcept nogil:
    """The seats (bits) the window asks because of their thieves: each holds one and is not the seat who is
    next, and the display is not empty (all public). (Four cards read as one word.)"""
    if four_bytes(s.display) == <uint32_t>NO_CARD * 0x01010101U:
        return 0
    return s.thief_holders & ~(1 << s.win_first)


cdef int gen_thief(GameState* s, int seat, int* out) noexcept nogil:
    """The seat's thief plays in the window: one per display position whose card's currency it holds a thief
    of (equal cards: the lowest position only)."""
    cdef int n = 0, i, j, c, dup
    if not (s.options & OPT_THIEF) or seat == s.win_first:
        return 0
    for i in range(4):
        c = s.display[i]
        if c == NO_CARD or not s.thief[seat][card_currency(c)]:
            continue
        dup = 0
        for j in range(i):
            if s.display[j] == c:
                dup = 1
        if not dup:
            out[n] = A_THIEF | (i << 4)
            n += 1
    return n


cdef int check_thief(GameState* s, int code) noexcept nogil:
    cdef int i = (code >> 4) & 3, c
    if code >> 6:
        return E_CODE
    if not (s.options & OPT_THIEF):
        return E_NO_MODULE
    if s.phase != PH_INTERRUPT:
        return E_THIEF_WHEN
    if s.current == s.win_first:
        return E_THIEF_NEXT
    c = s.display[i]
    if c == NO_CARD:
        return E_TAKE_EMPTY
    if not s.thief[s.current][card_currency(c)]:
        return E_THIEF_NONE
    return E_OK


cdef void apply_thief(GameState* s, int code) noexcept nogil:
    """The thief's own effect: the card goes to the hand, the thief leaves the game (the refill follows in
    thief_after_use)."""
    cdef int i = (code >> 4) & 3, c = s.display[i], k = card_currency(c)
    hand_add(s, s.current, c)
    s.display[i] = NO_CARD
    s.thief[s.current][k] -= 1
    s.thief_used[k] += 1
    if four_bytes(s.thief[s.current]) == 0:
        s.thief_holders &= ~(1 << s.current)


cdef void thief_after_use(GameState* s, EventLog* log) noexcept nogil:
    """Refill the display at once, score a scoring card drawn there at once, restart the window's order."""
    cdef int r
    refill_display(s, log)
    for r in range(2):
        if s.due & (1 << r):
            s.due &= ~(1 << r)
            score_round(s, r, log)
    s.win_k = 0
    window_advance(s)


# ---------------------------------------------------------------- its hooks (modules/table.pxi)

cdef double MOD_THIEF = 1.2         # a thief card in hand (one display card, out of turn)


cdef int thief_check(GameState* s, int code) noexcept nogil:
    """A thief played (in the window; in the action phase check_thief refuses it)."""
    if (code & 15) == A_THIEF and (s.phase == PH_ACTION or s.phase == PH_INTERRUPT):
        return check_thief(s, code)
    return -1


cdef int thief_apply(GameState* s, int code) noexcept nogil:
    apply_thief(s, code)
    return THIEF_USED


cdef bint thief_follows(GameState* s, int follows, EventLog* log) noexcept nogil:
    if follows != THIEF_USED:
        return 0
    thief_after_use(s, log)
    return 1


cdef int thief_gen_phase(GameState* s, int* out, BuyMemo* memo) noexcept nogil:
    if s.phase != PH_INTERRUPT:
        return 0
    return gen_thief(s, s.current, out)


cdef int thief_census(GameState* s, char* why) noexcept nogil:
    """Thief cards: 3 per currency in hands, out of the game or played."""
    cdef int k, p, total
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
    return 0


cdef void thief_values(GameState* s, int i, int left, double p, double* out) noexcept nogil:
    """Each card in hand is a card of money later (worth less as the game nears its end)."""
    out[i] += MOD_THIEF * (1.0 - p) * thief_count(s, i)


cdef double thief_prior(GameState* s, int a) noexcept nogil:
    return 0.5 * card_value(s.display[(a >> 4) & 3]) - MOD_THIEF * (1.0 - game_progress(s)) + 1.0


cdef void thief_resample(GameState* s, int seat, Rng* r) noexcept nogil:
    """The other seats' thief cards and those out of the game are shuffled together and dealt back, each seat
    as many as it held: uniform over the deals of the unseen cards (each card a distinct object). The pool is
    gathered by currency, so the sample depends on the public facts and the seed only."""
    cdef uint8_t pool[NCUR * NTHIEVES]
    cdef int n = 0, p, k, i, cnt[MAX_PLAYERS]
    cdef int per[NCUR]
    for k in range(NCUR):
        per[k] = s.thief_out[k]
        s.thief_out[k] = 0
    for p in range(s.num_players):
        cnt[p] = 0
        if p == seat:
            continue
        for k in range(NCUR):
            per[k] += s.thief[p][k]
            cnt[p] += s.thief[p][k]
            s.thief[p][k] = 0
    for k in range(NCUR):
        for i in range(per[k]):
            pool[n] = <uint8_t>k
            n += 1
    rng_shuffle_u8(r, pool, n)
    i = 0
    for p in range(s.num_players):
        if p != seat:
            for k in range(cnt[p]):
                s.thief[p][pool[i]] += 1
                i += 1
    while i < n:
        s.thief_out[pool[i]] += 1
        i += 1
    # (each seat keeps its count of thieves: s.thief_holders stays right without a recount)


# ---------------------------------------------------------------- its text forms (Python level; table.pxi)

cdef str thief_text(GameState* s, int code):
    """"thief y6": the display card taken."""
    if code >> 6:
        raise ValueError(f"not an action code: {code}")
    if s.display[(code >> 4) & 3] == NO_CARD:
        raise ValueError(f"thief: display position {((code >> 4) & 3) + 1} is empty")
    return "thief " + card_text(s.display[(code >> 4) & 3])


cdef int thief_parse(GameState* s, str verb, list args) except -1:
    cdef int i, c
    if len(args) != 1:
        raise ValueError("thief: name the display card taken, e.g. 'thief y6'")
    c = parse_card(args[0])
    for i in range(4):
        if s.display[i] == c:
            return A_THIEF | (i << 4)
    shown = " ".join(card_text(d) for d in s.display[:4] if d != NO_CARD) or "empty"
    raise ValueError(f"thief: {card_text(c)} is not in the display ({shown})")
