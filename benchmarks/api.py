"""Throughput of the read API under gunicorn: one stored page, or a mix.

Run: ``make bench-api`` (or ``python benchmarks/api.py [--mix]``); needs
gunicorn (``pip install '.[server]'``). The load comes from wrk when it is
installed (``apt-get install wrk``), else from the closed-loop Python client
of ``benchmarks/load.py`` (asyncio, one connection per request, latency from
connect to the last byte); ``--python`` picks the latter anyway.

Without ``--mix``: seeds a catalog in a temporary SQLite file, stores
Maharaja Nim up to n = 20000 and loads one 1000-position page (2 workers).
Goals: >= 500 requests/s, p99 latency < 50 ms, no errors.

With ``--mix``: seeds the catalog as ``wythoff seed`` does (every seed to
n = 2000 with its invariants) in a temporary SQLite file and a temporary
PostgreSQL database (``WYTHOFF_TEST_POSTGRES_URL``, default the local
server; ``--no-postgres`` skips it), then loads each with a mix of paths
drawn from the seeded catalog with a fixed seed: 20% entry documents, 25%
stored p-positions pages (n = 2000, any start, 100 or 1000 positions), 35%
is-p lookups (half of them far out: Wythoff's Nim and its altered games,
coordinates of 7 to 300 digits), 20% searches (80% runs of stored terms,
20% words, keywords and IDs). gunicorn runs as the README says (4 sync
workers, ``--timeout 60``), nothing cached in front; the server warms up on
a mix drawn with another seed first. The baseline, measured in the same run
with the same server and client, is a WSGI app that answers a constant
(``load.hello``): the ceiling of this machine. Goals: >= 500 requests/s and
p99 <= 100 ms on SQLite, >= 400 requests/s and p99 <= 150 ms on PostgreSQL,
no errors. Exit 1 if a goal is missed.

``--mix --profile`` measures instead the app's CPU per request in this
process, without a server (``benchmarks/apicpu.py``). ``--db URL``
(repeatable) loads a catalog seeded before, as the mix does, instead of
seeding temporary ones.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from math import isqrt
from pathlib import Path
from urllib.parse import quote

import apicpu
import load
import numpy as np
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from catalog import service
from catalog.compute import closed
from catalog.compute.altered import is_altered_wythoff
from catalog.config import Settings
from catalog.store.ids import parse_id

PAGE = "/api/v1/entries/W000004/p-positions?n=20000&start=5000&limit=1000"
ADMIN = os.environ.get(
    "WYTHOFF_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
#: The seeded bound of ``wythoff seed`` (its default --n).
SEEDED_N = 2000
#: label, share of the mix.
MIX = [
    ("entry", 0.20),
    ("page", 0.25),
    ("is-p near", 0.175),
    ("is-p far", 0.175),
    ("search", 0.20),
]
WORDS = ["Wythoff", "Maharaja", "Nimhoff", "misère", "Box", "altered", "Nim"]
KEYWORDS = ["maharaja", "altered", "misere", "nimhoff"]
GOALS = {"SQLite": (500, 100.0), "PostgreSQL": (400, 150.0)}
LABELS = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(url: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                response.read()
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the server did not answer {url}")


@contextmanager
def gunicorn(
    app: str,
    env: dict[str, str],
    workers: int,
    check: str,
    extra: tuple[str, ...] = (),
) -> Iterator[tuple[str, int]]:
    """gunicorn as the README runs it, on a free loopback port (``extra``:
    more of gunicorn's options)."""
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-w",
            str(workers),
            "-b",
            f"127.0.0.1:{port}",
            "--timeout",
            "60",
            "--graceful-timeout",
            "30",
            "--log-level",
            "warning",
            "--chdir",
            str(Path(__file__).parent),
            *extra,
            app,
        ],
        env=env,
    )
    try:
        wait_for(f"http://127.0.0.1:{port}{check}")
        yield "127.0.0.1", port
    finally:
        server.terminate()
        server.wait(timeout=60)


