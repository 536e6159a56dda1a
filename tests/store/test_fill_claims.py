"""Claims, waits, leases, time-sized chunks and deadlines of a fill, on both
databases."""

import subprocess
import sys
import time
from datetime import timedelta

import numpy as np
import pytest
from sqlalchemy import event, select

from catalog import p_positions
from catalog.compute import cost
from catalog.errors import Busy, TooMuchWork
from catalog.games.definition import canonicalize
from catalog.store import repository as repo
from catalog.store.fill import LEASE_SECONDS, Limits, fill, worker_name
from catalog.store.job_model import Job
from catalog.store.models import utcnow
from catalog.store.seed import read_seed, seed_dir

HO_EXTENSION = read_seed(seed_dir() / "W000023.json")["definition"]
MAHARAJA = read_seed(seed_dir() / "W000004.json")["definition"]
#: Columns of the fills in time-sized chunks (each chunk is a commit).
SLOW_N = 100


def entry_for(maker, definition):
    with maker.begin() as session:
        entry, _ = repo.add_entry(session, canonicalize(definition), name="test")
        session.flush()
        return entry.id


def hold(maker, number, claimed_by, beat_age=0.0, target=5000):
    """A running job of another process on the entry."""
    now = utcnow()
    with maker.begin() as session:
        job = Job(
            entry_id=number,
            kind="p-positions",
            target=target,
            state="running",
            claimed_by=claimed_by,
            claimed_at=now,
            heartbeat_at=now - timedelta(seconds=beat_age),
            created_at=now,
        )
        session.add(job)
        session.flush()
        return job.id


@pytest.fixture
def failures(engine):
    """Every statement the database refused while the test ran."""
    seen = []

    def record(context):
        seen.append(repr(context.original_exception))

    event.listen(engine, "handle_error", record)
    yield seen
    event.remove(engine, "handle_error", record)


def dead_worker():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    host = worker_name().rpartition(":")[0]
    return f"{host}:{child.pid}"


def test_a_waiter_gives_up_with_busy_and_never_fails_a_statement(maker, failures):
    number = entry_for(maker, HO_EXTENSION)
    holder = worker_name()  # this very process: alive
    hold(maker, number, holder)
    told = []
    with pytest.raises(Busy) as caught:
        fill(maker, number, 300, limits=Limits(wait=0.3, on_wait=told.append))
    assert str(caught.value) == (
        f"W{number:06d} is being computed up to n=5000 by another process "
        f"({holder}); try again"
    )
    expected = cost.fill_seconds(canonicalize(HO_EXTENSION), 0, None, 5000)
    assert caught.value.retry_after == min(600, int(np.ceil(expected)))
    assert told == [str(caught.value).replace("try again", "waiting for it")]
    assert failures == []
    with maker() as session:
        assert repo.get_extent(session, number) is None


def test_a_dead_holder_is_taken_over_at_once(maker, failures):
    number = entry_for(maker, MAHARAJA)
    old = hold(maker, number, dead_worker())
    fill(maker, number, 500, limits=Limits(wait=0))
    with maker() as session:
        jobs = {j.id: (j.state, j.error) for j in session.scalars(select(Job))}
        stored = repo.read_positions(session, number, 0, 500, 500)
    assert jobs.pop(old) == ("failed", "abandoned: no heartbeat")
    assert list(jobs.values()) == [("done", None)]
    assert np.array_equal(stored, p_positions(MAHARAJA, 500))
    assert failures == []


@pytest.mark.parametrize(("age", "taken"), [(LEASE_SECONDS + 5, True), (5, False)])
def test_a_live_holder_keeps_its_claim_within_the_lease(maker, failures, age, taken):
    number = entry_for(maker, MAHARAJA)
    old = hold(maker, number, worker_name(), beat_age=age)
    if taken:
        fill(maker, number, 200, limits=Limits(wait=0))
    else:
        with pytest.raises(Busy):
            fill(maker, number, 200, limits=Limits(wait=0))
    with maker() as session:
        assert session.get(Job, old).state == ("failed" if taken else "running")
    assert failures == []


