"""The JSON position format: exact round trips, identical futures, one clear error per kind of bad input."""

import copy
import json
import random

import pytest
from infohelpers import random_game, sampled_positions

from alhambra_ai import City, PositionError, State, new_game, state_from_json, state_to_json
from alhambra_ai.formats.position import (
    check_observation,
    load_observation,
    load_position,
    save_observation,
    save_position,
)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_round_trip_is_exact(n):
    phases = set()
    for s in sampled_positions(n, seed=600 + n, count=40):
        d = state_to_json(s)
        phases.add(d["phase"])
        text = json.dumps(d)
        t = state_from_json(text)
        assert state_to_json(t) == d
        assert json.loads(text) == d
        # everything the API shows is the same too
        assert t.observation(0) == s.observation(0) and t.score_breakdown() == s.score_breakdown()
        assert t._draw_pile() == s._draw_pile() and t._bag() == s._bag() and t.seed == s.seed
    assert {"action", "over"} <= phases


@pytest.mark.parametrize("n", [2, 3, 5])
def test_same_future_after_a_round_trip(n):
    """The loaded state plays on exactly like the original (RNG included: reshuffles of the discard)."""
    for k, s in enumerate(sampled_positions(n, seed=700 + n, count=5)):
        a, b = s.clone(), state_from_json(state_to_json(s))
        r = random.Random(k)
        reshuffles = 0
        while not a.is_terminal():
            assert a.legal_actions() == b.legal_actions()
            act = r.choice(a.legal_actions())
            a.apply(act)
            b.apply(act)
            reshuffles += a.history[-1].startswith("reshuffle")
        assert state_to_json(a) == state_to_json(b)
        assert a.scores() == b.scores() and a.history == b.history


def test_reshuffles_happen_in_those_futures():
    """The identical-future test above covers reshuffles: random games do reshuffle the discard."""
    s = [x for x in random_game(3, seed=703)][-1]
    assert any(h.startswith("reshuffle") for h in s.history)


def test_round_trip_of_every_phase_and_dirk():
    seen = {}
    for s in random_game(2, seed=31):
        seen.setdefault(s.phase, s.clone())
    assert set(seen) == {"action", "place", "final", "over"}
    for s in seen.values():
        d = state_to_json(s)
        assert d["dirk"] is not None
        assert state_to_json(state_from_json(d)) == d


def test_from_setup_positions_round_trip():
    s = State.from_setup(3, seed=4, hands=[["y3"], ["b9", "b8"], []], cities=["0,0:0 1,0:7", "", ""],
                         scores=[3, 0, 1], scoring_rounds_done=1)
    d = state_to_json(s)
    assert d["history"] == ["setup: from_setup"] and d["scored"] == [1]
    assert state_to_json(state_from_json(d)) == d


def test_city_forms():
    s = new_game(3, seed=5)
    for a in s.legal_actions():
        if s.action_to_text(a).startswith("buy"):
            s.apply(a)
            break
    d = state_to_json(s)
    d["seats"][0]["city"] = [[0, 0, 0, 0]]             # the cell-list form of the observation
    assert state_from_json(d).city(0) == City()
    assert City.from_text(state_to_json(s)["seats"][0]["city"]) == s.city(0)


def test_files(tmp_path):
    s = sampled_positions(4, seed=8, count=3)[1]
    save_position(s, tmp_path / "p.json")
    assert state_to_json(load_position(tmp_path / "p.json")) == state_to_json(s)
    save_observation(s.observation(2), tmp_path / "o.json")
    assert load_observation(tmp_path / "o.json") == s.observation(2)
    (tmp_path / "bad.json").write_text("{nope")
    with pytest.raises(PositionError, match="bad.json: not JSON"):
        load_position(tmp_path / "bad.json")
    d = state_to_json(s)
    d["turn"] = "x"
    (tmp_path / "bad2.json").write_text(json.dumps(d))
    with pytest.raises(PositionError, match="bad2.json: turn must be an int"):
        load_position(tmp_path / "bad2.json")


def test_check_observation():
    s = sampled_positions(3, seed=9, count=3)[1]
    seat = s.current_player
    o = s.observation(seat)
    check_observation(o)
    with pytest.raises(PositionError, match="observation: legal_actions does not fit"):
        check_observation(dict(o, legal_actions=o["legal_actions"][1:]))
    with pytest.raises(PositionError, match="is both in"):
        check_observation(dict(o, market=[o["reserves"][0][0]] + o["market"][1:]))


# ---------------------------------------------------------------- malformed positions


def base():
    """A mid-game position (3 players) with an undrawn scoring card and tiles everywhere."""
    for s in random_game(3, seed=77):
        if s.scoring_rounds_done == 1 and s.phase == "action" and s.reserve(0) and s.reserve(1):
            return state_to_json(s)
    raise AssertionError("no such position")


def edit(fn):
    d = copy.deepcopy(base())
    fn(d)
    return d


def swap_top_money_and_s(d):
    """Put the undrawn scoring card 2 just above its range."""
    pile = d["draw_pile"]
    lo = d["scoring_cards"][1]["positions"][0]
    i = pile.index("s2")
    pile[i], pile[lo - 1] = pile[lo - 1], pile[i]


