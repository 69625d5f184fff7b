"""majority_shares: the majorities of a scoring round over given building counts, the scoring's own rule
(score_majorities), which the screens ask for what a scoring would give now (issue 55)."""

import random

import pytest

from alhambra_ai import new_game
from alhambra_ai._core import majority_shares
from alhambra_ai.games.alhambra.text import majority_rows
from alhambra_ai.options import MODULES


def test_ties_share_the_places_they_use_rounded_down():
    # round 2, the rulebook's example: two with 4 towers share 13 + 6 = 19 -> 9 each, nobody is 2nd
    towers = [[0] * 5 + [4], [0] * 5 + [4], [0] * 5 + [1]]
    assert majority_shares(towers, 2) == [[0] * 5 + [9]] * 2 + [[0] * 6]
    # round 3, three tied for 1st: (16 + 8 + 1) // 3; round 1 has one place only
    assert majority_shares([[2] + [0] * 5] * 3, 3) == [[8] + [0] * 5] * 3
    assert majority_shares([[2] + [0] * 5, [1] + [0] * 5], 1) == [[1] + [0] * 5, [0] * 6]
    # none of a type: no place
    assert majority_shares([[0] * 6, [0] * 6], 3) == [[0] * 6, [0] * 6]


@pytest.mark.parametrize("bad, why", [(([[0] * 6], 0), "round_"), (([[0] * 6], 4), "round_"),
                                      (([], 1), "rows"), (([[0] * 6] * 8, 1), "rows"),
                                      (([[0] * 5], 1), "building counts"), (([[0] * 5 + [-1]], 1), "0..255")])
def test_bad_arguments_are_refused(bad, why):
    with pytest.raises(ValueError, match=why):
        majority_shares(*bad)


GAMES = [("alhambra", n) for n in range(2, 7)] + [("alcazaba", 2), ("alcazaba", 4)]


@pytest.mark.parametrize("game, n", GAMES)
def test_a_scoring_gives_what_majority_shares_said_of_its_counts(game, n):
    """In seeded random games (every module on in the base game), each scoring's majorities are the shares
    of the building counts the screen reads from the observation at that moment (Dirk's tiles before he
    draws more after the scoring: compared in the last round only)."""
    options = dict.fromkeys(MODULES, True) if game == "alhambra" else {}
    s = new_game(n, 11 + n, options, game)
    rng = random.Random(n)
    while not s.is_terminal():
        before = len(s.score_breakdown())
        s.apply(rng.choice(s.legal_actions()))
        scored = s.score_breakdown()
        if len(scored) == before:
            continue
        entry = scored[-1]
        rows = majority_rows(s.observation(0))
        if game == "alhambra":
            assert rows == [s.building_counts(p) for p in range(n)] + (
                [s.dirk_building_counts()] if n == 2 else [])
        dirk = entry.get("dirk") is not None
        if dirk and entry["round"] < 3:
            continue        # Dirk has drawn his tiles of after the scoring
        got = [seat["majorities"] for seat in entry["seats"]]
        if dirk:
            got.append(entry["dirk"]["majorities"])
        assert majority_shares(rows, entry["round"]) == got
