"""Every usage error of every command: one line on stderr naming the problem, exit code 2, no usage block."""

import pytest
from click.testing import CliRunner

from alhambra_ai.cli import main

BAD = [
    ["nosuch"],
    ["--frob"],
    ["tournament", "--frob"],
    ["tournament", "--games"],
    ["tournament", "--games", "x", "bots/random.py"],
    ["tournament", "--jobs", "1.5"],
    ["tournament", "--move-time", "fast"],
    ["tournament", "README.md", "bots/random.py", "--no-progress"],
    ["tournament", "--rounds", "x", "bots/random.py"],
    ["tournament", "--rounds", "0", "bots/random.py"],
    ["tournament", "--players", "2-9", "bots/random.py"],
    ["submit"],
    ["submit", "--jobs", "x", "bots/random.py"],
    ["submit", "README.md"],
    ["submit", "--move-time", "x", "bots/random.py"],
    ["replay"],
    ["replay", "--width", "wide", "x.json"],
    ["replay", "--nope", "x.json"],
    ["play", "--players", "x"],
    ["play", "--seed", "1.5"],
    ["play", "--frob"],
    ["play", "--width"],
    ["report"],
    ["report", "--to"],
    ["report", "no/such/run"],
    ["replay", "no/such/game.json", "--html", "g.html"],
    ["bench", "--bogus"],
    ["strength", "--games", "many"],
    ["strength", "--frob"],
    ["strength", "--results"],
    ["strength", "--players", "2,x"],
    ["sprt", "a", "b", "--results"],
    ["train", "d", "--weights"],
    ["bench", "--players", "1-3"],
    ["selfplay"],
    ["selfplay", "greedy"],
    ["selfplay", "--games", "x", "--out", "d", "greedy"],
    ["selfplay", "--encoding", "pixels", "--out", "d", "greedy"],
]


@pytest.mark.parametrize("args", BAD, ids=" ".join)
def test_usage_error_is_one_line_on_stderr_exit_2(args):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert "Usage:" not in result.stderr and "Traceback" not in result.stderr


def test_the_line_names_the_option_and_where_help_is():
    line = CliRunner().invoke(main, ["play", "--players", "x"]).stderr.strip()
    assert "'--players'" in line and "'x' is not a valid integer" in line and "play --help" in line


def test_a_non_python_bot_file_is_reported_as_such(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("not a bot\n")
    for args in (["tournament", str(notes), "bots/random.py", "--no-progress", "--out", str(tmp_path / "r")],
                 ["submit", str(notes), "--ladder", str(tmp_path / "l"), "--no-progress"],
                 ["play", "--bot", str(notes)]):
        result = CliRunner().invoke(main, args, input="")
        assert result.exit_code == 2, result.output
        assert "not a Python file" in result.stderr and result.stderr.count("\n") == 1, result.stderr


def test_a_reader_that_stops_ends_the_output_quietly(tmp_path):
    """``alhambra-ai replay g.json | head``: the closed pipe is the reader's choice, exit code 0, no error."""
    import subprocess
    import sys

    from alhambra_ai import new_game
    from alhambra_ai.formats.record import make_record, save_record

    state = new_game(2, seed=3)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    save_record(make_record(state, ["a", "b"]), tmp_path / "g.json")
    replay = subprocess.Popen([sys.executable, "-m", "alhambra_ai.cli", "replay", str(tmp_path / "g.json")],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    replay.stdout.readline()
    replay.stdout.close()  # as head does after its lines
    err = replay.stderr.read().decode()
    assert replay.wait(30) == 0 and err == ""


@pytest.mark.parametrize("command", [["replay", "x.json"], ["play"], ["tournament", "bots/random.py"]])
def test_a_width_below_40_is_refused(command):
    result = CliRunner().invoke(main, [*command, "--width", "20"])
    assert result.exit_code == 2 and "--width" in result.output and "40" in result.output
