# The Python face of the game state: class State and the base game's new game (included by state.pxi).

_BASE_OPTIONS = ("dirk",)
# MODULES (name -> option bit) and MODULE_OPTIONS come from modules/table.pxi


def _normalize_options(int num_players, options):
    """Check an options dict; returns (OPT_* bits, normalized dict). Unknown keys and bad values raise
    ValueError naming the key; modules not implemented yet are refused by name.

    The normalized dict always holds "dirk"; a module appears in it only when it is on (so base-game
    options, and files written before the modules, stay ``{"dirk": ...}``)."""
    cdef uint32_t bits = 0
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ValueError(f"options must be a dict, not {type(options).__name__}")
    on = {}
    for key, value in options.items():
        if key not in _BASE_OPTIONS and key not in MODULE_OPTIONS:
            raise ValueError(f"unknown option {key!r} (known: {', '.join(_BASE_OPTIONS + MODULE_OPTIONS)})")
        if not isinstance(value, bool):
            raise ValueError(f"option {key!r} must be true or false, not {value!r}")
        if key in MODULE_OPTIONS and value:
            if key not in MODULES:
                raise ValueError(f"option {key!r}: module not implemented yet")
            bits |= MODULES[key]
            on[key] = True
    dirk = options.get("dirk", num_players == 2)
    if dirk:
        if num_players != 2:
            raise ValueError(f"option 'dirk': Dirk plays only in 2-player games (not {num_players})")
        bits |= OPT_DIRK
    out = {"dirk": bool(dirk)}
    out.update({k: True for k in MODULES if k in on})
    return bits, out


cdef int _LEGAL_BUF[MAX_LEGAL]
cdef GenCache* _PY_CACHE = NULL
cdef GenCache* _PY_SCRATCH = NULL


cdef GenCache* _cache_at(GenCache** slot) except NULL:
    """The cache in *slot, allocated on first use."""
    if slot[0] == NULL:
        slot[0] = gen_cache_new()
        if slot[0] == NULL:
            raise MemoryError()
    return slot[0]


cdef GenCache* _py_scratch() except NULL:
    """A second cache, for one-off generations (legal_actions)."""
    return _cache_at(&_PY_SCRATCH)


cdef GenCache* _py_cache() except NULL:
    """The generation cache of Python-level playouts (one per process; the GIL serializes its users)."""
    return _cache_at(&_PY_CACHE)


cdef list _paid_cards(int currency, int code, int shift):
    """The money cards of a payment's counts (2 bits per value 1..9 from bit ``shift``), lowest value first."""
    cdef int v, k
    out = []
    for v in range(9):
        for k in range((code >> (shift + 2 * v)) & 3):
            out.append(card_code(currency, v + 1))
    return out


cdef dict _action_event(GameState* s, int code):
    """The event of the legal action ``code`` about to be played by the seat to act: ``payload`` its code;
    the cards it moves into the hand (``gains``: take, thief) or out of it (``pays``: buy, bazaar, falcon)
    as card codes, read now (a take's code names display positions, not cards)."""
    cdef int kind = code & 15, i
    ev = event(s.current, "action", code)
    if kind == A_TAKE:
        ev["gains"] = [s.display[i] for i in range(4) if (code >> 4) & (1 << i)]
    elif kind == A_THIEF:
        ev["gains"] = [s.display[(code >> 4) & 3]]
    elif kind == A_BUY:
        ev["pays"] = _paid_cards((code >> 4) & 3, code, 6)
    elif kind == A_BAZAAR:
        ev["pays"] = _paid_cards(BAZAAR_CUR[BAZAAR_FIRST + ((code >> 4) & 7)], code, 7)
    elif kind == A_FALCON:
        ev["pays"] = [(code >> 8) & 63]
    return ev


