# The Thief's and the Residents' information (rules.md §8, §9.6, §9.8): what a seat sees of them and how
# positions carry them (included by observe.pxi); determinize samples what a seat cannot see through each
# module's resample hook (thief.pxi, residents.pxi), called in the table's order by module_resample
# (modules/dispatch.py).
#
# Public: how many thief cards each seat holds, the thieves played (per currency), the supply, the residents,
# where each disc lies, and per disc the figures everyone saw arrive from the supply ("seen"), how many of the
# secret first choice are still on it ("hidden") and which types of that choice have left ("gone").
# Secret: the currencies of the thief cards in each hand and of those out of the game; the hidden figures.
# A seat's observation adds its own thieves ("thieves") and disc ("disc"); a position holds every secret
# ("thief_hands", "thieves_out", "disc_figures").

import itertools


cdef list _letters(uint8_t* per_cur):
    cdef int k, i
    return [CURRENCY_LETTERS[k] for k in range(NCUR) for i in range(per_cur[k])]


cdef list _type_list(uint8_t* per_type):
    cdef int t, i
    return [TYPE_NAMES[t] for t in range(NTYPES) for i in range(per_type[t])]


cdef dict thief_residents_seen(State st, int seat):
    """The Thief's and the Residents' part of "modules": public facts, plus the secrets of ``seat`` (an
    observation) or of every seat (seat = -1: a position)."""
    cdef GameState* s = &st.st
    cdef int n = s.num_players, p
    cdef bint thief = s.options & OPT_THIEF, res = s.options & OPT_RESIDENTS
    out = {
        "thief_counts": [thief_count(s, p) for p in range(n)] if thief else None,
        "thieves_played": _letters(s.thief_used) if thief else None,
        "supply": [s.supply[p] for p in range(NTYPES)] if res else None,
        "residents": [st.residents(p) for p in range(n)] if res else None,
        "discs": [{"cell": st.disc_cell(p), "seen": _type_list(s.disc_seen[p]), "hidden": s.disc_hidden[p],
                   "gone": [TYPE_NAMES[k] for k in range(NTYPES) if (s.disc_gone[p] >> k) & 1]}
                  for p in range(n)] if res else None,
        "lifted": {"tile": s.res_tile, "resume": PHASE_NAMES[s.res_phase]} if s.phase == PH_RESIDENT else None,
        "setup_left": s.setup_left if res else None,
    }
    if seat >= 0:
        out["thieves"] = _letters(s.thief[seat]) if thief else None
        out["disc"] = _type_list(s.disc[seat]) if res else None
    else:
        out["thief_hands"] = [_letters(s.thief[p]) for p in range(n)] if thief else None
        out["thieves_out"] = _letters(s.thief_out) if thief else None
        out["disc_figures"] = [_type_list(s.disc[p]) for p in range(n)] if res else None
    return out


cdef list history_seen(State st, int seat):
    """The history as ``seat`` sees it: another seat's ``figures`` line (setup, Residents) without the types.
    Setup lines come before the first turn's first action, where the scan stops."""
    h = st.history
    if not st.st.options & OPT_RESIDENTS:
        return h
    mine = f"seat {seat + 1}: "
    out = None
    for i, line in enumerate(h):
        if line.startswith("seat ") and ": " in line and " dealt: " not in line:
            verb = line.partition(": ")[2].partition(" ")[0]
            if verb == "figures" and not line.startswith(mine):
                if out is None:
                    out = list(h)
                out[i] = line.partition(": ")[0] + ": figures (secret)"
            elif verb != "figures" and verb != "disc":
                break
    return h if out is None else out


cdef _letters_put(uint8_t* per_cur, object v, str what):
    for w in _as_list(v, what):
        if not isinstance(w, str) or len(w) != 1 or w not in CURRENCY_LETTERS:
            raise PositionError(f"{what}: a thief card is a currency letter (y, g, b, o), not {w!r}")
        per_cur[CURRENCY_LETTERS.index(w)] += 1


cdef _types_put(uint8_t* per_type, object v, str what):
    for w in _as_list(v, what):
        if w not in TYPE_NAMES:
            raise PositionError(f"{what}: a figure is a building type ({', '.join(TYPE_NAMES)}), not {w!r}")
        per_type[TYPE_NAMES.index(w)] += 1


