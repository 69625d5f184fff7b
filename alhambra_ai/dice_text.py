"""Text board of the dice games (Alhambra: The Dice Game, Alcazaba) for replay and play.

>>> from alhambra_ai import new_game
>>> s = new_game(2, 1, game="dice"); s.apply("roll")
>>> "dice:" in render(s) and "pavilion" in render(s)
True
"""

from __future__ import annotations

TYPES = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")


def _who(owner, names: list[str]) -> str:
    return "Dirk" if owner == "dirk" else names[owner]


def _field(i: int) -> str:
    """Field index v - 1 as count/rolls, e.g. 5/3."""
    return f"{i // 3 + 1}/{3 - i % 3}"


def render(state, names: list[str] | None = None) -> str:
    """The public board: round, dice with their positions, columns best field first, bonus tiles or column
    tiles, building points (basic game) or cities (Alcazaba), scores."""
    n = state.num_players
    names = list(names or [f"seat {k + 1}" for k in range(n)])
    rows = list(range(n)) + (["dirk"] if n == 2 else [])
    lines = [f"{state.game}: round {state.round}, start player {names[state.start_player]}, "
             + ("game over" if state.is_terminal() else
                f"{names[state.current_player]} to act ({state.phase}, {state.rolls} rolls made)")]
    dice, black = state.dice()
    if any(f is not None for f in dice):
        lines.append("dice: " + "  ".join(f"{k + 1}:{TYPES[f]}" for k, f in enumerate(dice) if f is not None)
                     + (f"  black:{TYPES[black]}" if black is not None else ""))
    for t in range(6):
        col = state.column(t)
        markers = [f"{_field(i)} {_who(o, names)}" for i in range(23, -1, -1) if (o := col[i]) is not None]
        if state.game == "dice":
            extra = f"[{state.bonus_fields()[t] or '-'}]"
        else:
            extra = "[" + " ".join(str(x) for x in state.column_items(t)) + "]"
        lines.append(f"  {TYPES[t]:9} {extra:16} " + (", ".join(markers) or "no markers"))
    for row in rows:
        who = _who(row, names)
        if state.game == "dice":
            tiles = ", ".join(f"{k} x{v}" if v > 1 else k for k, v in state.bonus_tiles(row).items())
            lines.append(f"  {who:12} points " + " ".join(f"{p:2}" for p in state.building_points(row))
                         + (f"   tiles: {tiles}" if tiles else ""))
        elif row == "dirk":
            lines.append(f"  {who:12} tiles: " + (" ".join(map(str, state.dirk_tiles())) or "-"))
        else:
            lines.append(f"  {who:12} city: {state.city(row).to_text()}   reserve: "
                         + (" ".join(map(str, state.reserve(row))) or "-"))
    lines.append("scores: " + ", ".join(f"{names[k]} {v}" for k, v in enumerate(state.scores()))
                 + (f", Dirk {state.dirk_score}" if state.dirk_score is not None else ""))
    return "\n".join(lines)
