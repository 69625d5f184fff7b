"""The base game as a spectator of a record sees it on one screen (``alhambra-ai replay --step`` in a
terminal; issue 44): the move, the market, the money display, every seat's score and hand, the modules in few
words, the city of the seat that moved beside the last moves, and the other cities while they fit (one line
each otherwise: ``city N`` shows one whole). Nobody is "you": every seat is named.

The screen loop is ``alhambra_ai.terminal.spectate``'s; this module only draws the base game's board and says
its moves in words.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from alhambra_ai._core import CURRENCY_LETTERS
from alhambra_ai.games.alhambra.text import (
    _scoring_line,
    cities_beside,
    market_lines,
    module_words,
    short_seat,
)
from alhambra_ai.games.alhambra.words import describe
from alhambra_ai.terminal.text import (
    as_observation,
    card_paint,
    city_title,
    clip,
    count,
    fit_blocks,
    fit_city,
    tile_long,
    visible_len,
    winner_words,
    wrap,
)


def sentence(state: Any, code: int, who: str) -> str:
    """The move ``code`` (about to be applied to ``state``) in words: ``'buys arcades 17 ... exactly'``."""
    return describe(state, code, who)


def hand_short(cards: Sequence[str], color: bool = False) -> str:
    """A hand in few columns, by currency with its sum: ``'y3 y5=8 | - | b2=2 | o4 o9=13'``.

    >>> hand_short(["y3", "y5", "b2"])
    'y3 y5=8 | - | b2=2 | -'
    """
    parts = []
    for letter in CURRENCY_LETTERS:
        mine = sorted((c for c in cards if c[:1] == letter), key=lambda c: int(c[1:]))
        parts.append(" ".join(card_paint(c, color) for c in mine) + f"={sum(int(c[1:]) for c in mine)}"
                     if mine else "-")
    return " | ".join(parts)


def hand_sums(cards: Sequence[str]) -> str:
    """A big hand as counts and sums per currency: ``'y 3 cards=14 | - | ...'``."""
    parts = []
    for letter in CURRENCY_LETTERS:
        mine = [int(c[1:]) for c in cards if c[:1] == letter]
        parts.append(f"{letter} {count(len(mine), 'card')}={sum(mine)}" if mine else "-")
    return " | ".join(parts)


def screen(state: Any, names: Sequence[str], width: int = 80, height: int = 23, focus: int | None = None,
           events: Sequence[str] = (), unicode: bool = False, color: bool = False) -> list[str]:
    """At most ``height`` lines of at most ``width`` columns: the position after a move as a spectator sees
    it. ``focus``: the seat whose city is drawn first (the one that moved; default: the seat to act);
    ``events``: the last moves, one line each, newest last (shown beside or above that city).

    >>> from alhambra_ai import new_game
    >>> lines = screen(new_game(4, 1), ["a", "b", "c", "d"], 80, 23, events=["1. s1 a: takes y3"])
    >>> len(lines) <= 23 and max(map(len, lines)) <= 80 and "you" not in " ".join(lines)
    True
    """
    obs = as_observation(state, max(state.current_player, 0) if hasattr(state, "current_player") else 0)
    n = obs["num_players"]
    hands = [list(state.hand(p)) for p in range(n)] if hasattr(state, "hand") else [[] for _ in range(n)]
    cur = obs.get("current_player", -1)
    if focus is None or not 0 <= focus < n:
        focus = cur if cur is not None and 0 <= cur < n else 0
    turn = f"Turn {obs.get('turn', 0) + 1}"
    if obs.get("phase") == "over":
        turn = f"Game over: {winner_words(state, names)}"
    elif cur is not None and cur >= 0:
        turn += f": {short_seat(cur, names, None)} to act ({obs.get('phase')})"
    nxt = _scoring_line(obs).replace(", its card lies at draw-pile position", ", card at pile")
    if obs.get("phase") == "over":
        nxt = "type scores for the breakdown"
    head = wrap(f"{turn} | {nxt}", width)
    head += market_lines(obs, width, color)
    scores = obs.get("scores") or [0] * n
    label_w = max(len(short_seat(p, names, None)) for p in range(n)) + 2
    for p in range(n):      # a line per seat: to act (>), name, score, hand
        mark = ">" if p == cur else " "
        lead = f"{mark}{short_seat(p, names, None):<{label_w}}{scores[p]:>4}  "
        line = lead + hand_short(hands[p], color)
        if visible_len(line) > width:
            line = lead + hand_sums(hands[p])
        head.append(clip(line, width))
    if obs.get("dirk_score") is not None:
        tiles = count(len(obs.get("dirk_tiles") or []), "tile")
        head.append(f" {'Dirk':<{label_w}}{obs['dirk_score']:>4}  ({tiles})")
    pending = obs.get("pending") or []
    if pending and cur is not None and cur >= 0:
        head += wrap(f"To place ({short_seat(cur, names, None)}): "
                     + ", ".join(tile_long(t, color) for t in pending), width)
    mods = module_words(obs, names, None)
    if mods:
        head += wrap(" | ".join(mods), width, indent="  ")
    head = head[:height]
    return head + body(obs, focus, names, width, height - len(head), list(events), unicode, color)


def side_lines(events: Sequence[str], width: int, room: int) -> list[str]:
    """The newest events in ``room`` lines of ``width``: whole (wrapped) while that shows three or more of
    them, else one clipped line each."""
    if room <= 0:
        return []
    whole: list[str] = []
    shown = 0
    for e in reversed(events):
        lines = textwrap.wrap(e.strip(), width, subsequent_indent="  ", break_long_words=False) or [""]
        if len(whole) + len(lines) > room or max(visible_len(x) for x in lines) > width:
            break
        whole, shown = lines + whole, shown + 1
    if shown >= min(3, len(events)):
        return whole
    return [clip(e.strip(), width) for e in events[-room:]]


def body(obs: dict, focus: int, names: Sequence[str], width: int, room: int, events: list[str],
         unicode: bool = False, color: bool = False) -> list[str]:
    """The focus seat's city beside the last moves (above it on a narrow screen), the other cities beside
    it while they fit, and a line naming the cities not drawn (``city N`` shows one)."""
    if room <= 0:
        return []
    n = obs["num_players"]
    others = [p for p in range(n) if p != focus]
    side_min = 30
    city_room = room - 1          # the last line names the cities not drawn

    def rest_line(drawn: list[int]) -> list[str]:
        rest = [p for p in others if p not in drawn]
        if not rest:
            return []
        parts = [f"s{p + 1} " + city_title(obs, p, None, None).split(": ", 1)[1] for p in rest]
        parts = [x.replace(" buildings", " bldg").replace(" building", " bldg") for x in parts]
        return [clip("Cities (city N): " + "; ".join(parts), width)]

    city = fit_city(obs, focus, names, None, width - side_min - 3, city_room, unicode, color)
    if max(visible_len(x) for x in city) <= width - side_min - 3 and not city[-1].endswith("..."):
        blocks, drawn, used = cities_beside(obs, city, others, names, None, width - side_min - 3, city_room,
                                            unicode, color)
        side = width - used - 3
        tail = rest_line([focus, *drawn])
        space = room - len(tail)
        lines = side_lines(events, side, space - 1)
        blocks.append(["Last moves:", *lines] if events else ["(the start: no move yet)"])
        out = fit_blocks(blocks, width)
        while out and not out[-1].strip():
            out.pop()
        return out[:space] + tail
    # A narrow screen: the last moves above the city
    tail = rest_line([focus])
    n_ev = min(len(events), max(1, room // 5), 3)
    ev = [clip(e.strip(), width) for e in events[-n_ev:]] if events else []
    city = fit_city(obs, focus, names, None, width, room - len(ev) - len(tail), unicode, color)
    return (ev + city)[:room - len(tail)] + tail


__all__ = ["body", "hand_short", "hand_sums", "screen", "sentence"]
