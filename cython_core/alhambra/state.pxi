# The game state: one fixed-size C struct (GameState) holding everything but the cities, which are shared
# copy-on-write CityGrid pointers (in its Cities, shared/cities.pxi). Cloning is one memcpy plus a refcount
# bump per city, whatever the cities' size.
# The turn flow (end of turn, scoring, Dirk, the end of the game) lives here as C functions; the actions that
# drive it (generation, checking, applying) are in actions.pxi, the Python class State at the end of this file.

from libc.stdint cimport int16_t
from libc.string cimport memmove

cdef enum:
    MAX_DRAW = 120            # 108 money cards + 2 scoring cards + 8 wall cards (+ room)
    MAX_PENDING = 8           # tiles bought in one turn (<= 4: the market is not refilled mid-turn)
    NO_CARD = 255
    NO_TILE = 255
    NO_SEAT = 255
    MAX_EVENTS = 160
    MAX_LEGAL = 16384         # base game: proven < 2,800 (docs/rules.md); falcons may add corners x cards

    # phases (PH_INTERRUPT .. are kept for the §9 modules: the vizier / thief interrupt window, ...)
    PH_ACTION = 0
    PH_PLACE = 1
    PH_FINAL = 2
    PH_OVER = 3
    PH_INTERRUPT = 4          # the interrupt window of rules.md §9.0 (modules/window.pxi)
    PH_FALCONS = 5            # after a first falcon: more falcons, or done (rules.md §9.4)
    PH_RESIDENT = 6           # a tile lifted the disc: move a figure in / exchange one, or done (§9.8)
    PH_DISC = 7               # the end of a turn that lifted the disc: put it back on a cell (rules.md §9.8)
    PH_FIGURES = 8            # setup: the seat secretly puts 3 of its 6 figures on its disc (rules.md §9.8)

    # option bits (Dirk and the four modules of the base rulebook are implemented; the rest are reserved)
    OPT_DIRK = 1 << 0
    OPT_VIZIER = 1 << 1
    OPT_CAMPS = 1 << 2
    OPT_BAZAARS = 1 << 3
    OPT_FALCONS = 1 << 4
    OPT_CHANGE = 1 << 5
    OPT_THIEF = 1 << 6
    OPT_WALLS = 1 << 7
    OPT_RESIDENTS = 1 << 8
    NMODULES = 8              # the lines of modules/table.pxi (one per module bit)

    # public events written to an EventLog (turned into history strings by class State)
    EV_DEAL = 1               # a = seat, b = card
    EV_START = 2              # a = seat
    EV_MARKET = 3             # a = slot, b = tile
    EV_DISPLAY = 4            # a = card
    EV_DIRK = 5               # a = tile
    EV_RESHUFFLE = 6          # a = number of cards
    EV_SCORING_CARD = 7       # a = round (1, 2)
    EV_SCORE = 8              # a = round (1..3)
    EV_END = 9                # a = slot that stayed empty
    EV_LEFTOVER = 10          # a = slot, b = tile, c = seat or NO_SEAT (tie: the tile stays)
    EV_BAZAAR = 11            # a = bazaar tile drawn while refilling the market: it waits beside the market
    EV_FALCON_BACK = 12       # a = falcon 0..14, b = seat: its corner lost a tile, it is back in the supply
    # Change and Walls (rules.md §9.5, §9.7)
    EV_COIN = 20              # a = seat, b = currency: a coin drawn from the bag as change
    EV_WALL_CARD = 21         # a = wall card 0..7 drawn while refilling the display: it lies face up
    EV_FIGURE_DRAWN = 13      # a = seat, b = type: a random figure from the supply onto the disc (Residents)

    # score_breakdown columns per round and row: majorities per type, then these
    BD_WALL = NTYPES
    BD_CAMPS = NTYPES + 1
    BD_BAZAARS = NTYPES + 2
    BD_FALCONS = NTYPES + 3
    BD_RESIDENTS = NTYPES + 4
    BD_COLS = NTYPES + 5

    MODULE_BITS = ((1 << NMODULES) - 1) << 1      # the modules' bits 1..NMODULES (bit 0: Dirk)
    NTHIEVES = 3              # thief cards per currency (Thief)
    NFIGURES = 7              # resident figures per building type (Residents)

