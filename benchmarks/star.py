"""Beatty subtraction games and their ⋆ through ``catalog.p_positions``.

Run: ``make bench-star`` (or ``python benchmarks/star.py [--n N]
[--cases A,B] [--no-reach]``). Every case is one call of
:func:`catalog.p_positions` (the canonical form, the engine choice, the ⋆'s
game computed first, the subtraction sweep) in a fresh process: it computes
a tiny box first (numba's cache makes that a load; a cold cache compiles
there), then times one call at n and reports its wall and CPU time and its
peak RSS (``ru_maxrss``, the interpreter and numba included).

1. Goals, at n = 10^4, each under 60 s and 1 GB (PASS / MISS): the Beatty
   game G_α and G_α⋆ for α = √2 and φ, and Maharaja⋆.
2. The largest n each case reaches in a minute: n doubles from 10^4 while a
   run passes (up to the engine's limit, 50,000), then two bisection steps
   between the last pass and the first miss. A run past 60 s is ended by
   its own alarm (SIGALRM) and counts as a miss.

Exit status 1 if a goal is missed.
"""

from __future__ import annotations

import argparse
import json
import resource
import signal
import subprocess
import sys
import time

GOAL_SECONDS = 60.0
GOAL_BYTES = 2**30
START_N = 10_000
MAHARAJA = {"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[1, 2], [2, 1]]}
CASES: dict[str, dict] = {
    "G sqrt(2)": {"beatty": "sqrt(2)"},
    "G* sqrt(2)": {"star": {"beatty": "sqrt(2)"}},
    "G phi": {"beatty": "(1+sqrt(5))/2"},
    "G* phi": {"star": {"beatty": "(1+sqrt(5))/2"}},
    "Maharaja*": {"star": MAHARAJA},
}


def child(name: str, n: int) -> None:
    from catalog import p_positions

    definition = CASES[name]
    p_positions(definition, 8)  # compile or load the machine code
    # Past the goal the run is a miss: the default action of SIGALRM ends
    # the process even inside compiled code.
    signal.alarm(int(GOAL_SECONDS) + 1)
    wall, cpu = time.perf_counter(), time.process_time()
    count = len(p_positions(definition, n))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    signal.alarm(0)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"wall": wall, "cpu": cpu, "count": count, "peak": peak}))


def measure(name: str, n: int) -> dict | None:
    """One case at n in a fresh process; None when it ran past the goal."""
    done = subprocess.run(
        [sys.executable, __file__, "--child", name, "--n", str(n)],
        capture_output=True,
        text=True,
    )
    if done.returncode == -signal.SIGALRM:
        return None
    if done.returncode:
        sys.exit(f"{name} at n={n} failed:\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])


def passes(r: dict | None) -> bool:
    return r is not None and r["wall"] <= GOAL_SECONDS and r["peak"] <= GOAL_BYTES


def line(name: str, n: int, r: dict | None) -> str:
    if r is None:
        return f"{name:<11} n={n:>6}: over {GOAL_SECONDS:.0f} s (stopped)  MISS"
    return (
        f"{name:<11} n={n:>6}: {r['wall']:7.2f} s wall, {r['cpu']:7.2f} s CPU, "
        f"{r['peak'] / 2**20:6.0f} MB peak, {r['count']:>9} P-positions  "
        + ("PASS" if passes(r) else "MISS")
    )


def reach(name: str, start: int, first: dict | None, limit: int) -> int | None:
    """The largest n found to pass: doubling, then two bisection steps."""
    good, bad = (start, None) if passes(first) else (None, start)
    n = start
    while bad is None and n < limit:
        n = min(2 * n, limit)
        r = measure(name, n)
        print("  " + line(name, n, r), flush=True)
        good, bad = (n, bad) if passes(r) else (good, n)
    for _ in range(2):
        if good is None or bad is None:
            break
        n = (good + bad) // 2
        r = measure(name, n)
        print("  " + line(name, n, r), flush=True)
        good, bad = (n, bad) if passes(r) else (good, n)
    return good


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=START_N)
    parser.add_argument("--no-reach", action="store_true")
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.n)
        return 0
    from catalog.compute.modes import MAX_SUBTRACTION_N

    names = args.cases.split(",")
    first = {}
    for name in names:
        first[name] = measure(name, args.n)
        print(line(name, args.n, first[name]), flush=True)
    missed = sum(not passes(r) for r in first.values())
    print(
        f"goal: each under {GOAL_SECONDS:.0f} s and 1 GB at n = {args.n}:",
        "PASS" if not missed else f"MISS ({missed})",
        flush=True,
    )
    if not args.no_reach:
        found = {}
        for name in names:
            found[name] = reach(name, args.n, first[name], MAX_SUBTRACTION_N)
        print(f"largest n measured under {GOAL_SECONDS:.0f} s and 1 GB:")
        for name, n in found.items():
            bound = " (the engine's limit)" if n == MAX_SUBTRACTION_N else ""
            print(f"  {name:<11} {n}{bound}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
