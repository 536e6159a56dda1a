"""The theory layer's speed: adjoinable moves, far-out outcomes, invariants.

Run: ``make bench-theory`` (or ``python benchmarks/theory.py``).
Goals, each checked and printed; exit 1 if one is missed:

1. ``adjoinable(i, j)`` with i, j near 10^18: median under 1 ms.
2. The P-position of a column near 10^18 of an altered Wythoff game
   (what ``is-p`` far out costs, after the one-off saturation): median under
   1 ms, for the seeded altered games.
3. ``is-p`` of Maharaja Nim (W000004) at 10^18 through its dictionary:
   median under 1 ms after a one-off set-up under 1 s; printed also as a
   ratio to the altered-Wythoff column of goal 2 measured in the same run.
   Further out, through the same cached solver: is-p at 10^100 and 10^300
   (the largest coordinate a query takes) with a median under 5 ms, after
   the tables for 10^300 are built once (under 3 s, timed with tracemalloc
   on), and the solver's growth from 10^18 to 10^300 (tracemalloc) under
   32 MB.
4. Every seed's invariants (``catalog.compute.invariants.compute``) from
   scratch, the first ``show`` of an entry: under 2 s each.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
import tracemalloc

from catalog.compute import invariants
from catalog.compute.adjoinable import adjoinable
from catalog.compute.altered import is_altered_wythoff, saturation
from catalog.compute.farout import FarOut
from catalog.compute.ptable import p_positions
from catalog.compute.wordfarout import PROVED_N, solve
from catalog.games.definition import canonicalize
from catalog.store.seed import seed_dir


def median_time(call, arguments) -> float:
    times = []
    for args in arguments:
        start = time.perf_counter()
        call(*args)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    rng = random.Random(1)
    failures = []
    seeds = {
        path.stem: json.loads(path.read_text())
        for path in sorted(seed_dir().glob("W*.json"))
    }
    invariants.compute(seeds["W000004"]["definition"])  # compile numba once

    pairs = [
        (rng.randrange(10**17, 10**18), rng.randrange(10**17, 10**18))
        for _ in range(2000)
    ]
    took = median_time(adjoinable, pairs)
    print(f"adjoinable at 10^18: median {took * 1e6:.1f} µs")
    if took >= 1e-3:
        failures.append("adjoinable")

    for wid, seed in seeds.items():
        game = canonicalize(seed["definition"])
        if not is_altered_wythoff(game):
            continue
        start = time.perf_counter()
        solved = FarOut(saturation(game))
        setup = time.perf_counter() - start
        columns = [(rng.randrange(10**17, 10**18),) for _ in range(2000)]
        took = median_time(solved.column, columns)
        print(
            f"{wid} column at 10^18: median {took * 1e6:.1f} µs "
            f"(saturation once: {setup * 1e3:.1f} ms)"
        )
        if took >= 1e-3:
            failures.append(f"{wid} far out")

    maharaja = canonicalize(seeds["W000004"]["definition"])
    start = time.perf_counter()
    words = solve(maharaja.moves, p_positions(maharaja, PROVED_N), PROVED_N)
    setup = time.perf_counter() - start
    assert words is not None
    points = _near_p(words.solver, rng, 17, 300)
    took_m = median_time(words.solver.is_p, points)
    print(
        f"W000004 is-p at 10^18: median {took_m * 1e6:.1f} µs, "
        f"{took_m / took:.0f}x the altered column above "
        f"(set-up once: {setup * 1e3:.0f} ms)"
    )
    if took_m >= 1e-3 or setup >= 1.0:
        failures.append("W000004 far out")
    grown = 0
    for exponent in (100, 300):
        tracemalloc.start()
        start = time.perf_counter()
        words.solver.column(10**exponent - 1)  # the tables up to this level
        build = time.perf_counter() - start
        grown += tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        points = _near_p(words.solver, rng, exponent - 1, 60)
        far = median_time(words.solver.is_p, points)
        print(
            f"W000004 is-p at 10^{exponent}: median {far * 1e3:.2f} ms, "
            f"{far / took:.0f}x the altered column (tables once: {build:.2f} s "
            f"under tracemalloc, {grown / 1e6:.1f} MB since 10^18)"
        )
        if far >= 5e-3 or build >= 3.0 or grown >= 32e6:
            failures.append(f"W000004 at 10^{exponent}")

    for wid, seed in seeds.items():
        start = time.perf_counter()
        found = invariants.compute(seed["definition"])
        took = time.perf_counter() - start
        print(f"{wid} invariants: {took:.3f} s ({', '.join(found) or 'none apply'})")
        if took >= 2.0:
            failures.append(f"{wid} invariants")

    if failures:
        print("missed:", ", ".join(failures))
        return 1
    print("all goals met")
    return 0


def _near_p(solver, rng: random.Random, exponent: int, count: int) -> list:
    """``count`` positions (x, y), x of ``exponent + 1`` digits, y on or just
    above the column's lowest P-position: half P, half N."""
    cells = [rng.randrange(10**exponent, 10 ** (exponent + 1)) for _ in range(count)]
    return [(x, solver.column(x)[0] + rng.randrange(2)) for x in cells]


if __name__ == "__main__":
    sys.exit(main())
