# City actions, the same in the base game and Alcazaba: placing a tile (into the city, the reserve or Dirk's
# tiles) and the rebuilds (build from the reserve, remove, swap). Their codes are kinds 3..8 of the action
# scheme (kind = code & 15, tile in bits 4-11, the packed cell in bits 12-27); each game numbers its other
# kinds around them. Here: the codes, the lists (from a CityView), the effect on a Cities, the text forms.

cdef enum:
    A_PLACE = 3
    A_PLACE_RESERVE = 4
    A_PLACE_DIRK = 5
    A_BUILD = 6
    A_REMOVE = 7
    A_SWAP = 8


cdef inline int code_cell(int kind, int tile, int packed) noexcept nogil:
    return kind | (tile << 4) | (packed << 12)


cdef inline int cell_x(int code) noexcept nogil:
    return ((code >> 12) & 255) - 128


cdef inline int cell_y(int code) noexcept nogil:
    return ((code >> 20) & 255) - 128


cdef inline int code_tile(int code) noexcept nogil:
    return (code >> 4) & 255


# ---------------------------------------------------------------- lists

# card_walls[t] below: wall pieces a wall card put on tile t (the base game's Walls module), else
# NO_CARD_WALLS: a tile fits by its walls as they are now.

cdef inline int _emit_cells(CityView* v, int walls, int kind, int t, int* out) noexcept nogil:
    cdef int j, n = 0, bit = 1 << walls
    for j in range(v.nfront):
        if MASKS_MATCH[v.front_key[j]] & bit:
            out[n] = code_cell(kind, t, pg_packed(v.front_cell[j]))
            n += 1
    return n


cdef int gen_rebuild(Cities* c, int seat, const uint8_t* card_walls, CityView* v, int* out) noexcept nogil:
    """The seat's rebuilds (v: the view of its city): builds of each reserve tile, removals, swaps."""
    cdef uint8_t tiles[128]
    cdef int nt, n = 0, i, j, t, bit
    nt = mask_list(c.reserve[seat], tiles)
    for i in range(nt):
        n += _emit_cells(v, TILE_WALLS[tiles[i]] | card_walls[tiles[i]], A_BUILD, tiles[i], out + n)
    for j in range(view_removals(v)):
        out[n] = code_cell(A_REMOVE, v.remove_tile[j], pg_packed(v.remove_cell[j]))
        n += 1
    for i in range(nt):
        t = tiles[i]
        bit = 1 << (TILE_WALLS[t] | card_walls[t])
        for j in range(v.ntile):
            if v.tile_id[j] != FOUNTAIN and MASKS_MATCH[v.tile_key[j]] & bit:
                out[n] = code_cell(A_SWAP, t, pg_packed(v.tile_cell[j]))
                n += 1
    return n


cdef inline int gen_place_aside(int t, bint dirk, int* out) noexcept nogil:
    """A pending tile's placements outside the city, after its cells: the reserve, and Dirk when `dirk`."""
    out[0] = A_PLACE_RESERVE | (t << 4)
    if dirk:
        out[1] = A_PLACE_DIRK | (t << 4)
        return 2
    return 1


cdef int gen_place(const uint8_t* pending, int npending, bint dirk, const uint8_t* card_walls, CityView* v,
                   int* out) noexcept nogil:
    """The placements of the pending tiles (v: the view of the placing seat's city): per tile its cells, the
    reserve, and Dirk when `dirk`."""
    cdef int n = 0, i, t
    for i in range(npending):
        t = pending[i]
        n += _emit_cells(v, TILE_WALLS[t] | card_walls[t], A_PLACE, t, out + n)
        n += gen_place_aside(t, dirk, out + n)
    return n


# ---------------------------------------------------------------- effect

