# Actions: compact codes (docs/design.md "Actions"), legal-action generation, checking, applying, text forms.
#
# What gen_legal lists (and why):
#   take   one action per distinct multiset of display cards (the lowest positions among equal cards): taking
#          y3 from position 1 or from position 3 is the same move. apply() accepts any legal position mask.
#   buy    per slot, only the minimal payments of the slot's currency (no card can be dropped and still pay the
#          cost). An overpayment that contains a smaller legal payment only gives away cards and can never be
#          exact, so it is never better; apply() still accepts every legal payment.
#   build / place / swap: every legal cell for every tile; remove: every legal cell.
#   pass   only when the list would otherwise be empty.
# The order is deterministic: take, buy, build, remove, swap in the action phase; per pending tile its cells,
# then reserve, then Dirk in the placement phases.

cdef enum:
    A_TAKE = 1
    A_BUY = 2
    # 3..8: the city actions A_PLACE .. A_SWAP (shared/city_actions.pxi)
    A_PASS = 9
    # modules (rules.md §9; in the interrupt window A_BUY / A_BAZAAR are the vizier's exact buys)
    A_BAZAAR = 10            # buy a waiting bazaar (modules/bazaars.pxi)
    A_WAKE = 11              # wake the vizier
    A_DONE = 12              # decline in the interrupt window / stop buying falcons
    A_FALCON = 13            # buy one falcon (modules/falcons.pxi)
    A_THIEF = 14             # play a thief in the interrupt window (modules/thief.pxi)
    A_EXT = 15               # sub-kind in bits 4-7: 0 wall card (Walls), 1-3 the residents' decisions
    A_LAST = 15

    E_OK = 0
    E_CODE = 1
    E_OVER = 2
    E_PHASE_PLACE = 3        # an action-phase move while tiles must be placed
    E_PHASE_ACTION = 4       # a placement while in the action phase
    E_TAKE_EMPTY = 5
    E_TAKE_SUM = 6
    E_BUY_EMPTY = 7
    E_BUY_NOTHING = 8
    E_BUY_NOT_HELD = 9
    E_BUY_SHORT = 10
    E_NOT_PENDING = 11
    E_NO_DIRK = 12
    E_DIRK_FINAL = 13
    E_NOT_IN_RESERVE = 14
    E_REMOVE_TILE = 15
    E_PASS = 16
    E_BAD_TILE = 17
    E_NO_MODULE = 18
    E_NOT_EXACT = 19
    E_BAZAAR_NOT_WAITING = 20
    E_BAZAAR_NO_PRICE = 21
    E_VIZIER_ASLEEP = 22
    E_VIZIER_AWAKE = 23
    E_WINDOW = 24
    E_DONE = 25
    E_FALCON_WHEN = 26
    E_FALCON_TAKEN = 27
    E_FALCON_CARD = 28
    E_FALCON_CORNER = 29
    E_FALCON_TYPES = 30
    E_FALCON_OCCUPIED = 31
    E_FALCON_PHASE = 32
    # Change and Walls (rules.md §9.5, §9.7)
    E_COINS_NOT_HELD = 40
    E_WALL_NOT_UP = 41
    E_WALL_NOT_OWN = 42
    E_WALL_CAMP = 43
    E_WALL_TWICE = 44
    E_WALL_SIDE_TAKEN = 45
    E_WALL_FACES_TILE = 46
    # Thief and Residents (48..63: 33..47 are left to the other modules of issue 13)
    E_THIEF_WHEN = 48
    E_THIEF_NEXT = 49
    E_THIEF_NONE = 50
    E_RESIDENT_WHEN = 51
    E_DISC_WHEN = 52
    E_DISC_PHASE = 53
    E_DISC_CELL = 54
    E_RESIDENT_PHASE = 55
    E_RESIDENT_TILE = 56
    E_RESIDENT_CAMP = 57
    E_RESIDENT_NONE = 58
    E_EXCHANGE_MATCH = 59
    E_EXCHANGE_NONE = 60
    E_SUPPLY_EMPTY = 61
    E_FIGURES_WHEN = 62
    E_FIGURES_PHASE = 63
    E_CITY = 64              # + the city's own error code

