# Walls (rules.md §9.7): the wall card action. Included by actions.pxi. Drawing wall cards face up is
# draw_card's (state.pxi), placing them into piles 2..5 setup_game's; added walls score as walls everywhere
# because they are written into the city's cells (and kept per tile in card_walls for reserve tiles).
#
# Code: A_EXT | SUB_WALL << 4 | card << 8 | tile << 11 (card 0..7, tile 0 = the seat's own fountain).
# Text: "wall 5 17" (wall card 5 on tile 17), "wall 5 fountain".
#
# Legal when the card lies face up and the tile is the seat's own (city, reserve or its fountain), is no camp
# (a camp has bastions, not walls: docs/rules.md), got no pieces from another card, has no wall on any of
# the card's sides, and - in the city - every one of those sides faces an empty cell (a piece against a
# neighbour would break the matching-sides rule; against an empty cell the city stays valid).

cdef inline int wall_code(int card, int t) noexcept nogil:
    """The action code of wall card `card` (0..7) on tile t (FOUNTAIN: the seat's fountain)."""
    return A_EXT | (SUB_WALL << 4) | (card << 8) | (t << 11)


cdef int _wall_target(GameState* s, int seat, int t, int* x, int* y) noexcept nogil:
    """Where the seat's tile t lies: 1 in the city (x, y set), 0 in the reserve, -1 not the seat's."""
    if t == FOUNTAIN:
        x[0] = 0
        y[0] = 0
        return 1
    if mask_has(s.cities.reserve[seat], t):
        return 0
    return 1 if city_find(s.cities.city[seat], t, x, y) else -1


cdef int wall_check_on(GameState* s, int seat, int card, int t) noexcept nogil:
    """E_OK if face-up wall card `card` may go on the seat's tile t, else the E_* reason."""
    cdef int x = 0, y = 0, where
    where = _wall_target(s, seat, t, &x, &y)      # (sets x, y: before they are read)
    return _wall_check_at(s, seat, card, t, where, x, y)


cdef int _wall_check_at(GameState* s, int seat, int card, int t, int where, int x, int y) noexcept nogil:
    """wall_check_on for a tile known to lie in the reserve (where 0), at (x, y) of the city (where 1) or
    nowhere of the seat's (where -1)."""
    cdef int sides = WALL_CARD_SIDES[card], walls, prior, d
    cdef CityGrid* c = s.cities.city[seat]
    if t != FOUNTAIN and TILE_KIND[t] == KIND_CAMP:
        return E_WALL_CAMP                        # (a camp has bastions, not walls: whoever owns it)
    if where < 0:
        return E_WALL_NOT_OWN
    if t == FOUNTAIN:
        prior = s.fountain_walls[seat]
        walls = city_walls(c, 0, 0)
    else:
        prior = s.card_walls[t]
        walls = tile_walls_now(s, t)
    if prior:
        return E_WALL_TWICE
    if walls & sides:
        return E_WALL_SIDE_TAKEN
    if where == 1:
        for d in range(4):
            if (sides >> d) & 1 and city_tile(c, x + (1 if d == 1 else (-1 if d == 3 else 0)),
                                                 y + (1 if d == 0 else (-1 if d == 2 else 0))) >= 0:
                return E_WALL_FACES_TILE
    return E_OK


cdef int check_ext(GameState* s, int code) noexcept nogil:
    """check_action for kind A_EXT in the action phase (the wall card; other sub-kinds are not known here)."""
    cdef int t = (code >> 11) & 127
    if (code >> 4) & 15 != SUB_WALL or code >> 18:
        return E_CODE
    if not (s.options & OPT_WALLS):
        return E_NO_MODULE
    if t != FOUNTAIN and not tile_in_game(s, t):
        return E_BAD_TILE
    if not (s.wall_up >> ((code >> 8) & 7)) & 1:
        return E_WALL_NOT_UP
    return wall_check_on(s, s.current, (code >> 8) & 7, t)


cdef uint64_t WALL_FITS[NWALL_CARDS][MASK_WORDS]   # per wall card: the tiles (bits) whose printed walls
for _w in range(NWALL_CARDS):                       # leave all its sides free, camps not
    for _t in range(1, MAX_TILE):
        if TILE_KIND[_t] != KIND_CAMP and not (TILE_WALLS[_t] & WALL_CARD_SIDES[_w]):
            WALL_FITS[_w][_t >> 6] |= <uint64_t>1 << (_t & 63)


