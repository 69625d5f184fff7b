"""Engine benchmarks: random games per second, legal-action generation, apply, clone.

Times are CPU time of this process (``time.process_time``), so other load on the machine inflates them
less than wall time would; each figure comes from repeated runs of a fixed amount of work.

>>> rows = run(seconds=0.05, players=(4,))
>>> sorted(rows[0])
['actions_per_game', 'games', 'games_per_s', 'players', 'seconds']
"""

from __future__ import annotations

import random
import time

from alhambra_ai import _core, new_game, registry
from alhambra_ai.options import options_text


def _timed(fn, *args) -> float:
    t = time.process_time()
    fn(*args)
    return time.process_time() - t


BATCHES = 10       # a timing's batches grow until each takes about 1/BATCHES of its seconds


class _Timing:
    """Random games of one kind timed in batches; a batch doubles until it takes about `step` seconds."""

    def __init__(self, players: int, seed: int, options: dict | None, game: str, step: float):
        self.players, self.seed, self.options, self.game, self.step = players, seed, options, game, step
        self.games, self.actions, self.spent, self.batch = 0, 0, 0.0, 20
        self.random_games = registry.get(game).hook("random_games")

    def run_batch(self) -> None:
        t = time.process_time()
        seed = self.seed + self.games
        self.actions += self.random_games(self.game, self.players, self.batch, seed, self.options)
        took = time.process_time() - t
        self.spent += took
        self.games += self.batch
        if took < self.step:
            self.batch = min(self.batch * 2, 2000)

    def row(self) -> dict:
        return {"players": self.players, "games": self.games, "seconds": self.spent,
                "games_per_s": self.games / self.spent, "actions_per_game": self.actions / self.games}


def games_per_second(players: int, seconds: float = 1.0, seed: int = 1, options: dict | None = None,
                     game: str = registry.DEFAULT) -> dict:
    """Set up and play uniformly random games (over the generated legal actions) in C for about `seconds`;
    ``game``: a name of ``registry.names()`` (``options`` for the games that take the rulebook's modules)."""
    timing = _Timing(players, seed, options, game, seconds / BATCHES)
    while timing.spent < seconds:
        timing.run_batch()
    return timing.row()


PAIR_SECONDS = 0.005  # one batch of a pair: short, so that a change of the machine's speed hits both alike


def median_interval(values: list[float]) -> tuple[float, float, float]:
    """The median of `values` and its distribution-free 95% interval (order statistics n/2 -+ 0.98 sqrt(n),
    the normal approximation of Binomial(n, 1/2)); with a handful of values the interval is their range.

    >>> median_interval([0.4, 0.38, 0.41, 0.39, 0.40])
    (0.4, 0.38, 0.41)
    """
    v = sorted(values)
    n = len(v)
    half = 0.98 * n ** 0.5
    low, high = max(0, int(n / 2 - half)), min(n - 1, int(n / 2 + half + 1))
    median = v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
    return median, v[low], v[high]


def games_per_second_pair(players: int, options: dict, seconds: float = 1.0,
                          seed: int = 1) -> tuple[dict, dict]:
    """The base game's and the modules' random games, each timed for about `seconds`, in pairs of short
    alternating batches (about PAIR_SECONDS each): a change of the shared machine's speed slows both sides
    of a pair alike. The modules' row adds `share`, the median over the pairs of the modules' games/s as a
    share of the base game's, with its 95% interval (`share_low`, `share_high`) and `pairs`. Longer
    batches (whole seconds) left the share 2-3 points apart between runs; pairs of a few ms agree within a
    few tenths. The interval is this run's: separate runs (another process, its code and data laid out
    anew) differ by about half a point more."""
    sides = [_Timing(players, seed, opts, "alhambra", PAIR_SECONDS) for opts in (None, options)]
    ratios: list[float] = []
    while min(side.spent for side in sides) < seconds or not ratios:
        sizes, rates = [side.batch for side in sides], []
        for side, size in zip(sides, sizes, strict=True):
            spent = side.spent
            side.run_batch()
            rates.append(size / max(side.spent - spent, 1e-9))
        if [side.batch for side in sides] == sizes:     # (a pair while a batch still grows is no pair)
            ratios.append(rates[1] / rates[0])
    base, mod = sides[0].row(), sides[1].row()
    mod["share"], mod["share_low"], mod["share_high"] = median_interval(ratios)
    mod["pairs"] = len(ratios)
    mod["length"] = mod["actions_per_game"] / base["actions_per_game"]  # longer games: fewer of them per s
    mod["per_action"] = mod["share"] * mod["length"]
    return base, mod


