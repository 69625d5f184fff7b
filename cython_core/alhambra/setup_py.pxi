# State.from_setup: positions built from parts, for tests and analysis (included by state_py.pxi).

def _from_setup(num_players, *, seed=0, options=None, current_player=0, turn=0, hands=None, cities=None,
                reserves=None, market=None, display=None, draw_pile=None, discard=None, bag=None,
                dirk_tiles=None, scores=None, dirk_score=0, scoring_rounds_done=0, vizier_asleep=(),
                bazaars_waiting=(), falcons=None, coins=None, wall_cards=(), wall_cards_used=(),
                card_walls=None, thieves=None, discs=None, residents=None):
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
    - modules (``options``): camp / bazaar tiles go anywhere a building may; ``vizier_asleep``: seats;
      ``bazaars_waiting``: bazaar tiles beside the market; ``falcons``: ``{falcon 1..15: (seat, (x, y))}``
      (the corner's south-west cell; the others stay in the supply).
    - Change: ``coins`` per seat a list of coin texts (``["gc", "gc"]``); the rest are in the bag.
    - Walls: ``wall_cards`` face up and ``wall_cards_used`` (numbers 1-8); ``card_walls`` ``{tile: "NE"}``,
      pieces already on city / reserve tiles; ``draw_pile`` may hold ``w1``..``w8``, and by default the other
      wall cards are shuffled into it (one pile range: the whole draw pile).
    - Thief: ``thieves``: per seat its thief cards as currency letters (default: dealt by ``seed``; the
      rest are out of the game). Residents: ``discs``: per seat the figures on its disc, distinct building
      types (default: 3 dealt by ``seed``; the disc lies beside the fountain); ``residents``: per seat
      buildings of its city that hold a resident.

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
    state_init(s, n, <uint64_t>seed, bits)
    self._seed = seed
    self._options = opts
    self._ev = [event(None, "setup", None)]
    self._hist = [_event_line(self._ev[0], None)]
    self._hist_len = 1
    self.record_history = True
    # the modules' keywords, each read by its module's from_setup hook (modules/table.pxi)
    kw = {"vizier_asleep": vizier_asleep, "bazaars_waiting": bazaars_waiting, "falcons": falcons, "coins": coins,
          "wall_cards": wall_cards, "wall_cards_used": wall_cards_used, "card_walls": card_walls,
          "thieves": thieves, "discs": discs, "residents": residents}

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
    all_tiles = game_tiles(bits)

    def take_tile(t, place):
        if isinstance(t, bool) or not isinstance(t, int) or t not in all_tiles:
            raise ValueError(f"{place}: no tile {t!r} in this game (tiles are 1-{NBUILDINGS}"
                             + "".join(text for bit, text in _tile_ranges() if bits & bit) + ")")
        if t in where:
            raise ValueError(f"tile {t} is both in {where[t]} and in {place}")
        where[t] = place

    setup = {"per_seat": per_seat, "take_tile": take_tile, "pile": None, "pile_given": draw_pile is not None}
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
            city_put(s.cities.city[i], x, y, t, TILE_WALLS[t])
            type_count_add(&s.cities, i, t, 1)
        why = city_wrap(s.cities.city[i]).is_valid()
        if why is not None:
            raise ValueError(f"cities[{i}]: not a valid city: {why}")
    for i, tiles in enumerate(per_seat("reserves", reserves)):
        for t in tiles or ():
            take_tile(t, f"the reserve of seat {i}")
            mask_set(s.cities.reserve[i], t)
    if dirk_tiles:
        if not bits & OPT_DIRK:
            raise ValueError("dirk_tiles: there is no Dirk in this game")
        for t in dirk_tiles:
            take_tile(t, "Dirk's tiles")
            mask_set(s.cities.dirk_tiles, t)
            type_count_add(&s.cities, DIRK, t, 1)
    _modules_from_setup(s, SETUP_TILES, kw, setup)
    if market is not None:
        market = list(market)
        if len(market) != NCUR:
            raise ValueError(f"market: expected 4 entries (tile or None), got {len(market)}")
        for k, t in enumerate(market):
            if t is not None:
                take_tile(t, f"market slot {k + 1}")
                if TILE_KIND[t] == KIND_BAZAAR:
                    raise ValueError(f"market slot {k + 1}: a bazaar waits beside the market, not in a slot")
                s.market[k] = t
    if bag is not None:
        bag = list(bag)
        for t in bag:
            take_tile(t, "the bag")
        missing = [t for t in all_tiles if t not in where]
        if missing:
            raise ValueError(f"tiles nowhere (put them in the bag, a reserve, ...): {missing}")
    else:
        bag = [t for t in all_tiles if t not in where]
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
            elif isinstance(w, str) and len(w) == 2 and w[0] == "w" and w[1] in "12345678":
                # a wall card (whether the game has them: the modules' SETUP_PILE)
                if WALL_CARD_FIRST + int(w[1]) - 1 in pile:
                    raise ValueError(f"draw_pile: wall card {w} is not (or not once more) in this game")
                pile.append(WALL_CARD_FIRST + int(w[1]) - 1)
            else:
                pile.extend(take_cards([w], "draw_pile"))
        setup["pile"] = pile
        _modules_from_setup(s, SETUP_PILE, kw, setup)
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
        setup["pile"] = pile
        _modules_from_setup(s, SETUP_PILE, kw, setup)      # (their cards into it)
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
    if isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn < 2 ** 31:
        raise ValueError(f"turn: a count of turns, not {turn!r}")
    s.turn = turn
    s.phase = PH_ACTION
    _modules_from_setup(s, SETUP_END, kw, setup)
    return self


cdef _modules_from_setup(GameState* s, int step, dict kw, dict setup):
    """Each module's from_setup hook, in the table's order, on or off (off, it refuses its keywords)."""
    cdef int i
    for i in range(NMODULES):
        if MODULES_TABLE[i].from_setup != NULL:
            MODULES_TABLE[i].from_setup(s, step, kw, setup)


def game_tiles(uint32_t bits):
    """Every tile id of a game with these option bits: the buildings, then the tiles of the modules on that
    bring tiles (modules/table.pxi's tile_kind: camps, bazaars), by id."""
    return [t for t in range(1, LAST_TILE + 1) if TILE_KIND[t] == KIND_BUILDING
            or (TILE_KIND[t] != KIND_NONE and bits & TILE_KIND_BIT[TILE_KIND[t]])]


cdef list _tile_ranges():
    """(bit, ", camps 55-62") per module bringing tiles, in the table's order: from_setup's message."""
    out = []
    for i in range(NMODULES):
        if MODULES_TABLE[i].tile_kind:
            ids = [t for t in range(1, LAST_TILE + 1) if TILE_KIND[t] == MODULES_TABLE[i].tile_kind]
            out.append((MODULES_TABLE[i].bit, f", {MODULES_TABLE[i].name.decode()} {min(ids)}-{max(ids)}"))
    return out