cdef int gen_walls(GameState* s, int* out, GenCache* gc) noexcept nogil:
    """Every legal wall card action of the seat to act: face-up card x own tile (its reserve, then its city
    north row first, west to east, fountain included; camps never). gc: the GenCache whose view of the seat's
    city is read, or NULL (a view is built here). out needs room for one code more than it gets (a code is
    written before the test that keeps it)."""
    cdef int seat = s.current, n = 0, w, word, j, t, i, m, k, p, key, sides, up = s.wall_up
    cdef uint64_t b
    cdef SeatView* local = NULL
    cdef SeatView* sv
    cdef uint32_t found[GC_TILES]               # the city's tiles a card fits: order key << 6 | view entry
    if not up:
        return 0
    if gc != NULL:
        sv = &gc.seat[seat]
        seat_view(sv, s.cities.city[seat])
    else:
        local = seat_view_new()
        if local == NULL:
            return 0
        view_build(local, s.cities.city[seat])
        sv = local
    while up:
        w = __builtin_ctzll(up)
        up &= up - 1
        sides = WALL_CARD_SIDES[w]
        # the reserve: _wall_check_at's rules for a reserve tile are the printed walls (WALL_FITS) and no
        # pieces of another card
        for word in range(MASK_WORDS):
            b = s.cities.reserve[seat][word] & WALL_FITS[w][word]
            while b:
                t = word * 64 + __builtin_ctzll(b)
                b &= b - 1
                out[n] = wall_code(w, t)
                n += s.card_walls[t] == 0
        # the city from its view: _wall_check_at's rules for a city tile are no wall and no tile beside on
        # the card's sides (the mirror's walls, the side pattern's pm), no camp and no pieces of another card.
        # The first two, the tests that refuse, without a branch per tile (tests/core/alhambra/test_oracle_modules.py
        # holds the list against the brute-force oracle)
        m = 0
        for j in range(sv.v.ntile):
            found[m] = <uint32_t>j
            m += ((sv.g[sv.v.tile_cell[j]] | sv.v.tile_key[j]) & sides) == 0
        k = 0
        for i in range(m):                      # (rare: the tiles the card fits) kept in the grid's order
            j = found[i]
            t = sv.v.tile_id[j]
            if TILE_KIND[t] == KIND_CAMP or (s.fountain_walls[seat] if t == FOUNTAIN else s.card_walls[t]):
                continue
            key = (((PG - 1 - (sv.v.tile_cell[j] >> 7)) << 7) | (sv.v.tile_cell[j] & (PG - 1))) << 6 | j
            p = k                               # (insertion: k entries sorted so far, k <= i)
            while p > 0 and found[p - 1] > key:
                found[p] = found[p - 1]
                p -= 1
            found[p] = <uint32_t>key
            k += 1
        for i in range(k):
            out[n] = wall_code(w, sv.v.tile_id[found[i] & 63])
            n += 1
    if local != NULL:
        free(local)
    return n


# gen_action_modules calls gen_walls through a pointer: inlined, its loops would make the random player's
# every draw (modules/sample.pxi) set up their frame, while a wall card lies face up in few of them.
cdef int (*gen_walls_ptr)(GameState*, int*, GenCache*) noexcept nogil
gen_walls_ptr = gen_walls


cdef inline int walls_gen_action(GameState* s, int* out, int n, int* counted_at, BuyMemo* memo,
                                 GenCache* gc) noexcept nogil:
    """The action phase: a face-up wall card onto a tile of the seat (gc: whose seat views it reads)."""
    if not s.wall_up:
        return 0
    return gen_walls_ptr(s, out, gc)


cdef void apply_wall(GameState* s, int code) noexcept nogil:
    """The card leaves the game; its pieces go on the tile for good (in the city: into its cell too)."""
    cdef int card = (code >> 8) & 7, t = (code >> 11) & 127, seat = s.current, x = 0, y = 0
    cdef int sides = WALL_CARD_SIDES[card]
    cdef CityGrid* g
    s.wall_up &= ~(1 << card)
    s.wall_used |= 1 << card
    if t == FOUNTAIN:
        s.fountain_walls[seat] |= sides
    else:
        s.card_walls[t] |= sides
    if _wall_target(s, seat, t, &x, &y) == 1:
        g = city_unshare(&s.cities.city[seat])
        city_put(g, x, y, t, city_walls(g, x, y) | sides)


