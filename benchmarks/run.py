"""Speed and memory goals of the compute engine, measured in one run.

Run: ``make bench`` (or ``python benchmarks/run.py``; ``--small`` divides the
sizes by 10 for a quick look). Goals are ratios, so they mean the same on any
machine; the script prints every figure and exits 1 if a goal is missed.

1. Against the papers' own method: the grid marking of Larsson–Wästlund's
   Appendix A.1 (Maple) rendered in Python, with numpy for the marking, on
   Maharaja Nim at n = 4000: at least 200x slower than ``p_positions``.
2. Growth: time(n = 10^7) / time(n = 10^6) <= 12 for Maharaja Nim,
   (2,3)-Maharaja, Box(8,13) altered Wythoff and Linear Nimhoff
   {(1,0),(0,2),(1,1)}.
3. Against the limit, the exact closed form of Wythoff's Nim at n = 10^7:
   each of those games within 20x of it, the altered Wythoff game within 3x.
4. Peak memory (resident set of a fresh process) at n = 10^7 under 1 GB, for
   those games, the special kernels' games of goal 7, and members of the
   kernel families: (1,16)- and (15,16)-Maharaja Nim, Wythoff with (39,40)
   adjoined, and the Linear Nimhoff member with the most memory (nine rays,
   steps up to 3), which is measured at 10^6 and 2 * 10^6 and extrapolated
   (it would take gigabytes).
5. Linear Nimhoff {(1,0),(0,2),(1,1)} within 5x of the closed form at 10^7.
6. A Grundy table of Wythoff's Nim at n = 2000 in at most 1 s (the median of
   three, after compiling), and the same table written out as JSON text.
7. The compiled sweeps of special_kernel.py at n = 10^6, against Maharaja
   Nim at the same n: Ho's restriction (W000022) and a horizontal-only game
   (rays {(1,0),(1,1)}, moves (1,2),(2,1), computed through its transpose)
   each within 3x; Ho's extension (W000023) is printed.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

import numpy as np

from catalog import p_positions
from catalog.store.seed import read_seed, seed_dir

GAMES = {
    "W000004": "Maharaja Nim",
    "W000005": "(2,3)-Maharaja Nim",
    "W000017": "Box(8,13) altered Wythoff",
    "W000012": "Linear Nimhoff {(1,0),(0,2),(1,1)}",
}
ALTERED = {"W000017"}
WYTHOFF = "W000001"
#: Goal 7's games beside the seeds: a horizontal ray and no vertical one.
HORIZONTAL = "horizontal"
SPECIAL = {
    "W000022": "Ho's restriction",
    "W000023": "Ho's extension",
    HORIZONTAL: "rays {(1,0),(1,1)}, moves (1,2),(2,1)",
}
SPECIAL_GOALS = {"W000022": 3.0, HORIZONTAL: 3.0}


NIMHOFF = "W000012"
#: Kernel family members measured for peak memory at n = 10^7.
FAMILY_MEMBERS = ["maharaja.1.16", "maharaja.15.16", "adjoined.39.40"]
#: The nimhoff member whose line tables are the largest (measured smaller).
HEAVIEST = "nimhoff.1-1.0-2.2-0.1-2.2-1.3-1.1-3.3-2.2-3"


def game(wid: str) -> dict:
    """A seed's definition by ID, or a family member's by label."""
    if wid == HORIZONTAL:
        return {"rays": [[1, 0], [1, 1]], "moves": [[1, 2], [2, 1]]}
    if not wid.startswith("W"):
        from catalog.families.registry import load_families

        member = load_families().parse_label(wid)
        g = member.game
        return {"rays": [list(r) for r in g.rays], "moves": [list(m) for m in g.moves]}
    return read_seed(seed_dir() / f"{wid}.json")["definition"]


def median_of(repeat: int, func, *args) -> float:
    """Median wall time: robust to a stray slow run and to a lucky fast one."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func(*args)
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def grid_marking(n: int, moves: list[tuple[int, int]]) -> np.ndarray:
    """Appendix A.1: walk the board, mark each new P's options N (numpy slices)."""
    size = 2 * n + 2
    board = np.zeros((size, size), dtype=np.int8)  # 0 unknown, 1 P, 2 N
    for i in range(n):
        for j in range(n):
            if board[i, j] == 0:
                board[i, j] = 1
                for a, b in moves:
                    board[i + a, j + b] = 2
                board[i + 1 : i + n + 1, j] = 2
                board[i, j + 1 : j + n + 1] = 2
                k = np.arange(1, n + 1)
                board[i + k, j + k] = 2
    xs, ys = np.nonzero(board[:n, :n] == 1)
    return np.column_stack([xs, ys])


CHILD = """
import json, sys, time
from catalog import p_positions
definition, n = json.loads(sys.argv[1]), int(sys.argv[2])
p_positions(definition, 100)  # compile or load the cached kernels
start = time.perf_counter()
p_positions(definition, n)
took = time.perf_counter() - start
peak = [l for l in open("/proc/self/status") if l.startswith("VmHWM")][0]
print(took, int(peak.split()[1]) / 1024)
"""


