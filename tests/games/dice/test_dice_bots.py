"""The bot files play the dice games: every move legal, through the same Observation API as the base game."""

import pytest

from alhambra_ai import Observation, new_game
from alhambra_ai.bot.api import load_bot


def play(game, names, seed, config=None):
    s = new_game(2, seed, game=game)
    bots = []
    for seat, name in enumerate(names):
        b = load_bot(f"bots/{name}.py")()
        b.setup(dict(seat=seat, num_players=2, options={"dirk": True}, seed=seed + seat, **(config or {})))
        bots.append(b)
    while not s.is_terminal():
        seat = s.current_player
        action = bots[seat].act(Observation(s.observation(seat)))
        assert s.is_legal(action), s.action_to_text(action) if isinstance(action, int) else action
        s.apply(action)
    return s


@pytest.mark.parametrize("game", ["dice", "alcazaba"])
def test_random_and_greedy_play_a_whole_game(game):
    s = play(game, ["random", "greedy"], seed=3)
    assert s.is_terminal() and len(s.score_breakdown()) == 3


@pytest.mark.parametrize("game", ["dice", "alcazaba"])
def test_expectimax_and_mcts_play_a_whole_game(game):
    s = play(game, ["expectimax", "mcts"], seed=4, config={"iterations": 8})
    assert s.is_terminal()


@pytest.mark.parametrize("game", ["dice", "alcazaba"])
def test_records_store_the_game_and_replay(game):
    from alhambra_ai.formats.record import RecordError, make_record, replay
    s = new_game(3, 6, game=game)
    s.random_playout(6)
    rec = make_record(s, ["a", "b", "c"])          # replays and compares the fingerprint
    assert rec["game"] == game and replay(rec).scores() == s.scores()
    with pytest.raises(RecordError, match="game must be one of"):
        replay(dict(rec, game="chess"))
    base = make_record(new_game(3, 6), ["a", "b", "c"])
    assert "game" not in base


def test_replay_command_shows_a_dice_record(tmp_path):
    from click.testing import CliRunner

    from alhambra_ai.cli import main
    from alhambra_ai.formats.record import make_record, save_record
    s = new_game(2, 5, game="alcazaba")
    s.random_playout(5)
    path = tmp_path / "g.json"
    save_record(make_record(s, ["a", "b"]), path)
    out = CliRunner().invoke(main, ["replay", str(path), "--width", "100"])
    assert out.exit_code == 0, out.output
    assert "alcazaba: round 5" in out.output and "final scores: a" in out.output
    html = CliRunner().invoke(main, ["replay", str(path), "--html", str(tmp_path / "x.html")])
    assert html.exit_code == 0 and "renderDice" in (tmp_path / "x.html").read_text()
