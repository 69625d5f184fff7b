"""Step through a stored game record (docs/design.md "Game record") in text.

Uses ``alhambra_ai.render.render_table`` for the table when it exists, else a plain summary.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TextIO

from .config import BadInput


def load_record(path: str | Path) -> dict:
    """The record in ``path``; BadInput (one line) for a missing or foreign file."""
    path = Path(path)
    try:
        record = json.loads(path.read_text())
    except OSError:
        raise BadInput(f"cannot read game record {path}") from None
    except ValueError:
        raise BadInput(f"{path} is not a JSON game record") from None
    if not isinstance(record, dict) or record.get("format") != "alhambra-ai-record":
        raise BadInput(f"{path} is not an alhambra-ai game record (no \"format\": \"alhambra-ai-record\")")
    for key in ("num_players", "seed", "actions"):
        if key not in record:
            raise BadInput(f"{path}: the record has no {key!r}")
    return record


def steps(record: dict) -> Iterator[tuple[int, int, str, object]]:
    """Yield (-1, -1, "", state after setup), then (move index, seat, action text, state after the move)
    for each move; BadInput if a move does not apply. The same State object is yielded each time."""
    from alhambra_ai import new_game

    try:
        state = new_game(record["num_players"], record["seed"], record.get("options") or None)
    except (TypeError, ValueError) as e:
        raise BadInput(f"the record's game cannot be set up: {e}") from None
    yield -1, -1, "", state
    for i, text in enumerate(record["actions"]):
        seat = state.current_player
        try:
            state.apply(text)
        except Exception as e:  # the engine's message says why
            raise BadInput(f"move {i + 1} ({text!r}) does not apply: {e}") from None
        yield i, seat, text, state


def forfeit_details(record: dict, path: str | Path | None) -> list[dict]:
    """The forfeits of the game, with reason and move when the tournament's results.jsonl is at hand
    (OUT/games/ID.json -> OUT/results.jsonl), else just the seats the record lists."""
    seats = [f if isinstance(f, int) else f.get("seat") for f in record.get("forfeits", [])]
    if path is not None:
        from .store import StoreError, load_results

        try:
            results = load_results(Path(path).resolve().parent.parent)
        except (OSError, StoreError):
            results = []
        game = Path(path).stem
        for r in results:
            if r.get("game") == game and r.get("seed") == record.get("seed"):
                return r.get("forfeits", [])
    return [{"seat": s} for s in seats if isinstance(s, int)]


def table_text(state, seat: int, names: list[str]) -> str:
    try:
        from alhambra_ai.render import render_table
    except ImportError:
        return plain_table(state, names)
    return render_table(state, max(seat, 0), names=names)


def plain_table(state, names: list[str]) -> str:
    """A minimal table: market, display, and per seat score, hand size, reserve and city."""
    lines = [f"market {state.market()}  display {state.display()}  draw pile {state.draw_pile_size}"]
    for s in range(state.num_players):
        lines.append(f"seat {s + 1} ({names[s]}): score {state.scores()[s]}, {state.hand_size(s)} cards, "
                     f"reserve {state.reserve(s)}")
        lines.append(f"    city {state.city(s).to_text()}")
    return "\n".join(lines)


def replay(record: dict, out: TextIO, step: bool = False, wait: Callable[[], str] = input,
           path: str | Path | None = None) -> None:
    """Print the game move by move; with ``step``, show the table after each move and wait for Enter
    (``q`` quits). ``path``: where the record was read from (to find the forfeit reasons)."""
    names = list(record.get("seats") or [f"seat {k + 1}" for k in range(record["num_players"])])
    forfeits = forfeit_details(record, path)
    stand_in = {f["seat"]: f.get("move", 0) for f in forfeits}
    print(f"game: {record['num_players']} players, seed {record['seed']}: "
          + ", ".join(f"seat {k + 1} {n}" for k, n in enumerate(names)), file=out)
    for f in forfeits:
        when = f" at move {f['move'] + 1}" if "move" in f else ""
        why = f": {f['reason']}" if "reason" in f else ""
        print(f"  {names[f['seat']]} forfeited{when}{why}; the referee's stand-in played its seat", file=out)
    state, seen = None, 0
    for i, seat, text, state in steps(record):
        if i < 0:
            seen = len(state.history)
            print("setup: " + "; ".join(state.history), file=out)
            continue
        mark = " (stand-in)" if seat in stand_in and i >= stand_in[seat] else ""
        print(f"{i + 1:4}. seat {seat + 1} ({names[seat]}{mark}): {text}", file=out)
        history = state.history
        for event in history[seen:]:
            if not event.startswith(f"seat {seat + 1}: "):
                print(f"        {event}", file=out)
        seen = len(history)
        if step:
            print(table_text(state, state.current_player, names), file=out)
            out.flush()
            if wait().strip().lower() in ("q", "quit"):
                return
    print(table_text(state, 0, names), file=out)
    scores = state.scores()
    print("final scores: " + ", ".join(f"{names[k]} {s}" for k, s in enumerate(scores)), file=out)
    if "scores" in record and list(record["scores"]) != list(scores):
        raise BadInput(f"the replay scores {scores} differ from the record's {record['scores']}")
