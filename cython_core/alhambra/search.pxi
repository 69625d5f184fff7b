# Search helpers for the bots (issue 4): heuristic evaluation, a cheap heuristic policy for rollouts, sampling
# of the hidden order, a one-ply greedy policy, the chance leaves of expectimax and a compiled MCTS.
#
# Everything here works on a *determinized* state (built from an observation by alhambra_ai.determinize): the
# helpers never look at anything a seat could not know except the hidden order they are given, and
# `hidden_resample` replaces that order by a fresh sample (uniform money order with each undrawn scoring card
# uniform in its public range, uniform bag order, a fresh game RNG for later reshuffles of the discard).
#
# The hot loops (rollouts, evaluation, tree descent) are C: no Python object is touched per step.

from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from libc.math cimport sqrt, log, exp

cdef enum:
    MAX_PATH = 1024          # nodes on one tree path (a game has < 1000 actions)

# Evaluation weights, in points (tuned by hand against the random and greedy bots; see docs/bots.md).
cdef double EV_MONEY = 0.10         # per unit of money held, early in the game (falls to 40% at the end):
                                    # low, money is only worth what it buys (measured: 0.4 made greedy hoard)
cdef double EV_RESERVE = 0.8        # per reserve tile (it may still be built)
cdef double EV_EXTRA = 3.0          # the seat to act still has an extra action (after an exact payment)
cdef double EV_BUILDING = 0.5       # per building, times (type + 1) / 3.5: smooths the majority steps
cdef double POL_MONEY = 0.40        # the rollout policy's value of a unit of money (tuned separately)
cdef double EV_SCALE = 12.0         # points difference that maps to a clear advantage in rewards
cdef double EV_BUILDING0 = 0.0      # per building, flat
cdef double EV_WALL_W = 1.0         # multiplier of the projected wall points
cdef double EV_SIGMA0 = 0.35        # rank uncertainty of a round about to be scored (in buildings)
cdef double EV_SIGMA = 2.5          # ... plus this much per unit of game still to come before the round
cdef double EV_EXACT = 0.5          # per market tile the hand can pay exactly (an extra action in reach)
cdef double EV_AFFORD = 0.0         # per market tile the hand can pay at all


cdef inline double now_monotonic() noexcept nogil:
    """The clock of Python's time.monotonic() (CLOCK_MONOTONIC on Linux), in seconds."""
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


# ---------------------------------------------------------------- hidden order

cdef inline void secrets_resample(GameState* s, int seat, Rng* r) noexcept nogil:
    """The modules' secrets the seat cannot see dealt anew (their resample hooks: the other seats' thief
    cards, hidden disc figures), as determinize does: every search iteration / chance sample then meets
    other thief hands and discs."""
    module_resample(s, seat, r)


cdef void hidden_resample(GameState* s, Rng* r, int lo1, int hi1, int lo2, int hi2) noexcept nogil:
    """Replace the hidden order by a fresh uniform sample: the money cards of the draw pile are shuffled; each
    undrawn scoring card k goes to a uniform position in [lo_k, hi_k] (draw-pile index, 0 = top; -1 = unknown:
    the card keeps its place); the bag is shuffled; the game's RNG (used for later reshuffles of the discard)
    is reseeded, so nothing of the true future can survive in a determinization."""
    cdef uint8_t money[MAX_DRAW]
    cdef int n = 0, i, len_ = s.draw_len - s.draw_pos, p1 = -1, p2 = -1, m = 0, has1 = 0, has2 = 0, nwc = 0
    for i in range(s.draw_pos, s.draw_len):
        if s.draw[i] < NCARD_KINDS:
            money[n] = s.draw[i]
            n += 1
        elif s.draw[i] == SCORING_CARD_1:
            has1 = 1
        elif s.draw[i] == SCORING_CARD_2:
            has2 = 1
        else:
            nwc += 1
    rng_shuffle_u8(r, money, n)
    if nwc:
        _resample_with_walls(s, r, money, lo1, hi1, lo2, hi2)
    elif (has1 and lo1 < 0) or (has2 and lo2 < 0):
        for i in range(s.draw_pos, s.draw_len):        # ranges unknown: the scoring cards stay put
            if s.draw[i] < NCARD_KINDS:
                s.draw[i] = money[m]
                m += 1
    else:
        if has1:
            hi1 = hi1 if hi1 < len_ - 1 - has2 else len_ - 1 - has2
            lo1 = lo1 if lo1 <= hi1 else hi1
            p1 = lo1 + rng_below(r, hi1 - lo1 + 1)
        if has2:
            lo2 = lo2 if lo2 > p1 else p1 + 1
            hi2 = hi2 if hi2 < len_ - 1 else len_ - 1
            hi2 = hi2 if hi2 >= lo2 else lo2
            p2 = lo2 + rng_below(r, hi2 - lo2 + 1)
        for i in range(len_):
            if i == p1:
                s.draw[s.draw_pos + i] = SCORING_CARD_1
            elif i == p2:
                s.draw[s.draw_pos + i] = SCORING_CARD_2
            else:
                s.draw[s.draw_pos + i] = money[m]
                m += 1
    rng_shuffle_u8(r, s.bag, s.bag_n)
    rng_seed(&s.rng, rng_next(r))


