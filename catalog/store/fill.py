"""The compute layer: fill an entry's stored P-positions on demand.

Work is cut into chunks of columns; each chunk is computed, then written with
the entry's new extent in one transaction, so an interrupted run (Ctrl-C,
kill -9) leaves only whole chunks and the next run resumes after the last one.
A game without a vertical ray is stored as a box [0, X) x [0, Y); making it
taller means recomputing it, and that is written in a single transaction.
"""

from __future__ import annotations

import math
import os
import socket
import time
from collections.abc import Callable
from contextlib import ExitStack
from datetime import UTC
from typing import Any

import numpy as np
from sqlalchemy import CursorResult, delete, func, select, text, update
from sqlalchemy.orm import Session, sessionmaker

from catalog.compute import cost
from catalog.compute import sequences as seqs
from catalog.compute.modes import box_limited, column_mode, max_n
from catalog.compute.ptable import resume_sweep
from catalog.errors import Busy, TooMuchWork
from catalog.games.definition import Definition, canonicalize, check_n
from catalog.store import prints, search
from catalog.store import repository as repo
from catalog.store.db import dialect_insert, writing
from catalog.store.ids import format_id
from catalog.store.job_model import Job
from catalog.store.limits import Limits
from catalog.store.models import Extent, PositionChunk, utcnow

Progress = Callable[[int], None]

#: What computed the stored positions, recorded in ``extents.engine``.
ENGINES = {
    "KernelSweep": "kernel-v1",
    "GeneralSweep": "general-kernel-v1",
    "TransposedSweep": "transposed-kernel-v1",
    "ConeSweep": "cone-sweep-v1",
    "BlockSweep": "block-sweep-v1",
    "DenseSweep": "dense-v1",
    "SubtractionSweep": "subtraction-v1",
    "Sweep": "numpy-sweep-v1",
}


class ConcurrentUpdate(Busy):
    """Another writer extended the same entry while this one computed."""


class ClaimLost(Busy):
    """The job this process computed for is no longer its own: taken over by
    another worker (this one looked dead) or cancelled."""


class Stopped(Busy):
    """The fill was asked to stop (SIGTERM) and did, after a whole chunk."""


class OverBudget(TooMuchWork):
    """A fill over the caller's budget: the entry and bound it wanted, so that
    a caller with a queue can queue it instead (:mod:`catalog.store.jobs`)."""

    def __init__(self, message: str, entry_id: int, n: int, seconds: float) -> None:
        super().__init__(message)
        self.entry_id, self.n, self.seconds = entry_id, n, seconds


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


def estimate(session: Session, entry_id: int, n: int) -> float:
    """Expected seconds for ``fill(…, n)`` from what is stored (0 if nothing
    is missing): :func:`catalog.compute.cost.fill_seconds`."""
    game = canonicalize(repo.get_entry(session, entry_id).definition)
    return _estimate(game, repo.get_extent(session, entry_id), n)


def _estimate(game: Definition, extent: Extent | None, n: int) -> float:
    if extent is None:
        return cost.fill_seconds(game, 0, None, n)
    return cost.fill_seconds(game, extent.x_bound, extent.y_bound, n)


#: Seconds a claim lives without a heartbeat before it is taken over.
#: Under 60 s, so that a dead holder is taken over within a minute (the
#: queue's contract); the holder beats about every second, far inside it.
LEASE_SECONDS = 45.0
#: Seconds of work each committed chunk aims at (by the estimate).
CHUNK_SECONDS = 1.0


def fill(
    maker: sessionmaker[Session],
    entry_id: int,
    n: int,
    *,
    chunk_columns: int = 65_536,
    chunk_seconds: float = CHUNK_SECONDS,
    progress: Progress | None = None,
    limits: Limits | None = None,
    lease: float = LEASE_SECONDS,
    poll: float = 0.1,
) -> None:
    """Make the store hold every P-position of the entry with x, y < n.

    One writer computes an entry at a time: it holds the entry's ``running``
    job row (a partial unique index allows one), and the others wait for it
    and then find the work done. Waiting only reads (a SELECT of the
    running job); the claim is an ``INSERT … ON CONFLICT DO NOTHING``, so
    no waiter ever issues a failing statement. A claim whose heartbeat is
    older than ``lease`` seconds, or whose process on this host has died,
    was abandoned and is taken over. The holder beats at every chunk (about
    ``chunk_seconds`` of work) and during long box sweeps, well inside the
    lease.
    """
    limits = limits or Limits()
    with ExitStack() as admission:
        _fill_admitted(
            maker,
            entry_id,
            n,
            limits,
            admission,
            chunk_columns,
            chunk_seconds,
            progress,
            lease,
            poll,
        )


