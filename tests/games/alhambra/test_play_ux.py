"""The rough edges of play and replay found by a new user (issue 17), each pinned."""

import io
import random

from click.testing import CliRunner
from paths import ROOT

from alhambra_ai import new_game
from alhambra_ai.cli import main
from alhambra_ai.formats.record import make_record, save_record
from alhambra_ai.games.alhambra.session import AlhambraTerminalGame as TerminalGame
from alhambra_ai.games.alhambra.text import render_table
from alhambra_ai.games.alhambra.words import resolve
from alhambra_ai.terminal.replay import replay
from alhambra_ai.terminal.session import InputError
from alhambra_ai.terminal.text import count, tile_label

RANDOM_BOT = str(ROOT / "bots" / "random.py")


def play(args, lines):
    return CliRunner().invoke(main, ["play", *args], input="".join(f"{x}\n" for x in lines))


def random_game(players, seed):
    state, rng = new_game(players, seed=seed), random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_start_errors_go_to_stderr():
    result = play(["--players", "9"], [])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip() == "Error: --players must be 2 to 6, not 9"


def test_record_path_is_checked_before_the_game(tmp_path):
    for bad, why in ((tmp_path / "no" / "g.json", "does not exist"), (tmp_path, "is a directory")):
        result = play(["--bot", RANDOM_BOT, "--seed", "1", "--record", str(bad)], ["1"] * 50)
        assert result.exit_code == 2 and why in result.stderr, result.output
        assert "Alhambra, 2 players" not in result.stdout          # no game was started


def test_each_bot_fills_the_next_seat():
    result = play(["--bot", RANDOM_BOT, "--bot", str(ROOT / "bots" / "greedy.py"), "--seed", "2"], ["quit"])
    assert "Alhambra, 3 players" in result.stdout and "seat 2: random, seat 3: greedy" in result.stdout
    result = play(["--players", "2", "--bot", RANDOM_BOT, "--bot", RANDOM_BOT], [])
    assert result.exit_code == 2
    assert "2 --bot options for 1 opponent seat (--players 2)" in result.stderr


def test_buy_accepts_the_tile_as_the_market_shows_it():
    rng = random.Random(3)
    state = new_game(3, seed=3)
    while True:
        buys = [a for a in state.legal_actions() if state.action_to_text(a).startswith("buy ")]
        if buys:
            break
        state.apply(rng.choice(state.legal_actions()))
    words = state.action_to_text(buys[0]).split()            # buy SLOT CARDS
    tile = state.market()[int(words[1]) - 1]
    shown = tile_label(tile)                                  # as the market shows it: gar33, pav 5
    assert shown in render_table(state, state.current_player)
    assert resolve(state, f"buy {shown} {' '.join(words[2:])}") == buys[0]
    absent = next(t for t in range(1, 55) if t not in state.market())
    try:
        resolve(state, f"buy gar{absent} y1")
    except InputError as e:
        assert f"Tile {absent} is not in the market" in str(e)


def test_one_card_is_singular():
    assert count(1, "card") == "1 card" and count(0, "card") == "0 cards"


def test_scoring_is_shown_before_the_dirk_tiles_drawn_after_it():
    said = []
    state = new_game(2, seed=3)
    game = TerminalGame(state, human=0, bots={}, hint_path=None, move_time=0.1, write=said.append)
    rng = random.Random(1)
    while not state.score_breakdown():
        state.apply(rng.choice(state.legal_actions()))
        game.news()
    text = "\n".join(said)
    first_scoring = text.index("Scoring round 1")
    assert "Dirk takes" in text[first_scoring:]
    before = text[:first_scoring]
    assert before.count("Dirk takes") == 1   # only the set-up's tiles come before the first scoring


def test_review_prompt_after_the_end(tmp_path):
    path = tmp_path / "g.json"
    lines = [str(random.Random(i).choice([1, 1, 2, 3])) for i in range(3000)]
    result = play(["--bot", RANDOM_BOT, "--seed", "4", "--record", str(path)], lines)
    out = result.stdout
    assert result.exit_code == 0 and "Final scores:" in out
    assert path.is_file() and "Review the game: scores, city N, table, log [N|all], quit." in out
    review = out[out.index("Review the game"):]
    assert "[game over] > " in review and "The game is over: type scores" in review
    result = play(["--bot", RANDOM_BOT, "--seed", "4"], ["1"] * 3000 + ["scores", "city 2", "log 3", "quit"])
    review = result.stdout[result.stdout.index("Review the game"):]
    # scores: every seat's breakdown by type, walls and total (issue 44), Dirk's too
    assert "After 3 rounds" in review and "pav ser arc cha gar tow  wall  total" in review
    assert "\nyou (seat 1) " in review and "\nDirk " in review
    assert "seat 2 (random):" in review and "walls: #" in review


def test_replay_of_a_bot_game_names_the_bots_and_shows_dirk(tmp_path):
    state = random_game(2, 5)
    out = io.StringIO()
    replay(make_record(state, ["greedy", "random"]), out)
    text = out.getvalue()
    assert "you" not in text.replace("your", "")
    assert "seat 1 (greedy) (" in text and "seat 2 (random) (" in text      # every hand, by name
    assert text.strip().endswith(f"final scores: greedy {state.scores()[0]}, random {state.scores()[1]}, "
                                 f"Dirk {state.dirk_score}")



def test_replay_html_writes_the_viewer(tmp_path):
    path = tmp_path / "g.json"
    save_record(make_record(random_game(3, 2), ["a", "b", "c"]), path)
    result = CliRunner().invoke(main, ["replay", str(path), "--html", str(tmp_path / "g.html")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "g.html").read_text().startswith("<!DOCTYPE html>")
    result = CliRunner().invoke(main, ["replay", str(path), "--html", str(tmp_path / "no" / "g.html")])
    assert result.exit_code == 2 and "cannot write" in result.stderr


def test_viewer_names_the_forfeits(tmp_path):
    from alhambra_ai.html.report import viewer_html

    record = make_record(random_game(2, 3), ["good", "bad"], forfeits=[{"seat": 1, "bot": "bad",
                                                                       "reason": "times out", "move": 7}])
    assert "Seat 2 (bad) forfeited at move 8: times out" in viewer_html(record)


def test_the_compact_screen_in_play():
    result = play(["--bot", RANDOM_BOT, "--seed", "5", "--width", "80", "--compact"], ["1"] * 40 + ["quit"])
    out = result.stdout
    assert "The other city: type city 2 to see it." in out and "walls: #" not in out
