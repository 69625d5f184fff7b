# The modules of the base game (rules.md §9.0-9.8): one line each, with its option bit, its name and the hooks
# it declares (NULL where it has none). The shared parts (setup_game, scoring, action check / apply / what
# follows, the modules' phases, the census, evaluation, determinization; the observation's and the position's
# "modules" object and State.from_setup's keywords: seen / put / canonical / from_setup) loop over this table
# for the modules whose bit is on (the JSON hooks and the census also for those off), and name no module
# (tests/core/test_core_layers.py checks it); the hooks every module on answers in turn are called directly,
# written from this table at build time (dispatch.py). Every line names every field (NULL where the module
# has none): a field a struct literal leaves out is not zeroed.
#
# The order of the lines is the order of their effects wherever several modules act: the tiles the setup adds
# to the bag (camps before bazaars), the actions of a shared phase (the window's: vizier before thief), the
# evaluation's sum (a double: its order is part of the result), the determinization's draws (thief before
# residents), the keys of the "modules" object (JSON objects are unordered: only the text's order) and the
# order of their checks (which message a position with several faults gets). A new module's line goes last.
#
# The random player's counted segments (modules/sample.pxi) name their modules directly instead: a hot path
# (docs/design.md "Adding a game, adding a module").

include "camps.pxi"
include "vizier.pxi"


ctypedef void (*setup_fn)(GameState*) noexcept nogil
ctypedef int (*points_fn)(GameState*, int, int) noexcept nogil
ctypedef int (*census_fn)(GameState*, char*) noexcept nogil
ctypedef void (*values_fn)(GameState*, int, int, double, double*) noexcept nogil
ctypedef double (*prior_fn)(GameState*, int) noexcept nogil
ctypedef double (*worth_fn)(GameState*, int, int) noexcept nogil
ctypedef void (*resample_fn)(GameState*, int, Rng*) noexcept nogil
ctypedef int (*code_fn)(GameState*, int) noexcept nogil
ctypedef bint (*follows_fn)(GameState*, int, EventLog*) noexcept nogil
ctypedef bint (*turn_end_fn)(GameState*) noexcept nogil
ctypedef int (*piles_fn)(GameState*, int, int, int, uint8_t*) noexcept nogil
ctypedef int (*phase_fn)(GameState*, int*, BuyMemo*) noexcept nogil
ctypedef bint (*placed_fn)(GameState*, int, int, int, int) noexcept nogil
ctypedef void (*removed_fn)(GameState*, int, int, int, int) noexcept nogil
ctypedef int (*legal_fn)(GameState*, GenCache*, int*) noexcept nogil
ctypedef uint32_t (*seats_fn)(GameState*) noexcept nogil
ctypedef bint (*asks_fn)(GameState*, int) noexcept nogil
ctypedef int (*action_fn)(GameState*, int*, int, int*, BuyMemo*, GenCache*) noexcept nogil
ctypedef void (*log_fn)(GameState*, int, uint8_t*, EventLog*) noexcept nogil
ctypedef str (*text_fn)(GameState*, int)
ctypedef int (*parse_fn)(GameState*, str, list) except -1
cdef enum:                    # the steps of the canonical and from_setup hooks
    CANON_PILE = 0
    CANON_TILES = 1
    CANON_SECRETS = 2
    SETUP_TILES = 0
    SETUP_PILE = 1
    SETUP_END = 2

ctypedef int (*seen_fn)(GameState*, object, int, dict) except -1
ctypedef int (*put_fn)(GameState*, dict, bint, object) except -1
ctypedef object (*canonical_fn)(object, uint32_t, bint, int, object)
ctypedef int (*from_setup_fn)(GameState*, int, dict, dict) except -1