def fresh_run(wid: str, n: int) -> tuple[float, float]:
    """(seconds, peak MB) of one p_positions call in a fresh process.

    A fresh process puts every size on the same footing (no memory left
    mapped by earlier runs), and its VmHWM is its own peak: Linux keeps
    ru_maxrss across exec, so that would report this process's peak.
    """
    out = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(game(wid)), str(n)],
        check=True,
        capture_output=True,
        text=True,
    )
    took, peak = out.stdout.split()
    return float(took), float(peak)


def median_run(wid: str, n: int, repeat: int) -> tuple[float, float]:
    runs = [fresh_run(wid, n) for _ in range(repeat)]
    return float(np.median([t for t, _ in runs])), max(m for _, m in runs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="sizes / 10")
    args = parser.parse_args()
    scale = 10 if args.small else 1
    big, small = 10_000_000 // scale, 1_000_000 // scale
    failures = []

    def goal(ok: bool, text: str) -> None:
        print(("  ok   " if ok else "  MISS ") + text)
        if not ok:
            failures.append(text)

    for wid in [WYTHOFF, *GAMES]:  # compile and cache the kernels first
        p_positions(game(wid), 100)

    print("1. Maharaja Nim at n = 4000 against Appendix A.1's grid marking")
    knight = [(1, 2), (2, 1)]
    baseline = median_of(1, grid_marking, 4000, knight)
    ours = median_of(5, p_positions, game("W000004"), 4000)
    assert np.array_equal(grid_marking(300, knight), p_positions(game("W000004"), 300))
    print(f"   grid marking {baseline:.3f} s, p_positions {ours * 1000:.2f} ms")
    goal(baseline / ours >= 200, f"speed-up {baseline / ours:.0f}x (goal >= 200x)")

    print(f"2-3. growth n = {small} -> {big}, and against Wythoff's closed form")
    print("   (each time: median of fresh processes, one call each)")
    limit, peak = median_run(WYTHOFF, big, 3)
    peaks = {WYTHOFF: peak}
    print(f"   Wythoff closed form at n = {big}: {limit:.3f} s")
    for wid, name in GAMES.items():
        t_small, _ = median_run(wid, small, 5)
        t_big, peaks[wid] = median_run(wid, big, 3)
        growth, against = t_big / t_small, t_big / limit
        bound = 3 if wid in ALTERED else 5 if wid == NIMHOFF else 20
        print(f"   {wid} {name}: {t_small:.3f} s -> {t_big:.3f} s")
        goal(growth <= 12, f"{wid} growth {growth:.1f} (goal <= 12)")
        text = f"{wid} {against:.1f}x the closed form (goal <= {bound})"
        goal(against <= bound, text)

    for label in FAMILY_MEMBERS:
        seconds, peaks[label] = fresh_run(label, big)
        print(f"   {label} at n = {big}: {seconds:.3f} s")
    special_kernels(small, big, peaks, goal)
    print(f"4. peak memory at n = {big} (VmHWM of the fresh process, with numba)")
    for wid, mb in peaks.items():
        goal(mb < 1024, f"{wid} {mb:.0f} MB (goal < 1024 MB)")
    _, one = fresh_run(HEAVIEST, small)
    _, two = fresh_run(HEAVIEST, 2 * small)
    guess = two + (big / small - 2) * (two - one)
    text = f"{HEAVIEST} about {guess:.0f} MB (extrapolated from {one:.0f} MB"
    goal(guess < 1024, text + f" at {small}, {two:.0f} MB at {2 * small}; < 1024)")

    print(f"5. Linear Nimhoff {NIMHOFF} against the closed form at n = {big}")
    print("   (goal 3 above, with the bound 5)")

    print("6. Grundy values of Wythoff's Nim at n = 2000")
    from catalog.compute.grundy import grundy, json_rows

    grundy(game(WYTHOFF), 50)
    json_rows(grundy(game(WYTHOFF), 50), 0, 50)  # compile or load the kernels
    table_s = median_of(3, grundy, game(WYTHOFF), 2000)
    table = grundy(game(WYTHOFF), 2000)
    text_s = median_of(3, json_rows, table, 0, 2000)
    print(f"   table {table_s:.3f} s, JSON text {text_s:.3f} s")
    goal(table_s <= 1.0, f"Grundy n = 2000 in {table_s:.3f} s (goal <= 1 s)")
    print("all goals met" if not failures else f"{len(failures)} goal(s) missed")
    return 1 if failures else 0


def special_kernels(small: int, big: int, peaks: dict[str, float], goal) -> None:
    """Goal 7: special rules and transposed games against Maharaja Nim."""
    print(f"7. special_kernel.py at n = {small} against Maharaja Nim (same n)")
    for wid in SPECIAL:
        p_positions(game(wid), 100)
    base, _ = median_run("W000004", small, 5)
    print(f"   W000004 Maharaja Nim: {base:.3f} s")
    for wid, name in SPECIAL.items():
        took, _ = median_run(wid, small, 5)
        ratio = took / base
        print(f"   {wid} {name}: {took:.3f} s, {ratio:.2f}x Maharaja Nim")
        if wid in SPECIAL_GOALS:
            bound = SPECIAL_GOALS[wid]
            goal(ratio <= bound, f"{wid} {ratio:.2f}x Maharaja Nim (goal <= {bound:g})")
        took, peaks[wid] = median_run(wid, big, 1)
        print(f"   {wid} at n = {big}: {took:.3f} s")


if __name__ == "__main__":
    sys.exit(main())
