# Information: what one seat may know (rules.md §8), card counting, determinization (sampling the hidden
# rest), and the JSON position format (a complete state, hidden parts included) with its validation.
#
# Hidden in a state: the order of the draw pile (the scoring cards only within their public ranges), the order
# of the tile bag, the RNG state (it decides future reshuffles) and the seed. Hands are secret, but in a game
# dealt by new_game every card entering or leaving a hand is a public event, so card counting recovers every
# hand exactly. A position made by State.from_setup starts without public deals: there the other hands are
# unknown apart from what the later history shows, and determinization samples the unknown cards.


POSITION_FORMAT = "alhambra-ai-position"
POSITION_VERSION = 1


cdef dict _CARD_CODES = {card_text(_c): _c for _c in range(NCARD_KINDS)}
cdef object _MISSING = object()

include "modules/hidden.pxi"


# ================================================================ observation

cdef list _scoring_cards(GameState* s):
    """Per scoring card: drawn?, and while undrawn the draw-pile index range (0 = top) it lies in."""
    out = []
    cdef int k
    for k in range(2):
        drawn = bool((s.scored | s.due) & (1 << k))
        pos = None
        if not drawn and s.draw_pos < s.sc_hi[k]:
            pos = [max(0, s.sc_lo[k] - s.draw_pos), s.sc_hi[k] - 1 - s.draw_pos]
        out.append({"round": k + 1, "drawn": drawn, "positions": pos})
    return out


cdef object _final_of(GameState* s):
    """The leftover distribution at the end (public: the tiles lie beside their receivers), or None."""
    if not s.ended:
        return None
    return {"ender": s.ender,
            "tiles": [None if s.final_tile[k] == NO_TILE else s.final_tile[k] for k in range(NCUR)],
            "seats": [None if s.final_seat[k] == NO_SEAT else s.final_seat[k] for k in range(NCUR)]}


def observation_of(State st, seat):
    """``State.observation(seat)``: everything ``seat`` may know (rules.md §8) as a JSON-ready dict.

    Two states that differ only in hidden information give equal observations (byte-identical
    ``json.dumps(obs, sort_keys=True)``): nothing here depends on the draw-pile order, the bag order, the RNG
    or the seed.
    """
    cdef GameState* s = &st.st
    cdef int me = st._seat(seat), n = s.num_players, i
    cdef bint dirk = s.options & OPT_DIRK
    to_act = s.phase != PH_OVER and s.current == me
    history, events = log_seen(st, me)     # (modules/hidden.pxi: others' secret setup choices hidden)
    return {
        "seat": me,
        "num_players": n,
        "options": dict(st._options),
        "phase": PHASE_NAMES[s.phase],
        "current_player": -1 if s.phase == PH_OVER else s.current,
        "turn": s.turn,
        "actions_this_turn": s.actions_taken,
        "start_player": s.start_player,
        "scoring_rounds_done": __builtin_popcountll(s.scored),
        "hand": st.hand(me),
        "hand_sizes": [s.hand_n[i] for i in range(n)],
        "cities": [_cells_of(s.cities.city[i]) for i in range(n)],
        "reserves": [st.reserve(i) for i in range(n)],
        "market": st.market(),
        "display": st.display(),
        "discard": st.discard(),
        "pending": st.pending(),
        "dirk_tiles": st.dirk_tiles() if dirk else None,
        "scores": st.scores(),
        "dirk_score": s.score[DIRK] if dirk else None,
        "score_breakdown": st.score_breakdown(),
        "draw_pile_size": s.draw_len - s.draw_pos,
        "bag_size": s.bag_n,
        "scoring_cards": _scoring_cards(s),
        "final": _final_of(s),
        "history": history,
        "events": events,
        "legal_actions": st.legal_actions() if to_act else [],
        "modules": _modules_seen(st, me),
    }


cdef object _modules_seen(State st, int seat):
    """The modules' table (rules.md §9), None in a game without modules: the interrupt window's order
    (modules/window.pxi), then each module's keys (its `seen` hook, modules/table.pxi; in the table's order) with
    the secrets of ``seat`` (-1: of every seat, for a position)."""
    cdef GameState* s = &st.st
    cdef ModuleHooks* m
    cdef int i
    if not s.options & MODULE_BITS:
        return None
    out = {}
    window_seen(s, out)
    for i in range(NMODULES):
        m = &MODULES_TABLE[i]
        if m.seen != NULL and s.options & m.json_with:
            m.seen(s, st, seat, out)
    return out


cdef _modules_put(GameState* s, object m, put_tile):
    """Read the "modules" part of a position or observation into s (the inverse of _modules_seen): the
    window's order, then each module's `put` hook in the table's order (every module's, on or off: it checks
    that an off module's keys are null; the bag counts are checked by the caller's tile census)."""
    cdef ModuleHooks* h
    cdef int i
    if not s.options & MODULE_BITS:
        if m is not None:
            raise PositionError("modules must be null (or absent) in a game without modules")
        m = {}
    elif not isinstance(m, dict):
        raise PositionError("modules: an object with vizier_awake, window_order, bazaars_waiting, falcons")
    else:
        window_put(s, m)
    for i in range(NMODULES):
        h = &MODULES_TABLE[i]
        if h.put != NULL:
            h.put(s, m, (s.options & h.json_with) != 0, put_tile)


# ================================================================ card counting

cdef list _COUNTED = []            # the events _count_known counted last (the very objects) ...
cdef int _COUNTED_N = 0
cdef int _COUNTED_ROWS[MAX_PLAYERS * NCARD_KINDS]      # ... and the counts after them


