"""The entry pages: server-side render time and page weight.

Run: ``make bench-pages`` (or ``python benchmarks/pages.py``). It seeds a
catalog in a temporary SQLite file and stores every seeded entry up to
n = 2000 (what ``wythoff seed`` stores), then renders each entry page at the
default window many times through the app (no network: the time is the
server's) and reads the page weight at the default n.
Goals: p50 render time of every entry page at most 50 ms; every page with
its pictures under 300 KB. Prints each figure; exit 1 if a goal is missed.
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from catalog import service
from catalog.api import create_app
from catalog.store.seed import seed_dir

GOAL_MS = 50.0
GOAL_KB = 300.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30, help="renders per page")
    parser.add_argument("--stored", type=int, default=2000, help="n stored first")
    args = parser.parse_args()
    entries = sorted(p.stem for p in seed_dir().glob("W*.json"))
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'catalog.sqlite3'}"
        app = create_app({"DATABASE_URL": url})
        store = app.extensions["catalog"]
        service.seed(store)
        for wid in entries:
            service.compute(store, wid, args.stored)
        client = app.test_client()
        worst_ms, worst_kb, rows = 0.0, 0.0, []
        for wid in entries:
            first = client.get(f"/{wid}")  # invariants stored, numba compiled
            assert first.status_code == 200, (wid, first.status_code)
            times, cpu = [], []
            for _ in range(args.repeat):
                start, start_cpu = time.perf_counter(), time.thread_time()
                response = client.get(f"/{wid}")
                times.append((time.perf_counter() - start) * 1000)
                cpu.append((time.thread_time() - start_cpu) * 1000)
                assert response.status_code == 200
            p50 = statistics.median(times)
            kb = len(response.data) / 1024
            gz = len(gzip.compress(response.data)) / 1024
            rows.append((wid, p50, statistics.median(cpu), kb, gz))
            worst_ms, worst_kb = max(worst_ms, p50), max(worst_kb, kb)
        store.dispose()
    # CPU time shows what the page costs when the machine is shared.
    print(f"{'entry':8} {'p50 ms':>8} {'cpu ms':>8} {'KB':>8} {'gzip KB':>8}")
    for wid, p50, cpu_ms, kb, gz in rows:
        print(f"{wid:8} {p50:8.1f} {cpu_ms:8.1f} {kb:8.1f} {gz:8.1f}")
    print(f"load average: {os.getloadavg()[0]:.2f}")
    ok_ms, ok_kb = worst_ms <= GOAL_MS, worst_kb < GOAL_KB
    print(
        f"slowest p50 {worst_ms:.1f} ms (goal <= {GOAL_MS:.0f}): "
        f"{'ok' if ok_ms else 'MISSED'}"
    )
    print(
        f"heaviest page {worst_kb:.1f} KB (goal < {GOAL_KB:.0f}): "
        f"{'ok' if ok_kb else 'MISSED'}"
    )
    return 0 if ok_ms and ok_kb else 1


if __name__ == "__main__":
    sys.exit(main())