def test_slow_games_store_time_sized_chunks_with_a_heartbeat_each(maker):
    game = canonicalize(HO_EXTENSION)
    number = entry_for(maker, HO_EXTENSION)
    # A quarter of the whole fill's estimate per chunk: at least four chunks
    # (more if the machine is slower than the estimate, never fewer). A
    # chunk's commit costs more than such a target: after the first two,
    # the chunks are single columns, so SLOW_N is small.
    target = cost.chunk_seconds(game, 0, SLOW_N) / 4
    beats = []

    def progress(step):
        with maker() as session:
            beats.append(session.scalar(select(Job.heartbeat_at)))

    fill(maker, number, SLOW_N, chunk_seconds=target, progress=progress)
    with maker() as session:
        rows = repo.chunk_rows(session, number)
        stored = repo.read_positions(session, number, 0, SLOW_N, SLOW_N)
    assert len(rows) >= 4
    assert [r.x1 for r in rows[:-1]] == [r.x0 for r in rows[1:]]
    assert (rows[0].x0, rows[-1].x1) == (0, SLOW_N)
    # Later columns cost more: the chunks narrow.
    assert rows[-1].x1 - rows[-1].x0 < rows[0].x1 - rows[0].x0
    assert len(set(beats)) >= len(rows)  # the claim's beat, then one per chunk
    assert np.array_equal(stored, p_positions(HO_EXTENSION, SLOW_N))


def test_a_deadline_stops_after_a_whole_chunk_and_the_next_fill_resumes(maker):
    game = canonicalize(HO_EXTENSION)
    number = entry_for(maker, HO_EXTENSION)
    target = cost.chunk_seconds(game, 0, SLOW_N) / 4
    with pytest.raises(Busy, match="try again to continue"):
        fill(maker, number, SLOW_N, chunk_seconds=target, limits=Limits(deadline=0))
    with maker() as session:
        (first,) = repo.chunk_rows(session, number)
        assert repo.get_extent(session, number).x_bound == first.x1 < SLOW_N
        job = session.scalars(select(Job)).one()
        assert job.state == "failed"
        assert job.error.endswith(f"columns below {first.x1} are stored and kept")
    fill(maker, number, SLOW_N, chunk_seconds=target)
    with maker() as session:
        stored = repo.read_positions(session, number, 0, SLOW_N, SLOW_N)
    assert np.array_equal(stored, p_positions(HO_EXTENSION, SLOW_N))


def test_over_the_budget_nothing_is_claimed_or_computed(maker):
    game = canonicalize(HO_EXTENSION)
    number = entry_for(maker, HO_EXTENSION)
    estimate = cost.fill_seconds(game, 0, None, 10_000_000)
    with pytest.raises(TooMuchWork) as caught:
        fill(maker, number, 10_000_000, limits=Limits(budget=2))
    assert str(caught.value) == (
        f"W{number:06d} up to n=10000000 needs about {estimate:.1f} s of computation "
        "(the estimate); the budget of a request is 2 s (WYTHOFF_INLINE_SECONDS)"
    )
    with maker() as session:
        assert session.scalars(select(Job)).all() == []


def test_a_store_fill_is_within_a_generous_factor_of_its_estimate(maker):
    """As in tests/compute/test_cost.py, for the whole fill with storing."""
    game = canonicalize(MAHARAJA)
    number = entry_for(maker, MAHARAJA)
    fill(maker, number, 1000)  # compile, and a first chunk to resume after
    estimate = cost.fill_seconds(game, 1000, None, 200_000)
    start = time.perf_counter()
    fill(maker, number, 200_000)
    measured = time.perf_counter() - start
    assert measured < 20 * estimate + 0.1
    assert estimate < 40 * measured + 0.1