cdef str _event_line(dict ev, str text):
    """The history line of a base-game event (docs/formats.md "Events"); ``text``: an action event's action
    text (action_to_text in the state it was played in). Seats, slots and cards are 1-based / texts here."""
    k = ev["kind"]
    seat = ev["seat"]
    p = ev["payload"]
    if k == "action":
        line = f"seat {seat + 1}: {text}"
    elif k == "deal":
        line = f"seat {seat + 1} dealt: " + " ".join([card_text(c) for c in p])
    elif k == "start":
        line = f"start: seat {seat + 1}"
    elif k == "market":
        line = f"market {p[0] + 1}: {p[1]}"
    elif k == "display":
        line = f"display: {card_text(p)}"
    elif k == "dirk":
        line = f"dirk: {p}"
    elif k == "reshuffle":
        line = f"reshuffle: {p} cards"
    elif k == "scoring_card":
        line = f"scoring card {p}"
    elif k == "score":
        line = f"score {p['round']}: " + " ".join([str(x) for x in p["scores"]])
        if p["dirk"] is not None:
            line += f" dirk {p['dirk']}"
    elif k == "end":
        line = f"game end: market {p + 1} stays empty"
    elif k == "bazaar":
        line = f"bazaar waits: {p}"
    elif k == "coin":
        line = f"coin to seat {seat + 1}: {CURRENCY_LETTERS[p]}c"
    elif k == "wall_card":
        line = f"wall card up: {p + 1} ({walls_to_text(WALL_CARD_SIDES[p])})"
    elif k == "figure":
        line = f"seat {seat + 1} draws a figure: {TYPE_NAMES[p]}"
    elif k == "leftover":
        if seat is None:
            line = f"leftover market {p[0] + 1}: {p[1]} stays (tie for most {CURRENCY_NAMES[p[0]]})"
        else:
            line = f"leftover market {p[0] + 1}: {p[1]} to seat {seat + 1}"
    elif k == "secret":
        line = f"seat {seat + 1}: {secret_word(p)} (secret)"
    elif k == "setup":
        line = "setup: from_setup"
    elif k == "note":
        return p                    # (a position written before events: its history line as it was)
    else:
        raise ValueError(f"no such event kind {k!r}")
    return said(line)