cdef int wall_score_gain(GameState* s, int code) noexcept nogil:
    """How much the seat's outer-wall score grows by this wall action now (0 for a reserve tile)."""
    cdef int card = (code >> 8) & 7, t = (code >> 11) & 127, x = 0, y = 0, before, after
    cdef CityGrid* g
    if _wall_target(s, s.current, t, &x, &y) != 1:
        return 0
    g = s.cities.city[s.current]
    before = city_wall_score(g)
    city_incref(g)
    city_unshare(&g)
    city_put(g, x, y, t, city_walls(g, x, y) | WALL_CARD_SIDES[card])
    after = city_wall_score(g)
    city_decref(g)
    return after - before


# ---------------------------------------------------------------- its hooks (modules/table.pxi)

cdef double MOD_WALL_RESERVE = 0.3  # wall pieces on a reserve tile (they may lengthen a wall later)


cdef int walls_piles(GameState* s, int k, int start, int pos, uint8_t* cards) noexcept nogil:
    """setup_game: the 8 wall cards shuffled before the piles are laid (k = -1), then two of them into each
    of piles 2..5 (k = 1..4, laid from draw-pile index start to pos), each at a uniform place of its pile as
    it is then. Returns the pile's new end."""
    cdef int i, v
    if k < 0:
        for i in range(NWALL_CARDS):
            cards[i] = <uint8_t>(WALL_CARD_FIRST + i)
        rng_shuffle_u8(&s.rng, cards, NWALL_CARDS)
        return pos
    if k == 0:
        return pos
    for v in range(2):
        i = rng_below(&s.rng, pos - start + 1)
        memmove(&s.draw[start + i + 1], &s.draw[start + i], pos - start - i)
        s.draw[start + i] = cards[2 * (k - 1) + v]
        pos += 1
    s.wall_lo[k - 1] = <uint8_t>start
    s.wall_hi[k - 1] = <uint8_t>pos
    return pos


cdef int walls_check(GameState* s, int code) noexcept nogil:
    """A wall card played in the action phase."""
    if s.phase == PH_ACTION and (code & 15) == A_EXT and (code >> 4) & 15 == SUB_WALL:
        return check_ext(s, code)
    return -1


cdef int walls_apply(GameState* s, int code) noexcept nogil:
    apply_wall(s, code)
    s.actions_taken += 1
    return ACTIONS_OVER                 # a wall card is an action like take: nothing follows


cdef int walls_census(GameState* s, char* why) noexcept nogil:
    """Each wall card once (pile, face up, used); a used card's pieces on one tile each; every city tile shows
    its printed walls plus its pieces."""
    cdef int k, p, w, seen = 0, x, y, t, pieces = 0, used = 0
    for k in range(s.draw_pos, s.draw_len):
        if s.draw[k] >= WALL_CARD_FIRST:
            w = s.draw[k] - WALL_CARD_FIRST
            if (seen >> w) & 1:
                memcpy(why, b"wall card twice\0", 16)
                return 1
            seen |= 1 << w
    if seen & (s.wall_up | s.wall_used) or s.wall_up & s.wall_used \
            or (seen | s.wall_up | s.wall_used) != (255 if s.options & OPT_WALLS else 0):
        memcpy(why, b"wall card census\0", 17)
        return 1
    for t in range(1, MAX_TILE):
        pieces += s.card_walls[t] != 0
        if s.card_walls[t] & TILE_WALLS[t]:
            memcpy(why, b"piece on a wall\0", 16)
            return 1
    for p in range(s.num_players):
        pieces += s.fountain_walls[p] != 0
        for y in range(s.cities.city[p].y0, s.cities.city[p].y1 + 1):
            for x in range(s.cities.city[p].x0, s.cities.city[p].x1 + 1):
                t = city_tile(s.cities.city[p], x, y)
                if t > 0 and TILE_KIND[t] != KIND_CAMP and city_walls(s.cities.city[p], x, y) != tile_walls_now(s, t):
                    memcpy(why, b"tile walls\0", 11)
                    return 1
        if city_walls(s.cities.city[p], 0, 0) != s.fountain_walls[p]:
            memcpy(why, b"fountain walls\0", 15)
            return 1
    used = __builtin_popcountll(s.wall_used)
    if pieces != used:
        memcpy(why, b"pieces vs used cards\0", 21)
        return 1
    return 0


