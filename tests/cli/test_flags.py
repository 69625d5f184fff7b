"""One set of flags (README "One set of flags"): every renamed option's old spelling parses to the same values
as the new one and gives the same run, byte for byte, after a one-line note on stderr naming the new one; the
README's table lists exactly the renames the commands take; one seed rule; ``submit --move-time``."""

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from tournament_support import GOOD, use_toy_game

from alhambra_ai.cli import main
from alhambra_ai.cli.common import Renamed

README = Path(__file__).resolve().parents[2] / "README.md"
FIRST, LAST, SEEDED = (str(GOOD / f) for f in ("first.py", "last.py", "seeded.py"))

OLD_AND_NEW = [
    ("tournament", ["a.py", "b.py", "--seats", "2-3", "--games", "3"],
     ["a.py", "b.py", "--players", "2-3", "--rounds", "3"]),
    ("tournament", ["a.py", "b.py", "--seats=4", "--games=2"], ["a.py", "b.py", "--players=4", "--rounds=2"]),
    ("report", ["run", "--to", "pages"], ["run", "--out", "pages"]),
    ("strength", ["--out", "s.jsonl", "--seed", "1"], ["--results", "s.jsonl", "--seed", "1"]),
    ("sprt", ["a", "b", "--out", "s.jsonl", "--resume"], ["a", "b", "--results", "s.jsonl", "--resume"]),
    ("train", ["d", "--out", "w.npz"], ["d", "--weights", "w.npz"]),
]


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def parsed(command, args):
    cmd = main.commands[command]
    with cmd.make_context(command, list(args)) as ctx:
        return ctx.params


@pytest.mark.parametrize("command, old, new", OLD_AND_NEW,
                         ids=lambda x: x if isinstance(x, str) else " ".join(x))
def test_an_old_spelling_parses_as_the_new_one_after_a_note(command, old, new, capsys):
    assert parsed(command, old) == parsed(command, new)
    notes = capsys.readouterr().err.splitlines()
    renamed = main.commands[command].renamed
    used = [w.split("=")[0] for w in old if w.split("=")[0] in renamed]
    assert notes == [f"note: {command} {w} is now {renamed[w]}; {w} still works for now" for w in used]


def test_the_readme_lists_every_rename():
    table = re.search(r"### One set of flags.*?\n\| command \| old \| new \|\n\|[-|]+\|\n(.*?)\n\n",
                      README.read_text(), re.S).group(1)
    listed = set()
    for row in table.splitlines():
        commands, old, new = (cell.strip() for cell in row.strip("|").split("|"))
        for command in re.findall(r"`(\w+)`", commands):
            if old.startswith("`--"):
                listed.add((command, old.strip("`").split()[0], new.strip("`").split()[0]))
    taken = {(name, old, new) for name, cmd in main.commands.items() if isinstance(cmd, Renamed)
             for old, new in cmd.renamed.items()}
    assert listed == taken


@pytest.mark.parametrize("args, names", [
    (["tournament", "--games", "x", "a.py"], ["'--rounds'", "--games is now --rounds"]),
    (["tournament", "--seats", "9", "a.py"], ["'--players'", "--seats is now --players"]),
    (["strength", "--out"], ["'--results'", "--out is now --results"]),
])
def test_a_bad_value_under_an_old_spelling_is_one_line_naming_both(args, names):
    result = invoke(*args)
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and all(n in lines[0] for n in names), lines


def without_clock(path: Path) -> list[dict]:
    """A JSON-lines file's records without what the clock and the machine put in them."""
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    for r in rows:
        for key in ("move_times", "seconds", "duration", "started", "finished", "time", "elapsed"):
            r.pop(key, None)
    return rows