PHASE_NAMES = ("action", "place", "final", "over", "interrupt", "falcons", "resident", "disc", "figures")


cdef struct GameState:
    Rng rng                               # the game's only source of chance
    Cities cities                         # cities, reserves, building counts, Dirk's tiles
    uint32_t options                      # OPT_* bits
    uint32_t turn                         # turns completed
    int16_t score[NROWS]                  # cumulative; [DIRK] = Dirk
    uint8_t num_players
    uint8_t current                       # seat to act (NO_SEAT when over)
    uint8_t phase                         # PH_*
    uint8_t start_player
    uint8_t actions_taken                 # actions of the current turn so far (1 after the first, ...)
    uint8_t due                           # bit r: scoring round r+1 is due (card drawn, not yet scored)
    uint8_t scored                        # bit r: scoring round r+1 was scored
    uint8_t bd_mask                       # bit r: breakdown[r] is recorded (from_setup may skip earlier rounds)
    uint8_t ended                         # the market could not be refilled: the game is ending
    uint8_t ender                         # seat whose turn ended the game
    uint8_t final_pos                     # seats of the final distribution already served
    uint8_t npending
    uint8_t pending[MAX_PENDING]          # bought this turn / received at the end, not yet placed
    uint8_t final_seat[NCUR]              # per market slot at the end: receiving seat or NO_SEAT
    uint8_t final_tile[NCUR]
    uint8_t market[NCUR]                  # tile per slot or NO_TILE
    uint8_t display[4]                    # card per position or NO_CARD
    uint8_t hand[MAX_PLAYERS][NCARD_KINDS]     # count of each money card
    uint8_t hand_n[MAX_PLAYERS]
    uint8_t cur_sum[MAX_PLAYERS][NCUR]    # total value held per currency
    uint8_t draw[MAX_DRAW]                # draw pile, top = draw[draw_pos]; codes 0..35 money, 36/37 scoring
    uint8_t draw_pos
    uint8_t draw_len
    uint8_t sc_lo[2]                      # scoring card k+1, while undrawn, lies in draw[sc_lo[k] .. sc_hi[k])
    uint8_t sc_hi[2]                      # (public: the setup piles 2 and 4)
    uint8_t discard[NCARD_KINDS]          # count of each card
    uint8_t discard_n
    uint8_t bag[MAX_TILE]                 # next tile = bag[bag_n - 1]
    uint8_t bag_n
    uint8_t breakdown[3][NROWS][BD_COLS]   # per round: majority points per type, wall, camps, bazaars, falcons
    # modules (rules.md §9): all in the fixed struct, so clone stays one memcpy
    uint8_t vizier_awake                  # bit per seat (Vizier)
    uint8_t bazaar_wait                   # bit b: bazaar BAZAAR_FIRST + b waits beside the market (Bazaars)
    uint8_t falcon_owner[NFALCONS]        # seat holding the falcon, or NO_SEAT: in the supply (Falconers)
    uint16_t falcon_cell[NFALCONS]        # packed south-west cell of the four around its corner
    uint8_t in_window                     # an interrupt window is open (asking, or placing a vizier's tile)
    uint8_t win_first                     # the window's order starts at this seat (the one who is next)
    uint8_t win_k                         # position in that order of the seat being asked
    uint8_t viz_no                        # a cache, not state (window.pxi): seats that can pay no market slot
    uint64_t viz_costs                    # exactly while the slots cost viz_costs and their money stays
    uint32_t viz_market                   # (cache) the market's four tiles viz_costs was read for; 0: none
    # Change and Walls (rules.md §9.5, §9.7; modules/change.pxi, modules/walls.pxi)
    uint8_t coins[MAX_PLAYERS][NCUR]      # coins held per seat and currency (public)
    uint8_t coin_bag[NCUR]                # coins in the bag per currency
    uint8_t wall_up                       # bit w: wall card w lies face up beside the board
    uint8_t wall_used                     # bit w: wall card w was used (it left the game)
    uint8_t wall_lo[4]                    # setup piles 2..5 lie in draw[wall_lo[p] .. wall_hi[p]) (public)
    uint8_t wall_hi[4]
    uint8_t card_walls[MAX_TILE]          # wall pieces a wall card put on tile t (t > 0; they stay with it)
    uint8_t fountain_walls[MAX_PLAYERS]   # wall pieces a wall card put on each seat's fountain
    # Thief (rules.md §9.6) and Residents (§9.8): "secret" fields are hidden from the other seats
    uint8_t thief[MAX_PLAYERS][NCUR]      # thief cards in hand per currency (secret)
    uint8_t thief_out[NCUR]               # thief cards dealt to nobody: out of the game unseen (secret)
    uint8_t thief_used[NCUR]              # thief cards played (public)
    uint8_t thief_holders                 # seats (bits) holding a thief: thief[] summed up (thief_recount)
    uint8_t disc[MAX_PLAYERS][NTYPES]     # figures on each seat's disc (secret)
    uint8_t disc_seen[MAX_PLAYERS][NTYPES]  # of those, the ones everyone saw arrive from the supply (public)
    uint8_t disc_hidden[MAX_PLAYERS]      # figures of the secret first choice still on the disc (public count)
    uint8_t disc_gone[MAX_PLAYERS]        # bit t: the first choice's figure of type t left the disc (public)
    uint16_t disc_cell[MAX_PLAYERS]       # packed cell of the disc, 0 while it is lifted
    uint8_t supply[NTYPES]                # figures in the common supply (public)
    uint64_t residents[MAX_PLAYERS][MASK_WORDS]   # buildings of each city that hold a resident
    uint8_t res_tile                      # phase "resident": the tile that lifted the disc
    uint8_t res_phase                     # phase "resident": the phase to go back to afterwards
    uint8_t setup_left                    # seats whose disc is not set up yet (figures, then its cell)


