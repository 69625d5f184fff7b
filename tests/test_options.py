"""--options everywhere (issue 12): one parser, the same names and errors in every command and file."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from alhambra_ai import _core
from alhambra_ai.arena import referee
from alhambra_ai.arena.config import BadInput, load_definition
from alhambra_ai.arena.strength import Match
from alhambra_ai.cli import main
from alhambra_ai.options import MODULES, options_from_table, options_text, parse_options


def test_parse_options():
    assert parse_options("camps,vizier") == {"vizier": True, "camps": True}    # rulebook order
    assert parse_options(" all ") == dict.fromkeys(MODULES, True)
    assert {"vizier", "camps", "bazaars", "falcons", "thief", "residents"} <= set(MODULES)
    assert {"change", "walls"} <= set(MODULES)
    assert parse_options("walls,change") == {"change": True, "walls": True}
    assert parse_options(None) == parse_options("none") == {}
    with pytest.raises(ValueError, match="unknown module: 'wizard'"):
        parse_options("wizard")
    for name in [m for m in _core.MODULE_OPTIONS if m not in MODULES][:1]:
        with pytest.raises(ValueError, match=f"not implemented yet: '{name}'"):
            parse_options(name)
    assert options_text(parse_options("falcons,bazaars")) == "bazaars,falcons"


def test_options_table_of_a_tournament_file(tmp_path):
    f = tmp_path / "t.toml"
    f.write_text('bots = ["a.py"]\n[options]\ncamps = true\nvizier = false\n')
    assert load_definition(f)["options"] == ("camps",)
    f.write_text('[options]\ncamp = true\n')
    with pytest.raises(BadInput, match="unknown module 'camp'"):
        load_definition(f)
    with pytest.raises(ValueError, match="true or false"):
        options_from_table({"camps": "yes"})


@pytest.mark.parametrize("args", [
    ["bench", "--options", "wizard"], ["strength", "--options", "wizard"],
    ["play", "--options", "wizard"], ["tournament", "--options", "wizard", "x.py"]])
def test_bad_options_are_usage_errors(args):
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2 and "wizard" in r.output


def test_strength_and_tournament_games_carry_the_options():
    game = Match("random:greedy", options=("camps", "falcons")).games(2, 1, 1)[0]
    assert game.options == ("camps", "falcons")
    state = referee.new_game(2, 5, dict.fromkeys(game.options, True))
    assert state.options == {"dirk": True, "camps": True, "falcons": True}


def _tournament_settings(monkeypatch, tmp_path, *args):
    """The Settings `alhambra-ai tournament ARGS` would run with (the run itself is replaced)."""
    from alhambra_ai.arena import runner

    seen = []
    monkeypatch.setattr(runner, "run_tournament", lambda s, **kw: seen.append(s))
    r = CliRunner().invoke(main, ["tournament", "--out", str(tmp_path / "run"), *args])
    assert r.exit_code == 0, r.output
    return seen[0]


def test_options_none_switches_a_files_options_off(monkeypatch, tmp_path):
    f = tmp_path / "t.toml"
    f.write_text('bots = ["a.py", "b.py"]\n[options]\ncamps = true\nfalcons = true\n')
    assert _tournament_settings(monkeypatch, tmp_path, "--config", str(f)).options == ("camps", "falcons")
    assert _tournament_settings(monkeypatch, tmp_path, "--config", str(f), "--options", "none").options == ()
    assert _tournament_settings(monkeypatch, tmp_path, "--config", str(f), "--options", "").options == ()
    assert _tournament_settings(monkeypatch, tmp_path, "--config", str(f), "--options", "vizier").options == \
        ("vizier",)
    s = _tournament_settings(monkeypatch, tmp_path, "--config", str(f))       # bots still come from the file
    assert [Path(p).name for p in s.bots] == ["a.py", "b.py"]
