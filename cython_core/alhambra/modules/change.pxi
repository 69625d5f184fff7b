# Change (rules.md §9.5): coins of value 1, six per currency, in a bag. Included by actions.pxi.
#
# A payment (buy, bazaar, the vizier's buy) may include coins of its currency: their count sits right above
# the 18-bit card field of the code (bits 24-26 of a buy, 25-27 of a bazaar). Coins alone may pay; paying
# exactly with coins counts as exact. Paid coins go back into the bag first; then an overpayment draws one
# random coin per 2 points overpaid, while the bag lasts. Coins count with the cards of their currency in the
# final distribution (start_final). Falcons cost a money card: coins do not pay for them (docs/rules.md).
# Text: a coin is its currency letter and "c" ("buy 2 g4 gc gc").


cdef inline int code_coins(int code, int shift) noexcept nogil:
    """Coins in the payment of a code whose card field starts at bit `shift`."""
    return (code >> (shift + 18)) & 7


cdef int check_payment(GameState* s, int cur, int code, int shift) noexcept nogil:
    """Total (cards + coins) of the payment in `code` (card field at bit shift, coins above it), currency cur,
    held by the seat to act; or -E_* when it is not."""
    cdef int v, have, total = 0, pay = (code >> shift) & 0x3FFFF, coins = code_coins(code, shift)
    if not pay and not coins:
        return -E_BUY_NOTHING
    if coins and not (s.options & OPT_CHANGE):
        return -E_NO_MODULE
    if coins > s.coins[s.current][cur]:
        return -E_COINS_NOT_HELD
    for v in range(1, 10):
        have = pay_count(pay, v)
        if have > s.hand[s.current][cur * NVALUES + v - 1]:
            return -E_BUY_NOT_HELD
        total += have * v
    return total + coins


cdef void draw_change(GameState* s, int seat, int n) noexcept nogil:
    """n random coins from the bag to the seat, while the bag lasts."""
    cdef int left, k, r
    while n > 0:
        left = s.coin_bag[0] + s.coin_bag[1] + s.coin_bag[2] + s.coin_bag[3]
        if left == 0:
            return
        r = rng_below(&s.rng, left)
        k = 0
        while r >= s.coin_bag[k]:
            r -= s.coin_bag[k]
            k += 1
        s.coin_bag[k] -= 1
        s.coins[seat][k] += 1
        money_changed(s, seat)
        n -= 1


cdef int pay_with(GameState* s, int seat, int cur, int code, int shift) noexcept nogil:
    """Pay the cards (to the discard) and coins (back into the bag) of a checked payment; returns the total."""
    cdef int coins = code_coins(code, shift)
    s.coins[seat][cur] -= coins
    s.coin_bag[cur] += coins
    money_changed(s, seat)
    return pay_cards(s, seat, cur, (code >> shift) & 0x3FFFF) + coins


cdef enum:
    EXACT_MEMO = 128          # exact payments an ExactMemo remembers (more: not remembered)


cdef struct ExactMemo:
    # One seat's exact payments in one currency (coins too), kept in a GenCache while its cards, its coins and
    # the cost stay: the buy with coins, the bazaar and the vizier of a currency all ask for the same cost.
    uint64_t cards            # the seat's card counts of values 1..8 of the currency (one byte each)
    int rest                  # ... of value 9, | cost << 8 | coins << 16 | 1 << 30 (0: empty)
    int n                     # fields remembered; -1: more than EXACT_MEMO
    int n0                    # of those, the ones with no coin (they come first)
    int field[EXACT_MEMO]     # coins << 18 | card field, in gen_exact_coins' order from 0 coins