def measure(
    host: str,
    port: int,
    requests: list[tuple[str, str]],
    args: argparse.Namespace,
    show: bool = True,
) -> tuple[float, float, str | None]:
    """Load the server; requests/s, p99 in ms, and what failed (or None)."""
    if args.wrk:
        paths = [p for _, p in requests]
        return load.wrk(host, port, paths, args.seconds, args.connections)
    result = load.run(host, port, requests, args.seconds, args.connections)
    if show:
        print(
            f"    {result.requests} requests in {result.seconds:.1f} s: "
            f"{result.rate:.0f}/s, p50 {result.percentile(50):.1f} ms, "
            f"p99 {result.percentile(99):.1f} ms"
        )
        for label, times in sorted(result.by_label.items()):
            print(
                f"      {label:10} {len(times):6}  p50 {np.percentile(times, 50):6.1f}"
                f" ms  p99 {np.percentile(times, 99):6.1f} ms"
            )
    failed = None
    if result.failures:
        failed = f"{result.failures} failed: " + "; ".join(result.errors[:3])
    return result.rate, result.percentile(99), failed


def seed_catalog(url: str) -> float:
    """What ``wythoff seed`` does; seconds taken."""
    begin = time.perf_counter()
    store = service.Store(Settings.load(url))
    try:
        report = service.seed(store)
        for wid in report["added"] + report["updated"] + report["unchanged"]:
            service.compute(store, wid, SEEDED_N)
            service.entry_invariants(store, parse_id(wid))
    finally:
        store.dispose()
    return time.perf_counter() - begin


def mix(url: str, seed: int, count: int = 4000) -> list[tuple[str, str]]:
    """``count`` (label, path) requests drawn from the catalog at ``url``."""
    rng = random.Random(seed)
    store = service.Store(Settings.load(url))
    try:
        ids = [row["id"] for row in service.list_entries(store, limit=1000)["entries"]]
        far = [
            wid
            for wid in ids
            if (lambda g: closed.is_wythoff(g) or is_altered_wythoff(g))(
                service.entry_game(store, wid)[1]
            )
        ]
        sequences = []
        for wid in ids:
            for name in ("y", "a"):
                try:
                    found = service.sequence(store, wid, name, 0, 1000)["terms"]
                except service.UnknownSequence:
                    continue
                if len(found) >= 20:
                    sequences.append(found)
    finally:
        store.dispose()

    def far_coordinate() -> int:
        # Up to 299 digits: y near phi x stays within the API's 10^300.
        digits = rng.randint(7, 299)
        return rng.randrange(10 ** (digits - 1), 10**digits)

    def draw(label: str) -> str:
        wid = rng.choice(ids)
        if label == "entry":
            return f"/api/v1/entries/{wid}"
        if label == "page":
            limit = rng.choice([100, 1000])
            start = rng.randrange(SEEDED_N)
            return (
                f"/api/v1/entries/{wid}/p-positions?n={SEEDED_N}"
                f"&start={start}&limit={limit}"
            )
        if label == "is-p near":
            x, y = rng.randrange(SEEDED_N), rng.randrange(SEEDED_N)
            return f"/api/v1/entries/{wid}/positions/{x}/{y}"
        if label == "is-p far":
            x = far_coordinate()
            # Half near the line y = phi x, where the P-positions are.
            y = (
                (x + isqrt(5 * x * x)) // 2 + rng.randint(-5, 5)
                if rng.random() < 0.5
                else far_coordinate()
            )
            return f"/api/v1/entries/{rng.choice(far)}/positions/{x}/{y}"
        if rng.random() < 0.8:
            terms = rng.choice(sequences)
            length = rng.randint(3, 8)
            start = rng.randrange(len(terms) - length)
            query = ",".join(str(t) for t in terms[start : start + length])
        else:
            query = rng.choice(
                [
                    rng.choice(WORDS),
                    "keyword:" + rng.choice(KEYWORDS),
                    "id:" + rng.choice(ids),
                ]
            )
        return "/api/v1/search?q=" + quote(query)

    labels = rng.choices([m[0] for m in MIX], weights=[m[1] for m in MIX], k=count)
    return [(label, draw(label)) for label in labels]


@contextmanager
def databases(
    postgres: bool, given: list[str] | None = None
) -> Iterator[list[tuple[str, str]]]:
    """A temporary SQLite file and, unless told not to, a PostgreSQL database;
    or the catalogs ``given`` (URLs), seeded already."""
    if given:
        yield [(LABELS[make_url(u).get_backend_name()], u) for u in given]
        return
    with tempfile.TemporaryDirectory() as folder:
        targets = [("SQLite", f"sqlite:///{Path(folder) / 'catalog.sqlite3'}")]
        admin, name = None, f"wythoff_bench_api_{os.getpid()}"
        if postgres:
            admin = create_engine(ADMIN, isolation_level="AUTOCOMMIT")
            with admin.connect() as conn:
                conn.execute(text(f'CREATE DATABASE "{name}"'))
            url = make_url(ADMIN).set(database=name).render_as_string(False)
            targets.append(("PostgreSQL", url))
        try:
            yield targets
        finally:
            if admin is not None:
                with admin.connect() as conn:
                    conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
                admin.dispose()


