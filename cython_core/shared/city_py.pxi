# class City: the Python value type over a CityGrid (an immutable value; every change returns a new City).
# Values share their grid copy-on-write, so clone() and wrapping a state's city are O(1).


cdef inline tuple _unpack_cell(int packed):
    return ((packed & 255) - 128, (packed >> 8) - 128)


cdef int _tile_arg(object tile) except -1:
    """A building id 1..54, a camp / bazaar id 55..70 or Alcazaba's extra tower 71 (the fountain and unknown
    ids raise ValueError)."""
    if not isinstance(tile, int) or isinstance(tile, bool):
        raise TypeError(f"tile must be an int, not {type(tile).__name__}")
    if tile == FOUNTAIN:
        raise ValueError("the fountain (tile 0) is not a building tile")
    if tile < 1 or tile >= MAX_TILE or not known_tile(tile):     # (a huge int never reaches the C call)
        raise ValueError(f"no building tile with id {tile} (use 1..{NBUILDINGS}, camps and bazaars "
                         f"{CAMP_FIRST}..{LAST_TILE}, Alcazaba's extra tower {EXTRA_TOWER})")
    return tile


cdef int _walls_arg(int tile, object walls) except -1:
    """The tile's printed walls, or an explicit mask 0..15 / 'NESW' text (for tests and the Walls module)."""
    if walls is None:
        return TILE_WALLS[tile]
    if isinstance(walls, str):
        return walls_from_text(walls)
    if not isinstance(walls, int) or isinstance(walls, bool) or walls < 0 or walls > 15:
        raise ValueError(f"walls must be a mask 0..15 or NESW text, not {walls!r}")
    return walls


cdef int _coord_arg(object v, str name) except? -999:
    """An int coordinate; huge values are clamped (they are off the grid either way)."""
    if not isinstance(v, int) or isinstance(v, bool):
        raise TypeError(f"{name} must be an int, not {type(v).__name__}")
    return max(-1000000, min(1000000, v))


cdef inline bint _on_grid(long x, long y):
    return -CITY_COORD_MAX <= x <= CITY_COORD_MAX and -CITY_COORD_MAX <= y <= CITY_COORD_MAX


