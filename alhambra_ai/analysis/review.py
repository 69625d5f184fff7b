"""A game record reviewed move by move by the strongest bot (``alhambra-ai analyse``).

For every decision of the chosen seats (a move with more than one legal choice, played by the seat's own bot
or player, not by a forfeit's stand-in) the record is replayed to that moment and the game's ``analysis``
part (the registry's: the strongest bot's search, ``games/*/analysis.py``) is run on
``state.observation(seat)``, never on more than the seat knew. Each decision gets the position's value for
the seat (its expected final margin in points: its points minus the best other seat's; and a win chance),
the move the search prefers, the value of the move played and the **loss**, the preferred move's value minus
the played one's (0 when the played move scores as well or better). A loss of at least ``THRESHOLDS``
points marks the move as an inaccuracy, a mistake or a blunder (docs/bots.md "Analysis" says how they were
calibrated); each seat gets its mean loss per decision, its counts of marks and its worst moves.

Decisions run in worker processes (``jobs``) in any order; each finished one is appended to a JSON-lines
cache (``cache_path``), so an interrupted analysis continues where it stopped, and the report is assembled
in move order: the same bytes for any ``jobs`` when the search is deterministic (``iterations`` and a seed).

(games/dice/analysis.py shows one, on a few moves of a dice game.)
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alhambra_ai import registry
from alhambra_ai.errors import BadInput
from alhambra_ai.formats.record import RecordError, steps

FORMAT = "alhambra-ai-analysis"
VERSION = 1
CACHE_FORMAT = "alhambra-ai-analysis-cache"

#: loss in points (of the expected final margin) from which a move is an inaccuracy, a mistake, a blunder
#: (docs/bots.md "Analysis": mcts at 10,000 iterations marks ~1% of its own moves at 10,000 iterations an
#: inaccuracy and none worse; greedy's moves 18% / 8% / 0.8% in the base game, 18-24% / 9-12% / 1-4% in the
#: others): the same in every game of the family
THRESHOLDS: tuple[float, float, float] = (3.0, 6.0, 12.0)
MARKS = ("inaccuracy", "mistake", "blunder")
SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
WORST = 3            # worst moves per seat in the summary
DEFAULT_MOVE_TIME = 0.5


@dataclass(frozen=True)
class Settings:
    """How each decision is searched: ``iterations`` (deterministic for a seed) or ``move_time`` seconds."""

    iterations: int | None = None
    move_time: float | None = None
    seed: int = 0

    def stored(self, game: str) -> dict[str, Any]:
        """What a cache must match to be continued (the seats chosen may differ: entries are per decision)."""
        return {"bot": registry.get(game).strongest, "iterations": self.iterations,
                "move_time": None if self.iterations else self.move_time, "seed": self.seed}


@dataclass(frozen=True)
class Task:
    """One decision to search: the move's index in the record, the seat, its observation, the move played."""

    move: int
    seat: int
    obs: dict
    played: int
    text: str
    turn: int


def record_key(record: dict) -> str:
    """A digest of the game itself (game, players, seed, options, actions): the same for any file layout."""
    core = {k: record.get(k) for k in ("game", "num_players", "seed", "options", "actions")}
    core["game"] = core["game"] or registry.DEFAULT
    return hashlib.sha256(json.dumps(core, sort_keys=True).encode()).hexdigest()


def parse_seats(text: str | None, record: dict) -> tuple[int, ...]:
    """``--seats``: seat numbers (0-based) or the record's seat names, comma-separated; None: every seat.

    >>> parse_seats("1,alice", {"num_players": 3, "seats": ["alice", "bob", "eve"]})
    (0, 1)
    >>> parse_seats("3", {"num_players": 3})
    Traceback (most recent call last):
    ...
    alhambra_ai.errors.BadInput: --seats: no seat '3' in this 3-player game (seats 0-2 or their names)
    """
    n = int(record["num_players"])
    if text is None:
        return tuple(range(n))
    names = list(record.get("seats") or [])
    chosen: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        if part.isdigit() and int(part) < n:
            chosen.add(int(part))
        elif part in names:
            chosen.add(names.index(part))
        else:
            raise BadInput(f"--seats: no seat {part!r} in this {n}-player game "
                           f"(seats 0-{n - 1} or their names)")
    return tuple(sorted(chosen))


