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


cdef inline uint32_t thief_window_seats(GameState* s) noexcept nogil:
    """The window: the seats holding a thief (thief_seats)."""
    return <uint32_t>thief_seats(s)


cdef inline bint thief_window_asks(GameState* s, int seat) noexcept nogil:
    """The window: a seat holding a thief can always use it."""
    return 1


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


# ---------------------------------------------------------------- JSON (its table line's seen, put, canonical
# and from_setup: observe.pxi, setup_py.pxi). Public: how many thief cards each seat holds, the thieves played
# (per currency). Secret: the currencies of the thief cards in each hand and of those out of the game; a
# seat's observation adds its own ("thieves"), a position holds every secret ("thief_hands", "thieves_out").
# Its keys go with the Residents' (json_with): null while it is off and they are on.

cdef list _letters(uint8_t* per_cur):
    cdef int k, i
    return [CURRENCY_LETTERS[k] for k in range(NCUR) for i in range(per_cur[k])]


cdef _letters_put(uint8_t* per_cur, object v, str what):
    for w in _as_list(v, what):
        if not isinstance(w, str) or len(w) != 1 or w not in CURRENCY_LETTERS:
            raise PositionError(f"{what}: a thief card is a currency letter (y, g, b, o), not {w!r}")
        per_cur[CURRENCY_LETTERS.index(w)] += 1


cdef int thief_seen(GameState* s, object st, int seat, dict out) except -1:
    """Its keys of "modules": public facts, plus the secrets of ``seat`` (an observation) or of every seat
    (seat = -1: a position)."""
    cdef int n = s.num_players, p
    cdef bint on = s.options & OPT_THIEF
    out["thief_counts"] = [thief_count(s, p) for p in range(n)] if on else None
    out["thieves_played"] = _letters(s.thief_used) if on else None
    if seat >= 0:
        out["thieves"] = _letters(s.thief[seat]) if on else None
    else:
        out["thief_hands"] = [_letters(s.thief[p]) for p in range(n)] if on else None
        out["thieves_out"] = _letters(s.thief_out) if on else None
    return 0


cdef int thief_put(GameState* s, dict m, bint shown, object put_tile) except -1:
    """The thief cards: 3 per currency in the hands, out of the game and played."""
    cdef int p, k, total, n = s.num_players
    if not shown:
        return 0
    for name in ("thief_hands", "thieves_out", "thieves_played"):
        if (m.get(name) is not None) != bool(s.options & OPT_THIEF):
            raise PositionError(f"modules.{name} must be " + ("given" if s.options & OPT_THIEF else "null") +
                                " in this game")
    if not s.options & OPT_THIEF:
        return 0
    for p, hand in enumerate(_as_list(m["thief_hands"], "modules.thief_hands", n)):
        _letters_put(s.thief[p], hand, f"modules.thief_hands[{p}]")
    _letters_put(s.thief_out, m["thieves_out"], "modules.thieves_out")
    _letters_put(s.thief_used, m["thieves_played"], "modules.thieves_played")
    for k in range(NCUR):
        total = s.thief_out[k] + s.thief_used[k]
        for p in range(n):
            total += s.thief[p][k]
        if total != NTHIEVES:
            raise PositionError(f"thief cards of {CURRENCY_NAMES[k]}: {total}, the game has {NTHIEVES}")
    thief_recount(s)
    return 0


cdef object thief_canonical(object m, uint32_t bits, bint shown, int step, object arg):
    """CANON_SECRETS: the others' thieves by currency order, the rest out of the game (determinize reshuffles
    them). arg: (the new "modules" so far, seat count, the observing seat, phase); returns its copy."""
    cdef int n, me
    if step != CANON_SECRETS or not shown:
        return None
    out, n, me, _ = arg
    out = _modules_copy(out)
    out.pop("thieves", None)
    if m.get("thief_counts") is not None:
        counts = _as_list(m["thief_counts"], "modules.thief_counts", n)
        own = list(_as_list(m.get("thieves"), "modules.thieves"))
        if len(own) != counts[me]:
            raise PositionError("modules.thieves: the seat's own thieves do not match thief_counts")
        left = {c: NTHIEVES for c in CURRENCY_LETTERS}
        for w in own + list(_as_list(m["thieves_played"], "modules.thieves_played")):
            if w not in left or left[w] == 0:
                raise PositionError(f"modules: more thieves of {w!r} than the game has")
            left[w] -= 1
        pool = [c for c in CURRENCY_LETTERS for _ in range(left[c])]
        hands = []
        for p in range(n):
            if p == me:
                hands.append(own)
            else:
                hands.append(pool[:counts[p]])
                pool = pool[counts[p]:]
        out["thief_hands"] = hands
        out["thieves_out"] = pool
    return out


cdef int thief_from_setup(GameState* s, int step, dict kw, dict setup) except -1:
    """``thieves``: per seat its thief cards as currency letters (default: dealt by the seed; the rest are
    out of the game). SETUP_END."""
    cdef int p, k
    if step != SETUP_END:
        return 0
    thieves = setup["per_seat"]("thieves", kw["thieves"])
    if any(v is not None for v in thieves) and not s.options & OPT_THIEF:
        raise ValueError("thieves: the Thief is not on in this game")
    if not s.options & OPT_THIEF:
        return 0
    thief_setup(s)
    if any(v is not None for v in thieves):       # the given hands; the others dealt from the rest
        left = [NTHIEVES] * NCUR
        for p, hand in enumerate(thieves):
            for w in hand or ():
                if not isinstance(w, str) or w not in CURRENCY_LETTERS or len(w) != 1:
                    raise ValueError(f"thieves[{p}]: {w!r} is no currency letter (y, g, b, o)")
                k = CURRENCY_LETTERS.index(w)
                if left[k] == 0:
                    raise ValueError(f"thieves: more than {NTHIEVES} thieves of {CURRENCY_NAMES[k]}")
                left[k] -= 1
        pool = bytearray(k for k in range(NCUR) for _ in range(left[k]))
        _shuffle_py(s, pool)
        for p in range(s.num_players):
            s.thief[p][0] = s.thief[p][1] = s.thief[p][2] = s.thief[p][3] = 0
            hand = thieves[p]
            if hand is None:
                hand = [CURRENCY_LETTERS[k] for k in pool[:THIEVES_DEALT[s.num_players]]]
                pool = pool[THIEVES_DEALT[s.num_players]:]
            for w in hand:
                s.thief[p][CURRENCY_LETTERS.index(w)] += 1
        for k in range(NCUR):
            s.thief_out[k] = pool.count(k)
        thief_recount(s)
    return 0