cdef double walls_prior(GameState* s, int a) noexcept nogil:
    """A wall card action is worth the longer outer wall it makes in the rounds still to come."""
    cdef int k = wall_score_gain(s, a)
    return (k * rounds_left(s) if k > 0 else MOD_WALL_RESERVE) - 0.5


# ---------------------------------------------------------------- its text forms (Python level; table.pxi)

cdef str walls_text(GameState* s, int code):
    """"wall 5 17" / "wall 5 fountain": the wall card and the tile it puts walls on."""
    if code >> 18 or ((code >> 11) & 127) > LAST_TILE:
        raise ValueError(f"not an action code: {code}")
    t = (code >> 11) & 127
    return f"wall {((code >> 8) & 7) + 1} " + ("fountain" if t == FOUNTAIN else str(t))


cdef int walls_parse(GameState* s, str verb, list args) except -1:
    cdef int t
    if len(args) != 2:
        raise ValueError("wall: name the wall card (1-8) and your tile, e.g. 'wall 5 17' or 'wall 5 fountain'")
    try:
        w = int(args[0])
    except ValueError:
        raise ValueError(f"wall: bad wall card {args[0]!r} (wall cards are 1-{NWALL_CARDS})") from None
    if not 1 <= w <= NWALL_CARDS:
        raise ValueError(f"wall: no wall card {w} (wall cards are 1-{NWALL_CARDS})")
    t = FOUNTAIN if args[1] in ("fountain", "0") else _parse_tile(args[1])
    return wall_code(w - 1, t)


# ---------------------------------------------------------------- JSON (its table line's seen, put, canonical
# and from_setup: observe.pxi, setup_py.pxi). Its key goes with the Change's (json_with).

cdef int walls_seen(GameState* s, object st, int seat, dict out) except -1:
    """"walls" (all public): the wall cards face up and used; the pieces wall cards put on each seat's tiles
    (``[tile, "NE"]``, 0 = the fountain); and per setup pile 2..5 that still holds unseen wall cards
    ``[first, last, count]`` (draw-pile indexes, 0 = top): which cards they are is hidden, how many lie in
    which pile is not (everyone saw where each one came out). Absent while off."""
    cdef int n = s.num_players, i, p, lo, hi, cnt
    if not s.options & OPT_WALLS:
        return 0
    piles = []
    for p in range(4):
        lo = max(s.wall_lo[p], s.draw_pos)
        hi = s.wall_hi[p]
        cnt = sum(1 for i in range(lo, hi) if s.draw[i] >= WALL_CARD_FIRST)
        piles.append([lo - s.draw_pos, hi - 1 - s.draw_pos, cnt] if cnt else None)
    out["walls"] = {"face_up": sorted(st.wall_cards()), "used": st.wall_cards_used(),
                    "pieces": [[[t, w] for t, w in st.card_walls(i).items()] for i in range(n)],
                    "piles": piles}
    return 0


