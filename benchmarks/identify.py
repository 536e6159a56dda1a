"""identify's goals: the seeds recognised, random games explained, the time.

Run: ``make bench-identify`` (or ``python benchmarks/identify.py``; ``--quick``
runs fewer random games). Goals, each checked and printed; exit 1 if one is
missed:

1. The P-positions of Wythoff's Nim, Maharaja Nim and every seed below
   n = 30, 60 and 100 are identified as that entry first (a seeded SQLite
   catalog, filled to n = 2000), and the seed's own rule set (or a smaller
   one with the same P-positions in the window) is among the smallest rule
   sets or altered games, unless the search stopped (said, not failed).
2. Random invariant games (up to 4 rays from directions with components
   ≤ 3, plus up to 2 symmetric move pairs with components ≤ 5) at n = 60:
   the least size found is never larger than the generating game's, and
   every proposed game gives the data exactly (``catalog.p_positions``).
3. Time per identification at n = 60: p50 ≤ 1 s, p95 ≤ 5 s; at n = 200:
   ≤ 10 s each; peak memory (resident) under 1 GB.
4. Beatty data (issue 41; ``make bench-identify-beatty`` runs this goal
   alone, ``--beatty``): the Beatty pairs of √2, φ, √3, (1+√3)/2 and α_3 below
   n = 60, given to ``wythoff identify --n 60 --symmetric --json`` as a new
   process on a SQLite catalog seeded with the awythoff family (``seed
   --family awythoff --n 200``): ⋆ of the Beatty game of α first, size 1,
   exact; a-Wythoff with its entry's ID where α is α_a; every proposed game
   checked with ``p_positions``. Goal: an uncached answer to 2-Wythoff's
   data (√2) under 2 s of wall time (the median of four: ``--limit`` 5, 4, 3
   and 2 are four questions); the CPU time (user + system) of each process,
   a second (cached) run, and ``identify --positions 0,0`` (the command's
   start and the store, with the solver) are printed beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from catalog import p_positions
from catalog.config import Settings
from catalog.games.definition import canonicalize
from catalog.kinds import size
from catalog.service import Store, seed
from catalog.service.identify import identify
from catalog.store.seed import seed_dir

DIRECTIONS = [(a, b) for a in range(4) for b in range(4) if (a, b) != (0, 0)]
PAIRS = [(a, b) for a in range(6) for b in range(6) if a < b]


def rule_size(definition: dict, symmetric: bool) -> int:
    """The size identify gives the game (``catalog.kinds.size``): its rules
    and forced cells, a rule and its mirror image once when symmetric."""
    return size(canonicalize(definition), symmetric)


def reproduces(definition: dict, cells: np.ndarray, n: int) -> bool:
    found = p_positions(definition, n)
    return found.shape == cells.shape and bool((found == cells).all())


def seeds_goal(store: Store, failures: list[str], times: list[float]) -> None:
    for path in sorted(seed_dir().glob("W*.json")):
        entry = json.loads(path.read_text())
        wid, definition = entry["id"], entry["definition"]
        for n in (30, 60, 100):
            cells = p_positions(definition, n)
            doc = identify(store, cells.tolist(), n, limit=5, seconds=10)
            if n == 60:
                times.append(doc["seconds"])
            first = doc["catalog"][0]["id"] if doc["catalog"] else None
            ok_entry = first == wid or (
                wid in [e["id"] for e in doc["catalog"]]
                and all(e["id"] <= wid for e in doc["catalog"][:1])
            )
            proposed = doc["games"] + doc["altered"]
            own = canonicalize(definition)
            own_size = rule_size(definition, doc["symmetric"])
            best = min((g["size"] for g in proposed), default=None)
            listed = any(canonicalize(g["definition"]) == own for g in proposed)
            special = bool(own.special)
            ok_rules = listed or (best is not None and best <= own_size) or special
            stopped = not doc["exact"]
            note = "stopped" if stopped else ""
            print(
                f"  {wid} n={n:<3} first={first} catalog={doc['catalog_total']:<3} "
                f"least={best} own={own_size} own-listed={listed} "
                f"{doc['seconds']:.2f}s {note}"
            )
            if not ok_entry:
                failures.append(f"{wid} n={n}: first stored match {first}")
            if not ok_rules and not stopped:
                failures.append(f"{wid} n={n}: least {best} > own size {own_size}")
            for g in proposed:
                if not reproduces(g["definition"], cells, n):
                    failures.append(f"{wid} n={n}: {g['definition']} differs")


def random_goal(store: Store, count: int, failures: list[str], times: list[float]):
    rng = random.Random(7)
    n = 60
    for _ in range(count):
        rays = rng.sample(DIRECTIONS, rng.randint(1, 4))
        moves = []
        for a, b in rng.sample(PAIRS, rng.randint(0, 2)):
            moves += [[a, b], [b, a]]
        definition = {"rays": [list(r) for r in rays], "moves": moves}
        cells = p_positions(definition, n)
        doc = identify(store, cells.tolist(), n, limit=5, seconds=10)
        times.append(doc["seconds"])
        own = rule_size(definition, doc["symmetric"])
        best = doc["games"][0]["size"] if doc["games"] else None
        if best is None or best > own:
            if doc["exact"]:
                failures.append(f"{definition}: least {best} > {own}")
            else:
                print(f"  stopped on {definition}")
        for g in doc["games"] + doc["altered"]:
            if not reproduces(g["definition"], cells, n):
                failures.append(f"{definition}: {g['definition']} differs")
    print(f"  {count} random games at n = {n}")


def large_goal(store: Store, failures: list[str]) -> None:
    rng = np.random.default_rng(3)
    cases = [
        {"rays": [[1, 0], [0, 1], [1, 1]]},
        {"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[1, 2], [2, 1]]},
        {"rays": [[1, 0], [0, 2], [1, 1]]},
        {"rays": [[1, 0], [0, 1], [1, 1]], "alter": {"P_boxes": [[0, 0, 8, 13]]}},
    ]
    for definition in cases:
        cells = p_positions(definition, 200)
        doc = identify(store, cells.tolist(), 200, limit=5, seconds=10)
        print(f"  n=200 {json.dumps(definition)}: {doc['seconds']:.2f}s")
        if doc["seconds"] > 10.5:
            failures.append(f"n=200 {definition}: {doc['seconds']:.1f} s")
    grid = rng.random((200, 200)) < 0.1
    doc = identify(store, np.argwhere(grid).tolist(), 200, seconds=10)
    print(f"  n=200 random 10% of cells: {doc['seconds']:.2f}s")
    if doc["seconds"] > 10.5:
        failures.append(f"n=200 random cells: {doc['seconds']:.1f} s")


#: Goal 4's data: α, and the a of a-Wythoff when α is α_a.
BEATTY = [
    ("sqrt(2)", 2),
    ("(1+sqrt(5))/2", 1),
    ("sqrt(3)", None),
    ("(1+sqrt(3))/2", None),
    ("(-1+sqrt(13))/2", 3),
]
WYTHOFF_CLI = [str(Path(sys.executable).with_name("wythoff"))]


def timed(*args: str) -> tuple[dict, float, float]:
    """Run ``wythoff ARGS --json`` as a new process: (its answer, wall
    seconds, CPU seconds of the process, user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [*WYTHOFF_CLI, *args, "--json"], capture_output=True, text=True, check=True
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return json.loads(done.stdout), wall, cpu


def beatty_goal(folder: Path, failures: list[str]) -> None:
    """Goal 4 (see the module)."""
    from catalog.compute.beatty import BeattyPairs
    from catalog.games.quadratic import parse

    url = f"sqlite:///{folder / 'beatty.sqlite3'}"
    os.environ["WYTHOFF_DATABASE_URL"] = url
    subprocess.run(
        [*WYTHOFF_CLI, "seed", "--family", "awythoff", "--n", "200", "--json"],
        check=True,
        capture_output=True,
    )
    _, wall, cpu = timed("identify", "--positions", "0,0")
    print(f"  identify --positions 0,0: {wall:.2f} s wall, {cpu:.2f} s CPU")
    n = 60
    for alpha, a in BEATTY:
        cells = BeattyPairs(parse(alpha)).p_positions(n)
        text = " ".join(f"{x},{y}" for x, y in cells.tolist() if x <= y)
        args = ("identify", "--positions", text, "--n", str(n), "--symmetric")
        doc, wall, cpu = timed(*args)
        _, again, again_cpu = timed(*args)
        games = doc["games"]
        first = games[0] if games else None
        wanted = canonicalize({"star": {"beatty": alpha}})
        ok = first is not None and canonicalize(first["definition"]) == wanted
        ok = ok and first is not None and first["size"] == 1 and doc["exact"]
        awythoff = [g for g in games if "star" not in g["definition"]]
        if a is not None:
            label = f"awythoff.{a}"
            shown = json.loads(
                subprocess.run(
                    [*WYTHOFF_CLI, "show", label, "--json"],
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
            )
            ok = ok and any(g["id"] == shown["id"] for g in awythoff)
            entry = shown["id"]
        else:
            ok = ok and not awythoff
            entry = None
        for g in games:
            if not reproduces(g["definition"], cells, n):
                failures.append(f"{alpha}: {g['definition']} differs")
        print(
            f"  {alpha:<17} games={len(games)} sizes={[g['size'] for g in games]} "
            f"a-Wythoff={entry} catalog={[e['id'] for e in doc['catalog']]} "
            f"{wall:.2f} s wall ({cpu:.2f} s CPU), cached {again:.2f} s "
            f"({again_cpu:.2f} s CPU)"
        )
        if not ok:
            failures.append(f"{alpha}: {json.dumps(games)[:200]}")
        if a == 2:
            # The goal, on a shared machine: the median of three uncached
            # answers (--limit 4, 3, 2 are new questions, the same work).
            runs = [timed(*args, "--limit", str(k))[1:] for k in (4, 3, 2)]
            runs.append((wall, cpu))
            median = statistics.median(w for w, _ in runs)
            print(
                f"  2-Wythoff's data, 4 uncached runs: median {median:.2f} s wall "
                f"(each {', '.join(f'{w:.2f}' for w, _ in runs)} s; CPU "
                f"{', '.join(f'{c:.2f}' for _, c in runs)} s)"
            )
            if median > 2:
                failures.append(f"2-Wythoff's data at n = 60: {median:.2f} s > 2 s")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="20 random games")
    parser.add_argument("--beatty", action="store_true", help="goal 4 alone")
    args = parser.parse_args()
    failures: list[str] = []
    if args.beatty:
        with tempfile.TemporaryDirectory() as folder:
            print("4. Beatty data at n = 60, wythoff identify as a new process")
            beatty_goal(Path(folder), failures)
        for failure in failures:
            print("FAILED:", failure)
        return 1 if failures else 0
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        store = Store(Settings.load(url))
        seed(store)
        from catalog.service import compute

        for path in sorted(seed_dir().glob("W*.json")):
            compute(store, path.stem, 2000)
        seeds_times: list[float] = []
        print("1. the seeds below n = 30, 60, 100")
        seeds_goal(store, failures, seeds_times)
        times: list[float] = []
        print("2. random invariant games at n = 60")
        random_goal(store, 20 if args.quick else 100, failures, times)
        times += seeds_times
        p50, p95 = statistics.median(times), float(np.percentile(times, 95))
        print(f"3. n = 60: p50 {p50:.3f} s, p95 {p95:.3f} s over {len(times)}")
        if p50 > 1 or p95 > 5:
            failures.append(f"n = 60: p50 {p50:.2f} s, p95 {p95:.2f} s")
        large_goal(store, failures)
        store.dispose()
        print("4. Beatty data at n = 60, wythoff identify as a new process")
        beatty_goal(Path(folder), failures)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"   peak resident memory {peak:.0f} MB")
    if peak > 1024:
        failures.append(f"memory {peak:.0f} MB")
    for failure in failures:
        print("FAILED:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
