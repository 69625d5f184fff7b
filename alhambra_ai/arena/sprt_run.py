"""``alhambra-ai sprt NEW BASE``: play deals of NEW against BASE until the sequential test decides.

A deal is one deal seed played in every seat rotation: NEW against ``players - 1`` copies of BASE, as a
``NEW:BASE`` match of ``alhambra-ai strength`` (the same deals and result log; played, as strength's, by
the tournament's backends, so the same referee, limits, forfeits, watchdog and workers: this module only
schedules deals and feeds the test). Finished deals go to the test (alhambra_ai.arena.sprt) in
deal order, whatever order their games finish in, so the decision and the number of games never depend on
``--jobs`` or the backend; the run stops as soon as H0 or H1 is accepted (games still in progress are
dropped) or at ``--max-games``. With ``--results`` every finished game is kept (the strength log's format:
``alhambra-ai strength --report FILE`` reads it too), and ``--resume`` replays the file's deals through
the test before playing on.
"""

from __future__ import annotations

from pathlib import Path

from alhambra_ai import registry
from alhambra_ai.arena.runner import backend_named
from alhambra_ai.arena.sprt import Sprt
from alhambra_ai.arena.stats import win_share
from alhambra_ai.arena.strength import FORMAT_VERSION, Game, Match, ResultLog, check_match, play
from alhambra_ai.errors import BadInput
from alhambra_ai.options import check_game


class _Decided(Exception):
    """Raised from a game's callback to stop the games in progress: the test needs no more."""


def deal_score(results: list[dict], me: str) -> float:
    """NEW's (seat name ``me``) mean win share over the games of one deal.

    >>> deal_score([{"bots": ["a", "b"], "ranks": [1, 2]}, {"bots": ["b", "a"], "ranks": [1, 1]}], "a")
    0.75
    """
    return sum(win_share(r["ranks"], [i for i, bot in enumerate(r["bots"]) if bot == me])
               for r in results) / len(results)


def run_settings(new: str, base: str, players: int, seed: int, move_time: float, time_bank: float,
                 memory: int, options: dict | None, game: str) -> dict:
    """What the games depend on, as kept in the log's first line (not the test's bounds: a log can be
    tested again with others)."""
    settings = {"sprt": [new, base], "players": players, "seed": seed, "move_time": move_time,
                "time_bank": time_bank, "memory": memory, "format": FORMAT_VERSION}
    if options:
        settings["options"] = list(options)
    if game != registry.DEFAULT:  # the base game's logs keep the settings line they always had
        settings["game"] = game
    return settings


def check_run(settings: dict, out: str | Path | None, resume: bool, max_games: int | None) -> None:
    """Raise BadInput for a run that cannot start (before anything is printed or played)."""
    new, base = settings["sprt"]
    check_match(f"{new}:{base}")
    check_game(settings.get("game", registry.DEFAULT), settings.get("options"))
    if max_games is not None and max_games < settings["players"]:
        raise BadInput(f"--max-games must be at least one deal ({settings['players']} games)")
    if resume and out is None:
        raise BadInput("--resume needs --results FILE (the log of the run to continue)")
    if out is None:
        return
    out = Path(out)
    if not resume and out.exists() and out.stat().st_size:
        raise BadInput(f"{out} already holds games: add --resume to continue that run, or choose another "
                         "--results file")
    if resume and not out.is_file():
        raise BadInput(f"nothing to resume: no file {out}")
    if resume and (old := ResultLog.read(out)[0]["settings"]) != settings:
        changed = ", ".join(f"{k} {old.get(k)} -> {settings.get(k)}" for k in sorted({*old, *settings})
                            if old.get(k) != settings.get(k))
        raise BadInput(f"{out} was played with other settings ({changed}): resume with the same ones")


