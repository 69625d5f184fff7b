"""The terminal game: scripted sessions through stdin, command parsing, announcements, no tracebacks."""

import os
import random
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner
from paths import ROOT

from alhambra_ai import new_game
from alhambra_ai.cli import main
from alhambra_ai.games.alhambra.session import AlhambraTerminalGame as TerminalGame
from alhambra_ai.games.alhambra.words import describe, narrate, normalize, resolve
from alhambra_ai.terminal.session import InputError

RANDOM_BOT = str(ROOT / "bots" / "random.py")


def run(args, lines):
    result = CliRunner().invoke(main, ["play", *args], input="".join(f"{x}\n" for x in lines))
    return result, result.output


def numbers_script(seed, count=3000):
    """A person who lists the moves now and then and picks numbers, some out of range."""
    rng = random.Random(seed)
    lines = []
    for i in range(count):
        if i % 97 == 0:
            lines.append("moves")
        lines.append(str(rng.choice([1, 1, 2, 2, 3, 4, 6, 9, 40])))
    return lines


def _text(state, code):
    return state.action_to_text(code)


def advance(state, rng, until):
    """Random legal moves until ``until(state)`` holds (None if the game ends first)."""
    while not state.is_terminal():
        if until(state):
            return state
        state.apply(rng.choice(state.legal_actions()))
    return None


# ---------------------------------------------------------------------------------------------------------
# Whole games through stdin


def test_full_game_against_random_with_bad_input():
    bad = ["fly away", "buy 9 g1", "take z9", "12345", "place 99 1,1", "", "help", "moves", "table", "city 2",
           "city 7", "scores", "log"]
    result, out = run(["--players", "2", "--seat", "1", "--bot", RANDOM_BOT, "--seed", "11"],
                      bad + numbers_script(1))
    assert result.exit_code == 0, out[-3000:]
    assert "Traceback" not in out and result.exception is None
    assert "Unknown command 'fly'" in out
    flat = " ".join(out.split())                              # (messages wrap at the pipe's 80 columns)
    assert "Not possible: buy: bad slot '9' (slots are 1-4)" in flat
    assert "There is no move 12345" in out
    assert "Commands (cells are x,y" in out                     # help
    assert "1) " in out and "Type a number to play that move." in out
    assert "Write city N with N a seat from 1 to 2." in out
    assert "seat 2 (random): " in out and "  reserve: " in out    # city N: the city and its reserve (public)
    assert "  wall 5 17" not in out and "| dirk 17 " in out      # help: only the commands of this game
    assert "Seat 2 (random) " in out                          # bot moves in words
    assert "Scoring round 3 (final)" in out
    assert "Final scores:" in out
    assert "(Dirk, not ranked)" in out                         # 2 players: Dirk is reported, not ranked
    end = out[out.index("Final scores:"):]  # the breakdown, then the winner
    assert "pav ser arc cha gar tow  wall  total" in end
    assert "Winner: " in end or "Winners (shared): " in end
    assert "End of input" not in out
    assert_fits(out)


def assert_fits(out, width=80):
    """Every screen line fits (piped input is not echoed, so a prompt and the next output share a line)."""
    for line in out.splitlines():
        for part in line.split("] > "):
            assert len(part) <= width, part


def test_default_opponent_falls_back_to_random(monkeypatch):
    import dataclasses

    from alhambra_ai import registry
    missing = dataclasses.replace(registry.get("alhambra"), strongest="no_such_bot")
    monkeypatch.setitem(registry._table(), "alhambra", missing)
    result, out = run(["--players", "3", "--seed", "2"], ["hint", "quit"])
    assert result.exit_code == 0
    assert "The strongest bot" in out and "is missing: playing against random.py instead." in out
    assert "seat 2: random, seat 3: random" in out
    hint = next(line for line in out.splitlines() if "Hint (random): " in line)
    text = hint.split("Hint (random): ")[1].split("   (")[0]
    assert text.split()[0] in ("take", "buy", "build", "remove", "swap", "pass")