cdef thief_residents_put(GameState* s, dict m, uint32_t bits, int n):
    """Read the Thief's and the Residents' part of a position's "modules" into s, with its census (3 thieves
    per currency; 7 figures per type; each disc's public knowledge fitting its figures)."""
    cdef int p, k, t, total
    cdef uint8_t res_types[NTYPES]
    for name, bit in (("thief_hands", OPT_THIEF), ("thieves_out", OPT_THIEF), ("thieves_played", OPT_THIEF),
                      ("supply", OPT_RESIDENTS), ("residents", OPT_RESIDENTS), ("discs", OPT_RESIDENTS),
                      ("disc_figures", OPT_RESIDENTS)):
        if (m.get(name) is not None) != bool(bits & bit):
            raise PositionError(f"modules.{name} must be " + ("given" if bits & bit else "null") +
                                " in this game")
    if bits & OPT_THIEF:
        for p, hand in enumerate(_as_list(m["thief_hands"], "modules.thief_hands", n)):
            _letters_put(s.thief[p], hand, f"modules.thief_hands[{p}]")
        _letters_put(s.thief_out, m["thieves_out"], "modules.thieves_out")
        _letters_put(s.thief_used, m["thieves_played"], "modules.thieves_played")
        for k in range(NCUR):
            total = s.thief_out[k] + s.thief_used[k]
            for p in range(n):
                total += s.thief[p][k]
            if total != NTHIEVES:
                raise PositionError(f"thief cards of {CURRENCY_NAMES[k]}: {total}, the game has {NTHIEVES}")
        thief_recount(s)
    if not bits & OPT_RESIDENTS:
        return
    supply = _as_list(m["supply"], "modules.supply", NTYPES)
    for t in range(NTYPES):
        s.supply[t] = _as_int(supply[t], "modules.supply", 0, NFIGURES)
        res_types[t] = 0
    for p, tiles in enumerate(_as_list(m["residents"], "modules.residents", n)):
        for t in _as_list(tiles, f"modules.residents[{p}]"):
            if isinstance(t, bool) or not isinstance(t, int) or not 1 <= t <= NBUILDINGS \
                    or not city_holds(s.cities.city[p], t) or mask_has(s.residents[p], t):
                raise PositionError(f"modules.residents[{p}]: {t!r} is no building of that city (or twice)")
            mask_set(s.residents[p], t)
            res_types[TILE_TYPE[t]] += 1
    s.setup_left = _as_int(m.get("setup_left") or 0, "modules.setup_left", 0, n)   # (older positions: 0)
    if s.setup_left and (s.phase != PH_FIGURES and s.phase != PH_DISC or s.turn or
                         s.current != (s.start_player + n - s.setup_left) % n):
        raise PositionError("modules.setup_left: discs are set up at the start, in the phases \"figures\" and "
                            "\"disc\", seat by seat from the start player on")
    figures = _as_list(m["disc_figures"], "modules.disc_figures", n)
    for p, d in enumerate(_as_list(m["discs"], "modules.discs", n)):
        what = f"modules.discs[{p}]"
        if not isinstance(d, dict) or set(d) != {"cell", "seen", "hidden", "gone"}:
            raise PositionError(f"{what} must be {{\"cell\", \"seen\", \"hidden\", \"gone\"}}")
        _types_put(s.disc[p], figures[p], f"modules.disc_figures[{p}]")
        _types_put(s.disc_seen[p], d["seen"], what + ".seen")
        s.disc_hidden[p] = _as_int(d["hidden"], what + ".hidden", 0, 3)
        for w in _as_list(d["gone"], what + ".gone"):
            if w not in TYPE_NAMES:
                raise PositionError(f"{what}.gone: {w!r} is no building type")
            s.disc_gone[p] |= 1 << TYPE_NAMES.index(w)
        total = 0
        for t in range(NTYPES):
            k = s.disc[p][t] - s.disc_seen[p][t]
            if k < 0 or k > 1 or (k and (s.disc_gone[p] >> t) & 1):
                raise PositionError(f"{what}: the figures {figures[p]} do not fit what the table saw")
            total += k
            res_types[t] += s.disc[p][t]
        if total != s.disc_hidden[p]:
            raise PositionError(f"{what}: {total} figures of the first choice, but hidden says {s.disc_hidden[p]}")
        cell = d["cell"]
        if cell is None:
            s.disc_cell[p] = 0
        else:
            cell = _as_list(cell, what + ".cell", 2)
            x = _as_int(cell[0], what + ".cell", -120, 120)
            y = _as_int(cell[1], what + ".cell", -120, 120)
            if city_tile(s.cities.city[p], x, y) >= 0:
                raise PositionError(f"{what}: the disc lies on a tile at {x},{y}")
            s.disc_cell[p] = city_pack(x, y)
    if figures_unrevealed(s):               # every seat still holds one of each type, on its disc or kept back
        for k in range(n):                  # the seats from the start player on have chosen, the rest not yet
            p = (s.start_player + k) % n
            if s.disc_hidden[p] != (3 if k < n - s.setup_left + (s.phase == PH_DISC) else 0):
                raise PositionError(f"modules.discs[{p}]: at setup the seats before the one to act (from the "
                                    f"start player on) hold 3 hidden figures, the others none")
        for t in range(NTYPES):
            res_types[t] = n
    for t in range(NTYPES):
        if res_types[t] + s.supply[t] != NFIGURES:
            raise PositionError(f"figures of type {TYPE_NAMES[t]}: {res_types[t] + s.supply[t]}, the game "
                                f"has {NFIGURES}")
    lifted = m.get("lifted")
    if (lifted is not None) != (s.phase == PH_RESIDENT):
        raise PositionError("modules.lifted: given exactly in the phase \"resident\"")
    if lifted is not None:
        if not isinstance(lifted, dict) or set(lifted) != {"tile", "resume"} \
                or lifted["resume"] not in ("action", "place", "final"):
            raise PositionError("modules.lifted must be {\"tile\": int, \"resume\": \"action\" | \"place\" | "
                                "\"final\"}")
        t = _as_tile(lifted["tile"], "modules.lifted.tile")
        if not city_holds(s.cities.city[s.current], t):
            raise PositionError(f"modules.lifted: tile {t} is not in the city of the seat to act")
        s.res_tile = t
        s.res_phase = PHASE_NAMES.index(lifted["resume"])