cdef inline int gen_exact_coins(GameState* s, int seat, int cur, int cost, int base, int shift, int first,
                                int* out, ExactMemo* memo) noexcept nogil:
    """Every exact payment of cost with c = first.. coins of cur (up to those held) and cards for the rest, as
    base | coins << (shift + 18) | card field << shift; out may be NULL (count only). memo: NULL, or the
    seat's ExactMemo for cur (found again only when the cards, coins or cost changed). Inline: a buy, a
    bazaar and the vizier ask it for every slot, and the memo mostly answers."""
    cdef int n = 0, i, rest
    cdef uint64_t cards
    cdef uint8_t* h = &s.hand[seat][cur * NVALUES]
    if not sums_may_pay(s, seat, cur, cost, s.coins[seat][cur]):
        return 0                    # (out of reach: the memo is neither asked nor overwritten)
    if memo == NULL:
        return _exact_coins(s, seat, cur, cost, base, shift, first, out)
    memcpy(&cards, h, 8)
    rest = h[8] | (cost << 8) | (s.coins[seat][cur] << 16) | (1 << 30)
    if memo.cards != cards or memo.rest != rest:
        memo.cards = cards
        memo.rest = rest
        _exact_remember(s, seat, cur, cost, memo)
    if memo.n < 0:
        return _exact_coins(s, seat, cur, cost, base, shift, first, out)
    for i in range(memo.n0 if first > 0 else 0, memo.n):
        if memo.field[i] >> 18 >= first:
            if out != NULL:
                out[n] = base | (memo.field[i] << shift)
            n += 1
    return n


cdef int _exact_coin_buys(GameState* s, int seat, int k, int cost, int* out, ExactMemo* memo) noexcept nogil:
    return gen_exact_coins(s, seat, k, cost, A_BUY | (k << 4), 6, 1, out, memo)


# gen_buy's payments of slot k with at least one coin (Change), called through a pointer once its reach test
# passed: the compiler would inline a function called once, and gen_buy, which every base game runs, would
# grow by it.
cdef int (*gen_coin_buys)(GameState*, int, int, int, int*, ExactMemo*) noexcept nogil
gen_coin_buys = _exact_coin_buys


cdef void _exact_remember(GameState* s, int seat, int cur, int cost, ExactMemo* memo) noexcept nogil:
    cdef int fields[16 * EXACT_MEMO]          # (<= 14 coin counts x <= 128 card payments)
    cdef int i
    memo.n = _exact_coins(s, seat, cur, cost, 0, 0, 0, fields)
    if memo.n > EXACT_MEMO:
        memo.n = -1
    else:
        memcpy(memo.field, fields, memo.n * sizeof(int))
        memo.n0 = 0
        for i in range(memo.n):
            if fields[i] >> 18 == 0:
                memo.n0 += 1


cdef int _exact_coins(GameState* s, int seat, int cur, int cost, int base, int shift, int first,
                      int* out) noexcept nogil:
    """gen_exact_coins without a memo: per coin count, the exact card payments of the rest (_exact_rec; the
    sums the cards reach found once). Only gen_exact_coins calls it, once sums_may_pay passed (cost 1..63)."""
    cdef int n = 0, c, v, most = s.coins[seat][cur]
    cdef int cnt[10]
    cdef int rem[10]
    cdef uint64_t reach
    if most > cost:
        most = cost
    reach = reach_mask(s, seat, cur)          # (once: each coin count below tests its bit)
    rem[0] = 0
    cnt[0] = 0
    for v in range(1, 10):
        cnt[v] = s.hand[seat][cur * NVALUES + v - 1]
        rem[v] = rem[v - 1] + v * cnt[v]
    for c in range(first, most + 1):
        if (reach >> (cost - c)) & 1:             # (bit 0: no card, the coins alone)
            n = _exact_rec(cnt, rem, 9, cost - c, 0, base | (c << (shift + 18)), shift,
                           out, n)
    return n


def _coin_texts(int cur, int n):
    return [CURRENCY_LETTERS[cur] + "c"] * n


def _parse_coin(str word):
    """``'gc'`` -> 1 (dirham), or -1 when the word is no coin."""
    if len(word) == 2 and word[1] == "c" and word[0] in CURRENCY_LETTERS:
        return CURRENCY_LETTERS.index(word[0])
    return -1


# ---------------------------------------------------------------- its hooks (modules/table.pxi)

cdef void change_setup(GameState* s) noexcept nogil:
    cdef int k
    for k in range(NCUR):
        s.coin_bag[k] = NCOINS