def _fill_admitted(
    maker: sessionmaker[Session],
    entry_id: int,
    n: int,
    limits: Limits,
    admission: ExitStack,
    chunk_columns: int,
    chunk_seconds: float,
    progress: Progress | None,
    lease: float,
    poll: float,
) -> None:
    """:func:`fill`, holding the gate's admission (``limits.admitted``) in
    ``admission`` from its claim, or from the start of a wait that will be
    followed by work of its own, to its end.

    A fill that finds the work done is not admitted at all, and neither is
    one that waits for another claim reaching at least its ``n`` (the same
    work, shared: sixteen identical requests compute once, and the fifteen
    that wait take no compute slot and no quota). It is admitted when it
    claims, after the claim, so that requests arriving together wait for
    the one that claimed instead of racing for the slots; a claim the gate
    refuses is given back before the refusal goes up. A fill that waits for
    a claim short of its ``n`` holds its admission while it waits, as it
    will compute after it. How long a fill waits: :func:`_patience`."""
    started = time.monotonic()
    told = admitted = False
    while True:
        with maker() as session:
            game = canonicalize(repo.get_entry(session, entry_id).definition)
            if not column_mode(game):
                check_n(n, maximum=max_n(game))
                if box_limited(game):
                    cost.check_box_memory(game, n)
            extent = repo.get_extent(session, entry_id)
            if _covers(extent, n):
                return
            seconds = _estimate(game, extent, n)
            if limits.budget is not None and seconds > limits.budget:
                raise OverBudget(
                    f"{format_id(entry_id)} up to n={n} needs about {seconds:.1f} s "
                    f"of computation (the estimate); the budget of a request is "
                    f"{limits.budget:g} s (WYTHOFF_INLINE_SECONDS)",
                    entry_id,
                    n,
                    seconds,
                )
            holder = _running(session, entry_id)
            live = holder is not None and not _abandoned(holder, lease)
            shared = False
            if live:
                assert holder is not None
                message, retry = _busy(game, extent, entry_id, holder)
                # The holder's work covers this fill's: waiting adds none.
                shared = holder.target >= n
        if not live:
            job_id = _claim(maker, entry_id, n, holder)
            if job_id is None:
                continue  # another process claimed first: look again
            if not admitted:
                _admit_claimed(maker, job_id, limits, admission, seconds, (entry_id, n))
            break
        if not admitted and not shared:
            # Once: a fill that will compute after the holder holds its
            # server's worker as one computing while it waits.
            admission.enter_context(limits.admitted(seconds, fill=(entry_id, n)))
            admitted = True
        waited = time.monotonic() - started
        patience = _patience(limits, shared)
        if patience is not None and waited >= patience:
            raise Busy(message + "; try again", retry_after=retry)
        if limits.on_wait is not None and not told:
            limits.on_wait(message + "; waiting for it")
            told = True
        time.sleep(poll)
    try:
        compute_claimed(
            maker,
            job_id,
            entry_id,
            n,
            chunk_columns=chunk_columns,
            chunk_seconds=chunk_seconds,
            progress=progress,
            lease=lease,
            deadline=limits.deadline,
            game=game,
        )
    except BaseException as exc:
        with writing(maker) as session:
            _finish(session, job_id, "failed", _failure(session, entry_id, exc))
        raise
    with writing(maker) as session:
        _finish(session, job_id, "done", None)


def _patience(limits: Limits, shared: bool) -> float | None:
    """Most seconds to wait for another claim (None: no limit):
    ``limits.wait``, or for a claim that covers the fill (``shared``) at
    least ``limits.deadline``: the work waited for is the fill's own (within
    its budget), which it would have been let compute that long, and a
    loaded machine must not turn identical requests into 503s."""
    if not shared or limits.wait is None:
        return limits.wait
    return limits.wait if limits.deadline is None else max(limits.wait, limits.deadline)


