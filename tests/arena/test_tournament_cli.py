"""The tournament / submit / replay commands: options, definitions, and bad input (exit 2, one line)."""

import json
import re

import pytest
from click.testing import CliRunner
from tournament_support import GOOD, HERE, HOSTILE, use_toy_game

from alhambra_ai.arena.config import load_definition
from alhambra_ai.arena.store import load_results
from alhambra_ai.cli import main

ROOT = HERE.parent
FIRST, LAST, SEEDED = (str(GOOD / f) for f in ("first.py", "last.py", "seeded.py"))
FAST = ["--move-time", "0.5", "--time-bank", "0.5", "--memory", "256", "--no-progress", "--rounds", "1"]


@pytest.fixture(autouse=True)
def toy(monkeypatch):
    use_toy_game(monkeypatch)


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_error_line(result):
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    assert "Traceback" not in result.output
    return lines[0]


def test_help_documents_every_option():
    out = invoke("tournament", "--help").output
    for option in ("--players", "--rounds", "--seed", "--move-time", "--time-bank", "--jobs", "--out",
                   "--resume", "--memory", "--config", "forfeit", "stand-in", "ranked last"):
        assert option in out


def test_a_tournament_from_the_command_line(tmp_path):
    result = invoke("tournament", FIRST, LAST, SEEDED, *FAST, "--out", tmp_path / "r", "--players", "2-3")
    assert result.exit_code == 0, result.output
    assert len(load_results(tmp_path / "r")) == 3 * 2 + 3
    assert "rating" in result.output and "seeded" in result.output


def test_resume_without_bot_files_takes_them_from_the_run(tmp_path):
    assert invoke("tournament", FIRST, LAST, *FAST, "--out", tmp_path / "r").exit_code == 0
    result = invoke("tournament", "--out", tmp_path / "r", "--resume", "--no-progress")
    assert result.exit_code == 0, result.output
    assert len(load_results(tmp_path / "r")) == 2


def test_config_definition_with_overrides(tmp_path):
    (tmp_path / "bots").mkdir()
    for f in (FIRST, LAST):
        (tmp_path / "bots" / f.rsplit("/", 1)[1]).write_text(open(f).read())
    definition = tmp_path / "defs" / "t.toml"
    definition.parent.mkdir()
    definition.write_text('bots = ["../bots/first.py", "../bots/last.py"]\nseats = 2\ngames = 3\n'
                          'move_time = 0.5\nmemory = 256\n')
    result = invoke("tournament", "--config", definition, "--rounds", "1", "--out", tmp_path / "r",
                    "--no-progress")
    assert result.exit_code == 0, result.output
    assert len(load_results(tmp_path / "r")) == 2
    stored = json.loads((tmp_path / "r" / "tournament.json").read_text())
    assert stored["games"] == 1 and stored["move_time"] == 0.5


@pytest.mark.parametrize("name", ["quick.toml", "ladder.toml"])
def test_ready_definitions_parse(name):
    d = load_definition(ROOT / "tournaments" / name)
    assert len(d["bots"]) >= 3 and all(b.endswith(".py") for b in d["bots"])
    assert any(b.endswith("random.py") for b in d["bots"])


@pytest.mark.parametrize("args, message", [
    ([str(GOOD / "nope.py"), LAST], "bot file not found: .*nope.py"),
    ([str(HOSTILE / "no_bot.py"), LAST], "no_bot.py: defines no class Bot"),
    (["SYNTAX", LAST], r"syntax\.py: syntax error on line 3"),
    ([FIRST, FIRST], "two bot files are named 'first'"),
    ([FIRST, LAST, "--players", "7"], "--players.*within 2-6"),
    ([FIRST, LAST, "--seats", "1"], "--players.*within 2-6.*--seats is now --players"),
    ([FIRST, LAST, "--players", "2-3"], "3 seats need at least 3 bots, got 2"),
    ([FIRST, LAST, "--players", "two"], "--players.*a count like 2"),
    ([FIRST, LAST, "--rounds", "0"], "--rounds.*0 is not in the range"),
    ([FIRST, LAST, "--move-time", "0"], "move-time must be a positive number"),
    ([FIRST, LAST, "--memory", "10"], "memory must be a number of MB"),
    ([FIRST, LAST, "--jobs", "0"], "jobs must be an integer >= 1"),
    ([], "no bot files given"),
    (["--resume"], "nothing to resume in .*out"),
    (["--config", "MISSING"], "cannot read tournament definition"),
    (["--config", "BADKEY"], "unknown setting 'sseats'"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, message):
    syntax = tmp_path / "syntax.py"
    syntax.write_text("class Bot:\n\n    def act(self, obs)\n        return 0\n")
    badkey = tmp_path / "bad.toml"
    badkey.write_text('sseats = 3\n')
    subst = {"SYNTAX": str(syntax), "MISSING": str(tmp_path / "none.toml"), "BADKEY": str(badkey)}
    args = [subst.get(a, a) for a in args]
    result = invoke("tournament", *args, "--out", tmp_path / "out", "--no-progress")
    line = one_error_line(result)
    assert re.search(message, line), line
    assert not (tmp_path / "out").exists()  # nothing started


def test_resume_mismatch_is_one_line(tmp_path):
    assert invoke("tournament", FIRST, LAST, *FAST, "--out", tmp_path / "r").exit_code == 0
    line = one_error_line(invoke("tournament", FIRST, LAST, *FAST, "--seed", "9", "--out", tmp_path / "r",
                                 "--resume"))
    assert "cannot resume" in line and "seed was " in line and ", now 9" in line  # the first seed was random
    line = one_error_line(invoke("tournament", FIRST, LAST, *FAST, "--out", tmp_path / "r"))
    assert "already holds a tournament" in line


def test_resume_needs_out():
    assert "--resume needs --out DIR" in one_error_line(invoke("tournament", FIRST, LAST, "--resume"))


def test_replay_bad_record_is_one_line(tmp_path):
    (tmp_path / "x.json").write_text('{"hello": 1}')
    assert "not a game record" in one_error_line(invoke("replay", tmp_path / "x.json"))
    assert "cannot read game record" in one_error_line(invoke("replay", tmp_path / "none.json"))
