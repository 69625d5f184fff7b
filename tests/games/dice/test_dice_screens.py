"""The dice games' screens (issue 43, item 2): the board in words with a legend and column headers, each
seat's markers, building points and bonus tiles, Alcazaba's cities drawn as the base game's, prompts in the
player's words, ``moves`` in groups that fit a screen; every line within the width, in ``play`` (also in
tmux at 80x24) and in ``replay``."""

import random
import re
import shutil

import pytest
from click.testing import CliRunner
from dicehelpers import GAR, PAV, SER, TOW, empty_columns, position, rolled
from paths import ROOT
from tmuxplay import RAW_CITY, Tmux

from alhambra_ai import new_game
from alhambra_ai.cli import main
from alhambra_ai.formats.record import make_record, save_record
from alhambra_ai.games.dice.session import DiceTerminalGame
from alhambra_ai.games.dice.text import moves_text, prompt_words, render

RANDOM = str(ROOT / "bots" / "random.py")
PHASES = ("after_roll", "roll", "reward", "name", "pick", "place", "over")


def states(game, n, seed, every=7):
    """Positions along a random game (every ``every``-th decision), the end included."""
    s = new_game(n, seed, game=game)
    rng = random.Random(seed)
    k = 0
    while not s.is_terminal():
        if k % every == 0:
            yield s.clone()
        s.apply(rng.choice(s.legal_actions()))
        k += 1
    yield s


def widest(text):
    return max(len(line) for line in text.splitlines())


@pytest.mark.parametrize("game", ["dice", "alcazaba"])
@pytest.mark.parametrize("n", [2, 3, 6])
def test_every_board_line_fits_and_has_headers_and_legend(game, n):
    names = [""] + ["random"] * (n - 1)
    seen = set()
    for s in states(game, n, seed=n):
        seen.add(s.phase)
        for width in (80, 123):
            for compact in (False, True):
                for you in (0, None):
                    screen = render(s, names, width=width, you=you, compact=compact)
                    assert widest(screen) <= width, screen
                    assert "column" in screen and "markers (5 in 3 = 5 dice, 3 rolls)" in screen
                    assert re.search(r"^seat +score +markers left", screen, re.M), screen
                    assert not RAW_CITY.search(screen) and "after_roll" not in screen
                    assert not re.search(r"\b(points[123]|void|black|push|start)\]", screen)   # [points1]...
                    if game == "dice":
                        assert "bonus tile" in screen and "pav ser arc cha gar tow" in screen
                        assert screen.splitlines()[-2].startswith("legend:") or "legend:" in screen
                    else:
                        assert "tiles: id [walls]" in screen and "FOUNT" in screen
                        legend = "walls: # outer wall" in screen or "* start player" in screen
                        assert legend, screen
    assert {"roll", "after_roll", "over"} <= seen


@pytest.mark.parametrize("game", ["dice", "alcazaba"])
def test_prompts_are_in_the_players_words(game):
    for n in (2, 4):
        for s in states(game, n, seed=11, every=1):
            if s.is_terminal():
                continue
            words = prompt_words(s.observation(s.current_player))
            assert "_" not in words and "rolls made)" not in words, words   # was "(after_roll, 1 rolls made)"
            assert s.phase != "after_roll" or "stop <type>" in words
            assert len(f"[seat {n}, {words}] > ") <= 76              # room to type on an 80-column line


def test_markers_points_and_bonus_tiles_are_shown_per_seat():
    s = position(n=2, seed=1, held={0: {"void": 1, "points2": 2}, 1: {"black": 1}},
                 building_points=[[3, 0, 0, 0, 0, 12], [0] * 6, [0] * 6], current_player=0, start_player=0,
                 round_start=0, columns=empty_columns())
    rolled(s, [GAR] * 5 + [PAV] * 3)
    s.apply("stop garden")                               # seat 1 (you): 5 garden dice in 1 roll
    screen = render(s, ["", "random"], you=0)
    garden = next(line for line in screen.splitlines() if line.startswith("garden"))
    assert "you 5 in 1" in garden
    you_row = next(line for line in screen.splitlines() if line.startswith("you"))
    assert "points tiles 4, void roll" in you_row                                # two 2-point tiles
    assert re.search(r"you \* +\d+ +4 +3 +\. +\. +\. +\. +12 ", you_row), you_row      # 4 markers left
    assert "black die" in next(line for line in screen.splitlines() if re.match(r"s2 random +\d", line))
    spectator = render(s, ["greedy", "random"])           # replay: nobody is "you"
    assert "s1 5 in 1" in spectator and "s1 greedy" in spectator


