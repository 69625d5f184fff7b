# The Python face of the dice games: class DiceState (the State API of docs/design.md) and new_dice_game.

from itertools import combinations_with_replacement as _cwr
from math import factorial as _factorial


cdef str _dice_event_line(dict ev, str text):
    """The history line of a dice-game event (docs/formats.md "Events"); ``text``: an action event's action
    text. A seat of None is Dirk."""
    k = ev["kind"]
    seat = ev["seat"]
    p = ev["payload"]
    who = "dirk" if seat is None else f"seat {seat + 1}"
    if k == "action":
        line = f"{who}: {text}"
    elif k == "dice":
        line = "dice: " + " ".join(["-" if f is None else TYPE_NAMES[f] for f in p["faces"]])
        if p["black"] is not None:
            line += f" black {TYPE_NAMES[p['black']]}"
    elif k == "marker":
        line = (f"{who} marker: {TYPE_NAMES[p['type']]} {v_text(p['field'])}" if p["field"] else
                f"{who} marker falls off ({TYPE_NAMES[p['type']]})")
    elif k == "round":
        line = f"round {p}: start seat {seat + 1}"
    elif k == "bonus":
        line = "bonus: " + " ".join([BONUS_NAMES[b] for b in p])
    elif k == "dirk_markers":
        line = "dirk markers: " + " ".join([f"{TYPE_NAMES[c]}:{i + 2}" for i, c in enumerate(p)])
    elif k == "stack":
        line = "stack: " + " ".join([str(x) for x in p])
    elif k == "bag":
        line = "bag: " + " ".join([str(x) for x in p])
    elif k == "start_tile":
        line = f"start tile: {TYPE_NAMES[p]}"
    elif k == "names":
        line = f"{who} names seat {p + 1} start player"
    elif k == "reward":
        line = f"{who} gets {p['points']} {TYPE_NAMES[p['type']]}"
        if p["converted_from"] is not None:
            line += f" (converted from {TYPE_NAMES[p['converted_from']]})"
        if p["bonus"] is not None:
            line += f" + {BONUS_NAMES[p['bonus']]}"
    elif k == "aside":
        line = f"aside {TYPE_NAMES[p['type']]}: " + " ".join(["start" if x is None else str(x) for x in p["items"]])
    elif k == "dirk_takes":
        line = f"dirk takes {p}"
    elif k == "score":
        line = f"score {p['round']}: " + " ".join([str(x) for x in p["scores"]])
        if p["dirk"] is not None:
            line += f" dirk {p['dirk']}"
    elif k == "game_over":
        line = "game over: " + " ".join([str(x) for x in p])
    elif k == "note":
        return p
    else:
        raise ValueError(f"no such event kind {k!r}")
    return said(line)


def dice_event_line(ev, text=None):
    """The history line of a dice-game event as :attr:`DiceState.history` renders it."""
    return _dice_event_line(ev, text)