cdef int walls_put(GameState* s, dict m, bint shown, object put_tile) except -1:
    """The wall cards (each once: in the draw pile, face up or used), the pieces on the seats' tiles (the
    cities must show them) and the piles' ranges; off, no wall card may be in the draw pile."""
    cdef int i, k, t, x, y, sides, lo, hi, cnt, n = s.num_players
    in_pile = {s.draw[i]: i for i in range(s.draw_len) if s.draw[i] >= WALL_CARD_FIRST}    # code -> index
    if shown and not s.options & OPT_WALLS and m.get("walls") is not None:
        raise PositionError("modules.walls must be null (or absent) without its module")
    walls_in_pile = sorted(c - WALL_CARD_FIRST + 1 for c in in_pile)
    if not s.options & OPT_WALLS:
        if walls_in_pile:
            raise PositionError("draw_pile: wall cards only with the Walls module")
        return 0
    w = m.get("walls")
    if not isinstance(w, dict) or set(w) != {"face_up", "used", "pieces", "piles"}:
        raise PositionError("modules.walls: an object with face_up, used, pieces, piles")
    up = _as_list(w["face_up"], "modules.walls.face_up")
    used = _as_list(w["used"], "modules.walls.used")
    for c in up + used:
        _as_int(c, "modules.walls card", 1, NWALL_CARDS)
    if sorted(up + used + walls_in_pile) != list(range(1, NWALL_CARDS + 1)):
        raise PositionError("modules.walls: each wall card 1-8 must be once in the draw pile, face up or used")
    for c in up:
        s.wall_up |= 1 << (c - 1)
    for c in used:
        s.wall_used |= 1 << (c - 1)
    pieces = _as_list(w["pieces"], "modules.walls.pieces", n)
    for i in range(n):
        for e in _as_list(pieces[i], f"modules.walls.pieces[{i}]"):
            if not isinstance(e, list) or len(e) != 2 or not isinstance(e[1], str):
                raise PositionError(f"modules.walls.pieces[{i}]: each entry is [tile, sides], not {e!r}")
            t = _as_int(e[0], f"modules.walls.pieces[{i}] tile", 0, LAST_TILE)
            try:
                sides = walls_from_text(e[1])
            except ValueError as err:
                raise PositionError(f"modules.walls.pieces[{i}]: {err}") from None
            if sides == 0 or sides not in [WALL_CARD_SIDES[k] for k in range(NWALL_CARDS)]:
                raise PositionError(f"modules.walls.pieces[{i}]: {e[1]!r} is not what a wall card adds")
            if t == FOUNTAIN:
                s.fountain_walls[i] = sides
            elif s.card_walls[t] or not (mask_has(s.cities.reserve[i], t) or city_find(s.cities.city[i], t, &x, &y)):
                raise PositionError(f"modules.walls.pieces[{i}]: tile {t} is not seat {i}'s (or given twice)")
            else:
                s.card_walls[t] = sides
    for i in range(n):      # the cities show exactly the printed walls plus the pieces
        for x, y, t, wl in city_wrap(s.cities.city[i]).cells():
            expect = s.fountain_walls[i] if t == FOUNTAIN else tile_walls_now(s, t)
            if wl != expect:
                raise PositionError(f"seats[{i}].city: tile {t} at {x},{y} has walls {walls_to_text(wl)}, but its "
                                    f"printed walls and wall pieces make {walls_to_text(expect)}")
    piles = _as_list(w["piles"], "modules.walls.piles", 4)
    seen = 0
    for k in range(4):
        if piles[k] is None:
            continue
        e = _as_list(piles[k], f"modules.walls.piles[{k}]", 3)
        lo = _as_int(e[0], f"modules.walls.piles[{k}]", 0, MAX_DRAW - 1)
        hi = _as_int(e[1], f"modules.walls.piles[{k}]", lo, MAX_DRAW - 1) + 1
        cnt = sum(1 for c, j in in_pile.items() if lo <= j < hi)
        if e[2] != cnt or lo < seen:
            raise PositionError(f"modules.walls.piles[{k}]: {e[2]!r} wall cards said, {cnt} there "
                                f"(piles are in draw order and do not overlap)")
        s.wall_lo[k] = lo
        s.wall_hi[k] = hi
        seen = hi
        walls_in_pile = walls_in_pile[cnt:]
    if walls_in_pile:
        raise PositionError("modules.walls.piles: a wall card in the draw pile lies outside every pile range")
    return 0


cdef object walls_canonical(object modules, uint32_t bits, bint shown, int step, object arg):
    """CANON_PILE: the unseen wall cards, each pile's at the top of its range (in card order)."""
    if step != CANON_PILE or not bits & OPT_WALLS:
        return None
    w = modules.get("walls") if isinstance(modules, dict) else None
    if not isinstance(w, dict):
        raise PositionError("modules.walls: an object with face_up, used, pieces, piles")
    seen = set(_as_list(w.get("face_up"), "modules.walls.face_up") + _as_list(w.get("used"), "modules.walls.used"))
    piles = []
    for e in _as_list(w.get("piles"), "modules.walls.piles", 4):
        if e is not None:
            e = _as_list(e, "modules.walls.piles entry", 3)
            piles.append([_as_int(e[0], "modules.walls.piles", 0, MAX_DRAW - 1),
                          _as_int(e[1], "modules.walls.piles", 0, MAX_DRAW - 1),
                          _as_int(e[2], "modules.walls.piles", 0, NWALL_CARDS)])
    unseen = [c for c in range(1, NWALL_CARDS + 1) if c not in seen]
    if len(unseen) != sum(e[2] for e in piles):
        raise PositionError(f"modules.walls: {len(unseen)} wall cards unseen, but the piles hold "
                            f"{sum(e[2] for e in piles)}")
    return [("modules.walls.piles", lo, hi, [f"w{unseen.pop(0)}" for _ in range(cnt)]) for lo, hi, cnt in piles]