def sample_states(players: int = 4, count: int = 200, seed: int = 1,
                  options: dict | None = None) -> tuple[list, list]:
    """(early, late) states along random games: the first 20 actions, and the last third of each game."""
    rng = random.Random(seed)
    early: list[_core.State] = []
    late: list[_core.State] = []
    while len(early) < count or len(late) < count:
        s = new_game(players, rng.randrange(10**6), options)
        s.record_history = False
        path = []
        while not s.is_terminal():
            path.append(s.clone())
            s.apply(rng.choice(s.legal_actions()))
        early.extend(path[:20:4])
        late.extend(path[2 * len(path) // 3:-1:7])
    return early[:count], late[:count]


def generation_ns(states: list, seconds: float = 0.5) -> dict:
    """ns per legal-action generation: C gen_legal and Python legal_actions(); average list length."""
    reps, spent = 1, 0.0
    while True:
        spent = _timed(_core._bench_generate, states, reps)
        if spent >= seconds / 2 or reps > 1 << 20:
            break
        reps *= 2
    total = _core._bench_generate(states, 1)
    t = time.process_time()
    for s in states:
        s.legal_actions()
    py = time.process_time() - t
    return {"c_ns": spent / (reps * len(states)) * 1e9, "python_ns": py / len(states) * 1e9,
            "actions": total / len(states)}


def clone_ns(state, seconds: float = 0.2) -> dict:
    """ns per clone: the C state copy (cities shared) and the Python State.clone()."""
    reps = 1000
    while (spent := _timed(_core._bench_copy, state, reps)) < seconds / 2 and reps < 1 << 26:
        reps *= 4
    c = spent / reps * 1e9
    n = max(1000, reps // 20)
    t = time.process_time()
    for _ in range(n):
        state.clone()
    return {"c_ns": c, "python_ns": (time.process_time() - t) / n * 1e9}


def apply_ns(players: int = 4, seed: int = 3, seconds: float = 0.3) -> dict:
    """ns per action: C apply_action (unchecked, replaying a random game) and Python apply (checked,
    no history)."""
    start = new_game(players, seed)
    start.record_history = False
    s = start.clone()
    codes = []
    rng = random.Random(seed)
    while not s.is_terminal():
        a = rng.choice(s.legal_actions())
        codes.append(a)
        s.apply(a)
    reps = 10
    while (spent := _timed(_core._bench_replay, start, codes, reps)) < seconds / 2 and reps < 1 << 20:
        reps *= 2
    copy = _timed(_core._bench_copy, start, reps)
    c = max(spent - copy, 0.0) / (reps * len(codes)) * 1e9
    s = start.clone()
    t = time.process_time()
    for a in codes:
        s.apply(a)
    py = (time.process_time() - t) / len(codes) * 1e9
    return {"c_ns": c, "python_ns": py, "actions": len(codes)}


def run(seconds: float = 1.0, players=(2, 3, 4, 5, 6)) -> list[dict]:
    """Random games per second for each player count (about `seconds` each)."""
    return [games_per_second(n, seconds) for n in players]


def report(seconds: float = 1.0, players=(2, 3, 4, 5, 6), options: dict | None = None,
           game: str | None = None) -> str:
    """The full benchmark as text (games per player count, generation, apply, clone early / late). With
    module ``options`` the random games are timed for the base game and with the modules in the same run
    (the ratio is the comparable figure on a shared machine); the rest is measured with the modules.
    Random games of the other games follow; ``game`` picks one game only (another game than the base game:
    its random games)."""
    if game is not None and game != registry.DEFAULT:
        return "\n".join(game_lines(game, seconds, players))
    lines = ["random games (uniform over the legal actions, setup included), CPU time:"]
    if options:
        lines.append(f"  with modules: {options_text(options)}")
    for n in players:
        if not options:
            lines.append(_games_line(f"{n} players:", games_per_second(n, seconds)))
            continue
        row, mod = games_per_second_pair(n, options, seconds)
        lines.append(_games_line(f"{n} players:", row))
        lines.append(_games_line("  with modules:", mod) + f"  {mod['share']:5.1%}")
        lines.append(f"  {'':15} 95% interval of the share: {mod['share_low']:.1%} to {mod['share_high']:.1%}"
                     f" ({mod['pairs']} pairs)")
        lines.append(f"  {'':15} per action: {mod['per_action']:.1%}"
                     f" (the games are {mod['length']:.2f}x as long)")
    if options:
        lines.append("  (the last column: the modules' games/s as a share of the base game's, the")
        lines.append(f"  median over pairs of alternating batches of ~{PAIR_SECONDS * 1000:.0f} ms each;")
        lines.append("  per action: that share times how much longer the games are)")
    others = [g for g in registry.names() if g != registry.DEFAULT] if game is None else []
    for other in others:  # in the same run: ratios count
        lines += game_lines(other, seconds, players)
    early, late = sample_states(4, 200, options=options)
    for name, states in (("early", early), ("late", late)):
        g = generation_ns(states, seconds / 2)
        lines.append(f"legal actions, 4 players, {name + ':':6} {g['c_ns']:6.0f} ns (C) "
                     f"{g['python_ns']:7.0f} ns (Python) {g['actions']:5.1f} actions")
    a = apply_ns(4)
    lines.append(f"apply, 4 players: {a['c_ns']:5.0f} ns (C, unchecked) {a['python_ns']:6.0f} ns "
                 f"(State.apply, checked)")
    for name, states in (("early", early), ("late", late)):
        c = clone_ns(states[len(states) // 2], seconds / 4)
        lines.append(f"clone, 4 players, {name + ':':6} {c['c_ns']:5.0f} ns (C copy) "
                     f"{c['python_ns']:6.0f} ns (State.clone())")
    return "\n".join(lines)


def game_lines(game: str, seconds: float, players) -> list[str]:
    """Random games per second of one game, per player count."""
    return [f"random {game} games, CPU time:"] + [
        _games_line(f"{n} players:", games_per_second(n, seconds, game=game)) for n in players]


def _games_line(label: str, row: dict) -> str:
    """One row of random games, within 80 columns with a share column after it."""
    return (f"  {label:15} {row['games_per_s']:7.0f} games/s {row['actions_per_game']:6.1f} actions/game"
            f" ({row['games']} games)")
