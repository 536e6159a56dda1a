"""The compute layer: fill an entry's stored P-positions on demand.

Work is cut into chunks of columns; each chunk is computed, then written with
the entry's new extent in one transaction, so an interrupted run (Ctrl-C,
kill -9) leaves only whole chunks and the next run resumes after the last one.
A game without a vertical ray is stored as a box [0, X) x [0, Y); making it
taller means recomputing it, and that is written in a single transaction.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC
from typing import Any

import numpy as np
from sqlalchemy import CursorResult, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from catalog.compute import sequences as seqs
from catalog.compute.ptable import MAX_BOX_N, column_mode, resume_sweep
from catalog.errors import Busy, TooMuchWork
from catalog.games.definition import Definition, canonicalize, check_n
from catalog.store import repository as repo
from catalog.store import search
from catalog.store.models import Extent, Job, PositionChunk, utcnow

Progress = Callable[[int], None]

#: What computed the stored positions, recorded in ``extents.engine``.
ENGINES = {"KernelSweep": "kernel-v1", "Sweep": "numpy-sweep-v1"}


class ConcurrentUpdate(Busy):
    """Another writer extended the same entry while this one computed."""


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _alive(worker: str | None) -> bool:
    """False only when ``worker`` is a process of this host that has died."""
    host, _, pid = (worker or "").rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def work_needed(session: Session, entry_id: int, n: int) -> int:
    """How many columns ``fill(…, n)`` would still compute (for progress bars)."""
    game = canonicalize(repo.get_entry(session, entry_id).definition)
    extent = repo.get_extent(session, entry_id)
    if extent is None:
        return n
    if column_mode(game):
        return max(0, n - extent.x_bound)
    if extent.y_bound is not None and extent.y_bound < n:
        return max(n, extent.x_bound)
    return max(0, n - extent.x_bound)


@contextmanager
def writing(maker: sessionmaker[Session]) -> Iterator[Session]:
    """A write transaction. On SQLite it takes the write lock at BEGIN, so
    concurrent writers queue on the busy timeout instead of failing when a
    read transaction tries to turn into a write."""
    with maker.begin() as session:
        session.connection(execution_options={"sqlite_begin": "IMMEDIATE"})
        yield session


def fill(
    maker: sessionmaker[Session],
    entry_id: int,
    n: int,
    *,
    chunk_columns: int = 65_536,
    progress: Progress | None = None,
    max_columns: int | None = None,
    lease: float = 600.0,
    poll: float = 0.05,
) -> None:
    """Make the store hold every P-position of the entry with x, y < n.

    One writer computes an entry at a time: it holds the entry's ``running``
    job row (a partial unique index allows one), and the others wait for it
    and then find the work done. A claim whose heartbeat is older than
    ``lease`` seconds was abandoned (kill -9) and is taken over.
    Raises :class:`TooMuchWork` when more than ``max_columns`` columns
    (box mode: rows too) would have to be computed.
    """
    while True:
        with writing(maker) as session:
            game = canonicalize(repo.get_entry(session, entry_id).definition)
            if not column_mode(game):
                check_n(n, maximum=MAX_BOX_N)
            if _covers(repo.get_extent(session, entry_id), n):
                return
            needed = work_needed(session, entry_id, n)
            if max_columns is not None and needed > max_columns:
                raise TooMuchWork(
                    f"n={n} needs {needed} more columns; this server computes at "
                    f"most {max_columns} per request (max_compute_columns)"
                )
            job_id = _claim(session, entry_id, n, lease)
            if job_id is not None:
                # The extent was read before the claim. On PostgreSQL (read
                # committed) the previous holder may have finished in between:
                # look again, and give the claim back if the work is done.
                session.expire_all()
                if _covers(repo.get_extent(session, entry_id), n):
                    session.execute(delete(Job).where(Job.id == job_id))
                    return
        if job_id is not None:
            break
        time.sleep(poll)
    try:
        if column_mode(game):
            _fill_columns(maker, entry_id, game, n, chunk_columns, progress, job_id)
        else:
            _fill_box(maker, entry_id, game, n, chunk_columns, progress)
    except BaseException as exc:
        with writing(maker) as session:
            _finish(session, job_id, "failed", f"{type(exc).__name__}: {exc}")
        raise
    with writing(maker) as session:
        _finish(session, job_id, "done", None)


def _claim(session: Session, entry_id: int, n: int, lease: float) -> int | None:
    """Insert this worker's running job for the entry, or None if another
    worker holds one (taking it over when its heartbeat is too old)."""
    now = utcnow()
    try:
        with session.begin_nested():
            job = Job(
                entry_id=entry_id,
                kind="p-positions",
                target=n,
                state="running",
                claimed_by=worker_name(),
                claimed_at=now,
                heartbeat_at=now,
                created_at=now,
            )
            session.add(job)
            session.flush()
            return job.id
    except IntegrityError:
        pass
    holder = session.scalar(
        select(Job).where(Job.entry_id == entry_id, Job.state == "running")
    )
    if holder is not None:
        beat = holder.heartbeat_at or holder.claimed_at or now
        if beat.tzinfo is None:  # SQLite keeps naive UTC datetimes
            beat = beat.replace(tzinfo=UTC)
        if (now - beat).total_seconds() > lease or not _alive(holder.claimed_by):
            holder.state, holder.error = "failed", "abandoned: no heartbeat"
            holder.finished_at = now
            session.flush()
    return None


def _finish(session: Session, job_id: int, state: str, error: str | None) -> None:
    session.execute(
        update(Job)
        .where(Job.id == job_id)
        .values(state=state, error=error, finished_at=utcnow())
    )


def _covers(extent: Extent | None, n: int) -> bool:
    if extent is None:
        return n == 0
    return extent.x_bound >= n and (extent.y_bound is None or extent.y_bound >= n)


def _fill_columns(
    maker: sessionmaker[Session],
    entry_id: int,
    game: Definition,
    n: int,
    width: int,
    progress: Progress | None,
    job_id: int,
) -> None:
    with maker.begin() as session:
        extent = repo.get_extent(session, entry_id)
        start = extent.x_bound if extent else 0
        # The last chunk may be partial: resume at its start and rewrite it whole.
        x0 = start - start % width
        before = repo.read_positions(session, entry_id, 0, start)
        count = extent.count if extent else 0
    sweep = resume_sweep(game, before, start)
    pending = before[before[:, 0] >= x0]
    while sweep.x < n:
        x1 = min(n, x0 + width)
        fresh = sweep.advance(x1, progress)
        found = np.concatenate([pending, fresh])
        with writing(maker) as session:
            session.execute(
                update(Job).where(Job.id == job_id).values(heartbeat_at=utcnow())
            )
            count += len(fresh)
            engine = ENGINES[type(sweep).__name__]
            _claim_extent(session, entry_id, start, x1, None, count, engine)
            repo.write_chunk(session, entry_id, x0, x1, None, found)
            if x1 == n:
                _store_derived(session, entry_id, n, whole_columns=True)
        start = x0 = x1
        pending = np.zeros((0, 2), dtype=np.int64)


def _fill_box(
    maker: sessionmaker[Session],
    entry_id: int,
    game: Definition,
    n: int,
    width: int,
    progress: Progress | None,
) -> None:
    with maker.begin() as session:
        extent = repo.get_extent(session, entry_id)
        old_x = extent.x_bound if extent else 0
        old_y = extent.y_bound if extent else None
    if old_y is not None and old_y >= n:
        # Wide enough rows already: continue the same box to the right.
        height, x_target = old_y, n
    else:
        height, x_target = n, max(n, old_x)
        old_x = 0
    with maker.begin() as session:
        before = repo.read_positions(session, entry_id, 0, old_x)
    sweep = resume_sweep(game, before, old_x, height=height)
    found = sweep.advance(x_target, progress)
    with writing(maker) as session:
        if old_x == 0:
            # A taller box: every chunk is rewritten, in this one transaction.
            session.execute(
                delete(PositionChunk).where(PositionChunk.entry_id == entry_id)
            )
        everything = np.concatenate([before, found])
        expected = old_x if old_x else None
        engine = ENGINES[type(sweep).__name__]
        _claim_extent(
            session, entry_id, expected, x_target, height, len(everything), engine
        )
        edges = list(range(old_x - old_x % width, x_target, width)) + [x_target]
        for x0, x1 in zip(edges, edges[1:], strict=False):
            mask = (everything[:, 0] >= x0) & (everything[:, 0] < x1)
            repo.write_chunk(session, entry_id, x0, x1, height, everything[mask])
        _store_derived(session, entry_id, x_target, whole_columns=False)


def _claim_extent(
    session: Session,
    entry_id: int,
    expected: int | None,
    x_bound: int,
    y_bound: int | None,
    count: int,
    engine: str,
) -> None:
    """Move the extent from ``expected`` columns to ``x_bound`` holding
    ``count`` positions, or fail if another writer moved it first (optimistic
    concurrency on x_bound). ``expected=None`` replaces the extent outright."""
    extent = repo.get_extent(session, entry_id)
    if extent is None:
        if expected not in (0, None):
            raise ConcurrentUpdate(f"entry {entry_id}: extent vanished")
        session.add(
            Extent(
                entry_id=entry_id,
                x_bound=x_bound,
                y_bound=y_bound,
                count=count,
                engine=engine,
                updated_at=utcnow(),
            )
        )
        session.flush()
        return
    query = update(Extent).where(Extent.entry_id == entry_id)
    if expected is not None:
        query = query.where(Extent.x_bound == expected)
    done: CursorResult[Any] = session.execute(  # type: ignore[assignment]
        query.values(
            x_bound=x_bound,
            y_bound=y_bound,
            count=count,
            engine=engine,
            updated_at=utcnow(),
        ).execution_options(synchronize_session=False)
    )
    if done.rowcount != 1:
        raise ConcurrentUpdate(f"entry {entry_id}: extended by another writer")
    session.expire(extent)


def _store_derived(
    session: Session, entry_id: int, x_bound: int, whole_columns: bool
) -> None:
    """Sequences, bitstrings, their search index, and cross-references."""
    positions = repo.read_positions(session, entry_id, 0, x_bound)
    sequences, bitstrings = seqs.derive(positions, x_bound, whole_columns)
    repo.replace_sequences(session, entry_id, sequences)
    for kind, (start, bits) in bitstrings.items():
        repo.replace_bitstring(session, entry_id, kind, start, bits)
    search.index_sequences(
        session, entry_id, {name: terms for name, (_, terms, _) in sequences.items()}
    )
    if "y" in sequences:
        repo.link_equal_columns(session, entry_id, sequences["y"][1])
