"""The state each operation of the queue leaves a job in, as a user reads it:
``wythoff jobs`` (JSON, text, ``--state``) and ``GET /api/v1/jobs/{id}``.

Each step runs the operation itself (the command, or the store's function
a worker calls) on a real catalog, then :func:`seen` reads the job through
every view and requires them to agree. The states and errors are string
constants of the queue's modules, which cosmic-ray's operators never
change: ``cancel`` writing ``"done"`` for ``"failed"`` passed every test
before these (``tools/mutate.py --strings`` mutates those constants).
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from click.testing import CliRunner

from catalog import service
from catalog.api import jobs as api_jobs
from catalog.api.jobs import JOB
from catalog.cli.main import cli
from catalog.config import Settings
from catalog.errors import BadInput
from catalog.games.definition import canonicalize
from catalog.service import jobs
from catalog.store import jobs as queue
from catalog.store import repository as repo
from catalog.store.db import writing
from catalog.store.fill import worker_name
from catalog.store.job_model import Job
from catalog.store.models import utcnow
from tests.api.conftest import make_app

STATES = ("queued", "running", "done", "failed")
N = 600


class Views:
    """``wythoff`` and the API on one catalog, and its store for the
    operations a worker performs."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.store = service.Store(Settings.load(url))
        self.app = make_app(url, False)
        self.client = self.app.test_client()

    def wythoff(self, *args: str, json_out: bool = True) -> Any:
        flags = ["--json"] if json_out else []
        result = CliRunner().invoke(cli, [*args, *flags, "--db", self.url])
        assert result.exit_code == 0, result.stderr
        return json.loads(result.stdout) if json_out else result.stdout

    def seen(self, job_id: int) -> dict[str, Any]:
        """The job as ``wythoff jobs`` lists it, with the keys the OpenAPI
        document names, the same as the API's, listed by ``--state`` under
        its own state only, with its state in the text table, and
        ``Retry-After`` while it waits or runs."""
        listed = [j for j in self.wythoff("jobs")["jobs"] if j["id"] == job_id]
        assert len(listed) == 1
        (job,) = listed
        assert set(job) == set(JOB["properties"])  # the OpenAPI document's
        assert set(JOB["required"]) <= set(job)
        assert job["state"] in JOB["properties"]["state"]["enum"]
        response = self.client.get(f"/api/v1/jobs/{job_id}")
        assert response.status_code == 200
        assert response.get_json() == job
        waiting = job["state"] in ("queued", "running")
        assert ("Retry-After" in response.headers) == waiting
        for state in STATES:
            ids = [j["id"] for j in self.wythoff("jobs", "--state", state)["jobs"]]
            assert (job_id in ids) == (state == job["state"]), state
        # The whole table (``jobs`` alone prints a summary at a terminal).
        rows = self.wythoff("jobs", "--all", json_out=False).splitlines()
        (row,) = [r.split() for r in rows[1:] if r.split()[:1] == [str(job_id)]]
        done = f"{job['done']}/{job['n']}"
        assert row[1:5] == [job["entry"], str(job["n"]), job["state"], done]
        return job

    def shown(self, job_id: int) -> dict[str, Any]:
        """What the user sees that the operations change."""
        job = self.seen(job_id)
        return {k: job[k] for k in ("state", "error", "attempts", "worker", "done")}

    def enqueue(self, wid: str, n: int = N) -> int:
        (job,) = self.wythoff("enqueue", wid, "--n", str(n))["jobs"]
        assert (job["entry"], job["n"], job["state"]) == (wid, n, "queued")
        return int(job["id"])

    def claim(self) -> Job:
        claimed = queue.claim_next(self.store.sessions)
        assert claimed is not None
        return claimed

    def abandon(self, job_id: int, attempts: int) -> None:
        """The job's claim made another host's, silent past the lease: its
        worker died there."""
        with writing(self.store.sessions) as session:
            row = session.get_one(Job, job_id)
            row.claimed_by, row.attempts = "elsewhere:1", attempts
            row.heartbeat_at = utcnow() - timedelta(seconds=10 * queue.LEASE_SECONDS)

    def close(self) -> None:
        self.app.extensions["catalog"].dispose()
        self.store.dispose()


@pytest.fixture
def views(seeded_url: str) -> Any:
    views = Views(seeded_url)
    yield views
    views.close()


def state(name: str, error: str | None, attempts: int, worker: Any, done: int = 0):
    return {
        "state": name,
        "error": error,
        "attempts": attempts,
        "worker": worker,
        "done": done,
    }


def test_enqueued_claimed_then_done(views):
    job = views.enqueue("W000004")
    assert views.shown(job) == state("queued", None, 0, None)
    assert views.claim().id == job
    assert views.shown(job) == state("running", None, 1, worker_name())
    # The worker finds its own claim first and finishes it.
    assert views.wythoff("worker", "--once")["done"] == 1
    assert views.shown(job) == state("done", None, 1, worker_name(), N)


def test_a_failing_job_is_queued_again_then_failed(views):
    job = views.enqueue("W000004")
    error = "RuntimeError: the kernel broke"
    for attempt in range(1, queue.MAX_ATTEMPTS):
        assert views.claim().id == job
        after = queue.retry_later(views.store.sessions, job, error, backoff=0)
        assert after == "queued"
        assert views.shown(job) == state("queued", error, attempt, None)
    assert views.claim().id == job
    assert queue.retry_later(views.store.sessions, job, error, backoff=0) == "failed"
    attempts = queue.MAX_ATTEMPTS
    last = f"failed {attempts} times, last: {error}"
    assert views.shown(job) == state("failed", last, attempts, worker_name())


