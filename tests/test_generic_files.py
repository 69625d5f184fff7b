"""No generic file names a game, a module or a game-specific piece.

Generic: every file of the package outside ``games/`` (Python, and the pages' templates, scripts and style
sheet) and of the compiled core outside ``cython_core/<family>/``. What is read is code: identifiers (split at
underscores and capitals, ``place_dirk`` and ``drawVizier`` count) and string constants; comments and
docstrings may name the games (as examples, or to say what a rule is for). The words: the games (dice,
alcazaba), the modules by their names (``change`` only as a whole string, "change" is English; not "walls":
a tile's printed walls are the base game's) and their pieces, and Dirk. Not the tile kinds "camp" and
"bazaar" (the core's tile table has them in every game); "residents" only in the plural (resident.py's pages
are the page cache's).

KNOWN lists today's exceptions, a file with its words and one line of why; the list may only shrink (an entry
that is no longer found must go).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from paths import ROOT

from alhambra_ai.options import MODULES

WORDS = re.compile(r"(?<![a-z])(dice|alcazaba|vizier|camps|bazaars|falcons?|thie(?:f|ves)|residents|dirk"
                   r"|wall[ _-]?cards?|wall_(?:pieces|piles))(?![a-z])", re.IGNORECASE)
NAMES = (set(MODULES) - {"walls"}) | {"dice", "alcazaba"}  # a string that is exactly one of these names it
FAMILIES = ("alhambra", "dice")  # cython_core/<family>/ and alhambra_ai/games/ are theirs

KNOWN: dict[str, tuple[set[str], str]] = {
    "alhambra_ai/_core.pyi": ({"alcazaba", "bazaars", "dice", "dirk", "falcon", "falcons", "residents",
                               "thieves", "vizier", "wall_card", "wall_cards"},
                              "the compiled core's stub types every game's and module's names"),
    "alhambra_ai/__init__.py": ({"dice"}, "the package's face exports the core's DiceState class"),
    "alhambra_ai/arena/referee.py": ({"dirk"}, "a result stores the two-player dummy's score (dirk_score)"),
    "alhambra_ai/bot/api.py": ({"dirk"}, "the action codec names the base game's place_dirk kind"),
    "alhambra_ai/cli/bench.py": ({"dice"}, "help text"),
    "alhambra_ai/cli/play.py": ({"thief", "vizier"}, "help text: the modules with a window"),
    "alhambra_ai/cli/selfplay.py": ({"alcazaba", "dice"}, "help text: the games with learned values"),
    "alhambra_ai/cli/tournament.py": ({"alcazaba", "dice"}, "help text examples (--game dice)"),
    "alhambra_ai/env/openspiel.py": ({"dirk"}, "the dirk option (two-player dummy) is left out of a name"),
    "alhambra_ai/env/parts.py": ({"dirk"}, "the dummy's city and score in the observation vector"),
    "alhambra_ai/env/spaces.py": ({"dirk"}, "the dummy's city and score in the observation vector"),
    "alhambra_ai/html/report.py": ({"dirk"}, "the report's result rows show the dummy's score"),
    "alhambra_ai/learn/selfplay.py": ({"alcazaba", "dice", "dirk"},
                                      "the learned values' features are the dice family's; a dataset counts "
                                      "the dummy's games"),
    "alhambra_ai/registry.py": ({"dice"}, "FAMILIES: the one list of the game families"),
    "alhambra_ai/terminal/replay.py": ({"dirk"}, "the final line prints the dummy's score"),
    "alhambra_ai/terminal/session.py": ({"dirk"}, "the table shows the dummy's city and score"),
    "alhambra_ai/terminal/spectate.py": ({"dice"}, "compares game == \"dice\" (a hook would remove it)"),
    "alhambra_ai/terminal/text.py": ({"dirk"}, "the score table's row of the dummy"),
    "alhambra_ai/html/templates/report.html": ({"dirk"}, "the results table's column of the dummy's score"),
    "alhambra_ai/html/templates/style.css": ({"thief", "thieves", "vizier"},
                                             "the modules' piece colours are in the shared style sheet"),
    "alhambra_ai/html/templates/viewer.js": ({"dirk"}, "draws the dummy's city and score"),
    "cython_core/_core.pyx": ({"camps", "dice"}, "includes the families' and the shared .pxi files"),
    "cython_core/registry.pxi": ({"dice"}, "the core's table of games names its families"),
    "cython_core/shared/camps.pxi": ({"camps"}, "Camps' tiles, shared by a base game module and Alcazaba"),
    "cython_core/shared/cities.pxi": ({"dirk"}, "the dummy's city among the seats' cities"),
    "cython_core/shared/city.pxi": ({"camps"}, "the camp rule of a city (the Camps module and Alcazaba)"),
    "cython_core/shared/city_actions.pxi": ({"dirk"}, "placing in the dummy's city"),
    "cython_core/shared/city_py.pxi": ({"alcazaba", "bazaars", "camps"},
                                       "a city's Python face checks the tiles each game allows"),
    "cython_core/shared/tiles.pxi": ({"alcazaba", "bazaars", "camps", "falcon", "falcons", "wall card",
                                      "wall cards", "wall_card", "wall_cards"},
                                     "the shared tile table loads every game's and module's tiles"),
}

PY_TEXT = re.compile(r'("""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\')'
                     r'|("(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\')|#[^\n]*')