cdef void _count_known(object events, int n, int* rows) except *:
    """Per seat (rows[seat * NCARD_KINDS + card]), counts of the cards certainly in its hand, from the public
    events: a deal or an action's ``gains`` (take, thief) add the cards; its ``pays`` (buy, bazaar, falcon)
    remove them (a paid card not known to be there came from the unknown part). Successive observations of
    a game share their events' prefix (the same objects, in one process): counting goes on from the last
    call's counts where the events start with the very objects it counted. Bad events raise KeyError,
    TypeError or IndexError."""
    global _COUNTED, _COUNTED_N
    cdef list evs = events if type(events) is list else list(events)
    cdef list done = _COUNTED
    cdef Py_ssize_t i, start = 0, m = len(evs), p = len(done)
    cdef int seat, c
    cdef dict ev
    if n == _COUNTED_N and 0 < p <= m:
        while start < p and evs[start] is done[start]:
            start += 1
    if start == p and p > 0:
        memcpy(rows, _COUNTED_ROWS, sizeof(int) * MAX_PLAYERS * NCARD_KINDS)
    else:
        start = 0
        memset(rows, 0, sizeof(int) * MAX_PLAYERS * NCARD_KINDS)
    for i in range(start, m):
        ev = evs[i]
        kind = ev["kind"]
        if kind == "deal":
            add = ev["payload"]
            pay = ()
        elif kind == "action":
            add = ev.get("gains", ())
            pay = ev.get("pays", ())
        else:
            continue
        seat = ev["seat"]
        if not 0 <= seat < n:
            continue
        for x in add:
            c = x
            if not 0 <= c < NCARD_KINDS:
                raise IndexError(c)
            rows[seat * NCARD_KINDS + c] += 1
        for x in pay:
            c = x
            if not 0 <= c < NCARD_KINDS:
                raise IndexError(c)
            if rows[seat * NCARD_KINDS + c]:
                rows[seat * NCARD_KINDS + c] -= 1
    _COUNTED = evs[:]
    _COUNTED_N = n
    memcpy(_COUNTED_ROWS, rows, sizeof(int) * MAX_PLAYERS * NCARD_KINDS)


cdef bint _events_deal(events):
    """True when the events start at a public deal (new_game): then every hand is known exactly."""
    return len(events) == 0 or events[0]["kind"] not in ("setup", "note")


def count_cards(obs):
    """Every card known to be in each hand, per seat (sorted card texts), reconstructed from the
    observation's public events (deals, takes and payments); the observing seat's own hand is its
    ``hand``. In a game started by ``new_game`` this is every hand exactly (rules.md §8: deals, takes and
    payments are all public).

    >>> from alhambra_ai import new_game
    >>> s = new_game(3, seed=7)
    >>> count_cards(s.observation(0)) == [s.hand(i) for i in range(3)]
    True
    """
    cdef int rows[MAX_PLAYERS * NCARD_KINDS]
    try:
        n = obs["num_players"]
        me = obs["seat"]
        events = obs["events"]
    except (KeyError, TypeError):
        raise PositionError("count_cards needs an observation (num_players, seat, events)") from None
    if not isinstance(n, int) or not 0 < n <= MAX_PLAYERS:
        raise PositionError(f"num_players must be 1..{MAX_PLAYERS}, not {n!r}")
    try:
        _count_known(events, n, rows)
    except (KeyError, AttributeError, TypeError, IndexError, OverflowError):
        raise PositionError("observation events: a deal, take or payment names something that is no card") \
            from None
    out = [[card_text(c) for c in range(NCARD_KINDS) for _ in range(rows[p * NCARD_KINDS + c])]
           for p in range(n)]
    out[me] = list(obs["hand"])
    return out


# ================================================================ determinization

cdef void _place_walls(GameState* s, Rng* r, uint8_t* wc, int nwc, uint8_t* free_, uint8_t* pile) noexcept nogil:
    """Deal the unseen wall cards wc (shuffled) back into the draw pile: each setup pile gets as many as it
    holds now (public), each at a uniform free place of its range."""
    cdef int p, i, lo, hi, cnt, j = 0, k, pick, free_n, length = s.draw_len - s.draw_pos
    rng_shuffle_u8(r, wc, nwc)
    for p in range(5):
        if p < 4:
            lo = s.wall_lo[p] - s.draw_pos
            hi = s.wall_hi[p] - s.draw_pos
            lo = lo if lo > 0 else 0
            hi = hi if hi < length else length
            cnt = 0
            for i in range(lo, hi):
                cnt += s.draw[s.draw_pos + i] >= WALL_CARD_FIRST
        else:                   # (never in a real game: a wall card outside the ranges) anywhere
            lo = 0
            hi = length
            cnt = nwc - j
        for k in range(cnt):
            free_n = 0
            for i in range(lo, hi):
                free_n += free_[i]
            if free_n == 0 or j >= nwc:
                break
            pick = rng_below(r, free_n)
            for i in range(lo, hi):
                if free_[i]:
                    if pick == 0:
                        free_[i] = 0
                        pile[i] = wc[j]
                        j += 1
                        break
                    pick -= 1


cdef void _determinize_c(GameState* s, int seat, uint64_t seed, uint8_t* known) noexcept nogil:
    """Resample in place everything ``seat`` cannot know, uniformly given what it knows.

    - the money cards of the draw pile and, when ``known`` is given (per seat and card, the counts known to be
      in each hand), the cards of the other hands beyond the known ones are shuffled together; each hand gets
      back as many as it gave, the rest fill the draw pile's money places;
    - each undrawn scoring card takes a uniform position among the free places of its public range (the setup
      shuffled it uniformly into its pile, and the cards drawn since are known not to be it);
    - the unseen wall cards (Walls) are shuffled among the places of their setup piles (how many lie in each
      pile is public);
    - the bag is shuffled; the RNG (future reshuffles) is reseeded;
    - the other seats' thief cards and hidden disc figures are dealt anew (the modules' resample hooks).
    """
    cdef uint8_t wc[NWALL_CARDS]
    cdef int nwc = 0
    cdef Rng r
    cdef uint8_t pool[MAX_DRAW + NCARD_KINDS * 3]
    cdef uint8_t sc[2]
    cdef uint8_t pile[MAX_DRAW]
    cdef uint8_t free_[MAX_DRAW]
    cdef int unknown[MAX_PLAYERS]
    cdef int np = 0, nsc = 0, i, j, k, p, c, lo, hi, cnt, pick, length, extra
    rng_seed(&r, seed)
    for i in range(s.draw_pos, s.draw_len):
        c = s.draw[i]
        if c < NCARD_KINDS:
            pool[np] = <uint8_t>c
            np += 1
        elif c >= WALL_CARD_FIRST:
            if nwc < NWALL_CARDS:
                wc[nwc] = <uint8_t>c
                nwc += 1
        elif nsc < 2:
            sc[nsc] = <uint8_t>c
            nsc += 1
    for p in range(s.num_players):
        unknown[p] = 0
        if known == NULL or p == seat:
            continue
        for c in range(NCARD_KINDS):
            extra = s.hand[p][c] - known[p * NCARD_KINDS + c]
            for k in range(extra):
                hand_remove(s, p, c)
                pool[np] = <uint8_t>c
                np += 1
                unknown[p] += 1
    rng_shuffle_u8(&r, pool, np)
    for p in range(s.num_players):
        for k in range(unknown[p]):
            np -= 1
            hand_add(s, p, pool[np])
    length = s.draw_len - s.draw_pos
    for i in range(length):
        free_[i] = 1
    if nwc:
        _place_walls(s, &r, wc, nwc, free_, pile)
    if nsc == 2 and sc[0] > sc[1]:
        c = sc[0]
        sc[0] = sc[1]
        sc[1] = <uint8_t>c
    for j in range(nsc):
        k = sc[j] - SCORING_CARD_1
        lo = s.sc_lo[k] - s.draw_pos
        if lo < 0:
            lo = 0
        hi = s.sc_hi[k] - s.draw_pos
        if hi > length:
            hi = length
        cnt = 0
        for i in range(lo, hi):
            cnt += free_[i]
        if cnt == 0:            # an inconsistent range (never in a real game): any free place
            lo = 0
            hi = length
            for i in range(lo, hi):
                cnt += free_[i]
        pick = rng_below(&r, cnt)
        for i in range(lo, hi):
            if free_[i]:
                if pick == 0:
                    free_[i] = 0
                    pile[i] = sc[j]
                    break
                pick -= 1
    j = 0
    for i in range(length):
        if free_[i]:
            pile[i] = pool[j]
            j += 1
    memcpy(&s.draw[s.draw_pos], pile, length)
    rng_shuffle_u8(&r, s.bag, s.bag_n)
    module_resample(s, seat, &r)            # the modules' secrets (modules/hidden.pxi)
    s.rng = r