cdef int walls_from_setup(GameState* s, int step, dict kw, dict setup) except -1:
    """SETUP_PILE: the draw pile given may hold wall cards only with the module on; made, the wall cards not
    face up or used go into it, each at a random place (one pile range: the whole draw pile). SETUP_END:
    ``wall_cards`` face up, ``wall_cards_used`` (numbers 1-8), ``card_walls`` ``{tile: "NE"}``: pieces on city
    and reserve tiles."""
    cdef int i, t, x = 0, y = 0, sides
    cdef list pile
    wall_cards = kw["wall_cards"]
    wall_cards_used = kw["wall_cards_used"]
    card_walls = kw["card_walls"]
    if step == SETUP_PILE:
        pile = setup["pile"]
        if setup["pile_given"]:
            for c in pile:
                if c >= WALL_CARD_FIRST and not s.options & OPT_WALLS:
                    raise ValueError(f"draw_pile: wall card w{c - WALL_CARD_FIRST + 1} is not (or not once more) "
                                     f"in this game")
        elif s.options & OPT_WALLS:
            for w in range(NWALL_CARDS):
                if w + 1 not in wall_cards and w + 1 not in wall_cards_used:
                    pile.insert(rng_below(&s.rng, len(pile) + 1), WALL_CARD_FIRST + w)
        return 0
    if step != SETUP_END:
        return 0
    if (wall_cards or wall_cards_used or card_walls) and not s.options & OPT_WALLS:
        raise ValueError("wall_cards / wall_cards_used / card_walls: the Walls module is not on")
    in_pile = {s.draw[i] - WALL_CARD_FIRST + 1 for i in range(s.draw_len) if s.draw[i] >= WALL_CARD_FIRST}
    for w in list(wall_cards) + list(wall_cards_used):
        if isinstance(w, bool) or not isinstance(w, int) or not 1 <= w <= NWALL_CARDS or w in in_pile:
            raise ValueError(f"wall_cards: {w!r} is no wall card 1-{NWALL_CARDS} (or given twice)")
        in_pile.add(w)
    if s.options & OPT_WALLS and len(in_pile) != NWALL_CARDS:
        raise ValueError("wall cards nowhere (in the draw pile, face up or used): "
                         f"{sorted(set(range(1, NWALL_CARDS + 1)) - in_pile)}")
    for w in wall_cards:
        s.wall_up |= 1 << (w - 1)
    for w in wall_cards_used:
        s.wall_used |= 1 << (w - 1)
    if s.options & OPT_WALLS:
        s.wall_lo[0] = 0
        s.wall_hi[0] = s.draw_len
    for t, text in dict(card_walls or {}).items():
        sides = walls_from_text(text)
        if isinstance(t, bool) or not isinstance(t, int) or not 1 <= t <= LAST_TILE or sides == 0:
            raise ValueError(f"card_walls: {t!r}: {text!r} is no tile with wall pieces")
        if sides & TILE_WALLS[t] or TILE_KIND[t] == KIND_CAMP:
            raise ValueError(f"card_walls: tile {t} cannot take pieces on {text}")
        owned = False
        for i in range(s.num_players):
            owned = owned or mask_has(s.cities.reserve[i], t) or city_find(s.cities.city[i], t, &x, &y)
        if not owned:
            raise ValueError(f"card_walls: tile {t} is in no city or reserve")
        s.card_walls[t] = sides
        for i in range(s.num_players):
            if city_find(s.cities.city[i], t, &x, &y):
                city_put(city_unshare(&s.cities.city[i]), x, y, t, tile_walls_now(s, t))
                if city_wrap(s.cities.city[i]).is_valid() is not None:
                    raise ValueError(f"card_walls: tile {t} with walls {text} breaks the city of seat {i}")
    return 0
