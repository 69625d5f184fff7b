"""One package per game family (``alhambra/``: the base game and its modules; ``dice/``: the dice game and
Alcazaba), mirroring ``cython_core/``. Each lists its games in ``GAMES``; ``alhambra_ai.registry`` reads
them."""