def _admit_claimed(
    maker: sessionmaker[Session],
    job_id: int,
    limits: Limits,
    admission: ExitStack,
    seconds: float,
    fill: tuple[int, int],
) -> None:
    """The gate's admission of the work of the claim ``job_id``, just made;
    refused (no compute slot, the quota spent), the claim is deleted, as
    nothing was computed under it, and its waiters look again."""
    try:
        admission.enter_context(limits.admitted(seconds, fill=fill))
    except BaseException:
        with writing(maker) as session:
            session.execute(
                delete(Job).where(
                    Job.id == job_id,
                    Job.state == "running",
                    Job.claimed_by == worker_name(),
                )
            )
        raise


def compute_claimed(
    maker: sessionmaker[Session],
    job_id: int,
    entry_id: int,
    n: int,
    *,
    chunk_columns: int = 65_536,
    chunk_seconds: float = CHUNK_SECONDS,
    progress: Progress | None = None,
    lease: float = LEASE_SECONDS,
    deadline: float | None = None,
    halt: Callable[[], bool] | None = None,
    game: Definition | None = None,
) -> None:
    """The work of the running job ``job_id``, which this process holds:
    columns in chunks of about ``chunk_seconds``, each committed with a
    heartbeat that checks the claim is still this process's
    (:class:`ClaimLost` otherwise), or a box in one piece. ``halt`` is asked
    after each chunk: when true, :class:`Stopped` (the chunks stay). The
    caller records how the job ended. ``game``: the entry's definition,
    when the caller has read it."""
    if game is None:
        with maker() as session:
            game = canonicalize(repo.get_entry(session, entry_id).definition)
    runner = _Runner(maker, job_id, lease, deadline, halt)
    if column_mode(game):
        _fill_columns(
            maker, entry_id, game, n, chunk_columns, chunk_seconds, progress, runner
        )
    else:
        _fill_box(maker, entry_id, game, n, chunk_columns, runner.wrap(progress))


def _failure(session: Session, entry_id: int, exc: BaseException) -> str:
    """The job's error: what stopped it, and what it kept."""
    text = type(exc).__name__ + (f": {exc}" if str(exc) else "")
    if isinstance(exc, Exception) and not isinstance(exc, Busy):
        return text
    # Ctrl-C, gunicorn's worker abort (SystemExit), a deadline: chunks
    # committed before stay, and the next fill resumes after them.
    extent = repo.get_extent(session, entry_id)
    kept = extent.x_bound if extent else 0
    return f"interrupted ({text}); columns below {kept} are stored and kept"


def _running(session: Session, entry_id: int) -> Job | None:
    return session.scalar(
        select(Job).where(Job.entry_id == entry_id, Job.state == "running")
    )


def _abandoned(holder: Job, lease: float) -> bool:
    beat = holder.heartbeat_at or holder.claimed_at or utcnow()
    if beat.tzinfo is None:  # SQLite keeps naive UTC datetimes
        beat = beat.replace(tzinfo=UTC)
    stale = (utcnow() - beat).total_seconds() > lease
    return stale or not _alive(holder.claimed_by)


def _busy(
    game: Definition, extent: Extent | None, entry_id: int, holder: Job
) -> tuple[str, int]:
    """What to tell a waiter, and when its work may be done (Retry-After)."""
    remaining = _estimate(game, extent, holder.target)
    message = (
        f"{format_id(entry_id)} is being computed up to n={holder.target} by "
        f"another process ({holder.claimed_by})"
    )
    return message, max(1, min(600, math.ceil(remaining)))


