# The base game's generation cache: per seat its city view (shared/cityview.pxi), payments and module
# answers, kept between generations (included by actions.pxi).

# ---------------------------------------------------------------- the cache

cdef enum:
    SEG_TILES = 128           # reserve / pending tiles Segments count actions for (tile ids are < 128)


cdef struct Segments:
    # The random player's counted city actions (modules/sample.pxi), per tile in the list's order: builds then
    # swaps of each reserve tile (the removals between them), or each pending tile's placements.
    int nt                    # tiles
    int nbuild, nremove       # builds (placements) in all, removals
    int nswap                 # swaps in all
    uint8_t tile[SEG_TILES]
    int end[SEG_TILES]        # cumulative builds (placements) up to tile i: tile i's are end[i - 1] .. end[i] - 1
    int swap_end[SEG_TILES]   # cumulative swaps, likewise (counted from the first swap)


cdef struct SeatMemo:
    # the modules' answers derived from one seat's city, for the random player (modules/sample.pxi): valid
    # while version equals the seat's SeatView.version
    uint32_t version
    FalconCorners corners             # corners.n < 0: not found yet
    int camp_cells[16]                # per bastion mask: the (tile, side) pairs a camp could lean on
                                      # (modules/sample.pxi's _camp_memo; camp_cells[0] < 0: not counted yet)
    int spots_free                    # the supply (falcon bits) `spots` was counted for; -1: none
    int spots                         # falcon_spots for it
    Segments rebuild                  # the seat's rebuild segments (modules/sample.pxi), counted for
    uint64_t rb_reserve[MASK_WORDS]   # this reserve and
    int rb_walls                      # these wall cards used (their pieces change reserve tiles); -1: none
    int tree                          # a city with camps: its buildings' on-foot graph is a tree (-1: not
                                      # known yet; modules/sample.pxi's _camp_city_removal)


cdef struct GenCache:
    SeatView seat[MAX_PLAYERS]
    BuyMemo buy[MAX_PLAYERS][NCUR]
    SeatMemo memo[MAX_PLAYERS]
    uint64_t take_key                 # 1 << 32 | the display's four bytes gen_take last listed (0: none)
    int take_n
    int take[16]                      # its takes (<= 15)
    int legal[MAX_LEGAL]              # sample_legal's list in games with modules


cdef GenCache* gen_cache_new() noexcept nogil:
    """A zeroed cache (NULL if out of memory). Free it with free()."""
    return <GenCache*>calloc(1, sizeof(GenCache))


cdef void gen_cache_reset(GenCache* gc) noexcept nogil:
    """Forget everything (before using the cache for another state): O(listed cells)."""
    cdef int i, k
    for i in range(MAX_PLAYERS):
        if gc.seat[i].state == SV_VALID:
            gc.seat[i].state = SV_STALE
        for k in range(NCUR):
            gc.buy[i][k].rest = 0
            gc.buy[i][k].exact.rest = 0


cdef inline int gen_take_fresh(GameState* s, GenCache* gc) noexcept nogil:
    """gen_take into gc.take, remembered per display: its only input, which changes only when cards are taken
    or dealt (most draws follow a build, a buy or a placement and see the same display); returns gc.take_n."""
    cdef uint64_t key = (<uint64_t>1 << 32) | four_bytes(s.display)
    if gc.take_key != key:
        gc.take_key = key
        gc.take_n = gen_take(s, gc.take)
    return gc.take_n


cdef inline int gen_take_cached(GameState* s, GenCache* gc, int* out) noexcept nogil:
    """gen_take_fresh's takes copied into out."""
    gen_take_fresh(s, gc)
    memcpy(out, gc.take, gc.take_n * sizeof(int))
    return gc.take_n


cdef inline void gen_cache_touch(GenCache* gc, GameState* s, int code) noexcept nogil:
    """Record that the action (applied next to s by the seat to act) changes the seat's city at one cell (or
    at none: a wall card on a reserve tile; the Residents' kinds move figures, never tiles or walls)."""
    cdef int kind = code & 15, seat = s.current, x = 0, y = 0
    cdef SeatView* sv
    if kind == A_EXT:
        if (code >> 4) & 15 != SUB_WALL or _wall_target(s, seat, (code >> 11) & 127, &x, &y) != 1:
            return
    elif kind == A_PLACE or kind == A_BUILD or kind == A_REMOVE or kind == A_SWAP:
        x = cell_x(code)
        y = cell_y(code)
    else:
        return
    sv = &gc.seat[seat]
    if sv.state == SV_VALID and 0 <= sv.npend < VIEW_PENDING:
        sv.pend[sv.npend] = <uint16_t>pg_index(x, y)      # (a wall card: its tile's cell, walls changed)
        sv.npend += 1
    else:
        sv.npend = -1
