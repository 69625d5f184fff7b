"""The package's folders are layers: a module imports only from its own folder or from a lower layer.

The layers, lowest first (docs/design.md "Layers" draws them):

    core      the compiled core and the package's base: _core, errors, options, registry, bench, the package's
              own face (``alhambra_ai``)
    formats   position JSON and game records
    bot       the bot API (``botapi`` is its published name), the built-in bots' files, the search toolkit
    analysis  a game reviewed move by move with the strongest bot's search (``alhambra-ai analyse``)
    sandbox   each bot in its own isolated worker process, and the referee's side of it
    arena     referee, schedule, runner and backends, store, ratings, ladder, strength, sprt, stats
    terminal, html, env
              the faces of a game: the terminal (play, spectate, replay), the HTML pages, the RL
              environments; none imports another
    learn     self-play datasets, training, the learned values' files
    games     each game family's parts: they plug into every framework folder below (its search, its
              terminal session, its viewer frames, its spaces) and are found through the registry's hooks
    cli       the commands

The graph is test_import_cycles.py's (every import, at module level or in a function; not ``TYPE_CHECKING``
blocks, not the registry's dynamic hooks). A new edge that points upward is a design decision: move the code
down, or add it to KNOWN with its reason.
"""

from __future__ import annotations

from test_import_cycles import GRAPH, PACKAGE, ROOT

LAYERS = [
    {"core"},
    {"formats"},
    {"bot"},
    {"analysis"},
    {"sandbox"},
    {"arena"},
    {"terminal", "html", "env"},
    {"learn"},
    {"games"},
    {"cli"},
]
CORE = {"alhambra_ai", "alhambra_ai._core", "alhambra_ai.errors", "alhambra_ai.options",
        "alhambra_ai.registry", "alhambra_ai.bench"}
FACADES = {"alhambra_ai.botapi": "bot", "alhambra_ai.search": "bot"}  # top-level names of a folder's modules

# Upward edges that are the design, each with its reason. The list may only shrink.
KNOWN = {
    ("alhambra_ai", "alhambra_ai.bot.api"): "the package's face re-exports Observation",
    ("alhambra_ai", "alhambra_ai.formats.position"): "the package's face re-exports state_from/to_json",
}


def folder(module: str) -> str:
    """The layer folder of a module of the package: ``alhambra_ai.arena.runner`` -> ``arena``."""
    if module in CORE:
        return "core"
    if module in FACADES:
        return FACADES[module]
    name = module.split(".")[1]
    assert (ROOT / PACKAGE / name).is_dir(), f"{module}: outside the layers (CORE, FACADES)"
    return name


def layer(name: str) -> int:
    return next(i for i, names in enumerate(LAYERS) if name in names)


def upward_edges(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """The imports that go to another folder of the same or a higher layer."""
    found = []
    for module, targets in sorted(graph.items()):
        mine = folder(module)
        for target in sorted(targets):
            theirs = folder(target)
            if theirs != mine and layer(theirs) >= layer(mine):
                found.append((module, target))
    return found


def test_every_folder_has_a_layer():
    folders = {folder(m) for m in GRAPH}
    assert folders == set().union(*LAYERS), folders ^ set().union(*LAYERS)


def test_imports_go_down_the_layers():
    found = [f"{a} -> {b}" for a, b in upward_edges(GRAPH) if (a, b) not in KNOWN]
    assert found == [], "imports that point up the layers (docs/design.md 'Layers'): " + "; ".join(found)


def test_the_known_exceptions_are_still_needed():
    """An exception that no longer occurs leaves the list (it may only shrink)."""
    assert set(KNOWN) <= set(upward_edges(GRAPH))


def test_the_check_sees_an_upward_edge():
    graph = {"alhambra_ai.formats.record": {"alhambra_ai.arena.store"}, "alhambra_ai.arena.store": set(),
             "alhambra_ai.terminal.play": {"alhambra_ai.html.report"}, "alhambra_ai.html.report": set(),
             "alhambra_ai.cli.play": {"alhambra_ai.terminal.play", "alhambra_ai.errors"}}
    assert upward_edges(graph) == [("alhambra_ai.formats.record", "alhambra_ai.arena.store"),
                                   ("alhambra_ai.terminal.play", "alhambra_ai.html.report")]
