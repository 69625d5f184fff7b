"""The dice games against their independent oracle (tests/dice_oracle.py, from rules.md §dice alone).

Random games of the Dice Game and of Alcazaba at 2-6 players run in lock-step in the engine and in the
oracle. At every decision the seat and kind of decision, the legal choices (as texts) and the whole public
state (markers, building points and their stack order, bonus tiles, dice, cities, displays, scores and score
breakdowns) must agree. Chance: the test rolls the dice itself (sometimes loaded, to reach the rare rules)
and gives the faces to both (``apply(..., outcome=)``), or lets the engine roll and reads its dice; the
engine's ``chance_outcomes`` must be the oracle's exact distribution. Set-up chance (stacks, the bag, the
start-player tile's column, Dirk's die) is read from the engine, and the oracle checks it could happen.

The choices are random but skewed (each seat has a style) so that the rare rules fire; the test counts them
and requires each at least once.
"""

from __future__ import annotations

import doctest
import random
from collections import Counter

import dice_oracle
import pytest
from dice_oracle import DIRK, TYPES, Chance, Decision, DiceOracle, field_rank, roll_distribution

from alhambra_ai import new_game

# rare rules each default run must reach, per game
RARE_DICE = ("void", "void_first_roll", "void_keeps_black", "push", "push_off", "push_dirk", "push_own",
             "fall_off", "moved_down", "cap12", "stay12", "tie_arrival", "dirk_columns", "dirk_wrap",
             "start_to_dirk", "start_named", "nine", "black", "convert", "convert_second_same_seat",
             "both_rewards", "lone_marker")
RARE_ALCAZABA = ("rebuild_build", "rebuild_remove", "rebuild_swap", "fall_off", "moved_down", "dirk_columns",
                 "dirk_shared_column", "dirk_pick", "gift_dirk", "start_to_dirk_alcazaba", "tie_split",
                 "tiles_aside", "start_named")


# ---------------------------------------------------------------- the oracle itself, on cases worked by hand


def test_oracle_doctests():
    assert doctest.testmod(dice_oracle).failed == 0


def test_oracle_marker_placement_and_push_back():
    o = DiceOracle(3)
    o.columns[2] = {1: 0, 2: 1}
    o._place_marker(2, 2, 2, push=False)  # §dice-4.5: 2 taken, nothing free below: falls off
    assert o.columns[2] == {1: 0, 2: 1} and o.fallen[2] == 1
    o.columns[2] = {2: 1}
    o._place_marker(2, 2, 2, push=False)  # the best free lower field
    assert o.columns[2] == {1: 2, 2: 1}
    o.columns[2] = {1: 0, 2: 1, 3: 2, 5: 0}
    o.held[1]["push"] = 1
    o._place_marker(1, 2, 3, push=True)  # D13: the run 1..3 shifts, seat 0's marker on 1 falls off
    assert o.columns[2] == {1: 1, 2: 2, 3: 1, 5: 0} and o.fallen[0] == 1 and o.held[1]["push"] == 0
    o.columns[2] = {3: 2, 5: 0, 6: 1}
    o.held[2]["push"] = 1
    o._place_marker(2, 2, 6, push=True)  # the run 5..6 stops above the free field 4
    assert o.columns[2] == {3: 2, 4: 0, 5: 1, 6: 2}


def test_oracle_building_points_cap_stack_order_and_scoring():
    o = DiceOracle(2)
    o._add_points(0, 4, 2)
    o._add_points(1, 4, 2)
    assert o.ranking(4) == [0, 1]  # §dice-7: equal points, seat 0's disc is lower in the stack
    o._add_points(DIRK, 4, 1)
    o._add_points(1, 4, 11)  # 13: on 12, one point lost (D15)
    o._add_points(0, 4, 10)  # 12: on top of seat 1's disc
    o._add_points(1, 4, 2)  # already on 12: stays put, still the lower disc
    assert [o.points(r, 4) for r in o.rows] == [12, 12, 1] and o.ranking(4) == [1, 0, DIRK]
    assert o.events["cap12"] == 1 and o.events["stay12"] == 1
    o.held[DIRK]["points3"] = 1
    o._score("B")  # garden B: 12 / 5, Dirk third: nothing; his tile: 3
    assert o.breakdowns[-1]["majorities"] == {0: [0, 0, 0, 0, 5, 0], 1: [0, 0, 0, 0, 12, 0], DIRK: [0] * 6}
    assert o.breakdowns[-1]["extra"] == {0: 0, 1: 0, DIRK: 3} and o.score == {0: 5, 1: 12, DIRK: 3}