def _claim(
    maker: sessionmaker[Session], entry_id: int, n: int, holder: Job | None
) -> int | None:
    """Insert this worker's running job for the entry; None if another
    worker holds one. An abandoned ``holder`` is marked failed first.
    Neither statement can fail on the unique index."""
    with writing(maker) as session:
        now = utcnow()
        if holder is not None:
            session.execute(
                update(Job)
                .where(Job.id == holder.id, Job.state == "running")
                .values(
                    state="failed",
                    error="abandoned: no heartbeat",
                    finished_at=now,
                )
                .execution_options(synchronize_session=False)
            )
        insert = dialect_insert(session)
        job_id = session.scalar(
            insert(Job)
            .values(
                entry_id=entry_id,
                kind="p-positions",
                target=n,
                state="running",
                claimed_by=worker_name(),
                claimed_at=now,
                heartbeat_at=now,
                created_at=now,
            )
            .on_conflict_do_nothing(
                index_elements=[Job.entry_id], index_where=text("state = 'running'")
            )
            .returning(Job.id)
        )
        if job_id is None:
            return None
        # The extent was read before the claim. On PostgreSQL (read
        # committed) the previous holder may have finished in between:
        # look again, and give the claim back if the work is done.
        if _covers(repo.get_extent(session, entry_id), n):
            session.execute(delete(Job).where(Job.id == job_id))
            return None
        return job_id


def _finish(session: Session, job_id: int, state: str, error: str | None) -> None:
    session.execute(
        update(Job)
        .where(Job.id == job_id, Job.claimed_by == worker_name())
        .values(state=state, error=error, finished_at=utcnow())
    )


class _Runner:
    """The holder's side of a claim: heartbeats, and the deadline."""

    def __init__(
        self,
        maker: sessionmaker[Session],
        job_id: int,
        lease: float,
        deadline: float | None,
        halt: Callable[[], bool] | None = None,
    ) -> None:
        self.maker, self.job_id = maker, job_id
        self.every = lease / 6
        self.started = self.last = time.monotonic()
        self.deadline = deadline
        self.halt = halt

    def beat(self, session: Session) -> None:
        """The heartbeat, in the transaction of the chunk it vouches for: if
        the claim is no longer this process's, nothing of the chunk is
        written."""
        beaten: CursorResult[Any] = session.execute(  # type: ignore[assignment]
            update(Job)
            .where(
                Job.id == self.job_id,
                Job.state == "running",
                Job.claimed_by == worker_name(),
            )
            .values(heartbeat_at=utcnow())
            .execution_options(synchronize_session=False)
        )
        if beaten.rowcount != 1:
            raise ClaimLost(f"job {self.job_id} was taken over or cancelled")
        self.last = time.monotonic()

    def overdue(self) -> bool:
        if self.halt is not None and self.halt():
            return True
        return self.late()

    def late(self) -> bool:
        if self.deadline is None:
            return False
        return time.monotonic() - self.started > self.deadline

    def stop(self, done: int, n: int) -> Busy:
        if self.halt is not None and self.halt():
            return Stopped(f"stopped after the columns below {done} of n={n}")
        spent = time.monotonic() - self.started
        return Busy(
            f"computed columns below {done} of n={n} in {spent:.0f} s, more than "
            "one request may take; what is computed is stored: try again to "
            "continue",
            retry_after=1,
        )

    def wrap(self, progress: Progress | None) -> Progress:
        """A progress callback that also beats and keeps the deadline, for
        work that commits only at its end (a box)."""

        def tick(step: int) -> None:
            if progress is not None:
                progress(step)
            now = time.monotonic()
            if now - self.last > self.every:
                with writing(self.maker) as session:
                    self.beat(session)
            if self.deadline is not None and self.late():
                # A box is written in one piece: a retry would start over
                # (and a halt waits for the piece: it is the chunk).
                raise TooMuchWork(
                    f"the computation ran over {self.deadline:g} s, more than "
                    "one request may take (a game without a vertical ray is "
                    "computed in one piece)"
                )

        return tick


def _covers(extent: Extent | None, n: int) -> bool:
    if extent is None:
        return n == 0
    return extent.x_bound >= n and (extent.y_bound is None or extent.y_bound >= n)


