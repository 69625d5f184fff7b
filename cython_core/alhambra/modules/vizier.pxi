# The Vizier (rules.md §9.1): a seat's awake vizier buys one market tile or waiting bazaar, paying exactly, in
# the interrupt window (modules/window.pxi: the window asks the seats whose vizier can pay; the tile is
# placed at once); "wake" is an action of the seat's turn.


cdef double MOD_VIZIER = 2.0        # an awake vizier (an extra exact buy out of turn, once)


cdef int gen_vizier(GameState* s, int seat, int* out, BuyMemo* memo) noexcept nogil:
    """The seat's vizier buys: exact payments for every market slot, then for every waiting bazaar. memo: NULL,
    or the seat's BuyMemo (one per currency: the exact payments remembered, shared with buys and bazaars)."""
    cdef int n = 0, k
    if not (s.vizier_awake >> seat) & 1:
        return 0
    for k in range(NCUR):
        if s.market[k] != NO_TILE:
            n += gen_exact_coins(s, seat, k, TILE_COST[s.market[k]], A_BUY | (k << 4), 6, 0,
                                 NULL if out == NULL else out + n, NULL if memo == NULL else &memo[k].exact)
    n += gen_bazaar_buys(s, seat, NULL if out == NULL else out + n, memo)
    return n


# ---------------------------------------------------------------- can a vizier pay (the window asks it)

cdef inline bint exact_payable(GameState* s, int seat, int cur, int cost) noexcept nogil:
    """The seat can pay exactly cost in currency cur: cards adding up to cost, or (Change) to cost less at most
    the coins it holds (a subset sum over <= 27 cards). Inline: most calls end at the sum test."""
    cdef int coins = s.coins[seat][cur]       # coins (Change) fill any of the last `coins` points
    if coins > cost:
        coins = cost
    if not sums_may_pay(s, seat, cur, cost, coins):
        return 0
    return _cards_reach(s, seat, cur, cost, coins)


cdef bint _cards_reach(GameState* s, int seat, int cur, int cost, int coins) noexcept nogil:
    """Some subset of the seat's cards of cur adds up to cost - coins .. cost."""
    return ((reach_mask(s, seat, cur) >> (cost - coins)) & ((<uint64_t>2 << coins) - 1)) != 0


cdef enum:
    LANE_TOPS = 0x8000800080008000ULL     # the top bit of each 16-bit lane


cdef inline uint64_t _lanes16(uint32_t x) noexcept nogil:
    """Four bytes -> four 16-bit lanes (byte k in lane k)."""
    cdef uint64_t y = x
    y = (y | (y << 16)) & 0x0000FFFF0000FFFFULL
    return (y | (y << 8)) & 0x00FF00FF00FF00FFULL


cdef inline uint64_t _market_costs(GameState* s) noexcept nogil:
    """Each market slot's cost as 16-bit lanes (slot k in lane k), 255 for an empty slot (above
    exact_payable's 63: never payable)."""
    cdef int k
    cdef uint64_t lanes = 0
    for k in range(NCUR):
        lanes |= <uint64_t>(255 if s.market[k] == NO_TILE else TILE_COST[s.market[k]]) << (16 * k)
    return lanes


cdef bint vizier_can_buy(GameState* s, int seat, uint64_t cost_lanes) noexcept nogil:
    """The seat (its vizier awake) can pay some market slot exactly; cost_lanes: _market_costs (read once
    per market, window_advance asks every seat after every turn). A bazaar costs what a market tile costs:
    no other case can be payable."""
    cdef uint64_t enough
    cdef int k
    # the slots whose cost the seat's cards and coins reach, all four at once (a byte holds at most 135 + 6:
    # no carry); exact_payable decides those
    enough = ((_lanes16(four_bytes(s.cur_sum[seat]) + four_bytes(s.coins[seat])) | LANE_TOPS) - cost_lanes)
    enough &= LANE_TOPS
    while enough:
        k = __builtin_ctzll(enough) >> 4
        enough &= enough - 1
        if exact_payable(s, seat, k, (cost_lanes >> (16 * k)) & 0xFFFF):
            return 1
    return 0


# ---------------------------------------------------------------- its hooks (modules/table.pxi)

cdef void vizier_setup(GameState* s) noexcept nogil:
    s.vizier_awake = <uint8_t>((1 << s.num_players) - 1)


cdef int vizier_check(GameState* s, int code) noexcept nogil:
    """An exact buy (market or bazaar) in the window; "wake" in the action phase."""
    cdef int kind = code & 15, r
    if s.phase == PH_INTERRUPT and (kind == A_BUY or kind == A_BAZAAR):
        if not (s.vizier_awake >> s.current) & 1:
            return E_VIZIER_ASLEEP
        if kind == A_BAZAAR:
            return check_bazaar(s, code)
        r = buy_total(s, code)
        if r < 0:
            return -r
        return E_OK if r == TILE_COST[s.market[(code >> 4) & 3]] else E_NOT_EXACT
    if s.phase == PH_ACTION and kind == A_WAKE:
        if code != A_WAKE:
            return E_CODE
        if not (s.options & OPT_VIZIER):
            return E_NO_MODULE
        return E_VIZIER_AWAKE if (s.vizier_awake >> s.current) & 1 else E_OK
    return -1


