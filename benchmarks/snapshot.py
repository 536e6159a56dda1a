"""How fast ``wythoff db copy`` makes snapshots, both ways.

Run: ``make bench-copy`` (or ``python benchmarks/snapshot.py [--db URL]``).
Without ``--db`` it builds the catalog first with ``wythoff seed --family
all --n 10000`` (every shipped family: 2836 members and the seeds, about 9
minutes on 2 cores); with ``--db`` it copies that catalog. Then: the
catalog into a fresh SQLite file, that file into a fresh PostgreSQL
database (``WYTHOFF_TEST_POSTGRES_URL``'s server, default the local one),
and each copy run again (a no-op: every table is there). Reports seconds,
rows a second and MB a second (of the SQLite file's size).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from catalog.store import copy as copying
from catalog.store.db import make_engine

ADMIN = os.environ.get(
    "WYTHOFF_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
WYTHOFF = [sys.executable, "-m", "catalog.cli"]


def run(*args: str) -> float:
    begin = time.perf_counter()
    subprocess.run([*WYTHOFF, *args], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - begin


def rows(url: str) -> int:
    engine = make_engine(url)
    try:
        return copying.rows(engine)
    finally:
        engine.dispose()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", help="a catalog to copy (default: build one)")
    parser.add_argument("--n", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        source = args.db or f"sqlite:///{Path(folder) / 'source.sqlite3'}"
        if not args.db:
            seconds = run("--db", source, "seed", "--family", "all", "--n", str(args.n))
            print(f"built the catalog in {seconds:.0f} s")
        snapshot = Path(folder) / "snapshot.sqlite3"
        to_sqlite = f"sqlite:///{snapshot}"
        count = rows(source)
        seconds = run("--db", source, "db", "copy", "--to", to_sqlite)
        size = snapshot.stat().st_size / 2**20
        print(
            f"into SQLite: {count} rows, {size:.0f} MB in {seconds:.1f} s: "
            f"{count / seconds:.0f} rows/s, {size / seconds:.1f} MB/s"
        )
        again = run("--db", source, "db", "copy", "--to", to_sqlite)
        print(f"  again (nothing to copy, every chunk checked): {again:.1f} s")
        admin = create_engine(ADMIN, isolation_level="AUTOCOMMIT")
        name = f"wythoff_bench_copy_{os.getpid()}"
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        try:
            to_postgres = make_url(ADMIN).set(database=name).render_as_string(False)
            seconds = run("--db", to_sqlite, "db", "copy", "--to", to_postgres)
            print(
                f"SQLite into PostgreSQL: {seconds:.1f} s: {count / seconds:.0f} "
                f"rows/s, {size / seconds:.1f} MB/s"
            )
            again = run("--db", to_sqlite, "db", "copy", "--to", to_postgres)
            print(f"  again: {again:.1f} s")
            verify = run("--db", to_postgres, "verify", "W000001", "W000004")
            print(f"  wythoff verify W000001 W000004 on the copy: {verify:.1f} s, ok")
        finally:
            with admin.connect() as connection:
                drop = f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'
                connection.execute(text(drop))
            admin.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