cdef struct ModuleHooks:
    uint32_t bit                # its OPT_* bit
    const char* name            # its name in the options (MODULE_OPTIONS)
    # what it adds to the game's vocabulary (codes, tiles, phases, score columns)
    uint32_t kinds              # the action kinds it owns (1 << kind; A_EXT: by sub-kind, `subs`)
    uint32_t subs               # the A_EXT sub-kinds it owns (1 << sub)
    uint32_t phases             # the phases it owns (1 << PH_*): its codes there, and "done" (apply)
    uint32_t closed             # those of its phases that list no "done"
    int tile_kind               # the TILE_KIND of the tiles it brings (0: none)
    int column                  # its score_breakdown column (BD_*), -1: none
    int window                  # its place among those the interrupt window asks about a seat (1 first; 0: it
                                # does not act there): window_seats, window_asks, and its gen_phase there
    # text forms (Python level: action_to_text, parse_action)
    const char* verbs           # the first words of its action texts, space separated (NULL: none)
    int verbs_at                # their place in the verbs an unknown verb's message lists (_VERBS_KNOWN)
    text_fn text                # the text of a code it owns (ValueError when it cannot be rendered)
    parse_fn parse              # the code of a text whose first word is one of its verbs (args: the others)
    # JSON (Python level): its keys of the "modules" object of observations and positions (observe.pxi writes
    # the window's "window_order" first, modules/window.pxi, then the modules' keys in the table's order) and
    # its State.from_setup keywords (setup_py.pxi)
    uint32_t json_with          # the option bits with which its keys are there: its own, or more when it shares
                                # them with another module (null or absent while it is off); MODULE_BITS: always
    seen_fn seen                # writes its keys into the dict (the State st for its accessors; seat: whose
                                # secrets, -1 for a position: every seat's); run when the game has a bit of
                                # json_with, whether or not it is on (off: its keys' values then, or none)
    put_fn put                  # reads and checks its keys of a position into s (PositionError); run in every
                                # game, on or off (shown: the game has a bit of json_with, so its keys belong
                                # there; off, they must be null); put_tile(t, place) claims a tile
    canonical_fn canonical      # position_from_observation (the observation's "modules", option bits, shown,
                                # step, arg), in every game, on or off, at CANON_PILE: its unseen draw-pile
                                # cards, [(what, first, last, [texts])] laid from the top of each range;
                                # CANON_TILES: the tiles it shows, arg = see(tiles, place); CANON_SECRETS (only
                                # when shown): arg = (the new "modules" so far, n, seat, phase), returns its copy
                                # with the others' secrets in a canonical order (None: unchanged)
    from_setup_fn from_setup    # State.from_setup: its keywords (in the dict; the second dict: per_seat,
                                # take_tile, pile, pile_given), on or off (off: it refuses them), at SETUP_TILES
                                # (after the reserves), SETUP_PILE (the draw pile, given or made: its cards),
                                # SETUP_END (after the turn)
    # setup_game
    setup_fn setup              # before the tiles are shuffled: its tiles into the bag, its supplies
    piles_fn piles              # its cards into the draw pile: before the piles are laid (k = -1), then after
                                # pile k (0..4, from start to pos; 16 bytes of its own kept between the calls)
                                # returns the pile's new end
    setup_fn setup_end          # after the rest of the setup (its chance after the base game's)
    # actions
    code_fn check               # check_action for its codes in the action phase and for every code in its
                                # phases: an E_* code, or -1 when the code is none of its business
    code_fn apply               # apply_effect for its codes (and "done" in its phases): what follows
    follows_fn follows          # what follows (apply_action): 1 if the answer was its, else 0
    turn_end_fn turn_end        # the turn (or a vizier's placement) is about to end: 1 when its phase asks first
    phase_fn gen_phase          # the legal actions of its part of the phase to act in (no "done")
    legal_fn gen_legal          # lists every legal action itself (gen_legal_cached hands over to it)
    int action_at               # the place of its actions among the modules' ones of the action phase (1, 2, ..:
                                # the list after take and buy; 0: none)
    seats_fn window_seats       # the interrupt window: the seats (bits) it may let act, its cheap test ...
    asks_fn window_asks         # ... and whether one of them can act now (0: it is not asked again this window)
    action_fn gen_action        # its actions of the action phase (out, how many the list holds before them,
                                # counted_at: NULL, or where the random player, who counts this module's
                                # actions instead of listing them, is told their place; memo, gc: or NULL)
    placed_fn placed            # a tile was placed / built at (x, y): 1 when its phase starts there
    removed_fn removed          # a tile left the city at (x, y) (removed, swapped out)
    log_fn log_before           # apply_action with an EventLog: what to remember before the effect ...
    log_fn log_after            # ... and the public events it logs after it
    # scoring and the test hook
    points_fn points            # its points of a scoring round (seat, round 0..2), in its column
    census_fn census            # its part of the invariants (modules/checks.pxi); run whether or not it is
                                # on: off, nothing of it may be in the game
    # search
    values_fn values            # its expected points per seat (seat, rounds left, game progress, out)
    prior_fn prior              # the cheap prior of its codes
    worth_fn tile_worth         # what one of its tiles may add to a seat's points
    resample_fn resample        # determinization: deal anew what the seat cannot see of it


