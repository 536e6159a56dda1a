"""The queue of fills as the command line and the API use it: enqueue, look,
cancel, and the worker loop (:mod:`catalog.store.jobs` holds the rows)."""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Iterable
from typing import Any

from catalog.errors import CatalogError, DatabaseUnavailable
from catalog.games.definition import check_n
from catalog.service.entries import entry_invariants
from catalog.service.store import Store, compute_limit, entry_game
from catalog.store import jobs as queue
from catalog.store import search
from catalog.store.db import writing
from catalog.store.fill import (
    LEASE_SECONDS,
    ClaimLost,
    OverBudget,
    Stopped,
    compute_claimed,
    estimate,
    worker_name,
)
from catalog.store.job_model import Job

log = logging.getLogger(__name__)

#: Seconds an idle worker waits before it looks at the queue again.
POLL_SECONDS = 0.5
#: How long a starting worker waits for its database before giving up.
CONNECT_SECONDS = 60.0
#: A job whose fill is estimated at most SMALL_SECONDS is run in a batch of
#: up to BATCH_JOBS such jobs, about BATCH_SECONDS of estimated filling
#: (one transaction and one index segment for all: :func:`run_batch`).
SMALL_SECONDS = 0.25
BATCH_JOBS = 64
BATCH_SECONDS = 2.0
#: Jobs claimed at a time for a batch, at least (see :func:`_gather`).
CLAIM_AT_LEAST = 4


def enqueue(
    store: Store, wids: Iterable[str], n: int, priority: int = 0
) -> dict[str, Any]:
    """Queue fills of the entries up to ``n``: ``{"jobs": [job, …]}``, an
    existing job where one already covers the entry and bound."""
    numbers = []
    for wid in wids:
        number, game = entry_game(store, wid)
        check_n(n, maximum=compute_limit(game, store.settings))
        numbers.append(number)
    found = []
    with writing(store.sessions) as session:
        for number in numbers:
            job = queue.enqueue(session, number, n, priority)
            found.append(queue.document(session, job))
    return {"jobs": found}


def enqueue_over_budget(store: Store, exc: OverBudget) -> tuple[dict[str, Any], int]:
    """The job for a request that was over its budget, and the seconds after
    which to ask again (``Retry-After``: the estimate, within 1 s to 10 min)."""
    with writing(store.sessions) as session:
        job = queue.enqueue(session, exc.entry_id, exc.n, queue.REQUEST_PRIORITY)
        doc = queue.document(session, job)
    return doc, max(1, min(600, math.ceil(exc.seconds)))


def job(store: Store, job_id: int) -> dict[str, Any]:
    with store.sessions() as session:
        return queue.document(session, queue.get_job(session, job_id))


def jobs(store: Store, state: str | None = None, limit: int = 1000) -> dict[str, Any]:
    with store.sessions() as session:
        rows = queue.list_jobs(session, state, limit)
        return {"jobs": [queue.document(session, row) for row in rows]}


def summary(store: Store, shown: int = 10) -> dict[str, Any]:
    """The queue at a glance, for a person at a terminal: the jobs in each
    state (``counts``), the running ones with their rate and ETA and the
    latest failures, at most ``shown`` of each (``running``, ``failed``)."""
    with store.sessions() as session:
        counts = queue.count_jobs(session)
        return {
            "counts": counts,
            **{
                state: [
                    queue.document(session, row)
                    for row in queue.list_jobs(session, state, shown)
                ]
                for state in ("running", "failed")
            },
        }


def cancel(store: Store, job_id: int) -> dict[str, Any]:
    with writing(store.sessions) as session:
        found = queue.cancel(session, job_id)
        return queue.document(session, found)


def connect(store: Store, patience: float = CONNECT_SECONDS) -> None:
    """Open (and migrate) the store, retrying for up to ``patience`` seconds
    while the database is down or drops the connection (a worker starting
    beside a restarting database); then the error is the user's."""
    pause = POLL_SECONDS
    deadline = time.monotonic() + patience
    while True:
        try:
            store.engine  # noqa: B018  (migrates once, before any job)
            return
        except DatabaseUnavailable as exc:
            if time.monotonic() + pause > deadline:
                raise
            log.warning("database not reachable, retrying in %.0f s: %s", pause, exc)
            time.sleep(pause)
            pause = min(10.0, pause * 2)


