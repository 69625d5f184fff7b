"""The engine's timed unit for ``alhambra-ai bench``: the base game's random games, played in C."""

from __future__ import annotations

from alhambra_ai import _core


def random_games(game: str, players: int, count: int, seed: int, options: dict | None = None) -> int:
    """Set up and play ``count`` uniformly random games from ``seed`` on; returns the actions played."""
    return _core._bench_games(players, count, seed, options)
