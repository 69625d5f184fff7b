"""No import cycles in the package: the graph of who imports whom among the modules of ``alhambra_ai/``.

The graph is read from the source with the standard library (``ast``), not by importing anything. Every
``import`` and ``from ... import`` counts, at module level and inside functions alike (an import moved into a
function is still a dependency; only ``if TYPE_CHECKING:`` blocks, which never run, are left out), with
relative imports resolved against the importing module's package. ``from package import name`` is an edge
to the submodule ``package.name`` when there is one, else to the package; importing ``a.b.c`` is an edge to
``a.b.c`` alone (that Python runs the parents' ``__init__`` first is how packages work, not a dependency).
Dynamic imports (``importlib.import_module``, the registry's hooks) are not edges.

>>> resolve("alhambra_ai.arena.runner", 1, "store", ["ResultStore"], {"alhambra_ai.arena.store"})
['alhambra_ai.arena.store']
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "alhambra_ai"

# the arena (issue 42's items 2 and 3): its modules must take part in no cycle
ARENA = ("alhambra_ai.arena", "alhambra_ai.sandbox", "alhambra_ai.cli.tournament", "alhambra_ai.cli.strength",
         "alhambra_ai.cli.sprt", "alhambra_ai.registry", "alhambra_ai.errors")


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    found = {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def resolve(importer: str, level: int, module: str | None, names: list[str], known: set[str],
            is_package: bool = False) -> list[str]:
    """The modules of the package that ``from {'.' * level}{module} import {names}`` in ``importer`` names
    (``level`` 0: an absolute import)."""
    if level:
        package = importer.split(".") if is_package else importer.split(".")[:-1]
        base = ".".join(package[:len(package) - (level - 1)] + ([module] if module else []))
    else:
        base = module or ""
    targets = []
    for name in names:
        if f"{base}.{name}" in known:
            targets.append(f"{base}.{name}")
        elif base in known:
            targets.append(base)
    return sorted(set(targets))


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules that module ``name`` imports anywhere in its source."""
    tree = ast.parse(path.read_text(), str(path))
    skipped = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and _type_checking(node)
               for child in node.body for n in ast.walk(child)}
    is_package = path.name == "__init__.py"
    edges = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                longest = next((".".join(parts[:k]) for k in range(len(parts), 0, -1)
                                if ".".join(parts[:k]) in known), None)
                if longest:
                    edges.add(longest)
        elif isinstance(node, ast.ImportFrom):
            edges.update(resolve(name, node.level, node.module, [a.name for a in node.names], known,
                                 is_package))
    edges.discard(name)
    return edges


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    found = modules(root)
    known = set(found)
    return {name: imports_of(name, path, known) for name, path in found.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (a path that returns to its start) per strongly connected component with more than one
    module (Tarjan's algorithm, iterative), each starting at its smallest module name."""
    index, low, on_stack, stack, components = {}, {}, set(), [], []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(set(component))
    return [_a_cycle(graph, component) for component in components]


def _a_cycle(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """A shortest cycle through the component's smallest module (breadth-first within the component)."""
    start = min(component)
    previous = {start: None}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node] & component):
                if child == start:
                    path = [node]
                    while previous[path[-1]] is not None:
                        path.append(previous[path[-1]])
                    return [start, *reversed(path[:-1]), start] if len(path) > 1 else [start, node, start]
                if child not in previous:
                    previous[child] = node
                    following.append(child)
        frontier = following
    raise AssertionError(f"no cycle in {component}")  # a component of Tarjan's always has one


def in_arena(module: str) -> bool:
    return any(module == a or module.startswith(a + ".") for a in ARENA)


def describe(found: list[list[str]]) -> str:
    return "; ".join(" -> ".join(c) for c in found)


GRAPH = import_graph()
FOUND = cycles(GRAPH)


def test_the_graph_is_read_from_the_source(tmp_path):
    assert {"alhambra_ai.arena.runner", "alhambra_ai.arena.stats", "alhambra_ai.cli"} <= set(GRAPH)
    assert "alhambra_ai.arena.referee" in GRAPH["alhambra_ai.arena.runner"]  # from .referee import
    assert "alhambra_ai.registry" in GRAPH["alhambra_ai.arena.referee"]  # from alhambra_ai import ...
    package = tmp_path / PACKAGE
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("from . import a\n")
    (package / "a.py").write_text("import alhambra_ai.sub.b\n\ndef later():\n    from .sub import c\n")
    (package / "sub" / "__init__.py").write_text("from .b import thing\n")
    (package / "sub" / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                          "    from alhambra_ai import a\nthing = 1\n")
    (package / "sub" / "c.py").write_text("from .. import a\n")
    assert import_graph(tmp_path) == {
        "alhambra_ai": {"alhambra_ai.a"}, "alhambra_ai.a": {"alhambra_ai.sub.b", "alhambra_ai.sub.c"},
        "alhambra_ai.sub": {"alhambra_ai.sub.b"}, "alhambra_ai.sub.b": set(),
        "alhambra_ai.sub.c": {"alhambra_ai.a"}}
    assert cycles(import_graph(tmp_path)) == [["alhambra_ai.a", "alhambra_ai.sub.c", "alhambra_ai.a"]]


def test_cycles_are_found_and_reported_as_paths():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert cycles(graph) == [["a", "b", "c", "a"]]
    tree = {"p": {"p.x"}, "p.x": {"p.y"}, "p.y": set()}
    assert cycles(tree) == []


def test_no_module_of_the_arena_is_in_a_cycle():
    mine = [c for c in FOUND if any(in_arena(m) for m in c)]
    assert not mine, f"import cycles through the arena: {describe(mine)}"


def test_no_import_cycle_in_the_package():
    assert not FOUND, f"import cycles: {describe(FOUND)}"


LIBRARY = ("alhambra_ai.arena", "alhambra_ai.sandbox", "alhambra_ai.registry", "alhambra_ai.errors")


def test_the_arena_library_imports_no_click():
    """Its commands are in alhambra_ai.cli; the library raises BadInput and the CLI shows it."""
    users = []
    for name, path in modules().items():
        if any(name == m or name.startswith(m + ".") for m in LIBRARY):
            for node in ast.walk(ast.parse(path.read_text())):
                found = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
                if any(f == "click" or f.startswith("click.") for f in found):
                    users.append(f"{name}:{node.lineno}")
    assert not users, f"click imported by {', '.join(users)}"
