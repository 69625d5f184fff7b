"""The bot file format: how a bot is loaded, and the observation it receives.

A bot is one Python file defining a class ``Bot`` with an ``act`` method (``setup`` is optional)::

    class Bot:
        def setup(self, config: dict) -> None:   # seat, num_players, options, seed, move_time, time_bank
            self.seat = config["seat"]

        def act(self, obs) -> int | str:         # a code from obs.legal_actions, or its text ("pass")
            return obs.legal_actions[0]

The bot's name is the file stem (``bots/greedy.py`` -> ``greedy``).
A fresh instance is made per game and seat.
Bots must not print to stdout: in a tournament stdout carries the referee protocol, and printing forfeits.

>>> obs = Observation({"seat": 1, "hand": ["g3", "y5"], "legal_actions": [17, 33]})
>>> obs.seat, obs.hand, obs.legal_actions
(1, ['g3', 'y5'], [17, 33])
>>> obs.time_left is None          # only set by the tournament referee
True
"""

from __future__ import annotations

import copy
import importlib.util
import itertools
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from alhambra_ai.registry import game_of

if TYPE_CHECKING:
    from alhambra_ai._core import State

__all__ = ["Action", "BotLoadError", "Observation", "SearchBot", "Tile", "bot_file_problem", "bot_name",
           "decode_action", "load_bot", "tile_facts"]

_module_ids = itertools.count()


class BotLoadError(Exception):
    """A bot file cannot be used; the message names the file and the problem."""


def bot_name(path: str | Path) -> str:
    """The bot's name: its file stem.

    >>> bot_name("bots/greedy.py")
    'greedy'
    """
    return Path(path).stem


def bot_file_problem(path: str | Path) -> str | None:
    """Why ``path`` cannot be a bot file, seen before reading it (missing, not a .py file), else None.

    >>> bot_file_problem("README.md")
    'README.md: not a Python file (a bot is a .py file defining a class Bot)'
    """
    path = Path(path)
    if path.suffix != ".py" and path.is_file():
        return f"{path}: not a Python file (a bot is a .py file defining a class Bot)"
    if not path.is_file():
        return f"bot file not found: {path}"
    return None


def load_bot(path: str | Path) -> type:
    """Load the bot file at ``path`` as a fresh module and return its ``Bot`` class.

    Each call executes the file again in a new module, so two loads never share module state.
    Raises ``BotLoadError`` for a missing file, a file not named .py, a syntax error (with its line), an
    error while the file runs (e.g. a failed import), a missing ``Bot`` class, or a ``Bot`` without ``act``.
    """
    path = Path(path)
    problem = bot_file_problem(path)
    if problem:
        raise BotLoadError(problem)
    try:
        source = path.read_bytes()
        code = compile(source, str(path), "exec")
    except SyntaxError as e:
        raise BotLoadError(f"{path}: syntax error on line {e.lineno}: {e.msg}") from None
    except (OSError, ValueError) as e:  # unreadable file, null bytes
        raise BotLoadError(f"{path}: cannot read the file: {e}") from None

    # A unique module name: a fresh module per load, never one already in sys.modules (e.g. "random").
    module_name = f"_alhambra_bot_{next(_module_ids)}_{path.stem}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules[module_name] = module  # dataclasses and pickling look the module up by name
    try:
        exec(code, module.__dict__)
    except (MemoryError, KeyboardInterrupt):
        sys.modules.pop(module_name, None)
        raise
    except BaseException as e:  # the bot's own code failed: SystemExit and friends included
        sys.modules.pop(module_name, None)
        where = _bot_line(e, str(path))
        raise BotLoadError(f"{path}: error while loading{where}: {type(e).__name__}: {e}") from None

    bot = module.__dict__.get("Bot")
    if not isinstance(bot, type):
        raise BotLoadError(f"{path}: defines no class Bot")
    if not callable(getattr(bot, "act", None)):
        raise BotLoadError(f"{path}: class Bot has no act method")
    return bot


def _bot_line(exc: BaseException, filename: str) -> str:
    """' (line N)' for the deepest frame of the bot file in the traceback, else ''."""
    lines = [f.lineno for f in traceback.extract_tb(exc.__traceback__) if f.filename == filename]
    return f" (line {lines[-1]})" if lines else ""