def test_a_seeded_tournament_is_the_same_under_either_spelling(tmp_path, monkeypatch):
    use_toy_game(monkeypatch)
    common = [FIRST, LAST, SEEDED, "--seed", "7", "--move-time", "0.5", "--time-bank", "0.5", "--memory",
              "256", "--no-progress", "--jobs", "1"]
    old = invoke("tournament", *common, "--seats", "2-3", "--games", "2", "--out", tmp_path / "old")
    new = invoke("tournament", *common, "--players", "2-3", "--rounds", "2", "--out", tmp_path / "new")
    assert old.exit_code == 0 and new.exit_code == 0, old.output + new.output
    assert old.stderr.count("note: ") == 2 and "note: " not in new.stderr
    old_dir, new_dir = tmp_path / "old", tmp_path / "new"
    games = sorted(p.name for p in (old_dir / "games").iterdir())
    assert games == sorted(p.name for p in (new_dir / "games").iterdir()) and len(games) == 2 * (3 * 2 + 3)
    for name in games:
        assert (old_dir / "games" / name).read_bytes() == (new_dir / "games" / name).read_bytes()
    assert without_clock(old_dir / "results.jsonl") == without_clock(new_dir / "results.jsonl")
    stored = [json.loads((d / "tournament.json").read_text()) for d in (old_dir, new_dir)]
    assert stored[0]["seats"] == stored[1]["seats"] == [2, 3]
    assert stored[0]["games"] == stored[1]["games"] == 2
    # the report: the same pages from --to and --out
    assert invoke("report", tmp_path / "old", "--to", tmp_path / "p1").exit_code == 0
    assert invoke("report", tmp_path / "old", "--out", tmp_path / "p2").exit_code == 0
    assert (tmp_path / "p1" / "index.html").read_bytes() == (tmp_path / "p2" / "index.html").read_bytes()


def test_strength_results_are_the_same_under_either_spelling_and_keep_their_seed(tmp_path):
    common = ["--match", f"{FIRST}:{LAST}", "--players", "2", "--games", "2", "--move-time", "0.5",
              "--time-bank", "0.5", "--no-progress"]
    old = invoke("strength", *common, "--seed", "1", "--out", tmp_path / "old.jsonl")
    new = invoke("strength", *common, "--seed", "1", "--results", tmp_path / "new.jsonl")
    assert old.exit_code == 0 and new.exit_code == 0, old.output + new.output
    def untimed(out):
        return re.sub(r"[\d.]+/[\d.]+ s", "", out)

    assert untimed(old.stdout) == untimed(new.stdout) and "seed 1," in new.stdout
    assert without_clock(tmp_path / "old.jsonl") == without_clock(tmp_path / "new.jsonl")
    # no --seed: a random one, printed; a rerun into the same file keeps it and plays nothing more
    first = invoke("strength", *common, "--results", tmp_path / "random.jsonl")
    again = invoke("strength", *common, "--results", tmp_path / "random.jsonl")
    seed = re.search(r"seed (\d+),", first.stdout).group(1)
    assert first.exit_code == again.exit_code == 0 and f"seed {seed}," in again.stdout
    assert len((tmp_path / "random.jsonl").read_text().splitlines()) == 1 + 2


def test_submit_sets_a_new_ladders_clock_and_an_old_ladder_keeps_its_own(tmp_path):
    from alhambra_ai.arena.ladder import DEFAULTS, Ladder

    ladder = Ladder(tmp_path / "new", clock={"move_time": 0.2, "time_bank": None})
    assert ladder.settings["move_time"] == 0.2 and ladder.settings["time_bank"] == DEFAULTS["time_bank"]
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "ladder.json").write_text(json.dumps(
        {"format": "alhambra-ai-ladder", "version": 1, "entrants": [],
         "settings": {**DEFAULTS, "seed": 3, "game": "alhambra"}}))
    result = invoke("submit", FIRST, "--ladder", tmp_path / "old", "--move-time", "0.2", "--no-progress")
    assert result.exit_code == 2 and "plays at --move-time 1, not 0.2" in result.stderr.splitlines()[-1]
    result = invoke("submit", FIRST, "--ladder", tmp_path / "old", "--move-time", "0")
    assert result.exit_code == 2 and "--move-time must be a positive number" in result.stderr


def test_report_names_a_missing_folder():
    result = invoke("report", "no/such/run")
    assert result.exit_code == 2 and result.stderr.strip() == (
        "Error: no/such/run does not exist (give the folder of a tournament: its --out DIR)")
