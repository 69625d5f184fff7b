"""The README's example bot is real: it loads, stays within 15 lines and plays a whole game legally."""

import re
from pathlib import Path

from alhambra_ai import new_game
from alhambra_ai.bot.api import Observation, load_bot

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_bot_plays_a_legal_game(tmp_path):
    code = re.search(r"## Writing a bot.*?```python\n(.*?)```", README.read_text(), re.S).group(1)
    assert len(code.strip().splitlines()) <= 15
    path = tmp_path / "mybot.py"
    path.write_text(code)
    bots = []
    for seat in range(2):
        bot = load_bot(path)()
        bot.setup({"seat": seat, "num_players": 2, "options": {"dirk": True}, "seed": seat,
                   "move_time": 1.0, "time_bank": 5.0})
        bots.append(bot)
    state = new_game(2, seed=3)
    while not state.is_terminal():
        seat = state.current_player
        state.apply(bots[seat].act(Observation(state.observation(seat))))  # illegal -> IllegalActionError
    assert state.ranking() and sum(state.scores()) > 0
