"""The results store and the ratings computed from it."""

import json

import pytest

from alhambra_ai.arena.ratings import Ratings, compute_standings, format_table, standings_csv
from alhambra_ai.arena.store import (
    RESULTS,
    ResultStore,
    StoreError,
    load_results,
    settings_difference,
    write_json_atomic,
)


def result(game, bots, ranks, scores=None, forfeits=()):
    return {"game": game, "bots": bots, "ranks": ranks, "scores": scores or [10] * len(bots),
            "forfeits": list(forfeits)}


def test_add_writes_record_then_line(tmp_path):
    store = ResultStore(tmp_path / "out")
    assert store.results() == [] and store.settings() is None
    store.add(result("g2", ["a", "b"], [1, 2]), {"format": "alhambra-ai-record"})
    store.add(result("g1", ["b", "a"], [2, 1]), {"format": "alhambra-ai-record"})
    assert [r["game"] for r in store.results()] == ["g1", "g2"]  # game-id order, not arrival order
    assert json.loads((tmp_path / "out" / "games" / "g1.json").read_text())["format"] == "alhambra-ai-record"
    assert not list((tmp_path / "out" / "games").glob("*.tmp"))


def test_torn_last_line_is_ignored_and_repaired(tmp_path):
    store = ResultStore(tmp_path)
    store.add(result("g1", ["a", "b"], [1, 2]), {})
    path = tmp_path / RESULTS
    good = path.read_bytes()
    path.write_bytes(good + b'{"game": "g2", "bots": ["a"')
    assert [r["game"] for r in load_results(tmp_path)] == ["g1"]
    assert path.read_bytes() != good  # reading alone changes nothing
    load_results(tmp_path, repair=True)
    assert path.read_bytes() == good
    store.add(result("g2", ["a", "b"], [1, 2]), {})
    assert [r["game"] for r in load_results(tmp_path)] == ["g1", "g2"]


def test_complete_json_without_newline_counts_as_torn(tmp_path):
    (tmp_path / RESULTS).write_text(json.dumps(result("g1", ["a", "b"], [1, 2])))
    assert load_results(tmp_path) == []


def test_damage_before_the_last_line_is_an_error(tmp_path):
    line = json.dumps(result("g1", ["a", "b"], [1, 2]))
    (tmp_path / RESULTS).write_text(line + "\n{broken\n" + line.replace("g1", "g3") + "\n")
    with pytest.raises(StoreError, match="line 2 is damaged"):
        load_results(tmp_path)


def test_duplicate_ids_count_once(tmp_path):
    a, b = result("g1", ["a", "b"], [1, 2]), result("g1", ["a", "b"], [2, 1])
    (tmp_path / RESULTS).write_text(json.dumps(a) + "\n" + json.dumps(b) + "\n")
    assert load_results(tmp_path) == [a]


def test_atomic_json_replaces_whole_file(tmp_path):
    path = tmp_path / "x" / "f.json"
    write_json_atomic(path, {"a": 1})
    write_json_atomic(path, {"b": 2})
    assert json.loads(path.read_text()) == {"b": 2}
    with pytest.raises(TypeError):
        write_json_atomic(path, {"c": object()})
    assert json.loads(path.read_text()) == {"b": 2} and len(list(path.parent.iterdir())) == 1


def test_settings_difference():
    old = {"seed": 1, "bots": {"a": {"path": "/x/a.py", "sha256": "1"}}}
    assert settings_difference(old, {"seed": 1, "bots": {"a": {"path": "/y/a.py", "sha256": "1"}}}) is None
    assert "seed was 1, now 2" in settings_difference(old, {**old, "seed": 2})
    assert "changed" in settings_difference(old, {"seed": 1, "bots": {"a": {"path": "a.py", "sha256": "2"}}})


def test_ratings_order_and_counts():
    results = [result(f"g{i}", ["a", "b", "c"], [1, 2, 3], [30, 20, 10]) for i in range(5)]
    table = compute_standings(results, ["a", "b", "c"])
    assert [s.name for s in table] == ["a", "b", "c"]
    a = table[0].row()
    assert a["games"] == 5 and a["wins"] == 5 and a["mean_score"] == 30 and a["mean_rank"] == 1
    assert table[0].mu > 25 > table[2].mu


def test_shared_wins_are_split_and_ties_rate_equal():
    table = compute_standings([result("g1", ["a", "b", "c"], [1, 1, 3])], ["a", "b", "c"])
    rows = {s.name: s for s in table}
    assert rows["a"].wins == rows["b"].wins == 0.5 and rows["c"].wins == 0
    assert rows["a"].mu == pytest.approx(rows["b"].mu, rel=1e-3) and rows["a"].mu > rows["c"].mu


