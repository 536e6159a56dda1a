"""``POST /api/v1/identify`` and the extensions route: whole answers for the
papers' games, every bad body a 400, the client's methods on a live server."""

from __future__ import annotations

import io
import json
import urllib.error
import urllib.request

import numpy as np
import pytest

from catalog import p_positions
from catalog.client import Catalog, CatalogError
from catalog.errors import BadInput
from catalog.service import identify as found
from tests.api.conftest import make_app, serve
from tests.conftest import BACKENDS, new_database_url
from tests.databases import seeded


@pytest.fixture(scope="module", params=BACKENDS)
def app(request, tmp_path_factory):
    """A seeded catalog whose requests may search for a minute: the answers
    checked here are exact ones, which a loaded machine must not cut short
    (the budget's own effect is tested in tests/compute/test_identify.py)."""
    folder = tmp_path_factory.mktemp("identify")
    url = new_database_url(request.param, request, folder, seeded)
    app = make_app(url, False, INLINE_SECONDS=60)
    yield app
    app.extensions["catalog"].dispose()


@pytest.fixture
def client(app):
    return app.test_client()


WYTHOFF_6 = [[0, 0], [1, 2], [2, 1], [3, 5], [5, 3]]
WYTHOFF_RULES = {"rays": [[0, 1], [1, 0], [1, 1]], "moves": [], "special": []}
STAR_PHI = {"rays": [], "moves": [], "special": [], "star": {"beatty": "(1+sqrt(5))/2"}}


def post(client, body, **headers):
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post(
        "/api/v1/identify", data=data, content_type="application/json", **headers
    )


def test_wythoff_below_6(client):
    response = post(client, {"positions": WYTHOFF_6})
    assert response.status_code == 200
    doc = response.get_json()
    assert [e["id"] for e in doc["catalog"]] == []  # nothing computed yet
    assert doc["games"] == [{"definition": WYTHOFF_RULES, "size": 2, "id": "W000001"}]
    assert (doc["n"], doc["cells"], doc["invariant"], doc["exact"]) == (
        6,
        5,
        True,
        True,
    )


def test_misere_wythoff_is_wythoff_with_the_corner_forced_n(client):
    cells = p_positions({"rays": [[1, 0], [0, 1], [1, 1]], "alter": {"N": [[0, 0]]}}, 8)
    doc = post(client, {"positions": cells.tolist(), "limit": 1}).get_json()
    assert doc["invariant"] is False and doc["games"] == []
    assert doc["altered"] == [
        {
            "definition": {**WYTHOFF_RULES, "alter": {"P": [], "N": [[0, 0]]}},
            "size": 3,
            "id": "W000002",
            "forced": 1,
        }
    ]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("not json", "body: not valid JSON"),
        ("", "body: must not be empty"),
        (b"\xff\xfe{}", "body: must be JSON in UTF-8"),
        ("[" * 100_000 + "]" * 100_000, "body: nested 100000 levels deep (at most 8)"),
        ('{"positions": [[[[[[[[0, 0]]]]]]]]}', "body: nested 9 levels deep"),
        (
            '{"positions": [[0, 0]], "positions": [[1, 1]]}',
            "body: key 'positions' given twice",
        ),
        ('{"positions": [[0, 0]], "n": 1' + "0" * 500 + "}", "body: a number has"),
        ([[0, 0]], "body: must be a JSON object"),
        ({}, "positions: must be a list of pairs"),
        ({"positions": [[0, 0]], "extra": 1}, "extra: unknown field"),
        ({"positions": [0, 0]}, "positions: must be a list of pairs"),
        ({"positions": []}, "positions: give at least one"),
        ({"positions": [[0, -1]]}, "positions[0]: (0, -1) has a negative"),
        ({"positions": [[0, 1.5]]}, "positions[0]: must be a pair of integers"),
        ({"positions": [[0, True]]}, "positions[0]: must be a pair of integers"),
        ({"positions": [[0, 0, 0]]}, "positions[0]: must be a pair of integers"),
        ({"positions": [[0, 9]], "n": 5}, "positions[0]: (0, 9) lies outside"),
        ({"positions": [[0, 0]], "n": 0}, "n: from 1 to 256"),
        ({"positions": [[0, 0]], "n": 257}, "n: from 1 to 256"),
        ({"positions": [[0, 0]], "n": "5"}, "n: must be an integer"),
        ({"positions": [[0, 0]], "limit": 51}, "limit: from 1 to 50"),
        ({"positions": [[0, 0]], "symmetric": 1}, "symmetric: must be true or false"),
        ({"positions": [[300, 0]]}, "positions: a coordinate is 300; the window"),
        ({"positions": [[0, 0]], "limit": None}, "limit: must be an integer"),
        ({"positions": [[0, 0]], "n": None}, "n: must be an integer"),
    ],
)
def test_bad_bodies_are_4xx_naming_the_field(client, body, message):
    response = post(client, body)
    # A position outside the window matches the document field by field: 422.
    assert response.status_code == (422 if "lies outside" in message else 400)
    assert response.get_json()["error"].startswith(message), response.get_json()


