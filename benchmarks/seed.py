"""Seeding: ``wythoff seed`` on SQLite and on PostgreSQL, side by side.

Run: ``make bench-seed`` (or ``python benchmarks/seed.py [--n N]
[--repeat K]``). Seeds a temporary SQLite file and a temporary PostgreSQL
database (``WYTHOFF_TEST_POSTGRES_URL``, default the local server) as
``wythoff seed`` does: the seed files, then every seed computed to n
(default 2000, the command's default) with its invariants. Each database
is seeded ``repeat`` times (default 3), alternately, each time fresh; the
medians are compared. Goal: PostgreSQL within 1.5 times SQLite. Exit 1 if
missed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from catalog import service
from catalog.config import Settings
from catalog.store.db import make_engine, upgrade_to_head
from catalog.store.ids import parse_id

ADMIN = os.environ.get(
    "WYTHOFF_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
GOAL = 1.5


def seed(url: str, n: int) -> float:
    """Seconds ``wythoff seed --n N`` takes on a migrated, empty catalog."""
    engine = make_engine(url)
    upgrade_to_head(engine)  # not timed: a new catalog's first use does it once
    engine.dispose()
    store = service.Store(Settings.load(url), migrate=False)
    try:
        begin = time.perf_counter()
        report = service.seed(store)
        ids = list(
            dict.fromkeys(report["added"] + report["updated"] + report["unchanged"])
        )
        for wid in ids:
            service.compute(store, wid, n)
            service.entry_invariants(store, parse_id(wid))
        return time.perf_counter() - begin
    finally:
        store.dispose()


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    admin = create_engine(ADMIN, isolation_level="AUTOCOMMIT")
    times: dict[str, list[float]] = {"SQLite": [], "PostgreSQL": []}
    with tempfile.TemporaryDirectory() as folder:
        for attempt in range(args.repeat):
            path = Path(folder) / f"seed{attempt}.sqlite3"
            times["SQLite"].append(seed(f"sqlite:///{path}", args.n))
            name = f"wythoff_bench_seed_{os.getpid()}_{attempt}"
            with admin.connect() as conn:
                conn.execute(text(f'CREATE DATABASE "{name}"'))
            try:
                url = make_url(ADMIN).set(database=name).render_as_string(False)
                times["PostgreSQL"].append(seed(url, args.n))
            finally:
                with admin.connect() as conn:
                    conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()
    medians = {label: statistics.median(values) for label, values in times.items()}
    for label, values in times.items():
        shown = ", ".join(f"{v:.1f}" for v in values)
        print(f"{label}: median {medians[label]:.1f} s ({shown})")
    ratio = medians["PostgreSQL"] / medians["SQLite"]
    ok = ratio <= GOAL
    print(
        f"  {'ok  ' if ok else 'MISS'} PostgreSQL / SQLite = {ratio:.2f} "
        f"(goal <= {GOAL})"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