ERROR_MESSAGES = {
    E_CODE: "not an action code",
    E_OVER: "the game is over",
    E_PHASE_PLACE: "the pending tiles must be placed now (place <tile> x,y / reserve / dirk)",
    E_PHASE_ACTION: "there are no tiles to place now: place is only for the tiles bought this turn",
    E_TAKE_EMPTY: "that display position is empty",
    E_TAKE_SUM: "several cards may be taken only if they add up to 5 or less",
    E_BUY_EMPTY: "that market slot is empty",
    E_BUY_NOTHING: "no cards paid",
    E_BUY_NOT_HELD: "you do not hold those cards",
    E_BUY_SHORT: "the payment is less than the cost",
    E_NOT_PENDING: "that tile is not pending",
    E_NO_DIRK: "there is no Dirk in this game",
    E_DIRK_FINAL: "leftover tiles at the end go to the city or the reserve, not to Dirk",
    E_NOT_IN_RESERVE: "that tile is not in your reserve",
    E_REMOVE_TILE: "the tile bits do not match the tile at that cell",
    E_PASS: "pass is allowed only when no other action is legal",
    E_BAD_TILE: "no such tile in this game",
    E_NO_MODULE: "that module is not on in this game",
    E_NOT_EXACT: "it must be paid exactly",
    E_BAZAAR_NOT_WAITING: "that bazaar is not waiting beside the market",
    E_BAZAAR_NO_PRICE: "the market slot of the bazaar's currency is empty, so it has no price now",
    E_VIZIER_ASLEEP: "your vizier is asleep (wake it with the action 'wake')",
    E_VIZIER_AWAKE: "your vizier is awake already",
    E_WINDOW: "in the interrupt window only the vizier's exact buy (buy / bazaar), a thief or 'done' is possible",
    E_DONE: "'done' ends an interrupt window decision or a falcon purchase; there is none now",
    E_FALCON_WHEN: "falcons may only be bought as the single action of a turn (not after another action)",
    E_FALCON_TAKEN: "that falcon is not in the supply",
    E_FALCON_CARD: "you do not hold that card",
    E_FALCON_CORNER: "four tiles of your city do not meet at that corner",
    E_FALCON_TYPES: "the falcon's two building types do not both occur among the four tiles",
    E_FALCON_OCCUPIED: "a falcon sits on that corner already",
    E_FALCON_PHASE: "after a falcon only more falcons or 'done' may follow",
    E_COINS_NOT_HELD: "you do not hold that many coins of the currency",
    E_WALL_NOT_UP: "that wall card does not lie face up",
    E_WALL_NOT_OWN: "that tile is not in your city or reserve",
    E_WALL_CAMP: "a camp has bastions, not walls: wall pieces go on buildings, bazaars and the fountain",
    E_WALL_TWICE: "that tile already got wall pieces from another wall card",
    E_WALL_SIDE_TAKEN: "a side of the card already has a wall on that tile",
    E_WALL_FACES_TILE: "in the city a wall piece may only go on a side facing an empty cell "
                       "(the city must stay valid)",
    E_THIEF_WHEN: "a thief is played only in the interrupt window between two turns",
    E_THIEF_NEXT: "the seat who is next may not play a thief",
    E_THIEF_NONE: "you hold no thief of that card's currency",
    E_RESIDENT_WHEN: "a resident moves in (or a figure is exchanged) only when a tile has just lifted your disc",
    E_DISC_WHEN: "the disc is put back only at the end of a turn in which it was lifted",
    E_DISC_PHASE: "put your disc back first (disc x,y: an empty cell beside a tile of your city)",
    E_DISC_CELL: "the disc goes on an empty cell beside a tile of your city",
    E_RESIDENT_PHASE: "your disc was lifted: 'resident <tile>', 'exchange <type> <type>' or 'done'",
    E_RESIDENT_TILE: "only the tile that lifted the disc can take the resident",
    E_RESIDENT_CAMP: "residents live only in buildings (never on camps or bazaars)",
    E_RESIDENT_NONE: "no figure on your disc has that building's type",
    E_EXCHANGE_MATCH: "a figure on your disc matches the building: it may move in, but no exchange is allowed",
    E_EXCHANGE_NONE: "no figure of that type is on your disc",
    E_SUPPLY_EMPTY: "the supply has no figure of that type",
    E_FIGURES_WHEN: "the figures of the disc are chosen once, at the start of the game",
    E_FIGURES_PHASE: "choose your disc's figures first: 'figures <type> <type> <type>' (3 different types)",
}

KIND_NAMES = {A_TAKE: "take", A_BUY: "buy", A_PLACE: "place", A_PLACE_RESERVE: "place", A_PLACE_DIRK: "place",
              A_BUILD: "build", A_REMOVE: "remove", A_SWAP: "swap", A_PASS: "pass", A_BAZAAR: "bazaar",
              A_WAKE: "wake", A_DONE: "done", A_FALCON: "falcon", A_THIEF: "thief", A_EXT: "wall"}


cdef inline int pay_count(int pay, int v) noexcept nogil:
    """Copies of value v (1..9) in a buy payment field (code >> 6)."""
    return (pay >> (2 * (v - 1))) & 3


cdef int pay_cards(GameState* s, int seat, int cur, int pay) noexcept nogil:
    """Move the paid cards to the discard pile; returns the total."""
    cdef int v, cnt, c, total = 0
    money_changed(s, seat)
    for v in range(1, 10):
        cnt = pay_count(pay, v)
        if cnt:
            c = cur * NVALUES + v - 1
            s.hand[seat][c] -= cnt
            s.hand_n[seat] -= cnt
            s.cur_sum[seat][cur] -= cnt * v
            s.discard[c] += cnt
            s.discard_n += cnt
            total += cnt * v
    return total


include "modules/change.pxi"
include "modules/walls.pxi"
include "modules/bazaars.pxi"
include "modules/falcons.pxi"


# ---------------------------------------------------------------- generation

