"""What one module of the base game declares on the Python side (rules.md §9): one :class:`Module` value.

A module's file (``modules/<name>.py``) builds its ``MODULE``; the package's ``__init__`` lists them in the
rulebook's order. The generic files of the base game loop over the modules in play and ask each for its part:

- the terminal session (``session.py``, ``words.py``): its commands with an example and one line of help, the
  action words a person types as the engine writes them, the phases it adds and what the prompt says in them,
  how its moves read as sentences;
- the table and the play screen (``text.py``): its lines on the table (public ones after the scores, the
  seat's own holdings after the hands), its state in few words on the screen, its column in the scoring
  tables;
- the numeric views (``spaces.py``, ``alhambra_ai.env``): the tiles it adds, its action blocks and how its
  codes index into them, its observation fields and how the observation's ``modules`` fill them;
- the HTML viewer (``viewer.py``): the observation fields a frame shows, what it adds to a frame and to the
  tile table, the legend's pieces and tile types, and the script that draws it (``templates/modules/``).

Every part is optional: a module without commands has none (the Camps are only tiles).

>>> Command("wall 5 17", "wall card 5 on your tile 17").line()
'  wall 5 17             wall card 5 on your tile 17'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from alhambra_ai._core import CURRENCY_LETTERS

if TYPE_CHECKING:        # the terminal and the viewer need no numpy: the numeric views' types only here
    from alhambra_ai.env.parts import Block, Field, View
    from alhambra_ai.env.spaces import ActionSpace, ObservationEncoder

__all__ = ["DONE", "NCARDS", "Command", "Module", "done_index"]

#: money cards in the numeric views: code currency * 9 + value - 1
NCARDS = len(CURRENCY_LETTERS) * 9

#: the ``done`` action (code kind 12): several modules' way to decline (the window, more falcons, a resident)
DONE: Block = ("done", 1, "done (decline the window, stop buying falcons, no resident)")


def done_index(space: ActionSpace, code: int) -> int | None:
    """The ``done`` block's index of a ``done`` code, None for another code (the modules that have it)."""
    return space.offset["done"] if code & 15 == 12 else None


# the hooks' shapes
#: (state, the action's words as the engine writes them, subject, verb conjugated for the subject) -> sentence
Describe = Callable[[Any, list[str], str, Callable[[str], str]], str]
#: (observation, names, the seat that is "you" or None) -> lines or items
Lines = Callable[[Mapping[str, Any], Sequence[str] | None, int | None], list[str]]
#: (seat that moved, the move's text, the observation's ``modules``) -> what the frame's ``modules`` add
FrameHook = Callable[[int, "Mapping[str, Any] | None", Mapping[str, Any]], dict[str, Any]]


def _no_lines(obs: Mapping[str, Any], names: Sequence[str] | None, you: int | None) -> list[str]:
    return []


def _no_blocks(space: ActionSpace) -> list[Block]:
    return []


def _no_index(space: ActionSpace, code: int) -> int | None:
    return None


def _no_fields(enc: ObservationEncoder) -> list[Field]:
    return []


def _no_encode(enc: ObservationEncoder, m: dict[str, Any], v: View, rel: list[int]) -> None:
    return None


def _no_tiles(m: Mapping[str, Any]) -> Iterable[int]:
    return ()


@dataclass(frozen=True)
class Command:
    """One line of the terminal's ``help``: an example as typed and what it does."""

    example: str
    help: str

    def line(self) -> str:
        """The line as ``help`` shows it."""
        return f"  {self.example:<22}{self.help}"


