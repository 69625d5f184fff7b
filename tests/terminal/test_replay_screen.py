"""``alhambra-ai replay --step`` in a terminal (issue 44): a spectator's screen that fits the terminal and
says its keys at every pause. The frames themselves (no terminal) along whole records of each kind at 80x24,
100x30 and 120x40; the real program in tmux: a few steps forward and back, a jump, a page, a resize; the
line output into a pipe is unchanged."""

import random
import re
import shutil
import time

import pytest
from tmuxplay import Tmux

from alhambra_ai import new_game
from alhambra_ai.formats.record import make_record, save_record
from alhambra_ai.options import MODULES
from alhambra_ai.terminal.spectate import HELP, Replay

SIZES = [(80, 24), (100, 30), (120, 40)]
PROMPT = re.compile(r"^\[(move \d+/\d+|the deal, 0/\d+)(, the end)?: .*\] > ?$")
needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None,
                                reason="tmux is not installed (.ci/run installs it)")

KINDS = {"base-2p": (2, None, "alhambra"), "base-4p-all": (4, "all", "alhambra"),
         "base-3p-all": (3, "all", "alhambra"), "base-6p": (6, None, "alhambra"),
         "dice": (3, None, "dice"), "alcazaba": (4, None, "alcazaba")}
NAMES = ["greedy", "mcts", "random", "expectimax", "greedy", "random"]


def record_of(kind, seed=5):
    players, options, game = KINDS[kind]
    s = new_game(players, seed, options=dict.fromkeys(MODULES, True) if options else None, game=game)
    rng = random.Random(seed)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
    return make_record(s, NAMES[:players])


