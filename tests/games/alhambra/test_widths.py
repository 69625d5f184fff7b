"""Golden texts at 80 and 120 columns: the table (full and compact), a replay's spectator table and the
leaderboard fit the width, cities stand side by side only when they fit, long lines fold.

Regenerate the files after an intended change with ``ALHAMBRA_GOLDEN=write python -m pytest
tests/games/alhambra/test_widths.py`` and read the diff before committing it.
"""

import os
import random
import re

import pytest
from paths import ROOT, TESTS

from alhambra_ai import new_game
from alhambra_ai.arena.ratings import format_report
from alhambra_ai.games.alhambra.text import render_table
from alhambra_ai.terminal.replay import spectator_table
from alhambra_ai.terminal.text import visible_len

GOLDEN = TESTS / "golden"
NAMES = ["you", "expectimax", "greedy", "mcts"]


def mid_game(players=4, seed=12, moves=260):
    state, rng = new_game(players, seed=seed), random.Random(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_actions()))
    return state


def results():
    rng = random.Random(3)
    out = []
    for i in range(30):
        bots = rng.sample(["mcts", "expectimax", "greedy", "random", "a-long-bot-name-here"], 2)
        out.append({"game": f"g{i:03d}", "bots": bots, "ranks": rng.choice([[1, 2], [2, 1], [1, 1]]),
                    "scores": [rng.randrange(150), rng.randrange(150)],
                    "forfeits": [{"seat": 0, "reason": "times out"}] if i % 7 == 0 else []})
    return out


TEXTS = {
    "table": lambda w: render_table(mid_game(), 0, names=NAMES, width=w),
    "compact": lambda w: render_table(mid_game(), 0, names=NAMES, width=w, compact=True),
    "spectator": lambda w: spectator_table(mid_game(2, 5, 200), ["greedy", "random"], w),
    "leaderboard": lambda w: format_report(results(), ["mcts", "expectimax", "greedy", "random",
                                                       "a-long-bot-name-here"], w),
}


@pytest.mark.parametrize("width", [80, 120])
@pytest.mark.parametrize("name", sorted(TEXTS))
def test_golden_text_fits_the_width(name, width):
    text = TEXTS[name](width)
    assert max(visible_len(line) for line in text.splitlines()) <= width
    path = GOLDEN / f"{name}-{width}.txt"
    if os.environ.get("ALHAMBRA_GOLDEN") == "write":
        path.write_text(text + "\n")
    assert text + "\n" == path.read_text()


def test_cities_stack_at_80_and_stand_side_by_side_at_120():
    def bands(text):  # lines holding more than one city title
        return sum(1 for line in text.splitlines() if line.count("building") > 1)

    assert bands(TEXTS["table"](80)) < bands(TEXTS["table"](120))


def test_the_compact_screen_fits_24_lines_early_in_the_game():
    text = render_table(mid_game(4, 12, 20), 0, names=NAMES, width=80, compact=True)
    assert len(text.splitlines()) <= 24, text


def test_narrower_than_80_is_drawn_at_80():
    assert render_table(mid_game(), 0, width=40) == render_table(mid_game(), 0, width=80)


@pytest.mark.parametrize("width", [80, 120])
def test_a_whole_play_session_fits_the_width(width):
    from click.testing import CliRunner

    from alhambra_ai.cli import main

    bot = str(ROOT / "bots" / "random.py")
    script = "".join(f"{x}\n" for x in ["moves", "help", "city 2", "log"] + ["1"] * 3000)
    result = CliRunner().invoke(main, ["play", "--bot", bot, "--seed", "6", "--width", str(width)],
                                input=script)
    assert result.exit_code == 0 and "Final scores:" in result.stdout
    # In a terminal the person's Enter ends each prompt line; piped input leaves the prompts in front.
    lines = [re.sub(r"^(\[[^\]]*\] > )+", "", line) for line in result.stdout.splitlines()]
    assert max(visible_len(line) for line in lines) <= width


def test_the_help_is_written_for_80_columns():
    # the play screen wraps longer lines, which would break the two columns of the command list
    from alhambra_ai.games.alhambra.session import help_text
    from alhambra_ai.games.dice.session import HELP as DICE_HELP
    from alhambra_ai.options import MODULES

    every = help_text(dict.fromkeys(MODULES, True), 2)
    assert max(len(line) for line in (every + "\n" + DICE_HELP).splitlines()) <= 78


def test_the_help_fits_a_24_line_screen_and_names_only_the_game_in_play():
    """Issue 44: with every module and Dirk it still fits above the prompt; a module's commands appear only
    when it is in play."""
    import itertools

    from alhambra_ai.games.alhambra.session import COMMANDS, help_text
    from alhambra_ai.options import MODULES

    for k in (0, 1, len(MODULES)):
        for chosen in itertools.combinations(MODULES, k):
            for players in (2, 4):
                text = help_text(dict.fromkeys(chosen, True), players)
                assert len(text.splitlines()) <= 23
                for module, example, _ in COMMANDS:
                    shown = (not module or module in chosen or (module == "both" and players == 2)
                             or (module == "window" and bool({"vizier", "thief"} & set(chosen))))
                    if players == 2 and example in ("reserve 17", "dirk 17"):   # (one line of both)
                        shown = False
                    assert (f"\n  {example.ljust(22)}" in text) == shown, (chosen, players, example)


def test_every_commands_help_fits_80_columns():
    from click.testing import CliRunner

    from alhambra_ai.cli import main

    runner = CliRunner()
    names = [None, *main.commands]
    for name in names:
        result = runner.invoke(main, ([name] if name else []) + ["--help"], terminal_width=80)
        assert result.exit_code == 0, name
        wide = [line for line in result.output.splitlines() if len(line) > 80]
        assert not wide, (name, wide)
