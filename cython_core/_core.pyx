# cython: language_level=3
"""alhambra_ai._core: the compiled rules engine (one extension, split into .pxi parts by concept).

Import the public names from ``alhambra_ai``, not from here.
"""

from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t, int64_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy, memset

# Layers: shared/ (what both families use: tiles, cities, the seats' Cities, city actions), then the base
# game (alhambra/) and the dice games (dice/), each using only shared/ and itself, then registry.pxi, the one
# place that dispatches by game (tests/core/test_core_layers.py checks this).
include "shared/rng.pxi"
include "shared/tiles.pxi"
include "shared/city.pxi"
include "shared/camps.pxi"
include "shared/city_py.pxi"
include "shared/cities.pxi"
include "shared/cityview.pxi"
include "shared/city_actions.pxi"
include "shared/errors.pxi"
include "shared/events.pxi"
include "shared/learned.pxi"
include "alhambra/state.pxi"
include "alhambra/actions.pxi"
include "alhambra/observe.pxi"
include "alhambra/playout.pxi"
include "alhambra/search.pxi"
include "alhambra/value.pxi"
include "alhambra/modules/table.pxi"
include "dice/state.pxi"
include "dice/actions.pxi"
include "dice/state_py.pxi"
include "dice/observe.pxi"
include "dice/value.pxi"
include "dice/search.pxi"
include "registry.pxi"
