"""The queue of fills in one process, on both databases: enqueue, drain,
retries, dropped and cancelled jobs, takeover after the lease."""

import os
import socket
import subprocess
import sys
import threading
from datetime import timedelta

import numpy as np
import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from catalog import p_positions, service
from catalog.config import Settings
from catalog.errors import BadInput, DatabaseUnavailable, NotFound
from catalog.games.definition import canonicalize
from catalog.service import jobs
from catalog.store import jobs as queue
from catalog.store import repository as repo
from catalog.store import search
from catalog.store.db import writing
from catalog.store.fill import ClaimLost, OverBudget, worker_name
from catalog.store.ids import format_id
from catalog.store.job_model import Job
from catalog.store.models import utcnow
from catalog.store.tables import search_postings, search_segments
from tests.conftest import new_database_url
from tests.databases import seeded

IDS = ["W000001", "W000004", "W000005"]


@pytest.fixture
def store(seeded_url):
    """A seeded catalog of its own (a copy of the session's template)."""
    store = service.Store(Settings.load(seeded_url))
    yield store
    store.dispose()


def stored(store, number, n):
    with store.sessions() as session:
        return repo.read_positions(session, number, 0, n, n)


def definition(store, wid):
    return service.show(store, wid)["definition"]


def states(store):
    with store.sessions() as session:
        return {
            j.id: (j.state, j.attempts, j.error)
            for j in session.scalars(select(Job).where(Job.kind == "fill"))
        }


def test_a_worker_drains_the_queue_and_stores_what_p_positions_says(store):
    first = jobs.enqueue(store, IDS, 3000)["jobs"]
    again = jobs.enqueue(store, IDS + ["W000004"], 3000)["jobs"]
    smaller = jobs.enqueue(store, ["W000004"], 1000)["jobs"]
    assert [j["id"] for j in again] == [j["id"] for j in first] + [first[1]["id"]]
    assert smaller[0]["id"] == first[1]["id"]  # a queued job covering the bound
    assert [(j["entry"], j["n"], j["state"]) for j in first] == [
        (wid, 3000, "queued") for wid in IDS
    ]
    summary = jobs.work(store, max_idle=0)
    assert (summary["done"], summary["failed"], summary["retried"]) == (3, 0, 0)
    assert {s for s in states(store).values()} == {("done", 1, None)}
    for wid in IDS:
        number = int(wid[1:])
        assert np.array_equal(
            stored(store, number, 3000), p_positions(definition(store, wid), 3000)
        )
    assert service.verify(store, IDS)["ok"]
    listed = jobs.jobs(store, "done")["jobs"]
    assert sorted(j["id"] for j in listed) == sorted(j["id"] for j in first)
    assert all(j["done"] == 3000 for j in listed)
    assert jobs.jobs(store, "queued") == {"jobs": []}


def test_higher_priority_runs_first(store):
    low = jobs.enqueue(store, ["W000001"], 500)["jobs"][0]
    high = jobs.enqueue(store, ["W000004"], 500, priority=5)["jobs"][0]
    with writing(store.sessions) as session:
        assert queue.list_jobs(session, "queued")[0].id == high["id"]
    jobs.work(store, once=True)
    assert states(store)[high["id"]][0] == "done"
    assert states(store)[low["id"]][0] == "queued"


def test_a_failing_job_is_retried_then_failed_and_the_rest_completes(
    store, monkeypatch
):
    real = jobs.compute_claimed

    def flaky(maker, job_id, entry_id, n, **kwargs):
        if entry_id == 4:
            raise RuntimeError("the kernel broke")
        return real(maker, job_id, entry_id, n, **kwargs)

    monkeypatch.setattr(jobs, "compute_claimed", flaky)
    queued = jobs.enqueue(store, IDS, 800)["jobs"]
    summary = jobs.work(store, max_idle=0, backoff=0)
    assert summary["retried"] == queue.MAX_ATTEMPTS - 1
    assert summary["failed"] == 1 and summary["done"] == 2
    found = states(store)
    assert found[queued[1]["id"]] == (
        "failed",
        queue.MAX_ATTEMPTS,
        f"failed {queue.MAX_ATTEMPTS} times, last: RuntimeError: the kernel broke",
    )
    assert found[queued[0]["id"]][0] == found[queued[2]["id"]][0] == "done"
    assert stored(store, 4, 800).size == 0


def test_a_failure_of_a_job_cancelled_meanwhile_counts_as_lost(store, monkeypatch):
    """The computation raises after the job was cancelled: the failure is
    not the worker's to record, and its summary counts the job lost."""
    count = 1
    queued = jobs.enqueue(store, IDS[:count], 300)["jobs"]
    first = queued[0]["id"]

    def cancelled_then_broken(maker, job_id, entry_id, n, **kwargs):
        if job_id == first:
            jobs.cancel(store, first)
            raise RuntimeError("the kernel broke")
        return real(maker, job_id, entry_id, n, **kwargs)

    real = jobs.compute_claimed
    monkeypatch.setattr(jobs, "compute_claimed", cancelled_then_broken)
    summary = jobs.work(store, max_idle=0, backoff=0)
    assert (summary["lost"], summary["done"]) == (1, count - 1)
    assert summary["failed"] == summary["retried"] == summary["dropped"] == 0
    assert states(store)[first] == ("failed", 1, "cancelled")


def test_a_retry_waits_for_its_backoff(store, monkeypatch):
    monkeypatch.setattr(
        jobs, "compute_claimed", lambda *a, **k: (_ for _ in ()).throw(OSError("x"))
    )
    job = jobs.enqueue(store, ["W000001"], 100)["jobs"][0]
    assert jobs.work(store, max_idle=0, backoff=3600)["retried"] == 1
    assert jobs.work(store, max_idle=0)["retried"] == 0  # not yet
    assert jobs.job(store, job["id"])["state"] == "queued"
    assert jobs.job(store, job["id"])["error"] == "OSError: x"