def run_sprt(new: str, base: str, test: Sprt, seed: int = 1, move_time: float = 0.1, time_bank: float = 5.0,
             memory: int = 2048, options: dict | None = None, game: str = registry.DEFAULT, jobs: int = 1,
             backend: str = "local", address: str | None = None, out: str | Path | None = None,
             resume: bool = False, max_games: int | None = None, progress=None) -> str | None:
    """Play deals of ``new`` against ``base`` (bot names or files, optionally ``@SECONDS``) into ``test``
    until it decides; return its decision, 'H1', 'H0', or None at ``max_games`` (rounded down to whole
    deals). ``memory``: MB per worker, 0 for no cap. ``out``: the JSON-lines log of the games; an existing
    one is refused unless ``resume``, which continues it (its settings must match). ``progress(test)`` is
    called once the log is replayed and after every deal. Raises BadInput for bad input."""
    players = test.players
    settings = run_settings(new, base, players, seed, move_time, time_bank, memory, options, game)
    check_run(settings, out, resume, max_games)
    match = Match(f"{new}:{base}", move_time, time_bank, None, tuple(options or ()), game, memory or None)
    log = ResultLog(out, settings)
    me = match.lineup(players)[0]
    limit = None if max_games is None else max_games // players  # in deals

    dealt = [0]  # deals taken from the log in order: those in the test and those with a failed game

    def over() -> bool:
        return test.status is not None or (limit is not None and dealt[0] >= limit)

    def feed() -> None:  # the complete deals next in order
        while not over():
            keys = [(match.text, players, dealt[0] * players + r) for r in range(players)]
            if not all(k in log.done for k in keys):
                return
            dealt[0] += 1
            deal = [log.done[k] for k in keys]
            if any("failed" in r for r in deal):  # a game of it could not be played: no sample
                continue
            test.add(deal_score(deal, me))
            if progress:
                progress(test)

    def finished(_group: int, index: int, result: dict) -> None:
        log.add(match.text, players, index, result)
        feed()
        if over():
            raise _Decided  # stops the games in progress (the backend kills their workers)

    if progress:
        progress(test)
    feed()
    if over():
        return test.status
    # deals are scheduled a chunk at a time (the run has no fixed length); within one the cores never wait
    chunk = 1024 if backend == "ray" else 32 * max(1, jobs)
    with backend_named(backend, jobs, address) as arena:
        checked = False
        while not over():
            first = dealt[0]  # every earlier deal is in the test (or failed)
            last = first + chunk if limit is None else min(limit, first + chunk)
            specs = match.games(players, last * players, seed, start=first * players)
            todo = [Game(0, g, spec) for g, spec in enumerate(specs, start=first * players)
                    if (match.text, players, g) not in log.done]
            if not checked:  # once: the Ray backend checks the cluster and starts its workers
                arena.check([g.spec for g in todo], match.limits(players))
                checked = True
            try:
                play(arena, todo, [(match, players)], finished)
            except _Decided:
                break
    return test.status


def _elo(x: float) -> str:
    return f"{round(x, 1) + 0.0:+.1f}"  # + 0.0: no "-0.0"


def hypotheses(test: Sprt) -> str:
    """The line naming H0, H1 and the error rates."""
    return (f"H0 Elo {_elo(test.elo0)} (share {test.s0:.3f}), H1 Elo {_elo(test.elo1)} (share "
            f"{test.s1:.3f}), alpha {test.alpha:g}, beta {test.beta:g}")


def live(test: Sprt) -> str:
    """The progress line's text: LLR and bounds, Elo and its interval."""
    e = test.estimate()
    return (f"LLR {test.llr():.2f} ({test.lower:.2f}, {test.upper:.2f})  "
            f"Elo {_elo(e.elo)} [{_elo(e.elo_low)}, {_elo(e.elo_high)}]")


def summary(test: Sprt, decision: str | None) -> list[str]:
    """The final report, every line at most 80 columns."""
    e = test.estimate()
    head = {"H1": f"H1 accepted: NEW is stronger than BASE (Elo {_elo(test.elo1)} more likely than "
                  f"{_elo(test.elo0)})",
            "H0": f"H0 accepted: NEW is not stronger than BASE (Elo {_elo(test.elo0)} more likely than "
                  f"{_elo(test.elo1)})",
            None: "no decision: the game limit was reached (LLR between the bounds)"}[decision]
    return [head,
            f"games {test.games}, deals {test.deals} ({test.players} players)",
            f"LLR {test.llr():.3f}, bounds [{test.lower:.3f}, {test.upper:.3f}]",
            f"Elo {_elo(e.elo)}, 95% [{_elo(e.elo_low)}, {_elo(e.elo_high)}]",
            f"share {e.share:.4f}, 95% [{e.share_low:.4f}, {e.share_high:.4f}] (par {test.par:.4f})"]