def test_oracle_reroll_listing_one_per_kept_multiset():
    o = DiceOracle(3)
    o.dice, o.rolls = [0, 0, 1, 1, 1, 2, 3, 4], 1
    rerolls = o._rerolls()
    assert len(rerolls) == 3 * 4 * 2 * 2 * 2 - 1  # kept: 0-2 of face 0, 0-3 of face 1, 0-1 of the others
    assert "reroll 1 2 3 4 5 6 7 8" in rerolls and "reroll 2" in rerolls and "reroll 1" not in rerolls


def test_oracle_void_roll_and_black_die_D10_D12():
    o = DiceOracle(3)
    o.held[0].update(void=2, black=1)
    turn = o._turn(0)
    assert turn.send(None) == Decision(0, "roll", frozenset({"roll"}))
    assert turn.send("roll") == Chance("dice", tuple(range(8)))
    d = turn.send((5,) * 4 + (4,) * 4)
    assert "void" in d.options and "black pavilion" in d.options and "stop tower" in d.options
    d = turn.send("black pavilion")
    assert "void" not in d.options and not [x for x in d.options if x.startswith("black")]
    turn.send("reroll 5 6 7 8")
    d = turn.send((1, 1, 1, 1))
    assert "void" in d.options and o.dice == [5] * 4 + [1] * 4 and o.rolls == 2
    d = turn.send("void")  # back to roll 1's dice; the black die stays set
    assert o.dice == [5] * 4 + [4] * 4 and o.rolls == 1 and o.black == 0 and "void" not in d.options
    d = turn.send("reroll 1 2 3 4 5 6 7 8")
    d = turn.send((2,) * 8)
    assert "void" in d.options and "stop arcades" in d.options and "stop pavilion" in d.options
    o2 = DiceOracle(3)
    o2.held[1]["void"] = 1
    turn = o2._turn(1)
    turn.send(None)
    turn.send("roll")
    turn.send((0,) * 8)
    assert turn.send("void") == Decision(1, "roll", frozenset({"roll"}))  # roll 1 voided: all 8 again


def test_oracle_convert_the_other_reward_of_the_same_column_D11():
    o = DiceOracle(3)
    o.columns[0] = {12: 1, 9: 1}
    o.bonus[0] = "convert"
    ev = o._evaluate_basic()
    assert next(ev) == Decision(1, "reward", frozenset({"points", "tile"}))
    d = ev.send("tile")  # 1 pavilion + the convert tile; then, as second, 2 points
    assert d.seat == 1 and "points" in d.options and "points convert garden" in d.options
    assert "tile" not in d.options and "points convert pavilion" not in d.options
    with pytest.raises(StopIteration):
        ev.send("points convert garden")
    assert o.points(1, 0) == 1 and o.points(1, 4) == 2 and not o.held[1]["convert"]


def test_oracle_dirk_takes_points_and_names_the_other_human():
    o = DiceOracle(2)
    o.round_start = o.start_player = 1
    o.columns[0] = {20: DIRK, 10: 0}
    o.columns[2] = {20: 0, 4: DIRK}
    o.bonus[0], o.bonus[2] = "void", "start"
    ev = o._evaluate_basic()  # pavilion: Dirk takes 2 points, seat 0 the void tile
    assert next(ev) == Decision(0, "reward", frozenset({"points", "tile"}))
    assert o.points(DIRK, 0) == 2 and o.points(0, 0) == 1 and o.held[0]["void"] == 1
    with pytest.raises(StopIteration):
        ev.send("points")  # arcades: Dirk gets the start tile, names seat 0
    assert o.start_player == 0 and not o.held[DIRK]


def test_oracle_dirk_markers_both_games():
    o = DiceOracle(2)
    markers = o._dirk_markers()
    assert next(markers) == Chance("dirk_column")
    with pytest.raises(StopIteration):
        markers.send(3)  # chambers: rows 2..6 in chambers, garden, tower, pav., ser.
    assert [{v: c[v] for v in c} for c in o.columns] == [{13: DIRK}, {16: DIRK}, {}, {4: DIRK}, {7: DIRK},
                                                         {10: DIRK}]
    a = DiceOracle(2, "alcazaba")
    by_type = {t: min(x for x in dice_oracle.TILE_TYPE if dice_oracle.TILE_TYPE[x] == t) for t in range(6)}
    a.stack = [by_type[t] for t in (5, 1, 0, 4, 3, 2)]  # T1 tower: row 2 of tower; T2..T5: one column right
    with pytest.raises(StopIteration):
        next(a._dirk_markers())
    assert [{v: c[v] for v in c} for c in a.columns] == [{}, {10: DIRK}, {7: DIRK}, {}, {16: DIRK},
                                                         {4: DIRK, 13: DIRK}]


