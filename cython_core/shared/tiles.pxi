# Static game data: building tiles, building types, currencies, money cards, scoring tables.
# The tile list is read once at import from alhambra_ai/data/buildings.csv (the only copy of that data).

import os as _os

cdef enum:
    NTYPES = 6              # building types, in scoring order
    NCUR = 4                # currencies; currency index == market slot index
    NBUILDINGS = 54         # building tiles 1..54
    MAX_TILE = 72           # tile ids 0..71: 0 fountain, 1..54 buildings, 55.. kept for module tiles
    FOUNTAIN = 0
    NO_TYPE = 255
    NVALUES = 9             # money values 1..9
    NCARD_KINDS = 36        # money card code = currency * 9 + value - 1
    SCORING_CARD_1 = 36     # draw-pile codes of the two scoring cards
    SCORING_CARD_2 = 37
    WALL_N = 1
    WALL_E = 2
    WALL_S = 4
    WALL_W = 8
    # module tiles (rules.md §9.2, §9.3): camps 55..62, bazaars 63..70 (ids from data/camps.csv, bazaars.csv)
    CAMP_FIRST = 55
    NCAMPS = 8
    BAZAAR_FIRST = 63
    NBAZAARS = 8
    LAST_TILE = 70          # highest tile id of any module
    EXTRA_TOWER = 71        # Alcazaba's extra tower (rules.md D23, data/alcazaba_tiles.csv)
    KIND_BUILDING = 0       # TILE_KIND: the fountain and the 54 buildings
    KIND_CAMP = 1
    KIND_BAZAAR = 2
    KIND_EXTRA = 3          # the extra tower: a building, but of the dice games only, so the base game's tile
                            # census (== KIND_BUILDING) and its id checks (<= LAST_TILE) leave it out
    KIND_NONE = 255         # unused id
    NFALCONS = 15           # falcons 0..14 (text 1..15), rules.md §9.4
    NFALCON_COLOURS = 3
    # Change and Walls (rules.md §9.5, §9.7)
    NCOINS = 6              # coins per currency (value 1 each); text: currency letter + "c", e.g. "gc"
    NWALL_CARDS = 8         # wall cards 0..7 (text 1..8, data/wall_cards.csv)
    WALL_CARD_FIRST = 38    # draw-pile codes of the wall cards: 38..45 (text "w1".."w8")

TYPE_NAMES = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")
CURRENCY_NAMES = ("florin", "dirham", "denar", "ducat")
CURRENCY_LETTERS = "ygbo"   # yellow, green, blue, orange: the card text is letter + value, e.g. "y3"
WALL_LETTERS = "NESW"

cdef uint8_t TILE_TYPE[MAX_TILE]
cdef uint8_t TILE_COST[MAX_TILE]
cdef uint8_t TILE_WALLS[MAX_TILE]       # walls; for a camp its bastion sides
cdef uint8_t TILE_KIND[MAX_TILE]        # KIND_*
cdef uint8_t BAZAAR_CUR[MAX_TILE]       # bazaar: its currency
cdef uint8_t BAZAAR_TYPES[MAX_TILE]     # bazaar: bit t for each of its three building types
cdef uint8_t FALCON_COLOUR[NFALCONS]
cdef uint8_t FALCON_TYPES[NFALCONS]     # bit t for each of the two types on its back
FALCON_COLOUR_NAMES = ("black", "brown", "white")
cdef uint8_t WALL_CARD_SIDES[NWALL_CARDS]   # wall sides each wall card adds (Walls)

# Majority points MAJORITY_POINTS[round 0..2][type][place 0..2]; 0 where the round has no such place.
cdef int MAJORITY_POINTS[3][NTYPES][3]


cdef inline int card_currency(int code) noexcept nogil:
    return code // NVALUES


cdef inline int card_value(int code) noexcept nogil:
    return code % NVALUES + 1


cdef inline int card_code(int currency, int value) noexcept nogil:
    return currency * NVALUES + value - 1


# Byte lanes: per-kind counts (a hand's cards, the falcons' owners) are byte arrays; these look at eight bytes
# of one at a time (loaded with memcpy).