cdef ModuleHooks MODULES_TABLE[NMODULES]
MODULES_TABLE[:] = [
    ModuleHooks(bit=OPT_CAMPS, name=b"camps", kinds=0, subs=0, phases=0, closed=0, tile_kind=KIND_CAMP,
                column=BD_CAMPS, window=0,
                verbs=NULL, verbs_at=0, text=NULL, parse=NULL,
                json_with=MODULE_BITS, seen=camps_seen, put=NULL, canonical=NULL, from_setup=NULL,
                setup=camps_setup, piles=NULL, setup_end=NULL,
                check=NULL, apply=NULL, follows=NULL, turn_end=NULL, gen_phase=NULL, gen_legal=gen_legal_camps,
                window_seats=NULL, window_asks=NULL,
                action_at=0, gen_action=NULL,
                placed=NULL, removed=NULL, log_before=NULL, log_after=NULL,
                points=camps_points, census=NULL,
                values=camps_values, prior=NULL, tile_worth=camps_tile_worth, resample=NULL),

    ModuleHooks(bit=OPT_BAZAARS, name=b"bazaars", kinds=1 << A_BAZAAR, subs=0, phases=0, closed=0,
                tile_kind=KIND_BAZAAR, column=BD_BAZAARS, window=0,
                verbs=b"bazaar", verbs_at=1, text=bazaars_text, parse=bazaars_parse,
                json_with=MODULE_BITS, seen=bazaars_seen, put=bazaars_put, canonical=bazaars_canonical,
                from_setup=bazaars_from_setup,
                setup=bazaars_setup, piles=NULL, setup_end=NULL,
                check=bazaars_check, apply=bazaars_apply, follows=NULL, turn_end=NULL, gen_phase=NULL,
                gen_legal=NULL,
                window_seats=NULL, window_asks=NULL,
                action_at=1, gen_action=bazaars_gen_action,
                placed=NULL, removed=NULL, log_before=NULL, log_after=NULL,
                points=bazaars_points, census=NULL,
                values=bazaars_values, prior=bazaars_prior, tile_worth=bazaars_tile_worth, resample=NULL),

    ModuleHooks(bit=OPT_FALCONS, name=b"falcons", kinds=1 << A_FALCON, subs=0, phases=1 << PH_FALCONS, closed=0,
                tile_kind=0, column=BD_FALCONS, window=0,
                verbs=b"falcon", verbs_at=4, text=falcons_text, parse=falcons_parse,
                json_with=MODULE_BITS, seen=falcons_seen, put=falcons_put, canonical=NULL,
                from_setup=falcons_from_setup,
                setup=NULL, piles=NULL, setup_end=NULL,
                check=falcons_check, apply=falcons_apply, follows=NULL, turn_end=NULL, gen_phase=falcons_gen_phase,
                gen_legal=NULL,
                window_seats=NULL, window_asks=NULL,
                action_at=3, gen_action=falcons_gen_action,
                placed=NULL, removed=falcons_removed, log_before=NULL, log_after=NULL,
                points=falcon_points, census=falcons_census,
                values=falcons_values, prior=falcons_prior, tile_worth=NULL, resample=NULL),

    ModuleHooks(bit=OPT_VIZIER, name=b"vizier", kinds=1 << A_WAKE, subs=0, phases=0, closed=0, tile_kind=0,
                column=-1, window=2,
                verbs=b"wake", verbs_at=2, text=vizier_text, parse=vizier_parse,
                json_with=MODULE_BITS, seen=vizier_seen, put=vizier_put, canonical=NULL, from_setup=vizier_from_setup,
                setup=vizier_setup, piles=NULL, setup_end=NULL,
                check=vizier_check, apply=vizier_apply, follows=NULL, turn_end=NULL, gen_phase=vizier_gen_phase,
                gen_legal=NULL,
                window_seats=vizier_window_seats, window_asks=vizier_window_asks,
                action_at=2, gen_action=vizier_gen_action,
                placed=NULL, removed=NULL, log_before=NULL, log_after=NULL,
                points=NULL, census=vizier_census,
                values=vizier_values, prior=vizier_prior, tile_worth=NULL, resample=NULL),

    ModuleHooks(bit=OPT_CHANGE, name=b"change", kinds=0, subs=0, phases=0, closed=0, tile_kind=0, column=-1,
                window=0,
                verbs=NULL, verbs_at=0, text=NULL, parse=NULL,
                json_with=OPT_CHANGE | OPT_WALLS, seen=change_seen, put=change_put, canonical=NULL,
                from_setup=change_from_setup,
                setup=change_setup, piles=NULL, setup_end=NULL,
                check=NULL, apply=NULL, follows=NULL, turn_end=NULL, gen_phase=NULL, gen_legal=NULL,
                window_seats=NULL, window_asks=NULL,
                action_at=0, gen_action=NULL,
                placed=NULL, removed=NULL, log_before=change_log_before, log_after=change_log_after,
                points=NULL, census=change_census,
                values=change_values, prior=NULL, tile_worth=NULL, resample=NULL),

    ModuleHooks(bit=OPT_THIEF, name=b"thief", kinds=1 << A_THIEF, subs=0, phases=0, closed=0, tile_kind=0,
                column=-1, window=1,
                verbs=b"thief", verbs_at=6, text=thief_text, parse=thief_parse,
                json_with=OPT_THIEF | OPT_RESIDENTS, seen=thief_seen, put=thief_put, canonical=thief_canonical,
                from_setup=thief_from_setup,
                setup=NULL, piles=NULL, setup_end=thief_setup,
                check=thief_check, apply=thief_apply, follows=thief_follows, turn_end=NULL,
                gen_phase=thief_gen_phase, gen_legal=NULL,
                window_seats=thief_window_seats, window_asks=thief_window_asks,
                action_at=0, gen_action=NULL,
                placed=NULL, removed=NULL, log_before=NULL, log_after=NULL,
                points=NULL, census=thief_census,
                values=thief_values, prior=thief_prior, tile_worth=NULL, resample=thief_resample),

    ModuleHooks(bit=OPT_WALLS, name=b"walls", kinds=0, subs=1 << SUB_WALL, phases=0, closed=0, tile_kind=0,
                column=-1, window=0,
                verbs=b"wall", verbs_at=5, text=walls_text, parse=walls_parse,
                json_with=OPT_CHANGE | OPT_WALLS, seen=walls_seen, put=walls_put, canonical=walls_canonical,
                from_setup=walls_from_setup,
                setup=NULL, piles=walls_piles, setup_end=NULL,
                check=walls_check, apply=walls_apply, follows=NULL, turn_end=NULL, gen_phase=NULL, gen_legal=NULL,
                window_seats=NULL, window_asks=NULL,
                action_at=4, gen_action=walls_gen_action,
                placed=NULL, removed=NULL, log_before=NULL, log_after=NULL,
                points=NULL, census=walls_census,
                values=NULL, prior=walls_prior, tile_worth=NULL, resample=NULL),

    ModuleHooks(bit=OPT_RESIDENTS, name=b"residents", kinds=0, subs=RESIDENTS_SUBS, phases=RESIDENTS_PHASES,
                closed=(1 << PH_DISC) | (1 << PH_FIGURES), tile_kind=0, column=BD_RESIDENTS, window=0,
                verbs=b"resident exchange disc figures", verbs_at=7, text=residents_code_text,
                parse=residents_parse,
                json_with=OPT_THIEF | OPT_RESIDENTS, seen=residents_seen, put=residents_put,
                canonical=residents_canonical, from_setup=residents_from_setup,
                setup=NULL, piles=NULL, setup_end=residents_setup,
                check=residents_check, apply=residents_apply, follows=residents_follows,
                turn_end=residents_turn_end, gen_phase=residents_gen_phase, gen_legal=NULL,
                window_seats=NULL, window_asks=NULL,
                action_at=0, gen_action=NULL,
                placed=residents_placed, removed=residents_removed, log_before=NULL, log_after=NULL,
                points=residents_points, census=residents_census,
                values=residents_values, prior=residents_prior, tile_worth=NULL, resample=disc_resample),
]