# TAKE_CANON[pattern]: the take masks whose equal cards are the lowest positions among the equal ones, for an
# equality pattern of the 4 display positions (bit k: pair k of (0,1) (0,2) (0,3) (1,2) (1,3) (2,3) is equal)
cdef uint16_t TAKE_CANON[64]


cdef void _init_take_table() noexcept nogil:
    cdef int pat, m, i, j, k, ok, bits
    cdef int pair_i[6]
    cdef int pair_j[6]
    cdef int lower[4]
    k = 0
    for j in range(4):
        for i in range(j + 1, 4):
            pair_j[k] = j
            pair_i[k] = i
            k += 1
    for pat in range(64):
        lower[0] = lower[1] = lower[2] = lower[3] = 0
        for k in range(6):
            if (pat >> k) & 1:
                lower[pair_i[k]] |= 1 << pair_j[k]
        bits = 0
        for m in range(1, 16):
            ok = 1
            for i in range(4):
                if (m >> i) & 1 and lower[i] & ~m:
                    ok = 0
            if ok:
                bits |= 1 << m
        TAKE_CANON[pat] = bits


_init_take_table()


cdef int gen_take(GameState* s, int* out) noexcept nogil:
    """Canonical take masks, ascending: one per multiset of display cards (equal cards are taken from the
    lowest positions first); a single card always, several only if they add up to 5 or less. out may be NULL
    (count only)."""
    cdef uint8_t* d = s.display
    cdef int occ = 0, small = 0, pat = 0, ok, m, sub, total, i, n = 0
    for i in range(4):
        if d[i] != NO_CARD:
            occ |= 1 << i
            if card_value(d[i]) <= 4:
                small |= 1 << i       # only cards of value <= 4 can be taken together (1 + 5 > 5)
    if occ == 0:
        return 0
    # single cards
    ok = (occ & 1) << 1 | (occ & 2) << 1 | (occ & 4) << 2 | (occ & 8) << 5
    # several small cards adding up to 5 or less
    if small & (small - 1):
        sub = small
        while sub:
            if sub & (sub - 1):
                total = 0
                for i in range(4):
                    if (sub >> i) & 1:
                        total += card_value(d[i])
                if total <= 5:
                    ok |= 1 << sub
            sub = (sub - 1) & small
    pat = ((d[0] == d[1]) | ((d[0] == d[2]) << 1) | ((d[0] == d[3]) << 2) | ((d[1] == d[2]) << 3)
           | ((d[1] == d[3]) << 4) | ((d[2] == d[3]) << 5))
    ok &= TAKE_CANON[pat]
    while ok:
        m = __builtin_ctzll(ok)
        ok &= ok - 1
        if out != NULL:
            out[n] = A_TAKE | (m << 4)
        n += 1
    return n


cdef int _buy_rec(int* cnt, int* rem, int v, int total, int cost, int pay, int base, int* out, int n) noexcept nogil:
    """Minimal payments: values are added from 9 down; the moment the total reaches the cost the payment is
    recorded and not extended (its last card is its smallest, and without it the total was short)."""
    cdef int k, t
    if v == 0 or total + rem[v] < cost:
        return n
    for k in range(cnt[v] + 1):
        t = total + k * v
        if k > 0 and t >= cost:
            if out != NULL:
                out[n] = base | ((pay | (k << (2 * (v - 1)))) << 6)
            return n + 1
        n = _buy_rec(cnt, rem, v - 1, t, cost, pay | (k << (2 * (v - 1))), base, out, n)
    return n


cdef inline int minimal_payments(const uint8_t* h, int cost, int base, int* out, int n) noexcept nogil:
    """The minimal payments of `cost` from the cards h[0..8] (counts of values 1..9 of one currency), as buy
    codes `base` | payment, appended to out from index n (out may be NULL: count only); returns the new n."""
    cdef int v
    cdef int cnt[10]
    cdef int rem[10]
    rem[0] = 0
    cnt[0] = 0
    for v in range(1, 10):
        cnt[v] = h[v - 1]
        rem[v] = rem[v - 1] + v * cnt[v]
    return _buy_rec(cnt, rem, 9, 0, cost, 0, base, out, n)


cdef struct BuyMemo:
    uint64_t cards                    # the seat's card counts of values 1..8 of the currency (a byte each)
    int rest                          # ... of value 9 | cost << 8 | 1 << 30 (0: empty)
    int n
    int codes[128]                    # minimal payments (<= 104)
    ExactMemo exact                   # exact payments (Change's coins, bazaars, the vizier: modules/change.pxi)


