"""The game viewer's data and pages for the dice games (Alhambra: The Dice Game, Alcazaba).

Every frame must be the engine's state after that move (the page draws, it does not play); the report links
every game of a dice tournament; ``replay --html`` writes the viewer of a dice record. The drawing itself is
checked in a real browser by tests/html/test_browser.py.
"""

import json
import re

import pytest
from click.testing import CliRunner
from dicehelpers import random_record

from alhambra_ai import new_game
from alhambra_ai.cli import main
from alhambra_ai.formats.record import save_record, steps
from alhambra_ai.html.report import viewer_data, viewer_html

GAMES = ["dice", "alcazaba"]


def game_data(page):
    return json.loads(re.search(r'id="game-data" type="application/json">(.*?)</script>', page).group(1))


def board_of(state):
    return sorted([t, i, o] for t in range(6) for i, o in enumerate(state.column(t)) if o is not None)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_each_frame_is_the_engines_state_after_that_move(game, players):
    record = random_record(game, players, seed=players)
    data = viewer_data(record)
    assert data["game"] == game and data["seats"] == record["seats"]
    assert len(data["frames"]) == len(record["actions"]) + 1
    rows = list(range(players)) + (["dirk"] if players == 2 else [])
    for (_, seat, text, state), f in zip(steps(record), data["frames"], strict=True):
        assert f["seat"] == seat and f["move"] == (f"seat {seat + 1}: {text}" if text else "")
        assert sorted(f["markers"]) == board_of(state)
        assert [f["dice"], f["black"]] == list(state.dice()) and f["rolls"] == state.rolls
        assert f["scores"] == state.scores() and f["dirk_score"] == state.dirk_score
        assert f["round"] == state.round and f["phase"] == state.phase
        if game == "dice":
            assert f["building_points"] == [state.building_points(r) for r in rows]
            assert f["bonus_tiles"] == [state.bonus_tiles(r) for r in rows]
            assert f["bonus_fields"] == state.bonus_fields()
        else:
            assert f["column_items"] == [state.column_items(t) for t in range(6)]
            assert [sorted(map(tuple, c)) for c in f["cities"]] == \
                [sorted(state.city(p).cells()) for p in range(players)]
            assert f["reserves"] == [state.reserve(p) for p in range(players)]
        assert ("final" in f) == state.is_terminal()
    assert data["frames"][-1]["final"] == {"ranking": state.ranking()}
    assert data["frames"][-1]["scores"] == record["scores"]
    if game == "alcazaba":                     # every tile drawn has its type (the extra tower 71 too)
        drawn = {t for f in data["frames"] for c in f["cities"] for _, _, t, _ in c}
        assert drawn <= set(map(int, json.loads(json.dumps(data["tiles"])))) and 71 in data["tiles"]


@pytest.mark.parametrize("game", GAMES)
def test_a_reroll_frame_names_the_dice_rolled_and_a_stop_frame_the_dice_it_ended_with(game):
    record = random_record(game, 3, seed=5)
    frames = viewer_data(record)["frames"]
    first_reroll = next(k for k, a in enumerate(record["actions"]) if a.startswith("reroll"))
    rolled = [int(w) - 1 for w in record["actions"][first_reroll].split()[1:]]
    f, before = frames[first_reroll + 1], frames[first_reroll]
    assert f["rolled"] == rolled
    assert all(f["dice"][k] == before["dice"][k] for k in range(8) if k not in rolled)   # the kept dice
    assert frames[1]["rolled"] == list(range(8))                                        # roll 1: all
    stop = next(k for k, a in enumerate(record["actions"]) if a.startswith("stop"))
    f, before = frames[stop + 1], frames[stop]
    assert f["dice"] == [None] * 8                                   # the engine clears them ...
    name = record["actions"][stop].split()[1]
    named = ["pavilion", "seraglio", "arcades", "chambers", "garden", "tower"].index(name)
    assert f["stopped"] == {"dice": before["dice"], "black": before["black"], "rolls": before["rolls"],
                            "type": named}                           # ... the frame keeps what was counted
    assert {t for t, _ in f["changed"]} == {named} or f["events"][0].endswith(f"falls off ({name})")


def test_a_keep_move_is_shown_as_the_dice_the_engine_rolled():
    record = random_record("dice", 2, seed=7)
    k = next(k for k, a in enumerate(record["actions"]) if a.startswith("reroll "))
    rolled = {int(w) for w in record["actions"][k].split()[1:]}
    record["actions"][k] = "keep " + " ".join(str(d) for d in range(1, 9) if d not in rolled)
    f = viewer_data(record)["frames"][k + 1]
    assert f["rolled"] == sorted(d - 1 for d in rolled) and f["move"].endswith(record["actions"][k])


@pytest.mark.parametrize("game", GAMES)
def test_the_page_carries_its_frames_and_the_dice_board(game):
    record = random_record(game, 2, seed=1)
    page = viewer_html(record)
    data = game_data(page)
    assert data == json.loads(json.dumps(viewer_data(record)))
    assert "function renderDice" in page and "start(renderDice);" in page and "function drawCity" in page
    assert page.count("function drawCity") == 1                      # the base viewer's, not a copy
    assert ("Alcazaba, seed " if game == "alcazaba" else "Alhambra: The Dice Game, seed ") in page
    assert ('id="tracks"' in page) == (game == "dice")


@pytest.mark.parametrize("game", GAMES)
def test_report_links_every_game_of_a_dice_tournament(tmp_path, game):
    from alhambra_ai.arena.store import ResultStore

    store, records = ResultStore(tmp_path / "run"), {}
    for i, players in enumerate([2, 3, 2]):
        record = random_record(game, players, seed=10 + i)
        ranks = new_game(players, 1, game=game).ranking()       # any valid ranks: the report only shows them
        gid = f"g{i + 1:05d}"
        store.add({"game": gid, "bots": record["seats"], "scores": record["scores"], "ranks": ranks,
                   "forfeits": [], "game_type": game, "num_players": players}, record)
        records[gid] = record
    result = CliRunner().invoke(main, ["report", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    index = (tmp_path / "run" / "report" / "index.html").read_text()
    links = re.findall(r'<a href="(games/g\d{5}\.html)">(g\d{5})</a>', index)
    assert sorted(gid for _, gid in links) == sorted(records)
    for link, gid in links:
        page = (tmp_path / "run" / "report" / link).read_text()
        data = game_data(page)
        assert data["game"] == game and len(data["frames"]) == len(records[gid]["actions"]) + 1
        assert data["frames"][-1]["scores"] == records[gid]["scores"] and 'href="../index.html"' in page


@pytest.mark.parametrize("game", GAMES)
def test_replay_html_writes_the_viewer_of_a_random_record(tmp_path, game):
    record, html = random_record(game, 3, seed=2), tmp_path / "g.html"
    save_record(record, tmp_path / "g.json")
    result = CliRunner().invoke(main, ["replay", str(tmp_path / "g.json"), "--html", str(html)])
    assert result.exit_code == 0, result.output
    page = html.read_text()
    assert "game viewer written" in result.output and "start(renderDice);" in page
    assert game_data(page) == json.loads(json.dumps(viewer_data(record)))
