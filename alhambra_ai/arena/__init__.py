"""The arena: bot tournaments, TrueSkill ratings, strength runs and sequential tests, parallel and resumable.

The arena knows bots only as files and processes: the referee (this process) owns the game state and never
imports bot code; each seat's bot runs in its own sandboxed worker process (``alhambra_ai.sandbox``) and sees
only its own observations.

    schedule.py   which games: combinations x seat rotations x repeats; stable ids and seeds
    referee.py    one game: Limits (a bot's own too), forfeits, the stand-in policy, final ranks; the
                  watchdog (Heartbeat, check_heartbeats, run_watched: a stalled game fails alone)
    store.py      results.jsonl, failed.jsonl, game records, settings; the kill-safe JSON-lines primitives
                  (append_line, read_lines) that strength's log uses too
    ratings.py    TrueSkill standings recomputed from the stored results (counting with stats.py)
    config.py     settings, TOML definitions, input checks (the game through alhambra_ai.registry)
    runner.py     a whole tournament: checks, the Backend that plays the games (local; backend_named),
                  progress, standings
    ray_backend.py  --backend ray: each game a Ray task on a cluster (optional: needs Ray)
    ladder.py     `alhambra-ai submit`: validation and the persistent ladder
    strength.py   `alhambra-ai strength`: matches of two bots, win shares with intervals
    sprt.py       the sequential probability ratio test; sprt_run.py plays it through runner's backends
    stats.py      the win statistics every report shares: ranks, win shares, the Wilson interval

``alhambra_ai.cli.tournament`` holds the click commands (tournament, submit, replay; a stored game in text is
``alhambra_ai.terminal.replay``'s). Library modules here import no click: bad input is
``alhambra_ai.errors.BadInput`` (StoreError, SandboxError, ClusterError are kinds of it), which the CLI shows
as one line, exit 2.

Nothing is imported here, so that bot workers start light: import from the modules.

>>> from alhambra_ai.arena.schedule import make_schedule
>>> [g.bots for g in make_schedule(["b", "a"], seats=[2], repeats=1, master_seed=1)]
[('a', 'b'), ('b', 'a')]
"""
