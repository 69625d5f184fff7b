"""Games reviewed move by move: every decision searched again from what its seat knew (``review``)."""
