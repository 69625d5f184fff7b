# Bazaars (rules.md §9.3): buying a waiting bazaar. Drawing them beside the market is refill_market's (state.pxi),
# their round-3 points city_bazaar_score's (shared/city.pxi); in cities they are wall-less tiles of no type.
#
# Code: A_BAZAAR | b << 4 | payment << 7, b = tile - BAZAAR_FIRST (0..7), payment as in a buy (2 bits per
# value 1..9). Text: "bazaar 65 g4 g3". The price is the cost of the tile now in the slot of the bazaar's
# currency, paid exactly (so an extra action follows); with an empty slot the bazaar cannot be bought.


cdef inline int bazaar_price(GameState* s, int t) noexcept nogil:
    """Price of bazaar tile t now, or 0 when its currency's slot is empty."""
    cdef int k = BAZAAR_CUR[t]
    return 0 if s.market[k] == NO_TILE else TILE_COST[s.market[k]]


cdef inline int gen_bazaar_buys(GameState* s, int seat, int* out, BuyMemo* memo) noexcept nogil:
    """Exact payments for every waiting bazaar that has a price (out may be NULL: count only). memo: NULL, or
    the seat's BuyMemo (a bazaar costs what its currency's market slot costs: the same exact payments).
    Inline: asked on most action draws, where the usual answer (out of reach) costs less than a call."""
    cdef int n = 0, b, t, price, wait = s.bazaar_wait
    while wait:
        b = __builtin_ctzll(wait)
        wait &= wait - 1
        t = BAZAAR_FIRST + b
        price = bazaar_price(s, t)      # (no price: 0, which gen_exact_coins finds out of reach)
        n += gen_exact_coins(s, seat, BAZAAR_CUR[t], price, A_BAZAAR | (b << 4), 7, 0,
                             NULL if out == NULL else out + n,
                             NULL if memo == NULL else &memo[BAZAAR_CUR[t]].exact)
    return n


cdef inline int bazaars_gen_action(GameState* s, int* out, int n, int* counted_at, BuyMemo* memo,
                                   GenCache* gc) noexcept nogil:
    """The action phase: the buys of the bazaars waiting beside the market."""
    return gen_bazaar_buys(s, s.current, out, memo)


cdef int check_bazaar(GameState* s, int code) noexcept nogil:
    cdef int b = (code >> 4) & 7, t = BAZAAR_FIRST + ((code >> 4) & 7), r
    if code >> 28:
        return E_CODE
    if not (s.options & OPT_BAZAARS):
        return E_NO_MODULE
    if not (s.bazaar_wait >> b) & 1:
        return E_BAZAAR_NOT_WAITING
    if bazaar_price(s, t) == 0:
        return E_BAZAAR_NO_PRICE
    r = check_payment(s, BAZAAR_CUR[t], code, 7)
    if r < 0:
        return -r
    return E_OK if r == bazaar_price(s, t) else E_NOT_EXACT


cdef void apply_bazaar(GameState* s, int code) noexcept nogil:
    cdef int b = (code >> 4) & 7, t = BAZAAR_FIRST + ((code >> 4) & 7)
    pay_with(s, s.current, BAZAAR_CUR[t], code, 7)
    s.bazaar_wait &= ~(1 << b)
    s.pending[s.npending] = <uint8_t>t
    s.npending += 1


# ---------------------------------------------------------------- its hooks (modules/table.pxi)

cdef double MOD_BAZAAR = 3.0        # a bazaar off the city (round 3: a few neighbours of its types)


cdef void bazaars_setup(GameState* s) noexcept nogil:
    """The bazaars go into the bag with the buildings (before the shuffle)."""
    cdef int i
    for i in range(NBAZAARS):
        s.bag[s.bag_n] = <uint8_t>(BAZAAR_FIRST + i)
        s.bag_n += 1


cdef int bazaars_check(GameState* s, int code) noexcept nogil:
    """A bazaar bought in the action phase (in the window it is the vizier's business)."""
    if s.phase == PH_ACTION and (code & 15) == A_BAZAAR:
        return check_bazaar(s, code)
    return -1


cdef int bazaars_apply(GameState* s, int code) noexcept nogil:
    apply_bazaar(s, code)
    if s.phase == PH_INTERRUPT:
        return vizier_bought(s)
    s.actions_taken += 1
    return GOES_ON                      # a bazaar is always paid exactly


cdef int bazaars_points(GameState* s, int seat, int r) noexcept nogil:
    """rules.md §9.3: the neighbourhoods score once, in round 3."""
    return city_bazaar_score(s.cities.city[seat]) if r == 2 else 0