def test_forfeits_are_counted_by_reason():
    f = [{"seat": 1, "bot": "b", "reason": "times out", "detail": "", "move": 3}]
    table = compute_standings([result("g1", ["a", "b"], [1, 2], forfeits=f),
                               result("g2", ["b", "a"], [2, 1], forfeits=[{**f[0], "seat": 0}])], ["a", "b"])
    rows = {s.name: s.row() for s in table}
    assert rows["b"]["forfeits"] == {"times out": 2} and rows["a"]["forfeits"] == {}
    assert "times out 2" in format_table(table)
    assert "times out: 2" in standings_csv(table)


def test_standings_do_not_depend_on_arrival_order():
    results = [result(f"g{i}", ["a", "b"] if i % 2 else ["b", "a"], [1, 2] if i % 3 else [2, 1])
               for i in range(1, 10)]
    assert compute_standings(results, ["a", "b"]) == compute_standings(results[::-1], ["a", "b"])


def test_unplayed_bots_are_listed():
    table = compute_standings([], ["a", "b"])
    assert [s.games for s in table] == [0, 0]
    assert "-" in format_table(table)


def test_incremental_leader():
    r = Ratings(["a", "b"])
    assert r.leader() is None
    r.update(result("g1", ["a", "b"], [2, 1]))
    assert r.leader().name == "b"


def test_win_rates_with_wilson_intervals_and_whole_wins_as_integers():
    from alhambra_ai.arena.stats import wilson

    results = [result(f"g{i}", ["a", "b"], [1, 2] if i < 6 else [2, 1]) for i in range(8)]
    table = {s.name: s.row() for s in compute_standings(results, ["a", "b"])}
    assert table["a"]["wins"] == 6 and isinstance(table["a"]["wins"], int)
    assert table["a"]["win_rate"] == 0.75 and table["a"]["win_interval"] == list(wilson(6, 8))
    text = format_table(compute_standings(results, ["a", "b"]))
    assert " 6 75% [41-93]" in text and "6.0" not in text
    assert "rating = mu - 3 sigma" in text                           # the legend
    shared = compute_standings([result("g1", ["a", "b", "c"], [1, 1, 3])], ["a", "b", "c"])
    assert {s.name: s.row()["wins"] for s in shared} == {"a": 0.5, "b": 0.5, "c": 0}


def test_head_to_head_counts_finishing_above_and_halves_ties():
    from alhambra_ai.arena.ratings import format_head_to_head, head_to_head

    results = [result("g1", ["a", "b", "c"], [1, 2, 3]), result("g2", ["c", "b", "a"], [1, 1, 3]),
               result("g3", ["b", "a"], [1, 2])]
    pairs = {(p.a, p.b): p for p in head_to_head(results, ["a", "b", "c"])}
    assert (pairs["a", "b"].games, pairs["a", "b"].a_score) == (3, 1)
    assert (pairs["b", "c"].games, pairs["b", "c"].a_score) == (2, 1.5)
    text = format_head_to_head(list(pairs.values()), ["a", "b", "c"])
    assert "b vs c: 1.5-0.5 in 2 games" in text and "a vs b: 1-2 in 3 games, 33% [" in text
    assert text.splitlines()[1].split() == ["a", "b", "c"]


def test_head_to_head_numbers_the_columns_when_names_do_not_fit():
    from alhambra_ai.arena.ratings import format_head_to_head, head_to_head

    names = ["greedy#2", "greedy", "random"]           # "greedy#2" would be cut to "greedy#"
    results = [result("g1", names, [1, 2, 3])]
    text = format_head_to_head(head_to_head(results, names), names)
    lines = text.splitlines()
    assert lines[1].split() == ["1", "2", "3"]
    assert lines[2].split() == ["1", "greedy#2", "-", "100%", "100%"]
    assert lines[3].split()[:2] == ["2", "greedy"] and max(len(line) for line in lines) <= 100


def test_standings_files_hold_win_rates_and_head_to_head(tmp_path):
    from alhambra_ai.arena.ratings import write_standings

    results = [result(f"g{i}", ["a", "b"], [1, 2]) for i in range(3)]
    write_standings(tmp_path, results, ["a", "b"])
    data = json.loads((tmp_path / "standings.json").read_text())
    assert data["head_to_head"] == [{"a": "a", "b": "b", "games": 3, "a_score": 3, "b_score": 0,
                                     "a_rate": 1.0, "a_interval": [0.438, 1.0]}]
    assert (tmp_path / "standings.csv").read_text().splitlines()[1].startswith("1,a,")
    assert "win_rate,win_low,win_high" in (tmp_path / "standings.csv").read_text()
