"""The API with a queue (WYTHOFF_QUEUE=1): 202 then 200, with a worker."""

import json
import os
import subprocess
import sys

import pytest

from catalog import p_positions
from catalog.compute import cost
from catalog.games.definition import canonicalize
from catalog.store.seed import read_seed, seed_dir
from tests.api.conftest import make_app
from tests.conftest import BACKENDS, new_database_url
from tests.databases import seeded

DEADLINE = 300  # seconds, for a loaded machine; not a speed goal
#: The apps' work budget: small, so that a fill of N columns (some 0.1 s
#: by the cost model) is over it and queued, not computed inline.
BUDGET = 0.02
N = 20000
ROUTE = f"/api/v1/entries/W000004/p-positions?n={N}&limit=100000"


@pytest.fixture
def queue_app(seeded_url):
    """A seeded catalog with a queue, of its own (the test queues jobs)."""
    app = make_app(seeded_url, False, INLINE_SECONDS=BUDGET, QUEUE=True)
    yield app
    app.extensions["catalog"].dispose()


@pytest.fixture(scope="module", params=BACKENDS)
def read_queue_app(request, tmp_path_factory):
    """A seeded catalog with a queue, shared by the module's tests that
    only read."""
    folder = tmp_path_factory.mktemp("queue")
    url = new_database_url(request.param, request, folder, seeded)
    app = make_app(url, False, INLINE_SECONDS=BUDGET, QUEUE=True)
    yield app
    app.extensions["catalog"].dispose()


def test_a_big_request_is_queued_then_answered_by_a_worker(queue_app):
    client = queue_app.test_client()
    first = client.get(ROUTE)
    assert first.status_code == 202
    job = first.get_json()
    assert (job["entry"], job["n"], job["state"]) == ("W000004", N, "queued")
    game = canonicalize(read_seed(seed_dir() / "W000004.json")["definition"])
    expected_wait = cost.fill_seconds(game, 0, None, N)
    assert int(first.headers["Retry-After"]) == max(1, int(-(-expected_wait // 1)))
    assert first.headers["Location"] == f"/api/v1/jobs/{job['id']}"
    assert "max-age" not in first.headers.get("Cache-Control", "")
    again = client.get(ROUTE)
    assert again.status_code == 202 and again.get_json()["id"] == job["id"]
    polled = client.get(first.headers["Location"])
    assert polled.status_code == 200 and polled.get_json()["state"] == "queued"
    assert int(polled.headers["Retry-After"]) >= 1

    url = queue_app.extensions["catalog"].settings.database_url
    worker = subprocess.run(
        [sys.executable, "-m", "catalog.cli", "worker", "--json", "--max-idle", "0"],
        env={**os.environ, "WYTHOFF_DATABASE_URL": url},
        capture_output=True,
        text=True,
        timeout=DEADLINE,
    )
    assert worker.returncode == 0, worker.stderr
    assert json.loads(worker.stdout)["done"] == 1

    done = client.get(first.headers["Location"])
    assert done.get_json()["state"] == "done" and "Retry-After" not in done.headers
    answer = client.get(ROUTE)
    assert answer.status_code == 200
    assert (
        answer.get_json()["positions"]
        == p_positions(game.to_json(), N)[:100000].tolist()
    )


def test_without_a_queue_the_request_is_refused_as_before(seeded_url):
    app = make_app(seeded_url, False, INLINE_SECONDS=BUDGET)
    try:
        response = app.test_client().get(ROUTE)
        assert response.status_code == 422
        assert "WYTHOFF_INLINE_SECONDS" in response.get_json()["error"]
        assert app.test_client().get("/api/v1/jobs/1").status_code == 404
    finally:
        app.extensions["catalog"].dispose()


@pytest.mark.parametrize(
    ("path", "status"),
    [("/api/v1/jobs/0", 400), ("/api/v1/jobs/x", 400), ("/api/v1/jobs/999", 404)],
)
def test_the_job_route_refuses_what_is_no_job(read_queue_app, path, status):
    response = read_queue_app.test_client().get(path)
    assert response.status_code == status
    assert set(response.get_json()) == {"error"}


def test_the_openapi_document_states_the_202(read_queue_app):
    doc = read_queue_app.test_client().get("/api/v1/openapi.json").get_json()
    route = doc["paths"]["/api/v1/entries/{wid}/p-positions"]["get"]
    assert set(route["responses"]["202"]["headers"]) == {"Retry-After", "Location"}
    assert "/api/v1/jobs/{job_id}" in doc["paths"]
