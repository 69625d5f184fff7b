"""OpenSpiel games over the engine (docs/env.md): ``alhambra``, ``alhambra_dice`` and ``alhambra_alcazaba``.

Importing this module registers them with ``pyspiel``:

>>> import pyspiel
>>> import alhambra_ai.env.openspiel  # noqa: F401  (registers the games)
>>> game = pyspiel.load_game("alhambra_dice", {"players": 2})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes()) == game.max_chance_outcomes()
(True, True)

Parameters: ``players`` (2-6), ``options`` (base game only: modules as ``vizier,camps``; in a game string
``alhambra(players=3,options=vizier+camps)``, since commas separate parameters there), ``deals`` and
``radius``.

Chance. The engine draws every hidden order (tiles, money, bonus stacks) from its seed at setup, so the first
node of each game is one chance node over ``deals`` seeds (uniform; outcome k plays ``new_game(players,
seed=k)``): a game here is one of ``deals`` deals, not one of all possible shuffles. The dice games then
have a chance node after every roll decision, over the multisets of faces of the rolled dice with their
exact probabilities (``DiceState.chance_outcomes``). Whatever the engine draws later (reshuffles, coins of
Change) follows from the state's own generator, which determinization resamples.

Information. ``information_state_string(p)`` is the seat's bot-API observation (``State.observation(p)``,
public history included) as canonical JSON: two states give the same string exactly when the seat cannot
tell them apart. ``observation_string(p)`` drops the history but keeps every hand the history reveals.
Both tensors are the PettingZoo observation vector (``ObservationEncoder``): the position as the seat knows
it, not the order of past events. ``resample_from_infostate(p, sampler)`` is our determinizer,
``State.determinized(p, seed)``, with the seed drawn from ``sampler``. OpenSpiel's Python IS-MCTS
(``open_spiel.python.algorithms.ismcts``) uses it; the C++ ``pyspiel.ISMCTSBot`` cannot, because pyspiel does
not pass ``ResampleFromInfostate`` on to games written in Python.

What differs between the games (names, length bound, which decisions are followed by a chance node, how a
state serializes, what ``observation_string`` keeps of the history) is each game's registry part
``openspiel`` (``alhambra_ai.env.parts.OpenSpielFacts``); the games' classes and registrations follow the
registry's list.

Returns: +1 for the sole winner and -1/(n-1) for the others; k seats sharing first place get
(n/k - 1)/(n - 1) each (zero-sum; two players: +1 / -1, 0 for a tie).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from alhambra_ai import new_game, registry, state_from_json, state_to_json
from alhambra_ai.env.parts import OpenSpielFacts
from alhambra_ai.env.pettingzoo import final_rewards
from alhambra_ai.env.spaces import DEFAULT_RADIUS, ActionSpace, ObservationEncoder
from alhambra_ai.options import parse_options

__all__ = ["GAME_NAMES", "AlhambraGame", "AlhambraState", "facts", "load"]

DEFAULT_DEALS = 1 << 16


def facts(game: str) -> OpenSpielFacts:
    """The game's OpenSpiel facts: its registry part ``openspiel`` (``alhambra_ai.env.parts``)."""
    found: OpenSpielFacts = registry.get(game).hook("openspiel")(game)
    return found


#: the engine's game -> its OpenSpiel short name
GAME_NAMES = {game: facts(game).short_name for game in registry.names()}


def _game_type(game: str) -> pyspiel.GameType:
    params: dict[str, Any] = {"players": 2, "deals": DEFAULT_DEALS, "radius": DEFAULT_RADIUS}
    if registry.get(game).takes_options:
        params["options"] = ""
    return pyspiel.GameType(
        short_name=facts(game).short_name,
        long_name=facts(game).long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=6,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params)


class _Config:
    """What every state of one game shares (immutable)."""

    def __init__(self, game: str, params: dict) -> None:
        self.game = game
        self.facts = facts(game)
        self.n = int(params.get("players", 2))
        text = str(params.get("options", "")).replace("+", ",")
        self.options = parse_options(text) if registry.get(game).takes_options else None
        self.deals = int(params.get("deals", DEFAULT_DEALS))
        radius = int(params.get("radius", DEFAULT_RADIUS))
        if self.deals < 1:
            raise ValueError(f"deals must be at least 1, not {self.deals}")
        self.actions = ActionSpace(game, self.n, self.options, radius)
        self.encoder = ObservationEncoder(game, self.n, self.options, radius)
        self.deal_outcomes: list[tuple[int, float]] | None = None     # made on first use: `deals` pairs
        self.roll_outcomes: dict[int, list[tuple[int, float]]] = {}
        self.params = params

    def __reduce__(self) -> tuple:    # pickled by its parameters (pyspiel's serialization of a state)
        return (_Config, (self.game, self.params))

    def roll_chances(self, engine: Any, roll: int) -> list[tuple[int, float]]:
        """The chance outcomes of a roll (the game's chance kind): index k = the engine's k-th outcome (one
        list per chance key: the outcomes depend only on that, e.g. on the number of dice rolled)."""
        k = self.facts.chance_key(roll)
        out = self.roll_outcomes.get(k)
        if out is None:
            out = self.roll_outcomes[k] = [(i, p) for i, (_f, p) in enumerate(engine.chance_outcomes(roll))]
        return out

    def deal_chances(self) -> list[tuple[int, float]]:
        out = self.deal_outcomes
        if out is None:
            p = 1.0 / self.deals
            out = self.deal_outcomes = [(k, p) for k in range(self.deals)]
        return out