cdef inline int city_action_apply(Cities* c, int seat, int code, const uint8_t* card_walls) noexcept nogil:
    """What a legal city action of `seat` does to its city, reserve and building counts (or to Dirk's tiles);
    a placement's caller takes the tile from its pending tiles. Returns the tile that left the city (remove:
    the removed one, swap: the one replaced), else the tile placed or built."""
    cdef int kind = code & 15, t = code_tile(code), x = cell_x(code), y = cell_y(code), old
    cdef CityGrid* g
    if kind == A_PLACE or kind == A_BUILD:
        if kind == A_BUILD:
            mask_clear(c.reserve[seat], t)
        g = city_unshare(&c.city[seat])
        city_put(g, x, y, t, TILE_WALLS[t] | card_walls[t])
        type_count_add(c, seat, t, 1)
    elif kind == A_PLACE_RESERVE:
        mask_set(c.reserve[seat], t)
    elif kind == A_PLACE_DIRK:
        mask_set(c.dirk_tiles, t)
        type_count_add(c, DIRK, t, 1)
    elif kind == A_REMOVE:
        g = city_unshare(&c.city[seat])
        t = city_tile(g, x, y)
        city_clear(g, x, y)
        type_count_add(c, seat, t, -1)
        mask_set(c.reserve[seat], t)
    elif kind == A_SWAP:
        g = city_unshare(&c.city[seat])
        old = city_tile(g, x, y)
        city_put(g, x, y, t, TILE_WALLS[t] | card_walls[t])
        type_count_add(c, seat, old, -1)
        type_count_add(c, seat, t, 1)
        mask_clear(c.reserve[seat], t)
        mask_set(c.reserve[seat], old)
        return old
    return t


# ---------------------------------------------------------------- text forms (Python level)

def _cell_text(int x, int y):
    return f"{x},{y}"


def _parse_cell(str text):
    parts = text.split(",")
    if len(parts) != 2:
        raise ValueError(f"bad cell {text!r} (write x,y e.g. 1,-2)")
    try:
        x, y = int(parts[0]), int(parts[1])
    except ValueError:
        raise ValueError(f"bad cell {text!r} (write x,y e.g. 1,-2)") from None
    if not (-127 <= x <= 127 and -127 <= y <= 127):
        raise ValueError(f"cell {text!r} is out of range")
    return x, y


cdef str city_action_text(int code):
    """Text form of a city action's code (kinds A_PLACE .. A_SWAP); ValueError when it is malformed."""
    cdef int kind = code & 15
    if kind in (A_PLACE_RESERVE, A_PLACE_DIRK):
        if code >> 12:
            raise ValueError(f"not an action code: {code}")
        return f"place {code_tile(code)} " + ("reserve" if kind == A_PLACE_RESERVE else "dirk")
    if kind in (A_PLACE, A_BUILD, A_REMOVE, A_SWAP) and not (code >> 28):
        cell = _cell_text(cell_x(code), cell_y(code))
        if kind == A_REMOVE:
            return f"remove {cell}"
        return f"{'place' if kind == A_PLACE else 'build' if kind == A_BUILD else 'swap'} {code_tile(code)} {cell}"
    raise ValueError(f"not an action code: {code}")


ctypedef int (*tile_parser)(str) except -1


cdef int city_action_parse(str verb, list args, CityGrid* city, str no_city, tile_parser tile_arg) except -1:
    """A city action's words (verb: place, build, remove or swap) -> its code, by form only (apply checks
    legality). remove names a cell: its tile is read from `city` (NULL: ValueError `no_city`). tile_arg: the
    game's parser of a tile id (each game has its own tiles)."""
    cdef int t, x, y
    if verb == "remove":
        if len(args) != 1:
            raise ValueError("remove: name the cell, e.g. 'remove 1,-2'")
        x, y = _parse_cell(args[0])
        if city == NULL:
            raise ValueError(no_city)
        t = city_tile(city, x, y)
        if t < 0:
            raise ValueError(f"remove: cell {x},{y} of your city is empty")
        return code_cell(A_REMOVE, t, (x + 128) | ((y + 128) << 8))
    if len(args) != 2:
        raise ValueError(f"{verb}: name the tile and the cell, e.g. '{verb} 17 1,-2'")
    t = tile_arg(args[0])
    if verb == "place" and args[1] in ("reserve", "dirk"):
        return (A_PLACE_RESERVE if args[1] == "reserve" else A_PLACE_DIRK) | (t << 4)
    x, y = _parse_cell(args[1])
    return code_cell({"place": A_PLACE, "build": A_BUILD, "swap": A_SWAP}[verb], t, (x + 128) | ((y + 128) << 8))