cdef int gen_buy(GameState* s, int* out, BuyMemo* memo) noexcept nogil:
    """Minimal payments for every slot (out may be NULL: count only). memo: NULL, or the seat's 4 BuyMemo
    (one per slot) of a GenCache: a currency's payments are recomputed only when its cards or cost changed
    (the memo is checked on the hand's nine bytes as they lie)."""
    cdef int n = 0, k, cost, seat = s.current, m, rest
    cdef uint64_t cards
    cdef uint8_t* h
    cdef uint32_t coins = four_bytes(s.coins[seat])     # (never any in a game without Change)
    for k in range(NCUR):
        if s.market[k] == NO_TILE:
            continue
        cost = TILE_COST[s.market[k]]
        # payments with coins (Change): exactly the cost, cards for the rest. The two tests (coins held, and
        # sums_may_pay's reach test without its cost range: a market tile's cost is in it) as one branch:
        # which slots a seat has coins for is no pattern a predictor learns
        if coins and (s.coins[seat][k] != 0) & (s.cur_sum[seat][k] + s.coins[seat][k] >= cost):
            n += gen_coin_buys(s, seat, k, cost, NULL if out == NULL else out + n,
                               NULL if memo == NULL else &memo[k].exact)
        if s.cur_sum[seat][k] < cost:
            continue
        h = &s.hand[seat][k * NVALUES]
        memcpy(&cards, h, 8)
        rest = h[8] | (cost << 8) | (1 << 30)
        if memo != NULL and memo[k].cards == cards and memo[k].rest == rest:
            m = memo[k].n
            if out != NULL:
                memcpy(out + n, memo[k].codes, m * sizeof(int))
            n += m
            continue
        if out == NULL:
            n = minimal_payments(h, cost, A_BUY | (k << 4), NULL, n)
            continue
        m = minimal_payments(h, cost, A_BUY | (k << 4), out + n, 0)
        if memo != NULL and m <= 128:
            memo[k].cards = cards
            memo[k].rest = rest
            memo[k].n = m
            memcpy(memo[k].codes, out + n, m * sizeof(int))
        n += m
    return n


include "gencache.pxi"


cdef inline CityView* _view(GameState* s, GenCache* gc, SeatView* local) noexcept nogil:
    """The current seat's city view: from the cache, or built into `local` (whose mirror must be zero)."""
    if gc == NULL:
        local.state = SV_EMPTY
        view_build(local, s.cities.city[s.current])
        return &local.v
    return seat_view(&gc.seat[s.current], s.cities.city[s.current])


cdef inline bint _has_rebuild(GameState* s) noexcept nogil:
    return s.cities.reserve[s.current][0] or s.cities.reserve[s.current][1] or s.cities.city[s.current].ntiles > 1


cdef int gen_legal_cached(GameState* s, GenCache* gc, int* out) noexcept nogil:
    """All legal actions of the seat to act into out (MAX_LEGAL ints); returns the count (0 when over).
    gc: a GenCache kept in step with the state (see gen_cache_touch), or NULL."""
    cdef int n = 0
    cdef SeatView* local = NULL
    cdef CityView* v
    if s.options & LEGAL_BITS:
        return module_gen_legal(s, gc, out)     # a module that lists every action itself (camps)
    if s.phase == PH_ACTION:
        n = gen_take(s, out) if gc == NULL else gen_take_cached(s, gc, out)
        n += gen_buy(s, out + n, NULL if gc == NULL else gc.buy[s.current])
        if s.options & MODULE_BITS:
            n += gen_action_modules(s, out + n, NULL, NULL if gc == NULL else gc.buy[s.current], gc)
        if _has_rebuild(s):
            if gc == NULL:
                local = seat_view_new()
            v = _view(s, gc, local)
            n += gen_rebuild(&s.cities, s.current, s.card_walls, v, out + n)
        if n == 0:
            out[0] = A_PASS
            n = 1
    elif s.phase == PH_PLACE or s.phase == PH_FINAL:
        if gc == NULL:
            local = seat_view_new()
        v = _view(s, gc, local)
        n = gen_place(s.pending, s.npending, (s.options & OPT_DIRK) and s.phase == PH_PLACE, s.card_walls, v, out)
    else:
        n = gen_module_phase(s, out, NULL if gc == NULL else gc.buy[s.current])
    if local != NULL:
        free(local)
    return n


cdef inline int gen_legal(GameState* s, int* out) noexcept nogil:
    """All legal actions of the seat to act into out (MAX_LEGAL ints); returns the count (0 when over)."""
    return gen_legal_cached(s, NULL, out)


# ---------------------------------------------------------------- sampling without listing

cdef inline int _kth_cell(GameState* s, CityView* v, int kind, int t, int k) noexcept nogil:
    """The k-th frontier cell where tile t fits, as a `kind` code (-1: fewer). The count steps without a
    branch on the cell (whether a cell fits is a coin toss for the branch predictor); the one branch left
    is taken once."""
    cdef int j, w = tile_walls_now(s, t)
    for j in range(v.nfront):
        k -= (MASKS_MATCH[v.front_key[j]] >> w) & 1
        if k < 0:
            return code_cell(kind, t, pg_packed(v.front_cell[j]))
    return -1


cdef inline int _kth_swap(CityView* v, int t, int walls, int k) noexcept nogil:
    """The k-th tile (not the fountain) tile t with these walls may replace, as a swap code (-1: fewer);
    counted without a branch per tile, as _kth_cell."""
    cdef int j
    for j in range(v.ntile):
        k -= (v.tile_id[j] != FOUNTAIN) & (MASKS_MATCH[v.tile_key[j]] >> walls)
        if k < 0:
            return code_cell(A_SWAP, t, pg_packed(v.tile_cell[j]))
    return -1


