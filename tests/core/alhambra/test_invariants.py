"""Whole-game invariants under random play, for every player count 2..6.

Every game is played to the end with ``legal_actions()`` / ``apply()`` and a seeded ``random.Random``.

Checking everything after every action costs far more than the engine's own work, so the checks come in
two strengths:

* **every game, every action**: a legal action always exists until the end, scores never decrease (Dirk's
  included), tiles conserved (54 = market + bag + cities + reserves + pending + Dirk, all distinct), money
  conserved (hands + display + draw pile + discard + drawn scoring cards = 110, or 74 with Dirk; no card
  beyond its copies), the acting seat's city valid by the core's from-scratch check, each new scoring round
  matches a recomputation from the cities at that moment (oracle majorities + oracle wall score), the game
  ends within a bound; and at the end: over, nobody to act, ranking consistent with the scores, score
  breakdown sums to the scores, every city valid (oracle).
* **a subset of games, every action**: each city checked with the independent oracle after every change.

The default run is sized to stay within a few minutes on one core; ``-m slow`` (CI) plays more games and
``-m soak`` (optional, not in CI) many more.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict

import oracle
import pytest

from alhambra_ai import new_game

PLACE_DIRK = 5
MAX_ACTIONS = 20_000  # far above any real game; a game that does not end within it is a bug

# (cheap games, of which with full checks) per player count in the default run, the slow job (CI) and the
# soak job (optional, not in CI: it alone took 23 minutes of CPU). CI runs the default and the slow job:
# 3,000 games per player count in all, most of them in the slow job, which runs on both cores.
DEFAULT_GAMES, DEFAULT_FULL = 400, 60
SLOW_GAMES, SLOW_FULL = 2_600, 290
SOAK_GAMES, SOAK_FULL = 10_000, 600


def uniform(rng: random.Random, actions: list[int]) -> int:
    return rng.choice(actions)


def builder(rng: random.Random, actions: list[int]) -> int:
    """Random, but prefers buying and building, so that cities get large."""
    by_kind = defaultdict(list)
    for a in actions:
        by_kind[a & 15].append(a)
    for kinds, p in (((3,), 0.9), ((2,), 0.7), ((6, 7, 8), 0.2)):
        pool = [a for k in kinds for a in by_kind.get(k, ())]
        if pool and rng.random() < p:
            return rng.choice(pool)
    return rng.choice(actions)


# ---------------------------------------------------------------------------------------------------------
# conservation
# ---------------------------------------------------------------------------------------------------------


def city_tiles(s, seat: int) -> list[int]:
    return [t for _, _, t, _ in s.city(seat).cells() if t != 0]


def check_tiles(s) -> None:
    seen = [t for t in s.market() if t is not None]
    for seat in range(s.num_players):
        seen += city_tiles(s, seat)
        seen += s.reserve(seat)
    seen += s.pending()
    seen += s.dirk_tiles() or []
    if s.phase == "final":
        # pending() shows only the tiles of the seat placing now; the leftover tiles of the seats after it
        # are visible only in the history ("leftover market 2: 31 to seat 2") until their turn comes
        leftovers = [int(e.split(": ")[1].split()[0]) for e in s.history if e.startswith("leftover market")]
        seen += [t for t in leftovers if t not in seen]
    assert len(seen) == len(set(seen)), f"a tile in two places: {sorted(seen)}"
    assert not seen or (min(seen) >= 1 and max(seen) <= 54), seen
    assert len(seen) + s.bag_size == 54, (len(seen), s.bag_size)


def scoring_cards_drawn(s) -> int:
    # the range of possible draw-pile positions is public until the card is drawn, then None
    return sum(1 for r in (1, 2) if s.scoring_card_range(r) is None)


def check_money(s, dirk: bool) -> None:
    # (one list counted once: run after every action of thousands of games, the default run's dearest check)
    copies = 2 if dirk else 3
    cards = []
    for seat in range(s.num_players):
        hand = s.hand(seat)
        assert len(hand) == s.hand_size(seat)
        cards += hand
    cards += [c for c in s.display() if c is not None]
    cards += s.discard()
    counts = Counter(cards)
    assert max(counts.values(), default=0) <= copies, counts.most_common(3)
    total = len(cards) + s.draw_pile_size
    assert total + scoring_cards_drawn(s) == 36 * copies + 2, total


# ---------------------------------------------------------------------------------------------------------
# scoring recomputed from the cities
# ---------------------------------------------------------------------------------------------------------


def check_new_scoring(s, entries: list[dict], dirk_tiles: list[int] | None) -> None:
    """Each new breakdown entry equals the majorities and wall score of the cities as they stand."""
    n = s.num_players
    counts = [oracle.type_counts(city_tiles(s, seat)) for seat in range(n)]
    if dirk_tiles is not None:
        counts.append(oracle.type_counts(dirk_tiles))
    for entry in entries:
        points = oracle.majority_points(counts, entry["round"])
        for seat in range(n):
            got = entry["seats"][seat]
            wall = oracle.wall_score(oracle.from_cells(s.city(seat).cells()))
            assert got["majorities"] == points[seat], (entry["round"], seat, counts)
            assert got["wall"] == wall, (entry["round"], seat)
            assert got["total"] == sum(points[seat]) + wall
        if dirk_tiles is None:
            assert entry["dirk"] is None
        else:
            assert entry["dirk"]["majorities"] == points[n], (entry["round"], counts)
            assert entry["dirk"]["total"] == sum(points[n])


# ---------------------------------------------------------------------------------------------------------
# one game
# ---------------------------------------------------------------------------------------------------------


def play(n: int, seed: int, full: bool, choose) -> dict:
    s = new_game(n, seed=seed)
    dirk = s.dirk_score is not None
    rng = random.Random(seed)
    scores = s.scores()
    dirk_score = s.dirk_score
    rounds = s.scoring_rounds_done
    checked_entries = 0
    cells = [s.city(seat).cells() for seat in range(n)] if full else None
    if full:
        check_tiles(s)
        check_money(s, dirk)
    steps = 0
    ender = None  # the seat whose turn ended the game
    final_order: list[int] = []  # seats placing leftover tiles, in order
    while not s.is_terminal():
        actions = s.legal_actions()
        assert actions, f"no legal action in phase {s.phase}"
        a = choose(rng, actions)
        seat = s.current_player
        dirk_before = list(s.dirk_tiles()) if dirk else None
        s.apply(a)
        steps += 1
        assert steps < MAX_ACTIONS, "game does not end"
        if ender is None and s.phase in ("final", "over"):
            ender = seat
            check_leftovers(s)
        if s.phase == "final" and (not final_order or final_order[-1] != s.current_player):
            final_order.append(s.current_player)

        new_scores = s.scores()
        assert all(b >= a_ for a_, b in zip(scores, new_scores, strict=True)), (scores, new_scores)
        scores = new_scores
        if dirk:
            assert s.dirk_score >= dirk_score
            dirk_score = s.dirk_score

        if s.scoring_rounds_done != rounds or s.is_terminal():
            rounds = s.scoring_rounds_done
            breakdown = s.score_breakdown()
            new = breakdown[checked_entries:]
            checked_entries = len(breakdown)
            if new:
                # Dirk's tiles when scoring: before the action plus a tile given in it; those drawn for Dirk
                # right after scoring rounds 1 and 2 come later (and at the end the bag is empty)
                at_scoring = None
                if dirk:
                    gift = [(a >> 4) & 255] if a & 15 == PLACE_DIRK else []
                    at_scoring = dirk_before + gift
                    if new[0]["round"] == 3:
                        at_scoring = list(s.dirk_tiles())
                check_new_scoring(s, new, at_scoring)

        check_tiles(s)
        check_money(s, dirk)
        if not full:
            # every game: the acting seat's city (the only one that can change) is valid after every action,
            # by the core's from-scratch check (separate code from its incremental move checks)
            assert s.city(seat).is_valid() is None, (seat, s.city(seat).to_text())
        else:
            # full games: the independent oracle, whenever the city changes
            now = s.city(seat).cells()
            if now != cells[seat]:
                city = oracle.from_cells(now)
                assert oracle.is_valid(city), (seat, oracle.invalid_reason(city), now)
                cells[seat] = now
            assert all(s.city(p).cells() == cells[p] for p in range(n) if p != seat)

    check_end(s, dirk)
    # leftovers are placed in seat order from the seat after the one who ended the game, one seat at a time
    assert final_order == sorted(final_order, key=lambda p: (p - ender - 1) % n), (ender, final_order)
    assert len(set(final_order)) == len(final_order)
    return {"steps": steps, "rounds": len(s.score_breakdown())}


def check_leftovers(s) -> None:
    """rules.md §6, right after the game ended: each market tile left went to the seat holding the most money
    of its slot's currency, or stayed in the market on a tie for most."""
    n = s.num_players
    totals = [[0] * 4 for _ in range(n)]
    for seat in range(n):
        for card in s.hand(seat):
            totals[seat]["ygbo".index(card[0])] += int(card[1:])
    given = {}
    for event in s.history:  # "leftover market 2: 10 to seat 2" or "... 31 stays (tie for most dirham)"
        if event.startswith("leftover market") and " to seat " in event:
            head, tail = event.split(": ")
            tile, _, _, seat = tail.split()
            given[int(head.split()[-1]) - 1] = (int(tile), int(seat) - 1)
    market = s.market()
    for slot, (tile, seat) in given.items():
        best = max(t[slot] for t in totals)
        assert totals[seat][slot] == best, (slot, tile, seat, totals)
        assert [t[slot] for t in totals].count(best) == 1, (slot, tile, totals)
        assert market[slot] is None
    for slot, tile in enumerate(market):
        if tile is not None:
            best = max(t[slot] for t in totals)
            assert [t[slot] for t in totals].count(best) > 1, (slot, tile, totals)