def thief_residents_canonical(dict m, int n, int me, str phase):
    """The secrets of a position made from seat ``me``'s observation (position_from_observation): its own as
    seen; the others' thieves by currency order, the rest out of the game; the others' hidden figures the
    first assignment (seats in order, types in order) that fits the public facts. determinize reshuffles them."""
    out = dict(m)
    for key in ("thieves", "disc"):
        out.pop(key, None)
    if m.get("thief_counts") is not None:
        counts = _as_list(m["thief_counts"], "modules.thief_counts", n)
        own = list(_as_list(m.get("thieves"), "modules.thieves"))
        if len(own) != counts[me]:
            raise PositionError("modules.thieves: the seat's own thieves do not match thief_counts")
        left = {c: NTHIEVES for c in CURRENCY_LETTERS}
        for w in own + list(_as_list(m["thieves_played"], "modules.thieves_played")):
            if w not in left or left[w] == 0:
                raise PositionError(f"modules: more thieves of {w!r} than the game has")
            left[w] -= 1
        pool = [c for c in CURRENCY_LETTERS for _ in range(left[c])]
        hands = []
        for p in range(n):
            if p == me:
                hands.append(own)
            else:
                hands.append(pool[:counts[p]])
                pool = pool[counts[p]:]
        out["thief_hands"] = hands
        out["thieves_out"] = pool
    if m.get("discs") is None:
        return out
    discs = _as_list(m["discs"], "modules.discs", n)
    own = list(_as_list(m.get("disc"), "modules.disc"))
    left = m.get("setup_left")
    if type(left) is int and (left > 1 or (left == 1 and phase == "figures")):
        # setup: any 3 types for a seat that chose (nothing public ties them to the supply yet)
        out["disc_figures"] = [own if p == me else (list(TYPE_NAMES[:3]) if discs[p]["hidden"] else [])
                               for p in range(n)]
        return out
    count = {t: NFIGURES - m["supply"][i] for i, t in enumerate(TYPE_NAMES)}
    for p in range(n):
        for tile in m["residents"][p]:
            count[TYPE_NAMES[TILE_TYPE[tile]]] -= 1
    for w in own:
        count[w] -= 1
    for p in range(n):
        if p != me:
            for w in discs[p]["seen"]:
                count[w] -= 1
    others = [p for p in range(n) if p != me]
    hidden = _fill_hidden(count, [(discs[p]["hidden"], set(discs[p]["gone"])) for p in others])
    if hidden is None:
        raise PositionError("modules.discs: no figures fit the supply, the residents and the discs")
    figures = {me: own}
    for p, h in zip(others, hidden):
        figures[p] = sorted(list(discs[p]["seen"]) + h, key=TYPE_NAMES.index)
    out["disc_figures"] = [figures[p] for p in range(n)]
    return out


def _fill_hidden(count, seats):
    """Per seat (hidden count, gone types), distinct types not gone, using exactly the figures of ``count``."""
    if not seats:
        return [] if all(v == 0 for v in count.values()) else None
    k, gone = seats[0]
    for combo in itertools.combinations([t for t in TYPE_NAMES if t not in gone and count[t] > 0], k):
        for t in combo:
            count[t] -= 1
        rest = _fill_hidden(count, seats[1:])
        for t in combo:
            count[t] += 1
        if rest is not None:
            return [list(combo)] + rest
    return None
