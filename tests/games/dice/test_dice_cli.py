"""--game dice|alcazaba everywhere (issue 14, item 5): tournament (flag, TOML, stored, resume), strength,
bench and a scripted ``play --game dice`` session; a bad game name is one line on stderr and exit code 2."""

import json

import pytest
from click.testing import CliRunner
from paths import ROOT

from alhambra_ai.arena import referee
from alhambra_ai.arena.config import BadInput, load_definition
from alhambra_ai.arena.store import load_results
from alhambra_ai.arena.strength import Match
from alhambra_ai.cli import main
from alhambra_ai.formats.record import load_record

RANDOM, GREEDY = (str(ROOT / "bots" / f"{b}.py") for b in ("random", "greedy"))
FAST = ["--move-time", "0.5", "--time-bank", "2", "--memory", "512", "--no-progress", "--rounds", "1",
        "--jobs", "2"]


def invoke(*args, stdin=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=stdin)


def one_error_line(result, *words):
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    for word in words:
        assert word in lines[0]
    return lines[0]


@pytest.mark.parametrize("command", [["tournament", RANDOM, GREEDY], ["strength"], ["bench"], ["play"]])
def test_a_bad_game_is_one_usage_line(command):
    one_error_line(invoke(*command, "--game", "chess"), "chess", "alhambra", "dice", "alcazaba")


def test_a_bad_game_in_a_tournament_file(tmp_path):
    f = tmp_path / "t.toml"
    f.write_text('bots = ["a.py", "b.py"]\ngame = "dice"\n')
    assert load_definition(f)["game"] == "dice"
    f.write_text('bots = ["a.py", "b.py"]\ngame = "poker"\n')
    with pytest.raises(BadInput, match="game must be one of alhambra, dice, alcazaba, not 'poker'"):
        load_definition(f)
    one_error_line(invoke("tournament", "--config", f), "poker")
    assert load_definition(ROOT / "tournaments" / "dice.toml")["game"] == "dice"


def test_scheduled_games_carry_the_game():
    game = Match("random:greedy", game="alcazaba").games(2, 1, 1)[0]
    assert game.game == "alcazaba"
    state = referee.new_game(2, game.seed, None, game.game)
    assert state.game == "alcazaba" and state.num_players == 2


def test_dice_tournament_stores_resumes_and_refuses_another_game(tmp_path):
    out = tmp_path / "r"
    result = invoke("tournament", RANDOM, GREEDY, *FAST, "--seed", "3", "--out", out, "--game", "dice")
    assert result.exit_code == 0, result.output
    assert json.loads((out / "tournament.json").read_text())["game"] == "dice"
    results = load_results(out)
    assert len(results) == 2 and {r["game_type"] for r in results} == {"dice"}
    record = load_record(out / "games" / f"{results[0]['game']}.json")  # replays it: a real dice game
    assert record["game"] == "dice"
    # resume without bot files: the game comes from the run; nothing left to play
    resumed = invoke("tournament", "--out", out, "--resume", "--no-progress")
    assert resumed.exit_code == 0, resumed.output
    assert len(load_results(out)) == 2
    # another game (or the default) is refused, as a changed option is
    line = one_error_line(invoke("tournament", RANDOM, GREEDY, *FAST, "--seed", "3", "--out", out,
                                 "--resume", "--game", "alcazaba"), "cannot resume")
    assert "game was 'dice', now 'alcazaba'" in line
    line = one_error_line(invoke("tournament", RANDOM, GREEDY, *FAST, "--seed", "3", "--out", out,
                                 "--resume"), "cannot resume")
    assert "game was 'dice', now 'alhambra'" in line
    replay = invoke("replay", out / "games" / f"{results[0]['game']}.json")
    assert replay.exit_code == 0 and "dice:" in replay.output


def test_strength_plays_the_dice_game(tmp_path):
    out = tmp_path / "s.jsonl"
    result = invoke("strength", "--match", "greedy:random", "--players", "2", "--games", "2",
                    "--move-time", "0.5", "--game", "dice", "--jobs", "2", "--no-progress", "--results", out)
    assert result.exit_code == 0, result.output
    assert "strength: dice, 2 games" in result.output and "games    2" in result.output
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert lines[0]["settings"]["game"] == "dice"
    assert [r["game_type"] for r in lines[1:]] == ["dice", "dice"]
    again = invoke("strength", "--match", "greedy:random", "--players", "2", "--games", "2",
                   "--move-time", "0.5", "--jobs", "2", "--no-progress", "--results", out)
    assert again.exit_code == 2 and "other settings" in again.output  # the base game is another setting


