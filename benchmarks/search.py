"""Search speed: 10,000 entries of 1,000 terms, 6-term queries.

Run: ``make bench-search`` (or ``python benchmarks/search.py [--entries N]``).
Builds a catalog in a temporary SQLite file and in a temporary PostgreSQL
database (``WYTHOFF_TEST_POSTGRES_URL``, default the local server) with
real games: Wythoff's Nim plus the moves (a, b) and (b, a), and for more
variety a forced P cell, computed to 1000 columns; each entry's column
sequence y(x) is stored and indexed. Then it times ``search`` on 6
consecutive terms taken from random entries at random places.
Goal: median <= 50 ms on each database. Exit 1 if missed.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from sqlalchemy import create_engine, insert, text
from sqlalchemy.engine import make_url

from catalog.compute.kernel import KernelSweep
from catalog.games.definition import canonicalize
from catalog.store import chunks
from catalog.store import search as searching
from catalog.store.db import make_engine, make_sessionmaker, upgrade_to_head
from catalog.store.models import Entry, Game, Sequence, utcnow

TERMS = 1000
ADMIN = os.environ.get(
    "WYTHOFF_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)


def games(count: int, rng: random.Random) -> list:
    out, seen = [], set()
    while len(out) < count:
        a, b = sorted(rng.sample(range(1, 400), 2))
        cell = [rng.randrange(40), rng.randrange(40)]
        game = canonicalize(
            {
                "rays": [[1, 0], [0, 1], [1, 1]],
                "moves": [[a, b], [b, a]],
                "alter": {"P": [cell]},
            }
        )
        if game.key not in seen:
            seen.add(game.key)
            out.append(game)
    return out


def column(game) -> np.ndarray:
    found = KernelSweep(game).advance(TERMS)
    return found[:, 1]  # one P-position per column: y(x)


def build(url: str, population: list, columns: list[np.ndarray]) -> None:
    engine = make_engine(url)
    upgrade_to_head(engine)
    now = utcnow()
    with engine.begin() as conn:
        conn.execute(
            insert(Game),
            [
                {
                    "id": 1,
                    "key": "bench",
                    "rays": [],
                    "moves": [],
                    "special": [],
                    "created_at": now,
                }
            ],
        )
        conn.execute(
            insert(Entry),
            [
                {
                    "id": i + 1,
                    "key": g.key,
                    "name": f"bench game {i + 1}",
                    "description": "",
                    "references": [],
                    "keywords": [],
                    "provenance": "",
                    "source": "bench",
                    "definition": g.to_json(),
                    "game_id": 1,
                    "alteration_id": None,
                    "created_at": now,
                    "updated_at": now,
                }
                for i, g in enumerate(population)
            ],
        )
        rows = []
        for i, terms in enumerate(columns):
            encoding, data = chunks.encode_ints(terms)
            rows.append(
                {
                    "entry_id": i + 1,
                    "name": "y",
                    "offset": 0,
                    "length": len(terms),
                    "encoding": encoding,
                    "data": data,
                    "checksum": chunks.checksum(terms),
                    "description": "",
                }
            )
        conn.execute(insert(Sequence), rows)
    grams = (
        (int(g), i + 1, 1, position)
        for i, terms in enumerate(columns)
        for position, g in enumerate(
            searching.gram_hash(np.lib.stride_tricks.sliding_window_view(terms, 3))
        )
    )
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()
        if engine.dialect.name == "postgresql":
            copy_sql = "COPY search_grams (gram, entry_id, kind, position) FROM STDIN"
            with cursor.copy(copy_sql) as copy:
                for row in grams:
                    copy.write_row(row)
        else:
            cursor.execute("BEGIN")
            cursor.executemany("INSERT INTO search_grams VALUES (?, ?, ?, ?)", grams)
        raw.commit()
    finally:
        raw.close()
    engine.dispose()


def measure(url: str, columns: list[np.ndarray], queries: int, rng: random.Random):
    engine = make_engine(url)
    maker = make_sessionmaker(engine)
    times, found = [], 0
    for _ in range(queries):
        entry = rng.randrange(len(columns))
        start = rng.randrange(TERMS - 6)
        query = ",".join(str(t) for t in columns[entry][start : start + 6])
        begin = time.perf_counter()
        with maker() as session:
            results, _ = searching.search(session, searching.parse(query))
        times.append(time.perf_counter() - begin)
        found += bool(results)  # the query's own entry or an identical one
    engine.dispose()
    return np.array(times) * 1000, found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args()
    rng = random.Random(7)
    start = time.perf_counter()
    population = games(args.entries, rng)
    columns = [column(g) for g in population]
    print(
        f"computed {len(columns)} games x {TERMS} terms in "
        f"{time.perf_counter() - start:.1f} s"
    )
    failures = []
    with tempfile.TemporaryDirectory() as folder:
        targets = [("SQLite", f"sqlite:///{Path(folder) / 'search.sqlite3'}", None)]
        if not args.no_postgres:
            name = f"wythoff_bench_{os.getpid()}"
            admin = create_engine(ADMIN, isolation_level="AUTOCOMMIT")
            with admin.connect() as conn:
                conn.execute(text(f'CREATE DATABASE "{name}"'))
            url = make_url(ADMIN).set(database=name).render_as_string(False)
            targets.append(("PostgreSQL", url, (admin, name)))
        for label, url, cleanup in targets:
            try:
                begin = time.perf_counter()
                build(url, population, columns)
                print(
                    f"{label}: built the index in {time.perf_counter() - begin:.1f} s"
                )
                times, found = measure(url, columns, args.queries, rng)
                median, p95 = np.median(times), np.percentile(times, 95)
                ok = median <= 50
                print(
                    f"  {'ok  ' if ok else 'MISS'} {label}: median {median:.1f} ms, "
                    f"p95 {p95:.1f} ms over {args.queries} queries (goal: median "
                    f"<= 50 ms); {found}/{args.queries} queries found matches"
                )
                if not ok or found != args.queries:
                    failures.append(label)
            finally:
                if cleanup:
                    admin, name = cleanup
                    with admin.connect() as conn:
                        conn.execute(
                            text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                        )
                    admin.dispose()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
