"""expectimax: depth-limited search over the chance of the money and market refills.

Max nodes: this seat's decisions until its turn ends (an exact payment's extra action, the placements), the
best few actions by the greedy evaluation at each, up to `depth` decisions (the rest of the turn is greedy).
Chance node: the end of the turn, where the display and market refill from the hidden order. It is sampled:
each sample resamples the hidden order (draw pile with the scoring cards in their public ranges, tile bag).
Opponent model: after the chance sample every other seat plays the greedy bot's one-ply policy, until this
seat is to start its next turn; that position is scored by the greedy evaluation (own value minus the best
other). All candidate plans share the same samples (common random numbers); samples are added until the time
budget (or `samples`, which replaces it: deterministic) is used up.

Config: seed, move_time, samples, breadth (candidates per decision, default 6), depth (default 3).

The bot asks the observation's game for its search: the base game's is alhambra_ai/games/alhambra/search.py
(the search above); the dice games' (alhambra_ai/games/dice/) is an exact expectation over the re-roll
outcomes on a position value (docs/bots.md, "The dice games")."""

from alhambra_ai.botapi import SearchBot


class Bot(SearchBot):
    search = "expectimax"