cdef inline int sample_legal(GameState* s, GenCache* gc, Rng* r) noexcept nogil:
    """A uniformly random legal action: exactly gen_legal_cached(s, gc, out)[rng_below(r, count)], found by
    counting (per wall mask) instead of listing every build / swap / place. -1 when the game is over.
    gc must not be NULL. Games with modules: sample_legal_modules (modules/sample.pxi), the same
    distribution; chosen here, inline, so that neither pays for the other's stack frame."""
    if s.options & MODULE_BITS:
        return sample_legal_modules(s, gc, r)
    return _sample_legal_base(s, gc, r)


cdef int _sample_legal_base(GameState* s, GenCache* gc, Rng* r) noexcept nogil:
    """sample_legal for the base game."""
    cdef uint8_t tiles[128]
    cdef int buf[16 + 4 * 128]        # takes (<= 15), then minimal payments (<= 104 per slot)
    cdef int nt = 0, ntake, nbuy, total, k, i, j, t, m, n
    cdef bint dirk
    cdef CityView* v = NULL
    if s.phase == PH_ACTION:
        ntake = gen_take_cached(s, gc, buf)
        nbuy = gen_buy(s, buf + ntake, gc.buy[s.current])
        total = ntake + nbuy
        if _has_rebuild(s):
            v = seat_view(&gc.seat[s.current], s.cities.city[s.current])
            nt = mask_list(s.cities.reserve[s.current], tiles)
            for i in range(nt):
                m = tile_walls_now(s, tiles[i])
                total += v.front_count[m] + v.swap_count[m]
            total += view_removals(v)
        if total == 0:
            return A_PASS
        k = rng_below(r, total)
        if k < ntake + nbuy:
            return buf[k]
        k -= ntake + nbuy
        for i in range(nt):
            n = v.front_count[tile_walls_now(s, tiles[i])]
            if k < n:
                return _kth_cell(s, v, A_BUILD, tiles[i], k)
            k -= n
        if k < v.nremove:
            return code_cell(A_REMOVE, v.remove_tile[k], pg_packed(v.remove_cell[k]))
        k -= v.nremove
        for i in range(nt):
            t = tiles[i]
            m = tile_walls_now(s, t)
            n = v.swap_count[m]
            if k < n:
                return _kth_swap(v, t, m, k)
            k -= n
        return -1
    if s.phase == PH_PLACE or s.phase == PH_FINAL:
        v = seat_view(&gc.seat[s.current], s.cities.city[s.current])
        dirk = (s.options & OPT_DIRK) and s.phase == PH_PLACE
        total = 0
        for i in range(s.npending):
            total += v.front_count[tile_walls_now(s, s.pending[i])] + 1 + dirk
        k = rng_below(r, total)
        for i in range(s.npending):
            t = s.pending[i]
            n = v.front_count[tile_walls_now(s, t)]
            if k < n:
                return _kth_cell(s, v, A_PLACE, t, k)
            k -= n
            if k == 0:
                return A_PLACE_RESERVE | (t << 4)
            k -= 1
            if dirk:
                if k == 0:
                    return A_PLACE_DIRK | (t << 4)
                k -= 1
        return -1
    return -1


# ---------------------------------------------------------------- checking

cdef inline int _pending_index(GameState* s, int t) noexcept nogil:
    cdef int i
    for i in range(s.npending):
        if s.pending[i] == t:
            return i
    return -1


cdef int buy_total(GameState* s, int code) noexcept nogil:
    """What a buy's payment adds up to (cards + coins), or -E_* when the code, the market slot or the payment
    is wrong; the caller compares it with the cost (a buy pays at least it, the vizier's exactly)."""
    cdef int k = (code >> 4) & 3
    if code >> 27:
        return -E_CODE
    if s.market[k] == NO_TILE:
        return -E_BUY_EMPTY
    return check_payment(s, k, code, 6)