# ---------------------------------------------------------------- what the table tells at a glance (import time)

cdef ModuleHooks* KIND_OWNER[16]      # per action kind: the module owning its codes (A_EXT: SUB_OWNER)
cdef ModuleHooks* SUB_OWNER[16]       # per A_EXT sub-kind
cdef ModuleHooks* PHASE_OWNER[16]     # per phase: the module owning it (NULL: the base game's, the window)
cdef uint32_t TILE_KIND_BIT[256]      # per TILE_KIND: the bit of the module bringing such tiles (0: none)
cdef uint32_t CLOSED_PHASES = 0       # phases whose lists end without "done"
cdef uint32_t LEGAL_BITS = 0          # modules listing every legal action themselves, and those logging
cdef uint32_t LOG_BITS = 0            # events: a test of one word skips the path out of line
cdef uint32_t WINDOW_BITS = 0         # the modules the interrupt window asks (finish_turn opens it)


cdef uint32_t GEN_PHASES[NMODULES]   # per line: the phases whose actions its gen_phase lists (its own; the
                                      # window's, if it acts there)


cdef void _read_table() noexcept nogil:
    global CLOSED_PHASES, LEGAL_BITS, LOG_BITS, WINDOW_BITS
    cdef int i, k
    cdef ModuleHooks* m
    for k in range(16):
        KIND_OWNER[k] = SUB_OWNER[k] = PHASE_OWNER[k] = NULL
    for k in range(256):
        TILE_KIND_BIT[k] = 0
    for i in range(NMODULES):
        m = &MODULES_TABLE[i]
        for k in range(16):
            if (m.kinds >> k) & 1:
                KIND_OWNER[k] = m
            if (m.subs >> k) & 1:
                SUB_OWNER[k] = m
            if (m.phases >> k) & 1:
                PHASE_OWNER[k] = m
        if m.tile_kind:
            TILE_KIND_BIT[m.tile_kind] = m.bit
        CLOSED_PHASES |= m.closed
        LEGAL_BITS |= m.bit if m.gen_legal != NULL else 0
        LOG_BITS |= m.bit if m.log_before != NULL else 0
        WINDOW_BITS |= m.bit if m.window else 0
        GEN_PHASES[i] = 0
        if m.gen_phase != NULL:
            GEN_PHASES[i] = m.phases | ((1 << PH_INTERRUPT) if m.window else 0)

