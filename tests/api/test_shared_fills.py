"""Identical fills asked at once are shared (catalog.store.fill): a request
that waits for a computation covering its own takes no compute slot and is
not charged to its client's quota. Real concurrent HTTP requests against
``wythoff serve`` and gunicorn, on SQLite and PostgreSQL."""

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from contextlib import contextmanager

import pytest
from sqlalchemy import select, update

from catalog import p_positions, service
from catalog.api.gate import Slots
from catalog.compute import cost
from catalog.config import Settings
from catalog.games.definition import canonicalize
from catalog.store.fill import compute_claimed, worker_name
from catalog.store.job_model import Job
from catalog.store.models import utcnow
from catalog.store.tables import extents
from tests.api.conftest import make_app, serve
from tests.api.test_gate import redis_url  # noqa: F401  (a fixture)

#: A game no seed is, so its entry is new and never computed.
GAME = {"rays": [[1, 0], [0, 1], [1, 2], [2, 1]]}
N = 200_000
LIMIT = 50
CLIENTS = 16


def estimate():
    return cost.fill_seconds(canonicalize(GAME), 0, None, N)


def add_game(url):
    """The new entry's ID, in the catalog at ``url``."""
    store = service.Store(Settings.load(url))
    try:
        return service.add(store, json.dumps(GAME))["id"]
    finally:
        store.dispose()


def fetch_all(url, clients=CLIENTS):
    """``clients`` GETs of ``url`` released at once, in threads; the list
    their (status, body) will be in once they are joined."""
    answers, barrier = [None] * clients, threading.Barrier(clients)

    def fetch(i):
        barrier.wait()
        try:
            with urllib.request.urlopen(url, timeout=120) as response:
                answers[i] = (response.status, response.read())
        except urllib.error.HTTPError as exc:
            answers[i] = (exc.code, exc.read())

    threads = [threading.Thread(target=fetch, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    return threads, answers


def join(threads):
    for t in threads:
        t.join(150)


def expected_page():
    found = p_positions(GAME, N)
    return found[:LIMIT].tolist(), [int(v) for v in found[LIMIT]]


def assert_shared(answers, url, wid):
    """Every answer is the same 200, the first page of the game's
    P-positions, and the entry's positions were computed by one job."""
    assert Counter(status for status, _ in answers) == {200: len(answers)}, answers
    assert len({body for _, body in answers}) == 1
    body = json.loads(answers[0][1])
    positions, (x, y) = expected_page()
    after = f"/api/v1/entries/{wid}/p-positions?n={N}&start={x}&start_y={y}"
    assert body == {
        "id": wid,
        "n": N,
        "positions": positions,
        "next": f"{after}&limit={LIMIT}&format=json",
    }
    store = service.Store(Settings.load(url))
    try:
        with store.sessions() as session:
            jobs = session.scalars(
                select(Job.state).where(Job.entry_id == int(wid[1:]))
            ).all()
    finally:
        store.dispose()
    assert jobs == ["done"], "one computation"


# -- real servers in processes of their own ------------------------------------


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def started(command, env, port):
    """Run ``command`` until it answers on ``port``; yields its base URL."""
    server = subprocess.Popen(command, env={**os.environ, **env})
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    try:
        while True:
            try:
                with urllib.request.urlopen(
                    f"{base}/api/v1/entries/W000001", timeout=5
                ):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"{command[2]} did not start") from None
                time.sleep(0.2)
        yield base
    finally:
        server.terminate()
        server.wait(60)


def server_env(tmp_path, **more):
    """One compute slot of the server's own (as on 2 cores), and a quota
    room for one computation of the game's, not two."""
    return {
        "WYTHOFF_COMPUTE_SLOTS": "1",
        "WYTHOFF_COMPUTE_SLOTS_DIR": str(tmp_path / "slots"),
        "WYTHOFF_QUOTA_SECONDS": f"{1.5 * estimate():.2f}",
        "WYTHOFF_QUOTA_NAMESPACE": f"test-{uuid.uuid4().hex}",
        **more,
    }


@pytest.mark.long
def test_identical_requests_to_wythoff_serve_share_one_fill(seeded_url, tmp_path):
    wid = add_game(seeded_url)
    port = free_port()
    command = [sys.executable, "-m", "catalog.cli", "serve", "--db", seeded_url]
    env = server_env(tmp_path)
    with started([*command, "--port", str(port)], env, port) as base:
        url = f"{base}/api/v1/entries/{wid}/p-positions?n={N}&limit={LIMIT}"
        threads, answers = fetch_all(url)
        join(threads)
    assert_shared(answers, seeded_url, wid)


@pytest.mark.long
def test_identical_requests_to_gunicorn_share_one_fill(
    seeded_url,
    tmp_path,
    redis_url,  # noqa: F811
):
    wid = add_game(seeded_url)
    port = free_port()
    command = [sys.executable, "-m", "gunicorn", "-w", "4", "--timeout", "60"]
    command += ["-b", f"127.0.0.1:{port}", "catalog.api:create_app()"]
    env = server_env(
        tmp_path,
        WYTHOFF_DATABASE_URL=seeded_url,
        WYTHOFF_QUOTA_STORAGE=redis_url,
    )
    with started(command, env, port) as base:
        url = f"{base}/api/v1/entries/{wid}/p-positions?n={N}&limit={LIMIT}"
        threads, answers = fetch_all(url)
        join(threads)
    assert_shared(answers, seeded_url, wid)


# -- a claim held by the test: who waits, who is admitted ----------------------


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