cdef int check_action(GameState* s, int code) noexcept nogil:
    """0 if the action is legal for the seat to act, else an E_* code (E_CITY + city code for city rules)."""
    cdef int kind = code & 15, seat = s.current, m, i, total, v, k, t, x, y, r, have
    cdef int buf[MAX_LEGAL]
    if code < 0 or kind < A_TAKE or kind > A_LAST:
        return E_CODE
    if s.phase == PH_OVER:
        return E_OVER
    if PHASE_OWNER[s.phase] != NULL:
        return check_module_action(s, code)     # a module's own phase: every code is its business
    if kind == A_PLACE or kind == A_PLACE_RESERVE or kind == A_PLACE_DIRK:
        if s.phase != PH_PLACE and s.phase != PH_FINAL:
            return E_PHASE_ACTION
        t = code_tile(code)
        if kind != A_PLACE and (code >> 12):
            return E_CODE
        if (code >> 28) or not tile_in_game(s, t):
            return E_CODE if (code >> 28) else E_BAD_TILE
        if _pending_index(s, t) < 0:
            return E_NOT_PENDING
        if kind == A_PLACE_DIRK:
            if not (s.options & OPT_DIRK):
                return E_NO_DIRK
            if s.phase == PH_FINAL:
                return E_DIRK_FINAL
        if kind == A_PLACE:
            r = city_check_place_tile(s.cities.city[seat], cell_x(code), cell_y(code), t, tile_walls_now(s, t))
            if r:
                return E_CITY + r
        return E_OK
    if s.phase == PH_PLACE or s.phase == PH_FINAL:
        return E_PHASE_PLACE
    if s.phase != PH_ACTION or kind >= A_BAZAAR:
        return check_module_action(s, code)
    if kind == A_TAKE:
        m = (code >> 4) & 15
        if (code >> 8) or m == 0:
            return E_CODE
        total = 0
        for i in range(4):
            if m & (1 << i):
                if s.display[i] == NO_CARD:
                    return E_TAKE_EMPTY
                total += card_value(s.display[i])
        if (m & (m - 1)) and total > 5:
            return E_TAKE_SUM
        return E_OK
    if kind == A_BUY:
        total = buy_total(s, code)
        if total < 0:
            return -total
        if total < TILE_COST[s.market[(code >> 4) & 3]]:
            return E_BUY_SHORT
        return E_OK
    if kind == A_PASS:
        if code != A_PASS:
            return E_CODE
        if gen_legal(s, buf) != 1 or buf[0] != A_PASS:
            return E_PASS
        return E_OK
    # rebuild: build / remove / swap
    if code >> 28:
        return E_CODE
    t = code_tile(code)
    x = cell_x(code)
    y = cell_y(code)
    if kind == A_REMOVE:
        r = city_check_remove(s.cities.city[seat], x, y)
        if r:
            return E_CITY + r
        if city_tile(s.cities.city[seat], x, y) != t:
            return E_REMOVE_TILE
        return E_OK
    if not tile_in_game(s, t):
        return E_BAD_TILE
    if not mask_has(s.cities.reserve[seat], t):
        return E_NOT_IN_RESERVE
    if kind == A_BUILD:
        r = city_check_place_tile(s.cities.city[seat], x, y, t, tile_walls_now(s, t))
    else:
        r = city_check_swap_tile(s.cities.city[seat], x, y, t, tile_walls_now(s, t))
    return E_CITY + r if r else E_OK


# ---------------------------------------------------------------- applying

cdef void _after_place(GameState* s, EventLog* log) noexcept nogil:
    if s.npending == 0:
        if s.phase == PH_PLACE and s.in_window:
            window_after_use(s, log)
        elif s.phase == PH_PLACE:
            finish_turn(s, log)
        else:
            advance_final(s, log)


cdef enum:
    # what follows an action's own effect (apply_effect's answer)
    GOES_ON = 0             # exact payment: the seat's extra action follows
    ACTIONS_OVER = 1        # the seat's actions are over: placement of pending tiles, or the end of the turn
    TILE_PLACED = 2         # a pending / leftover tile was placed: the next one, or what follows the last
    WINDOW_NEXT = 3         # a seat said "done" in the interrupt window: ask the next one
    THIEF_USED = 4          # a thief took a card: refill the display, score, restart the window
    MODULE_ASKS = 5         # a module's phase asks the seat (a tile lifted the disc): nothing follows yet
    RESIDENT_DONE = 6       # the resident decision is made: go on where the placement left off
    RESIDENT_MOVED = 7      # ... after a resident moved in: first a random supply figure onto the disc
    DISC_BACK = 8           # the disc is back: the end of the turn (or of the vizier's placement) goes on
    FIGURES_CHOSEN = 9      # setup: the seat chose its disc's figures; the disc's cell follows