def _fill_columns(
    maker: sessionmaker[Session],
    entry_id: int,
    game: Definition,
    n: int,
    most: int,
    target: float,
    progress: Progress | None,
    runner: _Runner,
) -> None:
    """Columns up to n in chunks of about ``target`` seconds (at most ``most``
    columns), each committed with the extent and a heartbeat."""
    with maker.begin() as session:
        extent = repo.get_extent(session, entry_id)
        start = extent.x_bound if extent else 0
        # A last chunk narrower than ``most`` is rewritten whole with the
        # first new columns (no recomputation: its positions are read back).
        last = session.scalar(
            select(func.max(PositionChunk.x0)).where(
                PositionChunk.entry_id == entry_id, PositionChunk.x0 < start
            )
        )
        x0 = last if last is not None and start - last < most else start
        before = repo.read_positions(session, entry_id, 0, start)
        count = extent.count if extent else 0
    sweep = resume_sweep(game, before, start)
    engine = ENGINES[type(sweep).__name__]
    pending = before[before[:, 0] >= x0]
    del before  # the sweep holds what it needs of the stored columns
    slow = 1.0  # measured / estimated seconds of the previous chunk
    first = True
    while start < n:
        width = cost.chunk_columns(game, start, target / slow, most)
        x1 = min(n, x0 + most, start + width)
        clock = time.monotonic()
        fresh = sweep.advance(x1, progress)
        if x1 == n:
            del sweep  # its tables and output, before the sequences are derived
        found = np.concatenate([pending, fresh])
        with writing(maker) as session:
            runner.beat(session)
            count += len(fresh)
            _claim_extent(session, entry_id, start, x1, None, count, engine)
            repo.write_chunk(session, entry_id, x0, x1, None, found)
            if x1 == n:
                # Every column's positions at hand when this chunk is the
                # first (a fill of 10^4 is one chunk): none read back.
                every = found if x0 == 0 else None
                _store_derived(
                    session, entry_id, n, whole_columns=True, window=n, positions=every
                )
        expected = cost.chunk_seconds(game, start, x1)
        # The first chunk's time includes loading the compiled kernels.
        if expected > 0 and not first:
            slow = max(1.0, (time.monotonic() - clock) / expected)
        first = False
        start = x0 = x1
        pending = np.zeros((0, 2), dtype=np.int64)
        if x1 < n and runner.overdue():
            raise runner.stop(x1, n)


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
    if box_limited(game):  # a queued job too: before anything is allocated
        cost.check_box_memory(game, max(height, x_target))
    with maker.begin() as session:
        before = repo.read_positions(session, entry_id, 0, old_x)
    sweep = resume_sweep(game, before, old_x, height=height)
    engine = ENGINES[type(sweep).__name__]
    found = sweep.advance(x_target, progress)
    del sweep  # its tables and output, before the copies below
    everything = np.concatenate([before, found])
    del before, found
    with writing(maker) as session:
        if old_x == 0:
            # A taller box: every chunk is rewritten, in this one transaction.
            session.execute(
                delete(PositionChunk).where(PositionChunk.entry_id == entry_id)
            )
        expected = old_x if old_x else None
        _claim_extent(
            session, entry_id, expected, x_target, height, len(everything), engine
        )
        edges = list(range(old_x - old_x % width, x_target, width)) + [x_target]
        for x0, x1 in zip(edges, edges[1:], strict=False):
            mask = (everything[:, 0] >= x0) & (everything[:, 0] < x1)
            repo.write_chunk(session, entry_id, x0, x1, height, everything[mask])
        _store_derived(
            session,
            entry_id,
            x_target,
            whole_columns=False,
            window=min(x_target, height),
        )


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
    session: Session,
    entry_id: int,
    x_bound: int,
    whole_columns: bool,
    window: int,
    positions: np.ndarray | None = None,
) -> None:
    """Sequences, bitstrings, their search index, cross-references, and the
    prints of the stored window x, y < ``window``, from the entry's stored
    ``positions`` (read when not given)."""
    if positions is None:
        positions = repo.read_positions(session, entry_id, 0, x_bound)
    prints.replace(session, entry_id, positions, window)
    sequences, bitstrings = seqs.derive(positions, x_bound, whole_columns)
    repo.replace_sequences(session, entry_id, sequences)
    for kind, (start, bits) in bitstrings.items():
        repo.replace_bitstring(session, entry_id, kind, start, bits)
    search.index_sequences(
        session, entry_id, {name: terms for name, (_, terms, _) in sequences.items()}
    )
    if "y" in sequences:
        repo.link_equal_columns(session, entry_id, sequences["y"][1])
    repo.store_fill_facts(
        session,
        entry_id,
        one_p_per_column=(
            seqs.column_sequence(positions, x_bound) is not None
            if whole_columns
            else None
        ),
        symmetric=seqs.is_symmetric(positions, x_bound) if whole_columns else None,
    )