class Observation:
    """What one seat knows, as given to ``Bot.act``: attribute access over the observation dict.

    The fields are those of ``State.observation(seat)`` (see docs/design.md), e.g. ``obs.hand``,
    ``obs.market``, ``obs.cities``, ``obs.legal_actions``. In a tournament the referee adds
    ``time_left`` (seconds for this move, bank included) and ``move_time`` (the per-move limit);
    elsewhere both are ``None``.
    """

    __slots__ = ("_d",)

    def __init__(self, d: dict[str, Any]) -> None:
        self._d = d

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # keeps copy/pickle from recursing into a missing _d
            raise AttributeError(name)
        try:
            return self._d[name]
        except KeyError:
            raise AttributeError(f"observation has no field {name!r}") from None

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(self._d))

    def __repr__(self) -> str:
        return f"Observation(seat={self._d.get('seat')}, phase={self._d.get('phase')!r})"

    @property
    def legal_actions(self) -> list[int]:
        """Action codes the seat may play now (empty when it is not to act)."""
        legal: list[int] = self._d.get("legal_actions", [])
        return legal

    @property
    def time_left(self) -> float | None:
        """Seconds left for this move, time bank included (tournament only)."""
        left: float | None = self._d.get("time_left")
        return left

    @property
    def move_time(self) -> float | None:
        """The per-move time limit in seconds (tournament only)."""
        limit: float | None = self._d.get("move_time")
        return limit

    @property
    def events(self) -> list[dict[str, Any]]:
        """The public events as data, oldest first, one per ``history`` line: ``{"seat": 1, "kind": "action",
        "payload": 1234}`` (the seat's action code), ``{"seat": None, "kind": "display", "payload": 3}``, ...
        (docs/formats.md "Events"). Read them; the texts of ``history`` are for people."""
        events: list[dict[str, Any]] = self._d.get("events", [])
        return events

    def known_hands(self) -> list[list[str]]:
        """Base game: every card known to be in each seat's hand (sorted card texts), counted from the
        events (deals, takes and thefts add, payments remove); the own seat's is ``hand``. In a game dealt
        by ``new_game`` this is every hand exactly (rules.md §8)."""
        from alhambra_ai._core import count_cards

        return count_cards(self._d)

    def to_dict(self) -> dict[str, Any]:
        """A deep copy of the observation dict (JSON-serialisable)."""
        return copy.deepcopy(self._d)

    def determinize(self, seed: int) -> State | Any:
        """A full ``State`` consistent with what this seat knows, hidden information sampled with ``seed``
        (a ``DiceState`` for an observation of the dice games: typed ``State | Any`` for that reason)."""
        from alhambra_ai._core import determinize  # here: a bot worker loads the engine only if its bot asks

        return determinize(self._d, seed)  # the same dict each call: the core caches per observation

    def action_text(self, action: int) -> str:
        """The text form of one of the seat's legal actions, e.g. ``'buy 2 g4 g3'`` or ``'take y3 b2'``.

        The text depends only on public facts, so any determinization gives the same one.
        """
        text: str = self.determinize(0).action_to_text(action)
        return text


# ---------------------------------------------------------------- actions and tiles as small typed values

# kind numbers of docs/design.md "Actions" (code & 15) and their names here
KINDS = {1: "take", 2: "buy", 3: "place", 4: "place_reserve", 5: "place_dirk", 6: "build", 7: "remove",
         8: "swap", 9: "pass"}
KIND_CODES = {name: k for k, name in KINDS.items()}
CURRENCY_LETTERS = "ygbo"  # currency index = market slot (0 florin y, 1 dirham g, 2 denar b, 3 ducat o)


@dataclass(frozen=True)
class Action:
    """An action code decoded (``decode_action``); ``code`` turns it back into the int a bot returns.

    kind: ``take | buy | place | place_reserve | place_dirk | build | remove | swap | pass`` (the codes
    10..15 that modules use decode as ``module``, keeping the code in ``raw``).
    tile: the tile placed, built, swapped in or removed (``place*``, ``build``, ``swap``, ``remove``).
    cell: ``(x, y)`` in the seat's city (``place``, ``build``, ``swap``, ``remove``); y grows to the north.
    slot: the market slot 0..3 of a ``buy`` (= the currency paid: y, g, b, o).
    cards: a ``buy``'s payment (``("g4", "g3")``, highest first, then coins of the Change module as ``"gc"``);
    a ``take``'s cards when decoded with the observation's display, else ``()``.
    positions: a ``take``'s display positions (0..3).

    >>> a = decode_action(1048626)
    >>> a.kind, a.slot, a.cards, a.code == 1048626
    ('buy', 3, ('o8',), True)
    >>> decode_action(Action("place", tile=17, cell=(1, -2)).code)
    Action(kind='place', tile=17, cell=(1, -2), slot=None, cards=(), positions=(), raw=None)
    """

    kind: str
    tile: int | None = None
    cell: tuple[int, int] | None = None
    slot: int | None = None
    cards: tuple[str, ...] = ()
    positions: tuple[int, ...] = ()
    raw: int | None = None

    @property
    def code(self) -> int:
        """The action code (``obs.legal_actions`` holds these)."""
        if self.kind == "module":
            return int(self.raw)  # type: ignore[arg-type]
        k = KIND_CODES[self.kind]
        if self.kind == "take":
            return k | (sum(1 << p for p in self.positions) << 4)
        if self.kind == "buy":
            pay = coins = 0
            for card in self.cards:
                if card[1:] == "c":
                    coins += 1
                else:
                    pay += 1 << (2 * (int(card[1:]) - 1))
            return k | (int(self.slot) << 4) | (pay << 6) | (coins << 24)  # type: ignore[arg-type]
        code = k | ((self.tile or 0) << 4)
        if self.cell is not None:
            code |= ((self.cell[0] + 128) << 12) | ((self.cell[1] + 128) << 20)
        return code


