# The dice games' MCTS, compiled (issue 43 item 4; driven by alhambra_ai/games/dice/mcts.py).
#
# A UCT tree over determinized DiceStates (the hidden bonus stacks / Alcazaba bag resampled, one state per
# iteration in turn) with explicit chance nodes for the rolls: a roll's outcome is sampled by its exact
# probability from the outcome lists of chance_outcomes (roll_outcomes: one multiset of faces per outcome,
# cumulative tables built once) and applied as given, each outcome its own child. Decision nodes keep their
# candidate actions best prior first and admit them by progressive widening after a roll (every candidate
# elsewhere). After `depth` turn ends the position is scored by the leaf value (the hand-written Python value,
# value.value_of, or a learned LearnedValue evaluated in C: the expected final margin), squashed to [0, 1]; between the expanded node and the cut-off a turn is finished by the
# expectimax turn policy in C (stop / keep one type by the binomial chain) on the seat's field-value table.
#
# Python is called only on cache misses: the leaf value and the turn table are cached per public position
# (a 64-bit hash of every public fact the value reads: hidden parts, dice and the rng excluded), so a search
# calls back a few dozen times while its C loop runs thousands of iterations. Deterministic for a given seed,
# determinizations and iteration count.

from libc.math cimport sqrt as _dm_sqrt, log as _dm_log, tanh as _dm_tanh, ceil as _dm_ceil
from libc.stdlib cimport qsort
from posix.time cimport clock_gettime as _dm_clock_gettime, timespec as _dm_timespec, CLOCK_MONOTONIC as _DM_MONO
from math import comb as _dm_comb

cdef enum:
    DM_FV = NTYPES * NFIELDS       # a turn table: the seat's value of a marker on each field (t * 24 + i) ...
    DM_TABLE = DM_FV + 2           # ... then the void-roll and black-die tiles' values
    DM_PATH = 256

cdef double DM_NEG = -1e9

cdef int _DM_NOUT[NDICE + 1]
cdef double* _DM_CUM[NDICE + 1]
cdef uint8_t* _DM_FACES[NDICE + 1]
cdef double _DM_BIN[NDICE + 1][NDICE + 1]     # _DM_BIN[k][j]: j of k re-rolled dice show a given face


def _dm_setup_tables():
    cdef int k, j, i
    for k in range(1, NDICE + 1):
        outs = roll_outcomes(k)
        _DM_NOUT[k] = len(outs)
        _DM_CUM[k] = <double*>malloc(len(outs) * sizeof(double))
        _DM_FACES[k] = <uint8_t*>malloc(len(outs) * k)
        if _DM_CUM[k] == NULL or _DM_FACES[k] == NULL:
            raise MemoryError()
        acc = 0.0
        for i, (faces, p) in enumerate(outs):
            acc += p
            _DM_CUM[k][i] = acc
            for j in range(k):
                _DM_FACES[k][i * k + j] = faces[j]
    for k in range(NDICE + 1):
        for j in range(NDICE + 1):
            _DM_BIN[k][j] = _dm_comb(k, j) * (1 / 6) ** j * (5 / 6) ** (k - j) if j <= k else 0.0


_dm_setup_tables()