cdef inline int apply_effect(GameState* s, int code) noexcept nogil:
    """What a legal action itself does to the table (cards, tiles, cities), without what follows it: the
    single place of those rules. apply_action adds the rest of the turn; search's apply_partial stops here."""
    cdef int kind = code & 15, seat = s.current, m, i, v, k, cnt, t, total, c
    if kind == A_TAKE:
        m = (code >> 4) & 15
        for i in range(4):
            if m & (1 << i):
                hand_add(s, seat, s.display[i])
                s.display[i] = NO_CARD
    elif kind == A_BUY:
        k = (code >> 4) & 3
        total = pay_with(s, seat, k, code, 6)
        t = s.market[k]
        if total > TILE_COST[t]:
            draw_change(s, seat, (total - TILE_COST[t]) // 2)     # Change: one coin per 2 overpaid
        s.market[k] = NO_TILE
        s.pending[s.npending] = <uint8_t>t
        s.npending += 1
        if s.phase == PH_INTERRUPT:
            return vizier_bought(s)
        s.actions_taken += 1
        return GOES_ON if total == TILE_COST[t] else ACTIONS_OVER
    elif kind >= A_BAZAAR:
        return apply_module_action(s, code)
    elif kind == A_PLACE or kind == A_PLACE_RESERVE or kind == A_PLACE_DIRK:
        t = code_tile(code)
        i = _pending_index(s, t)
        s.npending -= 1
        s.pending[i] = s.pending[s.npending]
        city_action_apply(&s.cities, seat, code, s.card_walls)
        if kind == A_PLACE and module_placed(s, seat, cell_x(code), cell_y(code), t):
            return MODULE_ASKS
        return TILE_PLACED
    elif kind == A_BUILD:
        t = city_action_apply(&s.cities, seat, code, s.card_walls)
        if module_placed(s, seat, cell_x(code), cell_y(code), t):
            s.actions_taken += 1
            return MODULE_ASKS
    elif kind == A_REMOVE or kind == A_SWAP:
        t = city_action_apply(&s.cities, seat, code, s.card_walls)     # the tile that left the city
        module_removed(s, seat, cell_x(code), cell_y(code), t)
    s.actions_taken += 1       # take, build, remove, swap, pass
    return ACTIONS_OVER


cdef int _apply_logged(GameState* s, int code, EventLog* log) noexcept nogil:
    """apply_effect with the public events the modules log of it (the change drawn)."""
    cdef uint8_t saved[NMODULES * 16]
    cdef int seat = s.current, follows
    module_log_before(s, seat, saved, NULL)
    follows = apply_effect(s, code)
    module_log_after(s, seat, saved, log)
    return follows


cdef void apply_action(GameState* s, int code, EventLog* log) noexcept nogil:
    """Apply a legal action (unchecked: call check_action first unless the code came from gen_legal)."""
    cdef int follows
    if log != NULL and s.options & LOG_BITS and s.current != NO_SEAT:
        follows = _apply_logged(s, code, log)   # (out of line: the playouts log nothing)
    else:
        follows = apply_effect(s, code)
    if follows == ACTIONS_OVER:
        after_action(s, log)
    elif follows == TILE_PLACED:
        _after_place(s, log)
    elif follows == WINDOW_NEXT:
        s.win_k += 1
        window_advance(s)
    elif follows >= THIEF_USED:
        module_follows(s, follows, log)         # modules/table.pxi (dispatch)


include "modules/moves.pxi"
include "modules/sample.pxi"


# ---------------------------------------------------------------- text forms (Python level)

cdef str _action_text(GameState* s, int code):
    """Text form of a structurally valid code; raises ValueError when it cannot be rendered here."""
    cdef int kind = code & 15, m, i, v, k, pay
    cdef ModuleHooks* owner
    if code < 0:
        raise ValueError(f"not an action code: {code}")
    if kind == A_TAKE:
        m = (code >> 4) & 15
        if (code >> 8) or m == 0:
            raise ValueError(f"not an action code: {code}")
        cards = []
        for i in range(4):
            if m & (1 << i):
                if s.display[i] == NO_CARD:
                    raise ValueError(f"take: display position {i + 1} is empty")
                cards.append(s.display[i])
        return "take " + " ".join(card_text(c) for c in sorted(cards))
    if kind == A_BUY:
        if code >> 27:
            raise ValueError(f"not an action code: {code}")
        k = (code >> 4) & 3
        parts = _payment_words(k, code, 6)
        return f"buy {k + 1} " + " ".join(parts) if parts else f"buy {k + 1}"
    if kind == A_PASS or kind == A_DONE:
        if code != kind:
            raise ValueError(f"not an action code: {code}")
        return KIND_NAMES[kind]
    owner = code_owner(code)            # a module's code: its text (modules/table.pxi)
    if owner != NULL and owner.text != NULL:
        return owner.text(s, code)
    if A_PLACE <= kind <= A_SWAP:
        return city_action_text(code)
    raise ValueError(f"not an action code: {code}")


cdef list _payment_words(int k, int code, int shift):
    """The words of a payment in currency k (the card field at `shift`, the coins above it, as
    _parse_payment reads them): its cards, the highest first, then its coins."""
    cdef int pay = (code >> shift) & 0x3FFFF, v
    parts = []
    for v in range(9, 0, -1):
        parts.extend([CURRENCY_LETTERS[k] + str(v)] * pay_count(pay, v))
    return parts + _coin_texts(k, code_coins(code, shift))


def _parse_tile(str text):
    try:
        t = int(text)
    except ValueError:
        raise ValueError(f"bad tile {text!r} (write its id, 1-{LAST_TILE})") from None
    if not (1 <= t <= LAST_TILE):
        raise ValueError(f"no tile {t} (tiles are 1-{NBUILDINGS}, camps {CAMP_FIRST}-{CAMP_FIRST + NCAMPS - 1}, "
                         f"bazaars {BAZAAR_FIRST}-{LAST_TILE})")
    return t


def _parse_payment(str verb, str seller, int k, words, int shift):
    """Card and coin words of currency k -> card field << shift | coins << (shift + 18)."""
    cdef int pay = 0, coins = 0, v
    for w in words:
        cur = _parse_coin(w)
        if cur >= 0:
            if cur != k:
                raise ValueError(f"{verb}: {seller} sells for {CURRENCY_NAMES[k]} ({CURRENCY_LETTERS[k]}), not "
                                 f"for a {CURRENCY_NAMES[cur]} coin {w}")
            if coins == NCOINS:
                raise ValueError(f"{verb}: more than {NCOINS} {CURRENCY_NAMES[k]} coins named")
            coins += 1
            continue
        c = parse_card(w)
        if card_currency(c) != k:
            raise ValueError(f"{verb}: {seller} sells for {CURRENCY_NAMES[k]} "
                             f"({CURRENCY_LETTERS[k]}), not {card_text(c)}")
        v = card_value(c)
        if pay_count(pay, v) == 3:
            raise ValueError(f"{verb}: {card_text(c)} named more than 3 times")
        pay += 1 << (2 * (v - 1))
    return (pay << shift) | (coins << (shift + 18))


cdef int _tile_id(str text) except -1:
    return _parse_tile(text)


cdef int _parse_action(GameState* s, str text) except -1:
    """Text -> code, resolved against the state (take: display positions; remove: the tile at the cell)."""
    cdef int m, i, k, pay, v, x, y, t
    words = text.strip().lower().split()
    if not words:
        raise ValueError("empty action text")
    verb, args = words[0], words[1:]
    if verb in ("pass", "done"):
        if args:
            raise ValueError(f"{verb} takes no arguments")
        return A_PASS if verb == "pass" else A_DONE
    m = _VERB_OWNER.get(verb, -1)       # a module's verb: its parse (modules/table.pxi)
    if m >= 0:
        return MODULES_TABLE[m].parse(s, verb, args)
    if verb == "take":
        if not args:
            raise ValueError("take: name the cards, e.g. 'take y3 b2'")
        m = 0
        for w in args:
            c = parse_card(w)
            for i in range(4):
                if not (m & (1 << i)) and s.display[i] == c:
                    m |= 1 << i
                    break
            else:
                shown = " ".join(card_text(d) for d in s.display[:4] if d != NO_CARD) or "empty"
                raise ValueError(f"take: {card_text(c)} is not (or not that often) in the display ({shown})")
        return A_TAKE | (m << 4)
    if verb == "buy":
        if not args:
            raise ValueError("buy: name the slot and the cards, e.g. 'buy 2 g4 g3'")
        if args[0] not in ("1", "2", "3", "4"):
            raise ValueError(f"buy: bad slot {args[0]!r} (slots are 1-4)")
        k = int(args[0]) - 1
        if len(args) < 2:
            raise ValueError("buy: name the cards paid, e.g. 'buy 2 g4 g3' (with coins: 'buy 2 g4 gc')")
        return A_BUY | (k << 4) | _parse_payment("buy", f"slot {k + 1}", k, args[1:], 6)
    if verb in ("remove", "place", "build", "swap"):
        over = s.phase == PH_OVER or s.current == NO_SEAT
        return city_action_parse(verb, args, NULL if over else s.cities.city[s.current], "remove: the game is over",
                                 _tile_id)
    raise ValueError(f"unknown action {words[0]!r} ({_VERBS_KNOWN})")


cdef str _explain(GameState* s, int code, int err):
    """One clear message for a failed check: the action (as text when possible) and the reason."""
    try:
        what = _action_text(s, code)
    except ValueError:
        what = f"action code {code}"
    kind = code & 15
    seat = s.current
    if err >= E_CITY:
        reason = city_error_text(err - E_CITY).decode()
    elif err == E_TAKE_SUM:
        total = sum(card_value(s.display[i]) for i in range(4) if (code >> 4) & (1 << i))
        reason = f"several cards may be taken only if they add up to 5 or less (these add up to {total})"
    elif err == E_BUY_EMPTY:
        reason = f"market slot {((code >> 4) & 3) + 1} is empty"
    elif err == E_BUY_NOT_HELD:
        k = (code >> 4) & 3
        missing = [f"{CURRENCY_LETTERS[k]}{v}" for v in range(1, 10)
                   if pay_count(code >> 6, v) > s.hand[seat][k * NVALUES + v - 1]]
        reason = "you do not hold " + " ".join(missing) + " (often enough)"
    elif err == E_BUY_SHORT:
        k = (code >> 4) & 3
        total = sum(v * pay_count(code >> 6, v) for v in range(1, 10)) + code_coins(code, 6)
        t = s.market[k]
        reason = f"{total} {CURRENCY_NAMES[k]} does not pay the cost {TILE_COST[t]} of tile {t}"
    elif err == E_NOT_PENDING:
        pend = " ".join(str(s.pending[i]) for i in range(s.npending)) or "none"
        reason = f"tile {code_tile(code)} is not pending (pending: {pend})"
    elif err == E_NOT_IN_RESERVE:
        reason = f"tile {code_tile(code)} is not in your reserve"
    elif err == E_PHASE_PLACE:
        pend = " ".join(str(s.pending[i]) for i in range(s.npending))
        reason = f"the pending tiles must be placed now ({pend}): place <tile> x,y / reserve" + \
            (" / dirk" if (s.options & OPT_DIRK) and s.phase == PH_PLACE else "")
    else:
        reason = ERROR_MESSAGES.get(err, f"error {err}")
    return f"illegal action {what!r}: {reason}"
