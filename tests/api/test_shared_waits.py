"""Who waits for a fill and who passes the gate (catalog.store.fill): a
claim on a new entry held by the test process, with the server's one
compute slot, as a server computing it would; real concurrent HTTP
requests against a live server, on SQLite and PostgreSQL."""

import json
import time
from collections import Counter

import pytest
from sqlalchemy import select, update

from catalog.api.gate import Slots
from catalog.config import OVERRUN
from catalog.store.fill import compute_claimed, worker_name
from catalog.store.job_model import Job
from catalog.store.models import utcnow
from catalog.store.tables import extents
from tests.api.conftest import make_app, serve
from tests.api.shared import (
    CLIENTS,
    LIMIT,
    N,
    add_game,
    estimate,
    expected_page,
    fetch_all,
    join,
)


@pytest.fixture
def held(seeded_url, tmp_path):
    """``build(**config)``: a live server (one compute slot, a long claim
    wait) and the new entry, whose running claim up to ``target`` this test
    process holds, with the server's one slot, as a server computing it
    would; returns (base URL, app, entry number, job id)."""
    made, slots = [], Slots(1, tmp_path / "slots")

    def build(target=N, **config):
        settings = {
            "COMPUTE_SLOTS": 1,
            "COMPUTE_SLOTS_DIR": str(tmp_path / "slots"),
            "CLAIM_WAIT_SECONDS": 60,
        }
        app = make_app(seeded_url, False, **(settings | config))
        number = int(add_game(seeded_url)[1:])
        now = utcnow()
        with app.extensions["catalog"].sessions.begin() as session:
            job = Job(
                entry_id=number,
                kind="p-positions",
                target=target,
                state="running",
                claimed_by=worker_name(),  # this process: alive
                claimed_at=now,
                heartbeat_at=now,
                created_at=now,
            )
            session.add(job)
            session.flush()
            job_id = job.id
        slot = slots.take()
        assert slot.__enter__()
        base, stop = serve(app)
        made.append((app, slot, stop))
        return base, app, number, job_id

    yield build
    for app, slot, stop in made:
        stop()
        slot.__exit__(None, None, None)
        app.extensions["catalog"].dispose()


def jobs_of(app, number):
    with app.extensions["catalog"].sessions() as session:
        rows = session.scalars(select(Job).where(Job.entry_id == number)).all()
        return sorted((j.state, j.target) for j in rows)


def finish(app, number, job_id, state):
    """The holder's end: its fill computed (``done``), or given up."""
    maker = app.extensions["catalog"].sessions
    if state == "done":
        compute_claimed(maker, job_id, number, N)
    with maker.begin() as session:
        session.execute(update(Job).where(Job.id == job_id).values(state=state))


def still_waiting(answers, seconds=1.0):
    """True when no answer came within ``seconds``."""
    time.sleep(seconds)
    return answers == [None] * len(answers)


@pytest.mark.parametrize("spent", ["slot", "quota"])
def test_waiters_on_a_running_fill_take_no_slot_and_no_quota(held, spent):
    """The claim's holder has the one slot; with ``quota`` the client's
    quota is spent too, and the slots are off: either would refuse a
    request admitted, so every waiter was admitted by neither."""
    config = {"COMPUTE_SLOTS": 0, "QUOTA_SECONDS": 0.01} if spent == "quota" else {}
    base, app, number, job_id = held(**config)
    if spent == "quota":
        app.extensions["catalog"].limits.gate.quota.charge("ip:127.0.0.1", 1.0)
    url = f"{base}/api/v1/entries/W{number:06d}/p-positions?n={N}&limit={LIMIT}"
    threads, answers = fetch_all(url)
    try:
        assert still_waiting(answers), answers
        finish(app, number, job_id, "done")
    finally:
        join(threads)
    assert Counter(status for status, _ in answers) == {200: CLIENTS}
    assert len({body for _, body in answers}) == 1
    assert json.loads(answers[0][1])["positions"] == expected_page()[0]
    assert jobs_of(app, number) == [("done", N)], "computed by the holder alone"


