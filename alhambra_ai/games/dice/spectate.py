"""The dice games as a spectator of a record sees them on one screen (``alhambra-ai replay --step`` in a
terminal; issue 44): the round and who acts, the columns with the dice and the markers, every seat's score
(and, in Alcazaba, the seats beside the city of the seat that moved), and the last moves. Nobody is "you".

The screen loop is ``alhambra_ai.terminal.spectate``'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from alhambra_ai.games.dice.text import (
    _column_table,
    _obs,
    _scoring_words,
    _seat_table,
    alcazaba_seats,
    dice_words,
    doing,
    label,
    landing,
)
from alhambra_ai.terminal.text import clip, fit_blocks, fit_city, winner_words, wrap


def sentence(state: Any, code: int, who: str) -> str:
    """The move's text, with where a stop's marker lands: ``'Seat 2: stop garden: marker on 3 in 1'``."""
    text = state.action_to_text(code)
    if text.startswith(("roll", "reroll")):       # the dice it rolled (the state's own draw: a clone's)
        after = state.clone()
        after.apply(code)
        text += f" -> {dice_words(after.dice()[0])}"
    if text.startswith("stop"):
        where = landing(state, code)
        text += f": the marker {where}" if where.startswith("falls") else f": marker on {where}"
    return f"{who}: {text}"


def _seats_beside_city(obs: dict, names: Sequence[str], focus: int, width: int, room: int) -> list[str]:
    """Alcazaba: the seats (score, markers left, wall) beside ``focus``'s city in narrow cells."""
    left = alcazaba_seats(obs, names, None, "city N: a whole city")
    used = max(len(x) for x in left)                         # (long names widen the seats' column)
    city = fit_city(obs, focus, None, None, width - used - 3, max(room, len(left)), margins=(0,))
    blocks = [left, city]
    used += 3 + max(len(x) for x in city)
    for p in range(obs["num_players"]):      # a wide screen: the other cities beside, while they fit whole
        if p == focus:
            continue
        other = fit_city(obs, p, None, None, width - used - 3, max(room, len(left)), margins=(0,))
        w = max(len(x) for x in other)
        if used + 3 + w > width or other[-1].endswith("...") or any("(cut:" in x for x in other):
            break
        blocks.append(other)
        used += 3 + w
    out = fit_blocks(blocks, width)
    while out and not out[-1].strip():
        out.pop()
    return out


def screen(state: Any, names: Sequence[str], width: int = 80, height: int = 23, focus: int | None = None,
           events: Sequence[str] = (), unicode: bool = False, color: bool = False) -> list[str]:
    """At most ``height`` lines of at most ``width`` columns: the board after a move as a spectator sees
    it, and ``events`` (the last moves, newest last) in the lines left.

    >>> from alhambra_ai import new_game
    >>> lines = screen(new_game(4, 1, game="alcazaba"), ["a", "b", "c", "d"], 80, 23)
    >>> len(lines) <= 23 and max(map(len, lines)) <= 80 and "you" not in " ".join(lines)
    True
    """
    obs = _obs(state, None)
    cur, over = obs["current_player"], obs["phase"] == "over"
    n = obs["num_players"]
    if focus is None or not 0 <= focus < n:
        focus = cur if cur is not None and 0 <= cur < n else 0
    head = f"{obs['game']}: {_scoring_words(obs)}"
    head += f"; {winner_words(state, names)}" if over else f"; {label(cur, names, None)} to act"
    out = wrap(head + f": {doing(obs)}" if not over else head, width)
    out += _column_table(obs, None, width)
    keep = 2 if events else 0            # a blank line and the newest move at least
    room = height - len(out) - keep
    if obs["game"] == "alcazaba":
        out += _seats_beside_city(obs, names, focus, width, room)[:max(0, room)]
    else:
        out += _seat_table(obs, names, None, width)[:max(0, room)]
    room = height - len(out)
    if events and room > 1:
        lines = [x for e in events for x in wrap(e, width, indent="  ")]
        if len(lines) > room - 1:
            lines = [clip(e, width) for e in events]
        out += [""] + lines[-(room - 1):]
    return [clip(x, width) for x in out][:height]


__all__ = ["screen", "sentence"]