cdef inline uint64_t bytes_nonzero(uint64_t x) noexcept nogil:
    """Bit 7 of each byte of x set iff the byte is nonzero; the other bits clear."""
    return (((x & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | x) & 0x8080808080808080ULL


cdef inline uint32_t four_bytes(uint8_t* p) noexcept nogil:
    """Four bytes (a seat's per-currency counts, the display) as one word, byte k in bits 8k..8k+7."""
    cdef uint32_t w
    memcpy(&w, p, 4)
    return w


cdef inline uint64_t eight_bytes(uint8_t* p) noexcept nogil:
    """Eight bytes as one word (byte k in bits 8k..8k+7), read where they lie: a copy on the stack first
    would make the load wait for the stores (store forwarding fails on a word built from two of them)."""
    cdef uint64_t w
    memcpy(&w, p, 8)
    return w


cdef inline int byte_flags(uint64_t high) noexcept nogil:
    """bytes_nonzero's answer as 8 bits, bit j for byte j."""
    return <int>((high * 0x0002040810204081ULL) >> 56)


def walls_to_text(int walls):
    """``5 -> 'NS'``; ``0 -> '-'``."""
    s = "".join(WALL_LETTERS[i] for i in range(4) if walls & (1 << i))
    return s or "-"


def walls_from_text(str text):
    """``'NS' -> 5``; ``'-'`` or ``''`` -> 0. Raises ValueError on other letters."""
    cdef int walls = 0
    for ch in text.strip().upper():
        if ch == "-":
            continue
        i = WALL_LETTERS.find(ch)
        if i < 0:
            raise ValueError(f"bad wall side {ch!r} (use N, E, S, W)")
        walls |= 1 << i
    return walls


def card_text(int code):
    """Money card code -> text: ``card_text(11) == 'g3'`` (dirham 3)."""
    if code < 0 or code >= NCARD_KINDS:
        raise ValueError(f"no money card with code {code}")
    return CURRENCY_LETTERS[card_currency(code)] + str(card_value(code))


def parse_card(str text):
    """Card text -> code: ``parse_card('g3') == 11``. Also accepts ``dirham3`` / ``dirham 3``."""
    t = text.strip().lower().replace(" ", "")
    for c, name in enumerate(CURRENCY_NAMES):
        if t.startswith(name):
            t = CURRENCY_LETTERS[c] + t[len(name):]
            break
    if len(t) == 2 and t[0] in CURRENCY_LETTERS and t[1] in "123456789":
        return card_code(CURRENCY_LETTERS.index(t[0]), int(t[1]))
    raise ValueError(f"not a money card: {text!r} (write a colour letter y/g/b/o and a value 1-9, e.g. g3)")


cdef inline bint known_tile(long tile) noexcept nogil:
    """tile is the fountain, a building, a module tile or Alcazaba's extra tower."""
    return 0 <= tile < MAX_TILE and TILE_KIND[tile] != KIND_NONE


def majority_points():
    """The majority points of both families' scorings: ``[round][type]`` -> the points of places 1, 2, ...
    (rules.md §5, §dice-7), types in TYPE_NAMES order.

    >>> majority_points()[1][0], majority_points()[2][5]
    ([8, 1], [21, 13, 6])
    """
    return [[[MAJORITY_POINTS[r][t][p] for p in range(r + 1)] for t in range(NTYPES)] for r in range(3)]


def tile_info(int tile):
    """``tile_info(17) -> ('arcades', 6, 'SW')``; the fountain is ``('fountain', 0, '-')``; a camp
    ``('camp', 4, 'N')`` (its bastion sides); a bazaar ``('bazaar', 0, '-')`` (its price follows the market);
    Alcazaba's extra tower ``tile_info(71) -> ('tower', 10, '-')`` (D23)."""
    if tile == FOUNTAIN:
        return ("fountain", 0, "-")
    if not known_tile(tile):
        raise ValueError(f"no tile with id {tile}")
    if TILE_KIND[tile] == KIND_CAMP:
        return ("camp", TILE_COST[tile], walls_to_text(TILE_WALLS[tile]))
    if TILE_KIND[tile] == KIND_BAZAAR:
        return ("bazaar", 0, "-")
    return (TYPE_NAMES[TILE_TYPE[tile]], TILE_COST[tile], walls_to_text(TILE_WALLS[tile]))


def tile_walls(int tile):
    """Wall mask of a tile (N=1, E=2, S=4, W=8); for a camp, its bastion sides."""
    if not known_tile(tile):
        raise ValueError(f"no tile with id {tile}")
    return TILE_WALLS[tile]


def bazaar_info(int tile):
    """``bazaar_info(63) -> ('florin', ('pavilion', 'seraglio', 'arcades'))``: currency and building types."""
    if tile < BAZAAR_FIRST or tile >= BAZAAR_FIRST + NBAZAARS:
        raise ValueError(f"tile {tile} is not a bazaar ({BAZAAR_FIRST}-{BAZAAR_FIRST + NBAZAARS - 1})")
    return (CURRENCY_NAMES[BAZAAR_CUR[tile]], tuple(TYPE_NAMES[t] for t in range(NTYPES)
                                                    if BAZAAR_TYPES[tile] >> t & 1))


def falcon_info(int falcon):
    """``falcon_info(1) -> ('black', ('pavilion', 'garden'))``: falcons are numbered 1..15 in text."""
    if not 1 <= falcon <= NFALCONS:
        raise ValueError(f"no falcon {falcon} (falcons are 1-{NFALCONS})")
    return (FALCON_COLOUR_NAMES[FALCON_COLOUR[falcon - 1]],
            tuple(TYPE_NAMES[t] for t in range(NTYPES) if FALCON_TYPES[falcon - 1] >> t & 1))


def wall_card_sides(int card):
    """``wall_card_sides(5) -> 'NE'``: the sides wall card 1..8 puts wall pieces on."""
    if not 1 <= card <= NWALL_CARDS:
        raise ValueError(f"no wall card {card} (wall cards are 1-{NWALL_CARDS})")
    return walls_to_text(WALL_CARD_SIDES[card - 1])


def _data_rows(name):
    """Rows of alhambra_ai/data/<name> (comments and the header skipped), split on commas."""
    path = _os.path.join(_os.path.dirname(__file__), "data", name)
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#") and not line.startswith("id,"):
                yield line.split(",")


def _type_bits(str names):
    cdef int bits = 0
    for name in names.split():
        bits |= 1 << TYPE_NAMES.index(name)
    return bits


def _load_modules():
    for tid, cost, sides in _data_rows("camps.csv"):
        t = CAMP_FIRST + int(tid) - 1
        TILE_KIND[t] = KIND_CAMP
        TILE_COST[t] = int(cost)
        TILE_WALLS[t] = walls_from_text(sides)
    for tid, cur, types in _data_rows("bazaars.csv"):
        t = BAZAAR_FIRST + int(tid) - 1
        TILE_KIND[t] = KIND_BAZAAR
        BAZAAR_CUR[t] = CURRENCY_NAMES.index(cur)
        BAZAAR_TYPES[t] = _type_bits(types)
    for fid, colour, types in _data_rows("falcons.csv"):
        FALCON_COLOUR[int(fid) - 1] = FALCON_COLOUR_NAMES.index(colour)
        FALCON_TYPES[int(fid) - 1] = _type_bits(types)
    for wid, sides in _data_rows("wall_cards.csv"):
        WALL_CARD_SIDES[int(wid) - 1] = walls_from_text(sides)
    for tid, tname, cost, walls in _data_rows("alcazaba_tiles.csv"):
        if int(tid) != EXTRA_TOWER:
            raise RuntimeError(f"alcazaba_tiles.csv: tile {tid} is not the extra tower {EXTRA_TOWER}")
        TILE_KIND[EXTRA_TOWER] = KIND_EXTRA
        TILE_TYPE[EXTRA_TOWER] = TYPE_NAMES.index(tname)
        TILE_COST[EXTRA_TOWER] = int(cost)
        TILE_WALLS[EXTRA_TOWER] = walls_from_text(walls)


def _load_tiles():
    path = _os.path.join(_os.path.dirname(__file__), "data", "buildings.csv")
    seen = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#") or line.startswith("id,"):
                continue
            tid, tname, cost, walls = line.split(",")
            tid = int(tid)
            TILE_TYPE[tid] = TYPE_NAMES.index(tname)
            TILE_COST[tid] = int(cost)
            TILE_WALLS[tid] = walls_from_text(walls)
            seen.add(tid)
    if seen != set(range(1, NBUILDINGS + 1)):
        raise RuntimeError(f"{path}: expected tiles 1..{NBUILDINGS}")


def _init_tables():
    cdef int t, r, p
    for t in range(MAX_TILE):
        TILE_TYPE[t] = NO_TYPE
        TILE_COST[t] = 0
        TILE_WALLS[t] = 0
        TILE_KIND[t] = KIND_NONE if t > NBUILDINGS else KIND_BUILDING
    _load_tiles()
    _load_modules()
    # Round 1: first place only; round 2: first and second; round 3: three places.
    # Base values by type: round 1 = 1..6, round 2 = 8..13 / 1..6, round 3 = 16..21 / 8..13 / 1..6.
    for t in range(NTYPES):
        for r in range(3):
            for p in range(3):
                MAJORITY_POINTS[r][t][p] = 0
        MAJORITY_POINTS[0][t][0] = t + 1
        MAJORITY_POINTS[1][t][0] = t + 8
        MAJORITY_POINTS[1][t][1] = t + 1
        MAJORITY_POINTS[2][t][0] = t + 16
        MAJORITY_POINTS[2][t][1] = t + 8
        MAJORITY_POINTS[2][t][2] = t + 1


_init_tables()
