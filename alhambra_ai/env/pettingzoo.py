"""PettingZoo AEC environment for the base game and the dice games (docs/env.md).

>>> from alhambra_ai.env.pettingzoo import env
>>> e = env("dice", num_players=2)
>>> e.reset(seed=3)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs), int(obs["action_mask"].sum()) >= 1
(['action_mask', 'observation'], True)

Agents are ``player_0 .. player_{n-1}`` (seat order); the acting agent is the engine's ``current_player``, so
with the modules' interrupt windows the turn order is not a plain cycle. Each agent's observation is
``{"observation": float32 vector, "action_mask": int8 vector}`` computed from its own bot-API observation
only (``alhambra_ai.env.spaces``); an agent not to act sees an all-zero mask.

Rewards come at the end only. ``reward="win"`` (default): with k seats sharing first place each of them gets
``(n / k - 1) / (n - 1)`` and every other seat ``-1 / (n - 1)`` (two players: +1 / -1, a tie 0; zero-sum);
``reward="score"``: the seat's final score minus the mean of the others' (zero-sum).
A legal action with a cell beyond the action space's ``radius`` ends the game as truncated (reward 0).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from alhambra_ai import new_game
from alhambra_ai.arena.stats import win_shares
from alhambra_ai.env.spaces import DEFAULT_RADIUS, ActionSpace, ObservationEncoder, OutsideWindow
from alhambra_ai.registry import DEFAULT, game_of

__all__ = ["env", "raw_env", "final_rewards"]

OBS_BOUND = 2.0 ** 15     # every encoded number (counts, scores, coordinates, tile ids) is far inside


def env(game: str = DEFAULT, num_players: int = 2, options: dict | None = None, seed: int | None = None,
        reward: str = "win", radius: int = DEFAULT_RADIUS, render_mode: str | None = None) -> AECEnv:
    """The environment wrapped as PettingZoo's classic games are (order enforced: reset before step)."""
    inner = raw_env(game, num_players, options, seed, reward, radius, render_mode)
    return wrappers.OrderEnforcingWrapper(inner)


def final_rewards(state: Any, reward: str = "win") -> list[float]:
    """Per seat, the end-of-game reward of ``reward="win"`` or ``"score"`` (module docstring)."""
    n = state.num_players
    if reward == "score":
        s = state.scores()
        total = sum(s)
        return [float(s[i] - (total - s[i]) / (n - 1)) for i in range(n)]
    return [(n * share - 1) / (n - 1) for share in win_shares(state.ranking())]


class raw_env(AECEnv):
    """The unwrapped environment (``env()`` adds PettingZoo's order check)."""

    metadata = {"render_modes": ["ansi"], "name": "alhambra_v0", "is_parallelizable": False}

    def __init__(self, game: str = DEFAULT, num_players: int = 2, options: dict | None = None,
                 seed: int | None = None, reward: str = "win", radius: int = DEFAULT_RADIUS,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if reward not in ("win", "score"):
            raise ValueError(f"reward must be 'win' or 'score', not {reward!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.game = game
        self.num_players = num_players
        self.actions = ActionSpace(game, num_players, options, radius)
        self.options = self.actions.options
        self.encoder = ObservationEncoder(game, num_players, options, radius)
        self.reward_mode = reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        obs_space = spaces.Dict({
            "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.actions.n,), np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, spaces.Discrete(self.actions.n))
        self._seeds = np.random.default_rng(seed)   # game seeds of resets without a seed
        self.state_: Any = None                     # the engine's State / DiceState once reset
        self._legal: dict[int, int] | None = None   # index -> code of the agent to act

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------ the game

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game: ``new_game(num_players, seed)`` when a seed is given (the native API's game of that
        seed), else a seed drawn from the environment's own generator. ``options`` is ignored (the game's
        options are fixed when the environment is made)."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._seeds.integers(2 ** 63))
        self.state_ = new_game(self.num_players, seed=game_seed, options=self.options, game=self.game)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._legal = None
        self._advance()

    def _advance(self) -> None:
        """After a reset or an action: the next agent, or the end (terminated, or truncated beyond the
        radius)."""
        s = self.state_
        if s.is_terminal():
            r = final_rewards(s, self.reward_mode)
            self.rewards = {a: r[i] for i, a in enumerate(self.agents)}
            self.terminations = dict.fromkeys(self.agents, True)
            return
        self.agent_selection = self.possible_agents[s.current_player]
        try:
            self._legal = self.actions.indices(s.legal_actions())   # the mask is made when observed
        except OutsideWindow as e:
            self.truncations = dict.fromkeys(self.agents, True)
            for a in self.agents:
                self.infos[a] = {"truncated": str(e)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        legal = self._legal or {}
        try:
            code = None if action is None else legal.get(int(action))
        except (TypeError, ValueError):
            code = None
        if code is None:
            raise ValueError(f"{agent}: action {action!r} is not legal now (see the action_mask)")
        self.state_.apply(code)
        self._legal = None
        self._advance()
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        obs = self.state_.observation(seat)
        mask = np.zeros(self.actions.n, dtype=np.int8)
        if obs["legal_actions"] and self._legal is not None:
            mask[list(self._legal)] = 1              # the same list, already indexed in _advance
        return {"observation": self.encoder.encode(obs), "action_mask": mask}

    # ------------------------------------------------------------ for people

    def action_code(self, index: int) -> int:
        """The engine's action code behind a legal index of the agent to act."""
        return (self._legal or {})[int(index)]

    def action_text(self, index: int) -> str:
        """``'buy 2 g4 g3'``, ``'place 17 1,-2'``, ... for a legal index of the agent to act."""
        return self.state_.action_to_text(self.action_code(index))

    @property
    def game_state(self) -> Any:
        """The engine's full State (hidden information included): for analysis, never for an agent."""
        return self.state_

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state_ is None:
            return None
        names = [f"seat {k + 1}" for k in range(self.state_.num_players)]
        return game_of(self.game).hook("spectator")(self.state_, names)

    def close(self) -> None:
        self.state_ = None

    def __str__(self) -> str:
        return f"alhambra_v0({self.game}, {self.num_players} players)"