class SearchBot:
    """A bot that plays one of the package's searches for the observation's game (the registry's ``search``
    part: ``greedy``, ``expectimax`` or ``mcts``), its setup config being the search's settings. The built-in
    bots are this and a name; a bot of your own can start from it and change ``act``::

        class Bot(SearchBot):
            search = "mcts"

    >>> class Bot(SearchBot):
    ...     search = "greedy"
    >>> from alhambra_ai import new_game
    >>> s = new_game(2, seed=1)
    >>> bot = Bot()
    >>> bot.setup({"seat": s.current_player, "seed": 3})
    >>> bot.act(Observation(s.observation(s.current_player))) in s.legal_actions()
    True
    """

    search: ClassVar[str]
    config: dict[str, Any]
    seed: int

    def setup(self, config: dict[str, Any]) -> None:
        self.config = dict(config)
        self.seed = int(config.get("seed", 0))

    def act(self, obs: Any) -> int:
        if not hasattr(self, "config"):
            self.setup({})
        legal = obs.legal_actions
        if len(legal) == 1:
            return int(legal[0])
        return int(getattr(game_of(obs).search, self.search)(obs, self.seed, self.config))


def decode_action(code: int, obs: Any = None) -> Action:
    """The action ``code`` as an ``Action``; with the observation, a ``take`` also names its cards.

    >>> decode_action(17, {"display": ["b8", "g7", "b1", "y7"]})
    Action(kind='take', tile=None, cell=None, slot=None, cards=('b8',), positions=(0,), raw=None)
    """
    code = int(code)
    kind = KINDS.get(code & 15)
    if kind is None:
        return Action("module", raw=code)
    if kind == "take":
        positions = tuple(p for p in range(4) if code >> (4 + p) & 1)
        display = (obs.get("display") if isinstance(obs, dict) else getattr(obs, "display", None)) or []
        cards = tuple(display[p] for p in positions if p < len(display) and display[p]) if obs else ()
        return Action(kind, cards=cards, positions=positions)
    if kind == "buy":
        slot = (code >> 4) & 3
        pay = code >> 6
        cards = tuple(f"{CURRENCY_LETTERS[slot]}{v}" for v in range(9, 0, -1)
                      for _ in range((pay >> (2 * (v - 1))) & 3))
        cards += (f"{CURRENCY_LETTERS[slot]}c",) * ((code >> 24) & 7)
        return Action(kind, slot=slot, cards=cards)
    if kind == "pass":
        return Action(kind)
    tile = (code >> 4) & 255
    if kind in ("place_reserve", "place_dirk"):
        return Action(kind, tile=tile)
    return Action(kind, tile=tile, cell=(((code >> 12) & 255) - 128, ((code >> 20) & 255) - 128))


class Tile(NamedTuple):
    """Facts of one tile: building type (``pavilion`` ... ``tower``, ``fountain`` for tile 0), cost, and
    walls as text (``"SW"``; ``-`` none) and as a mask (N=1, E=2, S=4, W=8)."""

    type: str
    cost: int
    walls: str
    wall_mask: int


def tile_facts(tile: int) -> Tile:
    """The facts of ``tile`` (ids as in data/buildings.csv; 0 = the fountain; 55..70 the modules' camps and
    bazaars; 71 = Alcazaba's extra tower, rules.md D23).

    >>> tile_facts(17)
    Tile(type='arcades', cost=6, walls='SW', wall_mask=12)
    >>> tile_facts(71)
    Tile(type='tower', cost=10, walls='-', wall_mask=0)
    """
    from alhambra_ai._core import tile_info  # here: a bot worker loads the engine only if its bot asks

    kind, cost, walls = tile_info(tile)
    mask = sum(bit for letter, bit in zip("NESW", (1, 2, 4, 8), strict=True) if letter in walls)
    return Tile(kind, cost, walls, mask)
