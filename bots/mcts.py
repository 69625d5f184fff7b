"""mcts: determinized open-loop information-set MCTS, compiled (alhambra_ai._core.Mcts).

Several determinizations of the observation; every iteration resamples the hidden order (draw pile with the
scoring cards in their public ranges, tile bag), descends the tree by UCB among the actions legal in that
sample (the best few by a cheap prior, widening with visits), adds a node and plays a heuristic rollout for
six rounds of seats with 2 players, four with more (twice as many at 0.5 s or more per move), after which
the evaluation scores the position; rewards mix the win share and the margin. The move is the most visited
root action.

Config: seed, move_time (default budget when the observation gives none), iterations (replaces the time
budget: deterministic), determinizations, rollout_turns (default: 12 turns with 2 players, 4 x num_players
with more, twice as many when a move has 0.5 s or more; the rollout then scored by the evaluation; -1: to
the end of the game),
c_uct, max_candidates, stop_early (default on: the move is decided once the most visited action can no longer
be overtaken), bank_share (default 0.5: each move also spends this share of the referee's time bank left,
spread over the decisions to come; 0 = never touch the bank)."""

from alhambra_ai import dice_search, search

LONG_MOVE = 0.5     # seconds per move from which rollouts run twice as long (see _rollout_turns)


class Bot:
    def setup(self, config: dict) -> None:
        self.config = dict(config)
        self.seed = int(config.get("seed", 0))
        self.iterations = config.get("iterations")
        self.ndets = int(config.get("determinizations", 4))
        self.rollout_turns = config.get("rollout_turns")  # None: see _rollout_turns
        self.c_uct = float(config.get("c_uct", 0.3))
        self.max_candidates = int(config.get("max_candidates", 12))
        self.eps = float(config.get("eps", 0.1))
        self.stop_early = bool(config.get("stop_early", True))
        self.bank_share = float(config.get("bank_share", 0.5))
        self.last_iterations = 0

    def act(self, obs) -> int:
        if not hasattr(self, "config"):
            self.setup({})
        clock = search.MoveClock(obs, self.config, self.bank_share)
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        if dice_search.is_dice(obs):  # the dice games: alhambra_ai/dice_search.py
            return dice_search.mcts_bot(obs, self.seed, self.config)
        seed = search.move_seed(self.seed, obs)
        dets = [search.determinize(obs, seed + k) for k in range(self.ndets)]
        # root candidates in the greedy evaluation's order (progressive widening admits them best first)
        _best, margins = search.search_greedy(dets[0])
        order = [a for a, _m in sorted(margins, key=lambda e: -e[1])]
        tree = search.Mcts(dets, seed, c_uct=self.c_uct, max_candidates=self.max_candidates,
                           rollout_turns=self._rollout_turns(obs, 0.0 if self.iterations else clock.limit),
                           eps=self.eps,
                           ranges=search.scoring_ranges(obs), root_order=order)
        if self.iterations:
            self.last_iterations = tree.run(int(self.iterations), 0.0, self.stop_early)
        else:
            self.last_iterations = tree.run(0, clock.deadline, self.stop_early)
        legal_set = set(legal)
        for action, _visits, _value in tree.root_children():
            if action in legal_set:
                return action
        return search.greedy_action(dets[0])

    def _rollout_turns(self, obs, move_time: float = 0.0) -> int:
        """Unless configured: six rounds of seats with 2 players (12 turns), four with more (4 x num_players);
        twice as many with at least LONG_MOVE seconds per move (the referee's move time, not the bank).

        Measured in-process at fixed iterations, seats rotated, the slower variant given fewer iterations in
        proportion to its speed (docs/bots.md, "Tuning"): 2 players, head to head, 6 turns beat 4 (72.5% of
        40 games), 8 beat 6 (55.0%), 12 beat 8 (60.0%); 4 players, one mcts against three greedy on the same
        48 seat-deals: 16 turns 72.9%, 24 turns 69.8%, full rollouts 57.3%. With more time the cut-off's
        bias, not the rollouts' noise, limits the search: at 0.7 s per move against the default at 0.15 s,
        24 turns won 8 of 10 games and 6 turns 2 of 8 (benchmarks/tune_match.py, stopped early;
        docs/bots.md). 4 players, one mcts at 75,000 iterations against three at 15,000 (about 0.75 s
        against 0.15 s): 16 turns won 28.6% of 28 games (par 25%), 32 turns 60.0% of 20."""
        if self.rollout_turns is not None:
            return int(self.rollout_turns)
        n = int(getattr(obs, "num_players", 2) or 2)
        turns = 12 if n == 2 else 4 * n
        return 2 * turns if move_time >= LONG_MOVE else turns
