"""alhambra-ai."""
