"""The full-screen decision view of ``play`` (issue 44 item 1): the real program in tmux at 80x24, 100x30 and
120x40, moves picked by number and the screen read between them. At every prompt the screen is neither
garbled nor overfull (no line wider than the terminal, nothing wrapped, the prompt on the last line), and
the decision's parts are on it: the market, the money display and the hand (the dice games: the dice, the
columns and the seats). The default run plays a few turns per size; the slow job plays whole games of each
kind. Also: the frames themselves (no tmux) along random games, and the placement view at 80 columns."""

import random
import re
import shutil
import time
from pathlib import Path

import pytest
from tmuxplay import RAW_CITY, Tmux

from alhambra_ai import new_game
from alhambra_ai.games.alhambra.session import AlhambraTerminalGame
from alhambra_ai.games.alhambra.text import render_screen
from alhambra_ai.games.dice.session import DiceTerminalGame
from alhambra_ai.options import MODULES

ROOT = Path(__file__).resolve().parents[2]
RANDOM = str(ROOT / "bots" / "random.py")
SIZES = [(80, 24), (100, 30), (120, 40)]
PROMPT = re.compile(r"^\[(seat 1, .*|game over)\] > ?$")
ALL = ",".join(MODULES)
needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None,
                                reason="tmux is not installed (.ci/run installs it)")


def check(screen, size, game):
    """One captured screen at a prompt: fits, the prompt last, the decision's parts on it."""
    width, height = size
    lines = screen.rstrip("\n").split("\n")
    assert len(lines) <= height and max(len(x) for x in lines) <= width, screen
    shown = [x for x in lines if x.strip()]
    assert PROMPT.match(shown[-1].rstrip()), screen
    assert not RAW_CITY.search(screen) and "\x1b" not in screen
    if shown[-1].startswith("[game over]") or "-- Enter" in screen or "-- lines" in screen:
        return                                             # the end screen, or a page asked for
    if game == "alhambra":
        assert re.search(r"^(Turn \d+|Between turns)", screen, re.M), screen      # (the window: issue 55)
        assert screen.count("Market 1 ") == 1, screen
        assert "Money display:" in screen and "Your hand (" in screen, screen
        assert re.search(r"^ *y\\x", screen, re.M) and "reserve:" in screen, screen      # the own city
    else:
        assert re.search(r"^column +dice +(bonus tile|tiles: id \[walls\]) +markers", screen, re.M), screen
        assert re.search(r"^seat +score +markers left", screen, re.M), screen
        assert len(re.findall(r"^(pavilion|seraglio|arcades|chambers|garden|tower) ", screen, re.M)) == 6


def play_through(tmp_path, args, size, game, moves=None, name="g"):
    """Play by typing ``1`` at each prompt (``moves`` times, or to the end); every screen is checked.
    Returns the number of screens read and the last one."""
    t = Tmux(tmp_path, [*args, "--bot", RANDOM, "--move-time", "0.3", "--time-bank", "2"], size=size,
             name=f"{name}-{size[0]}")
    screens = 0
    try:
        while moves is None or screens < moves:
            screen = t.wait(r"^\[(seat 1, .*|game over)\] > ?$", timeout=60)
            check(screen, size, game)
            screens += 1
            if screen.rstrip().split("\n")[-1].startswith("[game over]"):
                assert "Final scores:" in screen and re.search(r"^Winners?", screen, re.M), screen
                break
            last = screen
            t.send("1")
            deadline = time.monotonic() + 60                 # the next screen (not the one just read)
            while time.monotonic() < deadline:
                now = t.screen()
                shown = [x for x in now.split("\n") if x.strip()]
                if now != last and shown and re.search(r"\] > ?$", shown[-1]):
                    break
                time.sleep(0.05)
        else:
            t.send("help")
            screen = t.wait(r"^\[seat 1, ", shows="-- ")
            check(screen, size, game)
            assert "help" in screen and "quit" in screen
            t.send("quit")
        return screens, screen
    finally:
        t.close()


