"""TrueSkill ratings and the leaderboard, always recomputed from stored results in game-id order.

Replaying the results in one fixed order makes the standings independent of --jobs and of resumes.
Each game is one TrueSkill update with every seat a one-player team, ranked by the game's final
ranks (forfeiters last; equal ranks are ties). Wins: a seat ranked 1 wins; k seats sharing rank 1
get 1/k each. Beside TrueSkill, each bot's win rate and each pairing's head-to-head rate carry a 95%
Wilson interval (``alhambra_ai.arena.stats``: the one definition of ranks, win shares and the interval).

>>> r = [{"game": "g1", "bots": ["a", "b"], "ranks": [1, 2], "scores": [30, 20]}]
>>> [(p.a, p.b, p.a_score, p.games) for p in head_to_head(r, ["a", "b"])]
[('a', 'b', 1.0, 1)]
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from pathlib import Path

import trueskill

from alhambra_ai.arena.stats import pair_score, wilson, win_share

from .store import write_json_atomic

# Explicit parameters: the ratings must not depend on the library's global defaults.
ENV = trueskill.TrueSkill(mu=25.0, sigma=25.0 / 3, beta=25.0 / 6, tau=25.0 / 300, draw_probability=0.10,
                          backend=None)


@dataclass
class Standing:
    name: str
    mu: float = ENV.mu
    sigma: float = ENV.sigma
    games: int = 0
    wins: float = 0.0
    total_score: float = 0.0
    total_rank: float = 0.0
    forfeits: dict[str, int] = field(default_factory=dict)

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: the leaderboard's sort key (a rating the bot is very likely above)."""
        return self.mu - 3 * self.sigma

    @property
    def win_interval(self) -> tuple[float, float]:
        """95% Wilson interval of the win rate (shared wins count as fractions)."""
        return wilson(self.wins, self.games)

    def row(self) -> dict:
        g = self.games or 1
        return {"name": self.name, "rating": round(self.conservative, 2), "mu": round(self.mu, 2),
                "sigma": round(self.sigma, 2), "games": self.games, "wins": _number(self.wins),
                "win_rate": round(self.wins / self.games, 3) if self.games else None,
                "win_interval": list(self.win_interval),
                "mean_score": round(self.total_score / g, 2) if self.games else None,
                "mean_rank": round(self.total_rank / g, 3) if self.games else None,
                "forfeits": dict(sorted(self.forfeits.items()))}


class Ratings:
    """Ratings being built game by game; ``update`` must be fed in the order that counts."""

    def __init__(self, names: list[str]) -> None:
        self.table = {n: Standing(n) for n in names}

    def update(self, result: dict) -> None:
        bots, ranks = result["bots"], result["ranks"]
        for name in bots:
            self.table.setdefault(name, Standing(name))
        groups = [(ENV.create_rating(self.table[n].mu, self.table[n].sigma),) for n in bots]
        rated = ENV.rate(groups, ranks=[r - 1 for r in ranks])
        for seat, name in enumerate(bots):
            s = self.table[name]
            s.mu, s.sigma = rated[seat][0].mu, rated[seat][0].sigma
            s.games += 1
            s.wins += win_share(ranks, [seat])
            s.total_score += result["scores"][seat]
            s.total_rank += ranks[seat]
        for f in result.get("forfeits", []):
            s = self.table[bots[f["seat"]]]
            s.forfeits[f["reason"]] = s.forfeits.get(f["reason"], 0) + 1

    def standings(self) -> list[Standing]:
        """Best first: by mu - 3 sigma, then name (a stable order for equal ratings)."""
        return sorted(self.table.values(), key=lambda s: (-round(s.conservative, 9), s.name))

    def leader(self) -> Standing | None:
        ranked = [s for s in self.standings() if s.games]
        return ranked[0] if ranked else None


