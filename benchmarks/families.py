"""Families: seed thousands of members, then filter and tabulate them.

Run: ``make bench-families`` (or ``python benchmarks/families.py [--n N]
[--families box,maharaja] [--no-postgres] [--no-sqlite]``). In a temporary
SQLite file and a temporary PostgreSQL database
(``WYTHOFF_TEST_POSTGRES_URL``, default the
local server) it seeds the seeds and every member of the families (10,349
entries with the shipped ranges), computes each to n (default 10^4) with its
invariants as ``wythoff seed`` does (batches, the invariants a batch ahead
in helper processes), and reports where the time went: the entry rows and
labels, the computing, the CPU of the process and of its helpers. Then it
times filtered lists and family tables through :mod:`catalog.service` (what
the CLI and the API call) and term searches of 3 to 12 terms read from the
stored sequences; reports the bytes the catalog takes (per entry and per
table) and the bytes written to build it (SQLite: this process's writes,
``/proc/self/io``; PostgreSQL: the server's write-ahead log,
``pg_stat_wal``); and checks that the tables reproduce the papers: Box(a,b)
offsets (b-1, a-1) for every a, b <= 32 (Hu–Sleator–Tsin, Theorem 2) and
Maharaja Nim's deviation range -4..3 at (1,2) (Larsson–Wästlund, section 2).
Goals: p50 <= 50 ms for a filtered list and for a table on each database;
a search p50 <= 50 ms and p99 <= 200 ms. Exit 1 if a goal or a check is
missed.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import numpy as np
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from catalog import service
from catalog.config import Settings
from catalog.store import search
from catalog.store.derived import read_sequences

ADMIN = os.environ.get(
    "WYTHOFF_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
LISTS = [
    {"family": "box", "where": ["defects<=5"], "sort": "defects", "limit": 50},
    {"where": ["deviation=-4,3"], "limit": 50},
    {"family": "adjoined", "where": ["adjoined=false", "i<=5"], "limit": 100},
    {"where": ["offset_dx>=10", "defects=0"], "sort": "-offset_dx", "limit": 50},
    {"family": "cell", "where": ["kind=P", "defects=0"], "sort": "saturation_column"},
    {"where": ["one_p_per_column=true", "symmetric=false"], "limit": 100},
]
TABLES = [
    ("box", "offset", ()),
    ("maharaja", "deviation", ()),
    ("adjoined", "adjoined", ()),
    ("cell", "defects", ("kind=P",)),
]


def seed(store: service.Store, names: list[str], n: int) -> dict[str, float]:
    """Seed and compute as ``wythoff seed --family ... --n N`` does (batches,
    invariants a batch ahead in helper processes); return seconds by phase
    and the CPU seconds of this process and of its helpers."""
    spent: dict[str, float] = defaultdict(float)
    begin = time.perf_counter()
    report = service.seed_families(store, names)
    spent["rows and labels"] = time.perf_counter() - begin
    ids = list(dict.fromkeys(report["added"] + report["updated"] + report["unchanged"]))
    done = [0]

    def progress(count: int) -> None:
        before = done[0] // 500
        done[0] += count
        if done[0] // 500 > before:
            print(f"    {done[0]}/{len(ids)} entries computed", flush=True)

    cpu = os.times()
    begin = time.perf_counter()
    service.compute_many(store, ids, n, progress)
    spent["fills, invariants and writes"] = time.perf_counter() - begin
    after = os.times()
    spent["CPU of this process"] = after.user + after.system - cpu.user - cpu.system
    spent["CPU of the helpers"] = (
        after.children_user
        + after.children_system
        - cpu.children_user
        - cpu.children_system
    )
    spent["entries"] = len(ids)
    return spent


def written_bytes(store: service.Store) -> int:
    """Bytes written so far: this process's (SQLite) or the server's
    write-ahead log (PostgreSQL)."""
    if store.engine.dialect.name == "postgresql":
        with store.engine.connect() as conn:
            return int(conn.execute(text("SELECT wal_bytes FROM pg_stat_wal")).scalar())
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("write_bytes:"):
            return int(line.split()[1])
    return 0


def sizes(store: service.Store) -> tuple[int, dict[str, int]]:
    """The catalog's bytes on disk, and the largest tables' (their indexes
    included)."""
    with store.engine.connect() as conn:
        if store.engine.dialect.name == "postgresql":
            total = conn.execute(text("SELECT pg_database_size(current_database())"))
            tables = conn.execute(
                text(
                    "SELECT relname, pg_total_relation_size(relid) "
                    "FROM pg_statio_user_tables"
                )
            )
            return int(total.scalar()), dict(tables.all())
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        pages = conn.exec_driver_sql(
            "SELECT coalesce(tbl_name, d.name), sum(pgsize) FROM dbstat d "
            "LEFT JOIN sqlite_master m ON m.name = d.name GROUP BY 1"
        )
        tables = {name: int(size) for name, size in pages}
    path = Path(store.engine.url.database or "")
    return path.stat().st_size, tables


def searches(store: service.Store, count: int) -> np.ndarray:
    """Milliseconds of ``count`` term searches: 3 to 12 consecutive terms of
    a random stored sequence, from a random place among its indexed terms."""
    rng = random.Random(17)
    with store.engine.connect() as conn:
        numbers = [n for (n,) in conn.exec_driver_sql("SELECT id FROM entries")]
        stored = [
            terms["terms"]
            for number in rng.sample(numbers, min(200, len(numbers)))
            for terms in read_sequences(conn, number, search.INDEXED_TERMS).values()
            if len(terms["terms"]) >= 12
        ]
    times = []
    for _ in range(count):
        terms = rng.choice(stored)
        length = rng.randrange(3, 13)
        start = rng.randrange(len(terms) - length + 1)
        query = search.parse(",".join(map(str, terms[start : start + length])))
        begin = time.perf_counter()
        with store.engine.connect() as conn:
            search.search(conn, query)
        times.append(time.perf_counter() - begin)
    return np.array(times) * 1000


def timed(call, repeat: int) -> np.ndarray:
    times = []
    for _ in range(repeat):
        begin = time.perf_counter()
        call()
        times.append(time.perf_counter() - begin)
    return np.array(times) * 1000


def checks(store: service.Store) -> list[str]:
    """The papers' tables, read back from the store."""
    problems = []
    box = service.table(store, "box", "offset")
    for i, a in enumerate(box["rows"]["values"]):
        for j, b in enumerate(box["columns"]["values"]):
            if box["cells"][i][j] != [b - 1, a - 1]:
                problems.append(f"box.{a}.{b}: offset {box['cells'][i][j]}")
    if len(box["rows"]["values"]) != 32 or len(box["columns"]["values"]) != 32:
        problems.append("the box table is not 32 x 32")
    maharaja = service.table(store, "maharaja", "deviation")
    first = maharaja["cells"][0][0]
    if (maharaja["rows"]["values"][0], maharaja["columns"]["values"][0]) != (1, 2):
        problems.append("the maharaja table does not start at (1,2)")
    if first != [-4, 3]:
        problems.append(f"maharaja.1.2: deviation {first}, the paper says [-4, 3]")
    return problems


