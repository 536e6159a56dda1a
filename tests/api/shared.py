"""The new entry and the concurrent requests of the tests of shared fills
(``test_shared_fills.py``, ``test_shared_waits.py``)."""

import json
import threading
import urllib.error
import urllib.request
from collections import Counter

from sqlalchemy import select

from catalog import p_positions, service
from catalog.compute import cost
from catalog.config import Settings
from catalog.games.definition import canonicalize
from catalog.store.job_model import Job

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
        added = service.add(store, json.dumps(GAME))
    finally:
        store.dispose()
    assert added["created"], "a new entry"
    return added["id"]


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
