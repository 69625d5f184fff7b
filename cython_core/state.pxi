# The game state: one fixed-size C struct (GameState) holding everything but the cities, which are shared
# copy-on-write CityGrid pointers. Cloning is one memcpy plus a refcount bump per city, whatever the cities' size.
# The turn flow (end of turn, scoring, Dirk, the end of the game) lives here as C functions; the actions that
# drive it (generation, checking, applying) are in actions.pxi, the Python class State at the end of this file.

from libc.stdint cimport int16_t
from libc.string cimport memmove

cdef enum:
    MAX_PLAYERS = 6
    DIRK = 6                  # row of Dirk in score / type_count / breakdown
    NROWS = 7                 # seats + Dirk
    MAX_DRAW = 112            # 108 money cards + 2 scoring cards (+ room)
    MAX_PENDING = 8           # tiles bought in one turn (<= 4: the market is not refilled mid-turn)
    NO_CARD = 255
    NO_TILE = 255
    NO_SEAT = 255
    MASK_WORDS = 2            # tile bitmasks cover ids 0..127 (module tiles are 55..70)
    MAX_EVENTS = 160
    MAX_LEGAL = 8192          # proven bound for the base game is < 2,800 (docs/rules.md)

    # phases (PH_INTERRUPT .. are kept for the §9 modules: the vizier / thief interrupt window, ...)
    PH_ACTION = 0
    PH_PLACE = 1
    PH_FINAL = 2
    PH_OVER = 3
    PH_INTERRUPT = 4

    # option bits (only OPT_DIRK is implemented; the others are reserved names for §9)
    OPT_DIRK = 1 << 0
    OPT_VIZIER = 1 << 1
    OPT_CAMPS = 1 << 2
    OPT_BAZAARS = 1 << 3
    OPT_FALCONS = 1 << 4
    OPT_CHANGE = 1 << 5
    OPT_THIEF = 1 << 6
    OPT_WALLS = 1 << 7
    OPT_RESIDENTS = 1 << 8

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

MODULE_OPTIONS = ("vizier", "camps", "bazaars", "falcons", "change", "thief", "walls", "residents")
PHASE_NAMES = ("action", "place", "final", "over", "interrupt")


cdef struct GameState:
    Rng rng                               # the game's only source of chance
    CityGrid* city[MAX_PLAYERS]           # shared copy-on-write: call city_unshare before changing one
    uint64_t reserve[MAX_PLAYERS][MASK_WORDS]   # tile bitmask per seat
    uint64_t dirk_tiles[MASK_WORDS]
    uint32_t options                      # OPT_* bits
    uint16_t turn                         # turns completed
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
    uint8_t type_count[NROWS][NTYPES]     # buildings of each type in each city (Dirk: his tiles)
    uint8_t draw[MAX_DRAW]                # draw pile, top = draw[draw_pos]; codes 0..35 money, 36/37 scoring
    uint8_t draw_pos
    uint8_t draw_len
    uint8_t sc_lo[2]                      # scoring card k+1, while undrawn, lies in draw[sc_lo[k] .. sc_hi[k])
    uint8_t sc_hi[2]                      # (public: the setup piles 2 and 4)
    uint8_t discard[NCARD_KINDS]          # count of each card
    uint8_t discard_n
    uint8_t bag[MAX_TILE]                 # next tile = bag[bag_n - 1]
    uint8_t bag_n
    uint8_t breakdown[3][NROWS][NTYPES + 1]    # per round: majority points per type, then wall


cdef struct EventLog:
    int n
    uint32_t ev[MAX_EVENTS]


cdef inline void log_event(EventLog* log, int kind, int a, int b, int c) noexcept nogil:
    if log != NULL and log.n < MAX_EVENTS:
        log.ev[log.n] = <uint32_t>kind | (<uint32_t>(a & 255) << 8) | (<uint32_t>(b & 255) << 16) \
            | (<uint32_t>(c & 255) << 24)
        log.n += 1


# ---------------------------------------------------------------- bitmask helpers

cdef inline bint mask_has(uint64_t* m, int t) noexcept nogil:
    return (m[t >> 6] >> (t & 63)) & 1


cdef inline void mask_set(uint64_t* m, int t) noexcept nogil:
    m[t >> 6] |= (<uint64_t>1) << (t & 63)


cdef inline void mask_clear(uint64_t* m, int t) noexcept nogil:
    m[t >> 6] &= ~((<uint64_t>1) << (t & 63))


cdef inline int mask_count(uint64_t* m) noexcept nogil:
    cdef int n = 0, w
    for w in range(MASK_WORDS):
        n += __builtin_popcountll(m[w])
    return n


cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil


cdef inline int mask_list(uint64_t* m, uint8_t* out) noexcept nogil:
    """Tiles of a mask in increasing order; returns the count."""
    cdef int n = 0, w
    cdef uint64_t b
    for w in range(MASK_WORDS):
        b = m[w]
        while b:
            out[n] = <uint8_t>(w * 64 + __builtin_ctzll(b))
            n += 1
            b &= b - 1
    return n


