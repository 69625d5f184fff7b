"""The search toolkit under its name before the package was cut by concept: bot files written for it import
``alhambra_ai.search``; it lives in ``alhambra_ai.bot.toolkit`` (new code imports that), and this module
re-exports its public names."""

from alhambra_ai.bot.toolkit import (
    Mcts,
    MoveClock,
    decisions_left,
    determinize,
    greedy_action,
    move_seed,
    obs_dict,
    scoring_ranges,
)

__all__ = ["Mcts", "MoveClock", "decisions_left", "determinize", "greedy_action", "move_seed", "obs_dict",
           "scoring_ranges"]