cdef struct EventLog:
    int n
    uint32_t ev[MAX_EVENTS]


cdef inline void log_event(EventLog* log, int kind, int a, int b, int c) noexcept nogil:
    if log != NULL and log.n < MAX_EVENTS:
        log.ev[log.n] = <uint32_t>kind | (<uint32_t>(a & 255) << 8) | (<uint32_t>(b & 255) << 16) \
            | (<uint32_t>(c & 255) << 24)
        log.n += 1


# ---------------------------------------------------------------- money and tiles

cdef inline void money_changed(GameState* s, int seat) noexcept nogil:
    """Every change of a seat's cards or coins calls this: what window.pxi remembers of them is void."""
    s.viz_no &= ~(1 << seat)


cdef inline void hand_add(GameState* s, int seat, int card) noexcept nogil:
    money_changed(s, seat)
    s.hand[seat][card] += 1
    s.hand_n[seat] += 1
    s.cur_sum[seat][card_currency(card)] += card_value(card)


cdef inline void hand_remove(GameState* s, int seat, int card) noexcept nogil:
    money_changed(s, seat)
    s.hand[seat][card] -= 1
    s.hand_n[seat] -= 1
    s.cur_sum[seat][card_currency(card)] -= card_value(card)


cdef void reshuffle(GameState* s, EventLog* log) noexcept nogil:
    """The discard pile becomes the new draw pile (gathered by card code, then shuffled: deterministic)."""
    cdef int c, k, n = 0
    for c in range(NCARD_KINDS):
        for k in range(s.discard[c]):
            s.draw[n] = <uint8_t>c
            n += 1
        s.discard[c] = 0
    s.discard_n = 0
    memset(s.wall_lo, 0, 4)     # the setup piles (and their wall cards) are all drawn by now
    memset(s.wall_hi, 0, 4)
    rng_shuffle_u8(&s.rng, s.draw, n)
    s.draw_pos = 0
    s.draw_len = <uint8_t>n
    log_event(log, EV_RESHUFFLE, n, 0, 0)


