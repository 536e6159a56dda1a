"""Seeding in batches: entries a second and CPU an entry, per family.

Run: ``make bench-batches`` (or ``python benchmarks/batches.py [--families
adjoined,box] [--entries 128] [--n 10000]``). For each family, in a fresh
temporary SQLite file: the family's members are loaded, 16 are computed to
warm the kernels, then ``entries`` members (from the 200th on, past the
smallest) are computed to n with their invariants by
``service.compute_many``, as ``wythoff seed --family`` does. Prints the wall
time a entry, entries a second, and the CPU of the seeding process and of
its helper processes (the invariants computed a batch ahead) an entry.

Goal (issue 24): 25 entries a second at n = 10^4 on a 2-core machine. It is
printed, not enforced: the figure depends on what else the machine runs.
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path

from catalog import service
from catalog.config import Settings
from catalog.store.db import make_engine, upgrade_to_head


def measure(family: str, entries: int, n: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'batches.sqlite3'}"
        engine = make_engine(url)
        upgrade_to_head(engine)
        engine.dispose()
        store = service.Store(Settings.load(url), migrate=False)
        try:
            ids = service.seed_families(store, [family])["members"]
            service.compute_many(store, ids[:16], n)  # kernels loaded, helpers up
            chosen = ids[200 : 200 + entries] or ids[16 : 16 + entries]
            children = resource.getrusage(resource.RUSAGE_CHILDREN)
            wall, cpu = time.perf_counter(), time.process_time()
            service.compute_many(store, chosen, n)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            helpers = (after.ru_utime + after.ru_stime) - (
                children.ru_utime + children.ru_stime
            )
        finally:
            store.dispose()
    count = len(chosen)
    return {
        "entries": count,
        "per_second": count / wall,
        "cpu_ms": 1000 * cpu / count,
        "helper_cpu_ms": 1000 * helpers / count,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--families", default="adjoined,box")
    parser.add_argument("--entries", type=int, default=128)
    parser.add_argument("--n", type=int, default=10_000)
    args = parser.parse_args()
    for family in args.families.split(","):
        found = measure(family, args.entries, args.n)
        print(
            f"{family}: {found['entries']} entries to n = {args.n} at "
            f"{found['per_second']:.1f} a second (goal 25); CPU an entry: "
            f"{found['cpu_ms']:.0f} ms seeding, {found['helper_cpu_ms']:.0f} ms "
            "in helpers (counted when they exit)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