# ---------------------------------------------------------------- money and tiles

cdef inline void hand_add(GameState* s, int seat, int card) noexcept nogil:
    s.hand[seat][card] += 1
    s.hand_n[seat] += 1
    s.cur_sum[seat][card_currency(card)] += card_value(card)


cdef inline void hand_remove(GameState* s, int seat, int card) noexcept nogil:
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


cdef void refill_market(GameState* s, EventLog* log) noexcept nogil:
    cdef int k, t
    for k in range(NCUR):
        if s.market[k] == NO_TILE:
            if s.bag_n == 0:
                if not s.ended:
                    log_event(log, EV_END, k, 0, 0)
                s.ended = 1
                continue
            s.bag_n -= 1
            t = s.bag[s.bag_n]
            s.market[k] = <uint8_t>t
            log_event(log, EV_MARKET, k, t, 0)


cdef void dirk_take(GameState* s, int count, EventLog* log) noexcept nogil:
    cdef int t
    while count > 0 and s.bag_n > 0:
        s.bag_n -= 1
        t = s.bag[s.bag_n]
        mask_set(s.dirk_tiles, t)
        s.type_count[DIRK][TILE_TYPE[t]] += 1
        log_event(log, EV_DIRK, t, 0, 0)
        count -= 1


# ---------------------------------------------------------------- scoring

cdef void score_round(GameState* s, int r, EventLog* log) noexcept nogil:
    """Score round r (0, 1, 2 = rounds 1, 2, 3): majorities per type (ties share the sum of the places they
    occupy, rounded down; places beyond the round's are worth 0), then each seat's outer wall. Dirk (2 players)
    takes part in the majorities only."""
    cdef int rows[NROWS]
    cdef int nrows = s.num_players, t, i, j, best, place, g, pts, p, share, w
    cdef uint8_t done[NROWS]
    if s.options & OPT_DIRK:
        rows[nrows] = DIRK
        nrows += 1
    for i in range(s.num_players):
        rows[i] = i
    for i in range(NROWS):
        for t in range(NTYPES + 1):
            s.breakdown[r][i][t] = 0
    for t in range(NTYPES):
        memset(done, 0, NROWS)
        place = 0
        while place < 3:
            best = 0
            for i in range(nrows):
                if not done[i] and s.type_count[rows[i]][t] > best:
                    best = s.type_count[rows[i]][t]
            if best == 0:
                break           # nobody left with a building of this type: no more places
            g = 0
            for i in range(nrows):
                if not done[i] and s.type_count[rows[i]][t] == best:
                    g += 1
            pts = 0
            for p in range(place, place + g):
                if p < 3:
                    pts += MAJORITY_POINTS[r][t][p]
            share = pts // g
            for i in range(nrows):
                if not done[i] and s.type_count[rows[i]][t] == best:
                    done[i] = 1
                    s.breakdown[r][rows[i]][t] = <uint8_t>share
                    s.score[rows[i]] += share
            place += g
    for i in range(s.num_players):
        w = city_wall_score(s.city[i])
        s.breakdown[r][i][NTYPES] = <uint8_t>(w if w < 255 else 255)
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
    cdef int k, i, best, who, t
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
            if s.cur_sum[i][k] > best:
                best = s.cur_sum[i][k]
                who = i
            elif s.cur_sum[i][k] == best:
                who = NO_SEAT       # a tie for most: the tile stays (until someone is strictly richer)
        log_event(log, EV_LEFTOVER, k, t, who)
        if who != NO_SEAT:
            s.final_seat[k] = <uint8_t>who
            s.final_tile[k] = <uint8_t>t
            s.market[k] = NO_TILE
    advance_final(s, log)


cdef void finish_turn(GameState* s, EventLog* log) noexcept nogil:
    """End of turn after the placements: refill the display, refill the market, score due rounds, then either
    the next seat's turn or the end of the game (due round first, then the final distribution and round 3)."""
    cdef int r
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


cdef inline void after_action(GameState* s, EventLog* log) noexcept nogil:
    """The seat's actions are over: place the pending tiles, or end the turn at once."""
    if s.npending:
        s.phase = PH_PLACE
    else:
        finish_turn(s, log)


# ---------------------------------------------------------------- setup

