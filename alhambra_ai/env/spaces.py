"""Fixed-size numeric views of the engine for learning code: the action index and the observation vector.

Both are pure numpy and shared by the PettingZoo environment and the OpenSpiel game (docs/env.md).

* ``ActionSpace``: every action code the engine can list for a game and its options gets one index in
  ``0 .. n - 1`` (``Discrete(n)``). The index keeps the meaning of the code (kind, tile, cell, payment), so a
  policy sees the same move at the same index in every position. Cells are those within ``radius`` of the
  fountain; a legal action farther out has no index (``index`` gives -1) and the wrappers end the game as
  truncated there (never seen in random games at the default radius: docs/env.md).
* ``ObservationEncoder``: a float32 vector computed from one seat's bot-API observation
  (``State.observation(seat)``) and nothing else, so it carries no more than the seat may know. Seats are
  relative: index 0 is the observing seat, 1 the next one, and so on.

Both are generic: what differs between games (tiles, action blocks and codes, phases, observation fields) is
each game's registry part ``spaces`` in its own package (``alhambra_ai.env.parts``; the base game's in
``alhambra_ai/games/alhambra/spaces.py``, the dice games' in ``alhambra_ai/games/dice/spaces.py``).

>>> from alhambra_ai import new_game
>>> s = new_game(2, seed=1)
>>> space = ActionSpace("alhambra", 2, s.options)
>>> mask, codes = space.mask(s.legal_actions())
>>> int(mask.sum()) == len(s.legal_actions()) and all(space.index(codes[i]) == i for i in codes)
True
>>> enc = ObservationEncoder("alhambra", 2, s.options)
>>> enc.encode(s.observation(0)).shape == (enc.size,)
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from alhambra_ai import new_game
from alhambra_ai.env.parts import TYPES, GameSpaces
from alhambra_ai.registry import DEFAULT, get

__all__ = ["CITY_CHANNELS", "DEFAULT_RADIUS", "TYPES", "ActionSpace", "GameSpaces", "ObservationEncoder",
           "OutsideWindow", "game_options", "game_spaces"]

#: cells within this distance of the fountain (in x and in y) are in the action space and the city planes
DEFAULT_RADIUS = 12

#: the city planes' channels, per seat and cell (every game that builds cities)
CITY_CHANNELS = ("occupied",) + TYPES + ("fountain", "camp", "bazaar", "wall_n", "wall_e", "wall_s", "wall_w",
                                         "tile_id")


def game_options(game: str, num_players: int, options: dict[str, Any] | None) -> dict[str, Any]:
    """The options as the engine normalises them (Dirk's default, module names checked)."""
    return dict(new_game(num_players, seed=0, options=options, game=game).options)


def game_spaces(game: str, options: dict[str, Any]) -> GameSpaces:
    """The game's half of the numeric views (its registry part ``spaces``) for normalised options."""
    part: GameSpaces = get(game).hook("spaces")(game, options)
    return part


class ActionSpace:
    """The index of every action code of one game with its options (docs/env.md "Action space").

    ``blocks``: ``[(name, start, size, meaning)]`` in index order; ``n``: their total.
    ``index(code)``: the index, or -1 for a cell beyond the radius. ``mask(legal)``: the int8 mask and
    ``{index: code}`` for a position's legal codes (decoding goes through it: a few blocks merge codes that
    are never legal together, e.g. ``place``, ``build`` and ``swap`` of one tile to one cell).
    The game's blocks and codes are its registry part's (``part``, ``alhambra_ai.env.parts``); the part's own
    tables (the base game's ``payments``) read as the space's attributes.
    """

    def __init__(self, game: str = DEFAULT, num_players: int = 2, options: dict[str, Any] | None = None,
                 radius: int = DEFAULT_RADIUS) -> None:
        self.game = game
        self.num_players = num_players
        self.options = game_options(game, num_players, options)
        self.part = part = game_spaces(game, self.options)
        self.radius = radius
        self.width = w = 2 * radius + 1
        self.cells = w * w
        self.tiles = part.tiles()
        self.tile_index = {t: i for i, t in enumerate(self.tiles)}
        self.blocks: list[tuple[str, int, int, str]] = []
        start = 0
        for name, size, meaning in part.action_blocks(self):
            self.blocks.append((name, start, size, meaning))
            start += size
        self.n = start
        self.offset = {name: s for name, s, _size, _m in self.blocks}
        self._known: dict[int, int] = {}     # code -> index, filled as codes come (a game repeats most)

    def __getattr__(self, name: str) -> Any:
        """The game's part's own tables (``payments``, ``figures``, ...) as the space's attributes."""
        part = self.__dict__.get("part")
        if part is None or name.startswith("__"):
            raise AttributeError(name)
        return getattr(part, name)

    def block_of(self, index: int) -> str:
        """The name of the block holding ``index``."""
        for name, start, size, _m in self.blocks:
            if start <= index < start + size:
                return name
        raise ValueError(f"index {index} outside 0..{self.n - 1}")

    def cell(self, x: int, y: int) -> int:
        """Row-major cell index, north row first (the city planes' layout); -1 beyond the radius."""
        r = self.radius
        if -r <= x <= r and -r <= y <= r:
            return (r - y) * self.width + x + r
        return -1

    def cell_of(self, index: int) -> tuple[int, int] | None:
        """The (x, y) an index names (a put's or a remove's cell, a falcon's corner, a disc's cell), None for
        an index of a block without cells."""
        name = self.block_of(index)
        if name not in self.part.cell_blocks:
            return None
        c = (index - self.offset[name]) % self.cells
        return c % self.width - self.radius, self.radius - c // self.width

    def packed_cell(self, p: int) -> int:
        """The cell of a code's packed coordinates (x + 128 in bits 0-7, y + 128 in bits 8-15)."""
        return self.cell((p & 255) - 128, ((p >> 8) & 255) - 128)

    def index(self, code: int) -> int:
        """The index of an action code; -1 when its cell lies beyond the radius. Raises KeyError for a code
        this game and these options never list."""
        i = self._known.get(code)
        if i is None:
            i = self._known[code] = self.part.action_index(self, code)
        return i

    def indices(self, legal: list[int]) -> dict[int, int]:
        """``{index: code}`` of a position's legal codes; raises OutsideWindow when some legal code has no
        index (a cell beyond the radius)."""
        known = self._known
        codes = {}
        for code in legal:
            i = known.get(code)
            if i is None:
                i = self.index(code)
            if i < 0:
                raise OutsideWindow(f"legal action {code} has a cell beyond radius {self.radius}")
            codes[i] = code
        if len(codes) != len(legal):      # two legal codes on one index would make decoding ambiguous
            raise RuntimeError(f"action index collision among {sorted(legal)}")
        return codes

    def mask(self, legal: list[int]) -> tuple[np.ndarray, dict[int, int]]:
        """The int8 mask over the n indices and ``indices(legal)``."""
        codes = self.indices(legal)
        m = np.zeros(self.n, dtype=np.int8)
        if codes:
            m[np.fromiter(codes, dtype=np.int64, count=len(codes))] = 1
        return m, codes


class OutsideWindow(Exception):
    """A legal action's cell lies beyond the action space's radius: the game cannot go on in this space."""


class ObservationEncoder:
    """One seat's observation dict -> float32 vector (docs/env.md "Observation").

    ``layout``: ``[(name, shape)]`` in vector order; ``slices[name]``: where each lies; ``view(vec, name)``
    reshapes a part. Raw counts and scores (no scaling), one-hots for categories; relative seats.
    The game's fields are its registry part's (``part``, ``alhambra_ai.env.parts``); every game has
    ``phase``, ``to_act``, ``start_player``, ``scores`` and ``dirk``, which this class fills.
    """

    def __init__(self, game: str = DEFAULT, num_players: int = 2, options: dict[str, Any] | None = None,
                 radius: int = DEFAULT_RADIUS) -> None:
        self.game = game
        self.n = num_players
        self.options = game_options(game, num_players, options)
        self.part = part = game_spaces(game, self.options)
        self.radius = radius
        self.width = 2 * radius + 1
        self.tiles = part.tiles()
        self.tile_index = {t: i for i, t in enumerate(self.tiles)}
        kinds = {t: part.tile_kind(t) for t in self.tiles}
        kinds[0] = (-1, "fountain")
        self._type = kinds
        self.dirk = bool(self.options.get("dirk"))
        layout = part.layout(self)
        self.layout = layout
        self.slices: dict[str, slice] = {}
        start = 0
        for name, shape in layout:
            size = int(np.prod(shape))
            self.slices[name] = slice(start, start + size)
            start += size
        self.size = start
        self.shapes = dict(layout)

    def view(self, vec: np.ndarray, name: str) -> np.ndarray:
        """The part ``name`` of an encoded vector, in its shape (a view: writing to it writes the vector)."""
        return vec[self.slices[name]].reshape(self.shapes[name])

    def encode(self, obs: dict[str, Any]) -> np.ndarray:
        """The vector of one observation dict (``State.observation(seat)``); reads nothing else."""
        vec = np.zeros(self.size, dtype=np.float32)

        def v(name: str) -> np.ndarray:
            return self.view(vec, name)

        n, seat = self.n, obs["seat"]
        rel = [(k - seat) % n for k in range(n)]          # absolute seat -> relative index
        v("phase")[self.part.phases.index(obs["phase"])] = 1
        if obs["current_player"] >= 0:
            v("to_act")[rel[obs["current_player"]]] = 1
        v("start_player")[rel[obs["start_player"]]] = 1
        scores = v("scores")
        for k in range(n):
            scores[rel[k]] = obs["scores"][k]
        if obs.get("dirk_score") is not None:
            v("dirk")[:] = (1, obs["dirk_score"])
        self.part.encode(self, obs, v, rel)
        return vec

    # ------------------------------------------------------------ helpers of the games' parts

    def mark_tiles(self, out: np.ndarray, tiles: Any) -> None:
        """Set ``out[tile index]`` to 1 for each tile id (None skipped)."""
        ti = self.tile_index
        for t in tiles:
            if t is not None:
                out[ti[t]] = 1

    def mark_cities(self, planes: np.ndarray, cities: Any, rel: list[int]) -> None:
        """The city planes (``CITY_CHANNELS``) of the observation's ``cities`` (per seat: x, y, tile,
        walls)."""
        r, ch_wall = self.radius, CITY_CHANNELS.index("wall_n")
        for k, cells in enumerate(cities):
            p = planes[rel[k]]
            for x, y, t, walls in cells:
                if not (-r <= x <= r and -r <= y <= r):
                    raise OutsideWindow(f"city tile at {x},{y} beyond radius {r}")
                row, col = r - y, x + r
                typ, special = self._type[t]
                p[0, row, col] = 1
                p[1 + typ if typ >= 0 else CITY_CHANNELS.index(special), row, col] = 1
                for b in range(4):
                    if walls >> b & 1:
                        p[ch_wall + b, row, col] = 1
                p[-1, row, col] = t