cdef void _resample_with_walls(GameState* s, Rng* r, uint8_t* money, int lo1, int hi1, int lo2, int hi2) noexcept nogil:
    """hidden_resample's draw pile when unseen wall cards (Walls) lie in it: the wall cards at uniform free
    places of their setup piles (_place_walls, observe.pxi), each scoring card at a uniform free place of its
    range (its own place when the range is unknown), the shuffled money in the rest."""
    cdef uint8_t free_[MAX_DRAW]
    cdef uint8_t pile[MAX_DRAW]
    cdef uint8_t wc[NWALL_CARDS]
    cdef int i, j, k, c, lo, hi, cnt, pick, nwc = 0, m = 0, len_ = s.draw_len - s.draw_pos
    for i in range(len_):
        free_[i] = 1
        c = s.draw[s.draw_pos + i]
        if c >= WALL_CARD_FIRST and nwc < NWALL_CARDS:
            wc[nwc] = <uint8_t>c
            nwc += 1
    _place_walls(s, r, wc, nwc, free_, pile)
    for i in range(len_):
        c = s.draw[s.draw_pos + i]
        if c != SCORING_CARD_1 and c != SCORING_CARD_2:
            continue
        k = c - SCORING_CARD_1
        lo = lo1 if k == 0 else lo2
        hi = hi1 if k == 0 else hi2
        if lo < 0:
            lo = hi = i
        hi = hi if hi < len_ - 1 else len_ - 1
        cnt = 0
        for j in range(lo, hi + 1):
            cnt += free_[j]
        if cnt == 0:
            lo = 0
            hi = len_ - 1
            for j in range(len_):
                cnt += free_[j]
        pick = rng_below(r, cnt)
        for j in range(lo, hi + 1):
            if free_[j]:
                if pick == 0:
                    free_[j] = 0
                    pile[j] = <uint8_t>c
                    break
                pick -= 1
    for i in range(len_):
        if free_[i]:
            pile[i] = money[m]
            m += 1
    memcpy(&s.draw[s.draw_pos], pile, len_)


# ---------------------------------------------------------------- evaluation

cdef inline double game_progress(GameState* s) noexcept nogil:
    """0 at the start, 1 when the bag is empty (the bag is what ends the game)."""
    cdef double p = 1.0 - s.bag_n / 44.0
    return 0.0 if p < 0 else (1.0 if p > 1 else p)


cdef inline uint64_t exact_sums(GameState* s, int seat, int k) noexcept nogil:
    """Bit v set when some cards of currency k in seat's hand add up to exactly v (v < 64)."""
    cdef uint64_t reach = 1
    cdef int v, j
    for v in range(1, 10):
        for j in range(s.hand[seat][k * NVALUES + v - 1]):
            reach |= reach << v
    return reach


cdef double market_reach(GameState* s, int seat) noexcept nogil:
    """What the seat's hand can do with the market as it stands: exact payments and affordable tiles."""
    cdef int k, t
    cdef double v = 0.0
    for k in range(NCUR):
        t = s.market[k]
        if t == NO_TILE or s.cur_sum[seat][k] < TILE_COST[t]:
            continue
        v += EV_AFFORD
        if (exact_sums(s, seat, k) >> TILE_COST[t]) & 1:
            v += EV_EXACT
    return v


cdef void soft_majority(GameState* s, uint8_t (*counts)[NTYPES], int r, double sigma, double w,
                        double* out) noexcept nogil:
    """Add w x the *expected* majority points of round r: the counts may still change before the round is
    scored, so seat i ranks behind seat j with probability softsign((c_j - c_i) / sigma); the expected
    number of seats ahead (a fractional place) interpolates the round's points. Every building counts a little,
    the bigger the lead the more; sigma -> 0 gives the exact points (ties share)."""
    cdef int rows[NROWS]
    cdef int nrows = s.num_players, t, i, j, ci, cj, pl
    cdef double a, x, f, pts
    for i in range(s.num_players):
        rows[i] = i
    if s.options & OPT_DIRK:
        rows[nrows] = DIRK
        nrows += 1
    for t in range(NTYPES):
        for i in range(nrows):
            ci = counts[rows[i]][t]
            if ci == 0:
                continue
            a = 0.0
            for j in range(nrows):
                cj = counts[rows[j]][t]
                if j == i or cj == 0:
                    continue
                x = (cj - ci) / sigma
                a += 0.5 + 0.5 * x / (1.0 + (x if x > 0 else -x))
            pl = <int>a
            f = a - pl
            pts = 0.0
            if pl < 3:
                pts = (1.0 - f) * MAJORITY_POINTS[r][t][pl]
                if pl + 1 < 3:
                    pts += f * MAJORITY_POINTS[r][t][pl + 1]
            if rows[i] < MAX_PLAYERS:
                out[rows[i]] += w * pts


cdef void eval_values(GameState* s, int* walls, double* out) noexcept nogil:
    """Expected final points per seat (out[0..n-1]): the score so far, the majorities and outer walls of the
    rounds still to come (projected from the current cities, the coming round weighted most), a small value per
    building, the money held (worth less as the game nears its end), reserve tiles and a pending extra action.
    walls[i] < 0 means 'compute the wall score of seat i' (callers may pass cached values)."""
    cdef uint8_t counts[NROWS][NTYPES]
    cdef int i, t, r, n = s.num_players, money
    cdef double p = game_progress(s), d, wsum = 0.0, wall
    memcpy(counts, s.cities.type_count, sizeof(counts))
    if s.phase == PH_PLACE or s.phase == PH_FINAL:
        for i in range(s.npending):           # tiles to be placed count as built (they mostly will be)
            if TILE_TYPE[s.pending[i]] < NTYPES:
                counts[s.current][TILE_TYPE[s.pending[i]]] += 1
    for i in range(n):
        out[i] = s.score[i]
    for r in range(3):
        if s.scored & (1 << r):
            continue
        # how much of the game is still to come before round r is scored (rounds 1, 2 at about 30%, 65%)
        d = (0.3 if r == 0 else (0.65 if r == 1 else 1.0)) - p
        d = d if d > 0 else 0.0
        soft_majority(s, counts, r, EV_SIGMA0 + EV_SIGMA * d, 1.0, out)
        wsum += 1.0
    for i in range(n):
        wall = walls[i] if walls[i] >= 0 else city_wall_score(s.cities.city[i])
        out[i] += EV_WALL_W * wsum * wall
        for t in range(NTYPES):
            out[i] += counts[i][t] * (EV_BUILDING0 + EV_BUILDING * (t + 1) / 3.5)
        money = s.cur_sum[i][0] + s.cur_sum[i][1] + s.cur_sum[i][2] + s.cur_sum[i][3]
        out[i] += EV_MONEY * (1.0 - 0.6 * p) * money
        out[i] += EV_RESERVE * mask_count(s.cities.reserve[i])
        out[i] += market_reach(s, i)
    if s.phase == PH_ACTION and s.actions_taken > 0:
        out[s.current] += EV_EXTRA
    if s.options & MODULE_BITS:
        module_values(s, out)               # modules/evaluate.pxi


