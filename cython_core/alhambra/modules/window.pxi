# The interrupt window (rules.md §9.0), and the exact payments it and the payments with coins share.
#
# After a turn is completely over, and before the next seat starts, the seats are asked in order: the seat
# who is next first, then on around the table, the seat who just finished last. Each seat with something
# usable decides (use one thing, or "done"); seats with nothing usable are skipped without a decision.
# After any use the order restarts from its top. The window closes when the order runs out.
#
# What a seat may use is its modules' business (their table lines' window hooks, called directly:
# dispatch.py): the Vizier (modules/vizier.pxi: buy one market tile or waiting bazaar, paying exactly, and
# place it at once) and the Thief (modules/thief.pxi: take one display card).
# A vizier's tile is placed in PH_PLACE with in_window set; when it is placed the market is refilled (which
# may end the game: the final distribution starts after the vizier's seat) and the order restarts.


cdef inline bint sums_may_pay(GameState* s, int seat, int cur, int cost, int coins) noexcept nogil:
    """The cost is payable at all (1..63) and the seat's cards of cur and `coins` coins add up to it at least
    (short of that no exact payment exists; with it, reach_mask decides)."""
    return 0 < cost <= 63 and s.cur_sum[seat][cur] + coins >= cost


cdef uint64_t reach_mask(GameState* s, int seat, int cur) noexcept nogil:
    """Bit t: some subset of the seat's cards of cur adds up to t (t < 64)."""
    cdef uint64_t reach = 1, w
    cdef uint8_t* h = &s.hand[seat][cur * NVALUES]      # cards of values 1..9
    cdef int v, k, held
    memcpy(&w, h, 8)
    held = byte_flags(bytes_nonzero(w)) | (h[8] != 0) << 8      # the values held (bit v - 1)
    while held:
        v = __builtin_ctzll(held) + 1
        held &= held - 1
        for k in range(h[v - 1]):
            reach |= reach << v
    return reach


cdef uint8_t QUOTIENT[10][64]         # QUOTIENT[v][t] = t // v: a division on every step of _exact_rec's
for _v in range(1, 10):               # search was its dearest instruction (a table read is a few cycles)
    for _t in range(64):
        QUOTIENT[_v][_t] = _t // _v


cdef int _exact_rec(int* cnt, int* rem, int v, int left, int pay, int base, int shift, int* out,
                    int n) noexcept nogil:
    """The payments of exactly `left` (<= 63: an exact payment's cost) more from the cards of values v..1
    (values from 9 down, fewer of a value first: the order of the minimal payments _buy_rec lists, which the
    exact ones are among)."""
    cdef int k, most
    if left == 0:
        if out != NULL:
            out[n] = base | (pay << shift)
        return n + 1
    if v == 0 or rem[v] < left:
        return n
    most = QUOTIENT[v][left]
    if most > cnt[v]:
        most = cnt[v]
    for k in range(most + 1):
        n = _exact_rec(cnt, rem, v - 1, left - k * v, pay | (k << (2 * (v - 1))), base, shift, out, n)
    return n


cdef void window_advance(GameState* s) noexcept nogil:
    """Ask the next seat in the order that can act; close the window when none is left. Each module acting
    in the window (its table line's window_seats / window_asks, in the order of their `window`) names the
    seats it may let act, all at once (its cheap test), then, seat by seat, whether one can act now (the
    dear test: a vizier's exact payment); a seat it found unable is not asked about again in this window."""
    cdef int seat, n = s.num_players
    cdef uint32_t seats[NMODULES]         # (only the window's lines are written and read)
    cdef uint32_t left = module_window_seats(s, seats)
    seat = s.win_first + s.win_k
    if seat >= n:
        seat -= n
    while s.win_k < n and left:
        if module_window_asks(s, seat, seats, &left):
            s.current = <uint8_t>seat
            s.phase = PH_INTERRUPT
            return
        s.win_k += 1
        seat += 1
        if seat == n:
            seat = 0
    s.win_k = <uint8_t>n                   # (the order ran out, also when nobody could act at all)
    s.in_window = 0
    s.current = s.win_first
    s.phase = PH_ACTION


cdef void window_open(GameState* s, EventLog* log) noexcept nogil:
    """Called when a turn is over and s.current is the seat who is next."""
    s.in_window = 1
    s.win_first = s.current
    s.win_k = 0
    window_advance(s)


cdef void window_after_use(GameState* s, EventLog* log) noexcept nogil:
    """A vizier's tile is placed: refill the market (it may end the game), then restart the order. (A disc the
    tile lifted goes back first: phase "disc", whose action calls this again.)"""
    if module_turn_end(s):
        return
    refill_market(s, log)
    if s.ended:
        s.in_window = 0
        s.npending = 0
        start_final(s, log)     # the vizier's seat ended the game: the distribution starts after it
        return
    s.win_k = 0
    window_advance(s)


cdef inline int vizier_bought(GameState* s) noexcept nogil:
    """The window's seat bought with its vizier: the vizier sleeps; the tile is placed at once."""
    s.vizier_awake &= ~(1 << s.current)
    s.phase = PH_PLACE
    return GOES_ON


# ---------------------------------------------------------------- JSON (observe.pxi)
# "window_order" is the window's own key, not a module's: the window is shared by its users (the vizier and
# the thief), its state (in_window, win_first, win_k) is the turn flow's, and the key is there in every game
# with modules, whichever is on. observe.pxi writes and reads it before the modules' keys.

cdef int window_seen(GameState* s, dict out) except -1:
    """"window_order": in the "interrupt" phase the seats in the window's order (the seat who is next first),
    else []."""
    cdef int n = s.num_players, k
    out["window_order"] = [(s.win_first + k) % n for k in range(n)] if s.in_window else []
    return 0


cdef int window_put(GameState* s, dict m) except -1:
    """Read "window_order" (after the phase and the current seat)."""
    cdef int n = s.num_players
    order = _as_list(m.get("window_order", []), "modules.window_order")
    if order:
        if len(order) != n or sorted(order) != list(range(n)) \
                or any(order[k] != (order[0] + k) % n for k in range(n)):
            raise PositionError("modules.window_order: the seats in table order from the one who is next")
        s.in_window = 1
        s.win_first = order[0]
        s.win_k = (s.current - order[0]) % n if s.phase == PH_INTERRUPT else 0
    elif s.phase == PH_INTERRUPT:
        raise PositionError("modules.window_order: the interrupt phase needs the window's order")
    return 0