class _Core:
    """A state's Python-side data. pyspiel clones a Python state by deep-copying its __dict__: this keeps
    that to one engine clone (the config is shared, the legal-action cache of the same position reused)."""

    __slots__ = ("cfg", "engine", "roll", "legal", "origin", "log")

    def __init__(self, cfg: _Config) -> None:
        self.cfg = cfg
        self.engine: Any = None       # None: the deal (the first chance node) is still to come
        self.roll: int | None = None  # a dice roll decided, its outcome (a chance node) still to come
        self.legal: tuple[list[int], dict[int, int]] | None = None
        # a game without the position format's serialization (facts.from_observation: the dice games) is
        # serialized as its origin (a seed, or an observation and a seed for a determinization) and the
        # (code, faces) applied since, kept as a linked tuple: clones share it
        self.origin: Any = None
        self.log: tuple | None = None

    def __deepcopy__(self, memo: dict) -> _Core:
        c = _Core(self.cfg)
        c.engine = None if self.engine is None else self.engine.clone()
        c.roll = self.roll
        c.legal = self.legal
        c.origin = self.origin
        c.log = self.log
        return c

    def __getstate__(self) -> dict:
        d: dict[str, Any] = {"cfg": self.cfg, "roll": self.roll}
        if self.engine is not None and self.cfg.facts.from_observation is None:
            d["position"] = state_to_json(self.engine)
        elif self.engine is not None:
            d["origin"] = self.origin
            moves, log = [], self.log
            while log is not None:
                log, move = log
                moves.append(move)
            d["moves"] = moves[::-1]
        return d

    def __setstate__(self, d: dict) -> None:
        _Core.__init__(self, d["cfg"])
        self.roll = d["roll"]
        if "position" in d:
            self.engine = state_from_json(d["position"])
        elif "origin" in d:
            self.origin = d["origin"]
            if self.origin[0] == "seed":
                self.engine = new_game(self.cfg.n, seed=self.origin[1], game=self.cfg.game)
            else:               # ("observation", obs, seed): what the engine's determinized built
                rebuild = self.cfg.facts.from_observation
                assert rebuild is not None
                self.engine = rebuild(self.origin[1], self.origin[2])
            for code, faces in d["moves"]:
                self.engine.apply(code, outcome=faces)
                self.log = (self.log, (code, faces))

    def legal_map(self) -> tuple[list[int], dict[int, int]]:
        if self.legal is None:
            codes = self.cfg.actions.indices(self.engine.legal_actions())
            self.legal = (sorted(codes), codes)
        return self.legal


