"""``alhambra-ai analyse RECORD``: deterministic output for any --jobs, the seats filter, resuming an
interrupted run, bad input in one line with exit code 2, and a planted blunder found and marked."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from alhambra_ai import new_game, registry
from alhambra_ai._core import search_greedy
from alhambra_ai.analysis.review import Settings, analyse, load_report, report_json
from alhambra_ai.bot.toolkit import determinize
from alhambra_ai.cli import main
from alhambra_ai.formats.record import make_record, record_text, save_record

ITER = ["--iterations", "150", "--seed", "4", "--no-progress"]


def greedy_game(game: str, players: int, seed: int, moves: int | None = None, plant: dict | None = None):
    """A game of greedy bots (stopped after ``moves`` moves); ``plant``: {move index: action code} played
    instead of greedy's choice there (a callable of the state gives the code)."""
    s = new_game(players, seed, {}, game)
    search = registry.get(game).search
    i = 0
    while not s.is_terminal() and (moves is None or i < moves):
        obs = s.observation(s.current_player)
        if plant and i in plant:
            s.apply(plant[i](s))
        else:
            s.apply(search.greedy(obs, seed))
        i += 1
    return s


def write(tmp_path, state, name="g.json"):
    path = tmp_path / name
    save_record(make_record(state, [f"p{k}" for k in range(state.num_players)]), path)
    return path


def run(*args):
    result = CliRunner().invoke(main, ["analyse", *map(str, args)])
    return result


@pytest.fixture(autouse=True)
def _cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("records")
    return {
        "alhambra": write(tmp, greedy_game("alhambra", 2, 5, moves=80), "base.json"),
        "dice": write(tmp, greedy_game("dice", 2, 6, moves=90), "dice.json"),
        "alcazaba": write(tmp, greedy_game("alcazaba", 3, 7, moves=90), "alcazaba.json"),
    }


@pytest.mark.parametrize("game", ["alhambra", "dice", "alcazaba"])
def test_the_same_bytes_for_jobs_1_and_2_and_twice(records, tmp_path, game):
    outs = []
    for jobs in (1, 2, 1):
        out = tmp_path / f"a{len(outs)}.json"
        result = run(records[game], *ITER, "--jobs", jobs, "--json", out)
        assert result.exit_code == 0, result.output
        outs.append((result.stdout, out.read_bytes()))
        assert not (tmp_path / f"{out.name}.partial.jsonl").exists()   # the cache goes once it is written
    assert outs[0] == outs[1] == outs[2]
    text, data = outs[0]
    assert max(len(line) for line in text.splitlines()) <= 80
    report = json.loads(data)
    assert report["format"] == "alhambra-ai-analysis" and report["record"]["game"] == game
    assert report["decisions"] and all(d["loss"] is not None and d["loss"] >= 0 for d in report["decisions"])
    assert {s["seat"] for s in report["summary"]} == set(range(report["record"]["num_players"]))
    assert report_json(load_report(tmp_path / "a0.json")).encode() == data


def test_seats_by_number_or_name_analyse_only_those_decisions(records, tmp_path):
    full = tmp_path / "full.json"
    assert run(records["alcazaba"], *ITER, "--json", full).exit_code == 0
    one = tmp_path / "one.json"
    result = run(records["alcazaba"], *ITER, "--json", one, "--seats", "p2,0")
    assert result.exit_code == 0, result.output
    every, some = json.loads(full.read_text()), json.loads(one.read_text())
    assert some["settings"]["seats"] == [0, 2]
    assert some["decisions"] == [d for d in every["decisions"] if d["seat"] in (0, 2)]
    assert [s["seat"] for s in some["summary"]] == [0, 2]


def test_an_interrupted_analysis_continues_where_it_stopped(records, tmp_path):
    whole = tmp_path / "whole.json"
    assert run(records["alhambra"], *ITER, "--json", whole).exit_code == 0
    out = tmp_path / "resumed.json"
    cache = tmp_path / "resumed.json.partial.jsonl"
    record = json.loads(records["alhambra"].read_text())
    seen = []

    def stop(entry):
        seen.append(entry["move"])
        if len(seen) == 7:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        analyse(record, Settings(iterations=150, seed=4), cache_path=cache, on_entry=stop)
    with open(cache, "a") as f:
        f.write('{"move": 99, "se')            # a line cut short by the interruption
    # no --seed: the cache's
    result = run(records["alhambra"], "--iterations", "150", "--no-progress", "--json", out)
    assert result.exit_code == 0, result.output
    assert "continuing, 7 of" in result.stderr
    assert out.read_bytes() == whole.read_bytes()
    assert not cache.exists()


def test_a_cache_of_other_settings_is_not_used(records, tmp_path):
    out = tmp_path / "a.json"
    record = json.loads(records["dice"].read_text())
    cache = tmp_path / "a.json.partial.jsonl"
    with pytest.raises(KeyboardInterrupt):
        analyse(record, Settings(iterations=150, seed=9), cache_path=cache,
                on_entry=lambda e: (_ for _ in ()).throw(KeyboardInterrupt))
    result = run(records["dice"], *ITER, "--json", out)
    assert result.exit_code == 0 and "analysing afresh" in result.stderr


