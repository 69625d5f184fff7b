# The seats' cities with their reserves and building counts, and Dirk's tiles (struct Cities): what the base
# game and Alcazaba keep alike, with what both do to it. Each game's state embeds one Cities; the city
# actions on it (codes, lists, effects, text) are in city_actions.pxi, the scoring of its majorities and
# outer walls at the end of this file.

from libc.stdint cimport int16_t

cdef enum:
    MAX_PLAYERS = 6
    DIRK = 6                  # row of Dirk in score / type_count / breakdown
    NROWS = 7                 # seats + Dirk
    MASK_WORDS = 2            # tile bitmasks cover ids 0..127 (module tiles are 55..70, the extra tower 71)


cdef struct Cities:
    CityGrid* city[MAX_PLAYERS]                 # shared copy-on-write: call city_unshare before changing one
    uint64_t reserve[MAX_PLAYERS][MASK_WORDS]   # tile bitmask per seat
    uint64_t dirk_tiles[MASK_WORDS]
    uint8_t type_count[NROWS][NTYPES]           # buildings of each type in each city (Dirk: his tiles)


# NO_CARD_WALLS[t]: no wall pieces on any tile (the card_walls of a game without the Walls module)
cdef uint8_t NO_CARD_WALLS[MAX_TILE]


# ---------------------------------------------------------------- bitmask helpers

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil


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


# ---------------------------------------------------------------- the cities

cdef inline void type_count_add(Cities* c, int row, int t, int d) noexcept nogil:
    """Buildings of each type per city / Dirk: camps and bazaars are no building type."""
    if TILE_TYPE[t] < NTYPES:
        c.type_count[row][TILE_TYPE[t]] += d


cdef void cities_release(Cities* c) noexcept nogil:
    cdef int i
    for i in range(MAX_PLAYERS):
        if c.city[i] != NULL:
            city_decref(c.city[i])
            c.city[i] = NULL


cdef inline void cities_share(Cities* c) noexcept nogil:
    """After a memcpy of c: its cities are held once more (copy-on-write)."""
    cdef int i
    for i in range(MAX_PLAYERS):
        if c.city[i] != NULL:
            city_incref(c.city[i])


# ---------------------------------------------------------------- scoring

cdef void score_majorities(uint8_t (*type_count)[NTYPES], int* rows, int nrows, int r, int16_t* score,
                           uint8_t* bd, int stride) noexcept nogil:
    """The majorities of round r (0, 1, 2) among the rows ``rows[0..nrows-1]`` of ``type_count``: per type,
    ties share the sum of the places they occupy, rounded down; places beyond the round's are worth 0; a row
    with none of a type has no place. Points go onto score[row], into bd[row * stride + type]."""
    cdef int t, i, best, place, g, pts, p, share
    cdef uint8_t done[NROWS]
    for t in range(NTYPES):
        memset(done, 0, NROWS)
        place = 0
        while place < 3:
            best = 0
            for i in range(nrows):
                if not done[i] and type_count[rows[i]][t] > best:
                    best = type_count[rows[i]][t]
            if best == 0:
                break           # nobody left with a building of this type: no more places
            g = 0
            for i in range(nrows):
                if not done[i] and type_count[rows[i]][t] == best:
                    g += 1
            pts = 0
            for p in range(place, place + g):
                if p < 3:
                    pts += MAJORITY_POINTS[r][t][p]
            share = pts // g
            for i in range(nrows):
                if not done[i] and type_count[rows[i]][t] == best:
                    done[i] = 1
                    bd[rows[i] * stride + t] = <uint8_t>share
                    score[rows[i]] += share
            place += g


cdef void score_cities(Cities* c, int n, bint dirk, int r, int16_t* score, uint8_t* bd, int stride) noexcept nogil:
    """Score round r (0, 1, 2): majorities per type (score_majorities), then each seat's outer wall. Dirk
    (`dirk`) takes part in the majorities only. Points go onto score[row]; row's majorities into
    bd[row * stride + type], its wall into bd[row * stride + NTYPES] (the caller zeroes bd first)."""
    cdef int rows[NROWS]
    cdef int nrows = n, i, w
    if dirk:
        rows[nrows] = DIRK
        nrows += 1
    for i in range(n):
        rows[i] = i
    score_majorities(c.type_count, rows, nrows, r, score, bd, stride)
    for i in range(n):
        w = city_wall_score(c.city[i])
        bd[i * stride + NTYPES] = <uint8_t>(w if w < 255 else 255)
        score[i] += w


def majority_shares(counts, int round_):
    """The majority points scoring round ``round_`` (1, 2, 3; rules.md §5, Alcazaba's §dice-10) gives rows of
    building counts ``counts[row][type]`` (types in TYPE_NAMES order; the seats, then Dirk where he plays):
    per row and type, as the scoring itself shares them (score_majorities). The screens show what a scoring
    would give now with it.

    >>> majority_shares([[1, 0, 0, 0, 0, 4], [2, 0, 0, 0, 0, 4], [0, 0, 0, 0, 0, 1]], 2)
    [[1, 0, 0, 0, 0, 9], [8, 0, 0, 0, 0, 9], [0, 0, 0, 0, 0, 0]]
    """
    cdef uint8_t tc[NROWS][NTYPES]
    cdef int rows[NROWS]
    cdef int16_t score[NROWS]
    cdef uint8_t bd[NROWS * NTYPES]
    cdef int nrows = len(counts), i, t
    if not 1 <= round_ <= 3:
        raise ValueError(f"round_ must be 1, 2 or 3, not {round_}")
    if not 1 <= nrows <= NROWS:
        raise ValueError(f"counts must have 1 to {NROWS} rows, not {nrows}")
    for i in range(nrows):
        if len(counts[i]) != NTYPES:
            raise ValueError(f"counts[{i}] must have {NTYPES} building counts")
        for t in range(NTYPES):
            if not 0 <= counts[i][t] <= 255:
                raise ValueError(f"counts[{i}][{t}] must be 0..255, not {counts[i][t]}")
            tc[i][t] = <uint8_t>counts[i][t]
        rows[i] = i
    memset(score, 0, sizeof(score))
    memset(bd, 0, sizeof(bd))
    score_majorities(tc, rows, nrows, round_ - 1, score, bd, NTYPES)
    return [[bd[i * NTYPES + t] for t in range(NTYPES)] for i in range(nrows)]


cdef list _ranking(list scores):
    """Competition ranks of the seats' scores, 1 = first, tied seats sharing a rank: State.ranking and
    DiceState.ranking (alhambra_ai.arena.stats.ranks is the same rule for the reports)."""
    cdef list out = []
    cdef int better
    for v in scores:
        better = 0
        for o in scores:
            if o > v:
                better += 1
        out.append(1 + better)
    return out
