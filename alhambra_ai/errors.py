"""The one error type for input a user gave that cannot be used.

Library code raises :class:`BadInput` (or a subclass) with a message that names what is wrong and how to
put it right; the command line prints it as one line on stderr and exits with code 2. Library modules never
import click: the CLI (``alhambra_ai.cli``) alone turns this into click's form.

>>> str(BadInput("--players must be 2-6, not 9"))
'--players must be 2-6, not 9'
"""

from __future__ import annotations


class BadInput(ValueError):
    """Input (an argument, a file, a record, a position) that cannot be used: one line, exit 2 on the CLI.

    A ValueError, so that code which checks values with ``except ValueError`` keeps working."""


__all__ = ["BadInput"]