# ---------------------------------------------------------------- the engine's public state, as the oracle's


def engine_public(s) -> dict:
    n = s.num_players
    rows = list(range(n)) + (["dirk"] if n == 2 else [])
    obs = s.observation(0)
    d = {
        "round": s.round, "turn": s.turn, "start_player": s.start_player,
        "columns": [s.column(t) for t in range(6)],
        "fallen": [s.fallen(r) for r in rows], "aside": obs["aside"],
        "scores": s.scores(), "dirk_score": s.dirk_score,
    }
    if s.game == "dice":
        d["bonus_fields"] = s.bonus_fields()
        d["held"] = [s.bonus_tiles(r) for r in rows]
        bp = [s.building_points(r) for r in rows]
        d["building_points"] = bp
        arrive = obs["arrivals"]  # lower = arrived earlier = lower in the stack
        d["stack_order"] = [[rows[k] for k in sorted((k for k in range(len(rows)) if bp[k][t] > 0),
                                                     key=lambda k: (-bp[k][t], arrive[k][t]))]
                            for t in range(6)]
    else:
        d["cities"] = [sorted((x, y, t) for x, y, t, _ in s.city(i).cells()) for i in range(n)]
        d["reserves"] = [sorted(s.reserve(i)) for i in range(n)]
        d["dirk_tiles"] = sorted(s.dirk_tiles()) if n == 2 else None
        d["column_items"] = [sorted(s.column_items(t), key=str) for t in range(6)]
        d["aside_tiles"] = sorted(s.aside_tiles())
        d["pending"] = s.pending()
        d["bag_size"] = s.bag_size
    return d


def engine_breakdowns(s) -> list[dict]:
    rows = list(range(s.num_players)) + ([DIRK] if s.num_players == 2 else [])
    out = []
    for bd in s.score_breakdown():
        entries = bd["seats"] + ([bd["dirk"]] if bd["dirk"] else [])
        pairs = list(zip(rows, entries, strict=True))
        out.append({"majorities": {r: e["majorities"] for r, e in pairs},
                    "extra": {r: e.get("tiles", e.get("wall", 0)) for r, e in pairs}})
    return out


def check_state(s, orc: DiceOracle, where: str) -> None:
    assert engine_public(s) == orc.public(), where
    assert engine_breakdowns(s) == orc.breakdowns, where


# ---------------------------------------------------------------- chance, read from the engine


def answer_chance(s, orc: DiceOracle, req: Chance, last_faces):
    if req.what == "dice":
        return last_faces
    assert s.round == max(orc.round, 1), (req, s.round, orc.round)
    hidden = s._hidden()
    if req.what == "start_player":
        return s.start_player
    if req.what == "start_column":
        if s.game == "dice":
            return s.bonus_fields().index("start")
        return next(t for t in range(6) if "start" in s.column_items(t))
    if req.what == "stack":
        r = req.arg
        return hidden["stacks"][5 * (r - 1):5 * r] if s.game == "dice" else hidden["stacks"][r - 1]
    if req.what == "dark":
        return hidden["dark"]
    if req.what == "bag":
        stack = set(hidden["stacks"][req.arg - 1])
        return [x for t in range(6) for x in s.column_items(t) if x != "start" and x not in stack]
    if req.what == "dirk_column":  # Dirk's first marker: row 2 of the die's column
        return next(t for t in range(6) if s.column(t)[field_rank(2, 3) - 1] == "dirk")
    raise AssertionError(req)


# ---------------------------------------------------------------- the players: random, skewed by style