cdef dict _KNOWN_CACHE = {}


cdef bytes _known_counts(State st):
    """Known card counts per seat (MAX_PLAYERS x NCARD_KINDS bytes) from the state's events, cached by the
    event list and its length (an event list is only ever appended to, so that prefix never changes)."""
    hist = st._ev
    key = (id(hist), st._hist_len)
    entry = _KNOWN_CACHE.get(key)
    if entry is not None and entry[0] is hist:
        return entry[1]
    cdef int rows[MAX_PLAYERS * NCARD_KINDS]
    cdef int i
    _count_known(hist[:st._hist_len], st.st.num_players, rows)
    out = bytearray(MAX_PLAYERS * NCARD_KINDS)
    for i in range(MAX_PLAYERS * NCARD_KINDS):
        out[i] = min(rows[i], 255)
    if len(_KNOWN_CACHE) >= 64:
        _KNOWN_CACHE.clear()
    b = bytes(out)
    _KNOWN_CACHE[key] = (hist, b)
    return b


def determinized_of(State st, seat, seed):
    """``State.determinized(seat, seed)``: a clone with everything ``seat`` cannot know resampled (draw-pile
    order with the scoring cards inside their public ranges, bag order, RNG; the other hands' cards that no
    public event revealed). Its ``observation(seat)`` equals this state's; its ``seed`` is None.
    ``seed``: any int, reduced modulo 2**64 (a bot may pass a negative or huge seed it derived itself)."""
    cdef int me = st._seat(seat)
    cdef State d
    cdef bytes known
    if isinstance(seed, int) and not isinstance(seed, bool):
        seed %= 2 ** 64
    _check_seed(seed)
    d = st.clone()
    d._seed = None
    if st.st.options & OPT_RESIDENTS:       # the history as the seat knows it (others' setup figures hidden)
        d._hist, d._ev = log_seen(st, me)
        d._hist_len = len(d._hist)
    if _events_deal(st._ev[:1] if st._hist_len else ()):
        _determinize_c(&d.st, me, <uint64_t>seed, NULL)
    else:
        known = _known_counts(st)
        _determinize_c(&d.st, me, <uint64_t>seed, <uint8_t*><char*>known)
    return d


# ================================================================ position format (a complete state as JSON)

cdef str _draw_text(int c):
    """A draw-pile code as text: money ``g3``, scoring cards ``s1`` / ``s2``, wall cards ``w1``..``w8``."""
    if c >= WALL_CARD_FIRST:
        return f"w{c - WALL_CARD_FIRST + 1}"
    return card_text(c) if c < NCARD_KINDS else f"s{c - SCORING_CARD_1 + 1}"


def position_of(State st):
    """``state_to_json``: the complete state as a JSON-ready dict (hidden parts included). See docs/formats.md."""
    cdef GameState* s = &st.st
    cdef int n = s.num_players, i, k
    cdef bint dirk = s.options & OPT_DIRK
    return {
        "format": POSITION_FORMAT,
        "version": POSITION_VERSION,
        "num_players": n,
        "options": dict(st._options),
        "seed": st._seed,
        "rng": "".join(f"{w:016x}" for w in (s.rng.s0, s.rng.s1, s.rng.s2, s.rng.s3)),
        "phase": PHASE_NAMES[s.phase],
        "current_player": -1 if s.phase == PH_OVER else s.current,
        "turn": s.turn,
        "actions_this_turn": s.actions_taken,
        "start_player": s.start_player,
        "seats": [{"city": city_wrap(s.cities.city[i]).to_text(), "reserve": st.reserve(i), "hand": st.hand(i),
                   "score": s.score[i]} for i in range(n)],
        "market": st.market(),
        "display": st.display(),
        "pending": st.pending(),
        "draw_pile": [_draw_text(s.draw[i]) for i in range(s.draw_pos, s.draw_len)],
        "scoring_cards": _scoring_cards(s),
        "discard": st.discard(),
        "bag": st._bag(),
        "dirk": {"tiles": st.dirk_tiles(), "score": s.score[DIRK]} if dirk else None,
        "scored": [k + 1 for k in range(3) if s.scored & (1 << k)],
        "due": [k + 1 for k in range(2) if s.due & (1 << k)],
        "score_breakdown": st.score_breakdown(),
        "final": None if not s.ended else dict(_final_of(s), served=s.final_pos),
        "history": st.history,
        "events": st.events,
        "record_history": bool(st.record_history),
        **({"modules": _modules_seen(st, -1)} if s.options & MODULE_BITS else {}),
    }