cdef int draw_card(GameState* s, EventLog* log) noexcept nogil:
    """Next money card from the draw pile (reshuffling the discard when the pile is empty), or -1 when both
    are empty. A scoring card met on the way is set aside and its round marked due; drawing goes on."""
    cdef int c
    while True:
        if s.draw_pos >= s.draw_len:
            if s.discard_n == 0:
                return -1
            reshuffle(s, log)
        c = s.draw[s.draw_pos]
        s.draw_pos += 1
        if c >= WALL_CARD_FIRST:
            s.wall_up |= 1 << (c - WALL_CARD_FIRST)   # a wall card: face up beside the board; drawing goes on
            log_event(log, EV_WALL_CARD, c - WALL_CARD_FIRST, 0, 0)
            continue
        if c >= NCARD_KINDS:
            s.due |= 1 << (c - SCORING_CARD_1)
            log_event(log, EV_SCORING_CARD, c - SCORING_CARD_1 + 1, 0, 0)
            continue
        return c


cdef void refill_display(GameState* s, EventLog* log) noexcept nogil:
    cdef int i, c
    for i in range(4):
        if s.display[i] == NO_CARD:
            c = draw_card(s, log)
            if c < 0:
                return          # Decision: pile and discard both empty -> the display stays short
            s.display[i] = <uint8_t>c
            log_event(log, EV_DISPLAY, c, 0, 0)


cdef inline int tile_walls_now(GameState* s, int t) noexcept nogil:
    """The walls of tile t (not the fountain) as they are now: printed, plus a wall card's pieces (Walls)."""
    return TILE_WALLS[t] | s.card_walls[t]


cdef void refill_market(GameState* s, EventLog* log) noexcept nogil:
    cdef int k, t
    for k in range(NCUR):
        while s.market[k] == NO_TILE:
            if s.bag_n == 0:
                if not s.ended:
                    log_event(log, EV_END, k, 0, 0)
                s.ended = 1
                break
            s.bag_n -= 1
            t = s.bag[s.bag_n]
            if TILE_KIND[t] == KIND_BAZAAR:
                s.bazaar_wait |= 1 << (t - BAZAAR_FIRST)     # it waits beside the market; drawing goes on
                log_event(log, EV_BAZAAR, t, 0, 0)
                continue
            s.market[k] = <uint8_t>t
            log_event(log, EV_MARKET, k, t, 0)


cdef void dirk_take(GameState* s, int count, EventLog* log) noexcept nogil:
    cdef int t
    while count > 0 and s.bag_n > 0:
        s.bag_n -= 1
        t = s.bag[s.bag_n]
        mask_set(s.cities.dirk_tiles, t)
        type_count_add(&s.cities, DIRK, t, 1)
        log_event(log, EV_DIRK, t, 0, 0)
        count -= 1


# ---------------------------------------------------------------- scoring