def decisions(record: dict, seats: Iterable[int]) -> tuple[list[Task], dict[str, int]]:
    """The decisions of ``seats`` in the record, each with the seat's observation before it, and counts of
    the seats' moves left out: ``forced`` (one legal move) and ``stand_in`` (played after a forfeit)."""
    seats = set(seats)
    stand_in = {f["seat"]: f.get("move", 0) for f in record.get("forfeits") or []}
    tasks: list[Task] = []
    skipped = {"forced": 0, "stand_in": 0}
    state = None
    for i, seat, text, after in steps(record):
        if i < 0:
            state = after.clone()
            continue
        assert state is not None
        if seat in seats:
            legal = state.legal_actions()
            if seat in stand_in and i >= stand_in[seat]:
                skipped["stand_in"] += 1
            elif len(legal) < 2:
                skipped["forced"] += 1
            else:
                obs = state.observation(seat)
                tasks.append(Task(i, seat, obs, state.parse_action(text), text, int(obs.get("turn") or 0)))
        state = after.clone()
    return tasks, skipped


def _r(x: float | None) -> float | None:
    return None if x is None else round(float(x), 2) + 0.0     # (+ 0.0: no "-0.0")


def mark_of(loss: float | None) -> str | None:
    """The mark of a loss in points (None below the first threshold)."""
    if loss is None:
        return None
    out = None
    for name, limit in zip(MARKS, THRESHOLDS, strict=True):
        if loss >= limit - 1e-9:
            out = name
    return out


def analyse_task(task: Task, settings: Settings) -> dict[str, Any]:
    """One decision's entry of the report (the ``decisions`` of docs/formats.md "Analysis")."""
    game = registry.game_of(task.obs)
    found = game.hook("analysis")(task.obs, task.played, settings.seed, settings.iterations,
                                  None if settings.iterations else settings.move_time)
    value, played_value = found["value"], found["played_value"]
    same = found["best"] == task.text
    if same:
        played_value, found["played_win"] = value, found["win"]
    loss = None if played_value is None else max(0.0, value - played_value)
    win_loss = None if found["played_win"] is None else max(0.0, found["win"] - found["played_win"])
    loss = _r(loss)
    return {
        "move": task.move, "seat": task.seat, "turn": task.turn, "legal": len(task.obs["legal_actions"]),
        "played": task.text, "best": found["best"],
        "value": _r(value), "win": _r(found["win"]),
        "played_value": _r(played_value), "played_win": _r(found["played_win"]),
        "loss": loss, "win_loss": _r(win_loss), "mark": mark_of(loss),
        "played_alone": bool(found["played_alone"]), "searched": found["searched"],
        "candidates": [[t, v, _r(m), _r(w)] for t, v, m, w in found["candidates"]],
    }


def _work(job: tuple[Task, Settings]) -> dict[str, Any]:
    return analyse_task(*job)


def default_cache(record: dict, out: str | os.PathLike | None) -> Path:
    """Where an analysis keeps its finished decisions: beside ``--json FILE`` (``FILE.partial.jsonl``), else
    in the user's cache folder (``$XDG_CACHE_HOME/alhambra-ai/analyse/``), named by the game's digest."""
    if out is not None:
        return Path(f"{os.fspath(out)}.partial.jsonl")
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "alhambra-ai" / "analyse" / f"{record_key(record)[:20]}.jsonl"