cdef object _get(dict d, str key, str where):
    v = d.get(key, _MISSING)
    if v is _MISSING:
        raise PositionError(f"{where}has no {key!r}")
    return v


cdef int _as_int(object v, str what, long lo, long hi) except? -99999:
    if isinstance(v, bool) or not isinstance(v, int):
        raise PositionError(f"{what} must be an int, not {type(v).__name__} {v!r}")
    if not lo <= v <= hi:
        raise PositionError(f"{what} must be {lo}..{hi}, not {v}")
    return v


cdef list _as_list(object v, str what, int length=-1):
    if not isinstance(v, list):
        raise PositionError(f"{what} must be a list, not {type(v).__name__}")
    if length >= 0 and len(v) != length:
        raise PositionError(f"{what} must have {length} entries, not {len(v)}")
    return v


cdef int _as_tile(object v, str what) except -1:
    if isinstance(v, bool) or not isinstance(v, int):
        raise PositionError(f"{what}: a tile is an int, not {type(v).__name__} {v!r}")
    if not 1 <= v <= LAST_TILE or TILE_KIND[v] == KIND_NONE:
        raise PositionError(f"{what}: unknown tile {v} (building tiles are 1..{NBUILDINGS}, camps and "
                            f"bazaars {CAMP_FIRST}..{LAST_TILE})")
    return v


cdef int _as_card(object v, str what, bint scoring=False) except -1:
    if not isinstance(v, str):
        raise PositionError(f"{what}: a card is a text like 'g3', not {type(v).__name__} {v!r}")
    if scoring and v in ("s1", "s2"):
        return SCORING_CARD_1 + int(v[1]) - 1
    if scoring and len(v) == 2 and v[0] == "w" and v[1] in "12345678":
        return WALL_CARD_FIRST + int(v[1]) - 1
    c = _CARD_CODES.get(v)
    if c is None:
        raise PositionError(f"{what}: unknown card {v!r} (a colour letter y/g/b/o and a value 1-9, e.g. g3"
                            + (", or s1 / s2 for the scoring cards)" if scoring else ")"))
    return c


cdef object _city_of(object spec, str what):
    """A City from its text or its cell list [[x, y, tile, walls], ...]; PositionError if invalid."""
    if isinstance(spec, str):
        text = spec
    elif isinstance(spec, list):
        parts = []
        for cell in spec:
            if not isinstance(cell, list) or len(cell) not in (3, 4) \
                    or any(isinstance(v, bool) or not isinstance(v, int) for v in cell):
                raise PositionError(f"{what}: a cell is [x, y, tile, walls] of ints, not {cell!r}")
            token = f"{cell[0]},{cell[1]}:{cell[2]}"
            if len(cell) == 4:
                if not 0 <= cell[3] <= 15:
                    raise PositionError(f"{what}: walls {cell[3]} of cell {cell[0]},{cell[1]} are not a mask 0..15")
                token += "/" + walls_to_text(cell[3])
            parts.append(token)
        text = " ".join(parts)
    else:
        raise PositionError(f"{what} must be a city text 'x,y:tile ...' or a list of cells, not "
                            f"{type(spec).__name__}")
    try:
        return City.from_text(text)
    except ValueError as e:
        raise PositionError(f"{what}: {e}") from None


cdef int _seat_of(object v, int n, str what) except -1:
    return _as_int(v, what, 0, n - 1)