cdef class City:
    """One player's city: tiles on cells relative to the fountain at (0, 0) (x east, y north).

    A City is a value: it never changes; ``with_tile`` / ``without`` / ``swapped`` return new cities, which
    share the grid copy-on-write until one of them is changed.

    Rules (rules.md §4): touching sides match (wall to wall, open to open); every tile is reachable on foot
    from the fountain across open sides; no empty cell or group of empty cells is enclosed (exact check:
    each empty cell must connect through empty side neighbours to the unbounded outside). The wall score
    (rules.md §5) is the longest trail along outer wall sides (walls with no tile beyond them).

    >>> c = City()
    >>> len(c), c.to_text()
    (1, '0,0:0')
    >>> c.can_place(0, -1, 33)          # garden 33 has walls E, S, W; its open N side meets the fountain
    >>> c2 = c.with_tile(0, -1, 33)
    >>> len(c), len(c2), c2.tile_at(0, -1)
    (1, 2, 33)
    >>> c.can_place(0, 1, 33)           # north of it, its S wall would face the fountain's open side
    'sides do not match'
    """

    cdef CityGrid* g

    def __cinit__(self):
        self.g = NULL

    def __init__(self):
        if self.g != NULL:
            city_decref(self.g)
        self.g = city_new()

    def __dealloc__(self):
        if self.g != NULL:
            city_decref(self.g)
            self.g = NULL

    # ---- construction ----------------------------------------------------------------------------------

    @staticmethod
    def from_text(str text):
        """Parse ``"x,y:tile"`` tokens separated by spaces; walls come from the tile table, or from an
        optional ``/walls`` override (``1,0:17/NS``, ``-`` for none). The fountain ``0,0:0`` may be left out.
        The city must be valid (rules.md §4), else ValueError names the problem.

        >>> City.from_text("0,0:0 1,0:15 0,-1:33").tile_at(1, 0)
        15
        >>> City.from_text("1,0:17/N").cells()
        [(0, 0, 0, 0), (1, 0, 17, 1)]
        >>> City.from_text("2,0:17")
        Traceback (most recent call last):
        ...
        ValueError: invalid city: tile 17 at 2,0 touches no other tile on a side
        """
        return City._parse(text, True)

    @staticmethod
    def _unchecked(str text):
        """Like from_text but without the validity check: for tests of scoring and checks on bad grids."""
        return City._parse(text, False)

    @staticmethod
    def _parse(str text, bint check):
        cdef City c = City()
        cdef CityGrid* g = c.g
        cdef int x, y, tile, walls
        cells = set()
        tiles = set()
        for token in text.split():
            try:
                where, _, what = token.partition(":")
                xs, ys = where.split(",")
                x = int(xs)
                y = int(ys)
                tile_s, slash, walls_s = what.partition("/")
                tile = int(tile_s)
            except (ValueError, OverflowError):
                raise ValueError(f"bad city token {token!r} (write x,y:tile or x,y:tile/walls)") from None
            if not _on_grid(x, y):
                raise ValueError(f"cell {x},{y} is off the grid (|x|, |y| <= {CITY_COORD_MAX})")
            if not known_tile(tile):
                raise ValueError(f"no tile with id {tile} in {token!r}")
            if (x, y) in cells:
                raise ValueError(f"cell {x},{y} is given twice")
            if tile in tiles:
                raise ValueError(f"tile {tile} is given twice")
            if x == 0 and y == 0 and tile != FOUNTAIN:
                raise ValueError(f"cell 0,0 holds the fountain (tile 0), not tile {tile}")
            if tile == FOUNTAIN and (x != 0 or y != 0):
                raise ValueError(f"the fountain (tile 0) stands on 0,0, not on {x},{y}")
            walls = walls_from_text(walls_s) if slash else TILE_WALLS[tile]
            cells.add((x, y))
            tiles.add(tile)
            city_put(g, x, y, tile, walls)
        reason = c.is_valid() if check else None
        if reason is not None:
            raise ValueError(f"invalid city: {reason}")
        return c

    def clone(self):
        """A City sharing this one's grid (O(1)); both stay independent values.

        >>> c = City.from_text("1,0:15"); c.clone() == c
        True
        """
        return city_wrap(self.g)

    # ---- reading ---------------------------------------------------------------------------------------

    def cells(self):
        """``[(x, y, tile, walls), ...]`` sorted by (y descending, x): north row first.

        >>> City.from_text("0,-1:33 1,0:15").cells()
        [(0, 0, 0, 0), (1, 0, 15, 7), (0, -1, 33, 14)]
        """
        cdef int cell_buf[CITY_MAX_CELLS]
        cdef int tile_buf[CITY_MAX_CELLS]
        cdef int n = city_list(self.g, cell_buf, tile_buf)
        cdef int k
        out = []
        for k in range(n):
            x, y = _unpack_cell(cell_buf[k])
            out.append((x, y, tile_buf[k], city_walls(self.g, x, y)))
        return out

    def tile_at(self, x, y):
        """Tile id at (x, y), or None if the cell is empty.

        >>> City().tile_at(0, 0), City().tile_at(5, 5)
        (0, None)
        """
        cdef long cx = _coord_arg(x, "x"), cy = _coord_arg(y, "y")
        if not _on_grid(cx, cy):
            return None
        cdef int t = city_tile(self.g, cx, cy)
        return None if t < 0 else t

    def walls_at(self, x, y):
        """Wall mask at (x, y), or None if the cell is empty."""
        if self.tile_at(x, y) is None:
            return None
        return city_walls(self.g, x, y)

    def __len__(self):
        """Tiles in the city, the fountain included."""
        return self.g.ntiles

    def _has_tile(self, int tile):
        return city_holds(self.g, tile)

    # ---- legality ----------------------------------------------------------------------------------------

    def can_place(self, x, y, tile, walls=None):
        """None if ``tile`` may be placed at (x, y), else the reason. ``walls`` overrides the printed walls.

        >>> c = City()
        >>> c.can_place(1, 0, 15), c.can_place(1, 1, 15), c.can_place(0, 0, 15)
        (None, 'no tile on any side of the cell', 'cell is not empty')
        """
        cdef long cx = _coord_arg(x, "x"), cy = _coord_arg(y, "y")
        cdef int t = _tile_arg(tile)
        cdef int wl = _walls_arg(t, walls)
        if self._has_tile(t):
            return f"tile {t} is already in the city"
        if not _on_grid(cx, cy):
            return city_error_text(CITY_ERR_OFF_GRID).decode()
        cdef int code
        if TILE_KIND[t] == KIND_CAMP:
            code = camp_check_place(self.g, cx, cy, wl)
        else:
            code = city_check_place(self.g, cx, cy, wl)
        return city_error_text(code).decode() if code else None

    def can_remove(self, x, y):
        """None if the tile at (x, y) may be removed to the reserve, else the reason.

        >>> City().can_remove(0, 0)
        'the fountain cannot be removed or swapped'
        """
        cdef long cx = _coord_arg(x, "x"), cy = _coord_arg(y, "y")
        if not _on_grid(cx, cy):
            return city_error_text(CITY_ERR_EMPTY).decode()
        cdef int code = city_check_remove(self.g, cx, cy)
        return city_error_text(code).decode() if code else None

    def can_swap(self, x, y, tile, walls=None):
        """None if ``tile`` (from the reserve) may replace the tile at (x, y), else the reason."""
        cdef long cx = _coord_arg(x, "x"), cy = _coord_arg(y, "y")
        cdef int t = _tile_arg(tile)
        cdef int wl = _walls_arg(t, walls)
        if self._has_tile(t):
            return f"tile {t} is already in the city"
        if not _on_grid(cx, cy):
            return city_error_text(CITY_ERR_EMPTY).decode()
        cdef int code
        if walls is None or TILE_KIND[t] == KIND_CAMP:
            code = city_check_swap_tile(self.g, cx, cy, t, wl)
        else:
            code = city_check_swap(self.g, cx, cy, wl)
        return city_error_text(code).decode() if code else None

    def placements(self, tile, walls=None):
        """Every legal cell for ``tile``, north row first (empty if the tile is already in the city).

        >>> City().placements(33)           # walls E, S, W: only south of the fountain
        [(0, -1)]
        """
        cdef int t = _tile_arg(tile)
        cdef int wl = _walls_arg(t, walls)
        cdef int buf[CITY_MAX_CELLS]
        if self._has_tile(t):
            return []
        cdef int n
        if TILE_KIND[t] == KIND_CAMP:
            n = camp_place_cells(self.g, wl, buf)
        else:
            n = city_place_cells(self.g, wl, buf)
        return [_unpack_cell(buf[k]) for k in range(n)]

    def removals(self):
        """Every cell whose tile may be removed, north row first.

        >>> City.from_text("1,0:7 2,0:15").removals()   # 1,0 holds 2,0 on foot
        [(2, 0)]
        """
        cdef int buf[CITY_MAX_CELLS]
        cdef int n = city_remove_cells(self.g, buf)
        return [_unpack_cell(buf[k]) for k in range(n)]

    def camp_score(self):
        """Points of the camps' arrow lines (rules.md §9.2): per bastion, the tiles in line beyond it."""
        return city_camp_score(self.g)

    def bazaar_score(self):
        """Round-3 points of the bazaars (§9.3): per bazaar, matching neighbours x types among them."""
        return city_bazaar_score(self.g)

    def swaps(self, tile, walls=None):
        """Every cell whose tile ``tile`` may replace, north row first."""
        cdef int t = _tile_arg(tile)
        cdef int wl = _walls_arg(t, walls)
        cdef int buf[CITY_MAX_CELLS]
        if self._has_tile(t):
            return []
        cdef int n = 0 if TILE_KIND[t] == KIND_CAMP else city_swap_cells(self.g, wl, buf)
        n += camp_swap_cells(self.g, t, wl, buf + n)
        return sorted((_unpack_cell(buf[k]) for k in range(n)), key=lambda c: (-c[1], c[0]))

    # ---- new values --------------------------------------------------------------------------------------

    cdef City _changed(self):
        cdef City c = city_wrap(self.g)
        city_unshare(&c.g)
        return c

    def with_tile(self, x, y, tile, walls=None):
        """A new City with ``tile`` placed at (x, y); ValueError if illegal.

        >>> City().with_tile(1, 0, 15).to_text()
        '0,0:0 1,0:15'
        """
        reason = self.can_place(x, y, tile, walls)
        if reason is not None:
            raise ValueError(f"cannot place tile {tile} at {x},{y}: {reason}")
        cdef City c = self._changed()
        city_put(c.g, x, y, tile, _walls_arg(tile, walls))
        return c

    def without(self, x, y):
        """A new City without the tile at (x, y); ValueError if illegal.

        >>> City.from_text("1,0:15").without(1, 0) == City()
        True
        """
        reason = self.can_remove(x, y)
        if reason is not None:
            raise ValueError(f"cannot remove the tile at {x},{y}: {reason}")
        cdef City c = self._changed()
        city_clear(c.g, x, y)
        return c

    def swapped(self, x, y, tile, walls=None):
        """A new City where ``tile`` replaces the tile at (x, y); ValueError if illegal.

        >>> City.from_text("1,0:15").swapped(1, 0, 45).to_text()   # 45 has the same walls N, E, S
        '0,0:0 1,0:45'
        """
        reason = self.can_swap(x, y, tile, walls)
        if reason is not None:
            raise ValueError(f"cannot swap tile {tile} in at {x},{y}: {reason}")
        cdef City c = self._changed()
        city_put(c.g, x, y, tile, _walls_arg(tile, walls))
        return c

    # ---- scoring, checks, text -----------------------------------------------------------------------

    def wall_score(self):
        """Length of the longest trail along the outer wall (rules.md §5).

        >>> City.from_text("1,0:1").wall_score()   # pavilion 1 has walls N, E, W; W faces the fountain
        Traceback (most recent call last):
        ...
        ValueError: invalid city: sides do not match between 0,0 and 1,0
        >>> City.from_text("1,0:15").wall_score()  # arcades 15: N, E, S all face empty cells
        3
        """
        return city_wall_score(self.g)

    def is_valid(self):
        """None if the city satisfies every rule of rules.md §4 (checked from scratch), else the reason."""
        cdef int where[2]
        cdef int code = city_validate(self.g, where)
        if code == CITY_OK:
            return None
        if code == CITY_ERR_NO_FOUNTAIN:
            return "no fountain at 0,0"
        x, y = _unpack_cell(where[0])
        tile = city_tile(self.g, x, y)
        if code == CITY_ERR_SIDES:
            x2, y2 = _unpack_cell(where[1])
            return f"sides do not match between {x},{y} and {x2},{y2}"
        if code == CITY_ERR_NO_NEIGHBOUR:
            return f"tile {tile} at {x},{y} touches no other tile on a side"
        if code == CITY_ERR_UNREACHABLE:
            return f"tile {tile} at {x},{y} cannot be reached on foot from the fountain"
        if code == CITY_ERR_ENCLOSED:
            return f"empty cell {x},{y} is enclosed"
        return city_error_text(code).decode()

    def to_text(self):
        """The ``from_text`` form; ``/walls`` only where the walls differ from the printed ones.

        >>> City.from_text("1,0:17/N 0,-1:33").to_text()
        '0,0:0 1,0:17/N 0,-1:33'
        """
        parts = []
        for x, y, tile, walls in self.cells():
            s = f"{x},{y}:{tile}"
            if walls != TILE_WALLS[tile]:
                s += "/" + walls_to_text(walls)
            parts.append(s)
        return " ".join(parts)

    def __eq__(self, other):
        if not isinstance(other, City):
            return NotImplemented
        if (<City>other).g == self.g:
            return True
        return self.cells() == other.cells()

    def __hash__(self):
        return hash(tuple(self.cells()))

    def __repr__(self):
        return f"City.from_text({self.to_text()!r})"

    def __reduce__(self):
        return (City.from_text, (self.to_text(),))

    # ---- for tests of the copy-on-write sharing and for benchmarks ---------------------------------------

    def _bench(self, str op, int reps, int walls=0):
        """Run one C-level operation ``reps`` times without the GIL (benchmarks time the call and divide).
        ops: place, remove, swap (answers cached after the first call), place_cold, remove_cold (the cache
        dropped before each call, as after a change), wall, check_place (at 1,0), copy (unshare a shared
        grid). Returns a checksum.
        """
        cdef int buf[CITY_MAX_CELLS]
        cdef long total = 0
        cdef int k
        cdef CityGrid* g = self.g
        cdef CityGrid* slot
        ops = ("place", "remove", "swap", "wall", "check_place", "copy", "place_cold", "remove_cold")
        if op not in ops:
            raise ValueError(f"unknown benchmark op {op!r}")
        cdef int code = ops.index(op)
        with nogil:
            for k in range(reps):
                if code == 0:
                    total += city_place_cells(g, walls, buf)
                elif code == 1:
                    total += city_remove_cells(g, buf)
                elif code == 2:
                    total += city_swap_cells(g, walls, buf)
                elif code == 3:
                    total += city_wall_score(g)
                elif code == 4:
                    total += city_check_place(g, 1, 0, walls)
                elif code == 6:
                    g.cached = 0
                    total += city_place_cells(g, walls, buf)
                elif code == 7:
                    g.cached = 0
                    total += city_remove_cells(g, buf)
                else:
                    city_incref(g)
                    slot = g
                    city_unshare(&slot)
                    total += slot.ntiles
                    city_decref(slot)
        return total


    def _unsafe_put(self, int x, int y, int tile, int walls):
        """Change this City's own grid in place (tests of the in-place path the game state uses)."""
        if self.g.refcount != 1:
            raise RuntimeError("grid is shared")
        city_put(self.g, x, y, tile, walls)

    def _unsafe_clear(self, int x, int y):
        if self.g.refcount != 1:
            raise RuntimeError("grid is shared")
        city_clear(self.g, x, y)

    def _has_place(self, int walls):
        return bool(city_has_place(self.g, walls & 15))

    def _shares_grid(self, City other):
        return self.g == other.g

    def _grid_refcount(self):
        return self.g.refcount


cdef City city_wrap(CityGrid* g):
    """Wrap an existing grid without copying (incref'ing it): how a state hands out its cities."""
    cdef City c = City.__new__(City)
    city_incref(g)
    c.g = g
    return c


cdef list _cells_of(CityGrid* g):
    return [list(cell) for cell in city_wrap(g).cells()]
