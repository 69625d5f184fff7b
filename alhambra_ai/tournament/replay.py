"""Step through a game record (docs/formats.md "Game record") in text: ``alhambra-ai replay RECORD``.

Any record works: a tournament's OUT/games/ID.json or a ``record.save_record`` file. The record is read and
replayed by ``alhambra_ai.record`` (``load_record``, ``steps``); the table is ``render.render_table``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from alhambra_ai.record import check_final_scores, steps
from alhambra_ai.render import render_table


def replay(record: dict, out: TextIO, step: bool = False, wait: Callable[[], str] = input) -> None:
    """Print the game move by move, then the final table and scores; with ``step``, show the table after
    each move and wait for Enter (``q`` quits). Raises RecordError for a move that does not replay or final
    scores that differ from the record's."""
    names = list(record.get("seats") or [f"seat {k + 1}" for k in range(record["num_players"])])
    forfeits = record.get("forfeits", [])
    stand_in = {f["seat"]: f.get("move", 0) for f in forfeits}
    print(f"game: {record['num_players']} players, seed {record['seed']}: "
          + ", ".join(f"seat {k + 1} {n}" for k, n in enumerate(names)), file=out)
    for f in forfeits:
        when = f" at move {f['move'] + 1}" if "move" in f else ""
        why = f": {f['reason']}" if "reason" in f else ""
        print(f"  {names[f['seat']]} forfeited{when}{why}; the referee's stand-in played its seat", file=out)
    seen = 0
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
            print(render_table(state, max(state.current_player, 0), names=names), file=out)
            out.flush()
            if wait().strip().lower() in ("q", "quit"):
                return
    print(render_table(state, 0, names=names), file=out)
    scores = state.scores()
    print("final scores: " + ", ".join(f"{names[k]} {s}" for k, s in enumerate(scores)), file=out)
    check_final_scores(record, state)