cdef int vizier_apply(GameState* s, int code) noexcept nogil:
    """Wake the vizier: the seat's single action."""
    s.vizier_awake |= 1 << s.current
    s.actions_taken += 1
    return ACTIONS_OVER


cdef inline uint32_t vizier_window_seats(GameState* s) noexcept nogil:
    """The window: the seats whose vizier is awake, but those known unable to pay. A vizier that could pay
    nothing stays known as such (s.viz_no) while the slots cost the same and its seat's money stays
    (money_changed, state.pxi): most windows find nobody, and the exact-payment test is the dearest part.
    The slots' costs are read again only when the market's tiles changed (s.viz_market)."""
    cdef uint32_t market, viziers = s.vizier_awake
    cdef uint64_t cost_lanes
    if viziers:
        market = four_bytes(s.market)
        if market != s.viz_market:
            s.viz_market = market
            cost_lanes = _market_costs(s)
            if cost_lanes != s.viz_costs:
                s.viz_costs = cost_lanes
                s.viz_no = 0
        viziers &= ~s.viz_no
    return viziers


cdef inline bint vizier_window_asks(GameState* s, int seat) noexcept nogil:
    """The window: the seat's vizier can pay some market slot or waiting bazaar exactly (else it is known
    unable until the costs or its money change)."""
    if vizier_can_buy(s, seat, s.viz_costs):
        return 1
    s.viz_no |= 1 << seat
    return 0


cdef inline int vizier_gen_action(GameState* s, int* out, int n, int* counted_at, BuyMemo* memo,
                                  GenCache* gc) noexcept nogil:
    """The action phase: wake the seat's vizier while it sleeps."""
    if (s.vizier_awake >> s.current) & 1:
        return 0
    out[0] = A_WAKE
    return 1


cdef int vizier_gen_phase(GameState* s, int* out, BuyMemo* memo) noexcept nogil:
    if s.phase != PH_INTERRUPT:
        return 0
    return gen_vizier(s, s.current, out, memo)


cdef int vizier_census(GameState* s, char* why) noexcept nogil:
    """The window's cache (window.pxi): a seat it remembers as unable to pay is unable to pay."""
    cdef uint64_t costs = _market_costs(s)
    cdef int p
    if s.viz_market == four_bytes(s.market) and costs != s.viz_costs:
        memcpy(why, b"vizier costs\0", 14)
        return 1
    if s.viz_no and costs == s.viz_costs:
        for p in range(s.num_players):
            if (s.viz_no >> p) & 1 and vizier_can_buy(s, p, s.viz_costs):
                memcpy(why, b"vizier cache\0", 14)
                return 1
    return 0


cdef void vizier_values(GameState* s, int i, int left, double p, double* out) noexcept nogil:
    """An awake vizier is a possible extra tile later (worth less as the game nears its end)."""
    if (s.vizier_awake >> i) & 1:
        out[i] += MOD_VIZIER * (1.0 - p)


cdef double vizier_prior(GameState* s, int a) noexcept nogil:
    return MOD_VIZIER * (1.0 - game_progress(s)) - 1.0


# ---------------------------------------------------------------- its text forms (Python level; table.pxi)

cdef str vizier_text(GameState* s, int code):
    """"wake" (rules.md §9.1)."""
    if code != A_WAKE:
        raise ValueError(f"not an action code: {code}")
    return "wake"


cdef int vizier_parse(GameState* s, str verb, list args) except -1:
    if args:
        raise ValueError(f"{verb} takes no arguments")
    return A_WAKE


# ---------------------------------------------------------------- JSON (its table line's seen, put and
# from_setup: observe.pxi, setup_py.pxi)

cdef int vizier_seen(GameState* s, object st, int seat, dict out) except -1:
    """"vizier_awake": per seat (null while off)."""
    cdef int i
    out["vizier_awake"] = [bool((s.vizier_awake >> i) & 1) for i in range(s.num_players)] \
        if s.options & OPT_VIZIER else None
    return 0


cdef int vizier_put(GameState* s, dict m, bint shown, object put_tile) except -1:
    if not shown:
        return 0
    awake = m.get("vizier_awake")
    if s.options & OPT_VIZIER:
        awake = _as_list(awake, "modules.vizier_awake", s.num_players)
        for i, a in enumerate(awake):
            if not isinstance(a, bool):
                raise PositionError("modules.vizier_awake: true or false per seat")
            if a:
                s.vizier_awake |= 1 << i
    elif awake is not None:
        raise PositionError("modules.vizier_awake must be null without the Vizier")
    return 0


cdef int vizier_from_setup(GameState* s, int step, dict kw, dict setup) except -1:
    """``vizier_asleep``: seats (the other viziers are awake; SETUP_END)."""
    cdef int seat
    if step != SETUP_END:
        return 0
    if s.options & OPT_VIZIER:
        s.vizier_awake = <uint8_t>((1 << s.num_players) - 1)
    for seat in kw["vizier_asleep"] or ():
        if not s.options & OPT_VIZIER:
            raise ValueError("vizier_asleep: the Vizier module is not on")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < s.num_players:
            raise ValueError(f"vizier_asleep: no seat {seat!r}")
        s.vizier_awake &= ~(1 << seat)
    return 0
