"""Engine benchmarks: random games per second, legal-action generation, apply, clone.

Times are CPU time of this process (``time.process_time``), so other load on the machine inflates them
less than wall time would; each figure comes from repeated runs of a fixed amount of work.

>>> rows = run(seconds=0.05, players=(4,))
>>> sorted(rows[0])
['actions_per_game', 'actions_per_s', 'games', 'games_per_s', 'players', 'seconds']
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

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

    def run_batch(self) -> tuple[int, int, float]:
        """One batch: (games, actions, CPU seconds)."""
        t = time.process_time()
        seed = self.seed + self.games
        games = self.batch
        actions = self.random_games(self.game, self.players, games, seed, self.options)
        took = time.process_time() - t
        self.actions += actions
        self.spent += took
        self.games += games
        if took < self.step:
            self.batch = min(self.batch * 2, 2000)
        return games, actions, took

    def row(self) -> dict:
        return {"players": self.players, "games": self.games, "seconds": self.spent,
                "games_per_s": self.games / self.spent, "actions_per_game": self.actions / self.games,
                "actions_per_s": self.actions / self.spent}


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


def games_per_second_group(players: int, sides: Sequence[tuple[str, dict | None]], seconds: float = 1.0,
                           seed: int = 1) -> list[dict]:
    """Random games of each side (a game of ``registry.names()`` and its options), each timed for about
    `seconds`, in rounds of short alternating batches (about PAIR_SECONDS each): a change of the shared
    machine's speed slows every side of a round alike. The first side is the reference: every other side's
    row adds, over the rounds (`pairs`), the median share of the reference's games/s (`share`, with its 95%
    interval `share_low`, `share_high`) and of its actions/s (`action_share`, `action_share_low`,
    `action_share_high`). Longer batches (whole seconds) left the share 2-3 points apart between runs; pairs
    of a few ms agree within a few tenths. The interval is this run's: separate runs (another process, its
    code and data laid out anew) differ by about half a point more."""
    timings = [_Timing(players, seed, opts, game, PAIR_SECONDS) for game, opts in sides]
    games_ratios: list[list[float]] = [[] for _ in sides]
    action_ratios: list[list[float]] = [[] for _ in sides]
    while min(t.spent for t in timings) < seconds or not games_ratios[-1]:
        sizes = [t.batch for t in timings]
        rates = []
        for timing in timings:
            games, actions, took = timing.run_batch()
            took = max(took, 1e-9)
            rates.append((games / took, actions / took))
        if [t.batch for t in timings] == sizes:     # (a round while a batch still grows is no pair)
            for i in range(1, len(sides)):
                games_ratios[i].append(rates[i][0] / rates[0][0])
                action_ratios[i].append(rates[i][1] / rates[0][1])
    rows = [t.row() for t in timings]
    for row, g, a in zip(rows[1:], games_ratios[1:], action_ratios[1:], strict=True):
        row["share"], row["share_low"], row["share_high"] = median_interval(g)
        row["action_share"], row["action_share_low"], row["action_share_high"] = median_interval(a)
        row["pairs"] = len(g)
    return rows


def games_per_second_pair(players: int, options: dict, seconds: float = 1.0,
                          seed: int = 1) -> tuple[dict, dict]:
    """The base game's and the modules' random games in alternating batches (games_per_second_group); the
    modules' row adds `length`, how much longer its games are, and `per_action`, the share times that."""
    base, mod = games_per_second_group(players, [(registry.DEFAULT, None), (registry.DEFAULT, options)],
                                       seconds, seed)
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
    """The full benchmark as text (games per player count, generation, apply, clone early / late). The base
    game's random games, with module ``options`` the modules' too, and the other games' are timed per player
    count in one run of alternating batches: each other's share of the base game's speed is the comparable
    figure on a shared machine (the modules: of its games/s; the other games: of its actions/s). The rest is
    measured with the modules. ``game`` picks one game only (another game than the base game: its random
    games, no share)."""
    if game is not None and game != registry.DEFAULT:
        return "\n".join(game_lines(game, seconds, players))
    others = [g for g in registry.names() if g != registry.DEFAULT] if game is None else []
    sides = [(registry.DEFAULT, None)] + ([(registry.DEFAULT, options)] if options else [])
    sides += [(other, None) for other in others]
    rows = {n: games_per_second_group(n, sides, seconds) if len(sides) > 1 else [games_per_second(n, seconds)]
            for n in players}
    lines = ["random games (uniform over the legal actions, setup included), CPU time:"]
    if options:
        lines.append(f"  with modules: {options_text(options)}")
    for n in players:
        lines.append(_games_line(f"{n} players:", rows[n][0]))
        if not options:
            continue
        base, mod = rows[n][0], rows[n][1]
        lines.append(_games_line("  with modules:", mod) + f" {mod['share']:6.1%}")
        lines.append(f"  {'':15} 95% interval of the share: {mod['share_low']:.1%} to {mod['share_high']:.1%}"
                     f" ({mod['pairs']} pairs)")
        length = mod["actions_per_game"] / base["actions_per_game"]
        lines.append(f"  {'':15} per action: {mod['share'] * length:.1%}"
                     f" (the games are {length:.2f}x as long)")
    if options:
        lines.append("  (the last column: the modules' games/s as a share of the base game's, the")
        lines.append(f"  median over pairs of alternating batches of ~{PAIR_SECONDS * 1000:.0f} ms each;")
        lines.append("  per action: that share times how much longer the games are)")
    for k, other in enumerate(others):  # in the same rounds as the base game's: the shares count
        lines.append(f"random {other} games, CPU time:")
        for n in players:
            row = rows[n][len(sides) - len(others) + k]
            lines.append(_games_line(f"{n} players:", row) + f" {row['action_share']:6.3f}x")
            lines.append(f"  {'':15} 95% interval of the ratio: {row['action_share_low']:.3f}x to "
                         f"{row['action_share_high']:.3f}x ({row['pairs']} pairs)")
    if others:
        lines.append("  (the last column: the game's actions/s over the base game's, the median over")
        ms = PAIR_SECONDS * 1000
        lines.append(f"  pairs of alternating batches of ~{ms:.0f} ms each, in the same run)")
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
    return (f"  {label:15}{row['games_per_s']:7.0f} games/s {row['actions_per_game']:6.1f} actions/game"
            f" {row['actions_per_s'] / 1e6:5.2f}M actions/s")
