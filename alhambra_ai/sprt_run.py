"""``alhambra-ai sprt NEW BASE``: play deals of NEW against BASE until the sequential test decides.

A deal is one deal seed played in every seat rotation: NEW against ``players - 1`` copies of BASE, as a
``NEW:BASE`` match of ``alhambra-ai strength`` (the same deals, referee, limits, forfeits, result log and
parallel or Ray play: this module only drives them). Finished deals go to the test (alhambra_ai.sprt) in
deal order, whatever order their games finish in, so the decision and the number of games never depend on
``--jobs`` or the backend; the run stops as soon as H0 or H1 is accepted (games still in progress are
dropped) or at ``--max-games``. With ``--out`` every finished game is kept (the strength log's format:
``alhambra-ai strength --report FILE`` reads it too), and ``--resume`` replays the file's deals through
the test before playing on.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

from alhambra_ai.options import check_game_options
from alhambra_ai.sprt import Sprt
from alhambra_ai.strength import (
    FORMAT_VERSION,
    Game,
    Match,
    ResultLog,
    _cluster,
    _play,
    check_match,
    win_share,
)


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
    if game != "alhambra":
        settings["game"] = game
    return settings


def check_run(settings: dict, out: str | Path | None, resume: bool, max_games: int | None) -> None:
    """Raise ValueError for a run that cannot start (before anything is printed or played)."""
    new, base = settings["sprt"]
    check_match(f"{new}:{base}")
    check_game_options(settings.get("game", "alhambra"), settings.get("options"))
    if max_games is not None and max_games < settings["players"]:
        raise ValueError(f"--max-games must be at least one deal ({settings['players']} games)")
    if resume and out is None:
        raise ValueError("--resume needs --out FILE (the log of the run to continue)")
    if out is None:
        return
    out = Path(out)
    if not resume and out.exists() and out.stat().st_size:
        raise ValueError(f"{out} already holds games: add --resume to continue that run, or choose another "
                         "--out")
    if resume and not out.is_file():
        raise ValueError(f"nothing to resume: no file {out}")
    if resume and (old := ResultLog.read(out)[0]["settings"]) != settings:
        changed = ", ".join(f"{k} {old.get(k)} -> {settings.get(k)}" for k in sorted({*old, *settings})
                            if old.get(k) != settings.get(k))
        raise ValueError(f"{out} was played with other settings ({changed}): resume with the same ones")


def run_sprt(new: str, base: str, test: Sprt, seed: int = 1, move_time: float = 0.1, time_bank: float = 5.0,
             memory: int = 2048, options: dict | None = None, game: str = "alhambra", jobs: int = 1,
             backend: str = "local", address: str | None = None, out: str | Path | None = None,
             resume: bool = False, max_games: int | None = None, progress=None) -> str | None:
    """Play deals of ``new`` against ``base`` (bot names or files, optionally ``@SECONDS``) into ``test``
    until it decides; return its decision, 'H1', 'H0', or None at ``max_games`` (rounded down to whole
    deals). ``memory``: MB per worker, 0 for no cap. ``out``: the JSON-lines log of the games; an existing
    one is refused unless ``resume``, which continues it (its settings must match). ``progress(test)`` is
    called once the log is replayed and after every deal. Raises ValueError for bad input."""
    players = test.players
    settings = run_settings(new, base, players, seed, move_time, time_bank, memory, options, game)
    check_run(settings, out, resume, max_games)
    match = Match(f"{new}:{base}", move_time, time_bank, None, tuple(options or ()), game, memory or None)
    log = ResultLog(out, settings)
    me = match.lineup(players)[0]
    limit = None if max_games is None else max_games // players  # in deals

    def over() -> bool:
        return test.status is not None or (limit is not None and test.deals >= limit)

    def feed() -> None:  # the complete deals next in order
        while not over():
            keys = [(match.text, players, test.deals * players + r) for r in range(players)]
            if not all(k in log.done for k in keys):
                return
            test.add(deal_score([log.done[k] for k in keys], me))
            if progress:
                progress(test)

    def finished(_group: int, index: int, result: dict) -> None:
        log.add(match.text, players, index, result)
        feed()
        if over():
            raise _Decided

    if progress:
        progress(test)
    feed()
    # deals are scheduled a chunk at a time (the run has no fixed length); within one the cores never wait
    chunk = 1024 if backend == "ray" else 32 * max(1, jobs)
    with _cluster(backend, address) as ray:
        while not over():
            first = test.deals  # every earlier deal is in the test
            last = first + chunk if limit is None else min(limit, first + chunk)
            specs = match.games(players, last * players, seed, start=first * players)
            todo = [Game(0, g, spec) for g, spec in enumerate(specs, start=first * players)
                    if (match.text, players, g) not in log.done]
            try:
                _play(todo, [(match, players)], jobs, finished, ray)
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


# ---------------------------------------------------------------- command line

SPRT_HELP = """Is NEW stronger than BASE? Play deals until a sequential probability ratio test decides.