def work(
    store: Store,
    *,
    once: bool = False,
    max_idle: float | None = None,
    stopping: Callable[[], bool] = lambda: False,
    poll: float = POLL_SECONDS,
    lease: float = LEASE_SECONDS,
    backoff: float = queue.BACKOFF_SECONDS,
) -> dict[str, Any]:
    """Drain the queue in this process until ``stopping()`` (checked between
    chunks and batches), ``max_idle`` seconds without a job, or, with
    ``once``, after one job. Small jobs are run in batches (:func:`_gather`,
    :func:`run_batch`), the others one at a time (:func:`run`). Returns what
    it did, by outcome."""
    outcomes = ("done", "failed", "retried", "dropped", "released", "lost")
    counts = dict.fromkeys(outcomes, 0)
    vacuumed = 0  # jobs done when the index was last vacuumed (PostgreSQL)
    idle_since = time.monotonic()
    pause = poll
    while not stopping():
        try:
            claimed = queue.claim_next(store.sessions, lease)
        except DatabaseUnavailable as exc:
            log.warning("queue not reachable, retrying in %.0f s: %s", pause, exc)
            _sleep(pause, stopping)
            pause = min(10.0, pause * 2)
            continue
        pause = poll
        if claimed is None:
            if once or (
                max_idle is not None and time.monotonic() - idle_since >= max_idle
            ):
                break
            _sleep(poll, stopping)
            continue
        group: list[Job]
        last: Job | None
        try:
            if once:
                group, last = [], claimed
            else:
                group, last = _gather(store, claimed, lease, stopping)
            if len(group) > 1:
                for outcome in run_batch(store, group, lease, backoff):
                    counts[outcome] += 1
            elif group:
                counts[run(store, group[0], stopping, lease, backoff)] += 1
            if last is not None:
                counts[run(store, last, stopping, lease, backoff)] += 1
            if counts["done"] - vacuumed >= search.VACUUM_ENTRIES:
                search.vacuum(store.engine)
                vacuumed = counts["done"]
        except DatabaseUnavailable as exc:
            # Lost while recording how the job ended (release, retry), or
            # during a batch: the claims stay ours and are resumed, or taken
            # over after the lease.
            log.warning("job %d: database lost (%s); resuming", claimed.id, exc)
            counts["lost"] += 1
            _sleep(pause, stopping)
        idle_since = time.monotonic()
        if once:
            break
    return {"worker": worker_name(), **counts}


def _gather(
    store: Store, claimed: Job, lease: float, stopping: Callable[[], bool]
) -> tuple[list[Job], Job | None]:
    """The claimed job and, if it is small, more small jobs claimed after it
    (a batch: up to :data:`BATCH_JOBS`, about :data:`BATCH_SECONDS` of
    estimated work), and the large job met on the way, if any, to run alone
    after them."""
    (seconds,) = _seconds(store, [claimed])
    if seconds > SMALL_SECONDS:
        return [], claimed
    group = [claimed]
    while len(group) < BATCH_JOBS and seconds < BATCH_SECONDS and not stopping():
        # As many as the time left holds at the jobs' mean so far, a few
        # at least (claimed in one transaction; the ones past the batch's
        # budget are released).
        mean = max(seconds / len(group), 1e-3)
        fits = math.ceil((BATCH_SECONDS - seconds) / mean)
        count = min(BATCH_JOBS - len(group), max(CLAIM_AT_LEAST, fits))
        more = queue.claim_queued(store.sessions, count, lease)
        if not more:
            break
        for k, (job, job_seconds) in enumerate(
            zip(more, _seconds(store, more), strict=True)
        ):
            full = len(group) >= BATCH_JOBS or seconds >= BATCH_SECONDS
            if full or job_seconds > SMALL_SECONDS:
                for extra in more[k + 1 :] if not full else more[k:]:
                    queue.release(store.sessions, extra.id)
                return group, None if full else job
            group.append(job)
            seconds += job_seconds
    return group, None


def _seconds(store: Store, jobs: list[Job]) -> list[float]:
    """Each job's estimated seconds of filling (its entry may be gone)."""
    found = []
    with store.sessions() as session:
        for job in jobs:
            try:
                found.append(estimate(session, job.entry_id, job.target))
            except CatalogError:
                found.append(math.inf)  # run alone: it meets its error there
    return found


