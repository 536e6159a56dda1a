"""``wythoff worker`` as real processes: kill -9 and takeover, SIGTERM, many
workers on PostgreSQL, connections terminated under them. Every wait is on a
condition with a generous deadline, never a fixed sleep. The worker killed
or signalled is forked (:mod:`tests.cli.racing`); the one that takes over or
resumes after it runs in this process."""

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from click.testing import CliRunner
from sqlalchemy import select, text

from catalog import p_positions, service
from catalog.cli.main import cli
from catalog.config import Settings
from catalog.service import jobs
from catalog.store import repository as repo
from catalog.store.job_model import Job
from catalog.store.models import PositionChunk
from tests.cli.racing import Forked, StopAt
from tests.conftest import new_database_url
from tests.databases import seeded

DEADLINE = 300  # seconds: for a loaded shared machine, not a speed goal
CHUNK = {"WYTHOFF_CHUNK_COLUMNS": "20000"}
#: Where a forked worker stops itself: the fill's write of a chunk, inside
#: the chunk's transaction (after the heartbeat, before the commit).
WRITE_CHUNK = "catalog.store.repository:write_chunk"


@pytest.fixture
def store(seeded_url):
    store = service.Store(Settings.load(seeded_url))
    yield store
    store.dispose()


def wythoff(store, *args, env=None):
    return [sys.executable, "-m", "catalog.cli", *args], {
        **os.environ,
        "WYTHOFF_DATABASE_URL": store.settings.database_url,
        **(env or {}),
    }


def forked_worker(store, stop=None):
    """``wythoff worker --json`` in a process of its own (forked: its
    start-up is not the point), with chunks of 20000 columns, stopping itself
    at ``stop`` (:class:`~tests.cli.racing.StopAt`)."""
    url = store.settings.database_url
    return Forked(["worker", "--json", "--db", url], env=CHUNK, stop=stop)


def worker_here(store, *args, env=None):
    """``wythoff worker --json`` in this process: its summary."""
    result = CliRunner().invoke(
        cli,
        ["worker", "--json", "--db", store.settings.database_url, *args],
        env=env,
    )
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def wait_for(condition, what, deadline=DEADLINE):
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"not within {deadline} s: {what}")


def job_row(store, job_id):
    with store.sessions() as session:
        row = session.get(Job, job_id)
        session.expunge(row)
        return row


def columns(store, number):
    with store.sessions() as session:
        extent = repo.get_extent(session, number)
        return extent.x_bound if extent else 0


def chunks(store, number):
    with store.sessions() as session:
        return session.execute(
            select(PositionChunk.x0, PositionChunk.x1)
            .where(PositionChunk.entry_id == number)
            .order_by(PositionChunk.x0)
        ).all()


def check_whole(store, wid, n):
    """Stored positions equal p_positions up to the stored extent, which is
    a chunk boundary; chunks tile [0, extent) with no gap or overlap."""
    number = int(wid[1:])
    bound = columns(store, number)
    tiles = chunks(store, number)
    assert tiles[0][0] == 0 and tiles[-1][1] == bound
    assert all(a[1] == b[0] for a, b in zip(tiles, tiles[1:], strict=False))
    definition = service.show(store, wid)["definition"]
    with store.sessions() as session:
        found = repo.read_positions(session, number, 0, bound, n)
    expected = p_positions(definition, n)
    assert np.array_equal(found, expected[expected[:, 0] < bound])
    return bound


def verify_ok(store, *wids):
    """``wythoff verify`` in this process: the workers are the point here."""
    assert service.verify(store, list(wids))["ok"]


def test_kill_9_mid_job_another_worker_finishes_it(store):
    """Killed in the middle of its fourth chunk's transaction (it stops
    itself there, so the job cannot be done first): the claim is dead, three
    chunks stay, and another worker takes the job over and finishes it."""
    n = 200_000
    job = jobs.enqueue(store, ["W000012"], n)["jobs"][0]
    first = forked_worker(store, StopAt(WRITE_CHUNK, call=4, after=True))
    first.wait_stopped(DEADLINE)
    assert first.send_signal(signal.SIGKILL)  # stopped: it cannot have ended
    assert first.outcome(DEADLINE) is None
    assert job_row(store, job["id"]).state == "running"  # a dead claim
    assert 0 < check_whole(store, "W000012", n) < n
    assert len(chunks(store, 12)) == 3
    assert worker_here(store, "--max-idle", "0", env=CHUNK)["done"] == 1
    row = job_row(store, job["id"])
    assert (row.state, row.attempts, row.error) == ("done", 2, None)
    assert check_whole(store, "W000012", n) == n
    verify_ok(store, "W000012")