def test_the_dice_are_shown_by_number_in_each_column():
    s = new_game(2, 1, game="dice")
    s.apply("roll", outcome=(GAR, SER, GAR, TOW, TOW, TOW, GAR, PAV))
    board = render(s, you=s.current_player).splitlines()
    row = {line.split()[0]: line for line in board if line.split() and line.split()[0] in ("garden", "tower")}
    assert row["garden"].split()[1:5] == ["3:", "1", "3", "7"]
    assert row["tower"].split()[1:5] == ["3:", "4", "5", "6"]
    assert any(line.startswith("rolled dice: 1:gar 2:ser 3:gar") for line in board)


def test_moves_are_grouped_numbered_as_legal_actions_and_fit_a_screen():
    for seed in range(4):
        s = new_game(3, seed, game="dice")
        s.apply("roll", outcome=(GAR, SER, GAR, TOW, TOW, PAV, 2, 3))     # 5 symbols: many re-rolls
        legal = s.legal_actions()
        assert len(legal) > 60
        text = moves_text(s)
        assert len(text.splitlines()) <= 20 and widest(text) <= 80
        flat = " ".join(text.split())
        assert "Stop and place a marker" in text and "Keep dice and re-roll" in text
        assert "showing pavilion 6 | seraglio 2 | arcades 7 | chambers 8 | garden 1 3 | tower 4 5" in flat
        for number, words in re.findall(r"(\d+)\) (stop \w+)", text):
            assert s.action_to_text(legal[int(number) - 1]) == words
        keeps = re.findall(r"(\d+)\) (keep(?: \d)+|reroll)", moves_text(s, ["keep"]))
        assert len(keeps) == sum(s.action_to_text(a).startswith("reroll") for a in legal)
        for number, words in keeps:
            assert s.parse_action(words) == legal[int(number) - 1]


def test_a_stop_says_where_the_marker_lands():
    cols = empty_columns()
    cols[GAR][3 * 2 + 3 - 1] = 1                          # 3 garden dice in 1 roll: taken by seat 2
    s = position(n=3, seed=2, columns=cols, current_player=0, start_player=0, round_start=0)
    rolled(s, [GAR] * 3 + [PAV] * 5)
    text = moves_text(s)
    assert "stop garden: 3 in 2 (3 in 1 taken)" in text and "stop pavilion: 5 in 1" in text
    out = []
    g = DiceTerminalGame(s, 0, {}, None, 0.1, write=out.append)
    g.apply(s.parse_action("stop garden"), 0)
    assert out[0] == "You: stop garden: marker on 3 in 2 (3 in 1 taken)."


def alcazaba_with_71():
    """An Alcazaba position where tile 71 stands in seat 0's city."""
    for seed in range(60):
        s = new_game(2, seed, game="alcazaba")
        rng = random.Random(seed)
        while not s.is_terminal():
            if 71 in [t for _, _, t, _ in s.city(0).cells()] and s.current_player == 0 and s.phase == "roll":
                return s
            if s.phase == "place" and s.pending(s.current_player) == [71] and s.current_player == 0:
                s.apply(s.legal_actions()[0])            # into the city
                continue
            s.apply(rng.choice(s.legal_actions()))
    raise AssertionError("no game put tile 71 into seat 0's city")


def test_alcazaba_cities_are_drawn_with_tile_71_in_play_and_city_n():
    s = alcazaba_with_71()
    for compact in (True, False):
        screen = render(s, ["", "random"], you=0, compact=compact)
        assert "tow71" in screen and "FOUNT" in screen and not RAW_CITY.search(screen)
    out = []
    script = iter(["city 1", "city 2", "quit"])
    g = DiceTerminalGame(s, 0, {}, None, 0.1, read=lambda _p: next(script), write=out.append, width=80)
    g.look("city", ["1"])
    g.look("city", ["2"])
    text = "\n".join(out)
    assert "you (seat 1):" in text and "seat 2:" in text and "tow71" in text and "walls: # outer wall" in text
    assert not RAW_CITY.search(text) and widest(text) <= 80


