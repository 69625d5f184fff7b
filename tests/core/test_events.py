"""Public events as data (docs/formats.md "Events"): the history is rendered from them, nothing reads it back.

The main check rewords every history line (the core's test hook ``_reword_events``) and plays the same
seeded games again: the events, the records, the determinizations, the built-in searches' moves and the env
encodings must come out byte-for-byte the same; only the history texts differ (every line of them).
"""

import json
import random

import pytest

from alhambra_ai import determinize, new_game, registry, state_to_json
from alhambra_ai._core import MODULES, _reword_events, card_text
from alhambra_ai.env.spaces import ObservationEncoder
from alhambra_ai.formats.record import make_record, record_text, replay

ALL = {m: True for m in MODULES}
#: the base game's event kinds (docs/formats.md "Events")
BASE_KINDS = {"action", "deal", "start", "market", "display", "dirk", "reshuffle", "scoring_card", "score",
              "end", "leftover", "bazaar", "coin", "wall_card", "figure", "secret", "setup", "note"}
#: (game, players, options, seed): the base game alone, with every module, with each module, both dice games
GAMES = [("alhambra", 3, {}, 5), ("alhambra", 2, ALL, 6), ("alhambra", 4, ALL, 7),
         *[("alhambra", 3, {m: True}, 8) for m in MODULES], ("dice", 3, {}, 9), ("alcazaba", 2, {}, 10)]


def _game(game, n, options, seed):
    return new_game(n, seed=seed, options=options or None, game=game)


def _without_history(d):
    return {k: v for k, v in d.items() if k != "history"}


def _played(game, n, options, seed):
    """A random game to its end; every 9th decision: what the seat's observation feeds (determinization,
    search, encoding)."""
    s = _game(game, n, options, seed)
    r = random.Random(seed)
    out = {"determinized": [], "moves": [], "encodings": []}
    enc = ObservationEncoder(game, n, options)
    search = registry.get(game).search
    k = 0
    while not s.is_terminal():
        if k % 9 == 0:
            seat = s.current_player
            obs = s.observation(seat)
            out["encodings"].append(enc.encode(obs).tobytes().hex())
            d = determinize(obs, 1000 + k)
            out["determinized"].append((json.dumps(_without_history(d.observation(seat)), sort_keys=True),
                                        json.dumps(d.events) if game != "alhambra" else
                                        json.dumps(_without_history(state_to_json(d)), sort_keys=True)))
            if k % 27 == 0:
                names = ("greedy", "expectimax") if game == "alhambra" else ("expectimax",)
                for name in names:
                    out["moves"].append(getattr(search, name)(json.loads(json.dumps(obs)), 3,
                                                              {"iterations": 60, "samples": 2, "depth": 2}))
                if game == "alhambra":
                    out["moves"].append(search.mcts(json.loads(json.dumps(obs)), 3,
                                                    {"iterations": 60, "samples": 2}))
        s.apply(r.choice(s.legal_actions()))
        k += 1
    record = make_record(s, [f"p{i}" for i in range(n)])
    out["record"] = json.dumps(record, sort_keys=True)
    out["replayed"] = json.dumps(replay(record).events)
    out["events"] = [json.dumps(s.observation(p)["events"]) for p in range(n)]
    return out, s.history


@pytest.mark.parametrize("game, n, options, seed", GAMES)
def test_rewording_every_history_line_changes_nothing_else(game, n, options, seed):
    plain, lines = _played(game, n, options, seed)
    _reword_events(True)
    try:
        reworded, other = _played(game, n, options, seed)
    finally:
        _reword_events(False)
    assert len(lines) == len(other) and all(a != b for a, b in zip(lines, other, strict=True))
    for key in plain:
        assert reworded[key] == plain[key], key


@pytest.mark.parametrize("game, n, options, seed", GAMES)
def test_one_event_per_history_line_in_every_observation(game, n, options, seed):
    s = _game(game, n, options, seed)
    r = random.Random(seed)
    while not s.is_terminal():
        assert len(s.events) == len(s.history)
        obs = s.observation(s.current_player)
        assert len(obs["events"]) == len(obs["history"])
        assert all(set(e) <= {"seat", "kind", "payload", "gains", "pays"} for e in obs["events"])
        s.apply(r.choice(s.legal_actions()))
    kinds = {e["kind"] for e in s.events}
    assert "action" in kinds and "score" in kinds


def test_the_residents_setup_stays_secret_in_the_events():
    """rules.md §8/§9.8: another seat's figures are a secret event (the action's kind bits, no types)."""
    s = new_game(3, seed=4, options={"residents": True})
    while s.phase in ("figures", "disc"):
        s.apply(s.legal_actions()[0])
    full = [e for e in s.events if e["kind"] == "action" and e["payload"] & 15 == 15
            and (e["payload"] >> 4) & 15 == 4]
    assert len(full) == 3
    for seat in range(3):
        obs = s.observation(seat)
        mine = [e for e in obs["events"] if e["kind"] == "action" and e in full]
        secret = [e for e in obs["events"] if e["kind"] == "secret"]
        assert [e["seat"] for e in mine] == [seat]
        assert sorted(e["seat"] for e in secret) == sorted(p for p in range(3) if p != seat)
        assert all(e["payload"] == 15 | 4 << 4 for e in secret)
        assert all(f"seat {e['seat'] + 1}: figures (secret)" in obs["history"] for e in secret)
    _, spectator = s.seen_log(-1)
    assert sum(e["kind"] == "secret" for e in spectator) == 3


def test_the_events_tell_no_hidden_card():
    """rules.md §8: the events name only cards that were seen (deals, the display, takes, payments): two
    games that differ in the hidden order of the draw pile give the same events until a card is drawn, and
    the thieves dealt face down are in no event."""
    s = new_game(3, seed=12, options={"thief": True})
    seen = set()
    r = random.Random(1)
    while not s.is_terminal():
        obs = s.observation(s.current_player)
        shown = {c for c in obs["display"] if c} | set(obs["hand"]) | set(obs["discard"])
        for e in obs["events"]:
            if e["kind"] in ("deal",):
                seen.update(card_text(c) for c in e["payload"])
            elif e["kind"] == "display":
                seen.add(card_text(e["payload"]))
            for c in [*e.get("gains", []), *e.get("pays", [])]:
                assert card_text(c) in seen | shown
        assert {e["kind"] for e in obs["events"]} <= BASE_KINDS      # (no event for the thieves dealt)
        s.apply(r.choice(s.legal_actions()))


def test_records_without_events_still_load_and_replay():
    s = new_game(2, seed=3)
    r = random.Random(3)
    while not s.is_terminal():
        s.apply(r.choice(s.legal_actions()))
    record = make_record(s, ["a", "b"])
    old = {k: v for k, v in record.items() if k != "events"}
    assert replay(old).events == record["events"] == s.events
    assert record_text(old) == json.dumps(old, indent=1) + "\n"      # (the file of a record without events)
    assert json.loads(record_text(record)) == record and record_text(record).count("\n") > len(s.events)
