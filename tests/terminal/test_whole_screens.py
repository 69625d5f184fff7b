"""Issue 55 item 2: at every prompt of whole games the own city is on the screen whole (never cut, never
``...``), with its reserve, the news since the person's last move and the scoring lines, in every game.

Two walks: the frames themselves (no terminal) along whole games played through ``TerminalGame.run`` with
random moves for every seat, checked against the game's state (each row and column of the city drawn, each
news line there); and the real program in tmux at 80x24, checked from the screen alone (no cut marker, the
city's rows and tiles all drawn, the scoring lines after each scoring). The default run walks one game of
each family in frames and a whole Alcazaba game in tmux; the slow job walks more games, sizes and the other
families in tmux."""

import random
import re
import shutil
import time

import pytest
from tmuxplay import Tmux, city_problems, news_problems

from alhambra_ai import new_game
from alhambra_ai.games.alhambra.session import AlhambraTerminalGame
from alhambra_ai.games.dice.session import DiceTerminalGame
from alhambra_ai.options import MODULES

ALL = dict.fromkeys(MODULES, True)
needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None,
                                reason="tmux is not installed (.ci/run installs it)")


class _Out:
    """A seat whose bot is out: the session plays random legal moves for it (no worker process)."""

    name, alive = "expectimax", False     # (the longest built-in name: the widest seat labels)

    def close(self):
        pass


class _Screen:
    """The full screen without a terminal: each prompt's frame is checked, then a random legal move is
    typed by number."""

    def __init__(self, size, check):
        self.size_, self.check = size, check

    def size(self):
        return self.size_

    def status(self, frame, text):
        pass

    def read(self, frame, prompt, **_keys_and_completer):
        self.check(frame(*self.size_, prompt))
        legal = self.game.state.legal_actions()
        return str(self.game.rng.randrange(len(legal)) + 1)


def walk_frames(game, players, seed, options=None, size=(80, 24)):
    """Play a whole game through the session's loop at ``size``; returns the number of frames checked."""
    state = new_game(players, seed, options=options, game=game)
    frames = []
    scorings = [0]

    def check(frame):
        lines = frame.split("\n")
        assert len(lines) == size[1] and max(map(len, lines)) <= size[0], frame
        if "-- Enter" in frame or "-- lines" in frame:
            return                                       # a page (a scoring's table, the end screen)
        frames.append(frame)
        if game != "dice":
            cells = state.observation(0)["cities"][0]
            assert not city_problems(frame, cells), (city_problems(frame, cells), frame)
        events = [e for e in g.events() if not (game != "alhambra" and e.startswith("Scores: "))]
        assert not news_problems(frame, events), (news_problems(frame, events), frame)
        done = len(state.score_breakdown())
        if done > scorings[0] and game != "alhambra":    # (the base game's scoring is a page: above)
            assert re.search(rf"Scoring {'ABC'[done - 1]}: ", frame), frame
        scorings[0] = done

    screen = _Screen(size, check)
    cls = AlhambraTerminalGame if game == "alhambra" else DiceTerminalGame
    g = cls(state, 0, {p: _Out() for p in range(1, players)}, None, 0.1, screen=screen, write=lambda t: None)
    screen.game = g
    g.rng = random.Random(seed)
    g.run()
    assert state.is_terminal()
    return len(frames)


@pytest.mark.parametrize("game,players,seed,options", [
    ("alhambra", 3, 1, ALL), ("alhambra", 2, 2, None), ("alhambra", 6, 1, ALL),
    ("dice", 3, 1, None), ("alcazaba", 2, 3, None), ("alcazaba", 4, 1, None)],
    ids=["base-3p-all", "base-2p", "base-6p-all", "dice-3p", "alcazaba-2p", "alcazaba-4p"])
def test_whole_games_keep_the_city_and_the_news_at_80x24(game, players, seed, options):
    assert walk_frames(game, players, seed, options) > 10


