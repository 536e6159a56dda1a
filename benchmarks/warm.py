"""A server warm from its first request: p99 of the first 15 seconds.

Run: ``make bench-warm`` (or ``python benchmarks/warm.py``); needs gunicorn
(``.[server]``).

Seeds a catalog as ``wythoff seed`` does (every seed to n = 2000 with its
invariants) in a temporary SQLite file, then for each setting starts
gunicorn as the deployment docs say (4 sync workers) and, as soon as it
answers, runs the read API's mixed load (``benchmarks/api.py --mix``: entry
documents, pages of P-positions, is-p near and far, searches) for 15 s
with 16 connections. Compared: ``WYTHOFF_WARM=0`` (each worker loads its
kernels on the first request that needs them), the default (each worker
loads them all before it accepts a request), and the default with
gunicorn's ``--preload`` (loaded once, in the master). numba's cache on
disk is warm in every run: what differs is each process's first call.
Goal: p99 <= 100 ms over the first 15 s with the default.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

import load
import numpy as np
from api import gunicorn, mix, seed_catalog

CHECK = "/api/v1/openapi.json"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--workers", type=int, default=4)
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'catalog.sqlite3'}"
        print(f"seeded in {seed_catalog(url):.0f} s")
        requests = mix(url, seed=21, count=4000)
        base = {**os.environ, "WYTHOFF_DATABASE_URL": url}
        settings = [
            ("WYTHOFF_WARM=0", {**base, "WYTHOFF_WARM": "0"}, ()),
            ("default", base, ()),
            ("default, --preload", base, ("--preload",)),
        ]
        for name, env, extra in settings:
            with gunicorn(
                "catalog.api:create_app()", env, args.workers, CHECK, extra
            ) as (
                host,
                port,
            ):
                result = load.run(host, port, requests, args.seconds, args.connections)
            p50, p99 = result.percentile(50), result.percentile(99)
            worst = float(np.max(result.latencies_ms))
            print(
                f"{name:20} {result.requests:6} requests, p50 {p50:6.1f} ms, "
                f"p99 {p99:6.1f} ms, max {worst:7.1f} ms, failures {result.failures}"
            )
            results[name] = (p99, result.failures)
    p99, failures = results["default"]
    ok = p99 <= 100 and failures == 0
    print(("  ok   " if ok else "  MISS ") + f"default: p99 {p99:.1f} ms <= 100 ms")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
