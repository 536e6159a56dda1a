"""The queue of fills: job rows of kind ``fill`` in the ``jobs`` table.

The table that holds each fill's claim (:mod:`catalog.store.fill`) is also
the queue, so one row says everything about a fill: queued, running (the
claim, with its heartbeat), done or failed. At most one job per entry is
queued for each bound and at most one is running (partial unique indexes),
so duplicate requests collapse into one job and no two processes compute an
entry at once, whether a worker or a request computes it.

A worker takes the next job with ``SELECT … FOR UPDATE SKIP LOCKED`` (on
PostgreSQL: many workers never wait for each other's row locks; on SQLite
the write transaction itself serialises them), highest priority first. It
takes over a running job whose heartbeat is older than the lease, or whose
process on this host has died. A failure puts the job back in the queue
after a backoff, up to :data:`MAX_ATTEMPTS` claims; then it is failed with
its error. See ``docs/deploy.md`` for the comparison with procrastinate.
"""

from __future__ import annotations

import math
import socket
from collections.abc import Collection
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import exists, false, func, or_, select, text, true, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, aliased, sessionmaker

from catalog.errors import BadInput, NotFound
from catalog.store import repository as repo
from catalog.store.db import dialect_insert, writing
from catalog.store.fill import (
    LEASE_SECONDS,
    _alive,
    worker_name,
)
from catalog.store.ids import format_id
from catalog.store.job_model import Job
from catalog.store.models import Entry, Extent, utcnow

KIND = "fill"
STATES = ("queued", "running", "done", "failed")
#: Claims a job gets (the first run and its retries, takeovers included).
MAX_ATTEMPTS = 3
#: Seconds before the first retry of a failed job; doubled for each further one.
BACKOFF_SECONDS = 10.0
#: Priority of a fill queued by an API request: someone is waiting for it.
REQUEST_PRIORITY = 10
#: Why a job whose entry's definition changed before it ran is dropped.
STALE_REASON = "the entry's definition changed"


def _aware(moment: datetime | None) -> datetime | None:
    if moment is not None and moment.tzinfo is None:  # SQLite: naive UTC
        return moment.replace(tzinfo=UTC)
    return moment