@needs_tmux
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_few_turns_on_the_screen(tmp_path, size):
    """The default run: a few decisions of a base game (4 players, every module) and of a dice game."""
    screens, _ = play_through(tmp_path, ["--players", "4", "--seed", "5", "--options", ALL], size, "alhambra",
                              moves=6, name="base")
    assert screens == 6
    screens, _ = play_through(tmp_path, ["--game", "alcazaba", "--seed", "5"], size, "dice", moves=4,
                              name="alcazaba")
    assert screens == 4


GAMES = {
    "base-2p": (["--seed", "3"], "alhambra"),
    "base-4p": (["--players", "4", "--seed", "4"], "alhambra"),
    "all-modules": (["--players", "3", "--seed", "6", "--options", ALL], "alhambra"),
    "dice": (["--game", "dice", "--players", "3", "--seed", "7"], "dice"),
    "alcazaba": (["--game", "alcazaba", "--seed", "8"], "dice"),
}


@needs_tmux
@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("kind", list(GAMES))
def test_whole_games_on_the_screen(tmp_path, kind, size):
    args, game = GAMES[kind]
    screens, last = play_through(tmp_path, args, size, game, name=kind)
    assert screens > 5 and last.rstrip().split("\n")[-1].startswith("[game over]")


# ---------------------------------------------------------------------------------------------------------
# the frames without a terminal


class FakeScreen:
    def __init__(self, size):
        self.cols, self.rows = size

    def size(self):
        return self.cols, self.rows


def positions(players, seed, options=None, game="alhambra", every=9):
    s = new_game(players, seed, options=options, game=game)
    rng = random.Random(seed)
    k = 0
    while not s.is_terminal():
        if k % every == 0 and s.current_player == 0:
            yield s
        s.apply(rng.choice(s.legal_actions()))
        k += 1
    yield s


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("players,options", [(2, None), (4, None), (3, "all"), (6, "all")])
def test_every_frame_fits_and_holds_the_decision(size, players, options):
    opts = dict.fromkeys(MODULES, True) if options else None
    width, height = size
    for s in positions(players, players + width, opts):
        g = AlhambraTerminalGame(s, 0, {}, None, 0.1, screen=FakeScreen(size))
        g.did = {1: ["buys arcades 17 with g4 g3 exactly - extra action"] * 2, 0: ["takes y3"]}
        frame = g.frame(width, height, "[seat 1, your move] > ")
        lines = frame.split("\n")
        assert len(lines) == height and max(len(x) for x in lines) <= width, frame
        if s.is_terminal():
            continue
        for part in ("Market 1 ", "Money display:", "Your hand (", "you (seat 1):", "reserve:"):
            assert part in frame, (part, frame)
        assert re.search(r"^.*s2: (\.\.\.; )?buys arcades 17", frame, re.M), frame    # (cut: newest stay)


def test_wide_screens_show_the_other_cities_beside_the_own():
    s = next(p for i, p in enumerate(positions(3, 2)) if i == 3)
    wide = "\n".join(render_screen(s, 0, ["", "random", "random"], 160, 40))
    assert "you (seat 1):" in wide and "seat 2 (random):" in wide
    narrow = "\n".join(render_screen(s, 0, ["", "random", "random"], 80, 22))
    assert "seat 2 (random):" not in narrow


def test_pages_turn_with_enter_and_go_back_to_the_table():
    lines = iter(["moves", "", "", "", "", "", "quit"])
    frames = []

    class Scripted(FakeScreen):
        def read(self, frame, prompt, **_keys_and_completer):
            frames.append(frame(80, 24, prompt))
            return next(lines)

    s = new_game(2, 1)
    g = AlhambraTerminalGame(s, 0, {}, None, 0.1, screen=Scripted((80, 24)))
    while s.current_player != 0:
        s.apply(s.legal_actions()[0])
    assert g.ask("> ") == "moves"
    g.show_moves([])
    assert g.ask("> ") == "quit"
    assert "1) " in frames[1] and "-- " in frames[1]               # the page of moves
    assert "Market 1 " in frames[-1] and "-- " not in frames[-1]   # Enter went back to the table
    assert all(len(f.split("\n")) == 24 for f in frames)