def test_a_request_that_will_compute_after_the_holder_is_admitted(held):
    """A claim short of the request's n: it would compute the rest, so it
    needs a slot while it waits, and the holder has the only one."""
    base, app, number, _ = held(target=N // 2)
    url = f"{base}/api/v1/entries/W{number:06d}/p-positions?n={N}&limit={LIMIT}"
    threads, answers = fetch_all(url, 1)
    join(threads)
    ((status, body),) = answers
    assert status == 429, body
    assert "compute slot" in json.loads(body)["error"]


@pytest.mark.parametrize("queue", [False, True])
def test_when_the_holder_gives_up_a_waiter_is_admitted_to_compute(held, queue):
    """The holder stops without the positions: its waiters must compute,
    and the one slot is still taken, so each is refused (429, or 202 with
    the fill queued); a refused claim is given back, nothing is half-written."""
    base, app, number, job_id = held(QUEUE=queue)
    url = f"{base}/api/v1/entries/W{number:06d}/p-positions?n={N}&limit={LIMIT}"
    threads, answers = fetch_all(url, 4)
    try:
        assert still_waiting(answers, 0.5), answers
        finish(app, number, job_id, "failed")
    finally:
        join(threads)
    statuses = Counter(status for status, _ in answers)
    assert statuses == {202 if queue else 429: 4}, answers
    queued = [("queued", N)] if queue else []
    assert jobs_of(app, number) == sorted([("failed", N), *queued])
    with app.extensions["catalog"].reading() as connection:
        stored = connection.execute(
            select(extents.c.x_bound).where(extents.c.entry_id == number)
        ).all()
    assert stored == []


def test_over_its_budget_a_waiter_is_queued_at_once(held):
    """A request over its budget does not wait for a holder, even one
    computing the same: with a queue it answers 202 at once, as before."""
    base, app, number, _ = held(QUEUE=True, INLINE_SECONDS=estimate() / 2)
    url = f"{base}/api/v1/entries/W{number:06d}/p-positions?n={N}&limit={LIMIT}"
    started_at = time.monotonic()
    threads, answers = fetch_all(url, 2)
    join(threads)
    assert time.monotonic() - started_at < 30
    assert [status for status, _ in answers] == [202, 202], answers
    assert jobs_of(app, number) == [("queued", N), ("running", N)]


def test_a_waiter_for_its_own_work_outwaits_a_short_claim_wait(held):
    """A loaded machine: the holder takes longer than CLAIM_WAIT_SECONDS.
    A waiter for its own work waits as long as it could have computed
    (OVERRUN budgets: 50 s here, whatever the load of the machine that
    runs the tests), not a 503 at the claim wait."""
    base, app, number, job_id = held(CLAIM_WAIT_SECONDS=0.2, INLINE_SECONDS=10)
    url = f"{base}/api/v1/entries/W{number:06d}/p-positions?n={N}&limit={LIMIT}"
    threads, answers = fetch_all(url, 2)
    try:
        assert still_waiting(answers, 1.0), answers
        finish(app, number, job_id, "done")
    finally:
        join(threads)
    assert [status for status, _ in answers] == [200, 200], answers


def test_a_waiter_for_its_own_work_gives_up_at_its_deadline(held):
    """A holder that never finishes: the waiter answers 503 once the time
    its own computation could have taken (OVERRUN budgets) has passed."""
    budget = 1.05 * estimate()
    base, _, number, _ = held(CLAIM_WAIT_SECONDS=0.2, INLINE_SECONDS=budget)
    url = f"{base}/api/v1/entries/W{number:06d}/p-positions?n={N}&limit={LIMIT}"
    started_at = time.monotonic()
    threads, answers = fetch_all(url, 1)
    join(threads)
    waited = time.monotonic() - started_at
    ((status, body),) = answers
    assert status == 503, body
    assert "is being computed up to n=200000" in json.loads(body)["error"]
    assert OVERRUN * budget <= waited < OVERRUN * budget + 5
