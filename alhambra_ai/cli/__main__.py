"""``python -m alhambra_ai.cli``: the same command line as ``alhambra-ai``."""

from alhambra_ai.cli import main

main()