def test_dice_frames_fit():
    for game in ("dice", "alcazaba"):
        for size in SIZES:
            for s in positions(4, 3, game=game, every=5):
                g = DiceTerminalGame(s, 0, {}, None, 0.1, screen=FakeScreen(size))
                frame = g.frame(*size, "[seat 1, roll the dice: roll] > ")
                lines = frame.split("\n")
                assert len(lines) == size[1] and max(len(x) for x in lines) <= size[0], frame


def test_the_placement_view_fits_80_columns():
    """Issue 44 item 5: a city 10 cells wide (with its rim) is drawn in narrow cells, not folded."""
    cells = " ".join(f"{x},0:{t}/-" for x, t in zip(range(1, 9), (1, 2, 3, 4, 5, 6, 7, 8), strict=True))
    from alhambra_ai._core import City

    city = City.from_text("0,0:0/- " + cells)
    out = []
    s = new_game(2, 1)
    g = AlhambraTerminalGame(s, 0, {}, None, 0.1, write=out.append, width=80)
    g.state = type("S", (), {"observation": lambda self, seat: {**s.observation(seat), "cities": [
        [list(c) for c in city.cells()], []]}, "current_player": 0})()
    g.write(g.short_view())
    view = "\n".join(out).split("\n")
    assert max(len(x) for x in view) <= 80, "\n".join(view)
    head = next(x for x in view if "y\\x" in x)
    assert head.split()[1:] == [str(x) for x in range(-1, 10)], "\n".join(view)   # whole, not folded


# ---------------------------------------------------------------------------------------------------------
# Tab completion and a resized terminal (issue 44)


def test_completion_offers_the_commands_in_play_and_the_legal_moves():
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    def complete(g, text):
        return [c.text for c in g.completer().get_completions(Document(text), CompleteEvent())]

    base = AlhambraTerminalGame(new_game(3, 1), 0, {}, None, 0.1)
    words = base.command_words()
    assert {"take", "buy", "place", "build", "swap", "table", "city", "moves", "hint", "quit"} <= set(words)
    assert not {"wake", "bazaar", "wall", "dirk", "the"} & set(words)     # modules not in play; no filler
    every = AlhambraTerminalGame(new_game(2, 1, options=dict.fromkeys(MODULES, True)), 0, {}, None, 0.1)
    assert {"wake", "done", "bazaar", "falcon", "thief", "wall", "resident", "disc", "dirk"} <= set(
        every.command_words())
    s = new_game(2, 1)
    while s.current_player != 0:
        s.apply(s.legal_actions()[0])
    g = AlhambraTerminalGame(s, 0, {}, None, 0.1)
    assert complete(g, "ta") == ["table", "take"]
    takes = complete(g, "take ")
    assert takes and all(t.startswith("take ") for t in takes)
    legal = [s.action_to_text(a) for a in s.legal_actions()]
    assert sorted(takes) == sorted(t for t in legal if t.startswith("take"))
    assert complete(g, "city ") == ["city 1", "city 2"]
    dice = DiceTerminalGame(new_game(2, 1, game="dice"), 0, {}, None, 0.1)
    assert {"roll", "keep", "stop"} <= set(dice.command_words())
    assert complete(dice, "ro") == ["roll"]


def test_pages_are_drawn_for_the_size_of_each_redraw():
    s = new_game(3, 2)
    g = AlhambraTerminalGame(s, 0, {}, None, 0.1, screen=FakeScreen((80, 24)), width=80)
    g.look("table", [])
    g.show_moves([])
    narrow, wide = g.frame(80, 24, "> "), g.frame(160, 50, "> ")
    assert max(map(len, narrow.split("\n"))) <= 80 < max(map(len, wide.split("\n"))) <= 160
    assert "seat 3: 0 buildings" not in narrow and "seat 3: 0 buildings" in wide   # side by side at 160
    g.pages = []
    g.show_city(["2"])
    assert g.page_lines(80) != g.page_lines(40)                    # narrow cells at 40 columns