JS_TEXT = re.compile(r"""("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`)|//[^\n]*|/\*.*?\*/""",
                     re.DOTALL)


def generic_files(root: Path = ROOT) -> list[Path]:
    package = [p for p in sorted((root / "alhambra_ai").rglob("*")) if p.is_file()
               and p.relative_to(root / "alhambra_ai").parts[0] != "games"
               and p.suffix in (".py", ".pyi", ".js", ".html", ".css") and "__pycache__" not in p.parts]
    core = [p for p in sorted((root / "cython_core").rglob("*")) if p.suffix in (".pyx", ".pxi", ".pxd")
            and p.relative_to(root / "cython_core").parts[0] not in FAMILIES]
    return package + core


def python_texts(source: str) -> list[tuple[str, bool]]:
    """A Python file's identifiers and string constants (not its docstrings), each with whether it is a
    string."""
    tree = ast.parse(source)
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
            and isinstance(node.body[0].value.value, str)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            found.append((node.value, True))
        elif isinstance(node, ast.Name):
            found.append((node.id, False))
        elif isinstance(node, ast.Attribute):
            found.append((node.attr, False))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.append((node.name, False))
        elif isinstance(node, ast.arg):
            found.append((node.arg, False))
        elif isinstance(node, ast.keyword) and node.arg:
            found.append((node.arg, False))
        elif isinstance(node, ast.alias):
            found.append((node.asname or node.name, False))
    return found


def code_text(path: Path) -> str:
    """The code of a file that Python's parser cannot read (Cython, scripts, pages): comments and (in Cython)
    docstrings left out, strings kept."""
    text = path.read_text(encoding="utf-8")
    if path.suffix in (".pyx", ".pxi", ".pxd"):
        return PY_TEXT.sub(lambda m: m.group(2) or "\n" * m.group(0).count("\n"), text)
    if path.suffix == ".js":
        return JS_TEXT.sub(lambda m: m.group(1) or "\n" * m.group(0).count("\n"), text)
    if path.suffix == ".css":
        return re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)
    return re.sub(r"<!--.*?-->|\{#.*?#\}", "", text, flags=re.DOTALL)


def words_in(text: str, is_string: bool = False) -> set[str]:
    found = {m.group(0).lower() for m in WORDS.finditer(re.sub(r"([a-z])([A-Z])", r"\1 \2", text))}
    return found | ({text} if is_string and text in NAMES else set())


def named_words(path: Path) -> set[str]:
    if path.suffix in (".py", ".pyi"):
        return set().union(*(words_in(text, s) for text, s in python_texts(path.read_text(encoding="utf-8"))))
    return words_in(code_text(path))


FOUND = {str(p.relative_to(ROOT)): words for p in generic_files() if (words := named_words(p))}


def test_no_generic_file_names_a_game_or_module():
    new = {f: sorted(words - KNOWN.get(f, (set(), ""))[0]) for f, words in FOUND.items()}
    assert {f: w for f, w in new.items() if w} == {}


def test_the_known_exceptions_may_only_shrink():
    gone = {f: sorted(words - FOUND.get(f, set())) for f, (words, _) in KNOWN.items()}
    assert {f: w for f, w in gone.items() if w} == {}, "no longer found: remove them from KNOWN"


def test_the_check_sees_a_name():
    assert words_in("drawVizier") == {"vizier"} and words_in("place_dirk") == {"dirk"}
    assert words_in("change", is_string=True) == {"change"}
    assert words_in("exchange rate", is_string=True) == set()
    assert words_in("indices, walls, camp, bazaar, resident pages") == set()
    assert sorted(python_texts('"""dice in a docstring"""\nx = "dice"\n')) == [("dice", True), ("x", False)]
    assert "dice" not in code_text_of("# the dice game\ncdef int x = 1\n", ".pxi")
    assert "dirk" in code_text_of('// Dirk\nconst dirk = 1;\n', ".js")


def code_text_of(text: str, suffix: str) -> str:
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / f"f{suffix}"
        path.write_text(text)
        return code_text(path)
