"""Shared helpers for the game tests: positions built with State.from_setup."""

from collections import Counter

from alhambra_ai import State, card_text


def all_cards(copies=3):
    return [card_text(c) for c in range(36) for _ in range(copies)]


def setup(n=3, rest_to=None, **kw):
    """State.from_setup, optionally giving every card not named anywhere to seat ``rest_to``'s hand
    (so that draw pile, discard and display can be set exactly)."""
    if rest_to is not None:
        copies = 2 if kw.get("options", {}).get("dirk", n == 2) else 3
        named = Counter()
        for hand in (kw.get("hands") or [[]] * n):
            named.update(hand or [])
        for key in ("display", "discard", "draw_pile"):
            named.update(c for c in (kw.get(key) or []) if c and c not in ("s1", "s2"))
        rest = list((Counter(all_cards(copies)) - named).elements())
        hands = [list(h or []) for h in (kw.get("hands") or [[]] * n)]
        hands[rest_to] += rest
        kw["hands"] = hands
        kw.setdefault("discard", [])
        kw.setdefault("draw_pile", [])
    return State.from_setup(n, **kw)


def texts(s):
    return [s.action_to_text(a) for a in s.legal_actions()]


def play(s, *actions):
    for a in actions:
        s.apply(a)
    return s