def state_from_position(d):
    """``state_from_json``: the State of a position dict; PositionError names the first problem."""
    cdef State self
    cdef GameState* s
    cdef int n, i, k, copies, phase, served
    cdef City city
    if not isinstance(d, dict):
        raise PositionError(f"a position is a JSON object, not {type(d).__name__}")
    if d.get("format") != POSITION_FORMAT:
        raise PositionError(f"not a position: format is {d.get('format')!r}, expected {POSITION_FORMAT!r}")
    if d.get("version") != POSITION_VERSION:
        raise PositionError(f"unsupported position version {d.get('version')!r} (this reader knows "
                            f"{POSITION_VERSION})")
    known_keys = {"format", "version", "num_players", "options", "seed", "rng", "phase", "current_player",
                  "turn", "actions_this_turn", "start_player", "seats", "market", "display", "pending",
                  "draw_pile", "scoring_cards", "discard", "bag", "dirk", "scored", "due", "score_breakdown",
                  "final", "history", "events", "record_history", "modules"}
    unknown = sorted(set(d) - known_keys)
    if unknown:
        raise PositionError(f"unknown position field {unknown[0]!r}")
    n = _as_int(_get(d, "num_players", ""), "num_players", 2, MAX_PLAYERS)
    options = _get(d, "options", "")
    try:
        bits, opts = _normalize_options(n, options)
    except ValueError as e:
        raise PositionError(f"options: {e}") from None
    seed = d.get("seed")
    if seed is not None:
        try:
            _check_seed(seed)
        except ValueError as e:
            raise PositionError(str(e)) from None
    rng = _get(d, "rng", "")
    if not isinstance(rng, str) or len(rng) != 64 or any(ch not in "0123456789abcdef" for ch in rng):
        raise PositionError("rng must be 64 lowercase hex digits (the 4 xoshiro256** words)")
    words = [int(rng[16 * i:16 * i + 16], 16) for i in range(4)]
    if not any(words):
        raise PositionError("rng: the all-zero state is not a valid generator state")

    self = State.__new__(State)
    s = &self.st
    state_init(s, n, 0, bits)               # (its cities are replaced below: present, dealloc is safe)
    s.rng.s0, s.rng.s1, s.rng.s2, s.rng.s3 = words
    self._seed = seed
    self._options = opts
    copies = 2 if bits & OPT_DIRK else 3

    phase_name = _get(d, "phase", "")
    if phase_name not in PHASE_NAMES:
        raise PositionError(f"phase must be one of {', '.join(PHASE_NAMES)}, not {phase_name!r}")
    phase = PHASE_NAMES.index(phase_name)
    s.phase = phase
    cur = _get(d, "current_player", "")
    if phase == PH_OVER:
        if cur != -1:
            raise PositionError(f"current_player must be -1 when the game is over, not {cur!r}")
        s.current = NO_SEAT
    else:
        s.current = _seat_of(cur, n, "current_player")
    s.turn = _as_int(_get(d, "turn", ""), "turn", 0, 65535)
    s.actions_taken = _as_int(_get(d, "actions_this_turn", ""), "actions_this_turn", 0, 255)
    s.start_player = _seat_of(_get(d, "start_player", ""), n, "start_player")

    where = {}

    def put_tile(t, place):
        if t in where:
            raise PositionError(f"tile {t} is both in {where[t]} and in {place}")
        where[t] = place

    count = [0] * NCARD_KINDS

    def put_card(c, place):
        count[c] += 1
        if count[c] > copies:
            raise PositionError(f"card {card_text(c)}: more than the {copies} copies of the game "
                                f"(the last one in {place})")

    seats = _as_list(_get(d, "seats", ""), "seats", n)
    for i, entry in enumerate(seats):
        what = f"seats[{i}]"
        if not isinstance(entry, dict):
            raise PositionError(f"{what} must be an object with city, reserve, hand, score")
        bad = sorted(set(entry) - {"city", "reserve", "hand", "score"})
        if bad:
            raise PositionError(f"{what}: unknown field {bad[0]!r}")
        city = _city_of(_get(entry, "city", what + " "), what + ".city")
        city_decref(s.cities.city[i])
        city_incref(city.g)
        s.cities.city[i] = city.g
        for x, y, t, w in city.cells():
            if t != FOUNTAIN:
                put_tile(t, f"the city of seat {i}")
                type_count_add(&s.cities, i, t, 1)
        for t in _as_list(_get(entry, "reserve", what + " "), what + ".reserve"):
            put_tile(_as_tile(t, what + ".reserve"), f"the reserve of seat {i}")
            mask_set(s.cities.reserve[i], t)
        hand = _as_list(_get(entry, "hand", what + " "), what + ".hand")
        if len(hand) > 255:
            raise PositionError(f"{what}.hand: too many cards")
        for w in hand:
            c = _as_card(w, what + ".hand")
            put_card(c, f"the hand of seat {i}")
            hand_add(s, i, c)
        s.score[i] = _as_int(_get(entry, "score", what + " "), what + ".score", 0, 32767)

    market = _as_list(_get(d, "market", ""), "market", NCUR)
    for k, t in enumerate(market):
        if t is None:
            s.market[k] = NO_TILE
        else:
            put_tile(_as_tile(t, "market"), f"market slot {k + 1}")
            s.market[k] = t
    display = _as_list(_get(d, "display", ""), "display", 4)
    for i, w in enumerate(display):
        if w is None:
            s.display[i] = NO_CARD
        else:
            c = _as_card(w, "display")
            put_card(c, "the display")
            s.display[i] = c
    pending = _as_list(_get(d, "pending", ""), "pending")
    if len(pending) > MAX_PENDING:
        raise PositionError(f"pending: at most {MAX_PENDING} tiles")
    for i, t in enumerate(pending):
        put_tile(_as_tile(t, "pending"), "the pending tiles")
        s.pending[i] = t
    s.npending = len(pending)
    for w in _as_list(_get(d, "discard", ""), "discard"):
        c = _as_card(w, "discard")
        put_card(c, "the discard")
        s.discard[c] += 1
        s.discard_n += 1
    dirk = _get(d, "dirk", "")
    if bits & OPT_DIRK:
        if not isinstance(dirk, dict) or set(dirk) != {"tiles", "score"}:
            raise PositionError("dirk must be {\"tiles\": [...], \"score\": int} in a game with Dirk")
        for t in _as_list(dirk["tiles"], "dirk.tiles"):
            put_tile(_as_tile(t, "dirk.tiles"), "Dirk's tiles")
            mask_set(s.cities.dirk_tiles, t)
            type_count_add(&s.cities, DIRK, t, 1)
        s.score[DIRK] = _as_int(dirk["score"], "dirk.score", 0, 32767)
    elif dirk is not None:
        raise PositionError("dirk must be null in a game without Dirk")

    # scoring rounds
    scored = _as_list(_get(d, "scored", ""), "scored")
    due = _as_list(_get(d, "due", ""), "due")
    for r in scored:
        _as_int(r, "scored", 1, 3)
        if s.scored & (1 << (r - 1)):
            raise PositionError(f"scored: round {r} given twice")
        s.scored |= 1 << (r - 1)
    for r in due:
        _as_int(r, "due", 1, 2)
        if (s.scored | s.due) & (1 << (r - 1)):
            raise PositionError(f"due: round {r} is already scored (or given twice)")
        s.due |= 1 << (r - 1)
    if bool(s.scored & 4) != (phase == PH_OVER):
        raise PositionError("scored: round 3 is scored exactly when the game is over")

    # draw pile and scoring cards
    pile = _as_list(_get(d, "draw_pile", ""), "draw_pile")
    if len(pile) > MAX_DRAW:
        raise PositionError(f"draw_pile: at most {MAX_DRAW} cards")
    in_pile = {}
    for i, w in enumerate(pile):
        c = _as_card(w, "draw_pile", True)
        if c >= NCARD_KINDS:
            if c in in_pile:
                raise PositionError(f"draw_pile: scoring card {w} is there twice")
            in_pile[c] = i
        else:
            put_card(c, "the draw pile")
        s.draw[i] = c
    s.draw_pos = 0
    s.draw_len = len(pile)
    scards = _as_list(_get(d, "scoring_cards", ""), "scoring_cards", 2)
    for k in range(2):
        what = f"scoring_cards[{k}]"
        e = scards[k]
        if not isinstance(e, dict) or set(e) != {"round", "drawn", "positions"} or e["round"] != k + 1:
            raise PositionError(f"{what} must be {{\"round\": {k + 1}, \"drawn\": bool, \"positions\": "
                                f"[first, last] | null}}")
        drawn = e["drawn"]
        if not isinstance(drawn, bool):
            raise PositionError(f"{what}.drawn must be true or false")
        if drawn != bool((s.scored | s.due) & (1 << k)):
            raise PositionError(f"{what}: drawn must be {not drawn} (round {k + 1} is "
                                f"{'' if drawn else 'not '}listed in scored / due)")
        code = SCORING_CARD_1 + k
        if drawn:
            if code in in_pile:
                raise PositionError(f"draw_pile: scoring card s{k + 1} was drawn, it is not in the pile")
            if e["positions"] is not None:
                raise PositionError(f"{what}.positions must be null once the card is drawn")
            continue
        if code not in in_pile:
            raise PositionError(f"draw_pile: scoring card s{k + 1} is not drawn yet, so it must be in the pile")
        rng_ = _as_list(e["positions"], what + ".positions", 2)
        lo = _as_int(rng_[0], what + ".positions[0]", 0, len(pile) - 1)
        hi = _as_int(rng_[1], what + ".positions[1]", lo, len(pile) - 1)
        if not lo <= in_pile[code] <= hi:
            raise PositionError(f"draw_pile: scoring card s{k + 1} is at {in_pile[code]}, outside its range "
                                f"{lo}..{hi}")
        s.sc_lo[k] = lo
        s.sc_hi[k] = hi + 1
    missing = [card_text(c) for c in range(NCARD_KINDS) if count[c] < copies]
    if missing:
        raise PositionError(f"cards nowhere (the game has {copies} copies of each): {' '.join(missing[:8])}"
                            + (" ..." if len(missing) > 8 else ""))

    # the end: leftover tiles (also while a leftover tile's lifted disc is decided on: Residents)
    final = _get(d, "final", "")
    mods = d.get("modules")
    lifted = mods.get("lifted") if isinstance(mods, dict) else None
    in_final = phase == PH_FINAL or (phase == PH_RESIDENT and isinstance(lifted, dict)
                                     and lifted.get("resume") == "final")
    if in_final or phase == PH_OVER:
        if not isinstance(final, dict) or set(final) != {"ender", "served", "tiles", "seats"}:
            raise PositionError("final must be {\"ender\", \"served\", \"tiles\", \"seats\"} in the final "
                                "phase and after the game")
        s.ended = 1
        s.ender = _seat_of(final["ender"], n, "final.ender")
        served = _as_int(final["served"], "final.served", 1 if in_final else n, n)
        s.final_pos = served
        if in_final and (s.ender + served) % n != s.current:
            raise PositionError(f"final: the seat served last ({(s.ender + served) % n}) must be the "
                                f"current player ({s.current})")
        ftiles = _as_list(final["tiles"], "final.tiles", NCUR)
        fseats = _as_list(final["seats"], "final.seats", NCUR)
        for k in range(NCUR):
            s.final_tile[k] = NO_TILE
            s.final_seat[k] = NO_SEAT
            if (ftiles[k] is None) != (fseats[k] is None):
                raise PositionError(f"final: slot {k + 1} needs both a tile and a seat, or neither")
            if ftiles[k] is None:
                continue
            t = _as_tile(ftiles[k], "final.tiles")
            seat = _seat_of(fseats[k], n, "final.seats")
            if s.market[k] != NO_TILE:
                raise PositionError(f"final: market slot {k + 1} still holds a tile, so it gave none away")
            s.final_tile[k] = t
            s.final_seat[k] = seat
            if (seat - s.ender - 1) % n >= served:
                put_tile(t, f"the leftover tiles for seat {seat}")      # not handed out yet
            elif t not in where:
                raise PositionError(f"final: leftover tile {t} went to seat {seat} but is nowhere now")
    else:
        if final is not None:
            raise PositionError("final must be null before the end of the game")
        for k in range(NCUR):
            s.final_tile[k] = NO_TILE
            s.final_seat[k] = NO_SEAT

    bag = _as_list(_get(d, "bag", ""), "bag")
    for t in bag:
        put_tile(_as_tile(t, "bag"), "the bag")
    s.bag_n = len(bag)
    for i, t in enumerate(reversed(bag)):
        s.bag[i] = t
    _modules_put(s, d.get("modules"), put_tile)
    tiles = game_tiles(bits)
    lost = [t for t in tiles if t not in where]
    if lost:
        raise PositionError(f"tiles nowhere (every tile of the game must be in one place): {lost[:10]}"
                            + (" ..." if len(lost) > 10 else ""))
    alien = sorted(set(where) - set(tiles))
    if alien:
        raise PositionError(f"tile {alien[0]} is not in this game (its module is off), but in {where[alien[0]]}")

    # phase consistency
    if phase == PH_ACTION and s.actions_taken == 0 and s.npending:
        raise PositionError("pending: tiles are pending only after a purchase this turn")
    if phase in (PH_PLACE, PH_FINAL) and not s.npending:
        raise PositionError(f"pending: the {phase_name} phase is for placing pending tiles, but none are")
    if phase == PH_OVER and s.npending:
        raise PositionError("pending: no tiles are pending after the game")

    # score breakdown
    bd = _as_list(_get(d, "score_breakdown", ""), "score_breakdown")
    for e in bd:
        if not isinstance(e, dict) or set(e) != {"round", "seats", "dirk"}:
            raise PositionError("score_breakdown: each entry is {\"round\", \"seats\", \"dirk\"}")
        r = _as_int(e["round"], "score_breakdown round", 1, 3) - 1
        if s.bd_mask & (1 << r) or not s.scored & (1 << r):
            raise PositionError(f"score_breakdown: round {r + 1} is given twice or was not scored")
        s.bd_mask |= 1 << r
        rows = list(_as_list(e["seats"], f"score_breakdown round {r + 1} seats", n))
        if bits & OPT_DIRK:
            if not isinstance(e["dirk"], dict):
                raise PositionError(f"score_breakdown round {r + 1}: dirk must be an object with Dirk")
            rows.append(dict(e["dirk"], wall=0))
        elif e["dirk"] is not None:
            raise PositionError(f"score_breakdown round {r + 1}: dirk must be null without Dirk")
        for i, row in enumerate(rows):
            what = f"score_breakdown round {r + 1} " + ("dirk" if i == n else f"seat {i}")
            if not isinstance(row, dict) or not {"majorities", "wall", "total"} <= set(row):
                raise PositionError(f"{what}: needs majorities, wall, total")
            maj = _as_list(row["majorities"], what + " majorities", NTYPES)
            for t in range(NTYPES):
                s.breakdown[r][DIRK if i == n else i][t] = _as_int(maj[t], what + " majorities", 0, 255)
            s.breakdown[r][DIRK if i == n else i][BD_WALL] = _as_int(row["wall"], what + " wall", 0, 255)
            extra = 0
            for name, col in (("camps", BD_CAMPS), ("bazaars", BD_BAZAARS), ("falcons", BD_FALCONS),
                              ("residents", BD_RESIDENTS)):
                if name in row:
                    s.breakdown[r][DIRK if i == n else i][col] = _as_int(row[name], what + " " + name, 0, 255)
                    extra += row[name]
            if row["total"] != sum(maj) + row["wall"] + extra:
                raise PositionError(f"{what}: total {row['total']!r} is not the sum of its parts")

    history = _as_list(_get(d, "history", ""), "history")
    if not all(isinstance(h, str) for h in history):
        raise PositionError("history must be a list of texts")
    events = d.get("events", _MISSING)
    if events is _MISSING:              # a position written before events: its lines, as they were
        events = [event(None, "note", h) for h in history]
    self._ev = checked_events(events, len(history), PositionError)
    self._hist = list(history)
    self._hist_len = len(history)
    rh = _get(d, "record_history", "")
    if not isinstance(rh, bool):
        raise PositionError("record_history must be true or false")
    self.record_history = rh
    return self