cdef inline double seat_margin(double* v, int n, int me) noexcept nogil:
    """v[me] minus the best other seat: what a seat maximizes."""
    cdef double best = -1e18
    cdef int i
    for i in range(n):
        if i != me and v[i] > best:
            best = v[i]
    return v[me] - best


cdef void rewards(GameState* s, double* out) noexcept nogil:
    """Per seat in [0, 1]: half the win share (final scores, or projected values when the game is not over),
    half a logistic of the margin over the best other seat."""
    cdef double v[MAX_PLAYERS]
    rewards_values(s, out, v)


cdef void rewards_values(GameState* s, double* out, double* v) noexcept nogil:
    """``rewards``, also leaving in ``v`` the points they were computed from (per seat: the final scores, or
    the evaluation's expected final points at a cut-off)."""
    cdef int walls[MAX_PLAYERS]
    cdef int i, n = s.num_players, nwin = 0
    cdef double best = -1e18
    if s.phase == PH_OVER:
        for i in range(n):
            v[i] = s.score[i]
    else:
        for i in range(n):
            walls[i] = -1
        eval_values(s, walls, v)
    for i in range(n):
        if v[i] > best + 1e-9:
            best = v[i]
            nwin = 1
        elif v[i] > best - 1e-9:
            nwin += 1
    for i in range(n):
        out[i] = 0.5 / (1.0 + exp(-seat_margin(v, n, i) / (EV_SCALE * 0.5)))
        if v[i] > best - 1e-9:
            out[i] += 0.5 / nwin


# ---------------------------------------------------------------- cheap action priors (rollouts, tree pruning)

cdef inline int _occ(CityGrid* c, int x, int y) noexcept nogil:
    if x < c.x0 or x > c.x1 or y < c.y0 or y > c.y1:
        return 0
    return c.occ[_cidx(c, x, y)]


cdef double tile_worth(GameState* s, int seat, int t) noexcept nogil:
    """Rough value in points of one more tile t in seat's city: more for valuable types and for types where the
    tile takes, keeps or ties the lead."""
    if TILE_TYPE[t] >= NTYPES:
        return module_tile_worth(s, seat, t)        # a module's tile: modules/evaluate.pxi
    cdef int ty = TILE_TYPE[t], mine = s.cities.type_count[seat][ty], other = 0, i
    cdef double w = ty + 1.0, v
    for i in range(s.num_players):
        if i != seat and s.cities.type_count[i][ty] > other:
            other = s.cities.type_count[i][ty]
    if s.options & OPT_DIRK and s.cities.type_count[DIRK][ty] > other:
        other = s.cities.type_count[DIRK][ty]
    v = 1.0 + 0.25 * w
    if mine + 1 > other:
        v += (0.5 if mine >= other else 0.7) * w    # taking the lead is worth more than extending it
    elif mine + 1 == other:
        v += 0.35 * w
    elif mine + 3 < other:
        v -= 0.5
    return v


cdef double cell_prior(CityGrid* c, int x, int y, int walls) noexcept nogil:
    """Cheap placement score: touching tiles is good, walls facing outwards are good, open sides facing
    outwards are bad (they cut the future outer wall)."""
    cdef int d, nb
    cdef double v = 0.0
    cdef int dx[4]
    cdef int dy[4]
    dx[0] = 0; dy[0] = 1; dx[1] = 1; dy[1] = 0; dx[2] = 0; dy[2] = -1; dx[3] = -1; dy[3] = 0
    for d in range(4):
        nb = _occ(c, x + dx[d], y + dy[d])
        if nb:
            v += 0.4
        elif walls & (1 << d):
            v += 0.6
        else:
            v -= 0.3
    return v


