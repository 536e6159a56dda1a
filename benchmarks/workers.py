"""The queue and its workers on PostgreSQL: scaling, throughput, the database's share.

    python benchmarks/workers.py [--fills 200] [--n 100000] [--big 4]

In a temporary PostgreSQL database (``WYTHOFF_TEST_POSTGRES_URL``'s server)
it seeds the ``adjoined`` family (Wythoff's Nim plus a move pair: the
compiled kernel), queues FILLS fills at n = N and drains them with
``wythoff worker --processes K`` for K = 1, 2 and 8, each on a fresh
database. The time of a run is from the first claim to the last finish
(the jobs' own timestamps: process start-up and numba's cache load are left
out). While it runs, pg_stat_activity is sampled every 50 ms: the mean
number of the workers' connections executing a statement, over K, is the
share of the workers' time spent in the database. Then BIG fills at n = 10^6
with one worker, and the rows and bytes stored per entry.

Goal: 2 workers in at most 0.55 x the time of 1 (this is a 2-core machine).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time

from sqlalchemy import create_engine, func, select, text
from sqlalchemy.engine import make_url

from catalog import service
from catalog.config import Settings
from catalog.service import jobs
from catalog.store.job_model import Job
from catalog.store.models import PositionChunk

ADMIN = os.environ.get(
    "WYTHOFF_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)


class Database:
    """A fresh database, seeded with the family, dropped at the end."""

    def __init__(self, admin, tag: str) -> None:
        self.admin = admin
        self.name = f"wythoff_bench_workers_{os.getpid()}_{tag}"
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{self.name}"'))
        url = make_url(ADMIN).set(database=self.name)
        self.url = url.render_as_string(hide_password=False)
        self.store = service.Store(Settings.load(self.url))
        service.seed_families(self.store, ["adjoined"])

    def drop(self) -> None:
        self.store.dispose()
        with self.admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)'))


def members(store, count: int) -> list[str]:
    rows = service.list_entries(store, family="adjoined", limit=count)["entries"]
    return [row["id"] for row in rows]


def sample_activity(admin, name: str, stop: threading.Event, out: list[int]) -> None:
    query = text(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = :db "
        "AND state = 'active' AND pid <> pg_backend_pid()"
    )
    with admin.connect() as conn:
        while not stop.is_set():
            out.append(conn.execute(query, {"db": name}).scalar_one())
            time.sleep(0.05)


def drain(db: Database, wids: list[str], n: int, processes: int) -> dict:
    queued = jobs.enqueue(db.store, wids, n)["jobs"]
    samples: list[int] = []
    stop = threading.Event()
    sampler = threading.Thread(
        target=sample_activity, args=(db.admin, db.name, stop, samples)
    )
    sampler.start()
    env = {**os.environ, "WYTHOFF_DATABASE_URL": db.url}
    command = [sys.executable, "-m", "catalog.cli", "worker", "--json"]
    command += ["--processes", str(processes), "--max-idle", "2"]
    subprocess.run(command, env=env, check=True, capture_output=True)
    stop.set()
    sampler.join()
    ids = [job["id"] for job in queued]
    numbers = [int(wid[1:]) for wid in wids]
    mine = PositionChunk.entry_id.in_(numbers)
    with db.store.sessions() as session:
        first, last, states = session.execute(
            select(
                func.min(Job.claimed_at),
                func.max(Job.finished_at),
                func.count(Job.id).filter(Job.state == "done"),
            ).where(Job.id.in_(ids))
        ).one()
        rows = session.scalar(select(func.count()).where(mine))
        positions = int(
            session.scalar(select(func.sum(PositionChunk.count)).where(mine))
        )
        size = int(
            session.scalar(
                select(
                    func.sum(
                        func.length(PositionChunk.data)
                        + func.length(PositionChunk.checksum)
                        + 60  # the row's header and its other columns
                    )
                ).where(mine)
            )
        )
    seconds = (last - first).total_seconds()
    busy = [s for s in samples if s > 0] or [0]
    return {
        "processes": processes,
        "jobs": len(queued),
        "done": states,
        "seconds": seconds,
        "jobs_per_s": states / seconds,
        "chunk_rows_per_s": rows / seconds,
        "positions_per_s": positions / seconds,
        "db_share": statistics.fmean(samples) / processes if samples else 0.0,
        "db_active_mean": statistics.fmean(busy),
        "rows_per_entry": rows / len(queued),
        "bytes_per_entry": size / len(queued),  # chunk data: sequences aside
    }


def show(result: dict) -> None:
    print(
        f"  K={result['processes']}: {result['done']}/{result['jobs']} done in "
        f"{result['seconds']:.1f} s; {result['jobs_per_s']:.2f} jobs/s, "
        f"{result['chunk_rows_per_s']:.1f} chunk rows/s, "
        f"{result['positions_per_s']:.0f} positions/s; database share "
        f"{result['db_share']:.1%}; {result['rows_per_entry']:.1f} rows, "
        f"{result['bytes_per_entry'] / 1024:.0f} KiB per entry",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fills", type=int, default=200)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--big", type=int, default=4, help="fills at n = 10^6")
    args = parser.parse_args()
    admin = create_engine(ADMIN, isolation_level="AUTOCOMMIT")
    ratio = float("inf")
    db = Database(admin, "x")
    try:
        # Disjoint members for each run, so each starts from nothing stored.
        wids = members(db.store, 3 * args.fills + args.big)
        runs = [wids[k * args.fills : (k + 1) * args.fills] for k in range(3)]
        print(f"{args.fills} fills at n = {args.n} (adjoined family), PostgreSQL:")
        one = drain(db, runs[0], args.n, 1)
        show(one)
        two = drain(db, runs[1], args.n, 2)
        show(two)
        ratio = two["seconds"] / one["seconds"]
        print(f"  2 workers / 1 worker: {ratio:.2f} x the time (goal <= 0.55)")
        eight = drain(db, runs[2], args.n, 8)
        show(eight)
        print(f"  per worker and hour at n = {args.n}: {one['jobs_per_s'] * 3600:.0f}")
        if args.big:
            print(f"{args.big} fills at n = 10^6, 1 worker:")
            big = drain(db, wids[3 * args.fills :], 10**6, 1)
            show(big)
            print(f"  per worker and hour at n = 10^6: {big['jobs_per_s'] * 3600:.0f}")
    finally:
        db.drop()
        admin.dispose()
    return 0 if ratio <= 0.55 else 1


if __name__ == "__main__":
    sys.exit(main())
