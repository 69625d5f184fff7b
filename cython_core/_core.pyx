# cython: language_level=3
"""alhambra_ai._core: the compiled rules engine (one extension, split into .pxi parts by concept).

Import the public names from ``alhambra_ai``, not from here.
"""

from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t, int64_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy, memset

include "rng.pxi"
include "tiles.pxi"
include "city.pxi"
include "city_py.pxi"
include "state.pxi"
include "actions.pxi"
include "observe.pxi"
include "playout.pxi"
include "search.pxi"
