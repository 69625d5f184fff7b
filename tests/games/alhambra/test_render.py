"""Text rendering: golden cities (walls, inner walls, labels), the table and scoring breakdowns."""

import re

import pytest

from alhambra_ai import City
from alhambra_ai.games.alhambra.text import hand_by_currency, render_scoring, render_table
from alhambra_ai.terminal.text import render_city, tile_label, visible_len

# Fountain, arcades 17 east of it (walls E, S), garden 33 north of it (wall E), pavilion 5 at 1,1 (walls NW):
# the W wall of 5 meets the E wall of 33, an inner wall; 5 is reached on foot from 17 (open between them).
SQUARE = "0,0:0 1,0:17/ES 0,1:33/E 1,1:5/NW"

SQUARE_ASCII = """\
 y\\x     -1      0       1       2
   2
             +-------+#######+
   1         | gar33 H pav 5 |
             +       +       +
   0         | FOUNT   arc17 #
             +-------+#######+
  -1"""

SQUARE_UNICODE = """\
 y\\x     -1      0       1       2
   2
             ┌───────┬━━━━━━━┐
   1         │ gar33 ║ pav 5 │
             │       ║       │
   0         │ FOUNT   arc17 ┃
             └────────━━━━━━━┛
  -1"""

FOUNTAIN_ONLY = """\
 y\\x     -1      0       1
   1
             +-------+
   0         | FOUNT |
             +-------+
  -1"""


def test_golden_square_ascii():
    assert render_city(City.from_text(SQUARE)) == SQUARE_ASCII


def test_golden_square_unicode():
    assert render_city(City.from_text(SQUARE), unicode=True) == SQUARE_UNICODE


def test_golden_fountain_only():
    assert render_city(City()) == FOUNTAIN_ONLY


def test_inner_walls_look_different_from_outer_walls():
    text = render_city(City.from_text(SQUARE))
    row1 = text.splitlines()[3]
    assert "gar33 H pav 5" in row1                 # the inner wall between 0,1 and 1,1
    assert "arc17 #" in text                       # the outer E wall of 17
    # Horizontal: an inner wall between two tiles stacked north-south uses '=', outer walls '#'.
    # 17 at 1,0 (wall N) under 33 at 1,1 (wall S); both reached on foot through 40 at 0,1 and the fountain.
    stacked = render_city(City.from_text("0,0:0 1,0:17/N 1,1:33/S 0,1:40/-"), margin=0)
    assert stacked.splitlines()[3] == "     +       +=======+"
    assert "#" not in stacked                      # no outer wall in this city
    assert "=" not in render_city(City.from_text("0,0:0 1,0:17/ES"))


def test_walls_from_the_tile_table():
    # 45 is a tower with walls N, E, S: with no override the table's walls are drawn.
    text = render_city(City.from_text("0,0:0 1,0:45"), margin=0)
    assert text.splitlines()[1:] == ["     +-------+#######+",
                                     "   0 | FOUNT   tow45 #",
                                     "     +-------+#######+"]


def test_labels_use_command_coordinates():
    # y grows to the north: the top row is the largest y; x grows to the east.
    text = render_city(City.from_text("0,0:0 0,-1:33/- 0,-2:40/W"), margin=0)
    rows = [line for line in text.splitlines() if re.match(r"^\s+-?\d+ ", line)]
    assert [int(line.split()[0]) for line in rows] == [0, -1, -2]
    assert "gar40" in rows[2] and "gar33" in rows[1] and "FOUNT" in rows[0]
    header = render_city(City.from_text("0,0:0 1,0:17/- -1,0:33/-"), margin=0).splitlines()[0]
    assert header.split() == ["y\\x", "-1", "0", "1"]


def test_observation_cells_render_like_a_city():
    city = City.from_text(SQUARE)
    cells = [list(c) for c in city.cells()]
    assert render_city(cells) == render_city(city)


def test_compact_cells_and_color_keep_the_layout():
    city = City.from_text(SQUARE)
    compact = render_city(city, cell=5)
    assert "gar33Hpav 5" in compact
    coloured = render_city(city, color=True)
    assert "\x1b[" in coloured
    plain = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in coloured.splitlines()]
    assert plain == render_city(city).splitlines()
    assert max(visible_len(line) for line in coloured.splitlines()) == max(len(x) for x in plain)


def test_tile_labels():
    assert tile_label(0) == "FOUNT"
    assert tile_label(33) == "gar33"
    assert tile_label(5) == "pav 5"


def test_hand_grouped_by_currency():
    text = hand_by_currency(["b2", "y3", "y5", "o9"])
    assert text == "florin y3 y5 =8 | dirham - | denar b2 =2 | ducat o9 =9"


