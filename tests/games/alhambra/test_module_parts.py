"""The base game's modules on the Python side (alhambra_ai/games/alhambra/modules/, issue 42): one file per
module declares its parts, and the generic files loop over the modules instead of naming them."""

import random
import re
from pathlib import Path

import pytest
from sources import string_constants

import alhambra_ai
from alhambra_ai import new_game
from alhambra_ai.games.alhambra.modules import MODULES, by_name, in_play
from alhambra_ai.options import MODULES as OPTION_NAMES

PACKAGE = Path(alhambra_ai.__file__).parent
# The files every module passes through: the base game's generic files, the shared text and viewer helpers,
# the env. They loop over the modules (games/alhambra/modules) and hold no module's name or vocabulary.
GENERIC = [PACKAGE / "games" / "alhambra" / f"{name}.py" for name in ("session", "words", "text", "spaces",
                                                                        "viewer", "spectate")]
GENERIC += [PACKAGE / name for name in ("text.py", "session.py", "viewer.py", "spectate.py", "screen.py")]
GENERIC += sorted((PACKAGE / "env").glob("*.py"))
# A module's name, or a word only a module gives meaning to (its pieces, its fields' stems). Not words of the
# base game: the tile kinds "camp" and "bazaar" are the core's tile table's (every game's city planes, colours
# and labels have them), and a tile's "walls" are printed on it (the Walls module's are its wall cards).
NAMES = [name for name in OPTION_NAMES if name != "walls"]
MODULE_WORDS = re.compile(r"(?<![a-z])(" + "|".join(NAMES) + r"|vizier|falcons?|thie(?:f|ves)|coins?"
                          r"|residents?|wall[ _-]cards?|wall_(?:pieces|piles)|fountain_walls|figures|disc)"
                          r"(?![a-z])",
                          re.IGNORECASE)
# The buy code's payment has coin bits in every game (docs/env.md): the payment table's meaning says so.
ALLOWED = {"slot * payments + payment (payment table: (card field, coins))"}




def test_the_generic_files_name_no_module():
    """A new module is its own file and one line in the registry: no generic file compares a module's name
    or spells its words (comments and docstrings may)."""
    found = [f"{path.relative_to(PACKAGE)}:{line}: {text!r}" for path in GENERIC
             for line, text in string_constants(path) if MODULE_WORDS.search(text) and text not in ALLOWED]
    assert found == []


def test_the_check_sees_a_module_name():
    """The check above is not blind: it finds the names and words the generic files held before."""
    for text in ("thief", "change", "bag_camps", "thief_counts", "vizier_awake", "wall cards: ", "coins: ",
                 "figures", "wall_piles", "residents"):
        assert MODULE_WORDS.search(text), text
    for text in ("camp", "bazaar", "wall", "walls: {w}", "take", "done"):
        assert not MODULE_WORDS.search(text), text


def test_one_file_per_module_in_the_rulebooks_order():
    assert [m.name for m in MODULES] == list(OPTION_NAMES)
    files = sorted(p.stem for p in (PACKAGE / "games" / "alhambra" / "modules").glob("*.py"))
    assert files == sorted([*OPTION_NAMES, "__init__", "parts"])
    for name in OPTION_NAMES:
        assert by_name(name).name == name
    assert [m.name for m in in_play({"walls": True, "camps": True, "dirk": True})] == ["camps", "walls"]


@pytest.mark.compute
@pytest.mark.parametrize("name", OPTION_NAMES)
def test_a_module_declares_what_its_games_use(name):
    """With the module alone: the engine's words of its moves are its verbs, its phases are the game's, its
    public fields are in the observation, the help shows its commands."""
    from alhambra_ai.games.alhambra.session import help_text

    module = by_name(name)
    base = {"take", "buy", "place", "build", "remove", "swap", "pass"}
    s = new_game(3, seed=2, options={name: True})
    rng = random.Random(2)
    words, phases = set(), set()
    while not s.is_terminal():
        phases.add(s.phase)
        words |= {s.action_to_text(a).split()[0] for a in s.legal_actions()}
        s.apply(rng.choice(s.legal_actions()))
    assert words - base <= set(module.verbs)
    assert set(module.phases) <= phases
    assert set(module.public_fields) <= set(s.observation(0)["modules"])
    for command in module.commands:
        assert command.line() in help_text({name: True}, 3)