def test_a_planted_blunder_is_marked(tmp_path):
    """Seat 0 of a greedy game plays, at move 17, the move greedy's own evaluation likes least (taking a
    building out of its city into the reserve, which gives up its majorities at the coming scoring)."""
    def worst(state):
        _best, margins = search_greedy(determinize(state.observation(state.current_player), 1))
        return min(margins, key=lambda e: e[1])[0]

    plain = greedy_game("alhambra", 2, 5, moves=40)
    planted = greedy_game("alhambra", 2, 5, moves=40, plant={17: worst})
    reports = []
    for name, state in (("plain.json", plain), ("planted.json", planted)):
        out = tmp_path / f"{name}.out"
        result = run(write(tmp_path, state, name), "--iterations", "2000", "--seed", "1", "--no-progress",
                     "--seats", "0", "--json", out)
        assert result.exit_code == 0, result.output
        reports.append((result.stdout, json.loads(out.read_text())))
    (_, plain_report), (text, planted_report) = reports
    move = {d["move"]: d for d in planted_report["decisions"]}[17]
    assert move["played"].startswith("remove") and move["mark"] == "blunder", move
    assert move["loss"] >= planted_report["thresholds"]["blunder"]
    assert {d["move"]: d for d in plain_report["decisions"]}[17]["mark"] != "blunder"
    assert 17 in planted_report["summary"][0]["worst"]
    assert "??" in next(line for line in text.splitlines() if line.lstrip().startswith("17 "))


def test_a_planted_dice_blunder_is_marked(tmp_path):
    """Stopping on the fewest symbols after the first roll instead of rolling on: a blunder."""
    def stop_at_once(state):
        dice, _black = state.dice()
        stops = [a for a in state.legal_actions() if state.action_to_text(a).startswith("stop")]
        return min(stops, key=lambda a: dice.count((a >> 4) & 7))

    state = greedy_game("dice", 2, 3, moves=12, plant={1: stop_at_once})
    out = tmp_path / "d.json"
    assert run(write(tmp_path, state), *ITER, "--json", out).exit_code == 0
    first = json.loads(out.read_text())["decisions"][0]
    assert first["move"] == 1 and first["played"].startswith("stop") and first["mark"] == "blunder"


def _bad(tmp_path, records):
    good = json.loads(records["dice"].read_text())
    cut = tmp_path / "cut.json"
    cut.write_text(record_text(good)[:400])
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"format": "alhambra-ai-tournament", "games": []}))
    v2 = tmp_path / "v2.json"
    v2.write_text(json.dumps({**good, "version": 2}))
    chess = tmp_path / "chess.json"
    chess.write_text(json.dumps({**good, "game": "chess"}))
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({**good, "actions": good["actions"][:3] + ["buy 9 x1"]}))
    text = tmp_path / "notes.txt"
    text.write_text("not a record\n")
    return {
        "truncated": [cut], "another format": [other], "another version": [v2], "another game": [chess],
        "does not replay": [wrong], "not JSON": [text],
        "no such seat": [records["dice"], "--seats", "5"],
        "no such name": [records["dice"], "--seats", "zed"],
        "iterations 0": [records["dice"], "--iterations", "0"],
        "both budgets": [records["dice"], "--iterations", "5", "--move-time", "0.1"],
        "jobs 0": [records["dice"], "--iterations", "5", "--jobs", "0"],
        "missing file": [tmp_path / "nothing.json"],
        "a folder": [tmp_path],
    }


CASES = ["truncated", "another format", "another version", "another game", "does not replay", "not JSON",
         "no such seat", "no such name", "iterations 0", "both budgets", "jobs 0", "missing file", "a folder"]


@pytest.mark.parametrize("case", CASES)
def test_bad_input_is_one_line_and_exit_2(records, tmp_path, case):
    result = run(*_bad(tmp_path, records)[case], "--no-progress")
    assert result.exit_code == 2, (result.output, result.exception)
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("game", ["alhambra", "dice"])
def test_the_review_after_a_game_shows_the_costliest_moves_on_one_screen(monkeypatch, game):
    """play's review: ``analyse`` lists the person's costliest moves with what the bot preferred, in
    80 x 24, computed once."""
    from alhambra_ai.terminal import session

    monkeypatch.setattr(session, "ANALYSE_MOVE_TIME", 0.005)
    state = greedy_game(game, 2, 8)
    board = registry.get(game).hook("session")
    said: list[str] = []
    answers = iter(["analyse", "analyse", "quit"])
    terminal = board(state, 0, {}, None, 0.1, read=lambda prompt: next(answers), write=said.append)
    calls = []
    real = session.TerminalGame.show_analysis

    def counted(self):
        calls.append(self.analysis is None)
        real(self)
    monkeypatch.setattr(session.TerminalGame, "show_analysis", counted)
    terminal.review()
    assert calls == [True, False]                     # searched once, shown twice
    text = "\n".join(said)
    assert "Type analyse" in text
    page = text[text.index("Your costliest moves"):].split("\n")[:14]
    assert all(len(line) <= 80 for line in page) and len(page) <= 24
    assert "preferred" in page[2] or "nothing lost" in page[2]


def test_moves_of_a_stand_in_and_forced_moves_are_not_decisions():
    from alhambra_ai.analysis.review import decisions

    state = greedy_game("dice", 2, 6, moves=60)
    record = make_record(state, ["a", "b"], forfeits=[{"seat": 1, "move": 30}])
    tasks, skipped = decisions(record, [0, 1])
    assert tasks and all(t.seat == 0 or t.move < 30 for t in tasks)
    assert skipped["stand_in"] == sum(1 for i in range(30, 60) if state.events and _seat_of(record, i) == 1)
    assert skipped["forced"] > 0                        # (each turn's first roll)
    assert all(len(t.obs["legal_actions"]) > 1 and t.obs["seat"] == t.seat for t in tasks)


def _seat_of(record, index):
    from alhambra_ai.formats.record import steps

    for i, seat, _text, _state in steps(record):
        if i == index:
            return seat
    raise IndexError(index)
