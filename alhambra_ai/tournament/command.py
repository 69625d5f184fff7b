"""Gone: the commands live in ``alhambra_ai.cli.tournament``; bad input is ``alhambra_ai.errors.BadInput``.

Only this alias is left, for ``alhambra_ai/report.py``'s ``from alhambra_ai.tournament.command import
InputError`` until it imports BadInput itself (then delete this file). It imports no click.
"""

from alhambra_ai.errors import BadInput as InputError

__all__ = ["InputError"]
