"""Bounded work per request: the budget, claims held elsewhere, gunicorn."""

import json
import re
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from sqlalchemy import select

from catalog.compute import cost
from catalog.config import CLAIM_WAIT_SECONDS, INLINE_SECONDS, OVERRUN
from catalog.games.definition import canonicalize
from catalog.store.fill import worker_name
from catalog.store.job_model import Job
from catalog.store.models import PositionChunk, utcnow
from catalog.store.seed import read_seed, seed_dir
from tests.api.conftest import make_app, serve

README = Path(__file__).resolve().parents[2] / "README.md"


def game(wid):
    return canonicalize(read_seed(seed_dir() / f"{wid}.json")["definition"])


@pytest.fixture
def small_app(seeded_url):
    """A catalog with a small budget and a short claim wait."""
    app = make_app(seeded_url, False, INLINE_SECONDS=0.5, CLAIM_WAIT_SECONDS=0.3)
    yield app
    app.extensions["catalog"].dispose()


def over_budget(wid, n, budget):
    estimate = cost.fill_seconds(game(wid), 0, None, n)
    assert estimate > budget
    return {
        "error": f"{wid} up to n={n} needs about {estimate:.1f} s of computation "
        f"(the estimate); the budget of a request is {budget:g} s "
        "(WYTHOFF_INLINE_SECONDS)"
    }


@pytest.mark.parametrize(
    "route",
    [
        "/api/v1/entries/W000023/p-positions?n=10000000",
        "/api/v1/entries/W000023/p-positions?n=10000000&format=bfile",
        "/api/v1/entries/W000023/export?n=10000000",
    ],
)
def test_ho_extension_at_the_store_limit_is_refused_naming_budget_and_estimate(
    client, route
):
    response = client.get(route)
    assert response.status_code == 422
    assert response.get_json() == over_budget("W000023", 10_000_000, INLINE_SECONDS)


def test_big_requests_are_refused_before_computing_and_stall_nothing(small_app):
    base, stop = serve(small_app)
    big = [
        f"{base}/api/v1/entries/{wid}/p-positions?n=2000000"
        for wid in ("W000022", "W000023", "W000022", "W000023")
    ]
    answers = {}

    def fetch(url, key):
        try:
            with urllib.request.urlopen(url, timeout=60) as response:
                answers[key] = (response.status, json.loads(response.read()))
        except urllib.error.HTTPError as exc:
            answers[key] = (exc.code, json.loads(exc.read()))

    threads = [threading.Thread(target=fetch, args=(u, i)) for i, u in enumerate(big)]
    try:
        for t in threads:
            t.start()
        fetch(f"{base}/api/v1/entries/W000004/p-positions?n=50", "small")
        for t in threads:
            t.join()
    finally:
        stop()
    assert answers.pop("small")[0] == 200
    assert answers == {
        i: (422, over_budget(url.split("/")[-2], 2_000_000, 0.5))
        for i, url in enumerate(big)
    }
    with small_app.extensions["catalog"].sessions() as session:
        assert session.scalars(select(Job).where(Job.entry_id > 21)).all() == []
        assert session.scalars(select(PositionChunk.entry_id)).all() in ([], [4])


def test_a_claim_held_elsewhere_is_a_503_with_retry_after(small_app):
    store = small_app.extensions["catalog"]
    holder = worker_name()  # this test's own process: a live pid
    now = utcnow()
    with store.sessions.begin() as session:
        session.add(
            Job(
                entry_id=23,
                kind="p-positions",
                target=1000,
                state="running",
                claimed_by=holder,
                claimed_at=now,
                heartbeat_at=now,
                created_at=now,
            )
        )
    response = small_app.test_client().get("/api/v1/entries/W000023/p-positions?n=300")
    remaining = cost.fill_seconds(game("W000023"), 0, None, 1000)
    assert response.status_code == 503
    assert response.headers["Retry-After"] == str(min(600, -int(-remaining // 1)))
    assert response.get_json() == {
        "error": f"W000023 is being computed up to n=1000 by another process "
        f"({holder}); try again"
    }


def test_openapi_names_the_configured_budget(small_app):
    doc = small_app.test_client().get("/api/v1/openapi.json").get_json()
    route = doc["paths"]["/api/v1/entries/{wid}/p-positions"]["get"]["responses"]
    assert "more than 0.5 s" in route["422"]["description"]
    assert "Retry-After" in route["503"]["headers"]


def test_the_readme_gunicorn_timeout_outlasts_any_request():
    """A request waits for a claim at most CLAIM_WAIT_SECONDS (OVERRUN
    budgets for a claim covering it), then computes at most OVERRUN budgets
    (plus one chunk and the reading): gunicorn's --timeout must be well
    above that, so that its abort never answers."""
    command = re.search(
        r"gunicorn [^`]*?'catalog\.api:create_app\(\)'", README.read_text()
    )
    assert command, "the README shows how to run gunicorn"
    timeout = int(re.search(r"--timeout (\d+)", command.group()).group(1))
    wait = max(CLAIM_WAIT_SECONDS, OVERRUN * INLINE_SECONDS)
    assert timeout >= 2 * (wait + OVERRUN * INLINE_SECONDS + 5)