class Players:
    """Each game: fair or loaded dice (one face more likely), and per seat a style: random, chase the most
    frequent face, the least frequent (fills the low fields: falling off, pushing off), or a favourite type
    (piles building points on one type: the 12-point cap)."""

    def __init__(self, rng: random.Random, n: int):
        self.rng = rng
        self.weights = [1] * 6
        loaded = rng.randrange(6)
        if rng.random() < 0.5:
            self.weights[loaded] = rng.choice((3, 6, 12))
        self.engine_rolls = rng.random() < 0.3  # the engine rolls with its own rng, the test reads the dice
        self.style = [rng.choice(("random", "max", "min", "fav", "fav")) for _ in range(n)]
        self.fav = [loaded if rng.random() < 0.5 else rng.randrange(6) for _ in range(n)]
        self.p_stop = [rng.choice((0.15, 0.35, 0.6)) for _ in range(n)]
        self.p_tile = rng.choice((0.2, 0.5, 0.8))

    def faces(self, k: int) -> tuple:
        return tuple(self.rng.choices(range(6), weights=self.weights, k=k))

    def choose(self, orc: DiceOracle, dec) -> str:
        rng, options, seat = self.rng, sorted(dec.options), dec.seat
        verbs: dict[str, list[str]] = {}
        for o in options:
            verbs.setdefault(o.split()[0], []).append(o)
        if dec.kind == "roll":
            return "roll"
        if dec.kind == "after_roll":
            return self._after_roll(orc, seat, verbs)
        if dec.kind == "reward":
            plain = [o for o in options if "convert" not in o]
            tile = "tile" in plain and (plain == ["tile"] or rng.random() < self.p_tile)
            pick = "tile" if tile else plain[0]
            converts = [o for o in options if o.startswith(pick + " convert")]
            return rng.choice(converts) if converts and rng.random() < 0.5 else pick
        if dec.kind == "place":
            cells = [o for o in options if o.split()[2] not in ("reserve", "dirk")]
            r = rng.random()
            if cells and r < 0.6:
                return rng.choice(cells)
            if f"place {orc.pending} dirk" in dec.options and r < 0.8:
                return f"place {orc.pending} dirk"
            return f"place {orc.pending} reserve"
        return rng.choice(options)  # name, pick

    def _after_roll(self, orc: DiceOracle, seat: int, verbs: dict) -> str:
        rng = self.rng
        counts = [orc.dice.count(f) + (orc.black == f) for f in range(6)]
        shown = [f for f in range(6) if counts[f]]
        if "void" in verbs and rng.random() < 0.5:
            return "void"
        if "black" in verbs and rng.random() < 0.15:  # now and then early (then re-rolls, voids)
            return f"black {TYPES[rng.randrange(6)]}"
        rebuilds = [o for v in ("build", "remove", "swap") for o in verbs.get(v, [])]
        if rebuilds and rng.random() < 0.15:
            return rng.choice(rebuilds)
        style = self.style[seat]
        target = {"max": max(shown, key=lambda f: counts[f]), "min": min(shown, key=lambda f: counts[f]),
                  "fav": self.fav[seat] if counts[self.fav[seat]] else max(shown, key=lambda f: counts[f]),
                  "random": rng.choice(shown)}[style]
        if "reroll" in verbs and rng.random() > self.p_stop[seat]:
            if style == "random" or style == "min":
                if rng.random() < 0.3:  # any subset, not only the listed one per kept set (D5)
                    dice = [p + 1 for p in range(8) if rng.random() < 0.5] or [rng.randrange(8) + 1]
                    return "reroll " + " ".join(map(str, dice))
                return rng.choice(verbs["reroll"])
            chase = self.fav[seat] if style == "fav" else target
            dice = [p + 1 for p in range(8) if orc.dice[p] != chase]
            if dice:
                return "reroll " + " ".join(map(str, dice))
        if "black" in verbs and rng.random() < 0.6:  # mostly on the type about to be named: 9 symbols
            return f"black {TYPES[target]}"
        stop = f"stop {TYPES[target]}"
        if stop + " push" in verbs.get("stop", []) and rng.random() < 0.7:
            return stop + " push"
        return stop


# ---------------------------------------------------------------- illegal actions


def candidates(rng: random.Random, s, orc: DiceOracle) -> list[str]:
    """A few action texts of every kind, mostly illegal now: the engine's checks (not only its listing)
    must agree with the oracle."""
    names = list(TYPES)
    texts = ["roll", "void", "points", "tile", "pick start", f"stop {rng.choice(names)}",
             f"stop {rng.choice(names)} push", f"black {rng.choice(names)}",
             f"{rng.choice(('points', 'tile'))} convert {rng.choice(names)}", f"start {rng.randint(1, 6)}",
             "reroll " + " ".join(str(p + 1) for p in sorted(rng.sample(range(8), rng.randint(1, 8))))]
    if s.game == "alcazaba":
        tile = orc.pending or rng.choice(sorted(dice_oracle.TILE_TYPE))
        cell = f"{rng.randint(-3, 3)},{rng.randint(-3, 3)}"
        seat = max(0, s.current_player)
        own = sorted(orc.reserves[seat]) or [tile]
        texts += [f"pick {tile}", f"place {tile} {cell}", f"place {tile} reserve", f"place {tile} dirk",
                  f"build {rng.choice(own)} {cell}", f"swap {rng.choice(own)} {cell}", f"remove {cell}"]
    return rng.sample(texts, 4)