def run(label: str, url: str, names: list[str], n: int, repeat: int) -> bool:
    store = service.Store(Settings.load(url))
    try:
        print(f"{label}:")
        begin, before = time.perf_counter(), written_bytes(store)
        spent = seed(store, names, n)
        total = time.perf_counter() - begin
        written = written_bytes(store) - before
        entries = int(spent["entries"])
        print(
            f"  seeded {entries} entries to n = {n} with invariants in {total:.0f} s "
            f"({entries / total:.1f} entries a second)"
        )
        size, tables = sizes(store)
        print(
            f"  on disk: {size / 1e6:.1f} MB, {size / entries / 1e3:.1f} KB an entry; "
            f"written: {written / 1e6:.0f} MB, {written / size:.1f} times the size"
        )
        for table, used in sorted(tables.items(), key=lambda t: -t[1])[:8]:
            each = used / entries / 1e3
            print(f"    {table}: {used / 1e6:.1f} MB, {each:.1f} KB an entry")
        for phase, value in spent.items():
            if phase != "entries":
                unit = " s"
                print(f"    {phase}: {value:.1f}{unit}")
        ok = True
        for kind, calls in (
            (
                "filtered list",
                [lambda q=q: service.list_entries(store, **q) for q in LISTS],
            ),
            (
                "family table",
                [
                    lambda t=t: service.table(store, t[0], t[1], t[2])
                    for t in TABLES
                    if not names or t[0] in names
                ],
            ),
        ):
            for call in calls:
                call()  # warm: the family set and the connection pool
            times = np.concatenate([timed(call, repeat) for call in calls])
            p50, p99 = np.median(times), np.percentile(times, 99)
            good = p50 <= 50
            ok &= good
            print(
                f"  {'ok  ' if good else 'MISS'} {kind}: p50 {p50:.1f} ms, p99 "
                f"{p99:.1f} ms over {len(times)} calls of {len(calls)} kinds "
                "(goal: p50 <= 50 ms)"
            )
        times = searches(store, 20 * repeat)
        p50, p99 = np.median(times), np.percentile(times, 99)
        good = p50 <= 50 and p99 <= 200
        ok &= good
        print(
            f"  {'ok  ' if good else 'MISS'} term search: p50 {p50:.1f} ms, p99 "
            f"{p99:.1f} ms over {len(times)} queries (goal: p50 <= 50, p99 <= 200 ms)"
        )
        if not names:
            problems = checks(store)
            print(
                "  ok   the box offsets are (b-1, a-1) for a, b <= 32 and "
                "maharaja.1.2's deviations are -4..3"
                if not problems
                else "  MISS " + "; ".join(problems[:5])
            )
            ok &= not problems
        return ok
    finally:
        store.dispose()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--families", default="", help="comma-separated (all)")
    parser.add_argument("--repeat", type=int, default=25)
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--no-sqlite", action="store_true")
    args = parser.parse_args()
    names = [name for name in args.families.split(",") if name]
    ok = True
    with tempfile.TemporaryDirectory() as folder:
        targets = []
        if not args.no_sqlite:
            sqlite = f"sqlite:///{Path(folder) / 'families.sqlite3'}"
            targets.append(("SQLite", sqlite))
        admin, name = None, f"wythoff_bench_families_{os.getpid()}"
        if not args.no_postgres:
            admin = create_engine(ADMIN, isolation_level="AUTOCOMMIT")
            with admin.connect() as conn:
                conn.execute(text(f'CREATE DATABASE "{name}"'))
            url = make_url(ADMIN).set(database=name).render_as_string(False)
            targets.append(("PostgreSQL", url))
        try:
            for label, url in targets:
                ok &= run(label, url, names, args.n, args.repeat)
        finally:
            if admin is not None:
                with admin.connect() as conn:
                    conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
                admin.dispose()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