def test_sigterm_finishes_the_chunk_and_exits(store):
    """Signalled while it holds its third chunk (computed, its transaction
    begun, about to be written; it stops itself there and goes on once
    signalled): it writes and commits that chunk, puts the job back and
    exits, whatever the machine's speed or load. (Signalling it once a few
    chunks were seen raced with the fill's end on a loaded machine: the job
    was sometimes done first, and nothing was released.)"""
    n = 200_000
    job = jobs.enqueue(store, ["W000013"], n)["jobs"][0]
    worker = forked_worker(store, StopAt(WRITE_CHUNK, call=3))
    worker.wait_stopped(DEADLINE)
    assert job_row(store, job["id"]).state == "running"
    assert len(chunks(store, 13)) == 2
    assert worker.send_signal(signal.SIGTERM)  # stopped: delivered on SIGCONT
    assert worker.send_signal(signal.SIGCONT)
    outcome = worker.outcome(DEADLINE)
    assert outcome is not None
    code, out, err = outcome
    assert code == 0, err
    assert json.loads(out)["released"] == 1
    row = job_row(store, job["id"])
    assert (row.state, row.attempts, row.claimed_by) == ("queued", 0, None)
    assert len(chunks(store, 13)) == 3  # the one it held, and no more
    kept = check_whole(store, "W000013", n)
    assert 0 < kept < n
    assert worker_here(store, "--once")["done"] == 1
    assert job_row(store, job["id"]).state == "done"
    assert check_whole(store, "W000013", n) == n


#: Jobs for the many workers: more than the most processes, of games with
#: cheap invariants (a worker computes them after each fill).
MANY = ["W000002", "W000003", *(f"W{i:06d}" for i in range(12, 22))]


@pytest.mark.postgres
@pytest.mark.parametrize("processes", [2, 8])
def test_many_workers_on_postgresql_do_each_job_once(request, tmp_path, processes):
    url = new_database_url("postgresql", request, tmp_path, seeded)
    store = service.Store(Settings.load(url))
    try:
        queued = jobs.enqueue(store, MANY, 5_000)["jobs"]
        command, environ = wythoff(
            store, "worker", "--json", "--processes", str(processes), "--max-idle", "0"
        )
        done = subprocess.run(
            command, env=environ, capture_output=True, text=True, timeout=DEADLINE
        )
        assert done.returncode == 0, done.stderr
        summary = json.loads(done.stdout)
        assert summary["processes"] == processes
        assert summary["done"] == len(queued)
        for job in queued:
            row = job_row(store, job["id"])
            assert (row.state, row.attempts) == ("done", 1), row.error
        for wid in MANY:
            check_whole(store, wid, 5_000)
        verify_ok(store, *MANY)
    finally:
        store.dispose()


@pytest.mark.postgres
def test_workers_reconnect_when_postgresql_terminates_their_connections(
    request, tmp_path, postgres_admin
):
    """Every connection of two workers terminated, again and again, from
    their first committed chunk on: each job is still done, whole. The
    workers are forked (``--processes`` is tested above)."""
    url = new_database_url("postgresql", request, tmp_path, seeded)
    store = service.Store(Settings.load(url))
    name = store.engine.url.database
    n = 100_000
    try:
        wids = ["W000012", "W000013", "W000014"]  # cheap invariants
        queued = jobs.enqueue(store, wids, n)["jobs"]
        small = {"WYTHOFF_CHUNK_COLUMNS": "10000"}  # ten chunks a job
        work = ["worker", "--json", "--max-idle", "0", "--db", url]
        workers = [Forked(work, env=small) for _ in range(2)]
        wait_for(
            lambda: (
                not all(w.alive() for w in workers)
                or any(columns(store, int(w[1:])) for w in wids)
            ),
            "a chunk committed",
        )
        terminated = 0
        while any(w.alive() for w in workers) and terminated < 20:
            with postgres_admin.connect() as conn:
                terminated += conn.execute(
                    text(
                        "SELECT count(pg_terminate_backend(pid)) FROM "
                        "pg_stat_activity WHERE datname = :db AND pid <> "
                        "pg_backend_pid() AND application_name NOT LIKE 'pytest%'"
                    ),
                    {"db": name},
                ).scalar_one()
            store.engine.dispose()
            time.sleep(0.25)  # the pace of the faults, not a wait for a result
        ended = [w.outcome(DEADLINE) for w in workers]
        assert all(o is not None and o[0] == 0 for o in ended), ended
        assert terminated > 0
        for job in queued:
            assert job_row(store, job["id"]).state == "done"
        for wid in wids:
            assert check_whole(store, wid, n) == n
        verify_ok(store, *wids)
    finally:
        store.dispose()