def event_line(ev, text=None):
    """The history line of a base-game event as :attr:`State.history` renders it (``text``: the action text
    of an ``action`` event)."""
    return _event_line(ev, text)


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
    cdef list _ev                   # the events (dicts) of the history's lines, one per line
    cdef Py_ssize_t _hist_len
    cdef public bint record_history
    cdef object _seed
    cdef dict _options

    def __init__(self, *args, **kwargs):
        raise TypeError("create a State with new_game(...) or State.from_setup(...)")

    def __dealloc__(self):
        state_release(&self.st)

    # ------------------------------------------------------------ construction

    cdef _hist_extend(self, list lines, list events):
        if len(self._hist) != self._hist_len or len(self._ev) != self._hist_len:
            self._hist = self._hist[:self._hist_len]     # someone sharing the lists appended: copy our prefix
            self._ev = self._ev[:self._hist_len]
        self._hist.extend(lines)
        self._ev.extend(events)
        self._hist_len = len(self._hist)

    cdef _log_to_history(self, EventLog* log, dict first=None, str text=None):
        """Append the events of ``log`` (after the action event ``first``, whose line says ``text``) as event
        dicts (docs/formats.md "Events") and their history lines, rendered from them (_event_line)."""
        cdef int i, kind, a, b, c
        cdef uint32_t e
        events = [] if first is None else [first]
        deal = None
        for i in range(log.n):
            e = log.ev[i]
            kind = e & 255
            a = (e >> 8) & 255
            b = (e >> 16) & 255
            c = (e >> 24) & 255
            if kind == EV_DEAL:
                if deal is None or deal["seat"] != a:
                    deal = event(a, "deal", [])
                    events.append(deal)
                deal["payload"].append(b)
                continue
            deal = None
            if kind == EV_START:
                events.append(event(a, "start", None))
            elif kind == EV_MARKET:
                events.append(event(None, "market", [a, b]))
            elif kind == EV_DISPLAY:
                events.append(event(None, "display", a))
            elif kind == EV_DIRK:
                events.append(event(None, "dirk", a))
            elif kind == EV_RESHUFFLE:
                events.append(event(None, "reshuffle", a))
            elif kind == EV_SCORING_CARD:
                events.append(event(None, "scoring_card", a))
            elif kind == EV_SCORE:
                events.append(event(None, "score", {
                    "round": a, "scores": [self.st.score[j] for j in range(self.st.num_players)],
                    "dirk": self.st.score[DIRK] if self.st.options & OPT_DIRK else None}))
            elif kind == EV_END:
                events.append(event(None, "end", a))
            elif kind == EV_BAZAAR:
                events.append(event(None, "bazaar", a))
            elif kind == EV_COIN:
                events.append(event(a, "coin", b))
            elif kind == EV_WALL_CARD:
                events.append(event(None, "wall_card", a))
            elif kind == EV_FIGURE_DRAWN:
                events.append(event(a, "figure", b))
            elif kind == EV_LEFTOVER:
                events.append(event(None if c == NO_SEAT else c, "leftover", [a, b]))
        lines = [_event_line(ev, text) for ev in events]
        self._hist_extend(lines, events)

    @staticmethod
    def new_game(num_players, seed, options=None):
        """Same as the module-level :func:`new_game`."""
        return new_game(num_players, seed, options)

    cpdef State clone(self):
        """An independent copy (cities are shared copy-on-write, the history list append-safely): O(1)."""
        cdef State c = State.__new__(State)
        state_copy(&c.st, &self.st)
        c._hist = self._hist
        c._ev = self._ev
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
        cdef GenCache* gc = _py_scratch()
        cdef int n, i
        gen_cache_reset(gc)         # a fresh view (lists in the canonical order), without zeroing a mirror
        n = gen_legal_cached(&self.st, gc, _LEGAL_BUF)
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
            text = _action_text(&self.st, code)
            first = _action_event(&self.st, code)
            log.n = 0
            apply_action(&self.st, code, &log)
            self._log_to_history(&log, first, text)
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
        The choices come from their own generator seeded by ``seed`` (the game's chance stays the state's);
        the same seed gives the same game whether ``record_history`` is on (every action and event is then
        recorded, slower) or off."""
        cdef Rng r
        cdef int n = 0, code
        cdef EventLog log
        cdef GenCache* gc = _py_cache()
        _check_seed(seed)
        rng_seed(&r, <uint64_t>seed)
        if not self.record_history:
            return playout_random_cached(&self.st, &r, max_actions, gc)
        gen_cache_reset(gc)
        while self.st.phase != PH_OVER and n < max_actions:
            code = sample_legal(&self.st, gc, &r)
            text = _action_text(&self.st, code)
            first = _action_event(&self.st, code)
            gen_cache_touch(gc, &self.st, code)
            log.n = 0
            apply_action(&self.st, code, &log)
            self._log_to_history(&log, first, text)
            n += 1
        return n

    def _sample_legal(self, seed):
        """(test hook) The action a C playout would pick first with a generator seeded by ``seed``; equals
        ``legal_actions()[_rng_below(seed, len(legal_actions()))]`` (a fresh cache lists in the same order)."""
        cdef Rng r
        cdef GenCache* gc = _py_cache()
        _check_seed(seed)
        rng_seed(&r, <uint64_t>seed)
        gen_cache_reset(gc)
        return sample_legal(&self.st, gc, &r)

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

    @property
    def events(self):
        """The public events as data, one per :attr:`history` line (a copy of the list; the events are shared,
        read them only): ``{"seat": 1, "kind": "action", "payload": 1234}``, ``{"seat": None, "kind":
        "display", "payload": 3}``, ... (docs/formats.md "Events"). Empty if record_history was off."""
        return self._ev[:self._hist_len]

    def seen_log(self, seat):
        """``(history, events)`` as ``seat`` sees them (its observation's): another seat's secret setup choice
        (Residents' ``figures``) masked; ``seat=-1``: as a spectator sees them, every seat's secret masked."""
        return log_seen(self, seat if seat == -1 else self._seat(seat))

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
        """One dict per recorded scoring round: ``{"round", "seats": [{"majorities", "wall", "total"}], "dirk"}``.
        With modules on, each seat also has ``"camps"`` (arrow lines), ``"bazaars"`` (round 3 only, else 0)
        , ``"falcons"`` (sets) and ``"residents"`` (groups of figures), for the modules that are on."""
        out = []
        cols = [(name, col) for name, col, bit in _SCORE_COLUMNS if self.st.options & bit]
        for r in range(3):
            if not self.st.bd_mask & (1 << r):
                continue
            seats = []
            for i in range(self.st.num_players):
                maj = [self.st.breakdown[r][i][t] for t in range(NTYPES)]
                wall = self.st.breakdown[r][i][BD_WALL]
                seat = {"majorities": maj, "wall": wall}
                for name, col in cols:
                    seat[name] = self.st.breakdown[r][i][col]
                seat["total"] = sum(maj) + wall + sum(self.st.breakdown[r][i][col] for _, col in cols)
                seats.append(seat)
            dirk = None
            if self.st.options & OPT_DIRK:
                maj = [self.st.breakdown[r][DIRK][t] for t in range(NTYPES)]
                dirk = {"majorities": maj, "total": sum(maj)}
            out.append({"round": r + 1, "seats": seats, "dirk": dirk})
        return out

    def ranking(self):
        """Rank per seat, 1 = first; tied seats share the rank (Dirk is not ranked)."""
        return _ranking(self.scores())

    cdef int _seat(self, seat) except -1:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.st.num_players:
            raise ValueError(f"no seat {seat!r} (seats are 0..{self.st.num_players - 1})")
        return seat

    def city(self, seat):
        """The seat's city as a City value (shared, cheap; changing it never changes the state)."""
        return city_wrap(self.st.cities.city[self._seat(seat)])

    def reserve(self, seat):
        cdef uint8_t tiles[128]
        cdef int n = mask_list(self.st.cities.reserve[self._seat(seat)], tiles), i
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
        return [self.st.cities.type_count[i][t] for t in range(NTYPES)]

    def dirk_building_counts(self):
        cdef int t
        return [self.st.cities.type_count[DIRK][t] for t in range(NTYPES)]

    def market(self):
        return [None if self.st.market[k] == NO_TILE else self.st.market[k] for k in range(NCUR)]

    def display(self):
        return [None if self.st.display[i] == NO_CARD else card_text(self.st.display[i]) for i in range(4)]

    def pending(self, seat=None):
        """Tiles waiting to be placed by ``seat`` (None: the seat to act): bought this turn, or in the
        ``"final"`` phase the leftover market tiles it received. Only the seat to act has pending tiles,
        except in the final phase: there the later seats of the distribution wait with theirs.

        >>> s = new_game(3, seed=1); s.pending(), s.pending(2)
        ([], [])
        """
        cdef int p, k, order, n = self.st.num_players
        if seat is None or (self.st.phase != PH_OVER and self._seat(seat) == self.st.current):
            return [self.st.pending[k] for k in range(self.st.npending)]
        p = self._seat(seat)
        if self.st.phase != PH_FINAL:
            return []
        order = (p - self.st.ender - 1 + 2 * n) % n     # its turn in the distribution (0: after the ender)
        if order < self.st.final_pos:                    # served already (the seat to act is final_pos - 1)
            return []
        return [self.st.final_tile[k] for k in range(NCUR) if self.st.final_seat[k] == p]

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

    # modules (rules.md §9)

    def vizier_awake(self, seat):
        """True if the seat's vizier is awake (False without the Vizier module)."""
        return bool((self.st.vizier_awake >> self._seat(seat)) & 1)

    def bazaars_waiting(self):
        """Bazaar tiles waiting beside the market, sorted ([] without the Bazaars module)."""
        return [BAZAAR_FIRST + b for b in range(NBAZAARS) if (self.st.bazaar_wait >> b) & 1]

    def bazaar_price(self, int tile):
        """What a waiting bazaar costs now (the cost of the tile in its currency's slot), or None."""
        if not (BAZAAR_FIRST <= tile <= LAST_TILE and (self.st.bazaar_wait >> (tile - BAZAAR_FIRST)) & 1):
            return None
        return bazaar_price(&self.st, tile) or None

    def falcons(self, seat=None):
        """Falcons of a seat as ``[(falcon 1..15, (x, y) corner)]`` sorted; ``seat=None``: the supply as a
        sorted list of falcon numbers."""
        cdef int f
        if seat is None:
            return [f + 1 for f in range(NFALCONS) if self.st.falcon_owner[f] == NO_SEAT]
        p = self._seat(seat)
        return [(f + 1, _unpack_cell(self.st.falcon_cell[f])) for f in range(NFALCONS)
                if self.st.falcon_owner[f] == p]

    def coins(self, seat=None):
        """Coins (Change) per currency (florin, dirham, denar, ducat) held by ``seat``; ``seat=None``: the
        coins in the bag. All zero without the Change module."""
        cdef int k
        if seat is None:
            return [self.st.coin_bag[k] for k in range(NCUR)]
        p = self._seat(seat)
        return [self.st.coins[p][k] for k in range(NCUR)]

    def wall_cards(self):
        """Wall cards (Walls) lying face up, as ``{card 1..8: 'NE'}`` (the sides each adds)."""
        return {w + 1: walls_to_text(WALL_CARD_SIDES[w]) for w in range(NWALL_CARDS) if (self.st.wall_up >> w) & 1}

    def wall_cards_used(self):
        """Wall cards already used (they left the game), sorted."""
        return [w + 1 for w in range(NWALL_CARDS) if (self.st.wall_used >> w) & 1]

    def card_walls(self, seat):
        """Wall pieces that wall cards put on the seat's tiles (city and reserve), ``{tile: 'NE'}``; the
        fountain is tile 0."""
        cdef uint8_t tiles[128]
        cdef int p = self._seat(seat), n, i, x, y
        out = {}
        if self.st.fountain_walls[p]:
            out[0] = walls_to_text(self.st.fountain_walls[p])
        n = mask_list(self.st.cities.reserve[p], tiles)
        for i in range(n):
            if self.st.card_walls[tiles[i]]:
                out[tiles[i]] = walls_to_text(self.st.card_walls[tiles[i]])
        for x, y, t, w in city_wrap(self.st.cities.city[p]).cells():
            if t != FOUNTAIN and self.st.card_walls[t]:
                out[t] = walls_to_text(self.st.card_walls[t])
        return dict(sorted(out.items()))
    def thieves(self, seat):
        """The seat's thief cards as sorted currency letters, e.g. ``['y', 'y', 'b']`` (secret: never shown to
        another seat; [] without the Thief)."""
        cdef int p = self._seat(seat), k, i
        return [CURRENCY_LETTERS[k] for k in range(NCUR) for i in range(self.st.thief[p][k])]

    def disc(self, seat):
        """The figures on the seat's disc as building type names (secret, see :meth:`thieves`)."""
        cdef int p = self._seat(seat), t, i
        return [TYPE_NAMES[t] for t in range(NTYPES) for i in range(self.st.disc[p][t])]

    def disc_cell(self, seat):
        """Where the seat's disc lies, ``[x, y]``, or None while it is lifted (or without the Residents)."""
        cdef int p = self._seat(seat)
        if not self.st.disc_cell[p]:
            return None
        return list(_unpack_cell(self.st.disc_cell[p]))

    def residents(self, seat):
        """Buildings of the seat's city that hold a resident (sorted tile ids)."""
        cdef uint8_t tiles[128]
        cdef int n = mask_list(self.st.residents[self._seat(seat)], tiles), i
        return [tiles[i] for i in range(n)]

    def supply(self):
        """Figures in the common supply per building type (scoring order)."""
        cdef int t
        return [self.st.supply[t] for t in range(NTYPES)]

    def window_order(self):
        """In the "interrupt" phase: the seats in the window's order (the seat who is next first); else []."""
        cdef int n = self.st.num_players
        if not self.st.in_window:
            return []
        return [(self.st.win_first + k) % n for k in range(n)]

    def dirk_tiles(self):
        """Dirk's tiles, sorted ([] without Dirk)."""
        cdef uint8_t tiles[128]
        cdef int n = mask_list(self.st.cities.dirk_tiles, tiles), i
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
        return [_draw_text(c) for c in self.st.draw[self.st.draw_pos:self.st.draw_len]]

    def _bag(self):
        """Tile bag, next drawn first."""
        return [self.st.bag[i] for i in range(self.st.bag_n - 1, -1, -1)]

    def _fingerprint(self):
        """Bytes of the complete state (struct without pointers + cities): equal exactly for equal states."""
        cdef GameState tmp
        cdef int i
        memcpy(&tmp, &self.st, sizeof(GameState))
        for i in range(MAX_PLAYERS):
            tmp.cities.city[i] = NULL
        tmp.viz_no = 0                  # (a cache, not state)
        tmp.viz_costs = 0
        tmp.viz_market = 0
        raw = (<char*>&tmp)[:sizeof(GameState)]
        cities = tuple(tuple(self.city(i).cells()) for i in range(self.st.num_players))
        return raw + repr(cities).encode()

    def __repr__(self):
        who = "" if self.st.phase == PH_OVER else f" seat {self.st.current}"
        return f"<State {self.st.num_players}p turn {self.st.turn}{who} {self.phase}>"

    # ------------------------------------------------------------ test / analysis set-up

    @staticmethod
    def from_setup(num_players, **parts):
        """A position at the start of ``current_player``'s turn, built from parts: see :func:`_from_setup`
        (setup_py.pxi) for the keywords. Every tile and card must end up in exactly one place, or ValueError
        names what is wrong.

        >>> s = State.from_setup(2, hands=[["y3"], ["b9"]], cities=["0,0:0 1,0:7", ""])
        >>> s.building_counts(0)[0]
        1
        """
        return _from_setup(num_players, **parts)


def _rng_below(seed, int n):
    """(test hook) The first ``rng_below(n)`` of a generator seeded by ``seed``."""
    cdef Rng r
    rng_seed(&r, <uint64_t>seed)
    return rng_below(&r, n)


cdef void _shuffle_py(GameState* s, bytearray arr):
    cdef unsigned char* p = arr
    rng_shuffle_u8(&s.rng, <uint8_t*>p, len(arr))


cdef State new_alhambra_game(num_players, seed, options):
    """The base game's new_game (registry.pxi dispatches by game)."""
    cdef State self
    cdef EventLog log
    self = State.__new__(State)
    _check_num_players(num_players)
    _check_seed(seed)
    bits, opts = _normalize_options(num_players, options)
    log.n = 0
    setup_game(&self.st, num_players, <uint64_t>seed, bits, &log)
    self._seed = seed
    self._options = opts
    self._hist = []
    self._ev = []
    self._hist_len = 0
    self.record_history = True
    self._log_to_history(&log)
    return self


include "setup_py.pxi"