cdef class DiceState:
    """A position of Alhambra: The Dice Game or its Alcazaba variant (rules.md §dice), with the State API:
    legal_actions, apply, clone, is_terminal, scores, score_breakdown, ranking, observation, action_to_text,
    parse_action, determinized. Rolls are chance events inside apply (the game's rng); chance_outcomes lists
    them with their probabilities and apply(action, outcome=...) plays a chosen one.

    >>> s = new_game(3, seed=1, game="dice")
    >>> s.legal_actions() == [s.parse_action("roll")]
    True
    >>> s.apply("roll"); s.phase
    'after_roll'
    """
    cdef DiceGame g
    cdef list _hist
    cdef list _ev                   # the events (dicts) of the history's lines, one per line
    cdef Py_ssize_t _hist_len
    cdef public bint record_history
    cdef object _seed

    def __init__(self, *args, **kwargs):
        raise TypeError("create a DiceState with new_game(n, seed, game='dice' | 'alcazaba')")

    def __dealloc__(self):
        dice_release(&self.g)

    cdef _extend(self, list events, str text=None):
        """Append ``events`` (docs/formats.md "Events") and their history lines, rendered from them (``text``:
        the action text of the action event that may lead them)."""
        if len(self._hist) != self._hist_len or len(self._ev) != self._hist_len:
            self._hist = self._hist[:self._hist_len]
            self._ev = self._ev[:self._hist_len]
        self._hist.extend([_dice_event_line(ev, text) for ev in events])
        self._ev.extend(events)
        self._hist_len = len(self._hist)

    cpdef DiceState clone(self):
        """An independent copy (cities shared copy-on-write, history append-safely): O(1)."""
        cdef DiceState c = DiceState.__new__(DiceState)
        dice_copy(&c.g, &self.g)
        c._hist = self._hist
        c._ev = self._ev
        c._hist_len = self._hist_len
        c.record_history = self.record_history
        c._seed = self._seed
        return c

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    # ------------------------------------------------------------ actions

    def legal_actions(self):
        """Legal action codes of the seat to act (empty when over); re-rolls one per kept-face multiset."""
        return _dice_legal_list(&self.g)

    cdef int _code(self, action) except -1:
        if isinstance(action, str):
            try:
                return dice_parse(&self.g, action)
            except ValueError as e:
                raise IllegalActionError(f"illegal action {action!r}: {e}") from None
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalActionError(f"an action is an int code or a text, not {type(action).__name__}")
        if not 0 <= action < 2 ** 31:
            raise IllegalActionError(f"not an action code: {action}")
        return action

    def is_legal(self, action):
        try:
            code = self._code(action)
        except IllegalActionError:
            return False
        return dice_check(&self.g, code) == DE_OK

    def apply(self, action, outcome=None):
        """Apply an action (code or text); illegal -> IllegalActionError naming the reason, state unchanged.
        ``outcome``: for a roll, the faces of the rolled dice (one of :meth:`chance_outcomes`), given to the
        rolled positions in increasing order; None = roll with the game's rng."""
        cdef int code = self._code(action), err, i
        cdef uint8_t faces[NDICE]
        cdef uint8_t* fp = NULL
        err = dice_check(&self.g, code)
        if err:
            raise IllegalActionError(dice_explain(&self.g, code, err))
        if outcome is not None:
            if code & 15 != D_ROLL:
                raise ValueError("an outcome is given only for a roll")
            k = bin((code >> 4) & 0xFF).count("1")
            if len(outcome) != k or any(not isinstance(f, int) or not 0 <= f < NTYPES for f in outcome):
                raise ValueError(f"outcome must be {k} faces 0-5, not {outcome!r}")
            for i in range(k):
                faces[i] = outcome[i]
            fp = faces
        log = None
        text = None
        if self.record_history:
            text = dice_action_text(&self.g, code)
            log = [event(self.g.current, "action", code)]
        dice_apply(&self.g, code, log, fp)
        if log is not None:
            self._extend(log, text)

    def chance_outcomes(self, action):
        """The chance node after ``action``: ``[(outcome, probability), ...]``. A roll of k dice has one outcome
        per multiset of faces (a sorted k-tuple of faces 0-5) with its exact multinomial probability
        ``k! / (c_0! ... c_5!) / 6**k``; any other action is deterministic: ``[(None, 1.0)]``.

        >>> s = new_game(2, seed=3, game="dice"); s.apply("roll")
        >>> outs = s.chance_outcomes(s.parse_action("reroll 1 2"))
        >>> len(outs), round(sum(p for _, p in outs), 12)
        (21, 1.0)
        """
        cdef int code = self._code(action), err
        err = dice_check(&self.g, code)
        if err:
            raise IllegalActionError(dice_explain(&self.g, code, err))
        if code & 15 != D_ROLL:
            return [(None, 1.0)]
        return roll_outcomes(bin((code >> 4) & 0xFF).count("1"))

    def action_to_text(self, action):
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < 2 ** 31:
            raise ValueError(f"not an action code: {action!r}")
        return dice_action_text(&self.g, action)

    def parse_action(self, str text):
        return dice_parse(&self.g, text)

    def random_playout(self, seed, int max_actions=1000000):
        """Uniformly random legal actions to the end (choices from their own generator); returns the count."""
        cdef Rng r
        cdef int n = 0, code
        cdef DiceScratch* sc = dice_scratch_new()
        if sc == NULL:
            raise MemoryError()
        try:
            _check_seed(seed)
            rng_seed(&r, <uint64_t>seed)
            while self.g.phase != DP_OVER and n < max_actions:
                code = dice_sample_legal(&self.g, &r, sc)   # = a draw from dice_gen_legal's list
                log = None
                text = None
                if self.record_history:
                    text = dice_action_text(&self.g, code)
                    log = [event(self.g.current, "action", code)]
                dice_scratch_touch(sc, &self.g, code)
                dice_apply(&self.g, code, log)
                if log is not None:
                    self._extend(log, text)
                n += 1
        finally:
            dice_scratch_free(sc)
        return n

    # ------------------------------------------------------------ queries

    @property
    def game(self):
        return GAME_NAMES[self.g.game]

    @property
    def num_players(self):
        return self.g.n

    @property
    def current_player(self):
        return -1 if self.g.phase == DP_OVER else self.g.current

    @property
    def phase(self):
        """``roll`` | ``after_roll`` | ``reward`` | ``name`` | ``pick`` | ``place`` | ``over``."""
        return DICE_PHASE_NAMES[self.g.phase]

    @property
    def round(self):
        return self.g.round

    @property
    def turn(self):
        return self.g.turn

    @property
    def start_player(self):
        return self.g.start_player

    @property
    def seed(self):
        return self._seed

    @property
    def options(self):
        return {"dirk": bool(self.g.dirk)}

    @property
    def history(self):
        return self._hist[:self._hist_len]

    @property
    def events(self):
        """The public events as data, one per :attr:`history` line (docs/formats.md "Events")."""
        return self._ev[:self._hist_len]

    def seen_log(self, seat):
        """``(history, events)`` as ``seat`` (-1: a spectator) sees them: everything (the dice games keep no
        secret in their log)."""
        return self._hist[:self._hist_len], self._ev[:self._hist_len]

    def is_terminal(self):
        return self.g.phase == DP_OVER

    def scores(self):
        return [self.g.score[i] for i in range(self.g.n)]

    @property
    def dirk_score(self):
        return self.g.score[DIRK] if self.g.dirk else None

    @property
    def scoring_rounds_done(self):
        return __builtin_popcountll(self.g.scored)

    def score_breakdown(self):
        """Per scoring done (round 1 = A, 2 = B, 3 = C): ``{"round", "seats": [{"majorities", "tiles" | "wall",
        "total"}], "dirk"}`` ("tiles": points tiles, basic game; "wall": Alcazaba)."""
        extra = "tiles" if self.g.game == GAME_DICE else "wall"
        out = []
        for r in range(3):
            if not self.g.bd_mask & (1 << r):
                continue
            rows = []
            for i in list(range(self.g.n)) + ([DIRK] if self.g.dirk else []):
                maj = [self.g.breakdown[r][i][t] for t in range(NTYPES)]
                e = self.g.breakdown[r][i][NTYPES]
                if i == DIRK and self.g.game == GAME_ALCAZABA:
                    rows.append({"majorities": maj, "total": sum(maj)})
                else:
                    rows.append({"majorities": maj, extra: e, "total": sum(maj) + e})
            out.append({"round": r + 1, "seats": rows[:self.g.n], "dirk": rows[self.g.n] if self.g.dirk else None})
        return out

    def ranking(self):
        """Rank per seat, 1 = first; ties share the rank (D17); Dirk is not ranked (D24)."""
        return _ranking(self.scores())

    cdef int _row(self, seat) except -1:
        if seat == "dirk" and self.g.dirk:
            return DIRK
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.g.n:
            raise ValueError(f"no seat {seat!r} (seats are 0..{self.g.n - 1}" + (", 'dirk')" if self.g.dirk else ")"))
        return seat

    def dice(self):
        """The 8 white dice (faces 0-5, None before roll 1) and the black die (face or None)."""
        return ([None if f == NO_FACE else f for f in self.g.dice[:NDICE]],
                None if self.g.black == NO_FACE else self.g.black)

    @property
    def rolls(self):
        return self.g.rolls

    def column(self, int t):
        """Marker owners of column t by field v = 1..24 (index v - 1): seat, 'dirk' or None."""
        if not 0 <= t < NTYPES:
            raise ValueError(f"no column {t} (0-5)")
        return [None if o == EMPTY else ("dirk" if o == DIRK else o) for o in self.g.field[t][:NFIELDS]]

    def building_points(self, seat):
        cdef int row = self._row(seat)
        return [self.g.bp[row][t] for t in range(NTYPES)]

    def bonus_tiles(self, seat):
        """Bonus tiles held: ``{"points1": 2, "void": 1, ...}`` (codes held at least once)."""
        cdef int row = self._row(seat)
        return {BONUS_NAMES[c]: self.g.held[row][c] for c in range(NBT) if self.g.held[row][c]}

    def bonus_fields(self):
        return [None if c == BT_NONE else BONUS_NAMES[c] for c in self.g.bonus[:NTYPES]]

    def fallen(self, seat):
        return self.g.fallen[self._row(seat)]

    def column_items(self, int t):
        """Alcazaba: the tiles (and 'start') shown in column t."""
        if not 0 <= t < NTYPES:
            raise ValueError(f"no column {t} (0-5)")
        return ["start" if x == START_ITEM else x for x in self.g.items[t][:self.g.nitems[t]]]

    def city(self, seat):
        if self.g.game != GAME_ALCAZABA:
            raise ValueError("cities exist only in Alcazaba")
        return city_wrap(self.g.cities.city[self._row(seat)])

    def reserve(self, seat):
        cdef uint8_t tiles[128]
        cdef int n = mask_list(self.g.cities.reserve[self._row(seat)], tiles), i
        return [tiles[i] for i in range(n)]

    def dirk_tiles(self):
        cdef uint8_t tiles[128]
        cdef int n = mask_list(self.g.cities.dirk_tiles, tiles), i
        return [tiles[i] for i in range(n)]

    def pending(self, seat=None):
        if self.g.phase != DP_PLACE or (seat is not None and self._row(seat) != self.g.current):
            return []
        return [self.g.pending]

    def aside_tiles(self):
        return [self.g.left[i] for i in range(self.g.nleft)]

    @property
    def bag_size(self):
        return self.g.abag_n

    def observation(self, seat):
        """What ``seat`` may know (D25) as a JSON-ready dict; see dice/observe.pxi."""
        return dice_observation(self, self._row(seat))

    def determinized(self, seat, seed):
        """A state consistent with ``seat``'s observation, the hidden rest resampled with ``seed``."""
        return dice_determinize(self.observation(seat), seed)

    # hidden information (tests, referee)

    def _hidden(self):
        """The hidden parts: the bonus stacks and dark tiles (basic game) or the stacks and bag (Alcazaba)."""
        if self.g.game == GAME_DICE:
            return {"stacks": [BONUS_NAMES[c] for c in self.g.stacks[:NSTACK]],
                    "dark": [BONUS_NAMES[c] for c in self.g.dark[:NDARK]]}
        return {"stacks": [[self.g.astack[r][i] for i in range(NTYPES)] for r in range(5)],
                "bag": [self.g.abag[i] for i in range(self.g.abag_n - 1, -1, -1)]}

    def _fingerprint(self):
        cdef DiceGame tmp
        cdef int i
        memcpy(&tmp, &self.g, sizeof(DiceGame))
        for i in range(MAX_PLAYERS):
            tmp.cities.city[i] = NULL
        raw = (<char*>&tmp)[:sizeof(DiceGame)]
        if self.g.game == GAME_ALCAZABA:
            raw += repr(tuple(tuple(self.city(i).cells()) for i in range(self.g.n))).encode()
        return raw

    @staticmethod
    def from_observation(obs, seed=0):
        """A state rebuilt from an observation, hidden parts sampled with ``seed`` (= determinize); with an
        edited observation this sets up any position for tests and analysis."""
        return dice_determinize(obs, seed)

    def __repr__(self):
        who = "" if self.g.phase == DP_OVER else f" seat {self.g.current}"
        return f"<DiceState {self.game} {self.g.n}p round {self.g.round}{who} {self.phase}>"


