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
    all_tiles = game_tiles(bits)

    def take_tile(t, place):
        if isinstance(t, bool) or not isinstance(t, int) or t not in all_tiles:
            raise ValueError(f"{place}: no tile {t!r} in this game (tiles are 1-{NBUILDINGS}"
                             + (", camps 55-62" if bits & OPT_CAMPS else "")
                             + (", bazaars 63-70" if bits & OPT_BAZAARS else "") + ")")
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
    if bazaars_waiting:
        if not bits & OPT_BAZAARS:
            raise ValueError("bazaars_waiting: the Bazaars module is not on")
        for t in bazaars_waiting:
            take_tile(t, "the bazaars beside the market")
            if TILE_KIND[t] != KIND_BAZAAR:
                raise ValueError(f"bazaars_waiting: tile {t} is not a bazaar")
            s.bazaar_wait |= 1 << (t - BAZAAR_FIRST)
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
                if not bits & OPT_WALLS or WALL_CARD_FIRST + int(w[1]) - 1 in pile:
                    raise ValueError(f"draw_pile: wall card {w} is not (or not once more) in this game")
                pile.append(WALL_CARD_FIRST + int(w[1]) - 1)
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
        if bits & OPT_WALLS:
            for w in range(NWALL_CARDS):
                if w + 1 not in wall_cards and w + 1 not in wall_cards_used:
                    pile.insert(rng_below(&s.rng, len(pile) + 1), WALL_CARD_FIRST + w)
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
    _setup_modules(s, bits, vizier_asleep, falcons)
    _setup_change_walls(s, bits, coins, wall_cards, wall_cards_used, card_walls)
    _setup_thief_residents(self, per_seat("thieves", thieves), per_seat("discs", discs),
                           per_seat("residents", residents))
    return self


cdef _setup_change_walls(GameState* s, uint32_t bits, coins, wall_cards, wall_cards_used, card_walls):
    """from_setup's Change and Walls parts (see _from_setup)."""
    cdef int i, k, t, x = 0, y = 0, sides
    if bits & OPT_CHANGE:
        for k in range(NCUR):
            s.coin_bag[k] = NCOINS
    for i, texts in enumerate(coins or ()):
        if not bits & OPT_CHANGE:
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
    if (wall_cards or wall_cards_used or card_walls) and not bits & OPT_WALLS:
        raise ValueError("wall_cards / wall_cards_used / card_walls: the Walls module is not on")
    in_pile = {s.draw[i] - WALL_CARD_FIRST + 1 for i in range(s.draw_len) if s.draw[i] >= WALL_CARD_FIRST}
    for w in list(wall_cards) + list(wall_cards_used):
        if isinstance(w, bool) or not isinstance(w, int) or not 1 <= w <= NWALL_CARDS or w in in_pile:
            raise ValueError(f"wall_cards: {w!r} is no wall card 1-{NWALL_CARDS} (or given twice)")
        in_pile.add(w)
    if bits & OPT_WALLS and len(in_pile) != NWALL_CARDS:
        raise ValueError("wall cards nowhere (in the draw pile, face up or used): "
                         f"{sorted(set(range(1, NWALL_CARDS + 1)) - in_pile)}")
    for w in wall_cards:
        s.wall_up |= 1 << (w - 1)
    for w in wall_cards_used:
        s.wall_used |= 1 << (w - 1)
    if bits & OPT_WALLS:
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


