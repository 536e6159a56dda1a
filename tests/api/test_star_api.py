"""Games of ``beatty`` and ``star`` read over HTTP. The API is read-only (no
route takes a definition: they are added with ``wythoff add``), so what is
checked here is what it answers about them: the theorem far out, positions
below n as the engine computes them, and a request over its budget refused
with a 4xx naming budget and estimate, before anything is computed."""

from __future__ import annotations

import json

import pytest

import catalog
from catalog import service
from catalog.compute.modes import MAX_SUBTRACTION_N
from catalog.store import repository as repo
from tests.api.conftest import make_app
from tests.kinds import beattyref


@pytest.fixture
def star_app(seeded_url):
    """A seeded catalog with ⋆ of the Beatty game of √2 and Maharaja⋆."""
    app = make_app(seeded_url, False, INLINE_SECONDS=2)
    store = app.extensions["catalog"]
    ids = [
        service.add(store, json.dumps(d))["id"]
        for d in ({"star": {"beatty": "sqrt(2)"}}, {"star": "maharaja.1.2"})
    ]
    yield app, ids
    store.dispose()


def test_star_entries_over_http(star_app):
    app, (lhf, maharaja) = star_app
    client = app.test_client()
    doc = client.get(f"/api/v1/entries/{lhf}").get_json()
    assert doc["invariants"]["far_out"]["status"] == "theorem"
    assert "Larsson, Hegarty and Fraenkel" in doc["invariants"]["far_out"]["source"]
    for wid, definition in (
        (lhf, {"star": {"beatty": "sqrt(2)"}}),
        (
            maharaja,
            {"star": {"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[1, 2], [2, 1]]}},
        ),
    ):
        response = client.get(f"/api/v1/entries/{wid}/p-positions?n=80")
        assert response.status_code == 200
        assert response.get_json()["positions"] == (
            catalog.p_positions(definition, 80).tolist()
        )
    exact = beattyref.ALPHAS["sqrt(2)"]
    x = 10**300 - 1
    while (y := beattyref.partner(exact, x)) >= 10**300:
        x -= 1
    answer = client.get(f"/api/v1/entries/{lhf}/positions/{x}/{y}").get_json()
    assert answer == {"id": lhf, "position": [x, y], "outcome": "P", "move_to": None}
    answer = client.get(f"/api/v1/entries/{lhf}/positions/{y}/{x + 1}").get_json()
    assert answer["outcome"] == "N"
    assert beattyref.is_pair(exact, *answer["move_to"])


def test_a_star_over_the_budget_is_refused_naming_budget_and_estimate(star_app):
    app, (lhf, maharaja) = star_app
    client = app.test_client()
    for wid in (lhf, maharaja):
        response = client.get(
            f"/api/v1/entries/{wid}/p-positions?n={MAX_SUBTRACTION_N}"
        )
        assert response.status_code == 422
        error = response.get_json()["error"]
        assert "budget" in error and "estimate" in error and wid in error
        with app.extensions["catalog"].sessions() as session:
            assert repo.get_extent(session, int(wid[1:])) is None  # nothing kept
