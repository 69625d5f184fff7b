"""rules.md §8 with the modules (§9): observations show what the table shows (viziers, waiting bazaars,
falcons, the window, the bag's camps and bazaars) and nothing hidden; determinization and positions carry
them."""

import json

import pytest
from infohelpers import dumps, hidden_variant, sampled_positions

from alhambra_ai import count_cards, determinize, new_game, state_from_json, state_to_json

SETS = {
    "vizier": {"vizier": True},
    "camps": {"camps": True},
    "bazaars": {"bazaars": True},
    "falcons": {"falcons": True},
    "all": {"vizier": True, "camps": True, "bazaars": True, "falcons": True},
    "change": {"change": True},
    "walls": {"walls": True},
    "six": {"vizier": True, "camps": True, "bazaars": True, "falcons": True, "change": True, "walls": True},
}


@pytest.mark.parametrize("name", SETS)
def test_no_leak_and_determinization_per_module(name):
    opts = SETS[name]
    phases = set()
    for n, seed in ((2, 5), (4, 6)):
        for s in sampled_positions(n, seed, 12, options=opts):
            phases.add(s.phase)
            twin = hidden_variant(s, seed)
            for seat in range(n):
                obs = s.observation(seat)
                assert dumps(twin.observation(seat)) == dumps(obs)        # hidden parts never show
                assert dumps(s.determinized(seat, 3).observation(seat)) == dumps(obs)
                assert dumps(determinize(json.loads(dumps(obs)), 4).observation(seat)) == dumps(obs)
                assert count_cards(obs) == [s.hand(i) for i in range(n)]
            d = state_to_json(s)
            assert state_to_json(state_from_json(json.loads(json.dumps(d)))) == d
    if name in ("vizier", "all", "six"):
        assert "interrupt" in phases


def test_module_fields_of_the_observation():
    s = new_game(3, 2, SETS["all"])
    m = s.observation(1)["modules"]
    assert m["vizier_awake"] == [True, True, True] and m["window_order"] == []
    assert m["falcons"] == [] and m["bazaars_waiting"] == s.bazaars_waiting()
    assert m["bag_camps"] + sum(1 for t in s.market() if 55 <= t <= 62) == 8
    assert m["bag_bazaars"] + len(m["bazaars_waiting"]) == 8
    assert new_game(3, 2).observation(0)["modules"] is None


def test_determinized_bag_keeps_its_module_tiles():
    s = new_game(4, 8, SETS["all"])
    d = s.determinized(0, 1)
    assert sorted(d._bag()) == sorted(s._bag()) and d._bag() != s._bag()


def test_base_positions_have_no_modules_field_and_old_ones_load():
    d = state_to_json(new_game(3, 1))
    assert "modules" not in d
    assert state_to_json(state_from_json(d)) == d


def test_positions_refuse_module_tiles_of_modules_that_are_off():
    d = state_to_json(new_game(3, 1, {"camps": True}))
    d["options"] = {"dirk": False}
    with pytest.raises(ValueError, match="modules must be null|not in this game"):
        state_from_json(d)


def test_records_of_module_games_replay():
    from alhambra_ai.formats.record import make_record, replay

    s = new_game(3, 12, SETS["all"])
    s.random_playout(5)
    rec = make_record(s, ["a", "b", "c"])
    assert rec["options"] == {"dirk": False, **SETS["all"]}
    assert replay(json.loads(json.dumps(rec))).scores() == s.scores()
