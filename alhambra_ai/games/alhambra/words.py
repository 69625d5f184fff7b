"""Words of the terminal game: what the person types -> engine actions, actions and events -> sentences.

Nothing here decides legality: ``resolve`` only rewrites the person's words into the engine's text forms
(``reserve 1,-2`` -> ``remove 1,-2``, ``buy g4 g3`` -> ``buy 2 g4 g3``, ``place 17 1,0`` -> ``build 17 1,0``
for a reserve tile) and lets ``parse_action`` / ``apply`` on a clone accept or refuse each reading.

>>> normalize("Place 17 (1, -2)")
['place', '17', '1,-2']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from alhambra_ai._core import CURRENCY_LETTERS, CURRENCY_NAMES, card_text, tile_info
from alhambra_ai.games.alhambra.modules import MODULES, in_play
from alhambra_ai.terminal.session import InputError
from alhambra_ai.terminal.text import ABBREV, count, tile_words

# ----------------------------------------------------------------------------------------------------------
# Moves in words


def _card_sum(cards: Sequence[str]) -> int:
    """Value paid: cards by their value, coins (``gc``, the Change module) 1 each."""
    return sum(1 if c[1:] == "c" else int(c[1:]) for c in cards)


def describe(state: Any, code: int, subject: str) -> str:
    """One sentence for an action about to be applied by the current seat, e.g.
    ``Seat 2 (mcts) buys the garden 33 from slot 2 (dirham) paying g4 g3 exactly``.
    The subject "You" takes plain verbs."""
    you = subject == "You"
    text = state.action_to_text(code)
    words = text.split()

    def verb(v: str) -> str:
        if you:
            return v
        return v + ("es" if v.endswith(("s", "sh")) else "s")

    kind = words[0]
    if kind == "take":
        return f"{subject} {verb('take')} {' '.join(words[1:])} from the money display"
    if kind == "buy":
        slot = int(words[1])
        cards = words[2:]
        tile = state.market()[slot - 1]
        cost = tile_info(tile)[1]
        paid = _card_sum(cards)
        lost = next((m.overpaid(paid - cost) for m in in_play(state.options) if m.overpaid),
                    f"{paid - cost} lost")
        how = "exactly" if paid == cost else f"(cost {cost}, {lost})"
        return (f"{subject} {verb('buy')} the {tile_words(tile)} from slot {slot} "
                f"({CURRENCY_NAMES[slot - 1]}) paying {' '.join(cards)} {how}")
    if kind == "place":
        tile = int(words[1])
        if words[2] == "reserve":
            return f"{subject} {verb('put')} the {tile_words(tile)} into the reserve"
        if words[2] == "dirk":
            return f"{subject} {verb('give')} the {tile_words(tile)} to Dirk"
        return f"{subject} {verb('place')} the {tile_words(tile)} at {words[2]}"
    if kind == "build":
        return f"{subject} {verb('build')} the {tile_words(int(words[1]))} from the reserve at {words[2]}"
    if kind == "remove":
        x, y = (int(v) for v in words[1].split(","))
        tile = state.city(state.current_player).tile_at(x, y)
        return f"{subject} {verb('move')} the {tile_words(tile)} at {words[1]} to the reserve"
    if kind == "swap":
        x, y = (int(v) for v in words[2].split(","))
        old = state.city(state.current_player).tile_at(x, y)
        return (f"{subject} {verb('swap')} the {tile_words(int(words[1]))} from the reserve with the "
                f"{tile_words(old)} at {words[2]}")
    if kind == "pass":
        return f"{subject} {verb('pass')} (no move possible)"
    for m in in_play(state.options):                 # the modules' moves (their ``describe``)
        if kind in m.describe:
            return m.describe[kind](state, words, subject, verb)
    return f"{subject}: {text}"


def narrate(lines: Sequence[str], events: Sequence[Mapping[str, Any]],
            name: Callable[[int], str]) -> list[str]:
    """Public events (docs/formats.md "Events", with their history ``lines``) as sentences, the refills
    (``display``, ``market``, ``dirk``) grouped. The seats' own moves are left out: they are announced as
    they are played. ``name(seat)`` names a 0-based seat."""
    out: list[str] = []
    group: tuple[str, list[str]] | None = None

    def flush() -> None:
        if group:
            kind, items = group
            title = {"display": "New money on the display", "market": "New in the market",
                     "dirk": "Dirk takes"}[kind]
            out.append(f"{title}: {', '.join(items)}")

    for line, event in zip(lines, events, strict=True):
        kind, p = event["kind"], event["payload"]
        if kind in ("display", "market", "dirk"):
            if kind == "display":
                item = card_text(p)
            elif kind == "market":
                item = f"slot {p[0] + 1} {tile_words(p[1])}"
            else:
                item = tile_words(p)
            if group and group[0] == kind:
                group[1].append(item)
            else:
                flush()
                group = (kind, [item])
            continue
        flush()
        group = None
        out += _sentence(line, event, name)
    flush()
    return out


def _sentence(line: str, event: Mapping[str, Any], name: Callable[[int], str]) -> list[str]:
    """One public event as a sentence (the history line where there is no sentence for it)."""
    kind, p, seat = event["kind"], event["payload"], event["seat"]
    if kind in ("action", "secret", "start", "score"):
        return []                                   # announced elsewhere (moves, who starts, breakdowns)
    if kind == "deal":
        cards = [card_text(c) for c in p]
        return [f"{name(seat)} received {' '.join(cards)} (= {_card_sum(cards)}), dealt face up"]
    if kind == "reshuffle":
        return [f"The discard pile is shuffled into a new draw pile ({count(p, 'card')})"]
    if kind == "scoring_card":
        return [f"The scoring card for round {p} is drawn: scoring after this turn"]
    if kind == "end":
        return [f"Market slot {p + 1} cannot be refilled: the game ends"]
    if kind == "leftover":
        money = CURRENCY_NAMES[p[0]]
        fate = f"goes to {name(seat)} (most {money})" if seat is not None else f"stays (tie for most {money})"
        return [f"Leftover {tile_words(p[1])} in slot {p[0] + 1} {fate}"]
    return [line]


# ----------------------------------------------------------------------------------------------------------
# Turning what a person types into the engine's text forms

_COORD = re.compile(r"(-?\d+)\s*[,;]\s*(-?\d+)")
_IS_COORD = re.compile(r"-?\d+,-?\d+$")
_IS_CARD = re.compile(rf"[{CURRENCY_LETTERS}][1-9c]$")     # a card, or a coin (gc) of the Change module
# A tile as the market and the cities show it (``gar33``, ``pav 5``): its id.
_TILE_LABEL = re.compile(rf"\b(?:{'|'.join(sorted(set(ABBREV.values())))})\s*(\d+)\b")
#: the modules' actions, typed as the engine writes them (``figures garden seraglio tower``, ``done``): every
#: module's, so that a move of a module not in play reads as the engine's refusal, not as an unknown word
MODULE_VERBS = tuple(dict.fromkeys(v for m in MODULES for v in m.verbs))
VERBS = {"take": "take", "t": "take", "get": "take", "buy": "buy", "place": "place", "put": "place",
         "p": "place", "build": "build", "remove": "remove", "rm": "remove", "reserve": "reserve",
         "swap": "swap", "pass": "pass", "dirk": "dirk", "give": "dirk",
         **{v: v for v in MODULE_VERBS}}


def normalize(text: str) -> list[str]:
    """Tokens of a command: lower case, ``(1, -2)`` -> ``1,-2``, tiles as shown (``gar33``) -> ``#33``, other
    commas and brackets dropped.

    >>> normalize("buy gar33 g4 g3")
    ['buy', '#33', 'g4', 'g3']
    """
    t = _TILE_LABEL.sub(r"#\1", text.strip().lower())
    t = re.sub(r"[()\[\]]", " ", t)
    t = _COORD.sub(lambda m: f"{m.group(1)},{m.group(2)}", t)
    t = re.sub(r",(?!-?\d)|(?<!\d),", " ", t)
    return t.split()


def candidates(tokens: list[str], state: Any) -> list[str]:
    """Engine text forms the tokens may mean, most likely first (the engine decides which one is legal)."""
    verb = VERBS.get(tokens[0], tokens[0])
    args = tokens[1:]
    pending = list(state.pending())
    reserve = list(state.reserve(state.current_player))
    out: list[str] = []
    if verb == "buy" and args and args[0].startswith("#"):  # buy gar33 g4 g3: a tile as the market shows it
        tile, market = int(args[0][1:]), list(state.market())
        if tile not in market:
            raise InputError(f"Tile {tile} is not in the market (type 'table' to see it).")
        return [" ".join(["buy", str(market.index(tile) + 1), *args[1:]])]
    args = [a.lstrip("#") for a in args]
    if verb == "take":
        out.append(" ".join(["take", *args]))
    elif verb == "buy":
        if args and _IS_CARD.match(args[0]):              # buy g4 g3: the slot of the cards' currency
            out.append(f"buy {CURRENCY_LETTERS.index(args[0][0]) + 1} " + " ".join(args))
        elif args and args[0].isdigit():
            n = int(args[0])
            if 1 <= n <= 4:
                out.append("buy " + " ".join(args))
            market = list(state.market())
            if n in market:                               # buy 33 g4 g3: the slot holding tile 33
                out.append(f"buy {market.index(n) + 1} " + " ".join(args[1:]))
        if not out:
            out.append("buy " + " ".join(args))
    elif verb in ("place", "build"):
        if len(args) == 1:                                # place 1,-2 / place reserve with a single tile
            single = pending if verb == "place" and pending else reserve
            if len(single) == 1:
                args = [str(single[0]), *args]
        other = "build" if verb == "place" else "place"
        out += [" ".join([verb, *args]), " ".join([other, *args])]
    elif verb == "reserve":
        if len(args) == 1 and _IS_COORD.match(args[0]):  # reserve 1,-2: city tile to the reserve
            out.append(f"remove {args[0]}")
        elif len(args) == 1:                             # reserve 17: bought tile to the reserve
            out.append(f"place {args[0]} reserve")
        elif not args and len(pending) == 1:
            out.append(f"place {pending[0]} reserve")
        else:
            out.append("remove " + " ".join(args))
    elif verb == "dirk":
        args = [a for a in args if a != "dirk"]
        if not args and len(pending) == 1:
            args = [str(pending[0])]
        out.append("place " + " ".join(args) + " dirk")
    elif verb in ("remove", "swap", "pass", *MODULE_VERBS):
        out.append(" ".join([verb, *args]))
    return out


def resolve(state: Any, text: str) -> int:
    """The legal action code meant by ``text``; raises InputError with one clear message otherwise."""
    tokens = normalize(text)
    if not tokens:
        raise InputError("Type a move, or 'moves' for the list of legal moves, or 'help'.")
    if tokens[0] not in VERBS and tokens[0] not in VERBS.values():
        raise InputError(f"Unknown command '{tokens[0]}'. Type 'help' for the commands, "
                         "'moves' for the legal moves.")
    legal = set(state.legal_actions())
    errors: list[str] = []
    readings = candidates(tokens, state)
    for cand in readings:
        try:
            code = state.parse_action(cand)
            if code not in legal:
                state.clone().apply(code)   # e.g. an overpayment: legal, though not listed
            return code
        except Exception as exc:  # the engine's reason (IllegalActionError / ValueError)
            errors.append(_ILLEGAL_PREFIX.sub("", str(exc)) or type(exc).__name__)
    # Of several readings (place = place or build), the one that failed for a reason other than "wrong
    # tile source" says best what is wrong.
    useful = [e for e in errors if "is not pending" not in e and "not in your reserve" not in e]
    reason = (useful or errors or ["that is not a move"])[0]
    extra = ""
    if readings and readings[0].startswith("place ") and state.phase == "action" and state.pending():
        extra = " You paid exactly, so take your extra action first; bought tiles are placed after it."
    raise InputError(f"Not possible: {reason}.{extra} Type 'moves' to see the legal moves.")


_ILLEGAL_PREFIX = re.compile(r"^illegal action '[^']*': ")
