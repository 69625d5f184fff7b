"""greedy: one-ply heuristic. Every legal action is tried on a determinized copy and the position it leaves is
scored (alhambra_ai search evaluation): majorities expected for the rounds to come, weighted by how close each
round is; outer wall length; an exact payment's extra action; money kept (worth little: it only buys); reserve
tiles. The end of the turn (refills, scoring) is left out of the comparison, so the choice never depends on
the sampled hidden order. Deterministic; takes a few milliseconds."""

from alhambra_ai.registry import game_of


class Bot:
    def setup(self, config: dict) -> None:
        self.config = dict(config)
        self.seed = int(config.get("seed", 0))

    def act(self, obs) -> int:
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        # the game's own search: alhambra_ai/games/alhambra/search.py, or games/dice/search.py
        return game_of(obs).search.greedy(obs, getattr(self, "seed", 0), getattr(self, "config", {}))