NEW and BASE are bot names in bots/ or .py files, optionally NAME@SECONDS (its own time per move). A deal
is one deal seed played in every seat rotation: NEW in one seat against --players - 1 copies of BASE,
refereed as in `alhambra-ai strength`. Each deal is one sample: NEW's mean win share over it (the luck of
the deal cancels). The test (Wald's SPRT, as the generalized SPRT of fishtest and fastchess) weighs H0
"NEW is --elo0 stronger" against H1 "--elo1 stronger" after every deal and stops when one is accepted,
wrong with probability at most --alpha (accepting H1) or --beta (accepting H0). With N players, NEW at
+elo is expected to win a share s with s / (1 - s) * (N - 1) = 10^(elo/400). docs/sprt.md explains it.

\b
Examples:
  alhambra-ai sprt bots/mine.py bots/mine_old.py --move-time 0.1 --jobs 2
  alhambra-ai sprt mcts@0.2 mcts@0.1 --elo0 0 --elo1 20 --out runs/m.jsonl
  alhambra-ai sprt bots/mine.py greedy --players 4 --share0 0.25 --share1 0.3
  alhambra-ai sprt mcts@0.2 mcts@0.1 --elo1 20 --out runs/m.jsonl --resume
"""


def _sprt_command():
    import click

    from alhambra_ai.options import GAME_HELP, GAMES, click_callback
    from alhambra_ai.options import HELP as OPTIONS_HELP
    from alhambra_ai.tournament.config import BadInput

    class InputError(click.ClickException):
        exit_code = 2

    @click.command("sprt", help=SPRT_HELP)
    @click.argument("new")
    @click.argument("base")
    @click.option("--players", type=click.IntRange(2, 6), default=2, show_default=True,
                  help="Seats per game: NEW and players - 1 copies of BASE.")
    @click.option("--elo0", type=float, default=None, help="H0: NEW is this much stronger. [default: 0]")
    @click.option("--elo1", type=float, default=None, help="H1: NEW is this much stronger. [default: 5]")
    @click.option("--share0", type=float, default=None,
                  help="H0 as NEW's expected win share instead of Elo (par is 1/players).")
    @click.option("--share1", type=float, default=None, help="H1 as NEW's expected win share.")
    @click.option("--alpha", type=float, default=0.05, show_default=True,
                  help="The chance of accepting H1 when H0 holds.")
    @click.option("--beta", type=float, default=0.05, show_default=True,
                  help="The chance of accepting H0 when H1 holds.")
    @click.option("--max-games", type=int, default=None, metavar="N",
                  help="Stop undecided after N games (whole deals). [default: no limit]")
    @click.option("--seed", type=int, default=1, show_default=True, help="Master seed of the deals.")
    @click.option("--move-time", type=float, default=0.1, show_default=True, help="Seconds per move.")
    @click.option("--time-bank", type=float, default=5.0, show_default=True,
                  help="Extra seconds per game and seat, drawn on by moves over their limit.")
    @click.option("--memory", type=int, default=2048, show_default=True, metavar="MB",
                  help="Memory cap per bot process (0 = none).")
    @click.option("--jobs", "-j", type=int, default=1, show_default=True, help="Games in parallel (local).")
    @click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
                  help='Where games run: this machine, or a Ray cluster (needs pip install -e ".[ray]").')
    @click.option("--address", metavar="auto|HOST:PORT", default=None,
                  help="The Ray cluster (--backend ray). [default: the one running here, else a new one]")
    @click.option("--out", type=click.Path(dir_okay=False), default=None, metavar="FILE",
                  help="Keep finished games in this JSON-lines file (the format of strength --out).")
    @click.option("--resume", is_flag=True, help="Continue the run in --out FILE (same bots and settings).")
    @click.option("--progress/--no-progress", default=True, show_default=True,
                  help="A progress line on stderr.")
    @click.option("--options", "options", default=None, callback=click_callback, help=OPTIONS_HELP)
    @click.option("--game", "game", type=click.Choice(GAMES), default="alhambra", help=GAME_HELP)
    def sprt(new, base, players, elo0, elo1, share0, share1, alpha, beta, max_games, seed, move_time,
             time_bank, memory, jobs, backend, address, out, resume, progress, options, game):
        if (elo0 is not None or elo1 is not None) and (share0 is not None or share1 is not None):
            raise InputError("give --elo0/--elo1 or --share0/--share1, not both")
        if not move_time > 0 or math.isinf(move_time) or not time_bank >= 0:
            raise InputError("--move-time must be > 0 and --time-bank >= 0")
        if memory < 0 or 0 < memory < 64:
            raise InputError(f"--memory must be a number of MB >= 64 (0 = no cap), not {memory}")
        if jobs < 1:
            raise InputError("--jobs must be at least 1")
        if address and backend != "ray":
            raise InputError("--address is the Ray cluster's (auto or HOST:PORT) and needs --backend ray")
        try:
            test = Sprt(players, 0.0 if elo0 is None else elo0, 5.0 if elo1 is None else elo1, alpha, beta,
                        share0, share1)
            check_run(run_settings(new, base, players, seed, move_time, time_bank, memory, options, game),
                      out, resume, max_games)
            if backend == "ray":
                from alhambra_ai.tournament.ray_backend import import_ray

                import_ray()
        except (ValueError, BadInput) as e:
            raise InputError(str(e)) from None
        click.echo(f"sprt: NEW {new} vs BASE {base}, {players} players"
                   + ("" if game == "alhambra" else f", {game}") + f", seed {seed}")
        click.echo(hypotheses(test))

        from tqdm import tqdm

        bar = tqdm(file=sys.stderr, disable=not progress, dynamic_ncols=True,
                   bar_format="{desc}  [{elapsed}]")

        def show(t: Sprt) -> None:
            bar.set_description_str(f"{t.deals} deals  {live(t)}")  # refreshes the line

        try:
            decision = run_sprt(new, base, test, seed, move_time, time_bank, memory, options, game, jobs,
                                backend, address, out, resume, max_games, show if progress else None)
        except (ValueError, BadInput) as e:
            raise InputError(str(e)) from None
        except KeyboardInterrupt:
            bar.close()
            again = f"; continue with --out {out} --resume" if out else ""
            click.echo(f"\ninterrupted after {test.deals} deals{again}", err=True)
            sys.exit(130)
        bar.close()
        for line in summary(test, decision):
            click.echo(line)

    return sprt


sprt_command = _sprt_command()
