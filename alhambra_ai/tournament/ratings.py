"""TrueSkill ratings and the leaderboard, always recomputed from stored results in game-id order.

Replaying the results in one fixed order makes the standings independent of --jobs and of resumes.
Each game is one TrueSkill update with every seat a one-player team, ranked by the game's final
ranks (forfeiters last; equal ranks are ties). Wins: a seat ranked 1 wins; k seats sharing rank 1
get 1/k each.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from pathlib import Path

import trueskill

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

    def row(self) -> dict:
        g = self.games or 1
        return {"name": self.name, "rating": round(self.conservative, 2), "mu": round(self.mu, 2),
                "sigma": round(self.sigma, 2), "games": self.games, "wins": round(self.wins, 2),
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
        winners = ranks.count(1)
        for seat, name in enumerate(bots):
            s = self.table[name]
            s.mu, s.sigma = rated[seat][0].mu, rated[seat][0].sigma
            s.games += 1
            s.wins += 1 / winners if ranks[seat] == 1 else 0
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


def format_table(standings: list[Standing]) -> str:
    """The leaderboard as aligned text."""
    head = f"{'#':>2} {'bot':<18} {'rating':>7} {'mu':>6} {'sigma':>5} {'games':>5} {'wins':>6} " \
           f"{'score':>6} {'rank':>5}  forfeits"
    lines = [head]
    for i, s in enumerate(standings, 1):
        r = s.row()
        forfeits = ", ".join(f"{k} {v}" for k, v in r["forfeits"].items()) or "-"
        score = "-" if r["mean_score"] is None else f"{r['mean_score']:.1f}"
        rank = "-" if r["mean_rank"] is None else f"{r['mean_rank']:.2f}"
        lines.append(f"{i:>2} {s.name[:18]:<18} {r['rating']:>7.2f} {r['mu']:>6.2f} {r['sigma']:>5.2f} "
                     f"{r['games']:>5} {r['wins']:>6.1f} {score:>6} {rank:>5}  {forfeits}")
    return "\n".join(lines)


def standings_csv(standings: list[Standing]) -> str:
    out = io.StringIO()
    fields = ["rank", "name", "rating", "mu", "sigma", "games", "wins", "mean_score", "mean_rank", "forfeits"]
    writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    for i, s in enumerate(standings, 1):
        row = s.row()
        row["forfeits"] = "; ".join(f"{k}: {v}" for k, v in row["forfeits"].items())
        writer.writerow({"rank": i, **row})
    return out.getvalue()


def write_standings(directory: Path, standings: list[Standing], games: int) -> None:
    """DIR/standings.csv and DIR/standings.json (both replaced atomically)."""
    from .store import write_json_atomic

    write_json_atomic(directory / "standings.json",
                      {"games": games, "sort": "rating = mu - 3 sigma",
                       "standings": [{"rank": i, **s.row()} for i, s in enumerate(standings, 1)]})
    tmp = directory / ".standings.csv.tmp"
    tmp.write_text(standings_csv(standings))
    tmp.replace(directory / "standings.csv")