@needs_tmux
def test_tab_completes_and_a_resized_terminal_gets_the_table_anew(tmp_path):
    size = (80, 24)
    t = Tmux(tmp_path, ["--players", "3", "--seed", "4", "--bot", RANDOM, "--move-time", "0.3"], size=size,
             name="tab")
    try:
        t.wait(r"^\[seat 1, ")
        t.key("ta", "Tab")
        deadline = time.monotonic() + 60                   # (a loaded machine is slow)
        while not re.search(r"^ +take *$", t.screen(), re.M) and time.monotonic() < deadline:
            time.sleep(0.1)
        screen = t.screen()
        assert re.search(r"^ +table *$", screen, re.M) and re.search(r"^ +take *$", screen, re.M), screen
        t.key("C-u", "take ", "Tab")                                   # the legal takes
        deadline = time.monotonic() + 60                   # (a loaded machine is slow)
        while len(re.findall(r"^ +take [ygbo]\d", t.screen(), re.M)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        t.key("Tab")                                                   # the first one, then Enter
        deadline = time.monotonic() + 60                   # (a loaded machine is slow)
        while not re.search(r"> take [ygbo]\d", t.screen()) and time.monotonic() < deadline:
            time.sleep(0.1)
        t.key("Enter")
        screen = t.wait(r"^\[seat 1, ", shows="you: take ")
        t.send("table")
        screen = t.wait(r"^\[seat 1, ", shows="-- ")
        assert max(len(x) for x in screen.split("\n")) <= 80 and "Money display:" in screen
        t.resize(120, 40)
        deadline = time.monotonic() + 60                   # (a loaded machine is slow)
        while max(len(x) for x in t.screen().split("\n")) <= 80 and time.monotonic() < deadline:
            time.sleep(0.1)
        screen = t.screen()
        lines = screen.rstrip("\n").split("\n")
        assert 80 < max(len(x) for x in lines) <= 120 and len(lines) <= 40, screen
        assert "seat 3 (random)  " in screen and "-- " in screen, screen     # the table, drawn at 120
        assert "=" * 120 in screen
        t.send("quit")
    finally:
        t.close()


@needs_tmux
def test_tab_completes_in_the_line_mode_at_a_terminal_too(tmp_path):
    """--plain at a terminal reads with input() and GNU readline: the same completions."""
    t = Tmux(tmp_path, ["--plain", "--seed", "3", "--bot", RANDOM, "--move-time", "0.2"], name="plain-tab")
    try:
        t.wait(r"^\[seat 1, your move\] >")
        t.key("ta", "Tab")
        time.sleep(0.3)
        t.key("Tab")                                         # the second Tab lists what the word could be
        deadline = time.monotonic() + 60                   # (a loaded machine is slow)
        while not re.search(r"^table +take *$", t.screen(), re.M) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert re.search(r"^table +take *$", t.screen(), re.M), t.screen()
        t.key("C-u")
        t.send("quit")
    finally:
        t.close()


def test_help_fits_one_80x24_screen_with_every_module_and_dirk():
    """Issue 44 item 3: help fits 24 lines: the widest game (2 players: Dirk; all eight modules)."""
    g = AlhambraTerminalGame(new_game(2, 1, options=dict.fromkeys(MODULES, True)), 0, {}, None, 0.1,
                             screen=FakeScreen((80, 24)))
    g.show(g.help_text)
    frame = g.frame(80, 24, "[seat 1, your move] > ")
    assert "-- Enter: back to the table" in frame and "-- lines" not in frame, frame
    assert "hint | help | quit" in frame and max(map(len, frame.split("\n"))) <= 80
