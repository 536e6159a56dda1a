"""Speed of the blocking sweep (catalog.compute.blocksweep), as ratios.

Run: ``make bench-block`` (or ``python benchmarks/block.py [--small]``).

Goal (issue 40, part 2): Blocking Wythoff Nim and Blocking Maharaja Nim with
``block`` 1 to 4 at n = 10^6 through ``catalog.p_positions`` (the engine
"blocking") within 5x of Maharaja Nim (block 0) at 10^6, timed in the same
run. Each line prints the ratio of CPU seconds (``time.process_time``, as
``bench-cones``: other processes on the machine stretch wall time far more
than CPU time), the wall seconds, and the words the sweep's searches read a
column (``stats``; with b = 1 they grow with n, docs/kinds/block.md).

Each time is the best of two runs after a warm-up call (compiling). Exits 1
if a goal is missed.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from catalog import p_positions
from catalog.compute.blocksweep import block_sweep_p_positions

WYTHOFF = [[1, 0], [0, 1], [1, 1]]
KNIGHT = [[1, 2], [2, 1]]


def best(game: dict, n: int) -> tuple[float, float]:
    """The least CPU and wall seconds of two calls, after a warm-up."""
    p_positions(game, 1000)
    runs = []
    for _ in range(2):
        cpu, wall = time.process_time(), time.perf_counter()
        p_positions(game, n)
        runs.append((time.process_time() - cpu, time.perf_counter() - wall))
    return min(r[0] for r in runs), min(r[1] for r in runs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="sizes / 10")
    args = parser.parse_args()
    n = 10**6 // (10 if args.small else 1)
    ok = True
    base, wall = best({"rays": WYTHOFF, "moves": KNIGHT}, n)
    print(f"Maharaja Nim (block 0) at n = {n}: {base:.3f} s CPU, {wall:.3f} s wall")
    for name, moves in (("Blocking Wythoff", []), ("Blocking Maharaja", KNIGHT)):
        for block in (1, 2, 3, 4):
            t, wall = best({"rays": WYTHOFF, "moves": moves, "block": block}, n)
            stats = np.zeros(2, dtype=np.int64)
            block_sweep_p_positions(n, block, WYTHOFF, moves, stats=stats)
            ratio = t / base
            ok &= ratio <= 5
            print(
                f"  {name:18s} block {block}  {t:7.3f} s  ratio {ratio:5.2f}  "
                f"(goal <= 5) {'PASS' if ratio <= 5 else 'MISS'}  wall {wall:6.3f} s  "
                f"{stats[1] / n:7.1f} words a column"
            )
    print("all goals met" if ok else "a goal was missed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