@pytest.mark.parametrize("game", ["dice", "alcazaba"])
def test_replay_lines_fit_the_width(tmp_path, game):
    s = new_game(4, 5, game=game)
    rng = random.Random(5)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
    path = tmp_path / "game.json"
    save_record(make_record(s, ["a", "b", "c", "d"]), path)
    result = CliRunner().invoke(main, ["replay", str(path), "--width", "80"])
    assert result.exit_code == 0, result.output
    assert widest(result.output) <= 80 and not RAW_CITY.search(result.output)
    if game == "alcazaba":
        assert "FOUNT" in result.output and "seat 4 (d):" in result.output


# ---------------------------------------------------------------------------------------------------------
# the real program in a terminal of 80 x 24


def check_screen(screen):
    lines = screen.splitlines()
    assert len(lines) <= 24 and max(len(x) for x in lines) <= 80, screen
    assert not any(p in screen for p in ("after_roll", "[points", "[void]", "[black]"))
    assert not RAW_CITY.search(screen)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)")
def test_dice_and_alcazaba_turns_in_tmux_at_80x24(tmp_path):
    fast = ["--bot", RANDOM, "--move-time", "0.3", "--time-bank", "2"]
    t = Tmux(tmp_path, ["--game", "dice", "--seed", "3", *fast])
    try:
        screen = t.wait(r"\[seat 1, roll the dice: roll\] >")
        check_screen(screen)                               # the whole board and the prompt on one screen
        assert screen.rstrip().splitlines()[-1].startswith("[seat 1") and "dice: round 1 of 5" in screen
        assert re.search(r"^column +dice +bonus tile +markers", screen, re.M) and "legend:" in screen
        t.send("roll")
        screen = t.wait(r"rolled 1 of 3: keep <dice> / stop <type>\] >")
        check_screen(screen)
        assert "you: roll -> " in screen                    # the full screen: news since your last move
        assert re.search(r"^(pavilion|seraglio|arcades|chambers|garden|tower) +\d: \d", screen, re.M)
        t.send("moves")
        screen = t.wait(r"rolled 1 of 3", shows="Keep dice and re-roll")
        check_screen(screen)
        assert "Stop and place a marker" in screen and "dice showing " in screen and "-- Enter" in screen
        t.send("1")                                        # the first stop
        screen = t.wait(r"\[seat 1, roll the dice: roll\] >")
        check_screen(screen)
        assert re.search(r"you: stop \w+: marker on \d in 1", screen)
        t.send("quit")
    finally:
        t.close()
    t = Tmux(tmp_path, ["--game", "dice", "--seed", "3", "--plain", *fast], name="plain")
    try:                                                   # --plain: the line mode, each move a sentence
        screen = t.wait(r"\[seat 1, roll the dice: roll\] >")
        t.send("roll")
        screen = t.wait(r"rolled 1 of 3: keep <dice> / stop <type>\] >")
        check_screen(screen)
        assert "You: roll -> " in screen
        t.send("quit")
    finally:
        t.close()
    t = Tmux(tmp_path, ["--game", "alcazaba", "--seed", "5", *fast])
    try:
        screen = t.wait(r"\[seat 1, roll the dice: roll\] >")
        check_screen(screen)
        assert re.search(r"^column +dice +tiles: id \[walls\] +markers", screen, re.M)
        assert "you (seat 1): 0 buildings, wall 0" in screen and "FOUNT" in screen
        t.send("roll")
        screen = t.wait(r"rolled 1 of 3")
        check_screen(screen)
        t.send("city 2")
        screen = t.wait(r"rolled 1 of 3", shows="seat 2 (random):")
        check_screen(screen)
        assert "seat 2 (random):" in screen and "FOUNT" in screen and "walls: # outer wall" in screen
        t.send("quit")
    finally:
        t.close()
