"""The majority table (issue 55 item 1): on the decision screen of every module and player count at 80 x 24,
on the table page and the end screen; its counts are the engine's, its leaders the most of each type, its
``now`` what the scoring's own rule gives (``majority_shares``)."""

import random

import pytest

from alhambra_ai import new_game
from alhambra_ai._core import TYPE_NAMES, majority_points, majority_shares
from alhambra_ai.games.alhambra.text import majority_table, render_screen, render_table
from alhambra_ai.options import MODULES
from alhambra_ai.terminal.text import visible_len

ALL = dict.fromkeys(MODULES, True)


def played(n, options, moves, seed=4):
    s, rng = new_game(n, seed, options), random.Random(seed)
    for _ in range(moves):
        if s.is_terminal():
            break
        s.apply(rng.choice(s.legal_actions()))
    return s


def table_rows(lines, n, dirk):
    head = next(i for i, line in enumerate(lines) if line.startswith("Buildings "))
    return lines[head], lines[head + 1:head + 1 + n + dirk], lines[head + 1 + n + dirk:]


@pytest.mark.parametrize("options", [{}, ALL], ids=["base", "all-modules"])
@pytest.mark.parametrize("n", range(2, 7))
@pytest.mark.parametrize("moves", [0, 150, 400])
def test_the_decision_screen_at_80x24_holds_the_table(n, options, moves):
    s = played(n, options, moves)
    names = ["you"] + ["mcts"] * (n - 1)
    lines = render_screen(s, 0, names, 80, 23, ["s2 mcts: takes y3"])
    assert len(lines) <= 23 and max(map(visible_len, lines)) <= 80, "\n".join(lines)
    dirk = int(n == 2)
    head, rows, after = table_rows(lines, n, dirk)
    assert head.split()[1:] == ["score", "cards", *(t[:3] for t in TYPE_NAMES), "wall",
                                "got" if s.is_terminal() else "now"]
    obs = s.observation(0)
    counts = [s.building_counts(p) for p in range(n)] + ([s.dirk_building_counts()] if dirk else [])
    done = s.scoring_rounds_done
    rnd = min(3, done + (0 if s.is_terminal() else 1))
    shares = majority_shares(counts, rnd)
    for i, line in enumerate(rows):
        words = line.split()[-10:]
        assert words[0] == str(s.dirk_score if i == n else s.scores()[i])
        assert words[1] == ("-" if i == n else str(obs["hand_sizes"][i]))
        for t in range(6):
            c, best = counts[i][t], max(row[t] for row in counts)
            want = (str(c) if c else ".") + ("*" if c and c == best else "")
            assert words[2 + t] == want, line
        assert words[8] == ("-" if i == n else str(s.city(i).wall_score()))
        assert words[9] == (f"+{sum(shares[i])}" if sum(shares[i]) else ".")
    pays = "Round {}: {}".format(rnd, "/".join(("1st", "2nd", "3rd")[:rnd]))
    if n <= 3 or not options:   # a short screen drops it (the table page has it)
        assert after[0].startswith(pays), "\n".join(lines)
        assert after[0].split()[-6:] == ["/".join(map(str, p)) for p in majority_points()[rnd - 1]]


@pytest.mark.parametrize("n", [2, 4, 6])
def test_the_table_page_holds_it_too(n):
    s = played(n, ALL, 200)
    for compact in (False, True):
        text = render_table(s, 0, ["you"] + ["mcts"] * (n - 1), width=80, compact=compact)
        lines = text.splitlines()
        _head, rows, after = table_rows(lines, n, int(n == 2))
        assert after[0].startswith("Round ") and max(map(visible_len, lines)) <= 80
        assert "Scores:" not in text


def test_a_tie_for_the_most_marks_both_and_shares_the_points():
    obs = new_game(3, 1).observation(0)
    fountain = [0, 0, 0, 0]
    obs["cities"] = [[fountain, [1, 0, 50, 0]], [fountain, [1, 0, 51, 0]], [fountain]]      # a tower each
    obs["scoring_rounds_done"] = 1
    rows = majority_table(obs, None, 0)[1:3]
    assert [r.split()[8] for r in rows] == ["1*", "1*"] and [r.split()[-1] for r in rows] == ["+9", "+9"]
