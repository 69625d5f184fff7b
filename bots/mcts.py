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
spread over the decisions to come; 0 = never touch the bank), value (``hand``, the default: the evaluation
scores the cut-off; ``learned``: the shipped learned value, evaluated in C; docs/bots.md). Rollout lengths:
``rollout_turns`` in alhambra_ai/games/alhambra/search.py."""

from alhambra_ai.botapi import SearchBot


class Bot(SearchBot):
    search = "mcts"