cdef void score_round(GameState* s, int r, EventLog* log) noexcept nogil:
    """Score round r (0, 1, 2 = rounds 1, 2, 3): majorities and outer walls (score_cities), then the modules'
    points; with Dirk, his tiles after rounds 1 and 2."""
    cdef int i, t, w, m
    for i in range(NROWS):
        for t in range(BD_COLS):
            s.breakdown[r][i][t] = 0
    score_cities(&s.cities, s.num_players, s.options & OPT_DIRK, r, s.score, &s.breakdown[r][0][0], BD_COLS)
    if s.options & MODULE_BITS:
        for i in range(s.num_players):
            for m in range(BD_CAMPS, BD_COLS):
                w = module_points(s, i, r, m)
                s.breakdown[r][i][m] = <uint8_t>(w if w < 255 else 255)
                s.score[i] += w
    s.scored |= 1 << r
    s.bd_mask |= 1 << r
    log_event(log, EV_SCORE, r + 1, 0, 0)
    if s.options & OPT_DIRK:
        if r == 0:
            dirk_take(s, 6, log)
        elif r == 1:
            dirk_take(s, s.bag_n // 3, log)


# ---------------------------------------------------------------- turn flow

cdef void advance_final(GameState* s, EventLog* log) noexcept nogil:
    """Hand the leftover market tiles to their seats, in seat order from the seat after the one who ended the
    game, each seat placing all of theirs; when nobody is left, score round 3 and end the game."""
    cdef int seat, k
    while s.final_pos < s.num_players:
        seat = (s.ender + 1 + s.final_pos) % s.num_players
        s.final_pos += 1
        s.npending = 0
        for k in range(NCUR):
            if s.final_seat[k] == seat:
                s.pending[s.npending] = s.final_tile[k]
                s.npending += 1
        if s.npending:
            s.current = <uint8_t>seat
            s.phase = PH_FINAL
            return
    score_round(s, 2, log)
    s.phase = PH_OVER
    s.current = NO_SEAT


cdef void start_final(GameState* s, EventLog* log) noexcept nogil:
    cdef int k, i, best, who, t, v
    s.ender = s.current
    s.final_pos = 0
    for k in range(NCUR):
        s.final_seat[k] = NO_SEAT
        s.final_tile[k] = NO_TILE
        t = s.market[k]
        if t == NO_TILE:
            continue
        best = -1
        who = NO_SEAT
        for i in range(s.num_players):
            v = s.cur_sum[i][k] + s.coins[i][k]      # coins count with the cards (rules.md §9.5)
            if v > best:
                best = v
                who = i
            elif v == best:
                who = NO_SEAT       # a tie for most: the tile stays (until someone is strictly richer)
        log_event(log, EV_LEFTOVER, k, t, who)
        if who != NO_SEAT:
            s.final_seat[k] = <uint8_t>who
            s.final_tile[k] = <uint8_t>t
            s.market[k] = NO_TILE
    advance_final(s, log)


cdef void finish_turn(GameState* s, EventLog* log) noexcept nogil:
    """End of turn after the placements: refill the display, refill the market, score due rounds, then either
    the next seat's turn or the end of the game (due round first, then the final distribution and round 3).
    A module's phase may come first (the Residents' "disc"; its action calls this again)."""
    cdef int r
    if module_turn_end(s):
        return
    refill_display(s, log)
    refill_market(s, log)
    for r in range(2):
        if s.due & (1 << r):
            s.due &= ~(1 << r)
            score_round(s, r, log)
    s.turn += 1
    s.actions_taken = 0
    s.npending = 0
    if s.ended:
        start_final(s, log)
    else:
        s.current = (s.current + 1) % s.num_players
        s.phase = PH_ACTION
        if s.options & WINDOW_BITS:
            window_open(s, log)


cdef inline void after_action(GameState* s, EventLog* log) noexcept nogil:
    """The seat's actions are over: place the pending tiles, or end the turn at once."""
    if s.npending:
        s.phase = PH_PLACE
    else:
        finish_turn(s, log)


# ---------------------------------------------------------------- setup

cdef void state_init(GameState* s, int n, uint64_t seed, uint32_t options) noexcept nogil:
    """An empty table for n seats: the rng seeded, fountain-only cities, no market tiles, display cards,
    final distribution or falcon owners, everything else zero. setup_game deals from here; from_setup and
    state_from_position fill in their parts."""
    cdef int i, k
    memset(s, 0, sizeof(GameState))
    rng_seed(&s.rng, seed)
    s.num_players = <uint8_t>n
    s.options = options
    for i in range(n):
        s.cities.city[i] = city_new()
    for k in range(NCUR):
        s.market[k] = NO_TILE
        s.final_seat[k] = NO_SEAT
        s.final_tile[k] = NO_TILE
    for i in range(4):
        s.display[i] = NO_CARD
    for i in range(NFALCONS):
        s.falcon_owner[i] = NO_SEAT         # (the struct's empty value: no seat 0)


cdef void setup_game(GameState* s, int n, uint64_t seed, uint32_t options, EventLog* log) noexcept nogil:
    """rules.md §2, in the order fixed by docs/design.md: shuffle tiles, fill the market (Dirk's 6), shuffle money,
    deal, start player, display, five piles, scoring cards."""
    cdef uint8_t money[MAX_DRAW]
    cdef int nm = 0, i, c, k, v, pos, start, seat, top = 0, base, extra, best_n, best_v, ntied, pick
    cdef int sizes[5]
    cdef int tied[MAX_PLAYERS]
    cdef uint8_t scratch[NMODULES * 16]
    cdef int copies = 2 if options & OPT_DIRK else 3
    state_init(s, n, seed, options)
    # tiles: the bag, then market slots 1..4 in order, then Dirk's 6 (Decision: after the market)
    for i in range(NBUILDINGS):
        s.bag[i] = <uint8_t>(i + 1)
    s.bag_n = NBUILDINGS
    module_setup(s)                         # the modules' tiles into the bag, their supplies (modules/table.pxi)
    rng_shuffle_u8(&s.rng, s.bag, s.bag_n)
    refill_market(s, log)
    if options & OPT_DIRK:
        dirk_take(s, 6, log)
    # money: 3 copies of each card (2 with Dirk), shuffled; dealt from money[top]
    for c in range(NCARD_KINDS):
        for k in range(copies):
            money[nm] = <uint8_t>c
            nm += 1
    rng_shuffle_u8(&s.rng, money, nm)
    for seat in range(n):
        v = 0
        while v < 20:
            c = money[top]
            top += 1
            hand_add(s, seat, c)
            v += card_value(c)
            log_event(log, EV_DEAL, seat, c, 0)
    # start player: fewest cards, then lowest total, then the RNG among the tied
    best_n = 1000
    best_v = 1000
    ntied = 0
    for seat in range(n):
        v = s.cur_sum[seat][0] + s.cur_sum[seat][1] + s.cur_sum[seat][2] + s.cur_sum[seat][3]
        if s.hand_n[seat] < best_n or (s.hand_n[seat] == best_n and v < best_v):
            best_n = s.hand_n[seat]
            best_v = v
            ntied = 0
        if s.hand_n[seat] == best_n and v == best_v:
            tied[ntied] = seat
            ntied += 1
    pick = tied[rng_below(&s.rng, ntied)] if ntied > 1 else tied[0]
    s.start_player = <uint8_t>pick
    s.current = <uint8_t>pick
    log_event(log, EV_START, pick, 0, 0)
    for i in range(4):
        s.display[i] = money[top]
        log_event(log, EV_DISPLAY, money[top], 0, 0)
        top += 1
    # five piles, sizes as equal as possible, larger first; scoring cards into piles 2 and 4
    base = (nm - top) // 5
    extra = (nm - top) % 5
    for k in range(5):
        sizes[k] = base + (1 if k < extra else 0)
    pos = 0
    pos = module_piles(s, -1, 0, pos, scratch)     # the modules' cards for the piles (modules/table.pxi)
    for k in range(5):
        start = pos
        for i in range(sizes[k]):
            s.draw[pos] = money[top]
            pos += 1
            top += 1
        if k == 1 or k == 3:
            # insert the scoring card at a uniform position among the sizes[k] + 1 places of its pile
            i = rng_below(&s.rng, sizes[k] + 1)
            memmove(&s.draw[start + i + 1], &s.draw[start + i], sizes[k] - i)
            s.draw[start + i] = SCORING_CARD_1 if k == 1 else SCORING_CARD_2
            pos += 1
        pos = module_piles(s, k, start, pos, scratch)
        if k == 1 or k == 3:
            s.sc_lo[k // 2] = <uint8_t>start
            s.sc_hi[k // 2] = <uint8_t>pos
    s.draw_pos = 0
    s.draw_len = <uint8_t>pos
    s.phase = PH_ACTION
    module_setup_end(s)                     # the modules' own chance, after the base game's


cdef void state_release(GameState* s) noexcept nogil:
    cities_release(&s.cities)


cdef void state_copy(GameState* dst, GameState* src) noexcept nogil:
    """dst := src (dst must hold no cities). Cities are shared: one incref each."""
    cdef int i
    memcpy(dst, src, sizeof(GameState))
    for i in range(src.num_players):
        city_incref(src.cities.city[i])


include "modules/window.pxi"
include "modules/thief.pxi"
include "modules/residents.pxi"
include "modules/scoring.pxi"
include "state_py.pxi"
