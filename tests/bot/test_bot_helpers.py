"""Bot authors' helpers: action codes as small typed values and back, tile facts, and the runnable search
bot of docs/bots.md."""

import random
import re
from pathlib import Path

from alhambra_ai import new_game, tile_info
from alhambra_ai.bot.api import Action, Observation, decode_action, load_bot, tile_facts

DOCS = Path(__file__).resolve().parents[2] / "docs" / "bots.md"


def test_every_legal_action_decodes_and_encodes_back():
    rng = random.Random(5)
    seen = set()
    for n, seed in ((2, 1), (3, 2), (4, 3)):
        s = new_game(n, seed=seed)
        s.record_history = False
        while not s.is_terminal():
            obs = s.observation(s.current_player)
            for code in s.legal_actions():
                a = decode_action(code, obs)
                assert a.code == code and Action(**{**a.__dict__}).code == code
                text = s.action_to_text(code).split()
                seen.add(a.kind)
                assert text[0] == ("place" if a.kind.startswith("place") else a.kind)
                if a.kind == "buy":
                    assert text[1] == str(a.slot + 1) and tuple(text[2:]) == a.cards
                elif a.kind == "take":
                    assert sorted(text[1:]) == sorted(a.cards) and len(a.positions) == len(a.cards)
                elif a.kind in ("place", "build", "swap", "remove"):
                    assert text[-1] == f"{a.cell[0]},{a.cell[1]}"
                    if a.kind != "remove":
                        assert text[1] == str(a.tile)
                elif a.kind == "place_reserve":
                    assert text[1:] == [str(a.tile), "reserve"]
            s.apply(rng.choice(s.legal_actions()))
    assert {"take", "buy", "place", "place_reserve", "build", "remove", "swap"} <= seen


def test_tile_facts():
    for t in range(55):
        f = tile_facts(t)
        assert (f.type, f.cost, f.walls) == tile_info(t)
        assert all((f.wall_mask >> i & 1) == (c in f.walls) for i, c in enumerate("NESW"))
    assert tile_facts(0).type == "fountain"


def test_the_search_bot_of_the_docs_plays_a_legal_game(tmp_path):
    code = re.search(r"## A simple search bot.*?```python\n(.*?)```", DOCS.read_text(), re.S).group(1)
    path = tmp_path / "flatmc.py"
    path.write_text(code)
    bots = []
    for seat in range(2):
        bot = load_bot(path)()
        bot.setup({"seat": seat, "num_players": 2, "options": {"dirk": True}, "seed": -seat - 10 ** 20,
                   "move_time": 0.02, "time_bank": 5.0, "playouts": 2})
        bots.append(bot)
    state = new_game(2, seed=4)
    while not state.is_terminal():
        seat = state.current_player
        state.apply(bots[seat].act(Observation(state.observation(seat))))  # illegal -> IllegalActionError
    assert state.ranking() and sum(state.scores()) > 0
