"""Alcazaba's extra tower, tile 71 (rules.md D23: tower, cost 10, no walls), in every tile and city helper a
bot author uses (issue 43, item 6): they raised "no tile with id 71", so a bot using them forfeited."""

import pytest

from alhambra_ai import City, new_game, tile_info, tile_walls
from alhambra_ai.bot.api import Tile, decode_action, tile_facts
from alhambra_ai.terminal.text import tile_label, tile_long, tile_words

NEIGHBOURS = [(0, 1), (-1, 0), (1, 0), (0, -1)]      # the fountain's four sides, north row first


def test_tile_info_tile_walls_and_tile_facts_know_it():
    assert tile_info(71) == ("tower", 10, "-")
    assert tile_walls(71) == 0
    assert tile_facts(71) == Tile("tower", 10, "-", 0)
    for bad in (72, -1, 255):
        with pytest.raises(ValueError, match=f"no tile with id {bad}"):
            tile_info(bad)
        with pytest.raises(ValueError, match=f"no tile with id {bad}"):
            tile_walls(bad)


def test_the_render_labels_know_it():
    assert tile_label(71) == "tow71" and tile_words(71) == "tower 71" and tile_long(71) == "tow71 [-]"


def test_city_placements_can_place_and_with_tile():
    c = City()
    assert c.placements(71) == NEIGHBOURS          # no walls: any side of the fountain
    assert c.can_place(1, 0, 71) is None and c.can_place(2, 0, 71) == "no tile on any side of the cell"
    c2 = c.with_tile(1, 0, 71)
    assert c2.tile_at(1, 0) == 71 and c2.walls_at(1, 0) == 0 and c2.to_text() == "0,0:0 1,0:71"
    assert c2.placements(71) == [] and c2.can_place(-1, 0, 71) == "tile 71 is already in the city"
    assert c2.wall_score() == 0 and c2.removals() == [(1, 0)]


def test_city_swapped_can_swap_and_swaps():
    c = City.from_text("1,0:15")                    # arcades 15: walls N, E, S
    assert c.can_swap(1, 0, 71) is None and (1, 0) in c.swaps(71)
    c2 = c.swapped(1, 0, 71)
    assert c2.tile_at(1, 0) == 71 and c2.to_text() == "0,0:0 1,0:71"
    back = c2.swapped(1, 0, 15)
    assert back == c


def test_city_text_round_trip_and_pickle():
    import pickle

    c = City.from_text("0,1:71 1,0:15")
    assert City.from_text(c.to_text()) == c and pickle.loads(pickle.dumps(c)) == c
    with pytest.raises(ValueError, match="no tile with id 72"):
        City.from_text("1,0:72")
    with pytest.raises(ValueError, match="extra tower 71"):
        City().placements(72)


def test_the_base_game_still_never_takes_it():
    from alhambra_ai import IllegalActionError

    s = new_game(3, seed=1)
    with pytest.raises(IllegalActionError):
        s.apply("place 71 1,0")
    d = __import__("alhambra_ai").state_to_json(s)
    d["seats"][0]["city"] = "0,0:0 1,0:71"
    from alhambra_ai import PositionError, state_from_json

    with pytest.raises(PositionError):
        state_from_json(d)


def _city_cells(state, seat, verb):
    actions = [decode_action(a) for a in state.legal_actions()
               if state.action_to_text(a).startswith(f"{verb} 71 ")]
    return sorted(a.cell for a in actions if a.cell is not None)        # (not "place 71 reserve")


def test_city_helpers_agree_with_the_engine_on_tile_71_in_real_games():
    """A bot that places or rebuilds tile 71 with City.placements / swaps finds exactly the engine's moves."""
    placed = rebuilt = 0
    for seed in range(40):
        s = new_game(2 + seed % 3, seed, game="alcazaba")
        while not s.is_terminal():
            seat = s.current_player
            if s.phase == "place" and s.pending(seat) == [71]:
                city = s.city(seat)
                assert _city_cells(s, seat, "place") == sorted(city.placements(71))
                for x, y in city.placements(71):
                    assert city.with_tile(x, y, 71).tile_at(x, y) == 71
                placed += 1
            if s.phase == "after_roll" and s.rolls in (1, 2) and 71 in s.reserve(seat):
                city = s.city(seat)
                assert _city_cells(s, seat, "build") == sorted(city.placements(71))
                assert _city_cells(s, seat, "swap") == sorted(city.swaps(71))
                for x, y in city.swaps(71):
                    assert city.can_swap(x, y, 71) is None and city.swapped(x, y, 71).tile_at(x, y) == 71
                rebuilt += 1
            s.apply(s.legal_actions()[seed * 7919 % len(s.legal_actions())] if s.phase != "place"
                    else s.legal_actions()[0])
        if placed and rebuilt:
            break
    assert placed and rebuilt
