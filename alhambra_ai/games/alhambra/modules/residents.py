"""The Residents (rules.md §9.8): each seat's disc of secret figures; a figure moves into the building that
lifts the disc.

>>> len(FIGURES), MODULE.attributes["figures"] is FIGURES
(20, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any

from alhambra_ai._core import TYPE_NAMES, tile_info
from alhambra_ai.games.alhambra.modules.parts import DONE, Command, Module, done_index
from alhambra_ai.terminal.text import ABBREV, seat_name, short_seat, tile_words

if TYPE_CHECKING:
    from alhambra_ai.env.parts import Block, Field, View
    from alhambra_ai.env.spaces import ActionSpace, ObservationEncoder

#: the 20 choices of a disc's 3 figures as masks of the 6 types, in order (the ``figures`` block)
FIGURES = [sum(1 << t for t in c) for c in combinations(range(6), 3)]
FIGURE_INDEX = {m: i for i, m in enumerate(FIGURES)}


def _resident(state: Any, words: list[str], subject: str, verb: Callable[[str], str]) -> str:
    return f"{subject} {verb('move')} a figure from the disc into the {tile_words(int(words[1]))}"


def _exchange(state: Any, words: list[str], subject: str, verb: Callable[[str], str]) -> str:
    return f"{subject} {verb('exchange')} a disc figure ({words[1]}) for a {words[2]} of the supply"


def _disc(state: Any, words: list[str], subject: str, verb: Callable[[str], str]) -> str:
    return f"{subject} {verb('put')} the disc at {words[1]}"


def _figures(state: Any, words: list[str], subject: str, verb: Callable[[str], str]) -> str:
    if subject == "You":
        return f"You put {', '.join(words[1:])} on your disc (secret)"
    return f"{subject} {verb('choose')} 3 figures for the disc, in secret"


def _disc_where(m: Mapping[str, Any], seat: int, at: str, unset: str) -> str:
    """Where ``seat``'s disc is: its cell (``at`` formatted with x, y), ``unset`` before the set-up has put
    it, or lifted."""
    cell = m["discs"][seat]["cell"]
    return at.format(*cell) if cell is not None else unset if m.get("setup_left") else "lifted"


def hand_lines(obs: Mapping[str, Any], names: Sequence[str] | None, you: int | None) -> list[str]:
    """The seat's own disc, the residents, the figures in the supply."""
    m = obs.get("modules") or {}
    if m.get("discs") is None:
        return []
    out = []
    if you is not None:
        where = _disc_where(m, you, "at {},{}", "not set up yet")
        out.append(f"Your disc ({where}): " + (", ".join(m.get("disc") or []) or "empty"))
    res = m.get("residents") or []
    out.append("Residents: " + ", ".join(
        f"{seat_name(s, names, you)} " + (" ".join(ABBREV[tile_info(t)[0]] for t in tiles) or "-")
        for s, tiles in enumerate(res)))
    supply = m.get("supply") or []
    out.append("Figures in the supply: " + " ".join(f"{ABBREV[t]} {k}" for t, k in zip(TYPE_NAMES, supply,
                                                                                       strict=False)))
    return out


def screen_words(obs: Mapping[str, Any], names: Sequence[str] | None, you: int | None) -> list[str]:
    """The seat's disc and the residents (few words)."""
    m = obs.get("modules") or {}
    if m.get("discs") is None:
        return []
    out = []
    if you is not None:
        where = _disc_where(m, you, "{},{}", "not set")
        out.append(f"disc {where}: " + (" ".join(ABBREV.get(t, t[:3]) for t in m.get("disc") or [])
                                       or "empty"))
    res = [f"{short_seat(p, None, you)} " + " ".join(ABBREV[tile_info(t)[0]] for t in tiles)
           for p, tiles in enumerate(m.get("residents") or []) if tiles and p < obs["num_players"]]
    if res:
        out.append("residents: " + ", ".join(res))
    return out


def action_blocks(space: ActionSpace) -> list[Block]:
    return [DONE, ("resident", len(space.tiles), "tile index (the tile that lifted the disc)"),
            ("exchange", 36, "type given * 6 + type taken"),
            ("disc", space.cells, "cell"),
            ("figures", 20, "the 3 types chosen (combinations of 6 types in order)")]


def action_index(space: ActionSpace, code: int) -> int | None:
    if code & 15 != 15:
        return done_index(space, code)
    sub, off = (code >> 4) & 15, space.offset
    if sub == 1:
        return off["resident"] + space.tile_index[(code >> 8) & 255]
    if sub == 2:
        return off["exchange"] + ((code >> 8) & 7) * 6 + ((code >> 11) & 7)
    if sub == 3:
        c = space.packed_cell(code >> 8)
        return -1 if c < 0 else off["disc"] + c
    if sub == 4:
        return off["figures"] + FIGURE_INDEX[(code >> 8) & 63]
    return None


def fields(enc: ObservationEncoder) -> list[Field]:
    n, nt = enc.n, len(enc.tiles)
    return [("supply", (6,)), ("residents", (n, nt)), ("discs", (n, 16)), ("disc", (6,)),
            ("lifted", (1 + nt + 3,)), ("setup_left", (1,))]


def encode(enc: ObservationEncoder, m: dict[str, Any], v: View, rel: list[int]) -> None:
    v("supply")[:] = m["supply"]
    res = v("residents")
    for k, tiles in enumerate(m["residents"]):
        enc.mark_tiles(res[rel[k]], tiles)
    discs = v("discs")
    for k, d in enumerate(m["discs"]):
        row = discs[rel[k]]
        if d["cell"] is not None:
            row[0:3] = (1, d["cell"][0], d["cell"][1])
        for t in d["seen"]:
            row[3 + TYPE_NAMES.index(t)] += 1
        row[9] = d["hidden"]
        for t in d["gone"]:
            row[10 + TYPE_NAMES.index(t)] += 1
    for t in m.get("disc") or ():                    # the seat's own figures: the others' are secret
        v("disc")[TYPE_NAMES.index(t)] = 1
    lifted = m.get("lifted")
    if lifted:
        lv = v("lifted")
        lv[0] = 1
        lv[1 + enc.tile_index[lifted["tile"]]] = 1
        lv[1 + len(enc.tiles) + ("action", "place", "final").index(lifted["resume"])] = 1
    v("setup_left")[0] = m.get("setup_left", 0)


MODULE = Module(
    name="residents",
    commands=(Command("resident 13", "a figure moves in at tile 13; exchange garden seraglio"),
              Command("disc 1,0", "move the disc; at setup: figures garden seraglio tower")),
    verbs=("resident", "exchange", "disc", "figures", "done"),
    phases={"resident": "your disc was lifted: resident / exchange, or done",
            "disc": "put your disc on a cell: disc x,y",
            "figures": "3 secret figures: figures <3 types>"},
    describe={"resident": _resident, "exchange": _exchange, "disc": _disc, "figures": _figures},
    hand_lines=hand_lines, screen_words=screen_words, score_column=("residents", "res"),
    attributes={"figures": FIGURES, "figure_index": FIGURE_INDEX},
    action_blocks=action_blocks, action_index=action_index, cell_blocks=("disc",), fields=fields,
    encode=encode,
    public_fields=("supply", "residents", "discs", "lifted", "setup_left"),
    pieces=(("resident", "resident (white figure on its building)"),
            ("disc", "disc: figures seen arrive in colour, ? = still secret, struck = known gone")),
    script="modules/residents.js",
)