def test_a_job_for_a_changed_definition_is_dropped(store):
    job = jobs.enqueue(store, ["W000004"], 2000)["jobs"][0]
    other = canonicalize({"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[1, 3]]})
    with writing(store.sessions) as session:
        repo.update_entry(session, repo.get_entry(session, 4), other)
    assert jobs.work(store, max_idle=0)["dropped"] == 1
    assert jobs.job(store, job["id"])["state"] == "failed"
    assert jobs.job(store, job["id"])["error"] == (
        "dropped: the entry's definition changed"
    )
    assert stored(store, 4, 2000).size == 0
    # Queued again, it is a new job for the new definition.
    fresh = jobs.enqueue(store, ["W000004"], 2000)["jobs"][0]
    assert fresh["id"] != job["id"]
    assert jobs.work(store, max_idle=0)["done"] == 1
    assert np.array_equal(stored(store, 4, 2000), p_positions(other.to_json(), 2000))


def test_cancelled_jobs_are_not_run(store):
    job = jobs.enqueue(store, ["W000004"], 2000)["jobs"][0]
    assert jobs.cancel(store, job["id"])["error"] == "cancelled"
    assert jobs.work(store, max_idle=0)["done"] == 0
    assert stored(store, 4, 2000).size == 0


def test_a_claim_without_heartbeat_is_taken_over_after_the_lease(store):
    job = jobs.enqueue(store, ["W000004"], 1000)["jobs"][0]
    with writing(store.sessions) as session:
        row = session.get(Job, job["id"])
        row.state, row.claimed_by, row.attempts = "running", "elsewhere:1", 1
        row.claimed_at = row.heartbeat_at = utcnow() - timedelta(seconds=30)
    assert jobs.work(store, max_idle=0, lease=45)["done"] == 0  # within the lease
    assert jobs.work(store, max_idle=0, lease=20)["done"] == 1
    assert states(store)[job["id"]] == ("done", 2, None)


def test_bad_requests(store):
    with pytest.raises(NotFound):
        jobs.job(store, 12345)
    with pytest.raises(BadInput):
        jobs.jobs(store, "sleeping")
    with pytest.raises(NotFound):
        jobs.enqueue(store, ["W099999"], 100)
    with pytest.raises(BadInput):
        jobs.enqueue(store, ["W000001"], 10**9)


def test_the_backoff_is_10_s_then_20_s(store, monkeypatch):
    """The documented waits before the retries of a failing job (a bug that
    doubled them, 20 s then 40 s, went unseen when only retries were
    counted)."""
    monkeypatch.setattr(
        jobs, "compute_claimed", lambda *a, **k: (_ for _ in ()).throw(OSError("x"))
    )
    job = jobs.enqueue(store, ["W000001"], 100)["jobs"][0]
    waits = []
    for _ in range(2):
        before = utcnow()
        assert jobs.work(store, max_idle=0)["retried"] == 1
        with writing(store.sessions) as session:
            row = session.get(Job, job["id"])
            run_after = row.run_after
            if run_after.tzinfo is None:  # SQLite gives it back naive (UTC)
                run_after = run_after.replace(tzinfo=before.tzinfo)
            waits.append((run_after - before).total_seconds())
            row.run_after = before - timedelta(seconds=1)  # due now
    assert queue.BACKOFF_SECONDS == 10
    assert 10 <= waits[0] < 12 and 20 <= waits[1] < 22, waits


def _add_jobs(store, specs):
    """Jobs with these (state, priority), in this order (ids ascending), each
    of its own entry (an entry has one running job at a time)."""
    with writing(store.sessions) as session:
        rows = [
            Job(
                entry_id=number,
                kind="fill",
                target=100,
                state=state,
                priority=priority,
                attempts=0,
                entry_key=repo.get_entry(session, number).key,
                created_at=utcnow(),
            )
            for number, (state, priority) in enumerate(specs, start=1)
        ]
        session.add_all(rows)
        session.flush()
        return [row.id for row in rows]


def test_the_queue_lists_running_then_queued_in_turn_then_the_latest_finished(store):
    ids = _add_jobs(
        store,
        [
            ("done", 0),
            ("queued", 0),
            ("running", 0),
            ("queued", 2),
            ("failed", 0),
            ("queued", 5),
            ("running", 3),
            ("done", 0),
            ("queued", 0),
        ],
    )
    j = dict(enumerate(ids, start=1))
    listed = [job["id"] for job in jobs.jobs(store, None)["jobs"]]
    # Running by age; queued as a worker takes them (priority, then age);
    # then the most recently finished.
    assert listed == [j[3], j[7], j[6], j[4], j[2], j[9], j[8], j[5], j[1]]
    queued = [job["id"] for job in jobs.jobs(store, "queued")["jobs"]]
    assert queued == [j[6], j[4], j[2], j[9]]


def test_a_running_job_reports_its_rate_and_eta(store):
    service.compute(store, "W000001", 300)
    (job_id,) = _add_jobs(store, [("running", 0)])
    start = utcnow()
    with writing(store.sessions) as session:
        row = session.get(Job, job_id)
        row.target, row.started_from = 360, 250
        row.claimed_at, row.heartbeat_at = start, start + timedelta(seconds=3)
    shown = jobs.job(store, job_id)
    # 50 columns in 3 s: 16.67 a second, 60 to go.
    assert (shown["done"], shown["rate"], shown["eta"]) == (300, 16.7, 4)
    with writing(store.sessions) as session:  # half a second is time enough
        session.get(Job, job_id).heartbeat_at = start + timedelta(seconds=0.5)
    shown = jobs.job(store, job_id)
    assert (shown["rate"], shown["eta"]) == (100.0, 1)
    with writing(store.sessions) as session:
        session.get(Job, job_id).heartbeat_at = start  # no time yet: no rate
    assert (jobs.job(store, job_id)["rate"], jobs.job(store, job_id)["eta"]) == (
        None,
        None,
    )
    with writing(store.sessions) as session:
        row = session.get(Job, job_id)
        row.heartbeat_at, row.started_from = start + timedelta(seconds=3), 300
    assert jobs.job(store, job_id)["rate"] is None  # nothing done since the claim
    with writing(store.sessions) as session:
        row = session.get(Job, job_id)
        row.state, row.started_from = "queued", 250
    assert jobs.job(store, job_id)["rate"] is None  # only a running job has one


def test_a_job_of_an_entry_never_filled_has_done_nothing(store):
    job = jobs.enqueue(store, ["W000004"], 1000)["jobs"][0]
    assert (job["done"], job["rate"], job["eta"]) == (0, None, None)


def test_asking_again_raises_a_queued_job_s_priority_never_lowers_it(store):
    first = jobs.enqueue(store, ["W000004"], 1000)["jobs"][0]
    assert first["priority"] == 0
    again = jobs.enqueue(store, ["W000004"], 500, priority=5)["jobs"][0]
    assert (again["id"], again["priority"]) == (first["id"], 5)
    lower = jobs.enqueue(store, ["W000004"], 800, priority=3)["jobs"][0]
    assert (lower["id"], lower["priority"]) == (first["id"], 5)
    further = jobs.enqueue(store, ["W000004"], 2000, priority=3)["jobs"][0]
    assert further["id"] != first["id"] and further["priority"] == 3


def test_api_requests_queue_at_the_documented_priority():
    # docs/cli-reference.md and docs/deploy.md: "API requests queue at 10".
    assert queue.REQUEST_PRIORITY == 10


def _dead_pid() -> int:
    """The PID of a child that has exited and been reaped."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _claim(store, job_id, claimed_by, age_seconds=0):
    with writing(store.sessions) as session:
        row = session.get(Job, job_id)
        row.state, row.claimed_by, row.attempts = "running", claimed_by, 1
        row.claimed_at = row.heartbeat_at = utcnow() - timedelta(seconds=age_seconds)
        row.started_from = 0


def test_a_claim_whose_process_died_on_this_host_is_taken_over_at_once(store):
    job = jobs.enqueue(store, ["W000004"], 1000)["jobs"][0]
    _claim(store, job["id"], f"{socket.gethostname()}:{_dead_pid()}")
    taken = queue.claim_next(store.sessions, lease=3600)  # heartbeat fresh
    assert taken is not None and taken.id == job["id"]
    assert (taken.claimed_by, taken.attempts) == (worker_name(), 2)


def test_a_live_claim_holds_its_entry_until_its_lease_runs_out(store):
    running, waiting = _add_jobs(store, [("queued", 0), ("queued", 0)])
    with writing(store.sessions) as session:  # a second job of entry 1
        session.get(Job, waiting).entry_id = 1
        session.get(Job, waiting).target = 500
    alive = f"{socket.gethostname()}:{os.getppid()}"
    _claim(store, running, alive, age_seconds=30)
    assert queue.claim_next(store.sessions, lease=60) is None  # held, within lease
    taken = queue.claim_next(store.sessions, lease=20)  # its heartbeat is stale
    assert taken is not None and taken.id == running
    assert taken.claimed_by == worker_name()


def test_a_released_claim_is_not_counted(store):
    job = jobs.enqueue(store, ["W000004"], 1000)["jobs"][0]
    taken = queue.claim_next(store.sessions)
    assert taken is not None and taken.attempts == 1
    queue.release(store.sessions, job["id"])
    assert states(store)[job["id"]] == ("queued", 0, None)
    with store.sessions() as session:
        row = session.get(Job, job["id"])
        assert (row.claimed_by, row.run_after, row.heartbeat_at) == (None, None, None)
    # Released again at once (a worker stopping twice): never below 0.
    assert queue.claim_next(store.sessions).attempts == 1
    with writing(store.sessions) as session:
        session.get(Job, job["id"]).attempts = 0
    queue.release(store.sessions, job["id"])
    assert states(store)[job["id"]] == ("queued", 0, None)


def test_a_job_abandoned_on_its_last_attempt_is_failed_not_claimed(store):
    job = jobs.enqueue(store, ["W000004"], 1000)["jobs"][0]
    _claim(store, job["id"], "elsewhere:1", age_seconds=600)
    with writing(store.sessions) as session:
        session.get(Job, job["id"]).attempts = queue.MAX_ATTEMPTS
    assert queue.claim_next(store.sessions, lease=60) is None
    assert states(store)[job["id"]] == (
        "failed",
        3,
        "gave up after 3 attempts: its worker stopped answering",
    )
    second = jobs.enqueue(store, ["W000005"], 1000)["jobs"][0]
    _claim(store, second["id"], "elsewhere:1", age_seconds=600)
    with writing(store.sessions) as session:
        row = session.get(Job, second["id"])
        row.attempts, row.error = queue.MAX_ATTEMPTS - 1, "OSError: x"
    taken = queue.claim_next(store.sessions, lease=60)  # one attempt left
    assert taken is not None and (taken.id, taken.attempts) == (second["id"], 3)


def test_a_job_given_back_while_a_twin_waits_is_superseded(store):
    job = jobs.enqueue(store, ["W000004"], 1000)["jobs"][0]
    assert queue.claim_next(store.sessions).id == job["id"]
    # The definition was edited meanwhile: a new job for the same bound.
    twin = _add_jobs(store, [("queued", 0)] * 4)[3]
    with writing(store.sessions) as session:
        row = session.get(Job, twin)
        row.target, row.entry_id = 1000, 4
        other_target = session.get(Job, twin - 1)
        other_target.entry_id, other_target.target = 4, 999
    queue.release(store.sessions, job["id"])
    assert states(store)[job["id"]] == ("failed", 0, f"superseded by job {twin}")


def batches_of(monkeypatch) -> list[list[int]]:
    """Record the entries of each batch a worker runs."""
    seen: list[list[int]] = []
    real = jobs.run_batch

    def spy(store, claimed, *args, **kwargs):
        seen.append([job.entry_id for job in claimed])
        return real(store, claimed, *args, **kwargs)

    monkeypatch.setattr(jobs, "run_batch", spy)
    return seen


def indexed(store) -> set[int]:
    """The entries the search index holds postings of."""
    with store.sessions() as session:
        blobs = session.scalars(select(search_postings.c.entries)).all()
    return {int(e) for blob in blobs for e in search.unpack(blob)}


def test_small_jobs_run_as_one_batch_with_one_index_segment(store, monkeypatch):
    seen = batches_of(monkeypatch)
    numbers = [1, 4, 5, 6, 7, 8]
    jobs.enqueue(store, [format_id(n) for n in numbers], 600)
    with store.sessions() as session:
        segments = session.scalar(select(func.count()).select_from(search_segments))
    summary = jobs.work(store, max_idle=0)
    assert summary["done"] == len(numbers) and seen == [numbers]
    with store.sessions() as session:
        after = session.scalar(select(func.count()).select_from(search_segments))
        for number in numbers:  # invariants too, as one job at a time
            assert repo.read_invariants(session, number, 1) is not None
    assert after == segments + 1
    assert set(numbers) <= indexed(store)
    for number in numbers:
        wid = format_id(number)
        expected = p_positions(definition(store, wid), 600)
        assert np.array_equal(stored(store, number, 600), expected)
    assert service.verify(store, [format_id(n) for n in numbers])["ok"]


def test_a_failing_job_of_a_batch_leaves_nothing_of_its_own(store, monkeypatch):
    """Its fill, invariants and postings are rolled back to its savepoint;
    the others of the batch commit; it is retried as one job would be."""
    seen = batches_of(monkeypatch)
    real = jobs.entry_invariants

    def broken(inside, number, *args):
        if number == 5:  # after its fill was written in the batch
            raise ValueError("no invariants")
        return real(inside, number, *args)

    monkeypatch.setattr(jobs, "entry_invariants", broken)
    queued = jobs.enqueue(store, IDS, 700)["jobs"]
    summary = jobs.work(store, once=False, max_idle=0, backoff=3600)
    assert seen[0] == [1, 4, 5] and summary["retried"] == 1
    assert summary["done"] == 2
    assert stored(store, 5, 700).size == 0 and 5 not in indexed(store)
    assert {1, 4} <= indexed(store)
    job = jobs.job(store, queued[2]["id"])
    assert (job["state"], job["error"]) == ("queued", "ValueError: no invariants")


def test_a_large_job_met_while_gathering_runs_alone_after_the_batch(store, monkeypatch):
    seen = batches_of(monkeypatch)
    released = released_ids(monkeypatch)
    alone: list[int] = []
    real = jobs.run

    def single(store, claimed, *args, **kwargs):
        alone.append(claimed.entry_id)
        return real(store, claimed, *args, **kwargs)

    monkeypatch.setattr(jobs, "run", single)
    monkeypatch.setattr(
        jobs,
        "_seconds",
        lambda _store, claimed: [10.0 if j.entry_id == 5 else 0.01 for j in claimed],
    )
    queued = jobs.enqueue(store, ["W000001", "W000004", "W000005", "W000006"], 300)
    assert jobs.work(store, max_idle=0)["done"] == 4
    # 1 and 4 batched, 5 alone; 6, the last, is a batch of one: run alone.
    assert seen == [[1, 4]] and alone == [5, 6]
    assert released == [queued["jobs"][3]["id"]]  # 6, claimed with 4 and 5


@pytest.mark.parametrize(
    ("each", "most", "sizes"),
    [(0.25, 64, [8, 6]), (0.01, 4, [4, 4, 4, 2])],
    ids=["seconds", "jobs"],
)
def test_a_batch_stops_at_its_seconds_or_its_jobs(
    store, monkeypatch, each, most, sizes
):
    seen = batches_of(monkeypatch)
    released = released_ids(monkeypatch)
    monkeypatch.setattr(jobs, "_seconds", lambda _store, claimed: [each] * len(claimed))
    monkeypatch.setattr(jobs, "BATCH_JOBS", most)
    numbers = list(range(1, 15))
    jobs.enqueue(store, [format_id(n) for n in numbers], 200)
    assert jobs.work(store, max_idle=0)["done"] == len(numbers)
    assert [len(b) for b in seen] == sizes  # 8 × 0.25 s: BATCH_SECONDS
    assert [n for b in seen for n in b] == numbers
    # A batch that is full (exactly its seconds, or its jobs) claims no
    # more, so none is claimed only to be given back.
    assert released == []


def released_ids(monkeypatch) -> list[int]:
    """Record the jobs given back to the queue (queue.release)."""
    released: list[int] = []
    real = queue.release

    def spy(maker, job_id):
        released.append(job_id)
        real(maker, job_id)

    monkeypatch.setattr(queue, "release", spy)
    return released


@pytest.mark.parametrize("holder", ["a dead process here", "a stale heartbeat"])
def test_an_abandoned_request_claim_gives_its_entry_to_the_queued_job(store, holder):
    """A request's fill killed mid-way leaves a running claim on its entry:
    the worker that picks a queued job of that entry fails the claim first
    (the unique index allows one running job an entry); a live claim of
    another entry is left alone."""
    job = jobs.enqueue(store, ["W000004"], 1000)["jobs"][0]
    here = socket.gethostname()
    dead = holder == "a dead process here"
    claims = {
        4: (f"{here}:{_dead_pid()}", 0) if dead else ("elsewhere:1", 600),
        5: (f"{here}:{os.getppid()}", 0),  # live: its entry stays held
    }
    ids = {}
    with writing(store.sessions) as session:
        for entry, (claimed_by, age) in claims.items():
            at = utcnow() - timedelta(seconds=age)
            row = Job(
                entry_id=entry,
                kind="p-positions",
                target=500,
                state="running",
                claimed_by=claimed_by,
                claimed_at=at,
                heartbeat_at=at,
                created_at=at,
            )
            session.add(row)
            session.flush()
            ids[entry] = row.id
    taken = queue.claim_next(store.sessions, lease=60)
    assert taken is not None and taken.id == job["id"] and taken.entry_id == 4
    with store.sessions() as session:
        retired, live = session.get(Job, ids[4]), session.get(Job, ids[5])
        assert (retired.state, retired.error) == ("failed", "abandoned: no heartbeat")
        assert retired.finished_at is not None
        assert (live.state, live.error, live.finished_at) == ("running", None, None)


def test_claim_queued_takes_several_jobs_of_different_entries_at_once(store):
    """One transaction claims up to ``count`` queued jobs by priority and
    age, one a entry (the unique index allows one running job an entry),
    each attempt counted and its start recorded; a job out of attempts is
    failed instead; the rest stay queued for the next claim."""
    first = jobs.enqueue(store, ["W000001", "W000004", "W000005"], 300)["jobs"]
    second = jobs.enqueue(store, ["W000004"], 600)["jobs"]  # the same entry
    urgent = jobs.enqueue(store, ["W000006"], 300, priority=5)["jobs"]
    tired = jobs.enqueue(store, ["W000007"], 300)["jobs"][0]["id"]
    service.compute(store, "W000005", 100)  # stored below 100 already
    with writing(store.sessions) as session:
        session.get(Job, tired).attempts = queue.MAX_ATTEMPTS
    taken = queue.claim_queued(store.sessions, 4)
    ids = [job.id for job in taken]
    assert ids == [urgent[0]["id"]] + [job["id"] for job in first]
    assert [job.entry_id for job in taken] == [6, 1, 4, 5]
    assert [job.started_from for job in taken] == [0, 0, 0, 100]
    now = states(store)
    for job in taken:
        assert now[job.id] == ("running", 1, None)
        assert job.claimed_by == worker_name()
    assert now[second[0]["id"]] == ("queued", 0, None)
    assert now[tired][0] == "queued"  # not reached: past the first four
    again = queue.claim_queued(store.sessions, 4)
    assert again == []  # 4's other job waits for its entry; 7 gave up
    assert states(store)[tired][0] == "failed"
    assert "gave up after 3 attempts" in states(store)[tired][2]


def test_claims_past_a_batch_budget_go_back_to_the_queue(store, monkeypatch):
    """The jobs claimed together beyond the batch's seconds are released,
    their claim not counted, and run in the next batch."""
    seen = batches_of(monkeypatch)
    released = released_ids(monkeypatch)
    monkeypatch.setattr(jobs, "CLAIM_AT_LEAST", 6)
    monkeypatch.setattr(jobs, "BATCH_SECONDS", 0.8)
    # 0.2 s each: a batch holds four; the first claim of more takes six.
    monkeypatch.setattr(jobs, "_seconds", lambda _store, claimed: [0.2] * len(claimed))
    numbers = [1, 4, 5, 6, 7, 8, 9]
    queued = jobs.enqueue(store, [format_id(n) for n in numbers], 200)["jobs"]
    summary = jobs.work(store, max_idle=0)
    assert (summary["done"], summary["lost"]) == (len(numbers), 0)
    assert seen == [[1, 4, 5, 6], [7, 8, 9]]
    assert released == [q["id"] for q in queued[4:]]
    assert {state[1] for state in states(store).values()} == {1}  # attempts


def test_enqueue_answers_with_the_running_job_that_covers_the_bound(store):
    """A bound some job already covers gets that job back: the running one
    before a queued one, and of those the smallest target."""
    running = jobs.enqueue(store, ["W000004"], 1000)["jobs"][0]
    assert queue.claim_next(store.sessions).id == running["id"]
    larger = jobs.enqueue(store, ["W000004"], 3000)["jobs"][0]
    largest = jobs.enqueue(store, ["W000004"], 5000)["jobs"][0]
    assert len({running["id"], larger["id"], largest["id"]}) == 3
    assert jobs.enqueue(store, ["W000004"], 500)["jobs"][0]["id"] == running["id"]
    assert jobs.enqueue(store, ["W000004"], 2000)["jobs"][0]["id"] == larger["id"]


def test_enqueue_answers_with_the_running_job_before_a_smaller_queued_one(store):
    small = jobs.enqueue(store, ["W000005"], 1000)["jobs"][0]
    big = jobs.enqueue(store, ["W000005"], 3000, priority=5)["jobs"][0]
    assert queue.claim_next(store.sessions).id == big["id"]
    assert jobs.enqueue(store, ["W000005"], 500)["jobs"][0]["id"] == big["id"]
    assert states(store)[small["id"]][0] == "queued"


def _unique_violation() -> IntegrityError:
    return IntegrityError("UPDATE jobs", {}, Exception("one running job an entry"))


@pytest.mark.parametrize("claim", ["next", "queued"])
def test_a_claim_that_loses_the_race_for_its_entry_picks_again(
    store, monkeypatch, claim
):
    """A request's claim inserted between the pick and the update breaks
    the unique index: the claim's transaction is rolled back, and it picks
    again rather than failing."""
    queued = jobs.enqueue(store, ["W000004", "W000005"], 1000)["jobs"]
    real = queue._take
    raised: list[int] = []

    def racing(session, picked, me, lease):
        if not raised:
            raised.append(picked[0].id)
            raise _unique_violation()
        real(session, picked, me, lease)

    monkeypatch.setattr(queue, "_take", racing)
    if claim == "next":
        taken = [queue.claim_next(store.sessions)]
    else:
        taken = queue.claim_queued(store.sessions, 2)
    assert raised == [queued[0]["id"]]
    assert [job.id for job in taken] == [q["id"] for q in queued][: len(taken)]
    assert states(store)[queued[0]["id"]] == ("running", 1, None)


def test_claims_give_up_after_twenty_lost_races(store, monkeypatch):
    jobs.enqueue(store, ["W000004"], 1000)
    calls: list[int] = []

    def always(*_args):
        calls.append(1)
        raise _unique_violation()

    monkeypatch.setattr(queue, "_take", always)
    assert queue.claim_next(store.sessions) is None
    assert queue.claim_queued(store.sessions, 3) == []
    assert len(calls) == 40


def test_retiring_dead_claims_spares_a_live_one(store):
    """The claims retired on the entries are those of dead processes or with
    stale heartbeats; a live, fresh claim and the kept jobs stay running."""
    a, b, c, d = _add_jobs(store, [("queued", 0)] * 4)
    here = socket.gethostname()
    _claim(store, a, f"{here}:{os.getppid()}", age_seconds=5)  # alive, fresh
    _claim(store, b, f"{here}:{_dead_pid()}", age_seconds=5)  # dead
    _claim(store, c, "elsewhere:1", age_seconds=120)  # stale
    _claim(store, d, "elsewhere:2", age_seconds=120)  # stale, but kept
    with writing(store.sessions) as session:  # entries 1 to 4, one a job
        queue._retire_dead_claims(session, [1, 2, 3, 4], [d], lease=60)
    now = states(store)
    assert now[a] == ("running", 1, None) and now[d] == ("running", 1, None)
    for job_id in (b, c):
        assert now[job_id] == ("failed", 1, "abandoned: no heartbeat")


def test_a_release_gives_back_one_attempt(store):
    job = jobs.enqueue(store, ["W000004"], 1000)["jobs"][0]
    with writing(store.sessions) as session:
        session.get(Job, job["id"]).attempts = 1  # one claim failed before
    assert queue.claim_next(store.sessions).attempts == 2
    queue.release(store.sessions, job["id"])
    assert states(store)[job["id"]] == ("queued", 1, None)


@pytest.fixture
def pg_store(request, tmp_path):
    url = new_database_url("postgresql", request, tmp_path, seeded)
    store = service.Store(Settings.load(url))
    yield store
    store.dispose()


@pytest.mark.parametrize("held", ["queued", "abandoned"])
def test_a_claim_skips_the_rows_another_claim_has_locked(pg_store, held):
    """PostgreSQL: two workers picking at once never wait for each other's
    row locks (FOR UPDATE SKIP LOCKED): the locked job is passed over."""
    store = pg_store
    first, second = jobs.enqueue(store, ["W000004", "W000005"], 1000)["jobs"]
    if held == "abandoned":
        _claim(store, first["id"], "elsewhere:1", age_seconds=600)
    with store.engine.connect() as other:
        other.execute(
            select(Job.id).where(Job.id == first["id"]).with_for_update()
        ).all()
        result: list[object] = []
        picker = threading.Thread(
            target=lambda: result.append(queue.claim_next(store.sessions, lease=60))
        )
        picker.start()
        picker.join(timeout=20)
        waited = picker.is_alive()
        other.rollback()  # lets a waiting claim finish, whatever happened
        picker.join()
    assert not waited, "claim_next waited for a row lock"
    assert result[0] is not None and result[0].id == second["id"]


def test_queueing_again_after_an_edit_drops_the_queued_job_of_the_old_game(store):
    """A job still queued when the entry's definition changes holds the
    (entry, bound) place of the queued jobs' unique index: queueing the same
    bound again drops it (as a worker would) and queues the new game's job.
    (It raised RuntimeError after ten lost "races": a 500.)"""
    old = jobs.enqueue(store, ["W000004"], 2000)["jobs"][0]
    kept = jobs.enqueue(store, ["W000005"], 2000)["jobs"][0]
    other = canonicalize({"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[1, 3]]})
    with writing(store.sessions) as session:
        repo.update_entry(session, repo.get_entry(session, 4), other)
    fresh = jobs.enqueue(store, ["W000004"], 2000)["jobs"][0]
    assert fresh["id"] != old["id"]
    now = states(store)
    assert now[old["id"]] == ("failed", 0, "dropped: the entry's definition changed")
    assert now[fresh["id"]] == ("queued", 0, None)
    assert now[kept["id"]] == ("queued", 0, None)  # another entry's: untouched
    assert jobs.work(store, max_idle=0)["done"] == 2
    expected = p_positions(other.to_json(), 2000)
    assert np.array_equal(stored(store, 4, 2000), expected)


class FakeClock:
    """time.monotonic and time.sleep of the jobs module: sleeping moves it."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


class Unreachable:
    """A store whose engine is down ``times`` times, then answers."""

    def __init__(self, times: int) -> None:
        self.times = times

    @property
    def engine(self):
        if self.times:
            self.times -= 1
            raise DatabaseUnavailable("connection refused")
        return "engine"


def test_connect_retries_with_doubling_pauses_up_to_ten_seconds(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(jobs, "time", clock)
    jobs.connect(Unreachable(7), patience=60)
    assert clock.sleeps == [0.5, 1, 2, 4, 8, 10, 10]


def test_a_worker_waiting_for_its_database_says_so_each_time(monkeypatch, caplog):
    """What the operator reads on stderr while a starting worker waits: the
    pause and the database's error, one warning a try."""
    monkeypatch.setattr(jobs, "time", FakeClock())
    with caplog.at_level("WARNING", logger=jobs.log.name):
        jobs.connect(Unreachable(3), patience=60)
    assert [r.getMessage() for r in caplog.records] == [
        f"database not reachable, retrying in {pause} s: connection refused"
        for pause in ("0", "1", "2")  # 0.5 s, printed to the second
    ]


def test_connect_gives_up_before_a_pause_would_pass_its_patience(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(jobs, "time", clock)
    with pytest.raises(DatabaseUnavailable):
        jobs.connect(Unreachable(100), patience=25.5)
    # 0.5 + 1 + 2 + 4 + 8 = 15.5; ten more would end at 25.5, the deadline
    assert clock.sleeps == [0.5, 1, 2, 4, 8, 10]
    clock = FakeClock()
    monkeypatch.setattr(jobs, "time", clock)
    with pytest.raises(DatabaseUnavailable):
        jobs.connect(Unreachable(100), patience=25.4)
    assert clock.sleeps == [0.5, 1, 2, 4, 8]


@pytest.mark.parametrize(
    ("seconds", "retry_after"),
    [(0.0, 1), (0.01, 1), (1.0, 1), (1.2, 2), (42.5, 43), (600.0, 600), (5000.0, 600)],
)
def test_a_request_over_budget_is_queued_with_its_retry_after(
    store, seconds, retry_after
):
    """Retry-After is the estimate in whole seconds, within 1 s and 10 min;
    the job is queued at the request's priority."""
    over = OverBudget("too long", 4, 3000, seconds)
    doc, after = jobs.enqueue_over_budget(store, over)
    assert after == retry_after
    assert (doc["state"], doc["n"], doc["priority"]) == (
        "queued",
        3000,
        queue.REQUEST_PRIORITY,
    )
    assert doc["id"] == jobs.enqueue(store, ["W000004"], 3000)["jobs"][0]["id"]


def test_a_worker_waits_for_its_database_with_doubling_pauses(store, monkeypatch):
    """The queue unreachable: the worker pauses 0.5, 1, 2, 4, 8, 10, 10 s,
    then claims once it answers."""
    pauses: list[float] = []
    monkeypatch.setattr(
        jobs, "_sleep", lambda seconds, _stopping: pauses.append(seconds)
    )
    real = queue.claim_next
    failures = [DatabaseUnavailable("down")] * 7

    def flaky(*args, **kwargs):
        if failures:
            raise failures.pop()
        return real(*args, **kwargs)

    monkeypatch.setattr(queue, "claim_next", flaky)
    jobs.enqueue(store, ["W000001"], 100)
    assert jobs.work(store, once=True)["done"] == 1
    assert pauses == [0.5, 1, 2, 4, 8, 10, 10]


def test_a_pause_checks_for_a_stop_every_tenth_of_a_second(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(jobs, "time", clock)
    jobs._sleep(1.0, lambda: False)
    assert len(clock.sleeps) in (10, 11) and set(clock.sleeps) == {0.1}
    clock.sleeps.clear()
    jobs._sleep(0.05, lambda: False)  # a short pause in one step
    assert clock.sleeps == [0.05]
    clock.sleeps.clear()
    jobs._sleep(5.0, lambda: len(clock.sleeps) >= 3)
    assert clock.sleeps == [0.1, 0.1, 0.1]


def test_an_idle_worker_stops_after_max_idle(store, monkeypatch):
    """Idle (no job) for max_idle seconds, not a poll more: on a clock that
    moves only by the worker's pauses."""
    clock = FakeClock()
    monkeypatch.setattr(jobs, "time", clock)

    def pause(seconds, _stopping):
        clock.sleeps.append(seconds)
        clock.now += seconds

    monkeypatch.setattr(jobs, "_sleep", pause)
    summary = jobs.work(store, max_idle=3.0, poll=1.0)
    assert summary["done"] == 0
    assert clock.sleeps == [1.0, 1.0, 1.0]


@pytest.mark.parametrize(("every", "after"), [(2, [1, 2, 3]), (3, [2, 3])])
def test_workers_vacuum_the_index_every_so_many_jobs_done(
    store, monkeypatch, every, after
):
    """search.vacuum once VACUUM_ENTRIES jobs are done since the last one:
    batches of 2 (then 9 alone); every 2 jobs: after each batch, not after
    the last job (one since); every 3: after the second batch (4 done) and
    the last job (3 since)."""
    seen = batches_of(monkeypatch)
    vacuums: list[int] = []
    monkeypatch.setattr(search, "VACUUM_ENTRIES", every)
    monkeypatch.setattr(search, "vacuum", lambda _engine: vacuums.append(len(seen)))
    monkeypatch.setattr(jobs, "BATCH_JOBS", 2)
    monkeypatch.setattr(jobs, "_seconds", lambda _store, claimed: [0.01] * len(claimed))
    numbers = [1, 4, 5, 6, 7, 8, 9]
    jobs.enqueue(store, [format_id(n) for n in numbers], 200)
    assert jobs.work(store, max_idle=0)["done"] == 7
    assert [len(b) for b in seen] == [2, 2, 2]  # and 9 alone
    assert vacuums == after  # the batches run when each vacuum came


@pytest.mark.parametrize("alone", [True, False], ids=["alone", "in a batch"])
def test_a_job_failing_with_a_bug_is_logged_with_its_traceback(
    store, monkeypatch, caplog, alone
):
    """An unexpected exception is logged with its traceback; a CatalogError
    (bad input, a definition the engine refuses) only becomes the job's
    error: the user's mistake, not a bug."""
    monkeypatch.setattr(jobs, "_seconds", lambda _store, claimed: [0.01] * len(claimed))

    def failing(maker, job_id, entry_id, *args, **kwargs):
        if entry_id == 1:
            raise OSError("disk on fire")
        if entry_id == 4:
            raise BadInput("n: too large for this game")
        return None

    monkeypatch.setattr(jobs, "compute_claimed", failing)
    monkeypatch.setattr(jobs, "entry_invariants", lambda *args: None)
    queued = jobs.enqueue(store, ["W000001", "W000004", "W000005"], 100)["jobs"]
    with caplog.at_level("ERROR", logger=jobs.log.name):
        if alone:
            for _ in queued:
                jobs.work(store, once=True, backoff=3600)
        else:
            jobs.work(store, max_idle=0, backoff=3600)
    logged = [r for r in caplog.records if r.exc_info]
    assert [r.getMessage() for r in logged] == [f"job {queued[0]['id']} failed"]
    assert logged[0].exc_info[0] is OSError
    now = states(store)
    assert now[queued[0]["id"]] == ("queued", 1, "OSError: disk on fire")
    assert now[queued[1]["id"]] == ("queued", 1, "BadInput: n: too large for this game")


def test_a_batch_lost_with_its_database_is_resumed(store, monkeypatch):
    """The database lost during a batch: counted once as lost, the claims
    kept (no attempt more), and the same jobs done when it answers again."""
    pauses: list[float] = []
    monkeypatch.setattr(
        jobs, "_sleep", lambda seconds, _stopping: pauses.append(seconds)
    )
    monkeypatch.setattr(jobs, "_seconds", lambda _store, claimed: [0.01] * len(claimed))
    real = jobs.run_batch
    calls: list[list[int]] = []

    def lost_once(store, claimed, *args, **kwargs):
        calls.append([job.id for job in claimed])
        if len(calls) == 1:
            raise DatabaseUnavailable("server closed the connection")
        return real(store, claimed, *args, **kwargs)

    monkeypatch.setattr(jobs, "run_batch", lost_once)
    queued = [q["id"] for q in jobs.enqueue(store, IDS, 100)["jobs"]]
    summary = jobs.work(store, max_idle=0)
    assert (summary["lost"], summary["done"]) == (1, 3)
    assert pauses == [jobs.POLL_SECONDS]
    assert calls[0] == queued  # then each resumed alone, as claim_next's own
    assert {state for state, _, _ in states(store).values()} == {"done"}
    assert {attempts for _, attempts, _ in states(store).values()} == {1}


@pytest.mark.parametrize("claim", ["next", "queued"])
def test_a_claim_fails_the_jobs_out_of_attempts_and_takes_the_next(store, claim):
    """Jobs that have had their claims are failed on the way, and the same
    call goes on to the next ready job."""
    tired = [q["id"] for q in jobs.enqueue(store, ["W000001", "W000004"], 100)["jobs"]]
    ready = jobs.enqueue(store, ["W000005"], 100)["jobs"][0]["id"]
    with writing(store.sessions) as session:
        for job_id in tired:
            session.get(Job, job_id).attempts = queue.MAX_ATTEMPTS
    if claim == "next":
        taken = [queue.claim_next(store.sessions)]
    else:
        taken = queue.claim_queued(store.sessions, 2)
    assert [job.id for job in taken] == [ready]
    now = states(store)
    assert [now[job_id][0] for job_id in tired] == ["failed", "failed"]


def test_a_batch_claims_as_many_as_its_time_left_holds(store, monkeypatch):
    """Each claim of more jobs asks for the batch's seconds left over the
    mean estimate so far (four at least): 1/4 s, then jobs of 1/16 s."""
    seen = batches_of(monkeypatch)
    asked: list[int] = []
    real = queue.claim_queued

    def spy(maker, count, lease=queue.LEASE_SECONDS):
        asked.append(count)
        return real(maker, count, lease)

    monkeypatch.setattr(queue, "claim_queued", spy)
    monkeypatch.setattr(
        jobs,
        "_seconds",
        lambda _store, claimed: [0.25 if j.entry_id == 1 else 0.0625 for j in claimed],
    )
    numbers = list(range(1, 15))
    jobs.enqueue(store, [format_id(n) for n in numbers], 200)
    assert jobs.work(store, max_idle=0)["done"] == 14
    assert seen == [numbers]  # 1/4 + 13/16 s: one batch
    # 1.75 s left at 0.25 s a job: 7; then 1.3125 s at 0.6875 / 8: 16 (6
    # left); then 0.9375 s at 1.0625 / 14: 13, and the queue is empty.
    assert asked == [7, 16, 13]


def test_jobs_estimated_at_nothing_make_one_batch(store, monkeypatch):
    """Estimates of 0 s (a fill already stored) divide nothing by zero."""
    seen = batches_of(monkeypatch)
    monkeypatch.setattr(jobs, "_seconds", lambda _store, claimed: [0.0] * len(claimed))
    numbers = list(range(1, 8))
    jobs.enqueue(store, [format_id(n) for n in numbers], 200)
    assert jobs.work(store, max_idle=0)["done"] == 7
    assert seen == [numbers]


def test_a_job_whose_estimate_fails_is_run_alone(store, monkeypatch):
    """An estimate that raises a CatalogError (the entry gone, a definition
    the engine refuses) counts as infinite: the job runs alone and meets
    its error there."""
    queued = jobs.enqueue(store, ["W000001", "W000004"], 200)["jobs"]
    real = jobs.estimate

    def refusing(session, entry_id, target):
        if entry_id == 4:
            raise BadInput("no estimate for this game")
        return real(session, entry_id, target)

    monkeypatch.setattr(jobs, "estimate", refusing)
    claimed = queue.claim_queued(store.sessions, 2)
    assert [job.id for job in claimed] == [q["id"] for q in queued]
    first, second = jobs._seconds(store, claimed)
    assert 0 <= first < jobs.SMALL_SECONDS and second == float("inf")


def counted(summary) -> dict[str, int]:
    """A worker's summary without its name or the outcomes it never met."""
    return {k: v for k, v in summary.items() if k != "worker" and v}


def test_a_worker_stopped_mid_job_counts_it_released_and_queues_it_again(
    seeded_url,
):
    """``stopping`` turns true once the job is claimed: the fill stops after
    its first chunk, the job goes back to the queue unclaimed, and the
    summary counts it released, nothing else."""
    store = service.Store(Settings.load(seeded_url, chunk_columns=64))
    try:
        _stopped_mid_job(store)
    finally:
        store.dispose()


def _stopped_mid_job(store):
    job = jobs.enqueue(store, ["W000004"], 3000)["jobs"][0]
    asked = []

    def stopping():
        asked.append(1)
        return len(asked) > 1  # the loop's first look only

    summary = jobs.work(store, max_idle=0, stopping=stopping)
    assert counted(summary) == {"released": 1}
    assert states(store)[job["id"]] == ("queued", 0, None)


def test_a_job_taken_away_while_it_runs_alone_counts_as_lost(store, monkeypatch):
    """Cancelled while its fill runs: the fill's heartbeat finds the claim
    gone, and the summary counts the job lost (not released, not failed)."""
    (job,) = jobs.enqueue(store, ["W000004"], 3000)["jobs"]
    real = jobs.compute_claimed

    def cancelled_meanwhile(maker, job_id, *args, **kwargs):
        jobs.cancel(store, job_id)
        return real(maker, job_id, *args, **kwargs)

    monkeypatch.setattr(jobs, "compute_claimed", cancelled_meanwhile)
    summary = jobs.work(store, max_idle=0)
    assert counted(summary) == {"lost": 1}
    assert states(store)[job["id"]] == ("failed", 1, "cancelled")


def test_each_outcome_of_a_batch_is_counted_as_itself(store, monkeypatch):
    """One batch of four small jobs: one done, one of an edited entry
    (dropped), one whose claim is lost during its fill (lost), one that fails
    and is cancelled before its retry is written (lost too: not the worker's
    to retry). ``run_batch`` answers each outcome as what it was (the worker
    counts these answers)."""
    numbers = [1, 4, 5, 6]
    jobs.enqueue(store, [format_id(n) for n in numbers], 300)
    claimed = queue.claim_queued(store.sessions, len(numbers))
    assert [job.entry_id for job in claimed] == numbers
    other = canonicalize({"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[1, 3]]})
    with writing(store.sessions) as session:
        repo.update_entry(session, repo.get_entry(session, 4), other)
    real = jobs.compute_claimed

    def compute(maker, job_id, entry_id, *args, **kwargs):
        if entry_id == 5:  # its heartbeat found another worker's claim
            raise ClaimLost(f"job {job_id} was taken over or cancelled")
        if entry_id == 6:
            raise RuntimeError("the kernel broke")
        return real(maker, job_id, entry_id, *args, **kwargs)

    real_retry = queue.retry_later

    def cancelled_first(maker, job_id, *args, **kwargs):
        jobs.cancel(store, job_id)
        return real_retry(maker, job_id, *args, **kwargs)

    monkeypatch.setattr(jobs, "compute_claimed", compute)
    monkeypatch.setattr(queue, "retry_later", cancelled_first)
    outcomes = jobs.run_batch(store, claimed, backoff=0)
    assert outcomes == ["done", "dropped", "lost", "lost"]
    found = states(store)
    ids = [job.id for job in claimed]
    assert found[ids[0]][0] == "done"
    assert found[ids[1]] == ("failed", 1, "dropped: the entry's definition changed")
    assert found[ids[3]] == ("failed", 1, "cancelled")


def test_a_failing_job_of_a_batch_counts_as_retried_then_failed(store, monkeypatch):
    """A job of a batch that raises is counted retried while it has attempts
    left, then failed; the others of its batches done."""
    real = jobs.compute_claimed

    def flaky(maker, job_id, entry_id, *args, **kwargs):
        if entry_id == 4:
            raise RuntimeError("the kernel broke")
        return real(maker, job_id, entry_id, *args, **kwargs)

    seen = batches_of(monkeypatch)
    monkeypatch.setattr(jobs, "compute_claimed", flaky)
    jobs.enqueue(store, IDS, 300)
    summary = jobs.work(store, max_idle=0, backoff=0)
    assert seen[0] == [1, 4, 5]
    retries = queue.MAX_ATTEMPTS - 1
    assert counted(summary) == {"done": 2, "retried": retries, "failed": 1}


@pytest.mark.parametrize("numbers", [[4], [1, 4, 5]], ids=["alone", "in-a-batch"])
def test_an_error_without_a_message_is_recorded_by_its_name(
    store, monkeypatch, numbers
):
    """A computation raising an exception with no text leaves its type's
    name as the job's error, nothing after it, alone and in a batch."""
    real = jobs.compute_claimed

    def broken(maker, job_id, entry_id, *args, **kwargs):
        if entry_id == 4:
            raise RuntimeError
        return real(maker, job_id, entry_id, *args, **kwargs)

    seen = batches_of(monkeypatch)
    monkeypatch.setattr(jobs, "compute_claimed", broken)
    queued = jobs.enqueue(store, [format_id(n) for n in numbers], 300)["jobs"]
    summary = jobs.work(store, max_idle=0, backoff=3600)
    assert seen == ([numbers] if len(numbers) > 1 else [])
    assert counted(summary) == counted({"retried": 1, "done": len(numbers) - 1})
    (job,) = [j for j in queued if j["entry"] == "W000004"]
    assert jobs.job(store, job["id"])["error"] == "RuntimeError"


def test_a_batch_job_failing_on_its_last_attempt_counts_as_failed(store, monkeypatch):
    """In a batch, a job out of attempts that raises is failed for good, and
    ``run_batch`` answers it failed (the others done)."""
    jobs.enqueue(store, IDS, 300)
    claimed = queue.claim_queued(store.sessions, len(IDS))
    assert [job.entry_id for job in claimed] == [1, 4, 5]
    with writing(store.sessions) as session:
        session.get_one(Job, claimed[1].id).attempts = queue.MAX_ATTEMPTS
    real = jobs.compute_claimed

    def broken(maker, job_id, entry_id, *args, **kwargs):
        if entry_id == 4:
            raise RuntimeError("the kernel broke")
        return real(maker, job_id, entry_id, *args, **kwargs)

    monkeypatch.setattr(jobs, "compute_claimed", broken)
    assert jobs.run_batch(store, claimed, backoff=0) == ["done", "failed", "done"]
    assert states(store)[claimed[1].id][0] == "failed"


def test_a_job_whose_database_is_lost_during_its_fill_counts_lost_then_resumes(
    store, monkeypatch, caplog
):
    """The database goes away while a job's fill runs (alone): the worker
    says so, counts the job lost (not retried, not released), keeps its
    claim, and resumes it once the database answers: done."""
    (job,) = jobs.enqueue(store, ["W000004"], 3000)["jobs"]
    real = jobs.compute_claimed
    calls = []

    def lost_once(maker, job_id, *args, **kwargs):
        calls.append(job_id)
        if len(calls) == 1:
            raise DatabaseUnavailable("connection reset")
        return real(maker, job_id, *args, **kwargs)

    monkeypatch.setattr(jobs, "compute_claimed", lost_once)
    with caplog.at_level("WARNING", logger=jobs.log.name):
        summary = jobs.work(store, max_idle=0, poll=0.01)
    assert counted(summary) == {"lost": 1, "done": 1}
    assert calls == [job["id"], job["id"]]
    assert states(store)[job["id"]][0] == "done"
    assert [r.getMessage() for r in caplog.records] == [
        f"job {job['id']}: database lost (connection reset); resuming"
    ]


def test_a_job_whose_database_is_lost_while_its_failure_is_recorded_resumes(
    store, monkeypatch, caplog
):
    """The fill fails, and the database goes away while the retry is being
    written: the worker loop says so naming the job, counts it lost, and the
    claim, still its own, is run again: done."""
    (job,) = jobs.enqueue(store, ["W000004"], 3000)["jobs"]
    real_compute, real_retry = jobs.compute_claimed, queue.retry_later
    tries = []

    def fails_once(maker, job_id, *args, **kwargs):
        tries.append(job_id)
        if len(tries) == 1:
            raise RuntimeError("the fill broke")
        return real_compute(maker, job_id, *args, **kwargs)

    def retry_unreachable(*args, **kwargs):
        monkeypatch.setattr(queue, "retry_later", real_retry)
        raise DatabaseUnavailable("connection reset")

    monkeypatch.setattr(jobs, "compute_claimed", fails_once)
    monkeypatch.setattr(queue, "retry_later", retry_unreachable)
    with caplog.at_level("WARNING", logger=jobs.log.name):
        summary = jobs.work(store, max_idle=0, poll=0.01)
    assert counted(summary) == {"lost": 1, "done": 1}
    assert states(store)[job["id"]][0] == "done"
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert warnings == [f"job {job['id']}: database lost (connection reset); resuming"]


def test_a_worker_that_cannot_reach_the_queue_says_so_and_goes_on(
    store, monkeypatch, caplog
):
    """The queue's database does not answer twice when the worker asks for
    a job: a warning each time with the pause (doubling) and the error, then
    the job is claimed and done."""
    (job,) = jobs.enqueue(store, ["W000004"], 300)["jobs"]
    real = queue.claim_next
    asked = []

    def unreachable_twice(*args, **kwargs):
        asked.append(1)
        if len(asked) <= 2:
            raise DatabaseUnavailable("connection refused")
        return real(*args, **kwargs)

    monkeypatch.setattr(queue, "claim_next", unreachable_twice)
    with caplog.at_level("WARNING", logger=jobs.log.name):
        summary = jobs.work(store, max_idle=0, poll=1.0)
    assert counted(summary) == {"done": 1}
    assert states(store)[job["id"]][0] == "done"
    assert [r.getMessage() for r in caplog.records] == [
        "queue not reachable, retrying in 1 s: connection refused",
        "queue not reachable, retrying in 2 s: connection refused",
    ]
