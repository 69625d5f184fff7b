"""Bot tournaments: isolated bot processes, TrueSkill ratings, parallel and resumable runs.

The tournament knows bots only as files and processes: the referee (this process) owns the game
state and never imports bot code; each seat's bot runs in its own worker process and sees only its
own observations.

    schedule.py   which games: combinations x seat rotations x repeats; stable ids and seeds
    sandbox.py    how workers are isolated: what the machine offers, their command line, the record
    confine.py    what a worker applies to itself before any bot code: its own root, rlimits, Landlock,
                  seccomp
    resident.py   every page a worker may read kept in the page cache (no page a bot can bring in)
    cgroup.py     a worker's own memory and task caps, where the machine lets the referee make cgroups
    worker.py     the bot side of the protocol (started by sandbox.py, python -I)
    process.py    the referee side of a worker: BotSource, deadlines, failure reasons, stopping, killing;
                  the isolation probe (isolation()) and the CPU slots (take_cpu) that workers use
    referee.py    one game: Limits (a bot's own too), forfeits, the stand-in policy, final ranks; the
                  watchdog (Heartbeat, check_heartbeats, run_watched: a stalled game fails alone)
    store.py      results.jsonl, failed.jsonl, game records, settings; the kill-safe JSON-lines primitives
                  (append_line, read_lines) that strength's log uses too
    ratings.py    TrueSkill standings recomputed from the stored results (counting with alhambra_ai.stats)
    config.py     settings, TOML definitions, input checks (the game through alhambra_ai.registry)
    runner.py     a whole tournament: checks, the Backend that plays the games (local; backend_named),
                  progress, standings
    ray_backend.py  --backend ray: each game a Ray task on a cluster (optional: needs Ray)
    ladder.py     `alhambra-ai submit`: validation and the persistent ladder
    replay.py     `alhambra-ai replay`: a stored game in text

Elsewhere: ``alhambra_ai.strength`` and ``alhambra_ai.sprt_run`` are schedules and summaries played through
runner's backends; ``alhambra_ai.cli.tournament`` holds the click commands (tournament, submit, replay).
Library modules here import no click: bad input is ``alhambra_ai.errors.BadInput`` (StoreError,
SandboxError, ClusterError are kinds of it), which the CLI shows as one line, exit 2.

Nothing is imported here, so that bot workers start light: import from the modules.

>>> from alhambra_ai.tournament.schedule import make_schedule
>>> [g.bots for g in make_schedule(["b", "a"], seats=[2], repeats=1, master_seed=1)]
[('a', 'b'), ('b', 'a')]
"""