@dataclass(frozen=True)
class Module:
    """Everything the Python side knows of one module (the option ``name``, ``options.MODULES``)."""

    name: str

    # ---- the terminal session (session.py, words.py)
    #: the help lines of its commands, in the order shown
    commands: tuple[Command, ...] = ()
    #: the engine's action words the person types as they are (``thief y6``, ``done``)
    verbs: tuple[str, ...] = ()
    #: the phases it adds (the observation's ``phase``) and what the prompt says the person is to do
    phases: Mapping[str, str] = field(default_factory=dict)
    #: its word in the prompt of the window between turns (the ``interrupt`` phase), "" if it has none there
    window: str = ""
    #: one of its window moves (the state, the move's words) -> (worth asking, the offer it makes), None
    #: for another module's move: ``--windows useful`` asks for an offer worth it not let pass before
    window_offer: Callable[[Any, list[str]], tuple[bool, tuple] | None] | None = None
    #: its actions in words, by the action's first word
    describe: Mapping[str, Describe] = field(default_factory=dict)
    #: what an overpayment (the points over the cost) brings, when the module changes it
    overpaid: Callable[[int], str] | None = None

    # ---- the table and the play screen (text.py)
    #: its public lines on the table, after the scores
    table_lines: Lines = _no_lines
    #: the seat's own holdings and the others' counts, after the hands
    hand_lines: Lines = _no_lines
    #: its state in few words for the play screen, one item each
    screen_words: Lines = _no_lines
    #: its column in the scoring tables: (key in ``score_breakdown()``, header of at most 4 letters)
    score_column: tuple[str, str] | None = None

    # ---- the numeric views (spaces.py, alhambra_ai.env)
    #: the tile ids it adds to the action space and the observation
    tiles: range = range(0)
    #: its coins pay like cards: the payment table lists the exact payments with coins too
    pays_coins: bool = False
    #: its constant tables the action space shows as attributes (``space.figures``)
    attributes: Mapping[str, Any] = field(default_factory=dict)
    #: its action blocks (``(name, size, meaning)``); a block several modules share is named once
    action_blocks: Callable[[ActionSpace], list[Block]] = _no_blocks
    #: the index of one of its codes (``space.offset`` holds the blocks' starts); None for another code
    action_index: Callable[[ActionSpace, int], int | None] = _no_index
    #: its blocks whose index is ``start + k * cells + cell``
    cell_blocks: tuple[str, ...] = ()
    #: its observation fields (``(name, shape)``); a field several modules share is named once
    fields: Callable[[ObservationEncoder], list[Field]] = _no_fields
    #: fill its fields from the observation's ``modules`` (``rel``: absolute seat -> relative)
    encode: Callable[[ObservationEncoder, dict[str, Any], View, list[int]], None] = _no_encode

    # ---- the HTML viewer (viewer.py)
    #: the observation's ``modules`` fields a frame carries: public ones only (a frame is a spectator's)
    public_fields: tuple[str, ...] = ()
    #: the frame's own additions: ``follow(num_players)`` gives a hook called for every move with its seat,
    #: the move's event (docs/formats.md "Events"; None for the set-up) and the observation's "modules"
    follow: Callable[[int], FrameHook] | None = None
    #: tiles the frame's module fields show (the viewer's tile table must hold them)
    frame_tiles: Callable[[Mapping[str, Any]], Iterable[int]] = _no_tiles
    #: a tile table entry's additions (``info`` of ``viewer.tile_table``), in place
    tile_info: Callable[[int, dict[str, Any]], None] | None = None
    #: the record's tables the page draws from (``{"falcons": build}``; ``{}`` in a game without the module)
    tables: Mapping[str, Callable[[], dict[int, Any]]] = field(default_factory=dict)
    #: the legend's pieces: (key the page draws the icon by, words)
    pieces: tuple[tuple[str, str], ...] = ()
    #: the tile types it adds to the legend
    tile_kinds: tuple[str, ...] = ()
    #: its drawing on the page: a script under ``templates/`` (``"modules/walls.js"``) that registers its view
    #: (legend icons, what it shows beside the market, on the seats' headings, hands and cities, its facts)
    #: with ``viewer.js``'s ``moduleView``; the page inlines the scripts of the modules in play
    script: str = ""
