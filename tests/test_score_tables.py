"""Totals that add up (issue 55 item 4): in every game's score table (``scores``, the end screen, the
replay's scores page) each column adds to the total, no column is one a game cannot score in, and the title
names the right rounds."""

import random

import pytest

from alhambra_ai import new_game
from alhambra_ai.options import MODULES
from alhambra_ai.registry import get

GAMES = [("alhambra", {}), ("alhambra", dict.fromkeys(MODULES, True)), ("dice", {}), ("alcazaba", {})]


def finished(game, n, options, seed):
    s = new_game(n, seed, options, game)
    rng = random.Random(seed)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
    return s


def parsed(table):
    """The table's header cells and its rows as (label, cells) with '.' and '-' read as 0."""
    head, *rows = table.splitlines()
    columns = head.split()[-(len(head.split()) - head.split().index("pav")):]
    out = []
    for line in rows:
        words = line.split()
        cells = [0 if w in ".-" else int(w) for w in words[-len(columns):]]
        out.append((" ".join(words[:-len(columns)]), cells))
    return columns, out


@pytest.mark.parametrize("n", range(2, 7))
@pytest.mark.parametrize("game, options", GAMES, ids=["alhambra", "alhambra-all", "dice", "alcazaba"])
def test_the_final_score_tables_columns_add_up_to_the_total(game, options, n):
    s = finished(game, n, options, seed=40 + n)
    names = ["you"] + ["mcts"] * (n - 1)
    table = get(game).hook("score_table")(s, names, 0, True)
    columns, rows = parsed(table)
    assert columns[-1] == "total" and columns[:6] == ["pav", "ser", "arc", "cha", "gar", "tow"], table
    assert len(rows) == n + (s.dirk_score is not None), table
    totals = [*s.scores(), *([s.dirk_score] if s.dirk_score is not None else [])]
    assert sorted(r[1][-1] for r in rows) == sorted(totals), table
    for label, cells in rows:
        assert sum(cells[:-1]) == cells[-1], f"{label}: {cells}\n{table}"
    extra = columns[6:-1]
    if game == "dice":      # building points and points tiles; no wall
        assert extra == ["tiles"], table
    elif game == "alcazaba":
        assert extra == ["wall"], table
    else:
        assert extra[0] == "wall" and len(extra) == (5 if options else 1), table
    if s.dirk_score is not None and "wall" in extra:      # Dirk builds no wall: no 0 there, a '-'
        dirk = next(line for line in table.splitlines() if "Dirk" in line)
        assert dirk.split()[-1 - len(extra) + extra.index("wall")] == "-", table


@pytest.mark.parametrize("game, title", [("alhambra", "After 3 rounds"),
                                         ("dice", "After scoring C (round 5)"),
                                         ("alcazaba", "After scoring C (round 5)")])
def test_the_title_counts_the_games_rounds(game, title):
    s = finished(game, 3, {}, seed=5)
    assert get(game).hook("score_table")(s, None, 0, True).startswith(title + " ")
    fresh = new_game(3, 5, {}, game)
    assert get(game).hook("score_table")(fresh, None, 0, False).startswith("No scoring yet ")


def test_the_dice_games_midgame_title_names_the_last_scoring():
    s = new_game(2, 3, {}, "dice")
    rng = random.Random(3)
    while s.round < 2:
        s.apply(rng.choice(s.legal_actions()))
    assert get("dice").hook("score_table")(s, None, 0).startswith("After scoring A (round 1) ")


@pytest.mark.parametrize("game", ["alhambra", "dice", "alcazaba"])
def test_the_end_screen_shows_the_table_that_adds_up(game):
    s = finished(game, 2, {}, seed=9)
    session = get(game).hook("session")(s, 0, {}, None, 0.1, write=lambda _x: None)
    end = session.end_text(with_table=False)
    assert get(game).hook("score_table")(s, session.names, 0, True) in end
    if game == "alhambra":      # and the final majorities, Dirk's too
        assert "Buildings " in end and "\nDirk " in end and "Round 3: 1st/2nd/3rd" in end