def check_end(s, dirk: bool) -> None:
    """A finished game: over, ranking and breakdown match the scores, cities valid, all conserved."""
    n = s.num_players
    assert s.phase == "over" and s.current_player == -1 and s.legal_actions() == []
    final = s.scores()
    ranking = s.ranking()
    for seat in range(n):
        assert ranking[seat] == 1 + sum(1 for x in final if x > final[seat]), (final, ranking)
    breakdown = s.score_breakdown()
    assert [e["round"] for e in breakdown] in ([1, 2, 3], [1, 3], [3]), breakdown
    for seat in range(n):
        assert sum(e["seats"][seat]["total"] for e in breakdown) == final[seat]
    if dirk:
        assert sum(e["dirk"]["total"] for e in breakdown) == s.dirk_score
    # the final round was scored on the cities as they stand now
    check_new_scoring(s, breakdown[-1:], list(s.dirk_tiles()) if dirk else None)
    for seat in range(n):
        city = oracle.from_cells(s.city(seat).cells())
        assert oracle.is_valid(city), (seat, oracle.invalid_reason(city))
    check_tiles(s)
    check_money(s, dirk)
    assert s.bag_size == 0 and None in s.market()


def run(n: int, games: int, full_games: int, base_seed: int) -> Counter:
    stats = Counter()
    for g in range(games):
        choose = builder if g % 2 else uniform
        r = play(n, base_seed + g, full=g < full_games, choose=choose)
        stats["games"] += 1
        stats["steps"] += r["steps"]
        stats[f"rounds{r['rounds']}"] += 1
    return stats