def test_color_only_on_request():
    _, plain = run(["--players", "2", "--bot", RANDOM_BOT, "--seed", "1"], ["quit"])
    _, coloured = run(["--players", "2", "--bot", RANDOM_BOT, "--seed", "1", "--color"], ["quit"])
    assert "\x1b[" not in plain and "\x1b[" in coloured


def test_full_game_three_players_second_seat():
    result, out = run(["--players", "3", "--seat", "2", "--bot", "random", "--seed", "5", "--unicode"],
                      numbers_script(2))
    assert result.exit_code == 0, out[-3000:]
    assert "Traceback" not in out
    assert "You are seat 2; seat 1: random, seat 3: random." in out
    assert "Seat 1 (random) " in out and "Seat 3 (random) " in out
    assert "Final scores:" in out and "Dirk" not in out
    assert "━" in out or "─" in out                            # unicode cities
    assert_fits(out)


def test_same_seed_same_session():
    lines = numbers_script(3)
    _, first = run(["--players", "2", "--bot", RANDOM_BOT, "--seed", "9"], lines)
    _, second = run(["--players", "2", "--bot", RANDOM_BOT, "--seed", "9"], lines)
    assert first == second and "Final scores:" in first


# ---------------------------------------------------------------------------------------------------------
# Leaving the game, option errors


def test_end_of_input_ends_cleanly():
    result, out = run(["--players", "2", "--seat", "1", "--bot", RANDOM_BOT, "--seed", "4"], ["moves"])
    assert result.exit_code == 0
    assert "End of input: the game was left unfinished." in out
    assert "Scores: you (seat 1)" in out and "Traceback" not in out


def test_quit():
    result, out = run(["--players", "4", "--seat", "4", "--bot", RANDOM_BOT, "--seed", "4"], ["quit"])
    assert result.exit_code == 0
    assert "You left the game." in out


@pytest.mark.parametrize(("args", "message"), [
    (["--players", "2", "--seat", "3"], "--seat must be 1 to 2"),
    (["--players", "7"], "--players must be 2 to 6"),
    (["--players", "1"], "--players must be 2 to 6"),
    (["--bot", "no/such/bot.py"], "bot file not found: no/such/bot.py"),
    (["--move-time", "0"], "--move-time must be positive"),
])
def test_bad_options_give_one_message(args, message):
    result, out = run(args, [])
    assert result.exit_code == 2
    assert f"Error: {message}" in out
    assert "Traceback" not in out


def test_broken_bot_file_is_reported(tmp_path):
    bot = tmp_path / "broken.py"
    bot.write_text("class Bot:\n    def act(self, obs):\n        return 'fly'\n")
    args = ["--players", "2", "--seat", "2", "--bot", str(bot), "--seed", "3"]
    result, out = run(args, ["1"] * 6 + ["quit"])
    assert result.exit_code == 0
    assert "Seat 1 (broken) failed (illegal action: 'fly'" in out    # replaced by random legal moves
    assert "is out of the game" in out and out.count("failed (") == 1
    syntax = tmp_path / "syntax.py"
    syntax.write_text("class Bot(:\n")
    result, out = run(["--bot", str(syntax)], [])
    assert result.exit_code == 2 and "Error:" in out and "syntax error" in out


SNOOP_BOT = """
import gc, sys

def find_state():
    # every object in the process and every frame on the stack: is the game's State anywhere?
    seen = [o for o in gc.get_objects() if type(o).__name__ == "State"]
    f = sys._getframe()
    while f is not None:
        seen += [v for v in f.f_locals.values() if type(v).__name__ == "State"]
        f = f.f_back
    return seen

class Bot:
    def act(self, obs):
        return "peek" if find_state() else obs.legal_actions[0]
"""