def run_batch(
    store: Store,
    claimed: list[Job],
    lease: float = LEASE_SECONDS,
    backoff: float = queue.BACKOFF_SECONDS,
) -> list[str]:
    """Compute small claimed jobs in one transaction, as seeding does
    (:func:`catalog.service.store.batch`: one commit, one index segment):
    each job's fill, invariants and ``done`` are committed together with
    the others', or not at all. A job that fails is rolled back to its
    savepoint alone and retried or failed after the batch commits, as
    :func:`run` would. Returns each job's outcome (see :func:`run`)."""
    from catalog.service.store import batch

    outcomes: dict[int, str] = {}
    errors: dict[int, str] = {}
    with batch(store) as inside:
        for job in claimed:
            savepoint = inside.connection.begin_nested()
            try:
                with inside.sessions() as session:
                    key = queue.entry_key(session, job.entry_id)
                if key != job.entry_key:
                    queue.drop(inside.sessions, job.id, queue.STALE_REASON)
                    outcomes[job.id] = "dropped"
                else:
                    compute_claimed(
                        inside.sessions,
                        job.id,
                        job.entry_id,
                        job.target,
                        chunk_columns=store.settings.chunk_columns,
                        lease=lease,
                    )
                    entry_invariants(inside, job.entry_id)
                    queue.finish(inside.sessions, job.id, None)
                    outcomes[job.id] = "done"
                savepoint.commit()
            except DatabaseUnavailable:
                raise  # the batch is lost; the claims stay ours
            except ClaimLost:
                savepoint.rollback()
                search.forget_later(inside.connection, job.entry_id)
                outcomes[job.id] = "lost"
            except Exception as exc:  # noqa: BLE001  (as in run)
                savepoint.rollback()
                search.forget_later(inside.connection, job.entry_id)
                if not isinstance(exc, CatalogError):
                    log.exception("job %d failed", job.id)
                errors[job.id] = type(exc).__name__ + (f": {exc}" if str(exc) else "")
    for job_id, error in errors.items():
        state = queue.retry_later(store.sessions, job_id, error, backoff)
        outcomes[job_id] = {"queued": "retried", "failed": "failed"}.get(state, "lost")
    return [outcomes[job.id] for job in claimed]


def run(
    store: Store,
    claimed: Job,
    stopping: Callable[[], bool],
    lease: float = LEASE_SECONDS,
    backoff: float = queue.BACKOFF_SECONDS,
) -> str:
    """Compute one claimed job and record how it ended: ``done``, ``retried``
    or ``failed`` (the computation raised), ``dropped`` (the definition
    changed since it was queued), ``released`` (stopping: back to the
    queue), ``lost`` (taken over or cancelled meanwhile)."""
    maker = store.sessions
    try:
        with maker() as session:
            key = queue.entry_key(session, claimed.entry_id)
        if key != claimed.entry_key:
            queue.drop(maker, claimed.id, queue.STALE_REASON)
            return "dropped"
        compute_claimed(
            maker,
            claimed.id,
            claimed.entry_id,
            claimed.target,
            chunk_columns=store.settings.chunk_columns,
            lease=lease,
            halt=stopping,
        )
        entry_invariants(store, claimed.entry_id)
        queue.finish(maker, claimed.id, None)
        return "done"
    except Stopped:
        queue.release(maker, claimed.id)
        return "released"
    except ClaimLost:
        return "lost"
    except DatabaseUnavailable as exc:
        # The claim stays this process's: the next claim_next resumes it
        # once the database answers again (or another worker, after the
        # lease, if this one stops).
        log.warning("job %d: database lost (%s); resuming", claimed.id, exc)
        return "lost"
    except Exception as exc:  # noqa: BLE001  (any failure of the computation)
        if not isinstance(exc, CatalogError):
            log.exception("job %d failed", claimed.id)
        error = type(exc).__name__ + (f": {exc}" if str(exc) else "")
        state = queue.retry_later(maker, claimed.id, error, backoff)
        return {"queued": "retried", "failed": "failed"}.get(state, "lost")


def _sleep(seconds: float, stopping: Callable[[], bool]) -> None:
    end = time.monotonic() + seconds
    while not stopping() and time.monotonic() < end:
        time.sleep(min(0.1, seconds))
