"""The layering of the compiled core (cython_core/): shared/ serves both families, alhambra/ (the base
game) and dice/ (the dice games) know only themselves and shared/, and registry.pxi alone dispatches by
game."""

import functools
import io
import re
import tokenize
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "cython_core"

pytestmark = pytest.mark.skipif(not CORE.is_dir(), reason="needs the cython_core/ sources (a checkout)")

DEFINITION = re.compile(
    r"^ctypedef\s+[\w\s*]+\(\*(\w+)\)"            # a function pointer type: ctypedef int (*name)(...)
    r"|^(?:cdef|cpdef|ctypedef)\s+(?:inline\s+)?(?:struct\s+|enum\s+|class\s+)?(?:[\w*\[\]]+\s+)*?\**(\w+)\s*[(:=\[]"
    r"|^(?:def|class)\s+(\w+)"
    r"|^([A-Za-z_]\w*)\s*=",
    re.M,
)
ENUM_BLOCK = re.compile(r"^cdef enum[^\n]*:\n((?:[ \t]+[^\n]*\n|[ \t]*\n)+)", re.M)
ENUM_MEMBER = re.compile(r"^\s+([A-Z]\w*)\s*(?:=|$|#)", re.M)


def sources(family: str) -> list[Path]:
    return sorted((CORE / family).rglob("*.pxi"))


@functools.cache
def names_defined(family: str) -> frozenset[str]:
    names = set()
    for path in sources(family):
        text = path.read_text(encoding="utf-8")
        for m in DEFINITION.finditer(text):
            names.add(next(g for g in m.groups() if g))
        for block in ENUM_BLOCK.finditer(text):
            names.update(ENUM_MEMBER.findall(block.group(1)))
    return frozenset(names - {"int", "enum", "struct", "class", "inline"})


@functools.cache
def code_words(path: Path) -> frozenset[str]:
    """The names a file's code uses (comments and string literals are other tokens)."""
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    return frozenset(tok.string for tok in tokens if tok.type == tokenize.NAME)


def borrowed(user: str, owner: str) -> list[str]:
    """Where `user`'s files use a name that only `owner` defines."""
    theirs = names_defined(owner) - names_defined("shared") - names_defined(user)
    return sorted(f"{path.relative_to(CORE)}: {name}" for path in sources(user)
                  for name in code_words(path) & theirs)


@pytest.mark.compute
@pytest.mark.parametrize("user", ["shared", "dice"])
def test_uses_nothing_of_the_base_game(user):
    assert borrowed(user, "alhambra") == []


@pytest.mark.compute
@pytest.mark.parametrize("user", ["shared", "alhambra"])
def test_uses_nothing_of_the_dice_games(user):
    assert borrowed(user, "dice") == []


@pytest.mark.compute
def test_base_game_names_no_dice_game():
    said = [f"{path.relative_to(CORE)}:{n}" for path in sources("alhambra")
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if re.search(r"dice|alcazaba", line, re.I)]
    assert not said


@pytest.mark.compute
def test_registry_is_included_last():
    includes = re.findall(r'^include "([^"]+)"', (CORE / "_core.pyx").read_text(encoding="utf-8"), re.M)
    assert includes[-1] == "registry.pxi"
    families = [name.split("/")[0] for name in includes[:-1]]
    assert families == sorted(families, key=["shared", "alhambra", "dice"].index), families
