"""greedy: one-ply heuristic. Every legal action is tried on a determinized copy and the position it leaves is
scored (alhambra_ai search evaluation): majorities expected for the rounds to come, weighted by how close each
round is; outer wall length; an exact payment's extra action; money kept (worth little: it only buys); reserve
tiles. The end of the turn (refills, scoring) is left out of the comparison, so the choice never depends on
the sampled hidden order. Deterministic; takes a few milliseconds."""

from alhambra_ai.botapi import SearchBot


class Bot(SearchBot):
    search = "greedy"