cdef dict _OUTCOME_CACHE = {}


cdef list roll_outcomes(int k):
    """Every multiset of k faces (sorted tuple) with its multinomial probability."""
    if k in _OUTCOME_CACHE:
        return _OUTCOME_CACHE[k]
    out = []
    total = 6 ** k
    for faces in _cwr(range(NTYPES), k):
        ways = _factorial(k)
        for f in range(NTYPES):
            ways //= _factorial(faces.count(f))
        out.append((faces, ways / total))
    _OUTCOME_CACHE[k] = out
    return out


def new_dice_game(num_players, seed, game="dice", options=None):
    """A new game of Alhambra: The Dice Game (``game="dice"``) or its Alcazaba variant (``"alcazaba"``).
    Two players always play with Dirk (§dice-11); ``options`` may only confirm that (``{"dirk": True}``)."""
    cdef DiceState self = DiceState.__new__(DiceState)
    _check_num_players(num_players)
    _check_seed(seed)
    if game not in GAME_NAMES:
        raise ValueError(f"unknown game {game!r} (alhambra, {', '.join(GAME_NAMES)})")
    for key, value in (options or {}).items():
        if key != "dirk":
            raise ValueError(f"option {key!r} is not available in the {game} game (only 'dirk')")
        if value is not (num_players == 2):
            raise ValueError(f"option 'dirk': the {game} game plays with Dirk exactly when 2 players play")
    self._hist = []
    self._ev = []
    self._hist_len = 0
    self.record_history = True
    self._seed = seed
    log = []
    dice_setup(&self.g, GAME_NAMES.index(game), num_players, <uint64_t>seed, log)
    self._extend(log)
    return self