cdef double action_prior(GameState* s, int a) noexcept nogil:
    """Cheap score of an action for the seat to act (points-like scale; only the order matters)."""
    cdef int kind = a & 15, seat = s.current, i, m, total, k, v, t, cost
    cdef double val
    if kind == A_TAKE:
        m = (a >> 4) & 15
        total = 0
        for i in range(4):
            if m & (1 << i):
                total += card_value(s.display[i])
        return POL_MONEY * total
    if kind == A_BUY:
        k = (a >> 4) & 3
        t = s.market[k]
        total = code_coins(a, 6)       # coins (Change) pay like cards; overpaying brings some back
        for v in range(1, 10):
            total += v * pay_count(a >> 6, v)
        cost = TILE_COST[t]
        val = tile_worth(s, seat, t) + POL_MONEY * cost - POL_MONEY * total
        if s.options & OPT_CHANGE:
            val += POL_MONEY * ((total - cost) // 2)
        if total == cost:
            val += EV_EXTRA
        return val
    if kind == A_PLACE:
        t = code_tile(a)
        return 2.0 + cell_prior(s.cities.city[seat], cell_x(a), cell_y(a), tile_walls_now(s, t))
    if kind == A_BUILD:
        t = code_tile(a)
        return tile_worth(s, seat, t) - 1.5 + cell_prior(s.cities.city[seat], cell_x(a), cell_y(a), tile_walls_now(s, t))
    if kind == A_PLACE_RESERVE:
        return 0.0
    if kind == A_PLACE_DIRK:
        return -0.5
    if kind == A_SWAP:
        return -1.0
    if kind == A_REMOVE:
        return -2.0
    return module_action_prior(s, a)        # modules/evaluate.pxi


cdef int top_candidates(GameState* s, int* acts, int n, int k, double* pri) noexcept nogil:
    """Sort acts[0..n) by prior, best first (stable: ties keep the generator's order), keep the best k.
    pri receives the priors of the kept actions. Returns the new count."""
    cdef int i, j, a
    cdef double p
    for i in range(n):
        pri[i] = action_prior(s, acts[i])
    # insertion sort of the first k places is enough and stays cheap for the few hundred actions of a turn
    if k > n:
        k = n
    for i in range(k):
        j = i
        for a in range(i + 1, n):
            if pri[a] > pri[j]:
                j = a
        if j != i:
            a = acts[j]; p = pri[j]
            # shift to keep the order of the skipped ones (stability)
            while j > i:
                acts[j] = acts[j - 1]
                pri[j] = pri[j - 1]
                j -= 1
            acts[i] = a
            pri[i] = p
    return k


cdef int policy_buys(GameState* s, int* out) noexcept nogil:
    """Every minimal payment for every market slot of the seat to act (the buy actions gen_legal lists; kept
    here apart from gen_buy's memo and Change's coin payments, so the rollout does not depend on them)."""
    cdef int n = 0, k, cost, seat = s.current
    for k in range(NCUR):
        if s.market[k] == NO_TILE:
            continue
        cost = TILE_COST[s.market[k]]
        if s.cur_sum[seat][k] < cost:
            continue
        n = minimal_payments(&s.hand[seat][k * NVALUES], cost, A_BUY | (k << 4), out, n)
    return n


cdef int policy_action(GameState* s, Rng* r, int* buf, double eps, GenCache* gc) noexcept nogil:
    """The rollout policy: in the action phase only takes and buys are considered (best by prior, or a random
    one with probability eps); tiles are placed in the city at the best cheap-scored cell, else the reserve.
    gc: a GenCache kept in step with s (gen_cache_touch before every action), or NULL."""
    cdef int n, i, best = 0, seat = s.current
    cdef double b, v
    cdef CityGrid* c
    if s.phase == PH_ACTION:
        # takes and buys only: listing the rebuilds too (gen_legal) would cost a third of the speed
        n = gen_take(s, buf)
        n += policy_buys(s, buf + n)
        if n == 0:
            n = gen_legal_cached(s, gc, buf)
            return buf[rng_below(r, n)]
        if eps > 0 and rng_below(r, 1000) < <int>(eps * 1000):
            return buf[rng_below(r, n)]
        b = -1e18
        for i in range(n):
            v = action_prior(s, buf[i]) + rng_below(r, 100) * 1e-4
            if v > b:
                b = v
                best = i
        return buf[best]
    if s.phase == PH_INTERRUPT or s.phase >= PH_FALCONS:
        return module_policy(s, r, buf)     # modules/evaluate.pxi
    n = gen_legal_cached(s, gc, buf)    # the placements: the cached city view saves most of a rollout's time
    if s.phase == PH_PLACE or s.phase == PH_FINAL:
        c = s.cities.city[seat]
        b = -1e18
        for i in range(n):
            if (buf[i] & 15) == A_PLACE:
                v = cell_prior(c, cell_x(buf[i]), cell_y(buf[i]), tile_walls_now(s, code_tile(buf[i]))) \
                    + rng_below(r, 100) * 1e-3
            elif (buf[i] & 15) == A_PLACE_RESERVE:
                v = -5.0
            else:
                v = -6.0
            if v > b:
                b = v
                best = i
        return buf[best]
    return buf[0]


cdef int rollout(GameState* s, Rng* r, int max_turns, double eps, GenCache* gc) noexcept nogil:
    """Play the rollout policy until the game is over or max_turns turns were completed (max_turns < 0: to the
    end). Returns the number of actions played. gc: a GenCache kept in step with s, or NULL."""
    cdef int buf[MAX_LEGAL]
    cdef int n = 0, start = s.turn, a
    while s.phase != PH_OVER and (max_turns < 0 or s.turn - start < max_turns):
        a = policy_action(s, r, buf, eps, gc)
        if gc != NULL:
            gen_cache_touch(gc, s, a)
        apply_action(s, a, NULL)
        n += 1
    return n


# ---------------------------------------------------------------- one-ply greedy

cdef void apply_partial(GameState* s, int code) noexcept nogil:
    """apply_action without the end of the turn (no refills, no scoring, no next seat): what the seat's own
    action does (actions.pxi apply_effect). Comparing actions this way keeps the chance of the refills (and the
    scoring and Dirk's draws it may trigger) out of a one-ply comparison: every action is judged at the same
    moment. After an action that would end the turn, the state stays with the same seat, phase "action",
    actions_taken 0 (no extra action)."""
    cdef int follows = apply_effect(s, code)
    if follows == GOES_ON or follows == MODULE_ASKS:
        return                      # the extra action follows / the seat decides about its lifted disc
    if follows == TILE_PLACED and s.npending:
        return
    # the seat's actions are over: its pending tiles are placed next, else the turn ends here
    if s.npending:
        s.phase = PH_PLACE
    else:
        s.phase = PH_ACTION
        s.actions_taken = 0


cdef int greedy_choice(GameState* s, int* buf, double* vals) noexcept nogil:
    """The greedy policy of the seat to act: every legal action is applied to a copy (apply_partial: the turn's
    end is left out) and the result evaluated;
    the action with the best margin (own value minus the best other seat) wins, the first in generator order
    on ties. vals (MAX_LEGAL doubles or NULL) receives each action's margin. Returns the index in buf; buf holds
    the legal actions. Only the mover's city can change, so the other walls are computed once."""
    cdef GameState t
    cdef int n = gen_legal(s, buf), i, j, best = 0, me = s.current
    cdef int walls0[MAX_PLAYERS]
    cdef int walls[MAX_PLAYERS]
    cdef double v[MAX_PLAYERS]
    cdef double b = -1e18, m
    if n <= 1 and vals == NULL:
        return 0
    for j in range(s.num_players):
        walls0[j] = city_wall_score(s.cities.city[j])
    for i in range(n):
        state_copy(&t, s)
        apply_partial(&t, buf[i])
        for j in range(s.num_players):
            walls[j] = walls0[j] if t.cities.city[j] == s.cities.city[j] else -1
        eval_values(&t, walls, v)
        state_release(&t)
        m = seat_margin(v, s.num_players, me)
        if vals != NULL:
            vals[i] = m
        if m > b + 1e-9:
            b = m
            best = i
    return best


cdef double chance_leaf(GameState* s0, int action, Rng* r, int me, int lo1, int hi1, int lo2, int hi2) noexcept nogil:
    """One sample of an expectimax chance node: the hidden order is resampled, `action` applied, every seat
    plays the greedy policy (the opponent model; `me` too, for the rest of its own turn) until `me` starts its
    next turn or the game ends; returns me's evaluated margin."""
    cdef GameState s
    cdef int buf[MAX_LEGAL]
    cdef int turn0 = s0.turn, i
    cdef int walls[MAX_PLAYERS]
    cdef double v[MAX_PLAYERS]
    state_copy(&s, s0)
    hidden_resample(&s, r, lo1, hi1, lo2, hi2)
    secrets_resample(&s, me, r)
    apply_action(&s, action, NULL)
    while s.phase != PH_OVER and not (s.current == me and s.turn > turn0 and s.phase == PH_ACTION):
        i = greedy_choice(&s, buf, NULL)
        apply_action(&s, buf[i], NULL)
    if s.phase == PH_OVER:
        for i in range(s.num_players):
            v[i] = s.score[i]
    else:
        for i in range(s.num_players):
            walls[i] = -1
        eval_values(&s, walls, v)
    state_release(&s)
    return seat_margin(v, s0.num_players, me)


# ---------------------------------------------------------------- MCTS (open-loop information-set UCT)

cdef struct SNode:
    int action
    int child          # first child, -1 if none
    int sibling        # next sibling, -1 if none
    int visits
    int avail          # times the node's action was available when its parent was visited
    int mover          # seat that plays `action`
    double value       # sum of the mover's rewards


# ================================================================ Python API (used by alhambra_ai.bot.toolkit)

cdef uint64_t _seed64(seed) except? 0:
    """Any Python int as a 64-bit generator seed (reduced modulo 2**64: negative and huge seeds are fine)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"a seed is an int, not {type(seed).__name__}")
    return <uint64_t>(seed % (2 ** 64))

def search_weights(**kw):
    """Get (no arguments) or set the evaluation weights: money, reserve, extra, building, building0, wall."""
    global EV_MONEY, EV_RESERVE, EV_EXTRA, EV_BUILDING, EV_BUILDING0, EV_WALL_W, EV_EXACT, EV_AFFORD, EV_SIGMA0, EV_SIGMA
    for k, v in kw.items():
        if k == "money":
            EV_MONEY = v
        elif k == "reserve":
            EV_RESERVE = v
        elif k == "extra":
            EV_EXTRA = v
        elif k == "building":
            EV_BUILDING = v
        elif k == "building0":
            EV_BUILDING0 = v
        elif k == "wall":
            EV_WALL_W = v
        elif k == "sigma0":
            EV_SIGMA0 = v
        elif k == "sigma":
            EV_SIGMA = v
        elif k == "exact":
            EV_EXACT = v
        elif k == "afford":
            EV_AFFORD = v
        else:
            raise ValueError(f"unknown weight {k!r}")
    return {"money": EV_MONEY, "reserve": EV_RESERVE, "extra": EV_EXTRA, "building": EV_BUILDING,
            "building0": EV_BUILDING0, "wall": EV_WALL_W, "exact": EV_EXACT, "afford": EV_AFFORD,
            "sigma0": EV_SIGMA0, "sigma": EV_SIGMA}


def search_evaluate(State s):
    """Heuristic expected final points per seat (see eval_values)."""
    cdef double v[MAX_PLAYERS]
    cdef int walls[MAX_PLAYERS]
    cdef int i
    for i in range(MAX_PLAYERS):
        walls[i] = -1
    eval_values(&s.st, walls, v)
    return [v[i] for i in range(s.st.num_players)]


def search_rewards(State s):
    """Rollout rewards per seat in [0, 1] for a state (final or projected)."""
    cdef double v[MAX_PLAYERS]
    cdef int i
    rewards(&s.st, v)
    return [v[i] for i in range(s.st.num_players)]


def search_resample(State s, seed, ranges=((-1, -1), (-1, -1))):
    """Resample the hidden order of ``s`` in place (a determinized state -> another determinization).
    ``ranges``: per scoring card 1, 2 the (first, last) draw-pile index or (-1, -1) once drawn."""
    cdef Rng r
    rng_seed(&r, _seed64(seed))
    (lo1, hi1), (lo2, hi2) = ranges
    hidden_resample(&s.st, &r, lo1, hi1, lo2, hi2)


def search_rollout(State s, seed, int max_turns=-1, double eps=0.1):
    """Play the heuristic rollout policy on ``s`` in place; returns the number of actions."""
    cdef Rng r
    cdef GenCache* gc = gen_cache_new()
    if gc == NULL:
        raise MemoryError()
    rng_seed(&r, _seed64(seed))
    n = rollout(&s.st, &r, max_turns, eps, gc)
    free(gc)
    return n


def search_policy_action(State s, seed, double eps=0.0):
    """The rollout policy's action for the seat to act."""
    cdef Rng r
    cdef int buf[MAX_LEGAL]
    rng_seed(&r, _seed64(seed))
    if s.st.phase == PH_OVER:
        raise ValueError("the game is over")
    return policy_action(&s.st, &r, buf, eps, NULL)


def search_greedy(State s):
    """(best action, [(action, margin), ...] in generator order) of the one-ply greedy policy."""
    cdef int buf[MAX_LEGAL]
    cdef double vals[MAX_LEGAL]
    cdef int n, i, best
    if s.st.phase == PH_OVER:
        raise ValueError("the game is over")
    best = greedy_choice(&s.st, buf, vals)
    n = gen_legal(&s.st, buf)
    return buf[best], [(buf[i], vals[i]) for i in range(n)]


def search_priors(State s, int k=MAX_LEGAL):
    """The legal actions with their cheap priors, best first, at most k."""
    cdef int buf[MAX_LEGAL]
    cdef double pri[MAX_LEGAL]
    cdef int n = gen_legal(&s.st, buf), i
    n = top_candidates(&s.st, buf, n, k, pri)
    return [(buf[i], pri[i]) for i in range(n)]


def search_chance_leaf(State s, int action, seed, int me, ranges=((-1, -1), (-1, -1))):
    """One sample of an expectimax chance leaf (see chance_leaf): me's margin after the sampled continuation."""
    cdef Rng r
    rng_seed(&r, _seed64(seed))
    (lo1, hi1), (lo2, hi2) = ranges
    return chance_leaf(&s.st, action, &r, me, lo1, hi1, lo2, hi2)


cdef class Mcts:
    """Open-loop information-set MCTS over determinized states, compiled.

    Each iteration takes one of the given determinizations (round robin), resamples its hidden order
    (unless ``resample`` is off), descends the tree by UCB over the actions legal in that sample (the best
    ``widen(visits)`` actions by cheap prior: progressive widening), adds one node, plays the heuristic
    rollout until ``rollout_turns`` turns after the root's (-1: to the end of the game; the cut-off moves on by
    whole rounds of seats until it lies ahead, so the root's seat is always about to start a turn there) and
    scores the result (final scores, or at a cut-off the hand-written evaluation, or ``value``, a
    LearnedValue over the value features, evaluated in C); the per-seat rewards are backed up the
    path (each node keeps the reward of the seat that moved into it).

    >>> from alhambra_ai import new_game
    >>> m = Mcts([new_game(2, seed=1)], seed=3)
    >>> m.run(50, 0.0)
    50
    """
    cdef GameState* dets
    cdef int ndets
    cdef SNode* nodes
    cdef int nnodes, cap
    cdef Rng rng
    cdef public double c_uct
    cdef public int max_candidates
    cdef public int rollout_turns
    cdef public double eps
    cdef public bint resample
    cdef public int iterations
    cdef int ranges[4]
    cdef int root_turn        # the determinizations' turn counter (rollout cut-offs are counted from it)
    cdef int root_seat        # the seat searching (to act at the root): its own secrets are never resampled
    cdef int* root_acts       # the root's actions in a fixed order (e.g. by the greedy evaluation), or NULL
    cdef int root_n
    cdef GenCache* gc         # city views of the iteration's state (reset per iteration): placements listed fast
    cdef double* rmargin      # per node (root children only): sum of the root seat's margin in points ...
    cdef double* rwin         # ... and of its win share, at the end of each iteration through it (root_stats)
    cdef readonly object value  # the LearnedValue scoring the cut-off (alhambra/value.pxi), or None: eval_values
    cdef LVNet* net           # its model (NULL: the hand-written evaluation)

    def __cinit__(self):
        self.dets = NULL
        self.nodes = NULL
        self.ndets = 0
        self.root_acts = NULL
        self.root_n = 0
        self.gc = NULL
        self.rmargin = NULL
        self.rwin = NULL
        self.net = NULL

    def __init__(self, states, seed, double c_uct=0.7, int max_candidates=12, int rollout_turns=-1,
                 double eps=0.1, bint resample=True, ranges=((-1, -1), (-1, -1)), root_order=None,
                 value=None):
        cdef State st
        cdef int i
        states = list(states)
        if not states:
            raise ValueError("Mcts needs at least one determinized state")
        self.dets = <GameState*>calloc(len(states), sizeof(GameState))
        if self.dets == NULL:
            raise MemoryError()
        for i, st in enumerate(states):
            if st.st.phase == PH_OVER:
                raise ValueError("the game is over")
            state_copy(&self.dets[i], &st.st)
            self.ndets += 1
        self.root_turn = self.dets[0].turn
        self.root_seat = self.dets[0].current
        if value is not None:
            # the cut-off scored by a learned value, in C (no Python call per leaf); final scores stay exact
            if not isinstance(value, LearnedValue):
                raise TypeError(f"value is a LearnedValue or None, not {type(value).__name__}")
            (<LearnedValue>value).check("alhambra", self.dets[0].num_players)
            _av_check(&self.dets[0])
            if (<LearnedValue>value).width != av_width(self.dets[0].num_players,
                                                       self.dets[0].options & OPT_DIRK):
                raise ValueError("the learned value's features do not fit this game (Dirk on or off)")
            self.value = value
            self.net = &(<LearnedValue>value).net
        self.cap = 1024
        self.nodes = <SNode*>malloc(self.cap * sizeof(SNode))
        self.gc = gen_cache_new()
        self.rmargin = <double*>calloc(self.cap, sizeof(double))
        self.rwin = <double*>calloc(self.cap, sizeof(double))
        if self.nodes == NULL or self.gc == NULL or self.rmargin == NULL or self.rwin == NULL:
            raise MemoryError()
        self.nnodes = 1
        self.nodes[0].action = -1
        self.nodes[0].child = -1
        self.nodes[0].sibling = -1
        self.nodes[0].visits = 0
        self.nodes[0].avail = 0
        self.nodes[0].mover = -1
        self.nodes[0].value = 0
        rng_seed(&self.rng, _seed64(seed))
        self.c_uct = c_uct
        self.max_candidates = max_candidates
        self.rollout_turns = rollout_turns
        self.eps = eps
        self.resample = resample
        self.iterations = 0
        (self.ranges[0], self.ranges[1]), (self.ranges[2], self.ranges[3]) = ranges
        if root_order is not None:
            # the root's candidates in this order (best first) instead of the cheap priors: the root's legal
            # actions are the same in every determinization (they depend on public facts and the own hand)
            root_order = [int(a) for a in root_order]
            if not root_order:
                raise ValueError("root_order is empty")
            self.root_acts = <int*>malloc(len(root_order) * sizeof(int))
            if self.root_acts == NULL:
                raise MemoryError()
            for i, a in enumerate(root_order):
                self.root_acts[i] = a
            self.root_n = len(root_order)

    def __dealloc__(self):
        cdef int i
        if self.dets != NULL:
            for i in range(self.ndets):
                state_release(&self.dets[i])
            free(self.dets)
        free(self.nodes)
        free(self.root_acts)
        free(self.gc)
        free(self.rmargin)
        free(self.rwin)

    cdef int _add_child(self, int parent, int action, int mover) noexcept nogil:
        cdef SNode* p
        cdef double* q
        cdef int k
        if self.nnodes == self.cap:
            p = <SNode*>realloc(self.nodes, 2 * self.cap * sizeof(SNode))
            if p == NULL:
                return -1
            self.nodes = p
            q = <double*>realloc(self.rmargin, 2 * self.cap * sizeof(double))
            if q == NULL:
                return -1
            self.rmargin = q
            q = <double*>realloc(self.rwin, 2 * self.cap * sizeof(double))
            if q == NULL:
                return -1
            self.rwin = q
            self.cap *= 2
        k = self.nnodes
        self.rmargin[k] = 0
        self.rwin[k] = 0
        self.nnodes += 1
        self.nodes[k].action = action
        self.nodes[k].child = -1
        self.nodes[k].sibling = self.nodes[parent].child
        self.nodes[parent].child = k
        self.nodes[k].visits = 0
        self.nodes[k].avail = 1
        self.nodes[k].mover = mover
        self.nodes[k].value = 0
        return k

    cdef inline int _widen(self, int visits) noexcept nogil:
        cdef int k = 2 + <int>(1.5 * sqrt(visits + 1.0))
        return k if k < self.max_candidates else self.max_candidates

    cdef void _iterate(self, int* buf, double* pri) noexcept nogil:
        cdef GameState st
        cdef int path[MAX_PATH]
        cdef int plen = 0, node = 0, n, i, c, best, untried, mover, k
        cdef uint8_t mark[MAX_LEGAL]
        cdef double r[MAX_PLAYERS]
        cdef double vals[MAX_PLAYERS]
        cdef double m[MAX_PLAYERS]
        cdef double margin
        cdef double u, bu, lg
        cdef int end
        state_copy(&st, &self.dets[self.iterations % self.ndets])
        if self.resample:
            hidden_resample(&st, &self.rng, self.ranges[0], self.ranges[1], self.ranges[2], self.ranges[3])
            secrets_resample(&st, self.root_seat, &self.rng)
        gen_cache_reset(self.gc)
        while st.phase != PH_OVER and plen < MAX_PATH:
            if node == 0 and self.root_acts != NULL:
                n = self._widen(self.nodes[0].visits)
                n = n if n < self.root_n else self.root_n
                memcpy(buf, self.root_acts, n * sizeof(int))
            else:
                n = gen_legal_cached(&st, self.gc, buf)
                n = top_candidates(&st, buf, n, self._widen(self.nodes[node].visits), pri)
            for i in range(n):
                mark[i] = 0
            best = -1
            bu = -1e18
            lg = log(self.nodes[node].visits + 1.0)
            c = self.nodes[node].child
            while c >= 0:
                for i in range(n):
                    if buf[i] == self.nodes[c].action:
                        mark[i] = 1
                        self.nodes[c].avail += 1
                        u = self.nodes[c].value / self.nodes[c].visits \
                            + self.c_uct * sqrt(log(<double>self.nodes[c].avail) / self.nodes[c].visits)
                        if u > bu:
                            bu = u
                            best = c
                        break
                c = self.nodes[c].sibling
            untried = -1
            for i in range(n):
                if not mark[i]:
                    untried = i
                    break
            mover = st.current
            if untried >= 0:
                k = self._add_child(node, buf[untried], mover)
                gen_cache_touch(self.gc, &st, buf[untried])
                apply_action(&st, buf[untried], NULL)
                if k >= 0:
                    path[plen] = k
                    plen += 1
                break
            gen_cache_touch(self.gc, &st, self.nodes[best].action)
            apply_action(&st, self.nodes[best].action, NULL)
            node = best
            path[plen] = node
            plen += 1
        if self.rollout_turns < 0:
            rollout(&st, &self.rng, -1, self.eps, self.gc)
        else:
            # cut off at a turn where the root's seat is about to start a turn (the root's turn plus a multiple
            # of the seat count): every leaf is evaluated with each seat having had the same number of turns
            # since the root, so the evaluation never favours whoever happened to move last
            end = self.root_turn + self.rollout_turns
            while end <= st.turn:
                end += st.num_players
            rollout(&st, &self.rng, end - st.turn, self.eps, self.gc)
        if self.net != NULL and st.phase != PH_OVER:
            av_margins(self.net, &st, m)
            margin_rewards(m, st.num_players, r)
            for i in range(st.num_players):
                vals[i] = m[i]      # (the win share below: the seats of the highest margin, as in the rewards)
            margin = m[self.root_seat]
        else:
            rewards_values(&st, r, vals)
            margin = seat_margin(vals, st.num_players, self.root_seat)
        if plen > 0:          # path[0] is a child of the root: the root seat's margin and win share there
            self.rmargin[path[0]] += margin
            bu = -1e18
            k = 0
            for i in range(st.num_players):
                if vals[i] > bu + 1e-9:
                    bu = vals[i]
                    k = 1
                elif vals[i] > bu - 1e-9:
                    k += 1
            if vals[self.root_seat] > bu - 1e-9:
                self.rwin[path[0]] += 1.0 / k
        for i in range(plen):
            self.nodes[path[i]].visits += 1
            self.nodes[path[i]].value += r[self.nodes[path[i]].mover]
        self.nodes[0].visits += 1
        state_release(&st)
        self.iterations += 1

    cdef int _root_lead(self) noexcept nogil:
        """Visits of the root's most visited child minus those of the runner-up (0 with no child)."""
        cdef int c = self.nodes[0].child, v, first = 0, second = 0
        while c >= 0:
            v = self.nodes[c].visits
            if v > first:
                second = first
                first = v
            elif v > second:
                second = v
            c = self.nodes[c].sibling
        return first - second

    def run(self, int iterations, double deadline, bint stop_early=False):
        """Run up to ``iterations`` iterations (<= 0: no limit) and, if ``deadline`` > 0, stop once
        time.monotonic() passes it (checked every 4 iterations). Returns the iterations done by this call.

        ``stop_early``: also stop once the most visited root action can no longer be overtaken, since each
        iteration adds one visit to one root child: its lead exceeds the iterations left (with an iteration
        budget the move is then exactly the one the full budget would choose), or, with a deadline, the
        iterations the rate so far buys in the time left (plus a quarter for safety)."""
        cdef int done = 0
        cdef double start = now_monotonic(), now, left
        cdef int* buf = <int*>malloc(MAX_LEGAL * sizeof(int))
        cdef double* pri = <double*>malloc(MAX_LEGAL * sizeof(double))
        if buf == NULL or pri == NULL:
            free(buf)
            free(pri)
            raise MemoryError()
        with nogil:
            while iterations <= 0 or done < iterations:
                if (done & 3) == 0:
                    left = iterations - done if iterations > 0 else -1  # iterations left; -1: unknown yet
                    if deadline > 0:
                        now = now_monotonic()
                        if now >= deadline:
                            break
                        if iterations <= 0 and done >= 64:
                            left = 1.25 * done * (deadline - now) / (now - start + 1e-9)
                    if stop_early and left >= 0 and self._root_lead() > left:
                        break
                self._iterate(buf, pri)
                done += 1
        free(buf)
        free(pri)
        return done

    def root_children(self):
        """[(action, visits, mean reward of the mover)] of the root's children, most visited first."""
        out = []
        c = self.nodes[0].child
        while c >= 0:
            n = self.nodes[c]
            out.append((n["action"], n["visits"], n["value"] / n["visits"] if n["visits"] else 0.0))
            c = n["sibling"]
        out.sort(key=lambda e: (-e[1], -e[2], e[0]))
        return out

    def root_stats(self):
        """[(action, visits, mean reward, mean margin, mean win share)] of the root's children, ordered as
        ``root_children``. The margin is the root seat's points minus the best other seat's at the end of
        each iteration through the child (the final scores, or the evaluation's expected final points at
        the rollout's cut-off), the win share 1/k when the root seat is one of k seats level in first place
        there, else 0: the two halves of the reward, kept apart (alhambra_ai.analysis reads them)."""
        out = []
        c = self.nodes[0].child
        while c >= 0:
            n = self.nodes[c]
            v = n["visits"]
            out.append((n["action"], v, n["value"] / v if v else 0.0, self.rmargin[c] / v if v else 0.0,
                        self.rwin[c] / v if v else 0.0))
            c = n["sibling"]
        out.sort(key=lambda e: (-e[1], -e[2], e[0]))
        return out

    @property
    def num_nodes(self):
        return self.nnodes


def _search_policy_buys(State s):
    """(test hook) The buys the rollout policy lists itself; they equal the buys in legal_actions()."""
    cdef int buf[256]
    cdef int n = policy_buys(&s.st, buf), i
    return [buf[i] for i in range(n)]


def _search_rollout_actions(State s, seed, int max_turns=-1, double eps=0.1):
    """(test hook) The actions the rollout policy plays from a copy of ``s`` with a GenCache (as in Mcts),
    for replaying them through the checked ``State.apply``."""
    cdef GameState g
    cdef Rng r
    cdef int buf[MAX_LEGAL]
    cdef int a, start
    cdef GenCache* gc = gen_cache_new()
    if gc == NULL:
        raise MemoryError()
    state_copy(&g, &s.st)
    rng_seed(&r, _seed64(seed))
    start = g.turn
    out = []
    while g.phase != PH_OVER and (max_turns < 0 or g.turn - start < max_turns):
        a = policy_action(&g, &r, buf, eps, gc)
        out.append(a)
        gen_cache_touch(gc, &g, a)
        apply_action(&g, a, NULL)
    state_release(&g)
    free(gc)
    return out


def _search_apply_partial(State s, int action):
    """(test hook) A clone with ``action`` applied by apply_partial (the turn's end left out)."""
    cdef State c = s.clone()
    apply_partial(&c.st, action)
    return c


include "modules/evaluate.pxi"