def run_c_playouts(n: int, games: int, base_seed: int) -> Counter:
    """The C playout (the fast path for bulk games) from random points of Python-played games: it must end
    in a consistent finished game, and leave the state it was cloned from untouched."""
    stats = Counter()
    for g in range(games):
        rng = random.Random(base_seed + g)
        s = new_game(n, seed=base_seed + g)
        for _ in range(rng.randrange(0, 250)):
            if s.is_terminal():
                break
            s.apply(rng.choice(s.legal_actions()))
        def snapshot(s=s):
            return s.phase, s.current_player, s.scores(), s.legal_actions(), s.bag_size, s.draw_pile_size

        before = snapshot()
        c = s.clone()
        actions = c.random_playout(rng.randrange(1 << 30))
        assert actions >= 0
        assert snapshot() == before
        check_end(c, c.dirk_score is not None)
        stats["games"] += 1
        stats["actions"] += actions
    return stats


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_random_games_invariants(n):
    stats = run(n, DEFAULT_GAMES, DEFAULT_FULL, base_seed=1000 * n)
    assert stats["games"] == DEFAULT_GAMES
    assert stats["rounds3"] > 0  # both scoring cards drawn in some games


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_c_playouts_end_consistently(n):
    assert run_c_playouts(n, 300, base_seed=7000 * n)["games"] == 300


@pytest.mark.compute
@pytest.mark.parametrize("games, full, seed", [
    pytest.param(SLOW_GAMES, SLOW_FULL, 1_000_000, marks=pytest.mark.slow, id="slow"),
    pytest.param(SOAK_GAMES, SOAK_FULL, 3_000_000, marks=pytest.mark.soak, id="soak"),
])
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_random_games_invariants_long(n, games, full, seed):
    stats = run(n, games, full, base_seed=seed * n)
    assert stats["games"] == games