def check(frame, size):
    """A frame: exactly the screen's lines, none wider, the prompt (with its keys) last, nobody "you"."""
    width, height = size
    lines = frame.split("\n")
    assert len(lines) == height and max(len(x) for x in lines) <= width, frame
    assert PROMPT.match(lines[-1].rstrip()), lines[-1]
    assert "you" not in frame.replace("your", ""), frame


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_frame_of_a_record_fits(kind):
    replay = Replay(record_of(kind))
    every = max(1, replay.last // 25)
    for size in SIZES:
        for k in [*range(0, replay.last, every), replay.last]:
            replay.go(k)
            frame = replay.frame(*size)
            check(frame, size)
            if KINDS[kind][2] == "alhambra":
                assert "Market 1 " in frame and "Money display:" in frame
                assert all(name in frame for name in NAMES[:KINDS[kind][0]]), frame   # every seat's hand
            else:
                assert re.search(r"^column +dice", frame, re.M), frame
            if k:
                assert f"{k}. s" in frame, frame                  # the move just played, in words


def test_keys_move_forward_back_and_to_a_move():
    replay = Replay(record_of("base-2p"))
    assert replay.at == 0 and "the deal" in replay.frame(80, 24).split("\n")[-1]
    for line, at in (("", 1), ("n", 2), (":next", 3), ("b", 2), (":back", 1), ("40", 40), ("+10", 50),
                     ("-5", 45), (":end", replay.last), ("n", replay.last), ("s", 0), ("b", 0)):
        assert replay.command(line) is True
        assert replay.at == at, line
    assert "The deal: there is no move before it" in replay.messages[0]
    replay.command("99999")
    assert replay.at == replay.last and "There is no move 99999" in replay.messages[0]
    assert replay.frame(80, 24).split("\n")[-1].startswith(f"[move {replay.last}/{replay.last}, the end:")
    assert replay.command("q") is False


def test_pages_and_their_keys():
    replay = Replay(record_of("base-4p-all"))
    replay.go(200)
    replay.command("help")
    assert HELP.split("\n")[1] in replay.frame(80, 24)
    assert max(len(x) for x in HELP.split("\n")) <= 78
    replay.command("city 3")
    frame = replay.frame(80, 24)
    assert "seat 3 (random):" in frame and "reserve:" in frame
    replay.command("")                                          # Enter: back to the board
    assert not replay.pages and replay.at == 200
    replay.command("table")
    wide = replay.frame(120, 40)
    assert "seat 1 (greedy)" in wide and "seat 4 (expectimax)" in wide
    replay.command("scores")
    assert "pav ser arc cha gar tow  wall" in replay.frame(80, 24)
    replay.command("city 9")
    assert "seat from 1 to 4" in replay.frame(80, 24)
    replay.command("f 2")
    assert "seat 2 (mcts):" in replay.frame(80, 24)


# ---------------------------------------------------------------------------------------------------------
# the real program in tmux


def start(tmp_path, kind, size):
    path = tmp_path / f"{kind}.json"
    save_record(record_of(kind), str(path))
    return Tmux(tmp_path, [str(path), "--step"], size=size, name=f"replay-{kind}-{size[0]}", command="replay",
                status=True)


def screen_at(t, size, pattern, shows=""):
    screen = t.wait(pattern, shows=shows, timeout=30)
    lines = screen.rstrip("\n").split("\n")
    assert len(lines) <= size[1] and max(len(x) for x in lines) <= size[0], screen
    assert PROMPT.match([x for x in lines if x.strip()][-1].rstrip()), screen
    return screen


@needs_tmux
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_replay_steps_in_a_terminal(tmp_path, size):
    t = start(tmp_path, "base-4p-all", size)
    try:
        screen = screen_at(t, size, r"^\[the deal, 0/\d+: Enter next, b back")
        assert "Market 1 " in screen and "you" not in screen
        t.send("")
        screen_at(t, size, r"^\[move 1/")
        t.key("Right")
        screen_at(t, size, r"^\[move 2/", shows="2. s")
        t.key("Left")
        screen_at(t, size, r"^\[move 1/")
        t.key("Space")
        screen_at(t, size, r"^\[move 2/")
        t.send("120")
        screen_at(t, size, r"^\[move 120/", shows="120. s")
        t.send("b")
        screen_at(t, size, r"^\[move 119/")
        t.key("ci", "Tab")                                   # Tab completes the command word
        deadline = time.monotonic() + 60                   # (the completion comes after the key: wait)
        while not re.search(r"> city$", t.screen().rstrip()) and time.monotonic() < deadline:
            time.sleep(0.05)
        t.send(" 2")
        screen_at(t, size, r"^\[move 119/.*Enter: more or back", shows="seat 2 (mcts):")
        t.send("q")
        deadline = time.monotonic() + 60                   # (a loaded machine is slow)
        while "Left the replay at move 119" not in t.scrollback() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "Left the replay at move 119 of " in t.scrollback()
    finally:
        t.close()


@needs_tmux
@pytest.mark.parametrize("kind", [pytest.param("dice", marks=pytest.mark.slow), "alcazaba"])
def test_dice_replays_step_in_a_terminal(tmp_path, kind):
    size = (80, 24)
    t = start(tmp_path, kind, size)
    try:
        screen_at(t, size, r"^\[the deal, 0/")
        t.send("30")
        screen = screen_at(t, size, r"^\[move 30/", shows="30. s")
        assert re.search(r"^column +dice", screen, re.M)
        t.key("Left")
        screen_at(t, size, r"^\[move 29/")
        t.key("C-c")                                         # Ctrl-C: leaves, exit status 130
        deadline = time.monotonic() + 60                   # (a loaded machine is slow)
        while "[exit status 130]" not in t.scrollback() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "Left the replay at move 29 of " in t.scrollback()
        assert "[exit status 130]" in t.scrollback()
    finally:
        t.close()


@needs_tmux
def test_a_resized_terminal_gets_the_board_and_the_table_anew(tmp_path):
    t = start(tmp_path, "alcazaba", (80, 24))
    try:
        screen_at(t, (80, 24), r"^\[the deal, 0/")
        t.send("table")
        screen = screen_at(t, (80, 24), r"Enter: more or back", shows="-- lines 1-22 of")
        assert "seat 3 (random):" not in screen      # (at 80 columns the cities stand one under another)
        t.resize(120, 40)
        deadline = time.monotonic() + 60                   # (a loaded machine is slow)
        while "-- lines 1-22 of" in t.screen() and time.monotonic() < deadline:
            time.sleep(0.1)
        screen = screen_at(t, (120, 40), r"Enter: more or back")
        assert len(screen.rstrip("\n").split("\n")) > 24 and "seat 3 (random):" in screen, screen
        assert max(len(x) for x in screen.split("\n")) > 80, screen
        t.send("q")
    finally:
        t.close()


@needs_tmux
@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("kind", list(KINDS))
def test_whole_replays_in_a_terminal(tmp_path, kind, size):
    """Through a whole record: 12 moves spread over the game, each with the Right and Left keys around it,
    and the end; each screen read and checked (the slow job; every frame's fit is checked in-process by
    test_every_frame_of_a_record_fits)."""
    t = start(tmp_path, kind, size)
    try:
        screen = screen_at(t, size, r"^\[the deal, 0/")
        last = int(re.search(r"0/(\d+)", screen).group(1))
        for k in sorted({*range(1, last, max(1, last // 12)), last - 1}):
            t.send(str(k))
            screen_at(t, size, rf"^\[move {k}/{last}", shows=f"{k}. s")
            t.key("Right")
            screen_at(t, size, rf"^\[move {k + 1}/{last}")
            t.key("Left")
            screen_at(t, size, rf"^\[move {k}/{last}")
        t.key("End")
        screen_at(t, size, rf"^\[move {last}/{last}, the end:")
        t.send("q")
    finally:
        t.close()


def test_a_pipe_keeps_the_line_output(tmp_path):
    from click.testing import CliRunner

    from alhambra_ai.cli import main

    path = tmp_path / "g.json"
    save_record(record_of("base-2p"), str(path))
    result = CliRunner().invoke(main, ["replay", str(path), "--step"], input="\n\nq\n")
    assert result.exit_code == 0, result.output
    assert "   1. seat " in result.output and "Money display:" in result.output
    assert max(len(x) for x in result.output.split("\n")) <= 80          # a pipe: 80 columns


def test_the_line_mode_says_its_keys_at_each_pause_to_a_person():
    import io

    from alhambra_ai.terminal.replay import replay

    asked = []
    record = record_of("dice")
    def wait(prompt):
        asked.append(prompt)
        return "q" if len(asked) == 3 else ""

    replay(record, io.StringIO(), step=True, wait=wait, prompt=True)
    total = len(record["actions"])
    assert asked == [f"[move {k}/{total}: Enter next, q quit] " for k in (1, 2, 3)]
    asked.clear()
    replay(record, io.StringIO(), step=True, wait=lambda p: asked.append(p) or "q")   # into a pipe: no prompt
    assert asked == [""]


def test_the_end_names_the_winner():
    for kind in ("base-2p", "dice"):
        replay = Replay(record_of(kind))
        replay.go(replay.last)
        assert re.search(r"s\d \w+ (wins|and s\d \w+ share the win) with \d+", replay.frame(80, 24)), kind


def test_a_forfeited_seats_moves_say_the_stand_in_played_them():
    record = record_of("base-2p")
    record["forfeits"] = [{"seat": 1, "bot": "mcts", "reason": "times out", "move": 10}]
    replay = Replay(record)
    seats = [seat for seat, _text in replay.moves]
    later = next(k for k in range(12, replay.last) if seats[k - 1] == 1)
    earlier = next(k for k in range(1, 10) if seats[k - 1] == 1)
    assert replay.line(later).startswith(f"{later}. s2 (stand-in): ")
    assert replay.line(earlier).startswith(f"{earlier}. s2: ")