# ---------------------------------------------------------------------------------------------------------
# The table, from a hand-written observation (the contract's fields)


def _obs(n=3, seat=0, cities=None, dirk=None):
    return {
        "seat": seat, "num_players": n, "options": {}, "phase": "action", "current_player": 1, "turn": 4,
        "scoring_rounds_done": 0, "hand": ["g3", "y5", "y1"], "hand_sizes": [3, 5, 7, 2, 4, 6][:n],
        "cities": cities or [[[0, 0, 0, 0]] for _ in range(n)], "reserves": [[] for _ in range(n)],
        "market": [33, 17, None, 45], "display": ["y3", "b2", "o7", None], "discard": ["g9", "g1"],
        "pending": [], "dirk_tiles": dirk, "scores": [12, 0, 7, 1, 2, 3][:n],
        "dirk_score": 4 if dirk is not None else None, "draw_pile_size": 61, "bag_size": 40,
        "scoring_cards": [{"round": 1, "drawn": False, "positions": [13, 27]},
                          {"round": 2, "drawn": False, "positions": [40, 54]}],
        "history": [], "legal_actions": [],
    }


def test_table_shows_what_the_seat_sees():
    text = render_table(_obs(), 0, names=["you", "mcts", "greedy"], width=100)   # (the money line whole)
    assert "seat 2 (mcts) to act" in text
    assert "1 florin (y)" in text and "gar33 [ESW] cost 6" in text
    assert "3 denar (b)" in text and "(empty)" in text
    assert "Money display: y3 b2 o7 --" in text
    assert "draw pile: 61 cards" in text and "tile bag: 40 tiles" in text and "discard: 2 cards" in text
    assert "Your hand (3 cards): florin y1 y5 =6 | dirham g3 =3 | denar - | ducat -" in text
    assert "seat 2 (mcts) 5, seat 3 (greedy) 7" in text
    assert "Next scoring: round 1, its card lies at draw-pile position 14-28 (1 = top)" in text
    rows = {line.split("  ")[0]: line.split()[-10:] for line in text.splitlines()
            if line.startswith(("you (seat 1) ", "seat 2 (mcts) ", "seat 3 (greedy) "))}
    assert {k: v[:2] for k, v in rows.items()} == {"you (seat 1)": ["12", "3"], "seat 2 (mcts)": ["0", "5"],
                                                   "seat 3 (greedy)": ["7", "7"]}   # score, cards
    assert text.count("FOUNT") == 3
    assert "Dirk" not in text


def test_table_dirk_and_second_round():
    obs = _obs(n=2, dirk=[33, 40, 5])
    obs["scoring_rounds_done"] = 1
    obs["scoring_cards"][0]["drawn"] = True
    text = render_table(obs, 0)
    assert "Dirk's tiles (3): pavilion 1, garden 2 - gar33 gar40 pav5" in text
    dirk = next(line for line in text.splitlines() if line.startswith("Dirk "))
    assert dirk.split() == ["Dirk", "4", "-", "1*", ".", ".", ".", "2*", ".", "-", "+20"]  # 8 + 12: he leads
    assert "Round 2: 1st/2nd         8/1     9/2    10/3    11/4    12/5    13/6" in text
    assert "Next scoring: round 2, its card lies at draw-pile position 41-55 (1 = top)" in text


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_table_lines_fit_the_default_80_columns(n):
    big = [[x, y, 33 if (x + y) % 2 else 40, 0]
           for x in range(-4, 4) for y in range(-3, 3) if (x, y) != (0, 0)]
    big.append([0, 0, 0, 0])
    cities = [big] + [[[0, 0, 0, 0], [1, 0, 17, 12]] for _ in range(n - 1)]
    obs = _obs(n=n, cities=cities, dirk=list(range(1, 30)) if n == 2 else None)
    obs["hand"] = [f"{c}{v}" for c in "ygbo" for v in range(1, 10)]
    obs["reserves"] = [[17, 33, 45, 5, 40] * 4 for _ in range(n)]
    for unicode in (False, True):
        for color in (False, True):
            names = ["you"] + ["expectimax"] * (n - 1)
            text = render_table(obs, 0, names=names, unicode=unicode, color=color)
            assert max(visible_len(line) for line in text.splitlines()) <= 80       # the default width