cdef void bazaars_values(GameState* s, int i, int left, double p, double* out) noexcept nogil:
    """The neighbourhoods as they stand now score once, in round 3."""
    if left > 0:
        out[i] += city_bazaar_score(s.cities.city[i])


cdef double bazaars_prior(GameState* s, int a) noexcept nogil:
    return bazaars_tile_worth(s, s.current, BAZAAR_FIRST + ((a >> 4) & 7)) + 1.0


cdef double bazaars_tile_worth(GameState* s, int seat, int t) noexcept nogil:
    """A bazaar not yet in the city: what it could add where it may go."""
    return MOD_BAZAAR if not s.scored & 4 else 0.0


# ---------------------------------------------------------------- its text forms (Python level; table.pxi)

cdef str bazaars_text(GameState* s, int code):
    """"bazaar 55 y4 y3" (rules.md §9.3): the tile, then the cards (and Change's coins) paid."""
    if code >> 28:
        raise ValueError(f"not an action code: {code}")
    parts = _payment_words(BAZAAR_CUR[BAZAAR_FIRST + ((code >> 4) & 7)], code, 7)
    return " ".join([f"bazaar {BAZAAR_FIRST + ((code >> 4) & 7)}"] + parts)


cdef int bazaars_parse(GameState* s, str verb, list args) except -1:
    cdef int t
    if len(args) < 2:
        raise ValueError(f"bazaar: name the bazaar tile and the cards, e.g. 'bazaar {BAZAAR_FIRST} y4 y3'")
    t = _parse_tile(args[0])
    if not BAZAAR_FIRST <= t <= LAST_TILE:
        raise ValueError(f"bazaar: tile {t} is not a bazaar ({BAZAAR_FIRST}-{LAST_TILE})")
    return A_BAZAAR | ((t - BAZAAR_FIRST) << 4) | _parse_payment("bazaar", f"bazaar {t}", BAZAAR_CUR[t], args[1:], 7)


# ---------------------------------------------------------------- JSON (its table line's seen, put, canonical
# and from_setup: observe.pxi, setup_py.pxi)

cdef int bazaars_seen(GameState* s, object st, int seat, dict out) except -1:
    """"bazaars_waiting": the bazaars beside the market; "bag_bazaars": how many the bag holds ([] and 0 while
    off)."""
    cdef int i, k = 0
    out["bazaars_waiting"] = st.bazaars_waiting()
    for i in range(s.bag_n):
        k += TILE_KIND[s.bag[i]] == KIND_BAZAAR
    out["bag_bazaars"] = k
    return 0


cdef int bazaars_put(GameState* s, dict m, bint shown, object put_tile) except -1:
    """The bazaars beside the market (the bag's count is the caller's tile census)."""
    if not shown:
        return 0
    for t in _as_list(m.get("bazaars_waiting", []), "modules.bazaars_waiting"):
        if isinstance(t, bool) or not isinstance(t, int) or not BAZAAR_FIRST <= t <= LAST_TILE \
                or not s.options & OPT_BAZAARS:
            raise PositionError(f"modules.bazaars_waiting: {t!r} is no bazaar of this game")
        put_tile(t, "the bazaars beside the market")
        s.bazaar_wait |= 1 << (t - BAZAAR_FIRST)
    return 0


cdef object bazaars_canonical(object m, uint32_t bits, bint shown, int step, object see):
    """The waiting bazaars are tiles in sight (CANON_TILES)."""
    if step == CANON_TILES and isinstance(m, dict):
        see(_as_list(m.get("bazaars_waiting", []), "modules.bazaars_waiting"), "the bazaars beside the market")
    return None


cdef int bazaars_from_setup(GameState* s, int step, dict kw, dict setup) except -1:
    """``bazaars_waiting``: bazaar tiles beside the market (SETUP_TILES: before the market and the bag)."""
    bazaars_waiting = kw["bazaars_waiting"]
    if step != SETUP_TILES or not bazaars_waiting:
        return 0
    if not s.options & OPT_BAZAARS:
        raise ValueError("bazaars_waiting: the Bazaars module is not on")
    take_tile = setup["take_tile"]
    for t in bazaars_waiting:
        take_tile(t, "the bazaars beside the market")
        if TILE_KIND[t] != KIND_BAZAAR:
            raise ValueError(f"bazaars_waiting: tile {t} is not a bazaar")
        s.bazaar_wait |= 1 << (t - BAZAAR_FIRST)
    return 0