def read_cache(path: Path, header: dict) -> tuple[dict[int, dict], dict | None]:
    """The cached entries by move, if ``path`` holds an analysis of the same game and settings (a last line
    cut short by an interruption is dropped), and the header it has (None: no usable cache)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return {}, None
    entries: dict[int, dict] = {}
    try:
        first = json.loads(lines[0]) if lines else None
    except json.JSONDecodeError:
        return {}, None
    if not isinstance(first, dict) or first.get("format") != CACHE_FORMAT:
        return {}, None
    for line in lines[1:]:
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            break
        if isinstance(entry, dict) and isinstance(entry.get("move"), int):
            entries[entry["move"]] = entry
    same = {k: first.get(k) for k in header} == header
    return (entries if same else {}), first


def stored_seed(path: Path) -> int | None:
    """The seed of the analysis cached at ``path`` (a run without --seed continues with it), if any."""
    _entries, first = read_cache(path, {})
    seed = (first or {}).get("settings", {}).get("seed")
    return seed if isinstance(seed, int) else None


def _write_cache(path: Path, header: dict, entries: Sequence[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(json.dumps(header) + "\n")
        for e in entries:
            f.write(json.dumps(e) + "\n")
    os.replace(tmp, path)


def check_settings(settings: Settings, jobs: int = 1) -> None:
    """BadInput for a budget or a job count that cannot be used."""
    if settings.iterations is not None and settings.iterations < 1:
        raise BadInput(f"--iterations must be at least 1, not {settings.iterations}")
    if settings.move_time is not None and not settings.move_time > 0:
        raise BadInput(f"--move-time must be more than 0 seconds, not {settings.move_time}")
    if jobs < 1:
        raise BadInput(f"--jobs must be at least 1, not {jobs}")


def analyse(record: dict, settings: Settings, seats: Iterable[int] | None = None, jobs: int = 1,
            cache_path: Path | None = None, bar: Any = None,
            note: Callable[[str], None] | None = None,
            on_entry: Callable[[dict], None] | None = None) -> dict[str, Any]:
    """The analysis of a (checked) record as the JSON document of docs/formats.md "Analysis".

    ``seats``: the seats whose decisions are searched (default: all); ``jobs``: worker processes;
    ``cache_path``: the JSON-lines file that keeps finished decisions (continued if it holds the same game
    and settings, started afresh otherwise, removed by the caller once the report is written); ``bar``: a
    tqdm bar (total and progress set here); ``note``: where to say that a cache was continued or replaced;
    ``on_entry``: called with each finished decision (tests stop a run there).
    """
    game = registry.get(record.get("game", registry.DEFAULT))
    if settings.iterations is None and settings.move_time is None:
        settings = Settings(None, DEFAULT_MOVE_TIME, settings.seed)
    check_settings(settings, jobs)
    chosen = tuple(sorted(set(range(record["num_players"]) if seats is None else seats)))
    for seat in chosen:
        if not 0 <= seat < record["num_players"]:
            raise BadInput(f"--seats: no seat {seat} in this {record['num_players']}-player game")
    tasks, skipped = decisions(record, chosen)
    key = record_key(record)
    header = {"format": CACHE_FORMAT, "version": VERSION, "record": key,
              "settings": settings.stored(game.name)}
    cached: dict[int, dict] = {}
    if cache_path is not None:
        cached, found = read_cache(cache_path, header)
        if found is not None and {k: found.get(k) for k in header} != header and note:
            note(f"{cache_path}: another game or other settings; analysing afresh")
        done_here = sum(1 for t in tasks if t.move in cached)
        if done_here and note:
            note(f"{cache_path}: continuing, {done_here} of {len(tasks)} decisions already analysed")
        _write_cache(cache_path, header, [cached[m] for m in sorted(cached)])
    todo = [t for t in tasks if t.move not in cached]
    if bar is not None:
        bar.reset(total=len(tasks))
        bar.update(len(tasks) - len(todo))
    handle = open(cache_path, "a", encoding="utf-8") if cache_path is not None else None
    try:
        for entry in _run(todo, settings, jobs):
            cached[entry["move"]] = entry
            if handle is not None:
                handle.write(json.dumps(entry) + "\n")
                handle.flush()
            if bar is not None:
                bar.update(1)
            if on_entry is not None:
                on_entry(entry)
    finally:
        if handle is not None:
            handle.close()
    entries = [cached[t.move] for t in tasks]
    return _report(record, game, settings, chosen, entries, skipped)


def _run(todo: list[Task], settings: Settings, jobs: int) -> Iterable[dict]:
    """The entries of ``todo`` as they finish (in order with one job)."""
    if jobs == 1 or len(todo) < 2:
        for t in todo:
            yield analyse_task(t, settings)
        return
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    pool = multiprocessing.get_context(method).Pool(min(jobs, len(todo)), initializer=_worker_start)
    try:
        yield from pool.imap_unordered(_work, [(t, settings) for t in todo], chunksize=1)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _worker_start() -> None:
    """A worker leaves Ctrl-C to the parent, which stops the pool (no traceback from every worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _report(record: dict, game: registry.Game, settings: Settings, seats: tuple[int, ...],
            entries: list[dict], skipped: dict[str, int]) -> dict[str, Any]:
    names = list(record.get("seats") or [f"seat {k}" for k in range(record["num_players"])])
    summary = []
    for seat in seats:
        mine = [e for e in entries if e["seat"] == seat]
        losses = [e["loss"] for e in mine if e["loss"] is not None]
        worst = sorted((e for e in mine if e["loss"]), key=lambda e: (-e["loss"], e["move"]))[:WORST]
        summary.append({
            "seat": seat, "name": names[seat], "decisions": len(mine),
            "mean_loss": _r(sum(losses) / len(losses)) if losses else None,
            "total_loss": _r(sum(losses)),
            "mean_win_loss": _r(_mean(e["win_loss"] for e in mine)),
            **{m + "s" if m != "inaccuracy" else "inaccuracies": sum(1 for e in mine if e["mark"] == m)
               for m in MARKS},
            "worst": [e["move"] for e in worst],
        })
    low, mid, high = THRESHOLDS
    return {
        "format": FORMAT, "version": VERSION,
        "record": {"game": game.name, "num_players": record["num_players"], "seed": record["seed"],
                   "options": record["options"], "seats": names, "moves": len(record["actions"]),
                   "scores": record.get("scores"), "digest": record_key(record)},
        "settings": {**settings.stored(game.name), "seats": list(seats)},
        "thresholds": {"inaccuracy": low, "mistake": mid, "blunder": high},
        "skipped": skipped,
        "decisions": entries,
        "summary": summary,
    }


def _mean(xs: Iterable[float | None]) -> float | None:
    vals = [x for x in xs if x is not None]
    return sum(vals) / len(vals) if vals else None


def report_json(report: dict) -> str:
    """The report as written to ``--json FILE``: indented, each decision on one line."""
    parts = []
    for key, value in report.items():
        if key in ("decisions", "summary") and value:
            lines = ",\n".join("  " + json.dumps(e) for e in value)
            parts.append(f' {json.dumps(key)}: [\n{lines}\n ]')
        else:
            parts.append(f" {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def load_report(path: str | os.PathLike) -> dict:
    """Read an analysis written by ``analyse --json`` (BadInput for another file)."""
    try:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as e:
        raise BadInput(f"{path}: not an analysis ({e})") from None
    if not isinstance(report, dict) or report.get("format") != FORMAT or report.get("version") != VERSION:
        raise BadInput(f"{path}: not an analysis of version {VERSION}")
    return report


# ---------------------------------------------------------------- text


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(1, width - 1)] + "~"


def _signed(x: float | None) -> str:
    return "" if x is None else f"{round(x, 1) + 0.0:+.1f}"


def _pct(x: float | None) -> str:
    return "" if x is None else f"{100 * x:.0f}%"


def report_text(report: dict, width: int = 80, all_moves: bool = True) -> str:
    """The report as text of at most ``width`` (>= 60) columns: a header, one line per decision (all of
    them, or only the marked ones), the marks' legend and each seat's summary with its worst moves."""
    width = max(60, width)
    rec, st, th = report["record"], report["settings"], report["thresholds"]
    names = rec["seats"]
    title = registry.get(rec["game"]).title
    mods = ", ".join(k for k, v in sorted(rec["options"].items()) if v)
    how = f"--iterations {st['iterations']}" if st["iterations"] else f"{st['move_time']:g} s per decision"
    out = [_fit(f"{title}, {rec['num_players']} players, seed {rec['seed']}" + (f", {mods}" if mods else "")
                + f": {rec['moves']} moves", width),
           _fit("Seats: " + ", ".join(f"{k} {name}" for k, name in enumerate(names)), width),
           _fit(f"Analysed by {st['bot']}, {how}, seed {st['seed']}.", width),
           _fit("value: expected final margin (points) before the move; win: the win chance", width),
           _fit(f"loss: points given up; ?! inaccuracy >= {th['inaccuracy']:g}, "
                f"? mistake >= {th['mistake']:g}, ?? blunder >= {th['blunder']:g}", width), ""]
    move_w = (width - 35) // 2
    head = (f"{'move':>5} {'seat':>4} {'played':<{move_w}} {'value':>6} {'win':>4} "
            f"{'preferred':<{move_w}} {'loss':>6}")
    out.append(head.rstrip())
    shown = [d for d in report["decisions"] if all_moves or d["mark"]]
    for d in shown:
        best = "" if d["best"] == d["played"] else d["best"]
        loss = "" if d["loss"] is None or d["best"] == d["played"] else f"{d['loss']:.1f}"
        sign = SIGNS.get(d["mark"] or "", "")
        line = (f"{d['move']:>5} {d['seat']:>4} {_fit(d['played'], move_w):<{move_w}} "
                f"{_signed(d['value']):>6} {_pct(d['win']):>4} {_fit(best, move_w):<{move_w}} "
                f"{loss:>6} {sign}")
        out.append(line.rstrip())
    if not shown:
        out.append("  (no decisions)" if all_moves else "  (no marked moves)")
    skipped = report.get("skipped") or {}
    if skipped.get("forced") or skipped.get("stand_in"):
        out.append(_fit(f"Not analysed: {skipped.get('forced', 0)} forced moves (one legal move)"
                        + (f", {skipped['stand_in']} played by a stand-in after a forfeit"
                           if skipped.get("stand_in") else ""), width))
    label_w = min(24, max([len(f"{s['seat']} {s['name']}") for s in report["summary"]] + [4]))
    out += ["", "Summary: loss per decision in points, and the marked moves", ""]
    out.append(f"{'seat':<{label_w}} {'decisions':>9} {'mean loss':>9} {'?!':>4} {'?':>4} {'??':>4}")
    by_move = {d["move"]: d for d in report["decisions"]}
    for s in report["summary"]:
        mean = "" if s["mean_loss"] is None else f"{s['mean_loss']:.2f}"
        label = _fit(f"{s['seat']} {s['name']}", label_w)
        out.append(f"{label:<{label_w}} {s['decisions']:>9} {mean:>9} {s['inaccuracies']:>4} "
                   f"{s['mistakes']:>4} {s['blunders']:>4}")
    for s in report["summary"]:
        if not s["worst"]:
            continue
        out += ["", _fit(f"Worst moves of {s['seat']} {s['name']}:", width)]
        for m in s["worst"]:
            d = by_move[m]
            sign = SIGNS.get(d["mark"] or "", "")
            out.append(_fit(f"  move {m}, turn {d['turn']}: {d['played']}{' ' + sign if sign else ''}, "
                            f"loses {d['loss']:.1f} points"
                            + (f", win -{100 * d['win_loss']:.0f}%" if d["win_loss"] else ""),
                            width))
            out.append(_fit(f"    preferred: {d['best']} (value {_signed(d['value'])}, win {_pct(d['win'])})",
                            width))
    return "\n".join(out) + "\n"


def costliest_text(report: dict, seat: int, width: int = 80, count: int = 12) -> str:
    """One seat's costliest moves, worst first, one line each, under two lines of totals: the end screen of
    ``play`` (``analyse`` in the review), at most ``count`` + 2 lines of at most ``width`` columns."""
    st = report["settings"]
    mine = [d for d in report["decisions"] if d["seat"] == seat]
    summary = next(x for x in report["summary"] if x["seat"] == seat)
    how = f"{st['iterations']} iterations" if st["iterations"] else f"{st['move_time']:g} s"
    mean = "" if summary["mean_loss"] is None else f", mean loss {summary['mean_loss']:.2f}"
    out = [_fit(f"Your costliest moves ({st['bot']}, {how} a decision): {len(mine)} decisions{mean}", width),
           _fit(f"{summary['blunders']} ??, {summary['mistakes']} ?, {summary['inaccuracies']} ?! (blunders, "
                "mistakes, inaccuracies); loss in points", width)]
    worst = sorted((d for d in mine if d["loss"] and d["best"] != d["played"]),
                   key=lambda d: (-d["loss"], d["move"]))[:count]
    if not worst:
        out.append("  The search preferred no other move anywhere: nothing lost.")
    for d in worst:
        sign = SIGNS.get(d["mark"] or "", "  ")
        out.append(_fit(f"{sign:>2} turn {d['turn']:>3}: {d['played']} -{d['loss']:.1f}; "
                        f"preferred {d['best']}", width))
    return "\n".join(out)


def analyse_game(state: Any, seat: int, names: Sequence[str], move_time: float = 0.1,
                 seed: int = 0) -> dict:
    """The analysis of ``seat``'s decisions in the game that led to ``state`` (from ``new_game``, with its
    history recorded), in this process."""
    from alhambra_ai.formats.record import make_record

    record = make_record(state, [n or f"seat {p + 1}" for p, n in enumerate(names)])
    return analyse(record, Settings(None, move_time, seed), [seat])


def load_for_analysis(path: str | os.PathLike) -> dict:
    """A record file, checked and replayed (RecordError, a BadInput, for any problem, in one line)."""
    from alhambra_ai.formats.record import load_record, replay

    try:
        record = load_record(path)
    except OSError as e:
        raise BadInput(f"{path}: {e.strerror or e}") from None
    try:
        replay(record, check_scores=True)
    except RecordError as e:
        raise RecordError(f"{path}: {e}") from None
    return record


__all__ = ["FORMAT", "MARKS", "THRESHOLDS", "Settings", "Task", "analyse", "analyse_game", "analyse_task",
           "check_settings", "costliest_text", "decisions",
           "default_cache", "load_for_analysis", "load_report", "mark_of", "parse_seats", "record_key",
           "report_json", "report_text", "stored_seed"]