def enqueue(session: Session, entry_id: int, n: int, priority: int = 0) -> Job:
    """The job that fills the entry up to ``n``: a running or queued one that
    covers ``n`` already, else a new queued one.

    Safe under concurrency: the insert is ``ON CONFLICT DO NOTHING`` on the
    one-queued-job-per-entry-and-bound index, and a lost race looks again.
    Queued jobs of an earlier definition of the entry are dropped first (a
    worker would drop them): one of them would hold that index's place.
    """
    key = repo.get_entry(session, entry_id).key
    session.execute(
        update(Job)
        .where(
            Job.entry_id == entry_id,
            Job.kind == KIND,
            Job.state == "queued",
            or_(Job.entry_key.is_(None), Job.entry_key != key),
        )
        .values(state="failed", error=f"dropped: {STALE_REASON}", finished_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    for _attempt in range(10):
        covering = session.scalar(
            select(Job)
            .where(
                Job.entry_id == entry_id,
                Job.kind == KIND,
                Job.state.in_(("queued", "running")),
                Job.target >= n,
                Job.entry_key == key,
            )
            .order_by((Job.state == "running").desc(), Job.target)
            .limit(1)
        )
        if covering is not None:
            if covering.priority < priority:
                covering.priority = priority
                session.flush()
            return covering
        insert = dialect_insert(session)
        job_id = session.scalar(
            insert(Job)
            .values(
                entry_id=entry_id,
                kind=KIND,
                target=n,
                state="queued",
                priority=priority,
                attempts=0,
                entry_key=key,
                created_at=utcnow(),
            )
            .on_conflict_do_nothing(
                index_elements=[Job.entry_id, Job.target],
                index_where=text("state = 'queued'"),
            )
            .returning(Job.id)
        )
        if job_id is not None:
            return session.get_one(Job, job_id)
    raise RuntimeError(f"could not queue {format_id(entry_id)} after 10 attempts")


def get_job(session: Session, job_id: int) -> Job:
    job = session.get(Job, job_id)
    if job is None or job.kind != KIND:
        raise NotFound(f"no job {job_id}")
    return job


def list_jobs(session: Session, state: str | None, limit: int = 1000) -> list[Job]:
    """Jobs of the queue, running ones first, then queued in the order a
    worker takes them, then the most recently finished."""
    if state is not None and state not in STATES:
        raise BadInput(f"state: must be one of {', '.join(STATES)}")
    query = select(Job).where(Job.kind == KIND)
    if state is not None:
        query = query.where(Job.state == state)
    order = {"running": 0, "queued": 1}
    rows = session.scalars(query.order_by(Job.id.desc()).limit(limit)).all()
    return sorted(
        rows,
        key=lambda j: (
            order.get(j.state, 2),
            -j.priority if j.state == "queued" else 0,
            j.id if j.state != "done" and j.state != "failed" else -j.id,
        ),
    )


def count_jobs(session: Session) -> dict[str, int]:
    """The number of jobs in each state, every state named."""
    rows = session.execute(
        select(Job.state, func.count()).where(Job.kind == KIND).group_by(Job.state)
    )
    found = {state: count for state, count in rows}
    return {state: found.get(state, 0) for state in STATES}


def document(session: Session, job: Job) -> dict[str, Any]:
    """The contract's job object, with progress, rate and ETA."""
    extent = session.get(Extent, job.entry_id)
    stored = extent.x_bound if extent is not None else 0
    done = job.target if job.state == "done" else min(stored, job.target)
    rate = eta = None
    claimed, beat = _aware(job.claimed_at), _aware(job.heartbeat_at)
    if job.state == "running" and claimed and beat and job.started_from is not None:
        seconds = (beat - claimed).total_seconds()
        if seconds > 0 and done > job.started_from:
            rate = (done - job.started_from) / seconds
            eta = math.ceil((job.target - done) / rate)
    return {
        "id": job.id,
        "entry": format_id(job.entry_id),
        "n": job.target,
        "state": job.state,
        "done": done,
        "attempts": job.attempts,
        "worker": job.claimed_by,
        "error": job.error,
        "priority": job.priority,
        "rate": round(rate, 1) if rate is not None else None,
        "eta": eta,
        "created": _iso(job.created_at),
        "finished": _iso(job.finished_at),
    }


def _iso(moment: datetime | None) -> str | None:
    aware = _aware(moment)
    return aware.isoformat() if aware is not None else None


def _dead_here(session: Session, stale: datetime) -> list[str]:
    """Claimed-by names of running jobs of this host whose process has died."""
    host = socket.gethostname()
    names = session.scalars(
        select(Job.claimed_by).where(
            Job.state == "running",
            Job.heartbeat_at >= stale,
            Job.claimed_by.like(f"{host}:%"),
        )
    ).all()
    return [name for name in set(names) if name and not _alive(name)]


def claim_next(
    maker: sessionmaker[Session], lease: float = LEASE_SECONDS
) -> Job | None:
    """Take the next job for this process, or None when none is ready (a
    batch's further jobs: :func:`claim_queued`).

    In order: a running job already claimed by this process (its connection
    was lost under it), one whose claim is abandoned (heartbeat older than
    ``lease``, or its process on this host died), then queued jobs by
    priority and age whose backoff is over and whose entry no live claim
    holds. A job that has had :data:`MAX_ATTEMPTS` claims is failed instead.
    """
    me = worker_name()
    for _attempt in range(20):
        try:
            with writing(maker) as session:
                job = _pick(session, me, lease)
                if job is None:
                    return None
                if job.attempts >= MAX_ATTEMPTS and job.claimed_by != me:
                    _give_up(job)
                    continue
                _take(session, [job], me, lease)
                return job
        except IntegrityError:
            # A request claimed the same entry between the pick and the
            # update (its insert wins the unique index): pick again.
            continue
    return None


def claim_queued(
    maker: sessionmaker[Session], count: int, lease: float = LEASE_SECONDS
) -> list[Job]:
    """Take up to ``count`` queued jobs, of different entries, in one
    transaction (a worker's batch: :func:`claim_next` for each costs a
    transaction a job). In the order and on the
    terms of :func:`claim_next`'s queued jobs (abandoned claims are
    :func:`claim_next`'s alone); a job that has had :data:`MAX_ATTEMPTS`
    claims is failed instead. An empty list when none is ready."""
    me = worker_name()
    for _attempt in range(20):
        try:
            with writing(maker) as session:
                stale = utcnow() - timedelta(seconds=lease)
                dead = _dead_here(session, stale)
                picked = _queued(session, stale, dead, count)
                jobs: list[Job] = []
                for job in picked:
                    if job.attempts >= MAX_ATTEMPTS:
                        _give_up(job)
                    elif all(job.entry_id != other.entry_id for other in jobs):
                        jobs.append(job)
                if picked and not jobs:
                    continue  # each was failed for its attempts: pick again
                _take(session, jobs, me, lease)
                return jobs
        except IntegrityError:
            continue  # as in claim_next
    return []


def _give_up(job: Job) -> None:
    reason = job.error or "its worker stopped answering"
    job.state, job.finished_at = "failed", utcnow()
    job.error = f"gave up after {job.attempts} attempts: {reason}"


def _take(session: Session, jobs: list[Job], me: str, lease: float) -> None:
    """Claim the picked ``jobs`` for ``me``: each entry's abandoned claims
    retired, a new claim counted as an attempt, where each fill starts
    recorded; the rows detached for the caller."""
    if not jobs:
        return
    entries = [job.entry_id for job in jobs]
    _retire_dead_claims(session, entries, [job.id for job in jobs], lease)
    bounds = dict(
        session.execute(
            select(Extent.entry_id, Extent.x_bound).where(Extent.entry_id.in_(entries))
        ).all()
    )
    now = utcnow()
    for job in jobs:
        if job.claimed_by != me:
            job.attempts += 1
        job.state, job.claimed_by = "running", me
        job.claimed_at = job.heartbeat_at = now
        job.started_from = bounds.get(job.entry_id, 0)
    session.flush()
    for job in jobs:
        session.expunge(job)


def _pick(session: Session, me: str, lease: float) -> Job | None:
    now = utcnow()
    stale = now - timedelta(seconds=lease)
    dead = _dead_here(session, stale)
    gone = or_(
        Job.claimed_by == me,
        Job.heartbeat_at < stale,
        Job.claimed_by.in_(dead) if dead else false(),
    )
    mine = session.scalar(
        select(Job)
        .where(Job.kind == KIND, Job.state == "running", gone)
        .order_by(Job.id)
        .limit(1)
        .with_for_update(skip_locked=True)
    )
    if mine is not None:
        return mine
    queued = _queued(session, stale, dead, 1)
    return queued[0] if queued else None


def _queued(
    session: Session, stale: datetime, dead: list[str], count: int
) -> list[Job]:
    """Up to ``count`` queued jobs, by priority and age, whose backoff is
    over and whose entry no live claim holds (locked, skipping those that
    another transaction holds)."""
    other = aliased(Job)
    held = exists().where(
        other.entry_id == Job.entry_id,
        other.state == "running",
        other.heartbeat_at >= stale,
        ~other.claimed_by.in_(dead) if dead else true(),
    )
    now = utcnow()
    return list(
        session.scalars(
            select(Job)
            .where(
                Job.kind == KIND,
                Job.state == "queued",
                or_(Job.run_after.is_(None), Job.run_after <= now),
                ~held,
            )
            .order_by(Job.priority.desc(), Job.id)
            .limit(count)
            .with_for_update(skip_locked=True)
        )
    )


def _retire_dead_claims(
    session: Session, entries: Collection[int], keep: Collection[int], lease: float
) -> None:
    """Fail the abandoned claims on the entries (a request's fill killed
    mid-way), so that the unique index lets the jobs ``keep`` run."""
    stale = utcnow() - timedelta(seconds=lease)
    for other in session.scalars(
        select(Job).where(
            Job.entry_id.in_(sorted(entries)),
            Job.state == "running",
            Job.id.not_in(sorted(keep)),
        )
    ):
        if _aware(other.heartbeat_at) < stale or not _alive(other.claimed_by):  # type: ignore[operator]
            other.state, other.finished_at = "failed", utcnow()
            other.error = "abandoned: no heartbeat"
    session.flush()


def _mine(job_id: int) -> Any:
    return (
        (Job.id == job_id)
        & (Job.state == "running")
        & (Job.claimed_by == worker_name())
    )


def finish(maker: sessionmaker[Session], job_id: int, error: str | None) -> None:
    """Done (``error`` None) or failed for good, if the job is still ours."""
    with writing(maker) as session:
        session.execute(
            update(Job)
            .where(_mine(job_id))
            .values(
                state="done" if error is None else "failed",
                error=error,
                finished_at=utcnow(),
            )
        )


def retry_later(
    maker: sessionmaker[Session],
    job_id: int,
    error: str,
    backoff: float = BACKOFF_SECONDS,
) -> str:
    """Back to the queue after ``backoff`` × 2^(attempts − 1) seconds, or
    failed once it has had :data:`MAX_ATTEMPTS` claims: the new state."""
    with writing(maker) as session:
        job = session.scalar(select(Job).where(_mine(job_id)))
        if job is None:
            return "lost"
        now = utcnow()
        if job.attempts >= MAX_ATTEMPTS:
            job.state, job.finished_at = "failed", now
            job.error = f"failed {job.attempts} times, last: {error}"
        else:
            delay = backoff * 2 ** (job.attempts - 1)
            job.state, job.error = "queued", error
            job.run_after = now + timedelta(seconds=delay)
            _unclaim(session, job)
        return job.state


def release(maker: sessionmaker[Session], job_id: int) -> None:
    """Back to the queue at once, the claim not counted (the worker stops)."""
    with writing(maker) as session:
        job = session.scalar(select(Job).where(_mine(job_id)))
        if job is not None:
            job.state, job.run_after = "queued", None
            job.attempts = max(0, job.attempts - 1)
            _unclaim(session, job)


def _unclaim(session: Session, job: Job) -> None:
    """The job queued again, without its claim. Another queued job with the
    same bound (queued while this one ran, for an edited definition) takes
    its place: this one is failed, naming it."""
    # Not flushed first: this job queued beside its twin would break the
    # one-queued-job-per-entry-and-bound index before the check could look.
    with session.no_autoflush:
        twin = session.scalar(
            select(Job.id).where(
                Job.entry_id == job.entry_id,
                Job.target == job.target,
                Job.state == "queued",
                Job.id != job.id,
            )
        )
    if twin is not None:
        job.state, job.finished_at = "failed", utcnow()
        job.error = f"superseded by job {twin}"
        return
    job.claimed_by = job.claimed_at = job.heartbeat_at = None


def drop(maker: sessionmaker[Session], job_id: int, reason: str) -> None:
    finish(maker, job_id, f"dropped: {reason}")


def cancel(session: Session, job_id: int) -> Job:
    """A queued or running job failed as cancelled; a running one's worker
    notices at its next heartbeat and writes nothing more."""
    job = get_job(session, job_id)
    if job.state in ("queued", "running"):
        session.execute(
            update(Job)
            .where(Job.id == job_id, Job.state.in_(("queued", "running")))
            .values(state="failed", error="cancelled", finished_at=utcnow())
            .execution_options(synchronize_session=False)
        )
        session.expire(job)
    return job


def entry_key(session: Session, entry_id: int) -> str | None:
    return session.scalar(select(Entry.key).where(Entry.id == entry_id))