def test_small_cities_side_by_side_wide_ones_below():
    lines = render_table(_obs(n=4), 0, width=100).splitlines()
    titles = [line for line in lines if "0 buildings, wall 0" in line]
    assert [t.count("buildings") for t in titles] == [3, 1]      # three small cities on one band, then one
    wide = [[x, 0, 33, 0] for x in range(1, 9)] + [[0, 0, 0, 0]]
    obs = _obs(n=2, cities=[wide, wide])
    lines = render_table(obs, 0).splitlines()
    assert sum(line.count("8 buildings") for line in lines) == 2
    assert not any(line.count("buildings") > 1 for line in lines)  # one under the other


def test_too_wide_city_is_announced_not_wrapped():
    line = [[x, 0, 33, 0] for x in range(1, 30)] + [[0, 0, 0, 0]]
    text = render_table(_obs(n=2, cities=[line, [[0, 0, 0, 0]]]), 0)
    assert "columns wide, more than 80" in text       # (the default width: 80)


def test_scoring_breakdown():
    entry = {"round": 2, "seats": [{"majorities": [8, 0, 0, 3, 0, 0], "wall": 5, "total": 16},
                                   {"majorities": [0, 9, 0, 0, 12, 0], "wall": 0, "total": 21}],
             "dirk": {"majorities": [0, 0, 10, 0, 0, 0], "total": 10}}
    text = render_scoring(entry, names=["you", "mcts"], you=0)
    lines = text.splitlines()
    assert lines[0].startswith("Scoring round 2") and lines[0].split()[-8:] == \
        ["pav", "ser", "arc", "cha", "gar", "tow", "wall", "round"]
    assert lines[1].startswith("you (seat 1)")
    assert lines[1].split()[3:] == ["8", ".", ".", "3", ".", ".", "5", "16"]
    assert lines[2].startswith("seat 2 (mcts)")
    assert lines[2].split()[3:] == [".", "9", ".", ".", "12", ".", "0", "21"]
    assert lines[3].startswith("Dirk") and lines[3].split()[1:] == [".", ".", "10", ".", ".", ".", "-", "10"]
    both = render_scoring([entry, dict(entry, round=3)])
    assert "Scoring round 3 (final)" in both and both.count("Dirk") == 2


def test_city_titles_count_buildings_and_wall():
    square = [list(c) for c in City.from_text(SQUARE).cells()]
    text = render_table(_obs(n=2, cities=[square, [[0, 0, 0, 0]]]), 0, names=["you", "random"])
    assert "you (seat 1): 3 buildings, wall 2" in text
    assert "seat 2 (random): 0 buildings, wall 0" in text


def test_table_of_a_state_is_the_table_of_its_observation():
    from alhambra_ai import new_game

    state = new_game(4, seed=3)
    for _ in range(40):
        state.apply(state.legal_actions()[-1])
    for seat in range(4):
        text = render_table(state, seat)
        assert text == render_table(state.observation(seat), seat)
        assert f"Your hand ({state.hand_size(seat)} cards): " in text
        assert hand_by_currency(state.hand(seat)).split(" | ")[0] in text
        others = [f"seat {p + 1} {state.hand_size(p)}" for p in range(4) if p != seat]
        assert "Cards in other hands: " + ", ".join(others) in text


def test_the_final_round_with_every_module_fits_80_columns():
    """Issue 44: 'Scoring round 3 (final)' and four module columns made an 83-column line that folded."""
    row = {"majorities": [1, 17, 6, 19, 16, 6], "wall": 8, "camps": 7, "bazaars": 8, "falcons": 6,
           "residents": 0, "total": 94}
    text = render_scoring({"round": 3, "seats": [row, row, row]}, names=["you", "greedy", "mcts"], you=0)
    lines = text.splitlines()
    assert lines[0] == "Scoring round 3 (final)" and max(map(len, lines)) <= 80, text
    assert lines[1].split()[-5:] == ["camp", "bzr", "flc", "res", "round"] and lines[2].startswith("you ")


def test_the_summed_scores_with_every_module_and_long_names_fit_80_columns():
    from alhambra_ai.games.alhambra.modules import SCORE_COLUMNS
    from alhambra_ai.terminal.text import render_totals

    row = {"majorities": [1, 17, 6, 19, 16, 6], "wall": 8, "camps": 7, "bazaars": 8, "falcons": 6,
           "residents": 0, "total": 94}
    text = render_totals([{"seats": [row] * 4}] * 3, [90, 80, 70, 60], [1, 2, 3, 4],
                         ["you", "expectimax", "expectimax", "expectimax"], 0, columns=SCORE_COLUMNS)
    assert max(map(len, text.splitlines())) <= 80 and "2. s2 expectimax " in text, text
    short = render_totals([{"seats": [row] * 2}], [9, 8], [1, 2], ["you", "mcts"], 0, columns=SCORE_COLUMNS)
    assert "2. seat 2 (mcts) " in short                  # (the long form while it fits)
