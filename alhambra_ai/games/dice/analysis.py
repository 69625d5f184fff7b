"""The dice games' analysis of one decision (the registry's ``analysis`` part; analysis/review.py).

The strongest bot of both dice games is expectimax (``expectimax.py``): after a roll it values every stop,
void roll, black die and rebuild, and each re-roll by the exact expectation over its outcomes, as its change
to the seat's expected final margin in points (``value.py``); elsewhere one ply on the same value. Its
values of all candidates are read directly (``Turn.options``, ``one_ply_values``), no second search: the
position's value is value.py's expected final margin of the seat (``value_of(state, seat).total()``), and a
move's value is that minus what it falls short of expectimax's best candidate. A re-roll expectimax does not
list (keeping dice of two types) is valued by the same exact expectation. The state is the bot's own
determinization of the observation (``move_seed``), so nothing the seat did not know is used. Re-rolls of
more than ``EXACT_DICE`` dice, which the bot values by the binomial chain of one type only (for time; that
bound counts a roll without any symbol of the type at the last roll as -1e9, so a re-roll of all eight dice
looks hopeless to it), are valued by the exact expectation here too: at most a few per decision.

The value has no win probability: ``win`` maps the margin through a logistic, ``1 / (1 + exp(-m / s))``,
with ``s = WIN_SCALE[game]`` fitted (maximum likelihood) on the positions of expectimax self-play games: the
value at each decision of a seat against whether that seat won (docs/bots.md "Analysis").

>>> from alhambra_ai import new_game
>>> s = new_game(2, 1, game="dice"); s.apply("roll")
>>> obs = s.observation(s.current_player)
>>> out = analyse_decision(obs, obs["legal_actions"][0], seed=3, iterations=1, move_time=None)
>>> out["value"] >= out["played_value"]
True

>>> from alhambra_ai import new_game
>>> from alhambra_ai.analysis.review import Settings, analyse
>>> from alhambra_ai.formats.record import make_record
>>> s = new_game(2, seed=3, game="dice")
>>> for _ in range(6):
...     s.apply(s.legal_actions()[0])
>>> report = analyse(make_record(s, ["a", "b"]), Settings(iterations=1, seed=5))
>>> [d["move"] for d in report["decisions"]]
[1, 3, 5]
>>> [d["mark"] for d in report["decisions"]]      # stopping on one symbol after the first roll
['blunder', 'blunder', 'blunder']
"""

from __future__ import annotations

import math
import time
from typing import Any

from alhambra_ai.bot import toolkit
from alhambra_ai.bot.toolkit import move_seed
from alhambra_ai.games.dice.expectimax import D_ROLL, EXACT_DICE, Turn, one_ply_values
from alhambra_ai.games.dice.value import value_of

# the margin (points) that makes a win 73% likely (a logistic of 1): fitted on 12 expectimax self-play games
# each (1,907 and 2,139 positions; Brier score 0.141 and 0.159), benchmarks/analysis_winfit.py
WIN_SCALE = {"dice": 12.75, "alcazaba": 10.25}
CANDIDATES = 5


def win_chance(game: str, margin: float) -> float:
    """The logistic map from an expected final margin to a win chance (the module docstring)."""
    return 1.0 / (1.0 + math.exp(-max(-700.0, min(700.0, margin / WIN_SCALE[game]))))


def _approximate(action: int) -> bool:
    """A re-roll expectimax values by its binomial chain only (more than EXACT_DICE dice)."""
    return action & 15 == D_ROLL and bin((action >> 4) & 0xFF).count("1") > EXACT_DICE


def exact(turn: Turn, action: int) -> float:
    """A re-roll's exact expected value (the expectation over all its outcomes, however many dice)."""
    return turn.reroll_value(action, exact=True)


def analyse_decision(obs: dict, played: int, seed: int, iterations: int | None,
                     move_time: float | None) -> dict[str, Any]:
    """Expectimax's verdict on one decision (``alhambra_ai.games.alhambra.analysis.analyse_decision``'s
    fields): exact with ``iterations`` (their number is not used: expectimax has no iterations), else the
    re-rolls not valued within ``move_time`` seconds fall back to their binomial chain, as the bot's do."""
    state = toolkit.determinize(obs, move_seed(seed, obs))
    state.record_history = False
    seat = obs["seat"]
    game = obs["game"]
    deadline = None if iterations else time.monotonic() + float(move_time or 0.0)
    position = value_of(state, seat)
    if state.phase == "after_roll":
        turn = Turn(state, position, deadline)
        ranked = turn.options()
        turn.deadline = None          # (the exact values below: a bounded number of re-rolls)
        ranked = [(exact(turn, a) if _approximate(a) else v, order, a) for v, order, a in ranked]
        values = {a: v for v, _o, a in ranked}
        if played not in values and played & 15 == D_ROLL:
            values[played] = exact(turn, played)
    else:
        ranked = [(v, order, a) for order, (a, v) in
                  enumerate(one_ply_values(state, seat, markers=state.phase != "place"))]
        values = {a: v for v, _o, a in ranked}
    ranked.sort(key=lambda o: (-o[0], o[1]))
    base = position.total()
    top = ranked[0][0]
    best = ranked[0][2]

    def absolute(v: float) -> float:
        return base - (top - v)

    mine = absolute(values[played]) if played in values else None
    return {
        "best": state.action_to_text(best),
        "value": base, "win": win_chance(game, base),
        "played_value": mine, "played_win": None if mine is None else win_chance(game, mine),
        "played_alone": False,
        "searched": None,
        "candidates": [[state.action_to_text(a), None, absolute(v), win_chance(game, absolute(v))]
                       for v, _o, a in ranked[:CANDIDATES]],
    }


__all__ = ["WIN_SCALE", "analyse_decision", "win_chance"]
