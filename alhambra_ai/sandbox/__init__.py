"""The sandbox: each bot in its own isolated worker process, and the referee's side of it.

    launch.py     how workers are isolated: what the machine offers, their command line, the record
    confine.py    what a worker applies to itself before any bot code: its own root, rlimits, Landlock,
                  seccomp
    resident.py   every page a worker may read kept in the page cache (no page a bot can bring in)
    cgroup.py     a worker's own memory and task caps, where the machine lets the referee make cgroups
    worker.py     the bot side of the protocol (started by launch.py, python -I)
    process.py    the referee side of a worker: BotSource, deadlines, failure reasons, stopping, killing;
                  the isolation probe (isolation()) and the CPU slots (take_cpu) that workers use

Nothing is imported here, so that bot workers start light: import from the modules.
"""