def test_bench_picks_one_game():
    result = invoke("bench", "--game", "alcazaba", "--seconds", "0.05", "--players", "2")
    assert result.exit_code == 0, result.output
    assert "random alcazaba games" in result.output
    assert "random dice games" not in result.output and "apply" not in result.output
    one_error_line(invoke("bench", "--game", "dice", "--options", "camps"), "modules")


def test_play_dice_through_stdin(tmp_path):
    record = tmp_path / "game.json"
    script = ["help", "roll", "keep 1 2 3", "fly away", "moves", "table", *["1"] * 3000]
    result = invoke("play", "--game", "dice", "--bot", RANDOM, "--seed", "5", "--move-time", "0.5",
                    "--record", record, stdin="".join(f"{x}\n" for x in script))
    out = result.output
    assert result.exit_code == 0, out
    assert out.startswith("Alhambra: The Dice Game, 2 players, seed 5")
    assert "keep 1 3 4" in out                                  # the help names the natural commands
    assert "You: roll" in out and "You: reroll 4 5 6 7 8" in out  # keep 1 2 3 re-rolls the other five
    assert "unknown action 'fly away'" in out
    assert "dice: 1:" in out and "pavilion" in out and "Scoring A:" in out
    assert "Final scores:" in out and "Traceback" not in out
    assert load_record(record)["game"] == "dice"


def test_play_alcazaba_quits_cleanly():
    result = invoke("play", "--game", "alcazaba", "--bot", RANDOM, "--seed", "2", "--move-time", "0.5",
                    stdin="roll\nquit\n")
    assert result.exit_code == 0 and "You left the game." in result.output
    assert "alcazaba: round 1" in result.output
    bad = invoke("play", "--game", "dice", "--options", "camps", "--bot", RANDOM)
    assert bad.exit_code == 2 and "not the dice game's" in bad.output


@pytest.mark.parametrize("command", [["tournament", RANDOM, GREEDY], ["strength"], ["bench"]])
def test_modules_with_a_dice_game_are_one_error_line(command):
    one_error_line(invoke(*command, "--game", "alcazaba", "--options", "camps"), "not the alcazaba game's")


def test_report_of_a_dice_tournament(tmp_path):
    out = tmp_path / "r"
    assert invoke("tournament", RANDOM, GREEDY, *FAST, "--seed", "4", "--out", out, "--game", "alcazaba",
                  "--players", "2").exit_code == 0
    result = invoke("report", out)
    assert result.exit_code == 0, result.output
    assert "(alcazaba)" in (out / "report" / "index.html").read_text()


def test_dice_mcts_takes_the_63_bit_seeds_of_tournaments_and_play():
    """Seat seeds are 63-bit (schedule.seat_seed): dice mcts forfeited every game with them (overflow)."""
    import time

    from alhambra_ai import new_game
    from alhambra_ai.games.dice.mcts import flat_search

    s = new_game(2, 1, game="dice")
    s.apply("roll")
    action = flat_search(s.observation(s.current_player), 2**63 - 1, time.monotonic() + 1, 40)
    assert action in s.legal_actions()


def test_play_defaults_to_the_strongest_bot_of_the_game():
    from alhambra_ai.terminal import play as play_module
    assert play_module.default_bot(print, "dice").name == "expectimax.py"
    assert play_module.default_bot(print, "alcazaba").name == "expectimax.py"
    assert play_module.default_bot(print).name == "mcts.py"


def test_a_move_not_possible_now_says_why():
    """Issue 44: "'stop pavilion' is not possible now" gave no reason; the engine's reason is shown, in the
    player's words (no internal phase names)."""
    from alhambra_ai import new_game
    from alhambra_ai.games.dice.session import DiceTerminalGame, InputError

    state = new_game(2, seed=1, game="dice")
    state.apply("roll")
    game = object.__new__(DiceTerminalGame)
    game.state = state
    with pytest.raises(InputError, match=r"'points' is not possible now \(possible now: reroll, stop\) "
                                         r"\(type 'moves'"):
        game.parse("points")
    with pytest.raises(InputError, match="you hold no void roll tile"):
        game.parse("void")