def test_a_bot_cannot_reach_the_game_state(tmp_path):
    snoop = tmp_path / "snoop.py"
    snoop.write_text(SNOOP_BOT)
    namespace: dict = {}
    exec(SNOOP_BOT, namespace)
    state = new_game(2, seed=1)  # noqa: F841 - what the probe must see when it shares a process with a game
    assert namespace["find_state"]()
    args = ["--players", "3", "--seat", "1", "--bot", str(snoop), "--seed", "5"]
    result, out = run(args, numbers_script(3))
    assert result.exit_code == 0 and "Final scores" in out
    assert "peek" not in out and "failed (" not in out


def test_a_hanging_bot_is_out_after_its_time_bank(tmp_path):
    hang = tmp_path / "hang.py"
    hang.write_text("import time\nclass Bot:\n    def act(self, obs):\n        time.sleep(3600)\n")
    args = ["--players", "2", "--seat", "2", "--bot", str(hang), "--seed", "3", "--move-time", "0.1",
            "--time-bank", "0.3"]
    started = time.monotonic()
    result, out = run(args, ["1"] * 4 + ["quit"])
    assert result.exit_code == 0
    assert "Seat 1 (hang) failed (times out" in out and "is out of the game" in out
    assert time.monotonic() - started < 30
    result, out = run(args[:-2] + ["--time-bank", "-1"], [])
    assert result.exit_code == 2 and "--time-bank must be 0 or more" in out


