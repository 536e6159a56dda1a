"""Speed of the blocking sweep (catalog.compute.blocksweep), as ratios.

Run: ``make bench-block`` (or ``python benchmarks/block.py [--small] [--slow]``).

Goal (issue 40, part 2): Blocking Wythoff Nim and Blocking Maharaja Nim with
``block`` 2 to 4 at n = 10^6 through ``catalog.p_positions`` (the engine
"blocking") within 5x of Maharaja Nim (block 0) at 10^6, timed in the same
run. ``block`` 1 is printed apart and not held to the goal: its partly
filled rows and diagonals interleave, so its sweep is quadratic (about n/30
union-find jumps a column, docs/kinds/block.md); by default it is timed at
n / 10, and at n with ``--slow``.

Each time is the best of two runs after a warm-up call (compiling); the
b = 1 times are one run. Exits 1 if a goal is missed.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

import numpy as np
from cones import best  # the same timing as bench-cones

from catalog import p_positions
from catalog.compute.blocksweep import block_sweep_p_positions

WYTHOFF = [[1, 0], [0, 1], [1, 1]]
KNIGHT = [[1, 2], [2, 1]]


def once(func: Callable[[], object]) -> float:
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="sizes / 10")
    parser.add_argument("--slow", action="store_true", help="b = 1 at n too")
    args = parser.parse_args()
    n = 10**6 // (10 if args.small else 1)
    ok = True
    maharaja = {"rays": WYTHOFF, "moves": KNIGHT}
    base = best(lambda: p_positions(maharaja, n))
    print(f"Maharaja Nim (block 0) at n = {n}: {base:.3f} s")
    for name, moves in (("Blocking Wythoff", []), ("Blocking Maharaja", KNIGHT)):
        for block in (2, 3, 4):
            game = {"rays": WYTHOFF, "moves": moves, "block": block}
            t = best(lambda g=game: p_positions(g, n))
            ratio = t / base
            ok &= ratio <= 5
            print(
                f"  {name:18s} block {block}  {t:7.3f} s  ratio {ratio:5.2f}  "
                "(goal <= 5)"
            )
    side = n if args.slow else n // 10
    print(f"block 1 at n = {side} (quadratic; not held to the goal):")
    for name, moves in (("Blocking Wythoff", []), ("Blocking Maharaja", KNIGHT)):
        stats = np.zeros(2, dtype=np.int64)
        block_sweep_p_positions(1000, 1, WYTHOFF, moves)  # compiled already
        t = once(
            lambda m=moves, s=stats: block_sweep_p_positions(
                side, 1, WYTHOFF, m, stats=s
            )
        )
        print(
            f"  {name:18s} block 1  {t:7.3f} s  {stats[1] / side:9.1f} jumps a column"
        )
    print("all goals met" if ok else "a goal was missed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