# ================================================================ observation -> state (the general path)

_OBS_KEYS = ("seat", "num_players", "options", "phase", "current_player", "turn", "actions_this_turn",
             "start_player", "scoring_rounds_done", "hand", "hand_sizes", "cities", "reserves", "market",
             "display", "discard", "pending", "dirk_tiles", "scores", "dirk_score", "score_breakdown",
             "draw_pile_size", "bag_size", "scoring_cards", "final", "history", "events", "legal_actions",
             "modules")


def position_from_observation(obs):
    """A position consistent with ``obs`` (hidden parts in a canonical order: the unseen money by code,
    the scoring cards at the top of their ranges, the bag by tile id). PositionError if ``obs`` is malformed
    or contradicts itself. ``determinize`` shuffles the hidden parts of the state made from it."""
    if not isinstance(obs, dict):
        raise PositionError(f"an observation is a JSON object, not {type(obs).__name__}")
    for key in _OBS_KEYS:
        if key not in obs and key != "modules":      # (observations from before the modules have none)
            raise PositionError(f"observation has no {key!r}")
    n = _as_int(obs["num_players"], "num_players", 2, MAX_PLAYERS)
    me = _seat_of(obs["seat"], n, "seat")
    options = obs["options"]
    try:
        bits, _ = _normalize_options(n, options)
    except ValueError as e:
        raise PositionError(f"options: {e}") from None
    copies = 2 if bits & OPT_DIRK else 3
    phase = obs["phase"]
    if phase not in PHASE_NAMES:
        raise PositionError(f"phase must be one of {', '.join(PHASE_NAMES)}, not {phase!r}")
    sizes = _as_list(obs["hand_sizes"], "hand_sizes", n)
    for p in range(n):
        _as_int(sizes[p], f"hand_sizes[{p}]", 0, 255)
    if not isinstance(obs["history"], list) or not all(isinstance(h, str) for h in obs["history"]):
        raise PositionError("history must be a list of texts")
    checked_events(obs["events"], len(obs["history"]), PositionError)
    hand = _as_list(obs["hand"], "hand")
    if len(hand) != sizes[me]:
        raise PositionError(f"hand: {len(hand)} cards, but hand_sizes says {sizes[me]}")
    known = count_cards(obs)
    hands = []
    unknown = []
    for p in range(n):
        codes = [_as_card(w, f"hand of seat {p}") for w in known[p]]
        if len(codes) > sizes[p]:
            raise PositionError(f"history: seat {p} is known to hold {len(codes)} cards, but hand_sizes says "
                                f"{sizes[p]}")
        hands.append(codes)
        unknown.append(sizes[p] - len(codes))
    left = [copies] * NCARD_KINDS
    public = [c for h in hands for c in h]
    public += [_as_card(w, "display") for w in _as_list(obs["display"], "display", 4) if w is not None]
    public += [_as_card(w, "discard") for w in _as_list(obs["discard"], "discard")]
    for c in public:
        left[c] -= 1
        if left[c] < 0:
            raise PositionError(f"card {card_text(c)}: more than the {copies} copies of the game are in sight")
    pool = [c for c in range(NCARD_KINDS) for _ in range(left[c])]
    scards = _as_list(obs["scoring_cards"], "scoring_cards", 2)
    for e in scards:
        if not isinstance(e, dict) or not {"round", "drawn", "positions"} <= set(e):
            raise PositionError("scoring_cards: each entry is {\"round\", \"drawn\", \"positions\"}")
    undrawn = [e for e in scards if not e["drawn"]]
    size = _as_int(obs["draw_pile_size"], "draw_pile_size", 0, MAX_DRAW)
    modules = obs.get("modules")
    ranges = _canonical_step(modules, bits, CANON_PILE, None)   # (what, first, last, card texts)
    nwall = sum(len(e[3]) for e in ranges)
    if len(pool) != size - len(undrawn) - nwall + sum(unknown):
        raise PositionError(f"observation: {len(pool)} cards unseen, but the draw pile holds "
                            f"{size - len(undrawn) - nwall} money cards and the hands {sum(unknown)} unknown ones")
    for p in range(n):
        for _ in range(unknown[p]):
            hands[p].append(pool.pop())
    pile = [None] * size
    for what, lo, hi, texts in ranges:      # at the top of their ranges (canonical order)
        if hi >= size or len(texts) > hi - lo + 1:
            raise PositionError(f"{what}: a pile range does not fit the draw pile")
        for i in range(lo, lo + len(texts)):
            pile[i] = texts[i - lo]
    for e in undrawn:
        pos = _as_list(e["positions"], f"scoring_cards[{e['round'] - 1}].positions", 2)
        lo = _as_int(pos[0], "scoring card position", 0, size - 1)
        hi = _as_int(pos[1], "scoring card position", lo, size - 1)
        free = [i for i in range(lo, hi + 1) if pile[i] is None]
        if not free:
            raise PositionError("scoring_cards: the two ranges leave no place for both cards")
        pile[free[0]] = f"s{e['round']}"
    it = iter(pool)
    pile = [w if w is not None else card_text(next(it)) for w in pile]

    cities = _as_list(obs["cities"], "cities", n)
    reserves = _as_list(obs["reserves"], "reserves", n)
    seen = {}

    def see(tiles, place):
        for t in tiles:
            _as_tile(t, place)
            if t in seen:
                raise PositionError(f"tile {t} is both in {seen[t]} and in {place}")
            seen[t] = place

    for p in range(n):
        cells = _as_list(cities[p], f"cities[{p}]")
        see([cell[2] for cell in cells if isinstance(cell, list) and len(cell) >= 3 and cell[2] != FOUNTAIN],
            f"the city of seat {p}")
        see(_as_list(reserves[p], f"reserves[{p}]"), f"the reserve of seat {p}")
    see([t for t in _as_list(obs["market"], "market", NCUR) if t is not None], "the market")
    see(_as_list(obs["pending"], "pending"), "the pending tiles")
    if obs["dirk_tiles"] is not None:
        see(_as_list(obs["dirk_tiles"], "dirk_tiles"), "Dirk's tiles")
    _canonical_step(modules, bits, CANON_TILES, see)
    final = obs["final"]
    current = obs["current_player"]
    fin = None
    if final is not None:
        if not isinstance(final, dict) or not {"ender", "tiles", "seats"} <= set(final):
            raise PositionError("final must be null or {\"ender\", \"tiles\", \"seats\"}")
        ender = _seat_of(final["ender"], n, "final.ender")
        if phase == "over":
            served = n
        else:
            served = (_seat_of(current, n, "current_player") - ender - 1) % n + 1
        fin = {"ender": ender, "served": served, "tiles": final["tiles"], "seats": final["seats"]}
        for t, p in zip(_as_list(final["tiles"], "final.tiles", NCUR), _as_list(final["seats"], "final.seats",
                                                                                 NCUR)):
            if t is not None and isinstance(p, int) and (p - ender - 1) % n >= served:
                see([t], "the leftover tiles")
    bag = [t for t in game_tiles(bits) if t not in seen]
    if len(bag) != obs["bag_size"]:
        raise PositionError(f"observation: {len(bag)} tiles unseen, but bag_size is {obs['bag_size']!r}")
    done = [e["round"] for e in scards if e["drawn"]]
    if phase == "over":
        done.append(3)
    if len(done) != obs["scoring_rounds_done"]:
        raise PositionError(f"scoring_rounds_done is {obs['scoring_rounds_done']!r}, but the scoring cards "
                            f"drawn and the phase say {len(done)}")
    dirk = None
    if obs["dirk_tiles"] is not None:
        dirk = {"tiles": obs["dirk_tiles"], "score": obs["dirk_score"]}
    scores = _as_list(obs["scores"], "scores", n)
    return {
        "format": POSITION_FORMAT, "version": POSITION_VERSION, "num_players": n, "options": options,
        "seed": None, "rng": "0" * 63 + "1", "phase": phase, "current_player": current, "turn": obs["turn"],
        "actions_this_turn": obs["actions_this_turn"], "start_player": obs["start_player"],
        "seats": [{"city": cities[p], "reserve": reserves[p], "hand": [card_text(c) for c in sorted(hands[p])],
                   "score": scores[p]} for p in range(n)],
        "market": obs["market"], "display": obs["display"], "pending": obs["pending"], "draw_pile": pile,
        "scoring_cards": scards, "discard": obs["discard"], "bag": bag, "dirk": dirk, "scored": done, "due": [],
        "score_breakdown": obs["score_breakdown"], "final": fin, "history": obs["history"],
        "events": obs["events"], "record_history": True,
        **({"modules": _modules_canonical(modules, bits, n, me, phase)} if bits & MODULE_BITS else {}),
    }