cdef inline double _dm_now() noexcept nogil:
    cdef _dm_timespec ts
    _dm_clock_gettime(_DM_MONO, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline double _dm_uniform(Rng* r) noexcept nogil:
    return (rng_next(r) >> 11) * (1.0 / 9007199254740992.0)


# ---------------------------------------------------------------- hash maps (uint64 key -> int, key != 0)

cdef struct DMMap:
    uint64_t* keys
    int* vals
    uint64_t mask
    int count


cdef inline uint64_t _dm_slot(uint64_t k) noexcept nogil:
    k ^= k >> 33
    k *= <uint64_t>0xff51afd7ed558ccd
    k ^= k >> 33
    k *= <uint64_t>0xc4ceb9fe1a85ec53
    k ^= k >> 33
    return k


cdef int dmmap_init(DMMap* m, int cap) except -1:
    m.keys = <uint64_t*>calloc(cap, sizeof(uint64_t))
    m.vals = <int*>malloc(cap * sizeof(int))
    if m.keys == NULL or m.vals == NULL:
        raise MemoryError()
    m.mask = cap - 1
    m.count = 0
    return 0


cdef void dmmap_free(DMMap* m) noexcept nogil:
    free(m.keys)
    free(m.vals)
    m.keys = NULL
    m.vals = NULL


cdef int dmmap_get(DMMap* m, uint64_t key) noexcept nogil:
    cdef uint64_t i = _dm_slot(key) & m.mask
    while m.keys[i]:
        if m.keys[i] == key:
            return m.vals[i]
        i = (i + 1) & m.mask
    return -1


cdef int dmmap_put(DMMap* m, uint64_t key, int val) except -1:
    cdef uint64_t i, j, cap
    cdef uint64_t* old_keys
    cdef int* old_vals
    if (m.count + 1) * 2 > <int>(m.mask + 1):
        old_keys, old_vals, cap = m.keys, m.vals, m.mask + 1
        dmmap_init(m, <int>(2 * cap))
        for j in range(cap):
            if old_keys[j]:
                i = _dm_slot(old_keys[j]) & m.mask
                while m.keys[i]:
                    i = (i + 1) & m.mask
                m.keys[i] = old_keys[j]
                m.vals[i] = old_vals[j]
                m.count += 1
        free(old_keys)
        free(old_vals)
    i = _dm_slot(key) & m.mask
    while m.keys[i] and m.keys[i] != key:
        i = (i + 1) & m.mask
    if not m.keys[i]:
        m.count += 1
    m.keys[i] = key
    m.vals[i] = val
    return 0


# ---------------------------------------------------------------- the public facts of a position

cdef inline uint64_t _dm_bytes(uint64_t h, const void* p, size_t n) noexcept nogil:
    cdef const uint8_t* b = <const uint8_t*>p
    cdef size_t i
    for i in range(n):
        h = (h ^ b[i]) * <uint64_t>1099511628211
    return h


cdef uint64_t dm_public_hash(DiceGame* g, uint64_t salt) noexcept nogil:
    """A hash of every public fact the position value reads (not the dice, the rng or the hidden stacks / bag):
    two positions of one search with one hash have one value."""
    cdef uint64_t h = <uint64_t>0xcbf29ce484222325 ^ (salt * <uint64_t>0x9E3779B97F4A7C15)
    cdef uint8_t small[16]
    cdef int i, k
    cdef int cells[CITY_MAX_CELLS]
    cdef int tiles[CITY_MAX_CELLS]
    small[0] = g.game
    small[1] = g.n
    small[2] = g.round
    small[3] = g.phase
    small[4] = g.current
    small[5] = g.start_player
    small[6] = g.round_start
    small[7] = g.turn_in_round
    small[8] = g.black_used
    small[9] = g.ev_col
    small[10] = g.ev_rank
    small[11] = g.ev_first
    small[12] = g.nleft
    small[13] = g.scored
    small[14] = g.npending
    small[15] = g.pending if g.npending else 0
    h = _dm_bytes(h, small, 16)
    h = _dm_bytes(h, g.field, sizeof(g.field))
    h = _dm_bytes(h, g.fallen, sizeof(g.fallen))
    h = _dm_bytes(h, g.aside, sizeof(g.aside))
    h = _dm_bytes(h, g.score, sizeof(g.score))
    if g.game == GAME_DICE:
        h = _dm_bytes(h, g.bonus, sizeof(g.bonus))
        h = _dm_bytes(h, g.held, sizeof(g.held))
        h = _dm_bytes(h, g.bp, sizeof(g.bp))
        h = _dm_bytes(h, g.arrive, sizeof(g.arrive))
    else:
        h = _dm_bytes(h, g.items, sizeof(g.items))
        h = _dm_bytes(h, g.nitems, sizeof(g.nitems))
        h = _dm_bytes(h, g.cities.reserve, sizeof(g.cities.reserve))
        h = _dm_bytes(h, g.cities.dirk_tiles, sizeof(g.cities.dirk_tiles))
        for i in range(g.n):
            if g.cities.city[i] != NULL:
                k = city_list(g.cities.city[i], cells, tiles)
                h = _dm_bytes(h, &k, sizeof(int))
                h = _dm_bytes(h, cells, k * sizeof(int))
                h = _dm_bytes(h, tiles, k * sizeof(int))
    return h if h else 1


# ---------------------------------------------------------------- the turn policy (expectimax's, in C)

cdef struct DMTurn:
    double* tab
    int black
    double stop[NTYPES][10][4]         # stop[t][count][rolls]: the table's value of the field the marker takes
    double chain[NTYPES][10][4]        # best value keeping type t's dice from (count, rolls)
    uint8_t done[NTYPES][10][4]


cdef void dm_turn_init(DMTurn* T, DiceGame* g, double* tab) noexcept nogil:
    cdef int t, count, rolls, i
    T.tab = tab
    T.black = g.black
    memset(T.done, 0, sizeof(T.done))
    for t in range(NTYPES):
        for rolls in range(4):
            T.stop[t][0][rolls] = DM_NEG
        for count in range(1, 10):
            for rolls in range(1, 4):
                i = field_v(count, rolls) - 1
                while i >= 0 and g.field[t][i] != EMPTY:
                    i -= 1
                T.stop[t][count][rolls] = tab[t * NFIELDS + i] if i >= 0 else 0.0   # falls off: the marker lost


cdef double dm_chain(DMTurn* T, int t, int count, int rolls) noexcept nogil:
    cdef int free_, j, c2
    cdef double best, s
    if T.done[t][count][rolls]:
        return T.chain[t][count][rolls]
    best = T.stop[t][count][rolls]
    free_ = NDICE - count + (1 if T.black == t else 0)
    if free_ > NDICE:
        free_ = NDICE
    if rolls < 3 and free_ > 0:
        s = 0.0
        for j in range(free_ + 1):
            c2 = count + j
            if c2 > 9:
                c2 = 9
            s += _DM_BIN[free_][j] * dm_chain(T, t, c2, rolls + 1)
        if s > best:
            best = s
    T.chain[t][count][rolls] = best
    T.done[t][count][rolls] = 1
    return best


cdef double dm_after(DMTurn* T, int* c, int rolls) noexcept nogil:
    """The value after a roll with these symbol counts: stop on the best type or keep one type's dice."""
    cdef double best = DM_NEG, v
    cdef int t
    for t in range(NTYPES):
        if c[t] and T.stop[t][min(9, c[t])][rolls] > best:
            best = T.stop[t][min(9, c[t])][rolls]
    if rolls < 3:
        for t in range(NTYPES):
            v = dm_chain(T, t, min(9, c[t]), rolls)
            if v > best:
                best = v
    return best


cdef inline void dm_counts(DiceGame* g, int* c) noexcept nogil:
    cdef int i
    for i in range(NTYPES):
        c[i] = 0
    for i in range(NDICE):
        if g.dice[i] != NO_FACE:
            c[g.dice[i]] += 1
    if g.black != NO_FACE:
        c[g.black] += 1


cdef int dm_turn_action(DMTurn* T, DiceGame* g) noexcept nogil:
    """The rollout's choice after a roll: the best stop, or keep the dice of the type whose chain beats it."""
    cdef int c[NTYPES]
    cdef int t, best_t = -1, stop = 1, mask = 0, i
    cdef double best = DM_NEG * 10, v
    dm_counts(g, c)
    for t in range(NTYPES):
        if c[t] and T.stop[t][min(9, c[t])][g.rolls] > best:
            best, best_t = T.stop[t][min(9, c[t])][g.rolls], t
    if g.rolls < 3:
        for t in range(NTYPES):
            v = dm_chain(T, t, min(9, c[t]), g.rolls)
            if v > best + 1e-9:
                best, best_t, stop = v, t, 0
    if not stop:
        for i in range(NDICE):
            if g.dice[i] != best_t:
                mask |= 1 << i
        if mask:
            return D_ROLL | (mask << 4)
        stop = 1
    return D_STOP | (best_t << 4)


cdef bint dm_keeps_one_type(DiceGame* g, int mask) noexcept nogil:
    """A re-roll keeping exactly the dice of one type (or none): expectimax's candidates."""
    cdef int i, f = -1
    for i in range(NDICE):
        if not (mask >> i) & 1:
            if f >= 0 and g.dice[i] != f:
                return False
            f = g.dice[i]
    if f < 0:
        return True
    for i in range(NDICE):
        if (mask >> i) & 1 and g.dice[i] == f:
            return False
    return True


cdef struct DMPrior:
    double v
    int i
    int a


cdef int _dm_prior_cmp(const void* x, const void* y) noexcept nogil:
    cdef const DMPrior* p = <const DMPrior*>x
    cdef const DMPrior* q = <const DMPrior*>y
    if p.v > q.v:
        return -1
    if p.v < q.v:
        return 1
    return -1 if p.i < q.i else (1 if p.i > q.i else 0)


cdef double dm_prior(DMTurn* T, DiceGame* g, int a) noexcept nogil:
    """A candidate's prior after a roll, in the table's units: a stop by its field, a re-roll by the best
    binomial chain of the dice it keeps, void / black die by the position they give less the tile spent."""
    cdef int kind = a & 15, t, mask, free_, j, i
    cdef int c[NTYPES]
    cdef int kc[NTYPES]
    cdef double v, s
    dm_counts(g, c)
    if kind == D_STOP:
        t = (a >> 4) & 7
        if a & 128:
            return T.tab[t * NFIELDS + field_v(c[t], g.rolls) - 1]
        return T.stop[t][min(9, c[t])][g.rolls]
    if kind == D_ROLL:
        mask = (a >> 4) & 0xFF
        for t in range(NTYPES):
            kc[t] = 1 if g.black == t else 0
        free_ = 0
        for i in range(NDICE):
            if (mask >> i) & 1:
                free_ += 1
            else:
                kc[g.dice[i]] += 1
        v = DM_NEG * 10
        for t in range(NTYPES):
            s = 0.0
            for j in range(free_ + 1):
                s += _DM_BIN[free_][j] * dm_chain(T, t, min(9, kc[t] + j), g.rolls + 1)
            if s > v:
                v = s
        return v
    if kind == D_VOID:
        if g.prev_rolls == 0:
            v = DM_NEG * 10
            for t in range(NTYPES):
                s = 0.0
                for j in range(NDICE + 1):
                    s += _DM_BIN[NDICE][j] * dm_chain(T, t, j, 1)
                if s > v:
                    v = s
        else:
            for t in range(NTYPES):
                kc[t] = 1 if g.black == t else 0
            for i in range(NDICE):
                if g.prev_dice[i] != NO_FACE:
                    kc[g.prev_dice[i]] += 1
            v = dm_after(T, kc, g.prev_rolls)
        return v - T.tab[DM_FV] - 0.05
    if kind == D_BLACK:
        c[(a >> 4) & 7] += 1
        return dm_after(T, c, g.rolls) - T.tab[DM_FV + 1]
    return -100.0                              # Alcazaba's rebuilds: tried once the widening reaches them


# ---------------------------------------------------------------- the tree

cdef struct DMNode:
    int n
    double w          # rewards of the seat that chose the edge into this node
    int order         # offset of the candidates in the pool (-1: not listed yet)
    int norder
    int nkids
    uint8_t after     # a decision after a roll (progressive widening)


cdef inline int _dm_ends(int kind, int before, int after) noexcept nogil:
    """A cut-off point: a turn's end, or one decision of the round's evaluation (an Alcazaba pick with its
    placement counts as one)."""
    if before == DP_AFTER:
        return not (kind == D_ROLL or kind == D_VOID or kind == D_BLACK)
    if before == DP_ROLL:
        return 0
    return before == DP_REWARD or before == DP_NAME or before == DP_PLACE or (
        before == DP_PICK and after != DP_PLACE)


cdef DiceState _dm_wrap(DiceGame* g):
    cdef DiceState s = DiceState.__new__(DiceState)
    dice_copy(&s.g, g)
    s._hist = []
    s._ev = []
    s._hist_len = 0
    s.record_history = False
    s._seed = None
    return s


cdef class DiceMcts:
    """The dice games' UCT search (see the top of cython_core/dice/search.pxi); mcts.py builds it.

    states: determinizations of the observation, one per iteration in turn; leaf(state) -> the expected
    final margin per seat; table(state) -> DM_TABLE floats for the seat to act after a roll (its value of a
    marker on each field t * 24 + i, then the void-roll and black-die tiles' values); policy(state) -> an
    action outside the dice (evaluation decisions inside a rollout)."""
    cdef list dets
    cdef object leaf_fn, table_fn, policy_fn
    cdef public double c_uct, pw, scale
    cdef public int depth, narrow, qmc
    cdef uint64_t salt
    cdef public int iterations, leaf_calls, table_calls
    cdef int n
    cdef Rng rng
    cdef DMNode* nodes
    cdef int nnodes, node_cap
    cdef DMMap kids
    cdef int* pool
    cdef int npool, pool_cap
    cdef DMMap leaves, tables
    cdef double* lbuf
    cdef int nl, lcap
    cdef double* tbuf
    cdef int nt, tcap
    cdef int buf[MAX_DICE_LEGAL]

    def __cinit__(self):
        self.nodes = NULL
        self.pool = NULL
        self.lbuf = NULL
        self.tbuf = NULL
        self.kids.keys = NULL
        self.leaves.keys = NULL
        self.tables.keys = NULL

    def __init__(self, states, seed, leaf, table, policy, double c_uct=0.7, int depth=1, double pw=2.0,
                 double scale=10.0, int narrow=0, int qmc=1):
        self.dets = list(states)
        if not self.dets or not all(isinstance(s, DiceState) for s in self.dets):
            raise ValueError("DiceMcts needs one or more DiceStates")
        self.n = (<DiceState>self.dets[0]).g.n
        if isinstance(leaf, LearnedValue):
            (<LearnedValue>leaf).check(GAME_NAMES[(<DiceState>self.dets[0]).g.game], self.n)
        self.leaf_fn, self.table_fn, self.policy_fn = leaf, table, policy
        self.c_uct, self.depth, self.pw, self.scale, self.narrow = c_uct, depth, pw, scale, narrow
        self.qmc = qmc
        self.salt = <uint64_t>seed
        _check_seed(seed)
        rng_seed(&self.rng, <uint64_t>seed)
        self.node_cap, self.pool_cap, self.lcap, self.tcap = 1024, 4096, 1024, 4 * DM_TABLE
        self.nodes = <DMNode*>malloc(self.node_cap * sizeof(DMNode))
        self.pool = <int*>malloc(self.pool_cap * sizeof(int))
        self.lbuf = <double*>malloc(self.lcap * sizeof(double))
        self.tbuf = <double*>malloc(self.tcap * sizeof(double))
        if self.nodes == NULL or self.pool == NULL or self.lbuf == NULL or self.tbuf == NULL:
            raise MemoryError()
        dmmap_init(&self.kids, 4096)
        dmmap_init(&self.leaves, 256)
        dmmap_init(&self.tables, 64)
        self.nnodes = 0
        self._new_node()                       # the root

    def __dealloc__(self):
        free(self.nodes)
        free(self.pool)
        free(self.lbuf)
        free(self.tbuf)
        if self.kids.keys != NULL:
            dmmap_free(&self.kids)
        if self.leaves.keys != NULL:
            dmmap_free(&self.leaves)
        if self.tables.keys != NULL:
            dmmap_free(&self.tables)

    cdef int _new_node(self) except -1:
        cdef DMNode* p
        if self.nnodes == self.node_cap:
            p = <DMNode*>realloc(self.nodes, 2 * self.node_cap * sizeof(DMNode))
            if p == NULL:
                raise MemoryError()
            self.nodes, self.node_cap = p, 2 * self.node_cap
        p = &self.nodes[self.nnodes]
        p.n = 0
        p.w = 0.0
        p.order = -1
        p.norder = 0
        p.nkids = 0
        p.after = 0
        self.nnodes += 1
        return self.nnodes - 1

    cdef int _child(self, int parent, uint32_t edge, int* created) except -1:
        cdef uint64_t key = ((<uint64_t>parent + 1) << 32) | edge
        cdef int c = dmmap_get(&self.kids, key)
        created[0] = 0
        if c < 0:
            c = self._new_node()
            dmmap_put(&self.kids, key, c)
            self.nodes[parent].nkids += 1
            created[0] = 1
        return c

    # ------------------------------------------------------------ the Python values, cached

    cdef double* _table(self, DiceGame* g) except NULL:
        cdef uint64_t key = dm_public_hash(g, 1)
        cdef int at = dmmap_get(&self.tables, key), i
        cdef double* p
        if at < 0:
            vals = self.table_fn(_dm_wrap(g))
            if len(vals) != DM_TABLE:
                raise ValueError(f"a turn table has {DM_TABLE} values, not {len(vals)}")
            if self.nt + DM_TABLE > self.tcap:
                p = <double*>realloc(self.tbuf, 2 * self.tcap * sizeof(double))
                if p == NULL:
                    raise MemoryError()
                self.tbuf, self.tcap = p, 2 * self.tcap
            at = self.nt
            for i in range(DM_TABLE):
                self.tbuf[at + i] = vals[i]
            self.nt += DM_TABLE
            dmmap_put(&self.tables, key, at)
            self.table_calls += 1
        return self.tbuf + at

    cdef int _rewards(self, DiceGame* g, double* out) except -1:
        """Per seat, the reward in [0, 1]: the squashed margin (at the end: the scores' margin)."""
        cdef int p, q, at, i
        cdef double m, best
        cdef uint64_t key
        cdef double* np_
        cdef double mbuf[MAX_PLAYERS]
        if g.phase == DP_OVER:
            for p in range(self.n):
                best = -1e9
                for q in range(self.n):
                    if q != p and g.score[q] > best:
                        best = g.score[q]
                out[p] = 0.5 + 0.5 * _dm_tanh((g.score[p] - best) / self.scale)
            return 0
        key = dm_public_hash(g, 2)
        at = dmmap_get(&self.leaves, key)
        if at < 0:
            if isinstance(self.leaf_fn, LearnedValue):     # the learned value: in C, no Python call
                dv_margins(&(<LearnedValue>self.leaf_fn).net, g, mbuf)
                margins = None
            else:
                margins = self.leaf_fn(_dm_wrap(g))
            if self.nl + self.n > self.lcap:
                np_ = <double*>realloc(self.lbuf, 2 * self.lcap * sizeof(double))
                if np_ == NULL:
                    raise MemoryError()
                self.lbuf, self.lcap = np_, 2 * self.lcap
            at = self.nl
            for i in range(self.n):
                self.lbuf[at + i] = 0.5 + 0.5 * _dm_tanh(
                    (mbuf[i] if margins is None else <double>margins[i]) / self.scale)
            self.nl += self.n
            dmmap_put(&self.leaves, key, at)
            self.leaf_calls += 1
        for i in range(self.n):
            out[i] = self.lbuf[at + i]
        return 0

    # ------------------------------------------------------------ one iteration

    cdef int _roll(self, DiceGame* g, int a) except -1:
        """Apply the roll `a` with an outcome sampled by its exact probability; returns the outcome's index."""
        return self._roll_at(g, a, _dm_uniform(&self.rng))

    cdef int _roll_at(self, DiceGame* g, int a, double u) except -1:
        """Apply the roll `a` with the outcome at u in [0, 1) of its cumulative outcome list."""
        cdef int mask = (a >> 4) & 0xFF, k = 0, i, lo, hi, mid
        cdef double x
        for i in range(NDICE):
            if (mask >> i) & 1:
                k += 1
        x = u * _DM_CUM[k][_DM_NOUT[k] - 1]
        lo, hi = 0, _DM_NOUT[k] - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if _DM_CUM[k][mid] > x:
                hi = mid
            else:
                lo = mid + 1
        dice_apply(g, a, None, _DM_FACES[k] + lo * k)
        return lo

    cdef int _list(self, int node, DiceGame* g, int nleg) except -1:
        """The node's candidates into the pool: after a roll best prior first, elsewhere the legal order."""
        cdef DMTurn T
        cdef DMPrior* pr
        cdef int* p
        cdef int i, k = 0
        cdef double* tab
        while self.npool + nleg > self.pool_cap:
            p = <int*>realloc(self.pool, 2 * self.pool_cap * sizeof(int))
            if p == NULL:
                raise MemoryError()
            self.pool, self.pool_cap = p, 2 * self.pool_cap
        if g.phase == DP_AFTER:
            tab = self._table(g)
            dm_turn_init(&T, g, tab)
            pr = <DMPrior*>malloc(nleg * sizeof(DMPrior))
            if pr == NULL:
                raise MemoryError()
            for i in range(nleg):
                if self.narrow and (self.buf[i] & 15) == D_ROLL and not dm_keeps_one_type(
                        g, (self.buf[i] >> 4) & 0xFF):
                    continue                   # narrow: expectimax's re-rolls only (keep one type or none)
                pr[k].v = dm_prior(&T, g, self.buf[i])
                pr[k].i = i
                pr[k].a = self.buf[i]
                k += 1
            qsort(pr, k, sizeof(DMPrior), _dm_prior_cmp)
            for i in range(k):
                self.pool[self.npool + i] = pr[i].a
            free(pr)
            nleg = k
            self.nodes[node].after = 1
        else:
            for i in range(nleg):
                self.pool[self.npool + i] = self.buf[i]
        self.nodes[node].order = self.npool
        self.nodes[node].norder = nleg
        self.npool += nleg
        return 0

    cdef int _select(self, int node, DiceGame* g, int nleg) except -1:
        cdef int k, width, idx, a, c, best = -1, seen = 0, first = self.buf[0]
        cdef double logn, u, best_u = -1e300
        cdef DMNode* nd
        cdef uint64_t base
        if self.nodes[node].order < 0:
            self._list(node, g, nleg)
        nd = &self.nodes[node]
        k = nd.norder
        width = k
        if nd.after:
            width = <int>_dm_ceil(self.pw * _dm_sqrt(nd.n + 1.0))
            width = max(1, min(k, width))
        logn = _dm_log(nd.n + 1.0)
        base = (<uint64_t>node + 1) << 32
        for idx in range(k):
            a = self.pool[nd.order + idx]
            if dice_check(g, a) != DE_OK:     # another determinization: another deal
                continue
            if seen >= width:
                break
            seen += 1
            c = dmmap_get(&self.kids, base | <uint32_t>a)
            if c < 0 or self.nodes[c].n == 0:
                return a
            u = self.nodes[c].w / self.nodes[c].n + self.c_uct * _dm_sqrt(logn / self.nodes[c].n)
            if u > best_u:
                best, best_u = a, u
        return best if best >= 0 else first

    cdef int _rollout_action(self, DiceGame* g) except -1:
        cdef DMTurn T
        if g.phase == DP_AFTER:
            dm_turn_init(&T, g, self._table(g))
            return dm_turn_action(&T, g)
        if g.phase == DP_ROLL:
            return D_ROLL | (0xFF << 4)
        return int(self.policy_fn(_dm_wrap(g)))

    cdef int _descend(self, DiceGame* w) except -1:
        cdef int path_node[DM_PATH]
        cdef int path_player[DM_PATH]
        cdef double seat_rewards[MAX_PLAYERS]
        cdef int plen = 1, node = 0, turns = 0, expanded = 0, nleg, a, ph, player, stat, child, created, o, i
        cdef double u
        path_node[0] = 0
        path_player[0] = -1
        while w.phase != DP_OVER and turns < self.depth and plen < DM_PATH - 2:
            nleg = dice_gen_legal(w, self.buf)
            a = self.buf[0]
            ph = w.phase
            if nleg == 1 and (a & 15) != D_ROLL:      # forced: no node
                dice_apply(w, a, None)
                turns += _dm_ends(a & 15, ph, w.phase)
                continue
            if expanded:
                a = self._rollout_action(w)
                if (a & 15) == D_ROLL:
                    self._roll(w, a)
                else:
                    dice_apply(w, a, None)
                turns += _dm_ends(a & 15, ph, w.phase)
                continue
            player = w.current
            a = self._select(node, w, nleg)
            if (a & 15) == D_ROLL:
                stat = self._child(node, <uint32_t>a, &created)
                if self.qmc:    # stratified: the chance node's k-th visit takes the k-th golden-ratio point
                    u = _dm_slot(<uint64_t>stat * <uint64_t>0x9E3779B97F4A7C15 + self.salt) >> 11
                    u = self.nodes[stat].n * 0.6180339887498949 + u * (1.0 / 9007199254740992.0)
                    u -= <int>u
                    o = self._roll_at(w, a, u)
                else:
                    o = self._roll(w, a)
                child = self._child(stat, <uint32_t>o, &created)
            else:
                dice_apply(w, a, None)
                stat = child = self._child(node, <uint32_t>a, &created)
            turns += _dm_ends(a & 15, ph, w.phase)
            path_node[plen] = stat
            path_player[plen] = player
            plen += 1
            if child != stat:
                path_node[plen] = child
                path_player[plen] = -1
                plen += 1
            if created:
                expanded = 1
            node = child
        self._rewards(w, seat_rewards)
        for i in range(plen):
            self.nodes[path_node[i]].n += 1
            if path_player[i] >= 0:
                self.nodes[path_node[i]].w += seat_rewards[path_player[i]]
        return 0

    def run(self, int iterations=0, deadline=None):
        """Iterate ``iterations`` times (0: until ``deadline``, a time.monotonic() value); returns the total."""
        cdef DiceGame w
        cdef DiceState det
        cdef int k = 0, ndets = len(self.dets)
        cdef double dl = float(deadline) if deadline is not None else 0.0
        if iterations <= 0 and deadline is None:
            raise ValueError("give iterations or a deadline")
        while True:
            if iterations > 0 and k >= iterations:
                break
            if iterations <= 0 and k > 0 and _dm_now() >= dl:
                break
            det = <DiceState>self.dets[self.iterations % ndets]
            dice_copy(&w, &det.g)
            try:
                self._descend(&w)
            finally:
                dice_release(&w)
            self.iterations += 1
            k += 1
        return self.iterations

    def root_children(self):
        """[(action, visits, mean reward of the seat to act, distinct children)] of the root, most visited
        first (a roll's children are its sampled outcomes)."""
        cdef DMNode* root = &self.nodes[0]
        cdef int i, a, c
        out = []
        if root.order < 0:
            return out
        for i in range(root.norder):
            a = self.pool[root.order + i]
            c = dmmap_get(&self.kids, (<uint64_t>1 << 32) | <uint32_t>a)
            if c >= 0 and self.nodes[c].n:
                out.append((a, self.nodes[c].n, self.nodes[c].w / self.nodes[c].n, self.nodes[c].nkids))
        out.sort(key=lambda e: (-e[1], -e[2]))
        return out

    def best(self, legal):
        """The most visited legal root action (ties: the better mean, then the first listed)."""
        stats = {a: (n, m) for a, n, m, _k in self.root_children()}
        legal = list(legal)
        scored = [(stats[a][0], stats[a][1], -i, a) for i, a in enumerate(legal) if a in stats]
        return max(scored)[3] if scored else legal[0]

    @property
    def num_nodes(self):
        return self.nnodes