cdef _setup_thief_residents(State self, list thieves, list discs, list residents):
    """from_setup's part for the Thief and the Residents (modules/thief.pxi, residents.pxi)."""
    cdef GameState* s = &self.st
    cdef int p, k, t
    if any(v is not None for v in thieves) and not s.options & OPT_THIEF:
        raise ValueError("thieves: the Thief is not on in this game")
    if any(v is not None for v in discs + residents) and not s.options & OPT_RESIDENTS:
        raise ValueError("discs / residents: the Residents are not on in this game")
    if s.options & OPT_THIEF:
        thief_setup(s)
        if any(v is not None for v in thieves):       # the given hands; the others dealt from the rest
            left = [NTHIEVES] * NCUR
            for p, hand in enumerate(thieves):
                for w in hand or ():
                    if not isinstance(w, str) or w not in CURRENCY_LETTERS or len(w) != 1:
                        raise ValueError(f"thieves[{p}]: {w!r} is no currency letter (y, g, b, o)")
                    k = CURRENCY_LETTERS.index(w)
                    if left[k] == 0:
                        raise ValueError(f"thieves: more than {NTHIEVES} thieves of {CURRENCY_NAMES[k]}")
                    left[k] -= 1
            pool = bytearray(k for k in range(NCUR) for _ in range(left[k]))
            _shuffle_py(s, pool)
            for p in range(s.num_players):
                s.thief[p][0] = s.thief[p][1] = s.thief[p][2] = s.thief[p][3] = 0
                hand = thieves[p]
                if hand is None:
                    hand = [CURRENCY_LETTERS[k] for k in pool[:THIEVES_DEALT[s.num_players]]]
                    pool = pool[THIEVES_DEALT[s.num_players]:]
                for w in hand:
                    s.thief[p][CURRENCY_LETTERS.index(w)] += 1
            for k in range(NCUR):
                s.thief_out[k] = pool.count(k)
            thief_recount(s)
    if not s.options & OPT_RESIDENTS:
        return
    residents_deal(s)
    for p, figures in enumerate(discs):
        if figures is None:
            continue
        if len(set(figures)) != len(figures) or len(figures) > 3 or any(w not in TYPE_NAMES for w in figures):
            raise ValueError(f"discs[{p}]: up to 3 distinct building types ({', '.join(TYPE_NAMES)})")
        for t in range(NTYPES):
            s.supply[t] += s.disc[p][t]
            s.disc[p][t] = 0
        for w in figures:
            t = TYPE_NAMES.index(w)
            if s.supply[t] == 0:
                raise ValueError(f"discs: more than {NFIGURES} figures of {w}")
            s.supply[t] -= 1
            s.disc[p][t] = 1
        s.disc_hidden[p] = len(figures)
    for p, tiles in enumerate(residents):
        for t in tiles or ():
            if isinstance(t, bool) or not isinstance(t, int) or not 1 <= t <= NBUILDINGS \
                    or not city_holds(s.cities.city[p], t):
                raise ValueError(f"residents[{p}]: {t!r} is no building of that city")
            if s.supply[TILE_TYPE[t]] == 0 or mask_has(s.residents[p], t):
                raise ValueError(f"residents[{p}]: no figure of {TYPE_NAMES[TILE_TYPE[t]]} left for tile {t}")
            s.supply[TILE_TYPE[t]] -= 1
            mask_set(s.residents[p], t)


cdef _setup_modules(GameState* s, uint32_t bits, vizier_asleep, falcons):
    """from_setup's module parts: viziers (awake unless listed asleep) and falcons (checked like a buy)."""
    cdef int f, seat, x, y, types
    for f in range(NFALCONS):
        s.falcon_owner[f] = NO_SEAT
    if bits & OPT_VIZIER:
        s.vizier_awake = <uint8_t>((1 << s.num_players) - 1)
    for seat in vizier_asleep or ():
        if not bits & OPT_VIZIER:
            raise ValueError("vizier_asleep: the Vizier module is not on")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < s.num_players:
            raise ValueError(f"vizier_asleep: no seat {seat!r}")
        s.vizier_awake &= ~(1 << seat)
    if not falcons:
        return
    if not bits & OPT_FALCONS:
        raise ValueError("falcons: the Falconers module is not on")
    for key, value in dict(falcons).items():
        if isinstance(key, bool) or not isinstance(key, int) or not 1 <= key <= NFALCONS:
            raise ValueError(f"falcons: no falcon {key!r} (1-{NFALCONS})")
        try:
            seat, (x, y) = value
        except (TypeError, ValueError):
            raise ValueError(f"falcons[{key}]: write (seat, (x, y)), not {value!r}") from None
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < s.num_players:
            raise ValueError(f"falcons[{key}]: no seat {seat!r}")
        if not (-60 <= x <= 60 and -60 <= y <= 60):
            raise ValueError(f"falcons[{key}]: corner {x},{y} is off the city")
        types = corner_types(s.cities.city[seat], x, y)
        if types < 0 or FALCON_TYPES[key - 1] & ~types:
            raise ValueError(f"falcons[{key}]: falcon {key} cannot sit on corner {x},{y} of seat {seat}'s city")
        if corner_taken(s, seat, city_pack(x, y)):
            raise ValueError(f"falcons[{key}]: corner {x},{y} of seat {seat} holds another falcon")
        s.falcon_owner[key - 1] = seat
        s.falcon_cell[key - 1] = city_pack(x, y)


def game_tiles(uint32_t bits):
    """Every tile id of a game with these option bits: the buildings, then camps and bazaars if on."""
    tiles = list(range(1, NBUILDINGS + 1))
    if bits & OPT_CAMPS:
        tiles += list(range(CAMP_FIRST, CAMP_FIRST + NCAMPS))
    if bits & OPT_BAZAARS:
        tiles += list(range(BAZAAR_FIRST, BAZAAR_FIRST + NBAZAARS))
    return tiles