CASES = [
    ("not a dict", lambda d: None, "a position is a JSON object"),
    ("format", lambda d: d.update(format="chess"), "not a position: format"),
    ("version", lambda d: d.update(version=9), "unsupported position version 9"),
    ("unknown field", lambda d: d.update(colour="red"), "unknown position field 'colour'"),
    ("missing field", lambda d: d.pop("bag"), "has no 'bag'"),
    ("num_players", lambda d: d.update(num_players=7), "num_players must be 2..6"),
    ("option", lambda d: d.update(options={"dirk": True}), "options: option 'dirk'"),
    ("rng", lambda d: d.update(rng="xyz"), "rng must be 64"),
    ("zero rng", lambda d: d.update(rng="0" * 64), "all-zero"),
    ("bad phase", lambda d: d.update(phase="dance"), "phase must be one of"),
    ("bad seat", lambda d: d.update(current_player=3), "current_player must be 0..2"),
    ("over needs -1", lambda d: d.update(phase="over"), "current_player must be -1"),
    ("wrong type", lambda d: d.update(turn="12"), "turn must be an int, not str"),
    ("bool is no int", lambda d: d["seats"][0].update(score=True), r"seats\[0\].score must be an int"),
    ("seats length", lambda d: d["seats"].pop(), "seats must have 3 entries"),
    ("seat field", lambda d: d["seats"][1].update(money=3), r"seats\[1\]: unknown field 'money'"),
    ("unknown tile", lambda d: d["bag"].append(99), "unknown tile 99"),
    ("tile as text", lambda d: d["bag"].append("7"), "a tile is an int"),
    ("tile in two places", lambda d: d["seats"][1]["reserve"].append(d["seats"][0]["reserve"][0]),
     "is both in the reserve of seat 0 and in the reserve of seat 1"),
    ("tile nowhere", lambda d: d["bag"].pop(), "tiles nowhere"),
    ("invalid city", lambda d: d["seats"][2].update(city="0,0:0 5,5:" + str(d["bag"][0])),
     r"seats\[2\].city: invalid city: tile \d+ at 5,5 touches no other tile"),
    ("city tile twice", lambda d: d["seats"][2].update(city="0,0:0 1,0:8 2,0:8"), "tile 8 is given twice"),
    ("bad city type", lambda d: d["seats"][2].update(city=5), "must be a city text"),
    ("extra card", lambda d: d["seats"][0]["hand"].extend(["y1"] * 3), "card y1: more than the 3 copies"),
    ("missing card", lambda d: d["draw_pile"].remove(next(c for c in d["draw_pile"] if c[0] != "s")),
     "cards nowhere"),
    ("unknown card", lambda d: d["discard"].append("r5"), "unknown card 'r5'"),
    ("scoring card out of range", swap_top_money_and_s, "scoring card s2 is at .*outside its range"),
    ("scoring card missing", lambda d: d["draw_pile"].remove("s2"), "s2 is not drawn yet"),
    ("scoring card twice", lambda d: d["draw_pile"].append("s2"), "s2 is there twice"),
    ("scored twice", lambda d: d.update(scored=[1, 1]), "round 1 given twice"),
    ("round 3 scored early", lambda d: d.update(scored=d["scored"] + [3]), "round 3 is scored exactly"),
    ("pending without a buy", lambda d: d["pending"].append(d["bag"].pop()), "pending only after a purchase"),
    ("place without pending", lambda d: d.update(phase="place"), "none are"),
    ("final too early", lambda d: d.update(final={"ender": 0, "served": 1, "tiles": [None] * 4,
                                                  "seats": [None] * 4}), "final must be null"),
    ("display length", lambda d: d["display"].pop(), "display must have 4 entries"),
    ("history type", lambda d: d["history"].append(3), "history must be a list of texts"),
    ("dirk without dirk", lambda d: d.update(dirk={"tiles": [], "score": 0}), "dirk must be null"),
    ("breakdown total", lambda d: d["score_breakdown"][0]["seats"][0].update(total=999),
     "total 999 is not the sum"),
]


@pytest.mark.parametrize("name,change,message", CASES, ids=[c[0] for c in CASES])
def test_each_malformed_position_has_its_own_error(name, change, message):
    d = None if name == "not a dict" else edit(change)
    with pytest.raises(PositionError, match=message):
        state_from_json(d)


def test_the_base_position_is_fine_and_has_what_the_cases_need():
    d = base()
    state_from_json(d)
    assert d["score_breakdown"] and not d["scoring_cards"][1]["drawn"]
    assert d["scoring_cards"][1]["positions"][0] > 0
    assert PositionError.__mro__[1] is ValueError


def test_bad_json_text():
    with pytest.raises(PositionError, match="not JSON"):
        state_from_json("{")


def test_the_examples_in_docs_formats_are_valid():
    """docs/formats.md shows a real position and the observation of it by seat 0: both load and agree."""
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "formats.md").read_text()
    blocks = [json.loads(b.split("```")[0]) for b in text.split("```json\n")[1:]]
    position, obs, record = blocks[:3]               # (the dice games' examples follow: test_dice_formats.py)
    s = state_from_json(position)
    assert state_to_json(s) == position
    check_observation(obs)
    assert s.observation(obs["seat"]) == obs
    assert record["format"] == "alhambra-ai-record" and len(record["scores"]) == record["num_players"]