def compute_standings(results: list[dict], names: list[str]) -> list[Standing]:
    """The leaderboard from stored results, replayed in game-id order."""
    ratings = Ratings(names)
    for result in sorted(results, key=lambda r: r["game"]):
        ratings.update(result)
    return ratings.standings()


@dataclass
class Pairing:
    """Head to head of bots ``a`` and ``b`` over the games where both sat: ``a_score`` counts the games
    where ``a`` finished above ``b``, plus half of those where they finished level."""

    a: str
    b: str
    games: int = 0
    a_score: float = 0.0

    @property
    def rate(self) -> float | None:
        return self.a_score / self.games if self.games else None

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.a_score, self.games)

    def row(self) -> dict:
        return {"a": self.a, "b": self.b, "games": self.games, "a_score": _number(self.a_score),
                "b_score": _number(self.games - self.a_score),
                "a_rate": None if self.rate is None else round(self.rate, 3),
                "a_interval": list(self.interval)}


def head_to_head(results: list[dict], names: list[str]) -> list[Pairing]:
    """Every pairing of ``names`` (in that order: ``a`` before ``b``), from the rating ranks of the games."""
    pairs = {(a, b): Pairing(a, b) for i, a in enumerate(names) for b in names[i + 1:]}
    order = {n: i for i, n in enumerate(names)}
    for result in results:
        seated = list(zip(result["bots"], result["ranks"], strict=True))
        for i, (x, rx) in enumerate(seated):
            for y, ry in seated[i + 1:]:
                if x == y or x not in order or y not in order:
                    continue
                (a, ra), (b, rb) = sorted([(x, rx), (y, ry)], key=lambda t: order[t[0]])
                p = pairs[(a, b)]
                p.games += 1
                p.a_score += pair_score(ra, rb)
    return list(pairs.values())


def _number(x: float) -> float | int:
    """Whole counts as ints (``3``), fractions (shared wins) to 2 places."""
    return int(x) if float(x).is_integer() else round(x, 2)


def _rate(rate: float | None, interval: tuple[float, float]) -> str:
    """``75% [47-91]``: a rate and its 95% interval in whole percent."""
    if rate is None:
        return "-"
    lo, hi = interval
    return f"{100 * rate:.0f}% [{100 * lo:.0f}-{100 * hi:.0f}]"


LEGEND = """\
rating = mu - 3 sigma, the sort key (TrueSkill: a level the bot is very likely above); mu = estimated level,
sigma = its uncertainty; wins: games won (a shared first place counts 1/k); win rate: wins / games with its
95% Wilson interval [low-high]; score, rank: means per game; forfeits: games lost to the referee, by
reason."""


def format_table(standings: list[Standing], width: int = 100, legend: bool = True) -> str:
    """The leaderboard as aligned text, folded to ``width`` columns (at least 80), with its legend."""
    width = max(80, width)
    head = f"{'#':>2} {'bot':<13} {'rating':>6} {'mu ± sigma':>10} {'games':>5} {'wins':>5} " \
           f"{'win rate':<13} {'score':>5} {'rank':>4} forfeits"
    lines = [head]
    for i, s in enumerate(standings, 1):
        r = s.row()
        forfeits = ", ".join(f"{k} {v}" for k, v in r["forfeits"].items()) or "-"
        score = "-" if r["mean_score"] is None else f"{r['mean_score']:.1f}"
        rank = "-" if r["mean_rank"] is None else f"{r['mean_rank']:.2f}"
        mu_sigma = f"{r['mu']:.1f}±{r['sigma']:.1f}"
        line = (f"{i:>2} {s.name[:13]:<13} {r['rating']:>6.2f} {mu_sigma:>10} {r['games']:>5} "
                f"{r['wins']:>5} {_rate(r['win_rate'], s.win_interval):<13} {score:>5} {rank:>4} ")
        lines += _fold(line, forfeits, width)
    if legend:
        lines += [""] + _wrap_words(LEGEND.replace("\n", " "), width)
    return "\n".join(lines)