def test_a_bot_that_fails_to_start_stops_the_others(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("class Bot:\n    def setup(self, config):\n        raise RuntimeError('no setup')\n"
                   "    def act(self, obs):\n        return obs.legal_actions[0]\n")
    from alhambra_ai.sandbox import process

    result, out = run(["--players", "3", "--bot", RANDOM_BOT, "--bot", str(bad)], [])
    assert result.exit_code == 2 and "Error: bot" in out and "no setup" in out
    assert process.live_count() == 0
    empty = tmp_path / "empty.py"
    empty.write_text("x = 1\n")
    result, out = run(["--bot", str(empty)], [])
    assert result.exit_code == 2 and "Error:" in out and "empty.py" in out
    assert "load error" not in out and process.live_count() == 0


def test_ctrl_c_in_a_real_terminal_session():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-c", "from alhambra_ai.cli import main; main()", "play", "--players", "2",
         "--seat", "1", "--bot", RANDOM_BOT, "--seed", "2"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    seen = b""
    while b"] > " not in seen:
        chunk = proc.stdout.read1(4096)
        assert chunk, seen.decode()
        seen += chunk
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    text = (seen + out).decode()
    assert proc.returncode == 130  # as a shell expects of Ctrl-C
    assert "Interrupted: the game was left unfinished." in text and "add --seed 2" in " ".join(text.split())
    assert "Traceback" not in text + err.decode()


# ---------------------------------------------------------------------------------------------------------
# Commands -> engine actions


def test_every_legal_action_text_resolves_to_itself():
    rng = random.Random(1)
    for n in (2, 3, 5):
        state = new_game(n, seed=n)
        for _ in range(60):
            if state.is_terminal():
                break
            for code in state.legal_actions():
                assert resolve(state, state.action_to_text(code)) == code
            state.apply(rng.choice(state.legal_actions()))


def test_normalize_cells_and_cards():
    assert normalize("Place 17 (1, -2)") == ["place", "17", "1,-2"]
    assert normalize("take y3, b2") == ["take", "y3", "b2"]
    assert normalize("  REMOVE -1 ,0 ") == ["remove", "-1,0"]


def test_aliases_for_placing_and_the_reserve():
    rng = random.Random(4)
    state = advance(new_game(2, seed=4), rng, lambda s: s.phase == "place")
    tile = state.pending()[0]
    assert resolve(state, f"reserve {tile}") == state.parse_action(f"place {tile} reserve")
    assert resolve(state, f"dirk {tile}") == state.parse_action(f"place {tile} dirk")
    assert resolve(state, f"give {tile}") == state.parse_action(f"place {tile} dirk")
    if len(state.pending()) == 1:
        assert resolve(state, "reserve") == state.parse_action(f"place {tile} reserve")


def test_place_means_build_for_a_reserve_tile_and_reserve_cell_means_remove():
    rng = random.Random(5)

    def has_build(s):
        return s.phase == "action" and any(_text(s, a).startswith("build ") for a in s.legal_actions())

    state = advance(new_game(2, seed=6), rng, has_build)
    assert state is not None
    build = next(a for a in state.legal_actions() if state.action_to_text(a).startswith("build "))
    _, tile, cell = state.action_to_text(build).split()
    assert resolve(state, f"place {tile} {cell}") == build
    x, y = cell.split(",")
    assert resolve(state, f"build {tile} ({x}, {y})") == build

    def has_remove(s):
        return s.phase == "action" and any(_text(s, a).startswith("remove ") for a in s.legal_actions())

    state = advance(new_game(3, seed=7), rng, has_remove)
    remove = next(a for a in state.legal_actions() if state.action_to_text(a).startswith("remove "))
    cell = state.action_to_text(remove).split()[1]
    assert resolve(state, f"reserve {cell}") == remove


def test_buy_without_slot_or_by_tile_id():
    rng = random.Random(8)

    def has_buy(s):
        return any(s.action_to_text(a).startswith("buy ") for a in s.legal_actions())

    state = advance(new_game(3, seed=8), rng, has_buy)
    buy = next(a for a in state.legal_actions() if state.action_to_text(a).startswith("buy "))
    words = state.action_to_text(buy).split()
    slot, cards = int(words[1]), words[2:]
    assert resolve(state, "buy " + " ".join(cards)) == buy
    tile = state.market()[slot - 1]
    if tile > 4:
        assert resolve(state, f"buy {tile} " + " ".join(cards)) == buy


def test_placing_during_the_extra_action_is_explained():
    rng = random.Random(2)
    state = advance(new_game(2, seed=2), rng, lambda s: s.phase == "action" and s.pending())
    assert state is not None
    tile = state.pending()[0]
    for text in (f"place {tile} 1,0", f"reserve {tile}", f"dirk {tile}"):
        with pytest.raises(InputError) as info:
            resolve(state, text)
        assert "take your extra action first" in str(info.value)


def test_bad_commands_raise_one_clear_message():
    state = new_game(3, seed=1)
    for text, part in [("", "Type a move"), ("dance", "Unknown command 'dance'"),
                       ("take", "Not possible: take: name the cards"),
                       ("buy 2", "Not possible: buy: name the cards paid"),
                       ("place 17", "Not possible:"), ("remove 0,0", "Not possible:"),
                       ("swap 99 1,0", "Not possible:")]:
        with pytest.raises(InputError) as info:
            resolve(state, text)
        assert part in str(info.value)
        assert "\n" not in str(info.value)


# ---------------------------------------------------------------------------------------------------------
# Words


def test_buy_announcement_says_exact_and_extra_action():
    rng = random.Random(3)

    def exact_buy(s):
        for a in s.legal_actions():
            words = s.action_to_text(a).split()
            if words[0] == "buy":
                from alhambra_ai._core import tile_info
                if sum(int(c[1:]) for c in words[2:]) == tile_info(s.market()[int(words[1]) - 1])[1]:
                    return True
        return False

    state = advance(new_game(2, seed=3), rng, exact_buy)
    assert state is not None
    code = next(a for a in state.legal_actions() if state.action_to_text(a).startswith("buy ")
                and "exactly" in describe(state, a, "Seat 2 (mcts)"))
    sentence = describe(state, code, "Seat 2 (mcts)")
    assert sentence.startswith("Seat 2 (mcts) buys the ") and "from slot" in sentence and "paying" in sentence
    said = []
    seat = state.current_player
    game = TerminalGame(state, human=1 - seat, bots={}, hint_path=None, move_time=0.1, write=said.append)
    game.apply(code, seat)
    assert " ".join(said[0].split()).endswith("exactly - extra action.")     # (wrapped at 80 columns)


def test_narration_groups_public_events():
    from alhambra_ai._core import event_line, parse_card

    y3, b2 = parse_card("y3"), parse_card("b2")
    def ev(kind: str, payload: object, seat: int | None = None) -> dict:
        return {"seat": seat, "kind": kind, "payload": payload}

    events = [dict(ev("action", 1 | 1 << 4, 0), gains=[y3]), ev("display", y3), ev("display", b2),
              ev("market", [1, 33]), ev("market", [3, 17]), ev("scoring_card", 1), ev("reshuffle", 20),
              ev("dirk", 5), ev("dirk", 45), ev("leftover", [2, 40], 1), ev("end", 0)]
    lines = narrate([event_line(e, "take y3") for e in events], events, lambda s: f"Seat {s + 1}")
    assert lines == [
        "New money on the display: y3, b2",
        "New in the market: slot 2 garden 33, slot 4 arcades 17",
        "The scoring card for round 1 is drawn: scoring after this turn",
        "The discard pile is shuffled into a new draw pile (20 cards)",
        "Dirk takes: pavilion 5, tower 45",
        "Leftover garden 40 in slot 3 goes to Seat 2 (most denar)",
        "Market slot 1 cannot be refilled: the game ends",
    ]


def test_leftover_tiles_are_placed_by_the_person():
    # Some seed among a few ends with market tiles going to the person, who then places them.
    for seed in range(1, 12):
        result, out = run(["--players", "3", "--bot", RANDOM_BOT, "--seed", str(seed)], numbers_script(seed))
        assert result.exit_code == 0 and "Final scores:" in out
        if "Place yours." in out:
            break
    else:
        pytest.fail("no session with leftover tiles for the person")
    assert "cannot be refilled: the game ends." in out
    assert "goes to you (most " in out
    final = out[out.index("Place yours."):]
    assert "[seat 1, place your tiles] > You " in final


def test_record_option_saves_a_game_that_replays(tmp_path):
    from alhambra_ai.formats.record import load_record, replay

    path = tmp_path / "game.json"
    result, out = run(["--players", "2", "--bot", RANDOM_BOT, "--seed", "4", "--record", str(path)],
                      numbers_script(2))
    assert result.exit_code == 0, out[-2000:]
    assert f"Game record saved to {path}" in " ".join(out.split())     # (a long path wraps at 80)
    record = load_record(path)
    assert record["seats"][0] == "you" and record["seed"] == 4
    state = replay(record)  # checks the final scores too
    assert state.is_terminal() and record["scores"] == state.scores()


# ---------------------------------------------------------------------------------------------------------
# Thief and Residents (issue 13): the person's own thieves and disc, asked only when there is a choice


def test_full_game_with_thief_and_residents():
    result, out = run(["--players", "3", "--seat", "2", "--bot", RANDOM_BOT, "--bot", RANDOM_BOT,
                       "--seed", "5", "--options", "thief,residents"], numbers_script(5, 4000))
    assert result.exit_code == 0, out
    assert "Traceback" not in out and "Scoring round 3" in out
    assert "Your thieves:" in out and "Your disc (" in out and "Figures in the supply" in out
    assert "put your disc on a cell" in out
    assert "3 secret figures: figures <3 types>" in out and "You put " in out    # the setup choice
    assert out.count("chooses 3 figures for the disc, in secret") == 2         # the bots' stay secret
    assert "res" in out.split("Scoring round 1")[1].splitlines()[0]


def test_log_hides_the_bots_secret_figures():
    from alhambra_ai import new_game

    s = new_game(2, 3, {"residents": True})
    bot = s.start_player
    s.apply("figures garden seraglio tower")
    s.apply("disc 0,1")
    lines = []
    game = TerminalGame(s, 1 - bot, {}, None, 1.0, write=lines.append)
    assert game.look("log", ["all"])
    assert f"seat {bot + 1}: figures (secret)" in lines[-1] and "garden" not in lines[-1]
    assert "Your disc (not set up yet): empty" in game.table()
    game.apply(game.parse("figures garden Tower seraglio"), 1 - bot)      # typed as the engine writes it
    assert s.phase == "disc" and sorted(s.disc(1 - bot)) == ["garden", "seraglio", "tower"]


def test_the_window_asks_the_person_only_with_a_choice():
    from alhambra_ai import State

    table = {"draw_pile": ["y1", "y2", "s1", "s2"], "display": ["o2", "o3", "y4", "b5"]}
    s = State.from_setup(3, options={"thief": True}, thieves=[[], [], ["g"]], **table)
    s.apply("take o2")
    game = TerminalGame(s, 2, {}, None, 1.0, write=lambda text: None)
    assert s.phase == "interrupt" and s.current_player == 2 and game.nothing_to_decide()
    s2 = State.from_setup(3, options={"thief": True}, thieves=[[], [], ["o"]], **table)
    s2.apply("take y4")
    game2 = TerminalGame(s2, 2, {}, None, 1.0, write=lambda text: None)
    assert game2.nothing_to_decide()                    # (useful: o2 and o3 are not worth a thief)
    game2.windows = "ask"
    assert not game2.nothing_to_decide()
    assert s2.action_to_text(game2.parse("done")) == "done"                 # module moves typed as text
    assert s2.action_to_text(game2.parse("thief o2")) == "thief o2"


@pytest.mark.parametrize("seed", [3, 5])
def test_full_game_with_all_eight_modules(seed):
    # 2 players: Dirk may take a camp at the start (seed 3) and camps come to the market (seed 5); the
    # screen must draw them, coloured too, in the market, Dirk's tiles and the cities
    result, out = run(["--players", "2", "--bot", RANDOM_BOT, "--seed", str(seed), "--options", "all",
                       "--color"], numbers_script(seed, 6000))
    assert result.exit_code == 0, out[-3000:]
    assert "Internal error" not in out and "Traceback" not in out
    assert "Final scores:" in out and "cmp" in out


def test_the_window_asks_when_an_offer_is_new_and_worth_it():
    """Issue 55 item 3: ``--windows useful`` asks for a thief's card worth 5 or more, not again once let
    pass; ``ask`` always, ``auto`` never; the header and the prompt say what is asked."""
    from alhambra_ai import State

    table = {"draw_pile": ["y1", "y2", "s1", "s2"], "display": ["o2", "o7", "y4", "b5"]}
    s = State.from_setup(3, options={"thief": True}, thieves=[[], [], ["o", "o"]], **table)
    s.apply("take y4")
    game = TerminalGame(s, 2, {}, None, 1.0, write=lambda text: None)
    assert s.phase == "interrupt" and s.current_player == 2 and not game.nothing_to_decide()
    assert game.situation() == "between turns: thief, or done"
    screen = "\n".join(game.screen_lines(80, 23))
    assert screen.startswith("Between turns: you may use thief, or done"), screen
    assert "to act" not in screen.split("\n")[0]
    game.windows = "auto"
    assert game.nothing_to_decide() and s.action_to_text(game.formality()) == "done"
    game.windows = "useful"
    probe = s.clone()
    game.apply(game.parse("done"), 2)                    # o7 let pass: not asked for it again
    assert game.declined == {("thief", "o7")}
    game.state = probe
    assert game.nothing_to_decide()
    game.windows = "ask"
    assert not game.nothing_to_decide()
    said = []
    game.tell = said.append
    assert game.setting("windows", ["auto"]) and game.windows == "auto" and "never" in said[-1]
    assert not game.setting("table", [])