def _bench_dice_games(str game, int num_players, int games, seed0):
    """Set up and play `games` uniformly random games of a dice game (seeds seed0, seed0 + 1, ...; choices
    seeded alike: each a draw from dice_gen_legal's list, made by dice_sample_legal), no history; returns the
    total number of actions (bench.py)."""
    cdef DiceGame* g = <DiceGame*>calloc(1, sizeof(DiceGame))
    cdef DiceScratch* sc = dice_scratch_new()
    cdef Rng r
    cdef int i, code, total = 0, kind = GAME_NAMES.index(game)
    cdef uint64_t seed = seed0
    try:
        if g == NULL or sc == NULL:
            raise MemoryError()
        for i in range(games):
            dice_setup(g, kind, num_players, seed + i, None)
            dice_scratch_reset(sc)
            rng_seed(&r, seed + i)
            while g.phase != DP_OVER:
                code = dice_sample_legal(g, &r, sc)
                dice_scratch_touch(sc, g, code)
                dice_apply(g, code, None)
                total += 1
            dice_release(g)
    finally:
        dice_scratch_free(sc)
        free(g)
    return total


def _dice_sample_check(str game, int num_players, int games, seed0):
    """Random games as _bench_dice_games plays them, checking at every decision that dice_sample_legal draws
    what the listed draw (dice_gen_legal, rng_below over its length) would, with the same use of the rng;
    returns the decisions checked (AssertionError at the first difference). For the tests."""
    cdef DiceGame* g = <DiceGame*>calloc(1, sizeof(DiceGame))
    cdef DiceScratch* sc = dice_scratch_new()
    cdef int* buf = <int*>malloc(MAX_DICE_LEGAL * sizeof(int))
    cdef Rng r, r2
    cdef int i, k, code, want, total = 0
    cdef uint64_t seed = seed0
    try:
        if g == NULL or sc == NULL or buf == NULL:
            raise MemoryError()
        for i in range(games):
            dice_setup(g, GAME_NAMES.index(game), num_players, seed + i, None)
            dice_scratch_reset(sc)
            rng_seed(&r, seed + i)
            while g.phase != DP_OVER:
                r2 = r
                k = dice_gen_legal(g, buf)
                want = buf[rng_below(&r2, k)]
                code = dice_sample_legal(g, &r, sc)
                if code != want or r.s0 != r2.s0 or r.s1 != r2.s1 or r.s2 != r2.s2 or r.s3 != r2.s3:
                    raise AssertionError(f"{game} {num_players} players, seed {seed + i}, decision {total}: "
                                         f"sampled {code}, listed draw {want} of {k}")
                dice_scratch_touch(sc, g, code)
                dice_apply(g, code, None)
                total += 1
            dice_release(g)
    finally:
        dice_scratch_free(sc)
        free(buf)
        free(g)
    return total
