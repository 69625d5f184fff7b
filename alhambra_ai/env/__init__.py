"""Researchers' interfaces (docs/env.md): a PettingZoo AEC environment and OpenSpiel games over the engine.

``alhambra_ai.env.spaces`` (numpy only) holds the fixed action index and the observation vector;
``alhambra_ai.env.pettingzoo`` and ``alhambra_ai.env.openspiel`` need the ``env`` extra
(``pip install -e ".[env]"``) and are imported only when asked for.
"""

from alhambra_ai.env.spaces import DEFAULT_RADIUS, ActionSpace, ObservationEncoder, OutsideWindow

__all__ = ["DEFAULT_RADIUS", "ActionSpace", "ObservationEncoder", "OutsideWindow"]