#: Bodies that were a 500 (a RecursionError while decoding) or taken with
#: their last value: refused by a real server as by the test client.
REFUSED = {
    "[" * 100_000 + "]" * 100_000: "body: nested 100000 levels deep (at most 8)",
    '{"positions": [[0, 0]], "positions": [[1, 1]]}': (
        "body: key 'positions' given twice"
    ),
}


def test_deep_and_repeated_bodies_are_400_over_http(app, caplog):
    base, stop = serve(app)
    answers = []
    try:
        for body in REFUSED:
            request = urllib.request.Request(
                f"{base}/api/v1/identify",
                data=body.encode(),
                headers={"Content-Type": "application/json"},
            )
            with pytest.raises(urllib.error.HTTPError) as caught:
                urllib.request.urlopen(request, timeout=30)
            answers.append((caught.value.code, json.loads(caught.value.read())))
    finally:
        stop()
    assert answers == [(400, {"error": message}) for message in REFUSED.values()]
    assert "unhandled error" not in caplog.text


def test_a_body_over_the_limit_is_refused_before_it_is_read(client):
    response = post(client, "[" + "0," * 1_100_000 + "0]")
    assert response.status_code == 400
    assert "body: at most" in response.get_json()["error"]


def test_a_chunked_body_stops_at_the_limit(client):
    """No Content-Length to check: the stream is cut at the limit."""
    response = client.post(
        "/api/v1/identify",
        input_stream=io.BytesIO(b'{"positions": [' + b"[0, 0], " * 300_000 + b"]}"),
        content_type="application/json",
        headers={"Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True},
    )
    assert response.status_code == 400
    assert response.get_json() == {"error": "body: at most 2097152 bytes"}


def test_other_methods_are_405_naming_post(client):
    response = client.get("/api/v1/identify")
    assert response.status_code == 405
    assert response.headers["Allow"] == "OPTIONS, POST"
    assert response.get_json() == {"error": "GET is not allowed here: OPTIONS, POST"}


def test_numpy_data_and_negative_data_without_n():
    """The service's window: n from numpy coordinates too; data that is all
    negative is refused naming the position, not an n nobody gave."""
    data = found.window(np.array(WYTHOFF_6), None)
    assert data.n == 6 and data.cells.tolist() == WYTHOFF_6
    with pytest.raises(BadInput, match=r"positions\[0\]: \(-3, -2\) has a negative"):
        found.window([[-3, -2]], None)


def test_extensions_route(client):
    response = client.get("/api/v1/entries/W000001/extensions?n=12")
    assert response.status_code == 200
    doc = response.get_json()
    assert doc["id"] == "W000001" and doc["n"] == 12 and doc["droppable"] == []
    free = {tuple(m) for m in doc["adjoinable"]["moves"]}
    for i in range(12):
        for j in range(12):
            if (i, j) == (0, 0):
                continue
            theirs = client.get(f"/api/v1/adjoinable/{i}/{j}").get_json()
            already = i == 0 or j == 0 or i == j  # on a ray of Wythoff's Nim
            assert theirs["reason"].startswith("already") == already, (i, j)
            ours = {(i, j), (j, i)} <= free or already
            assert ours == theirs["adjoinable"], (i, j)
    for query, status in [("", 400), ("?n=0", 400), ("?n=x", 400), ("?n=257", 400)]:
        assert client.get(f"/api/v1/entries/W000001/extensions{query}").status_code == (
            status
        )
    assert client.get("/api/v1/entries/W999999/extensions?n=5").status_code == 404


def test_the_client_identifies_and_refuses_floats(app):
    url, stop = serve(app)
    try:
        cat = Catalog(url)
        doc = cat.identify(WYTHOFF_6)
        assert doc["games"][0]["id"] == "W000001"
        assert cat.identify([[0, 0], [1, 2], [3, 5]], symmetric=True)["cells"] == 5
        sized = cat.identify(np.array(WYTHOFF_6), n=np.int64(7), limit=np.int64(1))
        assert (sized["n"], len(sized["games"])) == (7, 1)
        assert cat.extensions("W000004", 12)["id"] == "W000004"
        with pytest.raises(CatalogError, match="not floats"):
            cat.identify([[0, 0.5]])
        with pytest.raises(CatalogError) as caught:
            cat.identify([[0, -1]])
        assert caught.value.status == 400
    finally:
        stop()


def test_beatty_data_propose_star_of_the_beatty_game_in_the_same_shape(client):
    """Wythoff's P-positions below 60 are Beatty pairs (of φ): ⋆ of the
    Beatty game of φ first (one rule, not stored), then Wythoff's rays
    (W000001); every key of the answer and of a game as for other data."""
    cells = p_positions({"rays": [[1, 0], [0, 1], [1, 1]]}, 60)
    doc = post(client, {"positions": cells.tolist(), "limit": 2}).get_json()
    assert doc["games"] == [
        {"definition": STAR_PHI, "size": 1, "id": None},
        {"definition": WYTHOFF_RULES, "size": 2, "id": "W000001"},
    ]
    assert doc["exact"] is True and doc["altered"] == []
    other = post(client, {"positions": WYTHOFF_6}).get_json()
    assert doc.keys() == other.keys()
    assert any("Larsson–Hegarty–Fraenkel" in note for note in doc["notes"])