cdef void setup_game(GameState* s, int n, uint64_t seed, uint32_t options, EventLog* log) noexcept nogil:
    """RULES §2, in the order fixed by docs/design.md: shuffle tiles, fill the market (Dirk's 6), shuffle money,
    deal, start player, display, five piles, scoring cards."""
    cdef uint8_t money[MAX_DRAW]
    cdef int nm = 0, i, c, k, v, pos, start, seat, top = 0, base, extra, best_n, best_v, ntied, pick
    cdef int sizes[5]
    cdef int tied[MAX_PLAYERS]
    cdef int copies = 2 if options & OPT_DIRK else 3
    memset(s, 0, sizeof(GameState))
    rng_seed(&s.rng, seed)
    s.num_players = <uint8_t>n
    s.options = options
    for i in range(n):
        s.city[i] = city_new()
    for k in range(NCUR):
        s.market[k] = NO_TILE
        s.final_seat[k] = NO_SEAT
        s.final_tile[k] = NO_TILE
    for i in range(4):
        s.display[i] = NO_CARD
    # tiles: the bag, then market slots 1..4 in order, then Dirk's 6 (Decision: after the market)
    for i in range(NBUILDINGS):
        s.bag[i] = <uint8_t>(i + 1)
    s.bag_n = NBUILDINGS
    rng_shuffle_u8(&s.rng, s.bag, NBUILDINGS)
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
            s.sc_lo[k // 2] = <uint8_t>start
            s.sc_hi[k // 2] = <uint8_t>pos
    s.draw_pos = 0
    s.draw_len = <uint8_t>pos
    s.phase = PH_ACTION


cdef void state_release(GameState* s) noexcept nogil:
    cdef int i
    for i in range(MAX_PLAYERS):
        if s.city[i] != NULL:
            city_decref(s.city[i])
            s.city[i] = NULL


cdef void state_copy(GameState* dst, GameState* src) noexcept nogil:
    """dst := src (dst must hold no cities). Cities are shared: one incref each."""
    cdef int i
    memcpy(dst, src, sizeof(GameState))
    for i in range(src.num_players):
        city_incref(src.city[i])


# ================================================================ Python API

class IllegalActionError(ValueError):
    """An action that is not legal in this state; the state is left unchanged. The message names the action
    and what is wrong, e.g. ``illegal action 'buy 2 g4': 4 dirham does not pay the cost 7 of tile 17``."""


_BASE_OPTIONS = ("dirk",)


def _normalize_options(int num_players, options):
    """Check an options dict; returns (OPT_* bits, normalized dict). Unknown keys and bad values raise
    ValueError naming the key; module switches are reserved names (not implemented yet)."""
    cdef uint32_t bits = 0
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ValueError(f"options must be a dict, not {type(options).__name__}")
    for key, value in options.items():
        if key in MODULE_OPTIONS:
            if value:
                raise ValueError(f"option {key!r}: module not implemented yet")
        elif key not in _BASE_OPTIONS:
            raise ValueError(f"unknown option {key!r} (known: {', '.join(_BASE_OPTIONS + MODULE_OPTIONS)})")
        elif not isinstance(value, bool):
            raise ValueError(f"option {key!r} must be true or false, not {value!r}")
    dirk = options.get("dirk", num_players == 2)
    if dirk:
        if num_players != 2:
            raise ValueError(f"option 'dirk': Dirk plays only in 2-player games (not {num_players})")
        bits |= OPT_DIRK
    return bits, {"dirk": bool(dirk)}


def _check_num_players(num_players):
    if isinstance(num_players, bool) or not isinstance(num_players, int) or not 2 <= num_players <= MAX_PLAYERS:
        raise ValueError(f"num_players must be an int from 2 to {MAX_PLAYERS}, not {num_players!r}")


def _check_seed(seed):
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 64:
        raise ValueError(f"seed must be an int from 0 to 2**64 - 1, not {seed!r}")


cdef int _LEGAL_BUF[MAX_LEGAL]


cdef class State:
    """A complete game position (public and hidden information). Create one with :func:`new_game` or
    :meth:`State.from_setup`; change it only with :meth:`apply`.

    ``record_history`` (default on for new games; copied by :meth:`clone`): when on, every apply appends the
    public events to :attr:`history`. Turn it off on search clones: apply then skips all string work.
    Clones share the history list append-safely, so cloning stays O(1) either way.

    >>> s = new_game(4, seed=7)
    >>> s.phase, s.num_players
    ('action', 4)
    """
    cdef GameState st
    cdef list _hist
    cdef Py_ssize_t _hist_len
    cdef public bint record_history
    cdef object _seed
    cdef dict _options

    def __dealloc__(self):
        state_release(&self.st)

    # ------------------------------------------------------------ construction

    cdef _hist_extend(self, list items):
        if len(self._hist) != self._hist_len:
            self._hist = self._hist[:self._hist_len]     # someone sharing the list appended: copy our prefix
        self._hist.extend(items)
        self._hist_len = len(self._hist)

    cdef _log_to_history(self, EventLog* log, str first=None):
        cdef int i, kind, a, b, c
        cdef uint32_t e
        out = [] if first is None else [first]
        deal_seat = -1
        deal = []
        for i in range(log.n):
            e = log.ev[i]
            kind = e & 255
            a = (e >> 8) & 255
            b = (e >> 16) & 255
            c = (e >> 24) & 255
            if kind == EV_DEAL:
                if a != deal_seat and deal:
                    out.append(f"seat {deal_seat + 1} dealt: " + " ".join(deal))
                    deal = []
                deal_seat = a
                deal.append(card_text(b))
                continue
            if deal:
                out.append(f"seat {deal_seat + 1} dealt: " + " ".join(deal))
                deal = []
            if kind == EV_START:
                out.append(f"start: seat {a + 1}")
            elif kind == EV_MARKET:
                out.append(f"market {a + 1}: {b}")
            elif kind == EV_DISPLAY:
                out.append(f"display: {card_text(a)}")
            elif kind == EV_DIRK:
                out.append(f"dirk: {a}")
            elif kind == EV_RESHUFFLE:
                out.append(f"reshuffle: {a} cards")
            elif kind == EV_SCORING_CARD:
                out.append(f"scoring card {a}")
            elif kind == EV_SCORE:
                line = f"score {a}: " + " ".join(str(self.st.score[j]) for j in range(self.st.num_players))
                if self.st.options & OPT_DIRK:
                    line += f" dirk {self.st.score[DIRK]}"
                out.append(line)
            elif kind == EV_END:
                out.append(f"game end: market {a + 1} stays empty")
            elif kind == EV_LEFTOVER:
                if c == NO_SEAT:
                    out.append(f"leftover market {a + 1}: {b} stays (tie for most {CURRENCY_NAMES[a]})")
                else:
                    out.append(f"leftover market {a + 1}: {b} to seat {c + 1}")
        if deal:
            out.append(f"seat {deal_seat + 1} dealt: " + " ".join(deal))
        self._hist_extend(out)

    @staticmethod
    def new_game(num_players, seed, options=None):
        """Same as the module-level :func:`new_game`."""
        return new_game(num_players, seed, options)

    cpdef State clone(self):
        """An independent copy (cities are shared copy-on-write, the history list append-safely): O(1)."""
        cdef State c = State.__new__(State)
        state_copy(&c.st, &self.st)
        c._hist = self._hist
        c._hist_len = self._hist_len
        c.record_history = self.record_history
        c._seed = self._seed
        c._options = self._options
        return c

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    # ------------------------------------------------------------ actions

    def legal_actions(self):
        """Legal action codes of the seat to act (empty when the game is over). See actions.pxi for what is
        listed: one take per distinct card multiset, only minimal buy payments, every legal cell."""
        cdef int n = gen_legal(&self.st, _LEGAL_BUF), i
        return [_LEGAL_BUF[i] for i in range(n)]

    def is_legal(self, action):
        """True if ``apply(action)`` would succeed."""
        try:
            code = self._code(action)
        except IllegalActionError:
            return False
        return check_action(&self.st, code) == E_OK

    cdef int _code(self, action) except -1:
        if isinstance(action, str):
            try:
                return _parse_action(&self.st, action)
            except ValueError as e:
                raise IllegalActionError(f"illegal action {action!r}: {e}") from None
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalActionError(f"an action is an int code or a text, not {type(action).__name__}")
        if not 0 <= action < 2 ** 31:
            raise IllegalActionError(f"not an action code: {action}")
        return action

    def apply(self, action):
        """Apply an action (int code or text form). Illegal -> :class:`IllegalActionError`, state unchanged.

        >>> s = new_game(3, seed=1)
        >>> s.apply(s.legal_actions()[0])
        """
        cdef int code = self._code(action), err
        cdef EventLog log
        err = check_action(&self.st, code)
        if err:
            raise IllegalActionError(_explain(&self.st, code, err))
        if self.record_history:
            first = f"seat {self.st.current + 1}: {_action_text(&self.st, code)}"
            log.n = 0
            apply_action(&self.st, code, &log)
            self._log_to_history(&log, first)
        else:
            apply_action(&self.st, code, NULL)

    def action_to_text(self, action):
        """Text form of an action code in this state, e.g. ``'buy 2 g4 g3'`` (ValueError if not renderable)."""
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < 2 ** 31:
            raise ValueError(f"not an action code: {action!r}")
        return _action_text(&self.st, action)

    def parse_action(self, str text):
        """Text -> code, resolved against this state (``take y3`` picks the display position). Checks the
        form, not the legality (apply does that). Unparsable text raises ValueError."""
        return _parse_action(&self.st, text)

    def random_playout(self, seed, int max_actions=1000000):
        """Play uniformly random legal actions to the end of the game (in C); returns the number of actions.
        The choices come from their own generator seeded by ``seed`` (the game's chance stays the state's).
        With ``record_history`` on, the actions and events are recorded too (slower)."""
        cdef Rng r
        cdef int n = 0, k, code
        _check_seed(seed)
        rng_seed(&r, <uint64_t>seed)
        if not self.record_history:
            return playout_random(&self.st, &r, max_actions)
        while self.st.phase != PH_OVER and n < max_actions:
            k = gen_legal(&self.st, _LEGAL_BUF)
            self.apply(_LEGAL_BUF[rng_below(&r, k)])
            n += 1
        return n

    def _sample_legal(self, seed):
        """(test hook) The action a C playout would pick with a generator seeded by ``seed``: equals
        ``legal_actions()[_rng_below(seed, len(legal_actions()))]``."""
        cdef Rng r
        cdef GenCache* gc = <GenCache*>malloc(sizeof(GenCache))
        _check_seed(seed)
        rng_seed(&r, <uint64_t>seed)
        gen_cache_reset(gc)
        code = sample_legal(&self.st, gc, &r)
        free(gc)
        return code

    # ------------------------------------------------------------ queries

    @property
    def num_players(self):
        return self.st.num_players

    @property
    def current_player(self):
        """Seat to act (0-based), -1 when the game is over."""
        return -1 if self.st.phase == PH_OVER else self.st.current

    @property
    def phase(self):
        """``"action"`` | ``"place"`` | ``"final"`` | ``"over"``."""
        return PHASE_NAMES[self.st.phase]

    @property
    def turn(self):
        """Turns completed."""
        return self.st.turn

    @property
    def actions_this_turn(self):
        """Actions the seat to act has taken this turn (0 at the start of a turn, 1 after an exact buy...)."""
        return self.st.actions_taken

    @property
    def start_player(self):
        return self.st.start_player

    @property
    def seed(self):
        return self._seed

    @property
    def options(self):
        return dict(self._options)

    @property
    def history(self):
        """Public event log (a copy): ``"seat 2: buy 2 g4 g3"``, ``"display: y3"``, ``"market 1: 17"``,
        ``"score 1: ..."``. Seats and slots are 1-based in text. Empty if record_history was off."""
        return self._hist[:self._hist_len]

    def is_terminal(self):
        return self.st.phase == PH_OVER

    def scores(self):
        return [self.st.score[i] for i in range(self.st.num_players)]

    @property
    def dirk_score(self):
        return self.st.score[DIRK] if self.st.options & OPT_DIRK else None

    @property
    def scoring_rounds_done(self):
        """How many scoring rounds were scored (round 2 is skipped if its card is never drawn)."""
        return __builtin_popcountll(self.st.scored)

    def scoring_due(self):
        """Rounds (1, 2) whose scoring card was drawn but which are not scored yet (only inside a turn end)."""
        return [r + 1 for r in range(2) if self.st.due & (1 << r)]

    def score_breakdown(self):
        """One dict per recorded scoring round: ``{"round", "seats": [{"majorities", "wall", "total"}], "dirk"}``."""
        out = []
        for r in range(3):
            if not self.st.bd_mask & (1 << r):
                continue
            seats = []
            for i in range(self.st.num_players):
                maj = [self.st.breakdown[r][i][t] for t in range(NTYPES)]
                wall = self.st.breakdown[r][i][NTYPES]
                seats.append({"majorities": maj, "wall": wall, "total": sum(maj) + wall})
            dirk = None
            if self.st.options & OPT_DIRK:
                maj = [self.st.breakdown[r][DIRK][t] for t in range(NTYPES)]
                dirk = {"majorities": maj, "total": sum(maj)}
            out.append({"round": r + 1, "seats": seats, "dirk": dirk})
        return out

    def ranking(self):
        """Rank per seat, 1 = first; tied seats share the rank (Dirk is not ranked)."""
        sc = self.scores()
        return [1 + sum(1 for o in sc if o > v) for v in sc]

    cdef int _seat(self, seat) except -1:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.st.num_players:
            raise ValueError(f"no seat {seat!r} (seats are 0..{self.st.num_players - 1})")
        return seat

    def city(self, seat):
        """The seat's city as a City value (shared, cheap; changing it never changes the state)."""
        return city_wrap(self.st.city[self._seat(seat)])

    def reserve(self, seat):
        cdef uint8_t tiles[128]
        cdef int n = mask_list(self.st.reserve[self._seat(seat)], tiles), i
        return [tiles[i] for i in range(n)]

    def hand(self, seat):
        """Sorted card texts, e.g. ``['y3', 'y7', 'b2']`` (sorted by code: currency, then value)."""
        cdef int i = self._seat(seat), c, k
        return [card_text(c) for c in range(NCARD_KINDS) for k in range(self.st.hand[i][c])]

    def hand_size(self, seat):
        return self.st.hand_n[self._seat(seat)]

    def currency_total(self, seat, int currency):
        """Total value of the seat's cards of one currency (0 florin .. 3 ducat)."""
        if not 0 <= currency < NCUR:
            raise ValueError(f"no currency {currency} (0..3)")
        return self.st.cur_sum[self._seat(seat)][currency]

    def building_counts(self, seat):
        """Buildings of each type (scoring order) in the seat's city."""
        cdef int i = self._seat(seat), t
        return [self.st.type_count[i][t] for t in range(NTYPES)]

    def dirk_building_counts(self):
        cdef int t
        return [self.st.type_count[DIRK][t] for t in range(NTYPES)]

    def market(self):
        return [None if self.st.market[k] == NO_TILE else self.st.market[k] for k in range(NCUR)]

    def display(self):
        return [None if self.st.display[i] == NO_CARD else card_text(self.st.display[i]) for i in range(4)]

    def pending(self):
        return [self.st.pending[i] for i in range(self.st.npending)]

    @property
    def draw_pile_size(self):
        """Cards left in the draw pile (scoring cards not yet drawn included)."""
        return self.st.draw_len - self.st.draw_pos

    @property
    def bag_size(self):
        return self.st.bag_n

    def discard(self):
        cdef int c, k
        return [card_text(c) for c in range(NCARD_KINDS) for k in range(self.st.discard[c])]

    def dirk_tiles(self):
        """Dirk's tiles, sorted ([] without Dirk)."""
        cdef uint8_t tiles[128]
        cdef int n = mask_list(self.st.dirk_tiles, tiles), i
        return [tiles[i] for i in range(n)]

    def scoring_card_range(self, int round_):
        """(first, last) draw-pile index (0 = top) where the scoring card of round 1 or 2 may lie, or None
        once it was drawn. Public knowledge: the sizes of the setup piles."""
        cdef int k = round_ - 1
        if k not in (0, 1):
            raise ValueError("scoring cards exist for rounds 1 and 2")
        if (self.st.scored | self.st.due) & (1 << k) or self.st.draw_pos >= self.st.sc_hi[k]:
            return None
        return (max(0, self.st.sc_lo[k] - self.st.draw_pos), self.st.sc_hi[k] - 1 - self.st.draw_pos)

    # information sets (implemented in observe.pxi)

    def observation(self, seat):
        """What ``seat`` may know, as a JSON-ready dict (docs/design.md "Observation")."""
        return observation_of(self, seat)

    def determinized(self, seat, seed):
        """A clone with everything ``seat`` cannot know resampled with ``seed`` (see observe.pxi)."""
        return determinized_of(self, seat, seed)

    # hidden information (for the referee, determinization and tests; never shown to a bot)

    def _draw_pile(self):
        """Draw pile, top first, as texts (``s1`` / ``s2`` for the scoring cards)."""
        return [card_text(c) if c < NCARD_KINDS else f"s{c - SCORING_CARD_1 + 1}"
                for c in self.st.draw[self.st.draw_pos:self.st.draw_len]]

    def _bag(self):
        """Tile bag, next drawn first."""
        return [self.st.bag[i] for i in range(self.st.bag_n - 1, -1, -1)]

    def _fingerprint(self):
        """Bytes of the complete state (struct without pointers + cities): equal exactly for equal states."""
        cdef GameState tmp
        cdef int i
        memcpy(&tmp, &self.st, sizeof(GameState))
        for i in range(MAX_PLAYERS):
            tmp.city[i] = NULL
        raw = (<char*>&tmp)[:sizeof(GameState)]
        cities = tuple(tuple(self.city(i).cells()) for i in range(self.st.num_players))
        return raw + repr(cities).encode()

    def __repr__(self):
        who = "" if self.st.phase == PH_OVER else f" seat {self.st.current}"
        return f"<State {self.st.num_players}p turn {self.st.turn}{who} {self.phase}>"

    # ------------------------------------------------------------ test / analysis set-up

    @staticmethod
    def from_setup(num_players, *, seed=0, options=None, current_player=0, turn=0, hands=None, cities=None,
                   reserves=None, market=None, display=None, draw_pile=None, discard=None, bag=None,
                   dirk_tiles=None, scores=None, dirk_score=0, scoring_rounds_done=0):
        """A position at the start of ``current_player``'s turn, built from parts; every tile and card must end
        up in exactly one place, or ValueError names what is wrong.

        - ``hands``: per seat a list of card texts; ``cities``: per seat a city text ``"x,y:tile ..."`` (or a
          list of ``(x, y, tile)``, or a City); ``reserves``: per seat tile ids; ``dirk_tiles``: tile ids.
        - ``market``: 4 entries, tile or None (default: filled from the bag, slots 1..4).
        - ``bag``: tile ids, next drawn first (default: all tiles not placed elsewhere, shuffled by ``seed``).
        - ``draw_pile``: card texts, top first, with ``s1`` / ``s2`` for undrawn scoring cards (those of the
          rounds after ``scoring_rounds_done`` must be there). Default: all cards not placed elsewhere, shuffled,
          with the undrawn scoring cards at random places (1 above 2). When it is given, the remaining cards
          form the discard unless ``discard`` is given too (then nothing may remain).
        - ``display``: up to 4 card texts or None (default: 4 cards from the shuffled rest, or empty if
          ``draw_pile`` is given).
        - ``scores``: per seat; rounds up to ``scoring_rounds_done`` count as scored (no breakdown recorded).

        >>> s = State.from_setup(2, hands=[["y3"], ["b9"]], cities=["0,0:0 1,0:7", ""])
        >>> s.building_counts(0)[0]
        1
        """
        cdef State self = State.__new__(State)
        cdef GameState* s = &self.st
        cdef int n, copies
        _check_num_players(num_players)
        _check_seed(seed)
        bits, opts = _normalize_options(num_players, options)
        n = num_players
        memset(s, 0, sizeof(GameState))
        rng_seed(&s.rng, <uint64_t>seed)
        s.num_players = n
        s.options = bits
        for i in range(n):
            s.city[i] = city_new()
        for k in range(NCUR):
            s.market[k] = NO_TILE
            s.final_seat[k] = NO_SEAT
            s.final_tile[k] = NO_TILE
        for i in range(4):
            s.display[i] = NO_CARD
        self._seed = seed
        self._options = opts
        self._hist = ["setup: from_setup"]
        self._hist_len = 1
        self.record_history = True

        def per_seat(name, value):
            if value is None:
                return [None] * n
            if isinstance(value, dict):
                bad = [key for key in value if not isinstance(key, int) or not 0 <= key < n]
                if bad:
                    raise ValueError(f"{name}: no seat {bad[0]!r}")
                return [value.get(i) for i in range(n)]
            value = list(value)
            if len(value) != n:
                raise ValueError(f"{name}: expected {n} entries (one per seat), got {len(value)}")
            return value

        where = {}

        def take_tile(t, place):
            if isinstance(t, bool) or not isinstance(t, int) or not 1 <= t <= NBUILDINGS:
                raise ValueError(f"{place}: no tile {t!r} (tiles are 1-{NBUILDINGS})")
            if t in where:
                raise ValueError(f"tile {t} is both in {where[t]} and in {place}")
            where[t] = place

        # cities
        for i, spec in enumerate(per_seat("cities", cities)):
            if spec is None:
                continue
            if isinstance(spec, str):
                cells = []
                for item in spec.split():
                    try:
                        xy, tt = item.split(":")
                        x, y = _parse_cell(xy)
                        cells.append((x, y, int(tt)))
                    except ValueError:
                        raise ValueError(f"cities[{i}]: bad cell {item!r} (write x,y:tile)") from None
            elif hasattr(spec, "cells"):
                cells = [(cx, cy, ct) for cx, cy, ct, *_ in spec.cells()]
            else:
                cells = [tuple(cell)[:3] for cell in spec]
            seen = set()
            for x, y, t in cells:
                if (x, y) in seen:
                    raise ValueError(f"cities[{i}]: cell {x},{y} given twice")
                seen.add((x, y))
                if (x, y) == (0, 0):
                    if t != FOUNTAIN:
                        raise ValueError(f"cities[{i}]: the fountain (tile 0) stands at 0,0")
                    continue
                if not (-60 <= x <= 60 and -60 <= y <= 60):
                    raise ValueError(f"cities[{i}]: cell {x},{y} is too far from the fountain")
                take_tile(t, f"the city of seat {i}")
                city_put(s.city[i], x, y, t, TILE_WALLS[t])
                s.type_count[i][TILE_TYPE[t]] += 1
            why = city_wrap(s.city[i]).is_valid()
            if why is not None:
                raise ValueError(f"cities[{i}]: not a valid city: {why}")
        for i, tiles in enumerate(per_seat("reserves", reserves)):
            for t in tiles or ():
                take_tile(t, f"the reserve of seat {i}")
                mask_set(s.reserve[i], t)
        if dirk_tiles:
            if not bits & OPT_DIRK:
                raise ValueError("dirk_tiles: there is no Dirk in this game")
            for t in dirk_tiles:
                take_tile(t, "Dirk's tiles")
                mask_set(s.dirk_tiles, t)
                s.type_count[DIRK][TILE_TYPE[t]] += 1
        if market is not None:
            market = list(market)
            if len(market) != NCUR:
                raise ValueError(f"market: expected 4 entries (tile or None), got {len(market)}")
            for k, t in enumerate(market):
                if t is not None:
                    take_tile(t, f"market slot {k + 1}")
                    s.market[k] = t
        if bag is not None:
            bag = list(bag)
            for t in bag:
                take_tile(t, "the bag")
            missing = [t for t in range(1, NBUILDINGS + 1) if t not in where]
            if missing:
                raise ValueError(f"tiles nowhere (put them in the bag, a reserve, ...): {missing}")
        else:
            bag = [t for t in range(1, NBUILDINGS + 1) if t not in where]
            arr = bytearray(bag)
            _shuffle_py(s, arr)
            bag = list(arr)
        # bag[0] is drawn first; the C bag draws from the end
        s.bag_n = len(bag)
        for i, t in enumerate(reversed(bag)):
            s.bag[i] = t
        if market is None:
            refill_market(s, NULL)
        if any(s.market[k] == NO_TILE for k in range(NCUR)):
            raise ValueError("market: every slot holds a tile at the start of a turn (an empty slot ends the game)")

        # money
        copies = 2 if bits & OPT_DIRK else 3
        count = [0] * NCARD_KINDS

        def take_cards(texts, place):
            codes = []
            for w in texts:
                if not isinstance(w, str):
                    raise ValueError(f"{place}: a card is a text like 'g3', not {w!r}")
                c = parse_card(w)
                count[c] += 1
                if count[c] > copies:
                    raise ValueError(f"{place}: more than {copies} copies of {card_text(c)} in the game")
                codes.append(c)
            return codes

        for i, texts in enumerate(per_seat("hands", hands)):
            for c in take_cards(texts or (), f"hands[{i}]"):
                hand_add(s, i, c)
        if display is not None:
            display = list(display)
            if len(display) > 4:
                raise ValueError(f"display: at most 4 cards, got {len(display)}")
            for i, w in enumerate(display):
                if w is not None:
                    s.display[i] = take_cards([w], "display")[0]
        for c in take_cards(discard or (), "discard"):
            s.discard[c] += 1
            s.discard_n += 1
        if not 0 <= scoring_rounds_done <= 2:
            raise ValueError("scoring_rounds_done: 0, 1 or 2 (round 3 ends the game)")
        needed = {r for r in (1, 2) if r > scoring_rounds_done}
        if draw_pile is not None:
            pile = []
            have = set()
            for w in draw_pile:
                if w in ("s1", "s2"):
                    r = int(w[1])
                    if r not in needed or r in have:
                        raise ValueError(f"draw_pile: scoring card {w} is not (or not once more) in the pile")
                    have.add(r)
                    pile.append(SCORING_CARD_1 + r - 1)
                else:
                    pile.extend(take_cards([w], "draw_pile"))
            if have != needed:
                raise ValueError(f"draw_pile: scoring card(s) {sorted(needed - have)} missing (write s1 / s2)")
            rest = [c for c in range(NCARD_KINDS) for _ in range(copies - count[c])]
            if rest:
                if discard is not None:
                    raise ValueError("cards nowhere: " + " ".join(card_text(c) for c in rest))
                for c in rest:
                    s.discard[c] += 1
                    s.discard_n += 1
        else:
            rest = bytearray(c for c in range(NCARD_KINDS) for _ in range(copies - count[c]))
            _shuffle_py(s, rest)
            pile = list(rest)
            if display is None:
                for i in range(min(4, len(pile))):
                    s.display[i] = pile.pop(0)
            p1 = -1
            for r in sorted(needed):
                lo = p1 + 1
                pos = lo + rng_below(&s.rng, len(pile) - lo + 1)
                pile.insert(pos, SCORING_CARD_1 + r - 1)
                p1 = pos
        s.draw_len = len(pile)
        s.draw_pos = 0
        for i, c in enumerate(pile):
            s.draw[i] = c
        for k in range(2):
            s.sc_lo[k] = 0
            s.sc_hi[k] = len(pile)
        if any(s.display[i] == NO_CARD for i in range(4)) and (s.draw_len or s.discard_n):
            raise ValueError("display: a short display at the start of a turn means the draw pile and the "
                             "discard are empty")

        # scores and turn
        s.scored = (1 << scoring_rounds_done) - 1
        for i, v in enumerate(per_seat("scores", scores)):
            if v is not None:
                if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < 30000:
                    raise ValueError(f"scores[{i}]: {v!r} is not a score")
                s.score[i] = v
        if dirk_score:
            if not bits & OPT_DIRK:
                raise ValueError("dirk_score: there is no Dirk in this game")
            s.score[DIRK] = dirk_score
        if isinstance(current_player, bool) or not isinstance(current_player, int) \
                or not 0 <= current_player < n:
            raise ValueError(f"current_player: no seat {current_player!r}")
        s.current = current_player
        s.start_player = current_player
        if not 0 <= turn < 65536:
            raise ValueError("turn: 0..65535")
        s.turn = turn
        s.phase = PH_ACTION
        return self


def _rng_below(seed, int n):
    """(test hook) The first ``rng_below(n)`` of a generator seeded by ``seed``."""
    cdef Rng r
    rng_seed(&r, <uint64_t>seed)
    return rng_below(&r, n)


cdef void _shuffle_py(GameState* s, bytearray arr):
    cdef unsigned char* p = arr
    rng_shuffle_u8(&s.rng, <uint8_t*>p, len(arr))


def new_game(num_players, seed, options=None):
    """A new game after the setup of RULES §2 (2 players: Dirk on unless ``options={"dirk": False}``).

    >>> s = new_game(4, seed=7)
    >>> len(s.market()), s.draw_pile_size > 0
    (4, True)
    """
    cdef State self = State.__new__(State)
    cdef EventLog log
    _check_num_players(num_players)
    _check_seed(seed)
    bits, opts = _normalize_options(num_players, options)
    log.n = 0
    setup_game(&self.st, num_players, <uint64_t>seed, bits, &log)
    self._seed = seed
    self._options = opts
    self._hist = []
    self._hist_len = 0
    self.record_history = True
    self._log_to_history(&log)
    return self