def report(checks: list[tuple[bool, str]]) -> bool:
    for ok, line in checks:
        print(("  ok   " if ok else "  MISS ") + line)
    return all(ok for ok, _ in checks)


def run_profile(args: argparse.Namespace) -> bool:
    with databases(not args.no_postgres, args.db) as targets:
        for label, url in targets:
            print(f"{label}:")
            if not args.db:
                print(f"  seeded in {seed_catalog(url):.1f} s")
            requests = mix(url, seed=15, count=args.requests)
            warm = mix(url, seed=16, count=args.requests)
            apicpu.report(label, url, requests, warm, args)
    return True


def run_mix(args: argparse.Namespace) -> bool:
    if args.profile:
        return run_profile(args)
    ok = True
    env = {**os.environ}
    if args.no_cache:
        env["WYTHOFF_RESPONSE_CACHE_BYTES"] = "0"
    with gunicorn("load:hello", env, args.workers, "/") as (host, port):
        print("baseline (a WSGI app answering a constant):")
        ceiling, ceiling_p99, _ = measure(host, port, [("hello", "/")], args)
    with databases(not args.no_postgres, args.db) as targets:
        for label, url in targets:
            print(f"{label}:")
            if not args.db:
                print(f"  seeded in {seed_catalog(url):.1f} s")
            requests = mix(url, seed=15)
            warm = mix(url, seed=16)
            env["WYTHOFF_DATABASE_URL"] = url
            with gunicorn(
                "catalog.api:create_app()", env, args.workers, "/api/v1/entries/W000001"
            ) as (host, port):
                short = argparse.Namespace(**{**vars(args), "seconds": args.warm})
                measure(host, port, warm, short, show=False)
                rate, p99, failed = measure(host, port, requests, args)
            goal_rate, goal_p99 = GOALS[label]
            ok &= report(
                [
                    (
                        rate >= goal_rate,
                        f"{rate:.0f} requests/s (goal >= {goal_rate}); "
                        f"{rate / ceiling:.2f} of the baseline's {ceiling:.0f}/s",
                    ),
                    (
                        p99 <= goal_p99,
                        f"p99 {p99:.1f} ms (goal <= {goal_p99:.0f} ms; "
                        f"baseline {ceiling_p99:.1f} ms)",
                    ),
                    (failed is None, failed or "no errors"),
                ]
            )
    return ok


def run_page(args: argparse.Namespace) -> bool:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'catalog.sqlite3'}"
        store = service.Store(Settings(url))
        service.seed(store)
        service.compute(store, "W000004", 20_000)
        store.dispose()
        env = {**os.environ, "WYTHOFF_DATABASE_URL": url}
        if args.no_cache:
            env["WYTHOFF_RESPONSE_CACHE_BYTES"] = "0"
        with gunicorn("catalog.api:create_app()", env, 2, PAGE) as (host, port):
            rate, p99, failed = measure(host, port, [("page", PAGE)], args)
    return report(
        [
            (rate >= 500, f"{rate:.0f} requests/s (goal >= 500)"),
            (p99 < 50, f"p99 {p99:.1f} ms (goal < 50 ms)"),
            (failed is None, failed or "no errors"),
        ]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--mix", action="store_true", help="the mix (see above)")
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--warm", type=int, default=5, help="seconds of warm-up")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--workers", type=int, default=4, help="with --mix")
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--python", action="store_true", help="never wrk")
    parser.add_argument(
        "--db", action="append", help="a catalog seeded already (repeatable)"
    )
    parser.add_argument(
        "--profile", action="store_true", help="with --mix: CPU per request"
    )
    parser.add_argument("--requests", type=int, default=1500, help="with --profile")
    parser.add_argument("--cprofile", metavar="FILE", help="with --profile")
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="disable the rendered-page cache: every request reads the store",
    )
    args = parser.parse_args()
    args.wrk = shutil.which("wrk") is not None and not args.python
    print(f"load: {'wrk' if args.wrk else 'Python (benchmarks/load.py)'}")
    ok = run_mix(args) if args.mix else run_page(args)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
