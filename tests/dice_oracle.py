"""An independent oracle of Alhambra: The Dice Game and its Alcazaba variant, from rules.md §dice alone.

It shares no code with the compiled core (cython_core/dice/): every rule is written here from the rules
text, with the section (§dice-4.4, say) or Decision (D13) of rules.md it comes from. Alcazaba's cities
use tests/oracle.py, the base game's own independent oracle (rules.md §4-5).

A game is a generator, ``DiceOracle.play()``. It yields

* a ``Decision``: the seat to decide, the kind of decision (the State API's phase names: roll, after_roll,
  reward, name, pick, place) and every legal choice as the State API's action text; it is sent the
  chosen text;
* a ``Chance``: what chance decides next (the start player, a revealed stack, a die for a column, rolled
  dice); it is sent the outcome, which it checks against what chance could give.

Between two yields the public state (D25) is in the oracle's attributes; ``public()`` collects it. Rules
that fire rarely are counted in ``events``. Deliberately slow and obvious.

>>> g = DiceOracle(3, "dice"); game = g.play()
>>> game.send(None)
Chance(what='start_player', arg=None)
>>> game.send(1).what, game.send(2).what  # the start-player tile's column, stack 1
('start_column', 'stack')
>>> d = game.send(["points1", "void", "push", "black", "convert"]); (d.seat, d.kind, sorted(d.options))
(1, 'roll', ['roll'])
>>> g.bonus
['points1', 'void', 'start', 'push', 'black', 'convert']
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

import oracle as city_oracle

# board order, left to right, = evaluation order (the rules' preamble, D9)
TYPES = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")
DIRK = "dirk"

# §dice-1, D2, D3: the 20 normal-backed bonus tiles (rounds 1-4) and the 6 dark-backed ones (round 5)
NORMAL_BACKS = Counter({"points1": 4, "points2": 4, "points3": 2, "void": 3, "convert": 2, "black": 3,
                        "push": 2})
DARK_BACKS = Counter({"points1": 2, "points2": 2, "points3": 2})
TILE_VALUE = {"points1": 1, "points2": 2, "points3": 3}

# §dice-7, D1: places paid per scoring, per type (pavilion .. tower)
SCORING = {
    "A": [(1,), (2,), (3,), (4,), (5,), (6,)],
    "B": [(8, 1), (9, 2), (10, 3), (11, 4), (12, 5), (13, 6)],
    "C": [(16, 8, 1), (17, 9, 2), (18, 10, 3), (19, 11, 4), (20, 12, 5), (21, 13, 6)],
}

# Alcazaba's tiles: the base game's 54 (rules.md §1) + the extra tower, id 71, cost 10, no walls (D23)
EXTRA_TOWER = 71
TILE_TYPE = {**city_oracle.TILE_TYPE, EXTRA_TOWER: TYPES.index("tower")}
TILE_COST = {t: c for t, c in city_oracle.TILE_COST.items() if t in city_oracle.TILE_TYPE} | {EXTRA_TOWER: 10}
TILE_WALLS = {**city_oracle.TILE_WALLS, EXTRA_TOWER: 0}


@dataclass(frozen=True)
class Decision:
    seat: int
    kind: str
    options: frozenset


@dataclass(frozen=True)
class Chance:
    what: str
    arg: object = None


def field_rank(count: int, rolls: int) -> int:
    """§dice-4.4: the target field's rank v = 3 (count - 1) + (4 - rolls), 1..24; §dice-4.3, §dice-12: 9
    symbols (white dice and the black die) count as 8 in 1 roll.

    >>> field_rank(8, 1), field_rank(1, 3), field_rank(5, 3), field_rank(4, 1), field_rank(9, 3)
    (24, 1, 13, 12, 24)
    """
    if count == 9:
        count, rolls = 8, 1
    return 3 * (count - 1) + (4 - rolls)


def markers_per_player(n: int) -> int:
    """§dice-2.1: 5 markers with 2-3 players, 4 with 4, 3 with 5-6."""
    return 5 if n <= 3 else 4 if n == 4 else 3


def roll_distribution(k: int, _cache: dict = {}) -> dict[tuple, Fraction]:  # noqa: B006 (a memo)
    """The faces of k fair dice as a multiset (sorted tuple of faces 0-5) with its exact probability, built
    one die at a time (§dice-1: each die shows the 6 symbols, one per face; a fair die).

    >>> d = roll_distribution(2); d[(0, 0)], d[(0, 1)], sum(d.values())
    (Fraction(1, 36), Fraction(1, 18), Fraction(1, 1))
    """
    if k not in _cache:
        dist = {(): Fraction(1)}
        for _ in range(k):
            nxt: dict[tuple, Fraction] = {}
            for faces, p in dist.items():
                for f in range(6):
                    key = tuple(sorted(faces + (f,)))
                    nxt[key] = nxt.get(key, 0) + p / 6
            dist = nxt
        _cache[k] = dist
    return _cache[k]


def cell_text(cell) -> str:
    return f"{cell[0]},{cell[1]}"


def parse_cell(text: str) -> tuple[int, int]:
    x, y = text.split(",")
    return int(x), int(y)


class DiceOracle:
    """One game of the Dice Game (``game="dice"``) or Alcazaba (``"alcazaba"``) for n = 2..6 players; seats
    are 0..n-1, Dirk (2 players, §dice-11) is the row ``"dirk"``."""

    def __init__(self, n: int, game: str = "dice"):
        assert 2 <= n <= 6 and game in ("dice", "alcazaba")
        self.n = n
        self.game = game
        self.basic = game == "dice"
        self.dirk = n == 2  # §dice-2.4, §dice-10: two players play with Dirk
        self.rows: list = list(range(n)) + ([DIRK] if self.dirk else [])
        self.markers = markers_per_player(n)
        self.round = 0
        self.turn = 0  # turns completed
        self.start_player = None  # the caliph stone's holder
        self.round_start = None  # start player of the round being played
        self.current = None
        self.over = False
        self.columns: list[dict] = [{} for _ in TYPES]  # per column: field v -> marker owner
        self.fallen = dict.fromkeys(self.rows, 0)  # markers off the board this round (§dice-4.5, D13)
        self.aside = dict.fromkeys(self.rows, 0)  # Alcazaba: markers on the reserve board (§dice-10)
        self.dice: list = [None] * 8
        self.black = None
        self.rolls = 0
        self.score = dict.fromkeys(self.rows, 0)
        self.breakdowns: list[dict] = []  # per scoring: {"majorities": {row: [6]}, "extra"}
        self.events: Counter = Counter()
        # the basic game
        self.bonus: list = [None] * 6  # the bonus fields
        self.revealed: Counter = Counter()  # normal-backed tiles revealed so far
        self.held = {r: Counter() for r in self.rows}  # bonus tiles held
        self.track: list[dict] = [{} for _ in TYPES]  # building-points fields: field -> rows, bottom first
        self.black_used: set = set()  # seats that used a black-die tile this round
        # Alcazaba
        self.cities = {s: {(0, 0): 0} for s in range(n)}  # cell -> tile id (0: the fountain)
        self.reserves: dict = {s: set() for s in range(n)}
        self.dirk_tiles: set = set()
        self.items: list[list] = [[] for _ in TYPES]  # each column's display: tile ids and "start"
        self.left: list = []  # tiles gone aside, out of the game
        self.pending = None  # the picked tile to place
        self.unseen = set(TILE_TYPE)  # tiles not revealed yet (stacks and bag)
        self.bag_size = 0
        self.stack: list = []
        self._rebuild_cache: dict = {}

    # ---------------------------------------------------------------- the game

    def play(self):
        s = yield Chance("start_player")  # §dice-2.3, §dice-10: a random start player
        assert s in range(self.n), s
        self.start_player = s
        if not self.basic:
            self.bag_size = 25  # §dice-10: 24 tiles + the extra tower
        for r in range(1, 6):  # §dice-3: five rounds
            self.round = r
            yield from self._round()
            if r in (1, 3, 5):  # §dice-3.6: scoring A, B, C
                self._score("ABC"[r // 2])
        if not self.basic:
            # §dice-10: 30 stack tiles + 25 bag tiles, all shown
            assert not self.unseen and self.bag_size == 0
        self.over = True
        self.current = None

    def _round(self):
        self.round_start = self.start_player
        self.columns = [{} for _ in TYPES]
        self.fallen = dict.fromkeys(self.rows, 0)
        self.aside = dict.fromkeys(self.rows, 0)
        self.black_used = set()  # D12: one black-die tile per player per round
        if self.basic:
            yield from self._lay_bonus_tiles()
        else:
            yield from self._lay_building_tiles()
        if self.dirk:
            yield from self._dirk_markers()
        # §dice-3.3: from the caliph stone's holder clockwise, one marker per turn until all are placed
        for i in range(self.n * self.markers):
            yield from self._turn((self.round_start + i) % self.n)
            self.turn += 1
        yield from (self._evaluate_basic() if self.basic else self._evaluate_alcazaba())
        # §dice-3.5: markers go back, leftover bonus tiles leave the game, the start-player tile to the supply
        self.columns = [{} for _ in TYPES]
        self.bonus = [None] * 6

    def _lay_bonus_tiles(self):
        if self.round <= 4:  # §dice-3.1, D7: a white die picks the start tile's column
            c = yield Chance("start_column")
            assert c in range(6)
            stack = yield Chance("stack", self.round)  # D8: stack r in round r, top tile first
            assert len(stack) == 5
            self.revealed.update(stack)
            assert not self.revealed - NORMAL_BACKS, self.revealed
            if self.round == 4:
                assert self.revealed == NORMAL_BACKS  # 4 stacks of 5 = the 20 normal tiles
            self.bonus = [None] * 6
            self.bonus[c] = "start"
            tiles = iter(stack)  # the 5 empty fields from left to right
            self.bonus = [b if b is not None else next(tiles) for b in self.bonus]
        else:  # round 5: the dark tiles, one per column
            dark = yield Chance("dark")
            assert len(dark) == 6 and Counter(dark) == DARK_BACKS
            self.bonus = list(dark)

    def _lay_building_tiles(self):
        """§dice-10: reveal stack r top first, each tile into its type's column; 5 tiles from the bag; rounds
        1-4 a die for the start-player tile's column."""
        stack = yield Chance("stack", self.round)
        assert sorted(TILE_TYPE[t] for t in stack) == list(range(6)), stack  # one tile per type
        assert EXTRA_TOWER not in stack and set(stack) <= self.unseen, stack  # the extra tower is in the bag
        drawn = yield Chance("bag", self.round)
        assert len(drawn) == 5 and len(set(drawn)) == 5 and set(drawn) <= self.unseen - set(stack), drawn
        for t in list(stack) + list(drawn):
            self.unseen.discard(t)
            self.items[TILE_TYPE[t]].append(t)
        self.bag_size -= 5
        self.stack = list(stack)
        if self.round <= 4:
            c = yield Chance("start_column")
            assert c in range(6)
            self.items[c].append("start")

    def _dirk_markers(self):
        """§dice-11: Dirk's 5 markers go into the right sub-column (3 rolls), after the tiles are laid out
        (D24)."""
        if self.basic:  # marker k = 1..5 on row k + 1 of column c + k - 1
            c = yield Chance("dirk_column")
            assert c in range(6)
            cols = [(c + k) % 6 for k in range(5)]  # after tower comes pavilion
            if c + 4 >= 6:
                self.events["dirk_wrap"] += 1
        else:  # D21: T1's column, then right of Tk's column
            cols = [TILE_TYPE[self.stack[0]]] + [(TILE_TYPE[t] + 1) % 6 for t in self.stack[1:5]]
            if len(set(cols)) < 5:
                self.events["dirk_shared_column"] += 1
        for k, col in enumerate(cols, start=1):
            v = field_rank(k + 1, 3)
            assert v not in self.columns[col]  # never a shared field
            self.columns[col][v] = DIRK
        self.events["dirk_columns"] += 1

    # ---------------------------------------------------------------- a turn (§dice-4)

    def _count(self, t: int) -> int:
        """§dice-4.3: dice showing type t, the black die included."""
        return self.dice.count(t) + (self.black == t)

    def _turn(self, seat: int):
        self.current = seat
        self.dice, self.black, self.rolls = [None] * 8, None, 0
        before = None  # (dice, rolls) before the last roll (void, D10)
        can_void = False  # D10: only as the very next decision after a roll
        while True:
            if self.rolls == 0:  # §dice-4.1, D4: roll 1 uses all 8 dice (D10: also after roll 1 was voided)
                options = {"roll"}
            else:
                options = self._after_roll_options(seat, can_void)
            choice = yield Decision(seat, "roll" if self.rolls == 0 else "after_roll", frozenset(options))
            words = choice.split()
            if words[0] in ("roll", "reroll"):
                positions = self._rolled_dice(choice)
                faces = yield Chance("dice", tuple(positions))
                assert len(faces) == len(positions) and all(f in range(6) for f in faces), faces
                before = (list(self.dice), self.rolls)
                for p, f in zip(positions, faces, strict=True):
                    self.dice[p] = f
                self.rolls += 1
                can_void = True
                continue
            assert choice in options, (choice, sorted(options))
            can_void = False
            if words[0] == "void":  # §dice-8, D10: back to the dice and count before the roll
                self.held[seat]["void"] -= 1
                self.dice, self.rolls = before  # (the black die, if set, stays set)
                self.events["void"] += 1
                if self.black is not None:
                    self.events["void_keeps_black"] += 1
                if self.rolls == 0:
                    self.events["void_first_roll"] += 1
                continue
            if words[0] == "black":  # §dice-8, D12: set to any symbol, never re-rolled
                self.held[seat]["black"] -= 1
                self.black_used.add(seat)
                self.black = TYPES.index(words[1])
                self.events["black"] += 1
                continue
            if words[0] == "stop":
                t = TYPES.index(words[1])
                count = self._count(t)
                if count == 9:
                    self.events["nine"] += 1
                self._place_marker(seat, t, field_rank(count, self.rolls), len(words) == 3)
            else:  # §dice-10, D20: a rebuild instead of the placement
                self._rebuild(seat, words)
                self.aside[seat] += 1
            return

    def accepts(self, decision: Decision, text: str) -> bool:
        """Whether ``text`` is a legal answer to ``decision``: a listed option, or (D5) a re-roll of any
        non-empty subset of the dice after roll 1 or 2 (all 8: also called "roll")."""
        if text in decision.options:
            return True
        words = "reroll 1 2 3 4 5 6 7 8".split() if text == "roll" else text.split()  # roll = all 8 dice
        positions = [int(w) - 1 for w in words[1:] if w.isdigit()]
        if words[0] != "reroll" or not 0 < len(positions) == len(words) - 1 \
                or positions != sorted(set(positions)) or not all(0 <= p < 8 for p in positions):
            return False
        if decision.kind == "roll":  # §dice-4.1: rolling all 8 dice is roll 1, whatever it is called
            return len(positions) == 8
        return decision.kind == "after_roll" and 1 <= self.rolls < 3

    def _rolled_dice(self, choice: str) -> list[int]:
        """§dice-4.1, D4: roll 1 rolls all 8 dice; D5: a re-roll (after roll 1 or 2) any non-empty subset of
        them, not only the one per kept set that the listing shows (see _rerolls)."""
        if choice == "roll":
            assert self.rolls == 0, choice
            return list(range(8))
        positions = [int(w) - 1 for w in choice.split()[1:]]
        assert 1 <= self.rolls < 3 and positions == sorted(set(positions)), choice
        assert positions and all(0 <= p < 8 for p in positions), choice
        return positions

    def _after_roll_options(self, seat: int, can_void: bool) -> set[str]:
        options = set()
        for t, name in enumerate(TYPES):
            count = self._count(t)
            if count >= 1:  # D6: the named type shows on at least one die
                options.add(f"stop {name}")
                if self.held[seat]["push"] and field_rank(count, self.rolls) in self.columns[t]:
                    options.add(f"stop {name} push")  # §dice-8, D13: only when the target is occupied
        if self.rolls < 3:  # §dice-4.2: at most 3 rolls
            options |= self._rerolls()
        if can_void and self.held[seat]["void"]:
            options.add("void")
        if self.black is None and self.held[seat]["black"] and seat not in self.black_used:
            options |= {f"black {name}" for name in TYPES}  # D12: after roll 1, before naming, once a round
        if not self.basic and self.rolls in (1, 2):  # §dice-10: rebuild after roll 1 or 2, not after a 3rd
            options |= self._rebuild_options(seat)
        return options

    def _rerolls(self) -> set[str]:
        """D5: re-roll any non-empty subset of the white dice. Dice are interchangeable, so the State API
        lists one re-roll per multiset of kept faces: of each face, the dice at the lowest positions are the
        kept ones."""
        by_face = [[p for p in range(8) if self.dice[p] == f] for f in range(6)]
        out = set()
        for keep in itertools.product(*(range(len(ps) + 1) for ps in by_face)):
            kept = {p for f in range(6) for p in by_face[f][:keep[f]]}
            rolled = [p for p in range(8) if p not in kept]
            if rolled:
                out.add("reroll " + " ".join(str(p + 1) for p in rolled))
        return out

    def _place_marker(self, row, t: int, v: int, push: bool) -> None:
        col = self.columns[t]
        if push:  # §dice-8, D13: take the occupied target, push the run
            self.held[row]["push"] -= 1
            self.events["push"] += 1
            low = v
            while low - 1 >= 1 and low - 1 in col:  # the contiguous run of occupied fields low..v
                low -= 1
            pushed = {col[f] for f in range(low, v + 1)}
            self.events["push_dirk"] += DIRK in pushed
            self.events["push_own"] += row in pushed
            if low == 1:  # pushed beyond (1, 3): falls off
                self.fallen[col.pop(1)] += 1
                self.events["push_off"] += 1
            for f in range(max(low, 2), v + 1):  # each one field back, order kept
                col[f - 1] = col[f]
            col[v] = row
            return
        f = v  # §dice-4.5: the best free field with lower v
        while f >= 1 and f in col:
            f -= 1
        if f == 0:
            self.fallen[row] += 1  # none free: falls off, earns nothing
            self.events["fall_off"] += 1
        else:
            col[f] = row
            if f < v:
                self.events["moved_down"] += 1

    # ---------------------------------------------------------------- building points (§dice-6)

    def points(self, row, t: int) -> int:
        for f, discs in self.track[t].items():
            if row in discs:
                return f
        return 0

    def _add_points(self, row, t: int, pts: int) -> None:
        now = self.points(row, t)
        if now == 12:  # D15: a disc on 12 stays put
            self.events["stay12"] += 1
            return
        if now + pts > 12:  # §dice-6, D15: excess lost, on top of the 12-stack
            self.events["cap12"] += 1
        if now:
            self.track[t][now].remove(row)
        self.track[t].setdefault(min(12, now + pts), []).append(row)  # arriving on top of the stack

    def ranking(self, t: int) -> list:
        """§dice-7, D16: rows with points of type t, more points first, then lower in the stack (arrived
        earlier)."""
        rows = [r for r in self.rows if self.points(r, t) > 0]
        return sorted(rows, key=lambda r: (-self.points(r, t), self.track[t][self.points(r, t)].index(r)))

    # ---------------------------------------------------------------- round evaluation, basic game (§dice-5)

    def _evaluate_basic(self):
        self.current = None
        for t in range(6):  # D9: pavilion -> tower
            col = self.columns[t]
            ranked = [col[v] for v in sorted(col, reverse=True)]  # by v (unique: no ties)
            if not ranked:
                continue
            best = ranked[0]
            if best == DIRK:  # §dice-11: Dirk always takes 2 building points
                which, conv = "points", None
            else:
                options = self._reward_options(best, t, ("points", "tile"))
                choice = yield Decision(best, "reward", frozenset(options))
                which, conv = self._parse_reward(choice)
            yield from self._give(best, t, which, conv)
            if len(ranked) == 1:  # §dice-5: one marker, the second reward is not given
                self.events["lone_marker"] += 1
                continue
            second, other = ranked[1], ("tile" if which == "points" else "points")
            conv = None
            if second != DIRK and self.held[second]["convert"]:  # D11, D26: the second may convert its reward
                options = self._reward_options(second, t, (other,))
                choice = yield Decision(second, "reward", frozenset(options))
                assert self._parse_reward(choice)[0] == other
                conv = self._parse_reward(choice)[1]
            if second == best:
                self.events["both_rewards"] += 1
                self.events["convert_second_same_seat"] += conv is not None
            yield from self._give(second, t, other, conv)

    def _reward_options(self, row, t: int, whiches) -> set[str]:
        """§dice-5: 2 points, or 1 point + the column's bonus tile; §dice-8, D11: with a convert tile held,
        either on another type (a convert tile got with this reward comes too late for its own point)."""
        out = set()
        for which in whiches:
            if which == "tile" and self.bonus[t] is None:
                continue
            out.add(which)
            if self.held[row]["convert"]:
                out |= {f"{which} convert {TYPES[x]}" for x in range(6) if x != t}
        return out

    @staticmethod
    def _parse_reward(choice: str):
        words = choice.split()
        return words[0], (TYPES.index(words[2]) if len(words) == 3 else None)

    def _give(self, row, t: int, which: str, conv):
        if conv is not None:  # D11: the whole reward onto another type
            self.held[row]["convert"] -= 1
            self.events["convert"] += 1
        self._add_points(row, t if conv is None else conv, 2 if which == "points" else 1)
        if which == "tile":
            tile, self.bonus[t] = self.bonus[t], None
            if tile == "start":  # §dice-5, §dice-8: resolved at once, never kept
                yield from self._name(row)
            elif row == DIRK:  # §dice-11: Dirk keeps only points tiles
                if tile in TILE_VALUE:
                    self.held[DIRK][tile] += 1
            else:
                self.held[row][tile] += 1

    def _name(self, row):
        """§dice-8: the receiver of the start-player tile names the next round's start player (a human, self
        included); §dice-11, D24: Dirk names the human who was not start player of the round just played."""
        if row == DIRK:
            self.start_player = 1 - self.round_start
            self.events["start_to_dirk" if self.basic else "start_to_dirk_alcazaba"] += 1
            return
        choice = yield Decision(row, "name", frozenset(f"start {s + 1}" for s in range(self.n)))
        self.start_player = int(choice.split()[1]) - 1
        self.events["start_named"] += 1

    # ---------------------------------------------------------------- Alcazaba (§dice-10)

    def _walls(self, seat: int) -> dict:
        return {cell: TILE_WALLS[t] for cell, t in self.cities[seat].items()}

    def _rebuild_options(self, seat: int) -> set[str]:
        """§dice-10, D20: one base rebuild (rules.md §3): reserve -> city, city -> reserve, or a swap in
        place."""
        key = (frozenset(self.cities[seat].items()), frozenset(self.reserves[seat]))
        if key not in self._rebuild_cache:
            walls = self._walls(seat)
            out = set()
            for tile in self.reserves[seat]:
                cells = city_oracle.legal_placements(walls, TILE_WALLS[tile])
                out |= {f"build {tile} {cell_text(c)}" for c in cells}
            out |= {f"remove {cell_text(c)}" for c in city_oracle.legal_removals(walls)}
            out |= {f"swap {tile} {cell_text(c)}"
                    for tile, c in city_oracle.legal_swaps(walls, self.reserves[seat], TILE_WALLS)}
            self._rebuild_cache[key] = out
        return set(self._rebuild_cache[key])

    def _rebuild(self, seat: int, words: list[str]) -> None:
        city, reserve = self.cities[seat], self.reserves[seat]
        if words[0] == "build":
            tile, cell = int(words[1]), parse_cell(words[2])
            reserve.remove(tile)
            city[cell] = tile
        elif words[0] == "remove":
            reserve.add(city.pop(parse_cell(words[1])))
        else:
            assert words[0] == "swap", words
            tile, cell = int(words[1]), parse_cell(words[2])
            reserve.remove(tile)
            reserve.add(city[cell])
            city[cell] = tile
        self.events["rebuild_" + words[0]] += 1

    def _evaluate_alcazaba(self):
        """§dice-10, D19: per column (D9), markers best first: each gives its owner one item while items
        remain."""
        self.current = None
        for t in range(6):
            col = self.columns[t]
            for v in sorted(col, reverse=True):
                if not self.items[t]:
                    break
                owner = col[v]
                if owner == DIRK:
                    yield from self._dirk_pick(t)
                    continue
                choice = yield Decision(owner, "pick", frozenset(f"pick {x}" for x in self.items[t]))
                word = choice.split()[1]
                item = "start" if word == "start" else int(word)
                self.items[t].remove(item)
                if item == "start":  # instead of a tile: name the next start player
                    yield from self._name(owner)
                else:
                    yield from self._place(owner, item)
            if self.items[t]:  # leftover tiles: aside, face up, out of the game
                self.events["tiles_aside"] += 1
            self.left += [x for x in self.items[t] if x != "start"]
            self.items[t] = []

    def _dirk_pick(self, t: int):
        """D18: Dirk takes the lowest tile (printed cost, then id); the start-player tile only if nothing else
        is left (then he names, §dice-11)."""
        tiles = [x for x in self.items[t] if x != "start"]
        if not tiles:
            self.items[t].remove("start")
            yield from self._name(DIRK)
            return
        tile = min(tiles, key=lambda x: (TILE_COST[x], x))
        self.items[t].remove(tile)
        self.dirk_tiles.add(tile)
        self.events["dirk_pick"] += 1

    def _place(self, seat: int, tile: int):
        """D19: placed at once, into the city (rules.md §4) or the reserve; D22: 2 players, or given to
        Dirk."""
        self.pending = tile
        options = {f"place {tile} {cell_text(c)}"
                   for c in city_oracle.legal_placements(self._walls(seat), TILE_WALLS[tile])}
        options.add(f"place {tile} reserve")
        if self.dirk:
            options.add(f"place {tile} dirk")
        choice = yield Decision(seat, "place", frozenset(options))
        self.pending = None
        where = choice.split()[2]
        if where == "reserve":
            self.reserves[seat].add(tile)
        elif where == "dirk":
            self.dirk_tiles.add(tile)
            self.events["gift_dirk"] += 1
        else:
            self.cities[seat][parse_cell(where)] = tile

    # ---------------------------------------------------------------- scoring (§dice-7, §dice-10)

    def _score(self, letter: str) -> None:
        majorities = {r: [0] * 6 for r in self.rows}
        extra = dict.fromkeys(self.rows, 0)
        if self.basic:
            for t in range(6):
                ranked = self.ranking(t)
                paid = SCORING[letter][t]
                for place, row in enumerate(ranked[:len(paid)]):
                    majorities[row][t] = paid[place]
                for a, b in zip(ranked[:len(paid)], ranked[1:], strict=False):
                    if self.points(a, t) == self.points(b, t):  # a paid place decided by the stack order
                        self.events["tie_arrival"] += 1
            for row in self.rows:  # §dice-7: points tiles at every scoring
                extra[row] = sum(TILE_VALUE[k] * c for k, c in self.held[row].items() if k in TILE_VALUE)
        else:
            # §dice-10: base Alhambra's majorities (ties split, rounded down; reserves never count), Dirk's
            # tiles included (D24), and each player's longest outer wall (not Dirk's)
            counts = [self._type_counts(self.cities[s].values()) for s in range(self.n)]
            if self.dirk:
                counts.append(self._type_counts(self.dirk_tiles))
            maj = city_oracle.majority_points(counts, "ABC".index(letter) + 1)
            for i, row in enumerate(self.rows):
                majorities[row] = maj[i]
            for t in range(6):
                values = [c[t] for c in counts if c[t] > 0]
                if len(values) != len(set(values)):
                    self.events["tie_split"] += 1
            for s in range(self.n):
                extra[s] = city_oracle.wall_score(self._walls(s))
        for row in self.rows:
            self.score[row] += sum(majorities[row]) + extra[row]
        self.breakdowns.append({"majorities": majorities, "extra": extra})

    @staticmethod
    def _type_counts(tiles) -> list[int]:
        """Buildings per type (the fountain is none; the extra tower is a tower, D23)."""
        counts = [0] * 6
        for t in tiles:
            if t:
                counts[TILE_TYPE[t]] += 1
        return counts

    def final_ranking(self) -> list[int]:
        """§dice-9, D17, D24: the human players by points, ties share a rank; Dirk never wins."""
        return [1 + sum(self.score[o] > self.score[s] for o in range(self.n)) for s in range(self.n)]

    # ---------------------------------------------------------------- the public state (D25)

    def public(self) -> dict:
        d = {
            "round": self.round, "turn": self.turn, "start_player": self.start_player,
            "columns": [[col.get(v) for v in range(1, 25)] for col in self.columns],
            "fallen": [self.fallen[r] for r in self.rows], "aside": [self.aside[r] for r in self.rows],
            "scores": [self.score[s] for s in range(self.n)],
            "dirk_score": self.score[DIRK] if self.dirk else None,
        }
        if self.basic:
            d["bonus_fields"] = list(self.bonus)
            d["held"] = [{k: c for k, c in self.held[r].items() if c} for r in self.rows]
            d["building_points"] = [[self.points(r, t) for t in range(6)] for r in self.rows]
            d["stack_order"] = [self.ranking(t) for t in range(6)]
        else:
            d["cities"] = [sorted((x, y, t) for (x, y), t in self.cities[s].items()) for s in range(self.n)]
            d["reserves"] = [sorted(self.reserves[s]) for s in range(self.n)]
            d["dirk_tiles"] = sorted(self.dirk_tiles) if self.dirk else None
            d["column_items"] = [sorted(items, key=str) for items in self.items]
            d["aside_tiles"] = sorted(self.left)
            d["pending"] = [] if self.pending is None else [self.pending]
            d["bag_size"] = self.bag_size
        return d
