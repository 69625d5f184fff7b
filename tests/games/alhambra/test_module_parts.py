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
ASSETS = PACKAGE / "games" / "alhambra" / "assets"  # the modules' viewer scripts (their Module.script)
# The files every module passes through: the base game's generic files, the shared text and viewer helpers,
# the env. They loop over the modules (games/alhambra/modules) and hold no module's name or vocabulary.
GENERIC = [PACKAGE / "games" / "alhambra" / f"{name}.py" for name in ("session", "words", "text", "spaces",
                                                                        "viewer", "spectate")]
GENERIC += [PACKAGE / "terminal" / name for name in ("text.py", "session.py", "spectate.py", "screen.py")]
GENERIC += [PACKAGE / "html" / "viewer.py"]
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
# The viewer's script every page runs; each module's drawing is its own script (Module.script) registering
# with viewer.js's MODULE_VIEWS.
VIEWER_JS = PACKAGE / "html" / "templates" / "viewer.js"
# The modules' frame fields and the record's tables they draw from: viewer.js reads none of them. Not
# window_order: the interrupt window between turns is every window module's (Module.window), as the
# terminal's prompt; a tile's printed walls (DATA.tiles[t].walls) are the base game's.
MODULE_FIELDS = ({f for m in MODULES for f in m.public_fields} | {k for m in MODULES for k in m.tables}) - {
    "window_order"}
JS_TOKENS = re.compile(r"""("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`)|//[^\n]*|/\*.*?\*/""",
                       re.DOTALL)


def js_module_words(code: str) -> list[str]:
    """The module names and words in a script's code (its comments left out; identifiers split at their
    capitals, ``drawVizier`` reads "draw Vizier"), and the modules' fields it reads (``m.walls``,
    ``m["lifted"]``; not a tile's ``].walls``)."""
    code = JS_TOKENS.sub(lambda match: match.group(1) or "", code)
    words = [match.group(0) for match in MODULE_WORDS.finditer(re.sub(r"([a-z])([A-Z])", r"\1 \2", code))]
    reads = [a or b for a, b in re.findall(r"""(?<!\])\.(\w+)|\[["'](\w+)["']\]""", code)]  # .name, ["name"]
    return words + [name for name in reads if name in MODULE_FIELDS]


def test_the_generic_files_name_no_module():
    """A new module is its own file and one line in the registry: no generic file compares a module's name
    or spells its words (comments and docstrings may)."""
    found = [f"{path.relative_to(PACKAGE)}:{line}: {text!r}" for path in GENERIC
             for line, text in string_constants(path) if MODULE_WORDS.search(text) and text not in ALLOWED]
    assert found == []


def test_the_viewer_script_names_no_module():
    """The page's own script draws the tiles, the cities, the market and the hands; what a module shows is
    its script's (games/alhambra/assets/modules/), and viewer.js runs the views of the modules in play."""
    assert js_module_words(VIEWER_JS.read_text()) == []


def test_the_viewer_check_sees_a_module_name():
    """The check above finds what viewer.js held before the modules drew themselves."""
    for code in ('if (piece === "vizier") drawVizier(svg, true);', "const pieces = m.walls.pieces[seat];",
                 "if (m.lifted) out.push(x);", "drawDisc(svg, cx, cy, seat, m.discs[seat]);",
                 "for (const c of m.thieves_by_seat[seat]) thiefCard(c, row);", 'const x = m["supply"];',
                 "drawWallCard(svg, 3, 3, 5, 16, {});", "if (m.bazaars_waiting.length) bazaarRow(x);",
                 "// a comment\nfacts.push(`coins in the bag: ${bag}`);"):
        assert js_module_words(code), code
    for code in ("drawWalls(g, px, py, CELL, walls, added, 5);", "wallBits(DATA.tiles[t].walls)",
                 "// vizier, falcons\nconst CELL = 46;", "if (m.window_order) x();",
                 'const NS = "http://www.w3.org/2000/svg";'):
        assert not js_module_words(code), code


def test_each_module_draws_with_its_own_script():
    """A module's script is in the package (and the wheel's ``assets/modules/*``), registers one view
    under its name; every script there is a module's."""
    scripts = {m.script for m in MODULES if m.script}
    assert {f"modules/{p.name}" for p in (ASSETS / "modules").glob("*")} == scripts
    for m in MODULES:
        if m.script:
            assert f'moduleView({{\n  name: "{m.name}",' in (ASSETS / m.script).read_text()
    pyproject = (PACKAGE.parent / "pyproject.toml").read_text()
    assert '"alhambra_ai.games.alhambra" = ["assets/modules/*"]' in pyproject


def test_the_page_inlines_the_scripts_of_the_modules_in_play():
    from alhambra_ai.formats.record import make_record
    from alhambra_ai.html.report import viewer_html

    for options in ({}, {"walls": True, "residents": True}):
        html = viewer_html(make_record(new_game(2, seed=3, options=options), ["a", "b"]))
        for m in MODULES:
            drawn = f'moduleView({{\n  name: "{m.name}",' in html
            assert drawn == bool(m.script and options.get(m.name)), m.name
        assert html.index("const MODULE_VIEWS = []") < html.index("start(renderBase)")


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
