"""The subtraction-game sweep's speed: Beatty games and their ⋆.

Run: ``make bench-star`` (or ``python benchmarks/star.py [--n N] [--reach]``).
Each case runs in a fresh process (its peak RSS is its own ``ru_maxrss``),
compiles on a tiny box first (numba's cache makes that a load), then times
one call at n. Goals, checked and printed; exit 1 if one is missed:

1. At n = 10^4, under 60 s and 1 GB each: the Beatty subtraction game G_α
   and its ⋆ (both sweeps of :func:`star_p_positions`) for α = √2 and φ,
   and Maharaja⋆ (the moves: Maharaja Nim's non-zero P-positions, computed
   in the same timed call).
2. ``--reach``: the largest n each case reaches in 60 s, found by growing n
   by a quarter from N until a run takes longer (printed, not checked).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

GOAL_SECONDS = 60.0
GOAL_BYTES = 2**30
MAHARAJA = {"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[1, 2], [2, 1]]}
CASES = {
    "G sqrt(2)": ("beatty", "sqrt(2)"),
    "G* sqrt(2)": ("star", "sqrt(2)"),
    "G phi": ("beatty", "(1+sqrt(5))/2"),
    "G* phi": ("star", "(1+sqrt(5))/2"),
    "Maharaja*": ("maharaja", ""),
}


def run_case(kind: str, alpha: str, n: int) -> int:
    """One timed call; returns the count of P-positions."""
    from catalog import p_positions
    from catalog.compute.subtraction import (
        beatty_moves,
        star_moves,
        star_p_positions,
        subtraction_p_positions,
    )

    if kind == "beatty":
        return len(subtraction_p_positions(n, beatty_moves(alpha, n)))
    if kind == "star":
        return len(star_p_positions(n, beatty_moves(alpha, n)))
    moves = star_moves(p_positions(MAHARAJA, n))
    return len(subtraction_p_positions(n, moves))


def child(name: str, n: int) -> None:
    kind, alpha = CASES[name]
    run_case(kind, alpha, 8)  # compile or load the machine code
    wall, cpu = time.perf_counter(), time.process_time()
    count = run_case(kind, alpha, n)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"wall": wall, "cpu": cpu, "count": count, "peak": peak}))


def measure(name: str, n: int) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", name, "--n", str(n)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out.splitlines()[-1])


def line(name: str, n: int, r: dict) -> str:
    return (
        f"{name:<11} n={n:>6}: {r['wall']:7.2f} s wall, {r['cpu']:7.2f} s CPU, "
        f"{r['peak'] / 2**20:6.0f} MB peak, {r['count']:>9} P-positions"
    )


def reach(name: str, start: int) -> None:
    n, best = start, None
    while True:
        r = measure(name, n)
        print("  " + line(name, n, r), flush=True)
        if r["wall"] > GOAL_SECONDS:
            break
        best = n
        n += n // 4
    print(f"{name}: largest n measured under {GOAL_SECONDS:.0f} s: {best}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--reach", action="store_true")
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.n)
        return 0
    missed = 0
    names = args.cases.split(",")
    for name in names:
        r = measure(name, args.n)
        ok = r["wall"] <= GOAL_SECONDS and r["peak"] <= GOAL_BYTES
        missed += not ok
        print(line(name, args.n, r), "ok" if ok else "MISSED", flush=True)
    if args.reach:
        for name in names:
            reach(name, args.n)
    print(f"goal: each under {GOAL_SECONDS:.0f} s and 1 GB at n = {args.n}:",
          "met" if not missed else f"{missed} missed")  # fmt: skip
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