def format_head_to_head(pairings: list[Pairing], names: list[str], width: int = 100) -> str:
    """The head-to-head table: row bot's share of the games against the column bot (a bot finishing above
    the other wins that game; level = half), then each pairing with its games and 95% interval."""
    width = max(80, width)
    rates = {(p.a, p.b): p.rate for p in pairings}
    rates.update({(p.b, p.a): None if p.rate is None else 1 - p.rate for p in pairings})
    cell = 8
    lines = ["head to head (row bot's share of the games against the column bot):"]
    if 17 + cell * len(names) <= width:
        # names too long for a column (greedy#2 and greedy#3 would both read "greedy#") are numbered instead,
        # the rows carrying the numbers, as in a crosstable
        numbered = any(len(n) > cell - 1 for n in names) or len({n[:16] for n in names}) < len(names)
        heads = [str(i) for i in range(1, len(names) + 1)] if numbered else names
        rows = [f"{i:>2} {n[:13]}" for i, n in enumerate(names, 1)] if numbered else [n[:16] for n in names]
        lines.append(" " * 17 + "".join(h.rjust(cell) for h in heads))
        for a, row in zip(names, rows, strict=True):
            cells = ["-" if a == b or (rate := rates.get((a, b))) is None else f"{100 * rate:.0f}%"
                     for b in names]
            lines.append(f"{row:<16} " + "".join(c.rjust(cell) for c in cells))
    for p in pairings:
        if p.games:
            lines.append(f"  {p.a} vs {p.b}: {_number(p.a_score)}-{_number(p.games - p.a_score)} in "
                         f"{p.games} game{'s' if p.games != 1 else ''}, {_rate(p.rate, p.interval)}")
    return "\n".join(lines)


def _wrap_words(text: str, width: int, indent: str = "") -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = indent + word
        else:
            line = f"{line} {word}" if line else word
    return lines + [line]


def _fold(start: str, tail: str, width: int) -> list[str]:
    """``start`` + ``tail``, or the tail on lines of its own below when the line would pass ``width``."""
    if len(start) + len(tail) <= width:
        return [start + tail]
    return [start.rstrip() + " (below)"] + ["     " + p for p in _wrap_words(f"forfeits: {tail}", width - 5)]


def standings_csv(standings: list[Standing]) -> str:
    out = io.StringIO()
    fields = ["rank", "name", "rating", "mu", "sigma", "games", "wins", "win_rate", "win_low", "win_high",
              "mean_score", "mean_rank", "forfeits"]
    writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    for i, s in enumerate(standings, 1):
        row = s.row()
        row["forfeits"] = "; ".join(f"{k}: {v}" for k, v in row["forfeits"].items())
        row["win_low"], row["win_high"] = row.pop("win_interval")
        writer.writerow({"rank": i, **row})
    return out.getvalue()


def write_standings(directory: Path, results: list[dict], names: list[str]) -> list[Standing]:
    """DIR/standings.csv and DIR/standings.json (both replaced atomically) from the stored results;
    returns the standings."""
    standings = compute_standings(results, names)
    pairings = head_to_head(results, [s.name for s in standings])
    write_json_atomic(directory / "standings.json",
                      {"games": len(results), "sort": "rating = mu - 3 sigma",
                       "standings": [{"rank": i, **s.row()} for i, s in enumerate(standings, 1)],
                       "head_to_head": [p.row() for p in pairings]})
    tmp = directory / ".standings.csv.tmp"
    tmp.write_text(standings_csv(standings))
    tmp.replace(directory / "standings.csv")
    return standings


def format_report(results: list[dict], names: list[str], width: int = 100) -> str:
    """The leaderboard with its legend and the head-to-head table, as printed at the end of a run."""
    standings = compute_standings(results, names)
    order = [s.name for s in standings]
    return format_table(standings, width) + "\n\n" + format_head_to_head(head_to_head(results, order), order,
                                                                          width)