@pytest.mark.slow
@pytest.mark.parametrize("size", [(80, 24), (100, 30), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", ["alhambra", "dice", "alcazaba"])
def test_many_whole_games_keep_the_city_and_the_news(game, size):
    for players in (2, 3, 4, 6) if game == "alhambra" else (2, 3, 4):
        for seed in range(3):
            walk_frames(game, players, seed, ALL if game == "alhambra" and seed % 2 else None, size)


# ---------------------------------------------------------------------------------------------------------
# the real program in tmux at 80x24

PROMPT = r"^\[(seat 1, .*|game over)\] > ?$"


def walk_tmux(tmp_path, args, game, name):
    """Play a whole game in tmux at 80x24 by typing a move number (1 to 4 in turn; a number past the last
    move is refused and asked again) at each prompt, ``moves`` now and then; every screen is checked.
    Returns the number of screens."""
    t = Tmux(tmp_path, [*args, "--move-time", "0.05", "--time-bank", "2", "--bot", "random"], size=(80, 24),
             name=name)
    screens, last, rounds, turn, seen = 0, "", None, None, []
    try:
        while True:
            screen = t.wait(PROMPT, timeout=60)
            lines = screen.rstrip("\n").split("\n")
            assert len(lines) <= 24 and max(map(len, lines)) <= 80, screen
            screens += 1
            if lines[-1].startswith("[game over]"):
                assert "Final scores:" in screen, screen
                assert game != "alcazaba" or seen == ["A", "B"], seen
                return screens
            if "-- Enter" in screen or "-- lines" in screen:
                turn = None                  # (a page: the turn it stands over is not known)
            else:
                if game != "dice" and city_problems(screen):
                    pytest.fail(f"{city_problems(screen)}\n{screen}")
                if game == "alcazaba":       # the first screen after a scoring says it
                    now = int(re.search(r"round (\d) of 5", screen).group(1))
                    if rounds is not None and now > rounds and rounds in (1, 3):
                        assert f"Scoring {'AB'[rounds // 2]}: " in screen, screen
                        seen.append("AB"[rounds // 2])
                    rounds = now
                if game == "alhambra":       # a new turn: every other seat's move is on the screen
                    head = re.match(r"Turn (\d+): you to act", screen)
                    if head and turn is not None and int(head.group(1)) > turn + 1:
                        for p in range(2, 1 + int(re.search(r"--players (\d)", " ".join(args)).group(1))):
                            assert re.search(rf"(^|\s)s{p}: ", screen, re.M), screen
                    turn = int(head.group(1)) if head else turn
            last = screen
            t.send(str(1 + screens % 4) if screens % 5 else "moves")    # (a page now and then: moves)
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                now_screen = t.screen()
                shown = [x for x in now_screen.split("\n") if x.strip()]
                if now_screen != last and shown and re.search(r"\] > ?$", shown[-1]):
                    break
                time.sleep(0.05)
    finally:
        t.close()


@pytest.mark.slow  # 20 s: the default run walks the same games in frames (above)
@needs_tmux
def test_a_whole_alcazaba_game_in_tmux_at_80x24(tmp_path):
    assert walk_tmux(tmp_path, ["--game", "alcazaba", "--players", "3", "--seed", "4"], "alcazaba",
                     "alcazaba") > 20


@needs_tmux
@pytest.mark.slow
@pytest.mark.parametrize("kind", ["base-3p-all", "base-2p", "dice"])
def test_whole_games_in_tmux_at_80x24(tmp_path, kind):
    args = {"base-3p-all": ["--players", "3", "--seed", "6", "--options", ",".join(MODULES)],
            "base-2p": ["--players", "2", "--seed", "3"],
            "dice": ["--game", "dice", "--players", "3", "--seed", "7"]}[kind]
    walk_tmux(tmp_path, args, "dice" if kind == "dice" else "alhambra", kind)
