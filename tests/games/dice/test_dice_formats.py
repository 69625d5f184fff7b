"""docs/formats.md documents every field of the dice games' observations and records (issue 43, item 6), and
its examples are real: rebuilt here from the moves the text names, they must be what the engine gives."""

import json
import random
import re

import pytest
from paths import ROOT

from alhambra_ai import determinize, new_game
from alhambra_ai.formats.record import RecordError, load_record, make_record, replay, save_record

TEXT = (ROOT / "docs" / "formats.md").read_text()
SECTION = TEXT[TEXT.index("## The dice games: observations and records"):TEXT.index("## Tournament files")]
BLOCKS = [json.loads(b.split("```")[0]) for b in SECTION.split("```json\n")[1:]]


def played(game, seed, moves=None):
    """``new_game(2, seed, game)`` after ``moves`` moves (all, when None), each ``random.Random(seed).choice``
    of the legal actions: how the documentation's examples were made."""
    s = new_game(2, seed, game=game)
    rng = random.Random(seed)
    while not s.is_terminal() and (moves is None or moves > 0):
        s.apply(rng.choice(s.legal_actions()))
        moves = None if moves is None else moves - 1
    return s


def shortened(shown, real):
    """``shown`` is ``real`` with its middle replaced by one ``"..."``."""
    cut = shown.index("...")
    return shown[:cut] == real[:cut] and shown[cut + 1:] == real[len(real) - (len(shown) - cut - 1):]


def documented(field):
    """A field is named in backticks, or quoted inside a documented object (``score_breakdown``'s)."""
    return f"`{field}`" in SECTION or f'"{field}"' in SECTION


@pytest.mark.parametrize(("game", "moves"), [("dice", 38), ("alcazaba", 85)])
def test_the_observation_examples_are_real(game, moves):
    shown = next(b for b in BLOCKS if b.get("game") == game and "columns" in b)
    s = played(game, 1, moves)
    real = s.observation(s.current_player)
    assert list(shown) == list(real)                    # every field, in the engine's order
    logs = ("history", "events")
    assert {k: v for k, v in shown.items() if k not in logs} == {k: real[k] for k in real if k not in logs}
    assert shortened(shown["history"], real["history"]) and shortened(shown["events"], real["events"])
    assert re.search(rf"the {len(real['history'])} events", SECTION)


def test_the_record_example_is_real(tmp_path):
    shown = next(b for b in BLOCKS if b.get("format") == "alhambra-ai-record")
    record = make_record(played("dice", 7), ["expectimax", "random"])
    logs = ("actions", "events")

    def rest(d):
        return {k: v for k, v in d.items() if k not in logs}
    assert rest(shown) == rest(record)
    assert shortened(shown["actions"], record["actions"]) and shortened(shown["events"], record["events"])
    assert f"its {len(record['actions'])} actions" in SECTION
    save_record(record, tmp_path / "g.json")
    assert replay(load_record(tmp_path / "g.json")).scores() == record["scores"]
    with pytest.raises(RecordError):
        replay(dict(record, actions=record["actions"][:3] + ["pick 17"]))


@pytest.mark.parametrize("game", ["dice", "alcazaba"])
def test_every_field_of_every_observation_is_documented(game):
    seen = set()
    for n in (2, 3):
        s = new_game(n, 3, game=game)
        rng = random.Random(n)
        while not s.is_terminal():
            seen |= set(s.observation(s.current_player))
            s.apply(rng.choice(s.legal_actions()))
        seen |= set(s.observation(0)) | set(s.observation(0)["evaluation"])
        for entry in s.score_breakdown():
            seen |= set(entry) | {k for row in entry["seats"] for k in row}
    missing = sorted(f for f in seen if not documented(f))
    assert not missing, f"fields not in docs/formats.md: {missing}"
    assert determinize(s.observation(0), 1).observation(0) == s.observation(0)   # what the section promises


def test_every_action_text_and_history_event_kind_is_documented():
    verbs, events = set(), set()
    for game in ("dice", "alcazaba"):
        for seed in range(6):
            s = played(game, seed)
            rec = make_record(s, ["a", "b"])
            assert rec["game"] == game and documented("game")
            verbs |= {a.split()[0] for a in rec["actions"]}
            events |= {re.sub(r"^(seat \d+|dirk)( \w+)?.*", r"\1\2", h).split(":")[0] for h in s.history}
    for verb in verbs:
        assert re.search(rf"`{verb}\b", SECTION), verb
    kinds = {re.sub(r"\d+", "N", e) for e in events}
    words = {"round N", "bonus", "stack", "bag", "start tile", "dirk markers", "seat N", "dice",
             "seat N marker", "seat N gets", "dirk gets", "seat N names", "dirk names", "dirk takes",
             "score A", "score B", "score C", "game over"}
    words |= {f"aside {t}" for t in ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")}
    assert kinds <= words, kinds - words
    for kind in ("round 2:", "bonus:", "stack:", "bag:", "start tile:", "dirk markers:", "dice:", "marker:",
                 "gets", "names seat", "dirk takes", "aside garden:", "score A:", "game over:"):
        assert kind in SECTION, kind
