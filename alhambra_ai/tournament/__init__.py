"""Bot tournaments: isolated bot processes, TrueSkill ratings, parallel and resumable runs.

The tournament knows bots only as files and processes: the referee (this process) owns the game
state and never imports bot code; each seat's bot runs in its own worker process and sees only its
own observations.

    schedule.py   which games: combinations x seat rotations x repeats; stable ids and seeds
    sandbox.py    how workers are isolated: what the machine offers, their command line, the record
    confine.py    what a worker applies to itself before any bot code: mounts, rlimits, Landlock, seccomp
    worker.py     the bot side of the protocol (started by sandbox.py, python -I)
    process.py    the referee side of a worker: BotSource, deadlines, failure reasons, stopping, killing
    referee.py    one game: forfeits, the stand-in policy, final ranks
    store.py      results.jsonl, game records, settings (kill-safe)
    ratings.py    TrueSkill standings recomputed from the stored results
    config.py     settings, TOML definitions, input checks
    runner.py     a whole tournament: checks, the backend that plays the games, progress, standings
    ray_backend.py  --backend ray: each game a Ray task on a cluster (optional: needs Ray)
    ladder.py     `alhambra-ai submit`: validation and the persistent ladder
    replay.py     `alhambra-ai replay`: a stored game in text
    command.py    the click commands

Nothing is imported here, so that bot workers start light: import from the modules.

>>> from alhambra_ai.tournament.schedule import make_schedule
>>> [g.bots for g in make_schedule(["b", "a"], seats=[2], repeats=1, master_seed=1)]
[('a', 'b'), ('b', 'a')]
"""