# ---------------------------------------------------------------- one game in lock-step


def play(n: int, game: str, seed: int) -> Counter:
    rng = random.Random(seed * 1000 + n)
    probe = random.Random(seed * 1000 + n + 7)  # its own stream: probing leaves the game's choices alone
    s = new_game(n, seed=seed, game=game)
    orc = DiceOracle(n, game)
    players = Players(rng, n)
    run = orc.play()
    reply, faces, checked_k = None, None, set()
    steps = 0
    while True:
        try:
            req = run.send(reply)
        except StopIteration:
            break
        if isinstance(req, Chance):
            reply = answer_chance(s, orc, req, faces)
            continue
        where = f"{game} n={n} seed={seed} step {steps}: {req.kind} seat {req.seat}"
        assert (s.phase, s.current_player) == (req.kind, req.seat), where
        texts = [s.action_to_text(a) for a in s.legal_actions()]
        assert len(set(texts)) == len(texts), where
        assert set(texts) == req.options, (where, sorted(set(texts) ^ req.options))
        check_state(s, orc, where)
        if req.kind in ("roll", "after_roll"):
            assert s.dice() == (orc.dice, orc.black) and s.rolls == orc.rolls, where
        for text in candidates(probe, s, orc):
            assert s.is_legal(text) == orc.accepts(req, text), (where, text)
        choice = players.choose(orc, req)
        code = s.parse_action(choice)
        if choice.split()[0] in ("roll", "reroll"):
            k = len(choice.split()) - 1 if choice.startswith("reroll") else 8
            if k not in checked_k:  # the engine's chance node = the oracle's exact one
                checked_k.add(k)
                exact = {f: float(p) for f, p in roll_distribution(k).items()}
                outs = s.chance_outcomes(code)
                assert len(outs) == len(exact), where
                assert all(abs(p - exact[tuple(f)]) < 1e-12 for f, p in outs), where
            positions = [int(w) - 1 for w in choice.split()[1:]] or list(range(8))
            if players.engine_rolls:
                s.apply(code)
                faces = tuple(s.dice()[0][p] for p in sorted(positions))
            else:
                faces = players.faces(k)
                s.apply(code, outcome=faces)
        else:
            if steps % 50 == 0:
                assert s.chance_outcomes(code) == [(None, 1.0)], where
            s.apply(code)
        reply = choice
        steps += 1
    assert s.is_terminal() and orc.over and s.current_player == -1
    check_state(s, orc, f"{game} n={n} seed={seed}: the end")
    assert s.ranking() == orc.final_ranking()
    return orc.events


def run_games(game: str, seeds) -> Counter:
    events: Counter = Counter()
    for seed in seeds:
        for n in range(2, 7):
            events += play(n, game, seed)
        events += play(2, game, 10_000 + seed)  # Dirk's rules need 2 players: twice as many such games
    return events


def test_dice_game_against_oracle():
    events = run_games("dice", range(20))
    print("dice game rare rules:", dict(sorted(events.items())))
    assert not [e for e in RARE_DICE if not events[e]], dict(events)


def test_alcazaba_against_oracle():
    events = run_games("alcazaba", range(10))
    print("alcazaba rare rules:", dict(sorted(events.items())))
    assert not [e for e in RARE_ALCAZABA if not events[e]], dict(events)


LONG = [pytest.param(1, marks=pytest.mark.slow, id="slow"),   # in CI
        pytest.param(4, marks=pytest.mark.soak, id="soak")]   # by hand: four times as many games


@pytest.mark.compute
@pytest.mark.parametrize("scale", LONG)
def test_dice_game_against_oracle_long(scale):
    events = run_games("dice", range(100, 100 + 100 * scale))
    assert not [e for e in RARE_DICE if not events[e]], dict(events)


@pytest.mark.compute
@pytest.mark.parametrize("scale", LONG)
def test_alcazaba_against_oracle_long(scale):
    events = run_games("alcazaba", range(100, 100 + 30 * scale))
    assert not [e for e in RARE_ALCAZABA if not events[e]], dict(events)