cdef list _canonical_step(object m, uint32_t bits, int step, object arg):
    """position_from_observation's CANON_PILE / CANON_TILES step: every module's canonical hook (on or off), in
    the table's order; what they return, joined: the unseen cards in the draw pile."""
    cdef ModuleHooks* h
    cdef int i
    out = []
    for i in range(NMODULES):
        h = &MODULES_TABLE[i]
        if h.canonical != NULL:
            out += h.canonical(m, bits, (bits & h.json_with) != 0, step, arg) or []
    return out


cdef object _modules_canonical(object m, uint32_t bits, int n, int me, str phase):
    """The "modules" of position_from_observation: the observation's, with the secrets the `canonical` hooks
    give at CANON_SECRETS (each returns its new object, a copy: _modules_copy, or None: unchanged)."""
    cdef ModuleHooks* h
    cdef int i
    out = m
    for i in range(NMODULES):
        h = &MODULES_TABLE[i]
        if h.canonical != NULL and bits & h.json_with:
            r = h.canonical(m, bits, 1, CANON_SECRETS, (out, n, me, phase))
            if r is not None:
                out = r
    return out


def _modules_copy(dict m):
    """(a "modules" that is no object fails here with the TypeError it always had)"""
    return dict(m)


def state_from_observation(obs):
    """A State consistent with ``obs`` (hidden parts in canonical order), checked: its own observation for
    the seat must equal ``obs``, else PositionError names the first field that differs."""
    cdef State st = state_from_position(position_from_observation(obs))
    again = observation_of(st, obs["seat"])
    for key in _OBS_KEYS:
        if again[key] != obs.get(key):
            raise PositionError(f"observation: {key} does not fit the rest of the observation")
    return st


cdef dict _TEMPLATES = {}


cdef tuple _obs_fingerprint(dict obs):
    return (obs["seat"], obs["turn"], obs["phase"], obs["current_player"], obs["actions_this_turn"],
            len(obs["history"]), tuple(obs["hand"]), tuple(obs["hand_sizes"]), tuple(obs["pending"]),
            tuple(obs["market"]), tuple(obs["display"]), obs["draw_pile_size"], obs["bag_size"],
            tuple(len(c) for c in obs["cities"]), tuple(len(r) for r in obs["reserves"]),
            tuple(obs["legal_actions"]))


cdef alhambra_determinize(obs, seed):
    """The base game's determinize of an observation dict (registry.pxi dispatches by game)."""
    try:
        fp = _obs_fingerprint(obs)
    except (KeyError, TypeError):
        fp = None
    entry = _TEMPLATES.get(id(obs))
    if fp is not None and entry is not None and entry[0] is obs and entry[1] == fp:
        template = entry[2]
    else:
        template = state_from_observation(obs)
        if fp is not None:
            if len(_TEMPLATES) >= 16:
                _TEMPLATES.clear()
            _TEMPLATES[id(obs)] = (obs, fp, template)
    return determinized_of(template, obs["seat"], seed)