cdef void change_log_before(GameState* s, int seat, uint8_t* saved, EventLog* log) noexcept nogil:
    memcpy(saved, s.coins[seat], NCUR)


cdef void change_log_after(GameState* s, int seat, uint8_t* saved, EventLog* log) noexcept nogil:
    """The change the action drew (public: coins lie face up)."""
    cdef int k, c
    for k in range(NCUR):
        for c in range(saved[k], s.coins[seat][k]):
            log_event(log, EV_COIN, seat, k, 0)


cdef int change_census(GameState* s, char* why) noexcept nogil:
    """6 coins per currency, held or in the bag."""
    cdef int k, p, total
    for k in range(NCUR):
        total = s.coin_bag[k]
        for p in range(s.num_players):
            total += s.coins[p][k]
        if total != (NCOINS if s.options & OPT_CHANGE else 0):
            memcpy(why, b"coin census\0", 12)
            return 1
    return 0


cdef void change_values(GameState* s, int i, int left, double p, double* out) noexcept nogil:
    """Coins are money like cards."""
    out[i] += EV_MONEY * (1.0 - 0.6 * p) * (s.coins[i][0] + s.coins[i][1] + s.coins[i][2] + s.coins[i][3])


# ---------------------------------------------------------------- JSON (its table line's seen, put and
# from_setup: observe.pxi, setup_py.pxi). Its keys go with the Walls' (json_with): a position of a game with
# either checks that the other's keys are null.

cdef int change_seen(GameState* s, object st, int seat, dict out) except -1:
    """"coins" per seat and "coin_bag" (all public; absent while off)."""
    cdef int i
    if s.options & OPT_CHANGE:
        out["coins"] = [st.coins(i) for i in range(s.num_players)]
        out["coin_bag"] = st.coins()
    return 0


cdef int change_put(GameState* s, dict m, bint shown, object put_tile) except -1:
    """The coins held and in the bag: 6 per currency in all."""
    cdef int i, k, n = s.num_players
    if not shown:
        return 0
    if not s.options & OPT_CHANGE:
        for name in ("coins", "coin_bag"):
            if m.get(name) is not None:
                raise PositionError(f"modules.{name} must be null (or absent) without its module")
        return 0
    coins = _as_list(m.get("coins"), "modules.coins", n)
    bag = _as_list(m.get("coin_bag"), "modules.coin_bag", NCUR)
    for k in range(NCUR):
        s.coin_bag[k] = _as_int(bag[k], "modules.coin_bag", 0, NCOINS)
    for i in range(n):
        row = _as_list(coins[i], f"modules.coins[{i}]", NCUR)
        for k in range(NCUR):
            s.coins[i][k] = _as_int(row[k], f"modules.coins[{i}]", 0, NCOINS)
    for k in range(NCUR):
        if s.coin_bag[k] + sum(s.coins[i][k] for i in range(n)) != NCOINS:
            raise PositionError(f"modules.coins: the {CURRENCY_NAMES[k]} coins held and in the bag must "
                                f"add up to {NCOINS}")
    return 0


cdef int change_from_setup(GameState* s, int step, dict kw, dict setup) except -1:
    """``coins``: per seat a list of coin texts (``["gc", "gc"]``); the rest are in the bag (SETUP_END)."""
    cdef int i, k
    if step != SETUP_END:
        return 0
    if s.options & OPT_CHANGE:
        for k in range(NCUR):
            s.coin_bag[k] = NCOINS
    for i, texts in enumerate(kw["coins"] or ()):
        if not s.options & OPT_CHANGE:
            raise ValueError("coins: the Change module is not on")
        if i >= s.num_players:
            raise ValueError(f"coins: no seat {i}")
        for w in texts or ():
            k = _parse_coin(w) if isinstance(w, str) else -1
            if k < 0:
                raise ValueError(f"coins[{i}]: {w!r} is no coin (write the currency letter and c, e.g. gc)")
            if s.coin_bag[k] == 0:
                raise ValueError(f"coins: more than {NCOINS} {CURRENCY_NAMES[k]} coins")
            s.coin_bag[k] -= 1
            s.coins[i][k] += 1
    return 0
