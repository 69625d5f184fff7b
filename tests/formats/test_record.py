"""Game records: make, save, load, replay to the identical state; clear errors for records that do not."""

import copy
import json

import pytest
from infohelpers import played, random_game

from alhambra_ai import State, new_game, state_to_json
from alhambra_ai.formats.record import (
    RecordError,
    action_texts,
    load_record,
    make_record,
    replay,
    save_record,
)


def finished(n, seed):
    return [s for s in random_game(n, seed)][-1]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_replay_reproduces_the_game(n):
    for seed in (n, 50 + n):
        s = finished(n, seed)
        rec = make_record(s, [f"bot{i}" for i in range(n)])
        assert rec["format"] == "alhambra-ai-record" and rec["version"] == 1
        assert rec["num_players"] == n and rec["seed"] == seed and rec["scores"] == s.scores()
        assert rec["options"] == s.options and rec["forfeits"] == []
        back = replay(json.loads(json.dumps(rec)))
        assert back._fingerprint() == s._fingerprint()
        assert state_to_json(back) == state_to_json(s)


def test_record_of_an_unfinished_game():
    s = played(3, 5, 39)
    rec = make_record(s, ["a", "b", "c"], forfeits=[1])
    assert len(rec["actions"]) == 39 and rec["forfeits"] == [{"seat": 1}]
    assert state_to_json(replay(rec)) == state_to_json(s)


def test_action_texts_are_the_applied_actions():
    s = new_game(4, seed=3)
    played = []
    for _ in range(30):
        a = s.legal_actions()[-1]
        played.append(s.action_to_text(a))
        s.apply(a)
    assert action_texts(s) == played


def test_files(tmp_path):
    s = finished(4, 9)
    rec = make_record(s, ["a", "b", "c", "d"],
                      forfeits=[{"seat": 2, "bot": "c", "reason": "timeout", "move": 17}])
    save_record(rec, tmp_path / "g.json")
    assert load_record(tmp_path / "g.json") == rec
    assert replay(load_record(tmp_path / "g.json")).scores() == s.scores()
    (tmp_path / "x.json").write_text("[1, 2")
    with pytest.raises(RecordError, match="not JSON"):
        load_record(tmp_path / "x.json")


def test_the_first_failing_action_is_named():
    s = finished(3, 4)
    rec = make_record(s, ["a", "b", "c"])
    bad = copy.deepcopy(rec)
    bad["actions"][10] = "buy 4 o1"
    with pytest.raises(RecordError, match=r"action 10 'buy 4 o1' does not replay"):
        replay(bad)
    bad = copy.deepcopy(rec)
    bad["actions"][5] = "jump"
    with pytest.raises(RecordError, match=r"action 5 'jump'"):
        replay(bad)
    bad = copy.deepcopy(rec)
    bad["actions"].append("pass")
    with pytest.raises(RecordError, match=rf"action {len(rec['actions'])} 'pass': the game is already over"):
        replay(bad)


def test_scores_that_do_not_match():
    rec = make_record(finished(2, 6), ["a", "b"])
    rec["scores"][0] += 1
    with pytest.raises(RecordError, match="replayed scores .* differ from the recorded"):
        replay(rec)
    assert replay(rec, check_scores=False).is_terminal()


MALFORMED = [
    (lambda r: r.update(format="pgn"), "not a game record"),
    (lambda r: r.update(version=2), "unsupported record version 2"),
    (lambda r: r.pop("actions"), "record has no 'actions'"),
    (lambda r: r.update(extra=1), "unknown record field 'extra'"),
    (lambda r: r.update(num_players=9), "num_players must be an int 2..6"),
    (lambda r: r.update(seed="7"), "seed must be a non-negative int"),
    (lambda r: r.update(options={"dirk": False, "moon": 1}), "record setup: unknown option 'moon'"),
    (lambda r: r.update(actions="take y3"), "actions must be a list of action texts"),
    (lambda r: r.update(seats=["a"]), "seats must be a list of 3 names"),
    (lambda r: r.update(scores=[1, 2]), "scores must be a list of 3 ints"),
    (lambda r: r.update(forfeits=[1]), 'forfeit 1: must be an object .* with "seat" 0..2'),
    (lambda r: r.update(forfeits=[{"seat": 3}]), 'forfeit .*: must be an object .* with "seat" 0..2'),
    (lambda r: r.update(forfeits=[{"bot": "x"}]), "forfeit .*: must be an object"),
    (lambda r: r.update(forfeits=[{"seat": 0, "why": "x"}]), "forfeit .*: unknown field 'why'"),
    (lambda r: r.update(forfeits=[{"seat": 0, "move": "3"}]), "forfeit .*: 'move' must be of type int"),
    (lambda r: r.update(forfeits=[{"seat": 0, "move": 99}]), "forfeit .*: move must be 0..4"),
]


@pytest.mark.parametrize("change,message", MALFORMED)
def test_malformed_records(change, message):
    s = played(3, 1, 4)
    rec = make_record(s, ["a", "b", "c"])
    change(rec)
    with pytest.raises(RecordError, match=message):
        replay(rec)


def test_not_a_record():
    with pytest.raises(RecordError, match="a record is a JSON object"):
        replay([1, 2])


def test_make_record_needs_a_dealt_game_with_its_history():
    with pytest.raises(RecordError, match="started by new_game"):
        make_record(State.from_setup(2, seed=1), ["a", "b"])
    with pytest.raises(RecordError, match="3 seat names for a 2-player game"):
        make_record(new_game(2, seed=1), ["a", "b", "c"])
    s = new_game(3, seed=2)
    s.apply(s.legal_actions()[0])
    s.record_history = False
    s.apply(s.legal_actions()[0])
    with pytest.raises(RecordError, match="do not reproduce the state"):
        make_record(s, ["a", "b", "c"])


def test_the_replay_command_reads_a_saved_record(tmp_path):
    from click.testing import CliRunner

    from alhambra_ai.cli import main

    s = finished(3, 8)
    forfeit = {"seat": 1, "reason": "times out", "move": 5}
    save_record(make_record(s, ["ann", "bob", "cy"], forfeits=[forfeit]), tmp_path / "g.json")
    result = CliRunner().invoke(main, ["replay", str(tmp_path / "g.json")])
    assert result.exit_code == 0, result.output
    assert "bob forfeited at move 6: times out" in result.output
    bob = [line.split(".")[0].strip() for line in result.output.splitlines() if ". seat 2 (bob" in line]
    marked = [line.split(".")[0].strip() for line in result.output.splitlines() if "(bob (stand-in))" in line]
    assert int(bob[0]) < 6 and [m for m in bob if int(m) >= 6] == marked    # from move 6 on, not before
    scores = s.scores()
    assert f"final scores: ann {scores[0]}, bob {scores[1]}, cy {scores[2]}" in result.output
