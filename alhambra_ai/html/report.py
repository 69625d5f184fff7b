"""Pictures of games and tournaments: self-contained HTML pages that work from ``file://``.

``alhambra-ai report OUT_DIR`` writes OUT_DIR/report/index.html (leaderboard with legend, head-to-head
matrix, the rating (mu - 3 sigma) over the games with a band of mu +- sigma as an inline SVG chart,
forfeits, every game linked) and a game viewer per game (OUT_DIR/report/games/ID.html); ``alhambra-ai replay
RECORD --html FILE`` writes the viewer for one game. The viewer draws the market, the hands and every city
as SVG (tile types in colour, walls as thick lines, the fountain) and steps through the record with the
arrow keys or buttons. For the dice games (Alhambra: The Dice Game, Alcazaba) it draws the dice, the six
columns with their markers, the bonus tiles or column tiles, the building-point tracks or the cities, and
the scorings.

No server, no network, no CDN: each page carries its data (JSON), style and script inline. The pages are
Jinja2 templates (autoescaping, so bot names never become markup); the charts are SVG drawn here.

>>> from alhambra_ai import new_game
>>> from alhambra_ai.formats.record import make_record
>>> s = new_game(2, seed=1, game="alcazaba")
>>> page = viewer_html(make_record(s, ["a", "b"]))
>>> page.startswith("<!DOCTYPE html>"), "Alcazaba, seed 1: a, b" in page
(True, True)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from alhambra_ai.arena.ratings import LEGEND, Ratings, compute_standings, head_to_head
from alhambra_ai.arena.store import ResultStore, StoreError
from alhambra_ai.formats.record import RecordError, load_record
from alhambra_ai.registry import game_of

# Building colours as on the tiles (the same hues as the terminal's ANSI colours), fountain teal.
TYPE_COLOURS = {"pavilion": "#3b6fc4", "seraglio": "#c0392b", "arcades": "#e0a526", "chambers": "#cfc8b8",
                "garden": "#3e9a4b", "tower": "#8e44ad", "fountain": "#2bb5c8",
                "camp": "#6b4f2a", "bazaar": "#d35400"}  # the modules' tiles (Camps, Bazaars)
SEAT_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]

# The pages' own files are under templates/; a game's (its viewer page and scripts) under its family's folder,
# named by its hooks relative to the package (``games/<family>/assets/...``).
TEMPLATES = Path(__file__).parent / "templates"
PACKAGE = Path(__file__).parent.parent
_env = Environment(loader=FileSystemLoader([TEMPLATES, PACKAGE]), autoescape=select_autoescape(["html"]),
                   trim_blocks=True, lstrip_blocks=True)


def _json_for_script(data: Any) -> str:
    """JSON safe inside a <script> element (no ``</script>`` or ``<!--`` can end it early)."""
    return json.dumps(data, separators=(",", ":")).replace("<", "\\u003c").replace(">", "\\u003e")


def _static(name: str) -> str:
    here = TEMPLATES / name
    return (here if here.is_file() else PACKAGE / name).read_text(encoding="utf-8")


def _scripts(names: str | Sequence[str]) -> str:
    """The text of one script (under templates/, or a game's, relative to the package), or of several one
    after the other (a page's ``scripts``)."""
    return _static(names) if isinstance(names, str) else "\n".join(_static(name) for name in names)


# ----------------------------------------------------------------------------------------------------------
# The game viewer


def viewer_data(record: dict) -> dict:
    """Everything the viewer draws, one frame per position: the set-up, then the position after each move
    (the record's game's own frames: ``alhambra_ai.games.<family>.viewer``). Raises RecordError for a record
    that does not replay."""
    return game_of(record).hook("viewer")(record)


def viewer_html(record: dict, title: str | None = None, back: str | None = None) -> str:
    """The viewer page of one game record (``back``: a link to the report, if any)."""
    kind = game_of(record)
    data = kind.hook("viewer")(record)
    title = title or f"{kind.title}, seed {record['seed']}: {', '.join(data['seats'])}"
    page = kind.hook("viewer_page")(data)
    scripts = {key: _scripts(names) for key, names in page.pop("scripts", {}).items()}
    return _env.get_template(page.pop("template")).render(
        title=title, back=back, data=_json_for_script(data), forfeits=data["forfeits"], seats=data["seats"],
        colours=TYPE_COLOURS, seat_colours=SEAT_COLOURS, script=_static("viewer.js"),
        style=_static("style.css"), **scripts, **page)


def write_viewer(record: dict, path: str | Path, back: str | None = None) -> None:
    """Write the viewer page of ``record`` to ``path`` (OSError if it cannot be written)."""
    Path(path).write_text(viewer_html(record, back=back), encoding="utf-8")


# ----------------------------------------------------------------------------------------------------------
# The tournament report


def rating_history(results: list[dict], names: Sequence[str]) -> list[dict]:
    """mu, sigma and the rating (mu - 3 sigma, the leaderboard's sort key) of every bot after each game, in
    game-id order (the order the ratings are computed in)."""
    ratings = Ratings(list(names))
    points = [{"game": "", **{n: (s.mu, s.sigma, s.conservative) for n, s in ratings.table.items()}}]
    for result in sorted(results, key=lambda r: r["game"]):
        ratings.update(result)
        points.append({"game": result["game"],
                       **{n: (s.mu, s.sigma, s.conservative) for n, s in ratings.table.items()}})
    return points


def rating_chart(history: list[dict], names: Sequence[str], width: int = 820, height: int = 320) -> str:
    """An SVG line chart of each bot's rating (mu - 3 sigma: what the leaderboard sorts by) over the games,
    with a band of mu +- sigma."""
    keys = {name: "{} {:.1f} ({:.1f}±{:.1f})".format(name, history[-1][name][2], *history[-1][name][:2])
            for name in names}
    # the legend's column: as wide as its longest line (12 px text, at most ~7.5 px a character), so that a
    # long name and its figures are never cut at the chart's edge
    left, top, bottom = 44, 12, 34
    right = max(190, 28 + round(7.5 * max((len(k) for k in keys.values()), default=0)) + 6)
    width = max(width, left + right + 400)
    w, h = width - left - right, height - top - bottom
    values = [v for p in history for n in names for v in (p[n][2], p[n][0] - p[n][1], p[n][0] + p[n][1])]
    lo, hi = min(values), max(values)
    lo, hi = (lo - 1, hi + 1) if hi - lo < 2 else (lo, hi)
    n = max(1, len(history) - 1)

    def x(i: float) -> float:
        return round(left + w * i / n, 1)

    def y(v: float) -> float:
        return round(top + h * (hi - v) / (hi - lo), 1)

    parts = [f'<svg class="chart" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
             'role="img" aria-label="rating over the games">',
             f'<rect x="{left}" y="{top}" width="{w}" height="{h}" fill="#fafafa" stroke="#ccc"/>']
    step = max(1, round((hi - lo) / 6))
    tick = int(lo) + 1
    while tick < hi:
        parts.append(f'<line x1="{left}" x2="{left + w}" y1="{y(tick)}" y2="{y(tick)}" stroke="#e4e4e4"/>'
                     f'<text x="{left - 6}" y="{y(tick) + 4}" text-anchor="end" class="tick">{tick}</text>')
        tick += step
    for k, name in enumerate(names):
        colour = SEAT_COLOURS[k % len(SEAT_COLOURS)]
        upper = [f"{x(i)},{y(p[name][0] + p[name][1])}" for i, p in enumerate(history)]
        lower = [f"{x(i)},{y(p[name][0] - p[name][1])}" for i, p in enumerate(history)][::-1]
        line = [f"{x(i)},{y(p[name][2])}" for i, p in enumerate(history)]
        parts.append(f'<polygon points="{" ".join(upper + lower)}" fill="{colour}" fill-opacity="0.12"/>')
        parts.append(f'<polyline points="{" ".join(line)}" fill="none" stroke="{colour}" stroke-width="2" '
                     f'data-bot="{escape(name)}"/>')
        ly = top + 16 + 18 * k
        parts.append(f'<rect x="{left + w + 10}" y="{ly - 9}" width="12" height="4" fill="{colour}"/>'
                     f'<text x="{left + w + 28}" y="{ly - 3}" class="key">{escape(keys[name])}</text>')
    parts.append(f'<text x="{left + w / 2}" y="{height - 6}" text-anchor="middle" class="axis">games played '
                 f'(0-{n}); line: rating = mu - 3 sigma (the table\'s order), band: mu ± sigma</text></svg>')
    return "".join(parts)


def write_report(out_dir: str | Path, to: str | Path | None = None) -> Path:
    """Write the report of the tournament in ``out_dir`` (default into OUT_DIR/report/); returns the path
    of index.html. Raises StoreError / RecordError naming what is missing or damaged."""
    out_dir = Path(out_dir)
    store = ResultStore(out_dir)
    settings = store.settings()
    if settings is None and not (out_dir / "results.jsonl").is_file():
        raise StoreError(f"{out_dir} holds no tournament (no tournament.json or results.jsonl)")
    results = store.results()
    names = sorted(settings["bots"]) if settings else sorted({b for r in results for b in r["bots"]})
    standings = compute_standings(results, names)
    order = [s.name for s in standings]
    pairings = {(p.a, p.b): p for p in head_to_head(results, order)}
    matrix = []
    for a in order:
        row: list[dict[str, object] | None] = []
        for b in order:
            p = pairings.get((a, b)) or pairings.get((b, a))
            if a == b or p is None or not p.games:
                row.append(None)
            else:
                share = p.a_score if p.a == a else p.games - p.a_score
                row.append({"rate": share / p.games, "text": f"{share:g}/{p.games}",
                            "interval": p.interval if p.a == a else (1 - p.interval[1], 1 - p.interval[0])})
        matrix.append((a, row))

    report = Path(to) if to else out_dir / "report"
    (report / "games").mkdir(parents=True, exist_ok=True)
    games = []
    for r in results:
        rec_path = out_dir / "games" / f"{r['game']}.json"
        link = None
        if rec_path.is_file():
            try:
                write_viewer(load_record(rec_path), report / "games" / f"{r['game']}.html",
                             back="../index.html")
                link = f"games/{r['game']}.html"
            except RecordError:
                link = None
        games.append({"id": r["game"], "bots": r["bots"], "scores": r["scores"], "ranks": r["ranks"],
                      "dirk": r.get("dirk_score"), "forfeits": r.get("forfeits", []), "link": link,
                      "seconds": r.get("duration")})
    forfeits = [(g["id"], g["bots"][f["seat"]], f.get("reason", ""), f.get("detail", "").strip()[:200],
                 f.get("move")) for g in games for f in g["forfeits"]]
    total = settings.get("total_games") if settings else None
    page = _env.get_template("report.html").render(
        title=f"Tournament {out_dir.name}"
        + (f" ({settings['game']})" if settings and "game" in settings else ""),
        settings=settings, standings=[s.row() for s in standings],
        legend=LEGEND.replace("\n", " "), matrix=matrix, order=order,
        chart=rating_chart(rating_history(results, order), order) if results else "",
        games=games, forfeits=forfeits, total=total, stored=len(results), style=_static("style.css"),
        seat_colours=SEAT_COLOURS)
    index = report / "index.html"
    index.write_text(page, encoding="utf-8")
    return index


__all__ = ["rating_chart", "rating_history", "viewer_data", "viewer_html", "write_report",
           "write_viewer"]
