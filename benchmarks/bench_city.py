"""City hot paths on a 21-tile city (pytest-benchmark): legal-cell enumeration, removal cells, wall score.

`place` / `remove` / `swap` are answered from the grid's cache after the first call (the usual case: several
tiles are tried against one city between changes); `*_cold` drop the cache before every call (the cost of the
first query after a change).

Each benchmark runs the C function REPS times in one call without the GIL, so the reported time per call
divided by REPS is the cost of one C-level operation (printed as ns/op in extra_info).

    PYTHONPATH=. python -m pytest benchmarks/bench_city.py --benchmark-only
"""

import pytest

from alhambra_ai._core import City

REPS = 10_000
CITY = (
    "2,3:23 0,2:44 2,2:38 -1,1:12 0,1:54 2,1:14 -1,0:40 0,0:0 1,0:39 2,0:43 3,0:32 4,0:15 "
    "-2,-1:1 -1,-1:49 0,-1:13 1,-1:3 -2,-2:26 -1,-2:53 0,-2:18 -1,-3:2 0,-3:11"
)


@pytest.fixture(scope="module")
def city():
    c = City.from_text(CITY)
    assert len(c) == 21
    return c


@pytest.mark.parametrize(
    ("op", "walls"),
    [
        ("place_cold", 0),
        ("place", 0),
        ("place", 9),
        ("remove_cold", 0),
        ("remove", 0),
        ("swap", 1),
        ("check_place", 0),
        ("wall", 0),
        ("copy", 0),
    ],
)
def test_city_op(benchmark, city, op, walls):
    benchmark.pedantic(city._bench, args=(op, REPS, walls), rounds=20, iterations=1, warmup_rounds=2)
    benchmark.extra_info["ns_per_op"] = round(benchmark.stats.stats.median / REPS * 1e9, 1)