class AlhambraState(pyspiel.State):
    """A position: before the deal, at a roll's chance node, at a seat's decision, or over."""

    def __init__(self, game: AlhambraGame) -> None:
        super().__init__(game)
        self._c = _Core(game.cfg)

    @property
    def engine(self) -> Any:
        """The engine's State / DiceState (hidden information included), None before the deal."""
        return self._c.engine

    def current_player(self) -> int:
        c = self._c
        if c.engine is None or c.roll is not None:
            return pyspiel.PlayerId.CHANCE
        if c.engine.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return c.engine.current_player

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._c.legal_map()[0])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        c = self._c
        if c.engine is None:
            return c.cfg.deal_chances()
        assert c.roll is not None
        return c.cfg.roll_chances(c.engine, c.roll)

    def _apply_action(self, action: int) -> None:
        c = self._c
        cfg = c.cfg
        if c.engine is None:
            c.engine = new_game(cfg.n, seed=int(action), options=cfg.options, game=cfg.game)
            c.origin = ("seed", int(action))
        elif c.roll is not None:
            faces = list(c.engine.chance_outcomes(c.roll)[action][0])
            c.engine.apply(c.roll, outcome=faces)
            c.log = (c.log, (c.roll, faces))
            c.roll = None
        else:
            code = c.legal_map()[1][action]
            if cfg.facts.chance_kind is not None and code & 15 == cfg.facts.chance_kind:
                c.roll = code                       # the faces come from the chance node that follows
            else:
                c.engine.apply(code)
                if cfg.facts.from_observation is not None:
                    c.log = (c.log, (code, None))
        c.legal = None

    def _action_to_string(self, player: int, action: int) -> str:
        c = self._c
        if player == pyspiel.PlayerId.CHANCE:
            if c.engine is None:
                return f"deal {action}"
            if c.roll is not None:
                faces = c.engine.chance_outcomes(c.roll)[action][0]
                return "faces " + " ".join(str(f) for f in faces)
            return f"chance {action}"
        if c.engine is not None and not c.engine.is_terminal() and player == c.engine.current_player:
            code = c.legal_map()[1].get(action)
            if code is not None:
                return c.engine.action_to_text(code)
        return f"{c.cfg.actions.block_of(action)} #{action}"

    def is_terminal(self) -> bool:
        c = self._c
        return c.engine is not None and c.roll is None and c.engine.is_terminal()

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._c.cfg.n
        return final_rewards(self._c.engine)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> AlhambraState:
        """A state the seat cannot tell from this one: our determinizer with a seed from the sampler."""
        c = self._c
        state = self.get_game().new_initial_state()
        if c.engine is None:
            return state
        seed = int(probability_sampler() * 2.0 ** 53)
        state._c.engine = c.engine.determinized(player_id, seed)
        state._c.roll = c.roll
        if c.cfg.facts.from_observation is not None:   # what determinized does, kept to rebuild it
            state._c.origin = ("observation", c.engine.observation(player_id), seed)
        return state

    def __str__(self) -> str:
        c = self._c
        if c.engine is None:
            return "deal"
        text = "\n".join(c.engine.history)
        return text + (f"\nroll {c.engine.action_to_text(c.roll)}" if c.roll is not None else "")


class _Observer:
    """The PyObserver of both information types (pyspiel calls set_from / string_from)."""

    def __init__(self, cfg: _Config, perfect_recall: bool) -> None:
        self.cfg = cfg
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(cfg.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: AlhambraState, player: int) -> None:
        engine = state._c.engine
        if engine is None or player < 0:
            self.tensor.fill(0)
        else:
            self.tensor[:] = self.cfg.encoder.encode(engine.observation(player))

    def string_from(self, state: AlhambraState, player: int) -> str:
        c = state._c
        if c.engine is None:
            return "deal"
        obs = c.engine.observation(player)
        if not self.perfect_recall:
            c.cfg.facts.forget_history(obs)
        obs.pop("events", None)         # (the history says the same, a line per event: the string as before)
        if c.roll is not None:
            obs["rolling"] = c.roll
        return json.dumps(obs, sort_keys=True, separators=(",", ":"))


class AlhambraGame(pyspiel.Game):
    """An OpenSpiel game over the engine: the registry's default game; one subclass per other game."""

    game = registry.DEFAULT

    def __init__(self, params: dict | None = None) -> None:
        params = dict(params or {})
        self.cfg = cfg = _Config(self.game, params)
        n = cfg.n
        info = pyspiel.GameInfo(
            num_distinct_actions=cfg.actions.n,
            max_chance_outcomes=max(cfg.deals, cfg.facts.max_chance_outcomes),
            num_players=n,
            min_utility=-1.0 / (n - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=cfg.facts.max_game_length)
        super().__init__(_game_type(self.game), info, params)

    def new_initial_state(self) -> AlhambraState:
        return AlhambraState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return _Observer(self.cfg, bool(iig_obs_type is not None and iig_obs_type.perfect_recall))


def _subclass(game: str) -> type[AlhambraGame]:
    """A game's class beside the default one: a subclass named after its OpenSpiel name (a module attribute,
    so that it pickles by reference)."""
    name = "".join(w.capitalize() for w in facts(game).short_name.split("_")) + "Game"
    cls = type(name, (AlhambraGame,), {"game": game, "__module__": __name__, "__doc__": f"``{game}``."})
    globals()[name] = cls
    return cls


#: the engine's game -> its OpenSpiel game class
_DEFINED: dict[str, type[AlhambraGame]] = {AlhambraGame.game: AlhambraGame}
GAME_CLASSES = {game: _DEFINED.get(game) or _subclass(game) for game in registry.names()}

for _game, _cls in GAME_CLASSES.items():
    if facts(_game).short_name not in pyspiel.registered_names():
        pyspiel.register_game(_game_type(_game), _cls)


def load(game: str = registry.DEFAULT, num_players: int = 2, options: dict | None = None,
         **params: Any) -> Any:
    """``pyspiel.load_game`` by the engine's names: ``load("alhambra", 3, {"camps": True})``."""
    p: dict[str, Any] = {"players": num_players, **params}
    if options:
        # '+' as in a game string: the game's string (pickling, serialization) is parsed back
        p["options"] = "+".join(k for k, v in options.items() if v and k != "dirk")
    return pyspiel.load_game(facts(game).short_name, p)