_read_table()


# parse_action's verbs: each module's, to its line (by index); and the list of every verb an unknown verb's
# message gives: the base game's first, then the modules' in the order of their `verbs_at`, "done" (the
# base game's, the window's and the falcons') at 3, as they were listed before the modules had a table
cdef list _verb_list = [(0, "take, buy, place, build, remove, swap, pass"), (3, "done")]
_VERB_OWNER = {}
for _i in range(NMODULES):
    if MODULES_TABLE[_i].verbs != NULL:
        for _v in MODULES_TABLE[_i].verbs.decode().split():
            _VERB_OWNER[_v] = _i
        _verb_list.append((MODULES_TABLE[_i].verbs_at, ", ".join(MODULES_TABLE[_i].verbs.decode().split())))
_VERBS_KNOWN = ", ".join(v for _, v in sorted(_verb_list, key=lambda e: e[0]))
del _i, _v


cdef list _by_bit():
    return sorted((MODULES_TABLE[i].bit, MODULES_TABLE[i].name.decode(), MODULES_TABLE[i].column)
                  for i in range(NMODULES))


# the modules with their option bits (rules.md §9.1-9.8), in the order of the bits (the rulebook's)
MODULES = {name: bit for bit, name, _ in _by_bit()}
MODULE_OPTIONS = tuple(MODULES)
# the score_breakdown columns of the modules that score: (name, BD_* column, bit), in column order
_SCORE_COLUMNS = sorted([(name, col, bit) for bit, name, col in _by_bit() if col >= 0], key=lambda e: e[1])


cdef inline ModuleHooks* code_owner(int code) noexcept nogil:
    """The module owning an action code (by kind; A_EXT by sub-kind), or NULL."""
    if (code & 15) == A_EXT:
        return SUB_OWNER[(code >> 4) & 15]
    return KIND_OWNER[code & 15]


# the hooks every module on answers in turn (setup, piles, what follows, placed / removed tiles, the logs, the
# phases' actions, values, resampling): direct calls written from this table at build time (dispatch.py)
include "dispatch.pxi"
