"""The Thief (rules.md §9.6): secret thief cards that take a display card out of turn, in the window between
turns.

>>> MODULE.hand_lines({"modules": {"thieves": ["y", "b"], "thief_counts": [2, 3], "thieves_played": []}},
...                   None, 0)
['Your thieves: y b (seat 2 holds 3)']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from alhambra_ai._core import CURRENCY_LETTERS
from alhambra_ai.games.alhambra.modules.parts import DONE, Command, FrameHook, Module, done_index
from alhambra_ai.terminal.text import seat_name, short_seat

if TYPE_CHECKING:
    from alhambra_ai.env.parts import Block, Field, View
    from alhambra_ai.env.spaces import ActionSpace, ObservationEncoder


def describe(state: Any, words: list[str], subject: str, verb: Callable[[str], str]) -> str:
    return f"{subject} {verb('play')} a thief and {verb('take')} {words[1]} from the money display"


def hand_lines(obs: Mapping[str, Any], names: Sequence[str] | None, you: int | None) -> list[str]:
    """The seat's own thieves, the others' counts and the thieves played."""
    m = obs.get("modules") or {}
    counts = m.get("thief_counts")
    if counts is None:
        return []
    others = ", ".join(f"{seat_name(s, names, you)} holds {k}" for s, k in enumerate(counts) if s != you)
    own = " ".join(m.get("thieves") or []) or "none"
    played = " ".join(m.get("thieves_played") or [])
    line = f"Your thieves: {own} ({others})" if you is not None else f"Thieves held: {others}"
    return [line + f"; played: {played}" if played else line]


def screen_words(obs: Mapping[str, Any], names: Sequence[str] | None, you: int | None) -> list[str]:
    """The seat's thieves and the others' counts (few words)."""
    m = obs.get("modules") or {}
    counts = m.get("thief_counts")
    if counts is None:
        return []
    own = " ".join(m.get("thieves") or []) or "none"
    others = ", ".join(f"{short_seat(p, None, you)} {k}" for p, k in enumerate(counts) if p != you and k)
    return [f"thieves: you {own}" + (f", {others}" if others else "") if you is not None
            else "thieves: " + (others or "none")]


#: a thief is worth asking about for a display card worth at least this much (an average card)
WORTH = 5


def window_offer(state: Any, words: list[str]) -> tuple[bool, tuple] | None:
    """A thief's take in the window: worth asking about for a card worth ``WORTH`` or more.

    >>> window_offer(None, ["thief", "y7"]), window_offer(None, ["thief", "o3"]), window_offer(None, ["done"])
    ((True, ('thief', 'y7')), (False, ('thief', 'o3')), None)
    """
    if words[0] != "thief" or len(words) < 2:
        return None
    value = int(words[1][1:]) if words[1][1:].isdigit() else 0
    return value >= WORTH, ("thief", words[1])


def action_blocks(space: ActionSpace) -> list[Block]:
    return [DONE, ("thief", 4, "display position taken")]


def action_index(space: ActionSpace, code: int) -> int | None:
    return space.offset["thief"] + ((code >> 4) & 3) if code & 15 == 14 else done_index(space, code)


def fields(enc: ObservationEncoder) -> list[Field]:
    return [("thief_counts", (enc.n,)), ("thieves_played", (4,)), ("thieves", (4,))]


def encode(enc: ObservationEncoder, m: dict[str, Any], v: View, rel: list[int]) -> None:
    tc = v("thief_counts")
    for k, c in enumerate(m["thief_counts"] or ()):
        tc[rel[k]] = c
    for c in m["thieves_played"] or ():
        v("thieves_played")[CURRENCY_LETTERS.index(c)] += 1
    for c in m.get("thieves") or ():                  # the seat's own: the others' are secret
        v("thieves")[CURRENCY_LETTERS.index(c)] += 1


def follow(num_players: int) -> FrameHook:
    """The frames' ``thieves_by_seat``: the thieves each seat played so far (public: ``seat 2: thief y6``)."""
    played: list[list[str]] = [[] for _ in range(num_players)]

    def hook(seat: int, event: Mapping[str, Any] | None, m: Mapping[str, Any]) -> dict[str, Any]:
        if event is not None and event["kind"] == "action" and event["payload"] & 15 == 14:    # a thief
            played[seat].append(CURRENCY_LETTERS[event["gains"][0] // 9])     # (card: currency * 9 + ...)
        return {"thieves_by_seat": [list(p) for p in played]} if m.get("thief_counts") is not None else {}
    return hook


MODULE = Module(
    name="thief",
    commands=(Command("thief y6", "take y6 from the display out of turn with a thief"),),
    verbs=("thief", "done"), window="thief", window_offer=window_offer, describe={"thief": describe},
    hand_lines=hand_lines, screen_words=screen_words,
    action_blocks=action_blocks, action_index=action_index, fields=fields, encode=encode,
    public_fields=("thief_counts", "thieves_played"), follow=follow,
    pieces=(("thief", "thief card (dark back: held, secret; face up: played)"),),
    script="modules/thief.js",
)
