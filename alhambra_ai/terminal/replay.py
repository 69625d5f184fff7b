"""Step through a game record (docs/formats.md "Game record") in text: ``alhambra-ai replay RECORD``.

Any record works: a tournament's OUT/games/ID.json or a ``record.save_record`` file. The record is read and
replayed by ``alhambra_ai.formats.record`` (``load_record``, ``steps``); the table is the game's
``spectator`` view (the registry's).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from alhambra_ai.formats.record import check_final_scores, steps
from alhambra_ai.registry import game_of
from alhambra_ai.terminal.text import WIDTH, wrap


def spectator_table(state, names: list[str], width: int = WIDTH) -> str:
    """The table as a spectator of a finished record sees it: every hand, seats by name, nobody "you"."""
    return game_of(state).hook("spectator")(state, names, width)


def final_scores(state, names: list[str]) -> str:
    """``final scores: greedy 41, random 12, Dirk 30`` (Dirk only in 2-player games)."""
    text = "final scores: " + ", ".join(f"{names[k]} {s}" for k, s in enumerate(state.scores()))
    return text + (f", Dirk {state.dirk_score}" if state.dirk_score is not None else "")


def replay(record: dict, out: TextIO, step: bool = False, wait: Callable[[str], str] = input,
           width: int = WIDTH, prompt: bool = False) -> None:
    """Print the game move by move, then the final table and scores; with ``step``, show the table after
    each move and wait for Enter (``q`` quits), saying so at each pause when ``prompt`` (a person at a
    terminal; not into a pipe). Lines fit ``width`` columns. Raises RecordError for a move that does not
    replay or final scores that differ from the record's."""
    names = list(record.get("seats") or [f"seat {k + 1}" for k in range(record["num_players"])])
    forfeits = record.get("forfeits", [])
    stand_in = {f["seat"]: f.get("move", 0) for f in forfeits}
    def say(text: str, indent: str = "        ") -> None:
        print("\n".join(wrap(text, width, indent=indent)), file=out)

    say(f"game: {record['num_players']} players, seed {record['seed']}: "
        + ", ".join(f"seat {k + 1} {n}" for k, n in enumerate(names)), indent="  ")
    for f in forfeits:
        when = f" at move {f['move'] + 1}" if "move" in f else ""
        why = f": {f['reason']}" if "reason" in f else ""
        say(f"  {names[f['seat']]} forfeited{when}{why}; the referee's stand-in played its seat")
    seen = 0
    for i, seat, text, state in steps(record):
        if i < 0:
            seen = len(state.history)
            say("setup: " + "; ".join(state.history))
            continue
        mark = " (stand-in)" if seat in stand_in and i >= stand_in[seat] else ""
        say(f"{i + 1:4}. seat {seat + 1} ({names[seat]}{mark}): {text}")
        history, events = state.history, state.events
        for line, event in zip(history[seen:], events[seen:], strict=True):
            if not (event["seat"] == seat and event["kind"] in ("action", "secret")):
                say(f"        {line}")
        seen = len(history)
        if step:
            print(spectator_table(state, names, width), file=out)
            out.flush()
            pause = f"[move {i + 1}/{len(record['actions'])}: Enter next, q quit] " if prompt else ""
            if wait(pause).strip().lower() in ("q", "quit"):
                return
    print(spectator_table(state, names, width), file=out)
    say(final_scores(state, names))
    check_final_scores(record, state)