def test_a_job_failed_at_once_shows_its_error(views):
    job = views.enqueue("W000004")
    views.claim()
    queue.finish(views.store.sessions, job, "OSError: disk full")
    assert views.shown(job) == state("failed", "OSError: disk full", 1, worker_name())


def test_jobs_of_a_changed_definition_are_dropped(views):
    running = views.enqueue("W000004")
    queued = views.enqueue("W000005")
    views.claim()
    with writing(views.store.sessions) as session:
        for number in (4, 5):
            other = {"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[1, number]]}
            entry = repo.get_entry(session, number)
            repo.update_entry(session, entry, canonicalize(other))
    dropped = "dropped: the entry's definition changed"
    # The worker drops its claimed job instead of computing it…
    assert views.wythoff("worker", "--once")["dropped"] == 1
    assert views.shown(running) == state("failed", dropped, 1, worker_name())
    # …and queueing the new definition drops the old one's queued job.
    fresh = views.enqueue("W000005")
    assert fresh != queued
    assert views.shown(queued) == state("failed", dropped, 0, None)
    assert views.shown(fresh) == state("queued", None, 0, None)


def test_cancelled_jobs_are_failed_not_done(views):
    running = views.enqueue("W000004")
    assert views.claim().id == running
    queued = views.enqueue("W000005")
    cancelled = [
        (running, state("failed", "cancelled", 1, worker_name())),
        (queued, state("failed", "cancelled", 0, None)),
    ]
    for job, expected in cancelled:
        listed = views.wythoff("jobs", "--cancel", str(job))["jobs"]
        assert [j["state"] for j in listed if j["id"] == job] == ["failed"]
        assert views.shown(job) == expected
    # A worker finds nothing to run (its claim is gone), and the states stay.
    summary = views.wythoff("worker", "--once")
    assert (summary["done"], summary["failed"]) == (0, 0)
    for job, expected in cancelled:
        assert views.shown(job) == expected


def test_a_finished_job_is_not_cancelled(views):
    job = views.enqueue("W000004")
    views.wythoff("worker", "--once")
    views.wythoff("jobs", "--cancel", str(job))
    assert views.shown(job) == state("done", None, 1, worker_name(), N)


def test_an_abandoned_job_is_taken_over_then_done(views):
    job = views.enqueue("W000004")
    views.claim()
    views.abandon(job, 1)
    assert views.shown(job) == state("running", None, 1, "elsewhere:1")
    assert views.claim().id == job
    assert views.shown(job) == state("running", None, 2, worker_name())
    assert views.wythoff("worker", "--once")["done"] == 1
    assert views.shown(job) == state("done", None, 2, worker_name(), N)


def test_a_job_abandoned_on_its_last_attempt_is_given_up(views):
    job = views.enqueue("W000004")
    views.claim()
    views.abandon(job, queue.MAX_ATTEMPTS)
    assert queue.claim_next(views.store.sessions) is None
    attempts = queue.MAX_ATTEMPTS
    error = f"gave up after {attempts} attempts: its worker stopped answering"
    assert views.shown(job) == state("failed", error, attempts, "elsewhere:1")


def test_a_released_job_is_queued_again_unclaimed(views):
    job = views.enqueue("W000004")
    views.claim()
    queue.release(views.store.sessions, job)
    assert views.shown(job) == state("queued", None, 0, None)


def test_what_is_no_job_nor_state_is_refused_by_name(views):
    def wythoff(*args):
        return CliRunner().invoke(cli, [*args, "--json", "--db", views.url])

    missing = wythoff("jobs", "--cancel", "999")
    assert (missing.exit_code, missing.stderr) == (1, "Error: no job 999\n")
    response = views.client.get("/api/v1/jobs/999")
    assert (response.status_code, response.get_json()) == (404, {"error": "no job 999"})
    sleeping = wythoff("jobs", "--state", "sleeping")
    named = ", ".join(f"'{s}'" for s in STATES)
    (line,) = sleeping.stderr.splitlines()  # one line, then the help's name
    assert sleeping.exit_code == 1
    assert line.startswith(
        f"Error: Invalid value for '--state': 'sleeping' is not one of {named}. "
    )
    with pytest.raises(BadInput) as refused:
        jobs.jobs(views.store, "sleeping")
    assert str(refused.value) == "state: must be one of queued, running, done, failed"


def test_a_running_job_with_an_eta_is_asked_again_after_its_eta(views):
    """``Retry-After`` of a running job with a rate is its ETA (within 1 s
    to 10 min), over HTTP; before a rate is known, the poll interval."""
    service.compute(views.store, "W000001", 300)
    job = views.enqueue("W000001", 360)
    assert views.claim().id == job
    response = views.client.get(f"/api/v1/jobs/{job}")
    assert response.get_json()["eta"] is None
    assert response.headers["Retry-After"] == str(api_jobs.POLL_SECONDS)
    start = utcnow()
    # 50 columns in 3 s, 60 to go: 4 s; 50 in 1,000 s: 1,200 s, cut to 600.
    for seconds, eta, retry in ((3, 4, "4"), (1000, 1200, "600")):
        with writing(views.store.sessions) as session:
            row = session.get_one(Job, job)
            row.started_from, row.claimed_at = 250, start
            row.heartbeat_at = start + timedelta(seconds=seconds)
        response = views.client.get(f"/api/v1/jobs/{job}")
        assert response.status_code == 200
        assert (response.get_json()["state"], response.get_json()["eta"]) == (
            "running",
            eta,
        )
        assert response.headers["Retry-After"] == retry
