"""Which games a tournament plays: every combination, every seat rotation, repeated.

>>> games = make_schedule(["a", "b", "c"], seats=[2], repeats=1, master_seed=1)
>>> [(g.id, g.bots) for g in games][:3]
[('g00001', ('a', 'b')), ('g00002', ('b', 'a')), ('g00003', ('a', 'c'))]
>>> games[0].seed == games[1].seed       # the rotations of a combination play the same deal
True

Seeds are secrets until their game is over: a game's seed is derived from the master seed with a keyed
hash (``derive_seed``), and a seat's seed from the game's (``seat_seed``), so no seed a bot is given, and
no finished game's seed, tells anything about another game's deal. The master seed is random unless the
user chooses one (``new_master_seed``).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from itertools import combinations

MIN_SEATS, MAX_SEATS = 2, 6


@dataclass(frozen=True)
class ScheduledGame:
    """One game to play: ``bots[k]`` sits in seat k."""

    id: str
    bots: tuple[str, ...]
    seed: int
    options: tuple[str, ...] = ()   # the modules that are on (alhambra_ai.options)
    game: str = "alhambra"          # a name of alhambra_ai.registry.names()

    @property
    def num_players(self) -> int:
        return len(self.bots)


def stable_seed(*parts: object) -> int:
    """A 63-bit seed from the parts' text, identical on every machine and run (unlike hash()).

    >>> stable_seed(1, "r1", "a,b") == stable_seed(1, "r1", "a,b") != stable_seed(2, "r1", "a,b")
    True
    """
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def derive_seed(key: int, *parts: object) -> int:
    """A 63-bit seed from the secret ``key`` and the public ``parts`` (keyed BLAKE2b): without the key,
    any number of derived seeds reveal nothing about the key or the other seeds.

    >>> derive_seed(1, "r1", 2, "a,b") == derive_seed(1, "r1", 2, "a,b") != derive_seed(2, "r1", 2, "a,b")
    True
    """
    digest = hashlib.blake2b("\x1f".join(map(str, parts)).encode(), key=int(key).to_bytes(8, "big"),
                             digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def seat_seed(game_seed: int, seat: int) -> int:
    """The seed a bot is given in its setup for ``seat`` (keyed by the game's secret seed)."""
    return derive_seed(game_seed, "seat", seat)


def new_master_seed() -> int:
    """A random master seed (63 bits), for a tournament or ladder whose user chose none."""
    return secrets.randbits(63)


def parse_seats(text: str | int) -> list[int]:
    """``"2"`` -> [2]; ``"2-4"`` -> [2, 3, 4]. Raises ValueError naming the problem.

    >>> parse_seats("2-4")
    [2, 3, 4]
    """
    s = str(text).strip()
    try:
        lo, dash, hi = s.partition("-")
        first, last = int(lo), int(hi) if dash else int(lo)
    except ValueError:
        raise ValueError(f"seats must be a count like 2 or a range like 2-4, not {s!r}") from None
    if not MIN_SEATS <= first <= last <= MAX_SEATS:
        raise ValueError(f"seats must be within {MIN_SEATS}-{MAX_SEATS} (low to high), not {s!r}")
    return list(range(first, last + 1))


def make_schedule(bots: list[str], seats: list[int], repeats: int, master_seed: int) -> list[ScheduledGame]:
    """All games in their fixed order; ids ``g00001...`` follow that order.

    For each repeat, each seat count, each combination of bots (names sorted, so the order on the
    command line never matters) and each cyclic rotation of it: one game. The seed depends on the
    master seed, the repeat, the seat count and the combination — not on the rotation (all
    rotations replay the same deal, so every bot plays every seat of it) and not on --jobs. The master
    seed is the key of the derivation (``derive_seed``): the seeds cannot be guessed without it.
    """
    names = sorted(bots)
    plan = []
    for repeat in range(1, repeats + 1):
        for n in seats:
            for combo in combinations(names, n):
                seed = derive_seed(master_seed, f"r{repeat}", n, ",".join(combo))
                plan += [(combo[k:] + combo[:k], seed) for k in range(n)]
    width = max(5, len(str(len(plan))))  # ids sort as text in schedule order
    return [ScheduledGame(f"g{i:0{width}d}", seated, seed) for i, (seated, seed) in enumerate(plan, 1)]


def lineup_names(names: list[str]) -> list[str]:
    """Seat names for a lineup that may repeat a bot: the first keeps its name, later ones are numbered.

    >>> lineup_names(["mcts", "greedy", "greedy", "greedy"])
    ['mcts', 'greedy', 'greedy#2', 'greedy#3']
    """
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return out


def make_lineup_schedule(names: list[str], repeats: int, master_seed: int) -> list[ScheduledGame]:
    """The games of a fixed lineup (seat names, see lineup_names): every cyclic rotation, ``repeats`` times;
    the rotations of a repeat share a deal, as in make_schedule.

    >>> [g.bots for g in make_lineup_schedule(["a", "b", "b#2"], 1, 1)]
    [('a', 'b', 'b#2'), ('b', 'b#2', 'a'), ('b#2', 'a', 'b')]
    """
    n = len(names)
    plan = []
    for repeat in range(1, repeats + 1):
        seed = derive_seed(master_seed, f"r{repeat}", n, ",".join(names))
        plan += [(tuple(names[k:] + names[:k]), seed) for k in range(n)]
    width = max(5, len(str(len(plan))))
    return [ScheduledGame(f"g{i:0{width}d}", seated, seed) for i, (seated, seed) in enumerate(plan, 1)]
