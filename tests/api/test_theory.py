"""The theory layer over HTTP: the adjoinable route, the invariants of
``/entries/{id}`` and far-out positions of altered games."""

import importlib
from collections import OrderedDict

import pytest

from catalog import p_positions, service
from catalog.compute import closed
from catalog.compute.altered import saturation
from catalog.compute.farout import FarOut
from catalog.compute.reference import options
from catalog.games.definition import canonicalize
from catalog.store.seed import read_seed, seed_dir
from tests.papers import HST, MAHARAJA_WORDS, legal


def seed_definition(wid):
    return read_seed(seed_dir() / f"{wid}.json")["definition"]


def test_adjoinable_whole_documents(client):
    assert client.get("/api/v1/adjoinable/2/3").get_json() == {
        "move": [2, 3],
        "adjoinable": False,
        "reason": "joins two P-positions",
        "witness": {"from": [3, 5], "to": [1, 2]},
    }
    assert client.get("/api/v1/adjoinable/2/4").get_json() == {
        "move": [2, 4],
        "adjoinable": True,
        "reason": "keeps the P-positions",
        "witness": None,
    }
    assert client.get("/api/v1/adjoinable/1/3").get_json() == service.adjoinable(1, 3)
    big = 10**300
    huge = client.get(f"/api/v1/adjoinable/{big}/{big + 7}")
    assert huge.status_code == 200
    assert huge.get_json() == service.adjoinable(big, big + 7)


def test_adjoinable_is_cached_by_etag(client):
    first = client.get("/api/v1/adjoinable/2/3")
    assert first.headers["ETag"] and "max-age=60" in first.headers["Cache-Control"]
    again = client.get(
        "/api/v1/adjoinable/2/3", headers={"If-None-Match": first.headers["ETag"]}
    )
    assert again.status_code == 304 and again.get_data() == b""
    other = client.get("/api/v1/adjoinable/3/2")
    assert other.headers["ETag"] != first.headers["ETag"]


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("/api/v1/adjoinable/0/0", "(0, 0) is not a move"),
        ("/api/v1/adjoinable/-1/2", "i: must be non-negative"),
        ("/api/v1/adjoinable/2/-1", "j: must be non-negative"),
        ("/api/v1/adjoinable/a/2", "i: must be an integer"),
        ("/api/v1/adjoinable/2/1.5", "j: must be an integer"),
        ("/api/v1/adjoinable/2/0x10", "j: must be an integer"),
        (f"/api/v1/adjoinable/{'9' * 401}/1", "i: must have at most 400 digits"),
        (f"/api/v1/entries/W000017/positions/{10**300 + 1}/0", "x: must be at most"),
        ("/api/v1/entries/W000017/positions/5/-5", "y: must be non-negative"),
    ],
)
def test_bad_input_is_4xx_with_one_error_key(client, url, message):
    response = client.get(url)
    # (0, 0) matches the document's rules for i and j, each alone: 422.
    assert response.status_code == (422 if url.endswith("/0/0") else 400)
    body = response.get_json()
    assert list(body) == ["error"] and message in body["error"]


def test_entry_carries_the_invariants(client):
    box = client.get("/api/v1/entries/W000017").get_json()
    assert (box["offset"], box["defects"], box["saturation_column"]) == (
        {"dx": 12, "dy": 7},
        50,
        8,
    )
    assert {k: v["status"] for k, v in box["invariants"].items()} == {
        "offset": "theorem",
        "saturation": "theorem",
        "defects": "theorem",
        "overlap": "observed",
    }
    assert box["invariants"]["offset"]["source"] == f"{HST}, Theorem 2"
    corner = client.get("/api/v1/entries/W000016").get_json()
    assert (corner["offset"], corner["defects"], corner["saturation_column"]) == (
        {"dx": 0, "dy": 0},
        4,
        7,
    )
    assert corner["invariants"]["offset"]["source"] == f"{HST}, Theorem 3"
    ho = client.get("/api/v1/entries/W000022").get_json()
    assert (ho["offset"], ho["defects"], ho["saturation_column"]) == (None,) * 3
    assert ho["invariants"] == {} and "dictionary" not in ho
    maharaja = client.get("/api/v1/entries/W000004").get_json()
    assert maharaja["dictionary"] == MAHARAJA_WORDS
    assert maharaja["offset"] is None and "dictionary" not in box
    far = maharaja["invariants"]["far_out"]
    assert far["status"] == "theorem" and "(27)–(40)" in far["source"]
    assert "far_out" not in box["invariants"] and "far_out" not in ho["invariants"]


def test_first_and_later_reads_are_one_document(fresh_app):
    """The first read computes and stores, the next ones read the store: the
    same body, so the ETag still matches."""
    client = fresh_app.test_client()
    first = client.get("/api/v1/entries/W000004")
    later = client.get("/api/v1/entries/W000004")
    assert later.get_json() == first.get_json()
    assert later.headers["ETag"] == first.headers["ETag"]
    cached = client.get(
        "/api/v1/entries/W000017",
        headers={
            "If-None-Match": client.get("/api/v1/entries/W000017").headers["ETag"]
        },
    )
    assert cached.status_code == 304


@pytest.mark.parametrize("wid", ["W000002", "W000016", "W000019"])
def test_positions_far_out_on_altered_seeds(client, wid):
    computed = client.get(f"/api/v1/entries/{wid}").get_json()["computed"]
    far = FarOut(saturation(canonicalize(seed_definition(wid))))
    x = 10**18 + 7
    [y] = far.column(x)
    response = client.get(f"/api/v1/entries/{wid}/positions/{x}/{y}")
    assert response.status_code == 200 and response.get_json() == {
        "id": wid,
        "position": [x, y],
        "outcome": "P",
        "move_to": None,
    }
    assert "max-age=86400" in response.headers["Cache-Control"]
    for row in (0, x, y - 1, y + 1):
        body = client.get(f"/api/v1/entries/{wid}/positions/{x}/{row}").get_json()
        assert body["outcome"] == "N" and legal((x, row), body["move_to"])
        a, b = body["move_to"]
        target = client.get(f"/api/v1/entries/{wid}/positions/{a}/{b}").get_json()
        assert target["outcome"] == "P"
    assert client.get(f"/api/v1/entries/{wid}").get_json()["computed"] == computed


@pytest.mark.parametrize("wid", ["W000017", "W000021"])
def test_positions_near_the_corner_match_p_positions(client, wid):
    """The same route near the alteration agrees with the direct computation."""
    found = {tuple(p) for p in p_positions(seed_definition(wid), 24).tolist()}
    for x in range(0, 24, 3):
        for y in range(24):
            body = client.get(f"/api/v1/entries/{wid}/positions/{x}/{y}").get_json()
            assert body["outcome"] == ("P" if (x, y) in found else "N"), (x, y)


@pytest.mark.parametrize("wid", ["W000022", "W000023"])
def test_ho_variants_answer_far_out_by_ho_theorem_without_a_table(client, wid):
    computed = client.get(f"/api/v1/entries/{wid}").get_json()["computed"]
    game = canonicalize(seed_definition(wid))
    x = 10**200 + 3
    for y in (0, x - 1, x, 2 * x, 10**250):
        body = client.get(f"/api/v1/entries/{wid}/positions/{x}/{y}").get_json()
        label, move = closed.outcome(x, y)  # Wythoff's Nim's answer
        assert body["outcome"] == label
        if label == "N":
            (a, b) = body["move_to"]
            assert legal((x, y), (a, b)) and closed.outcome(a, b)[0] == "P"
            # The move is one the game allows: under the restriction never the
            # smaller pile alone.
            assert not (b == y and x < y) and not (a == x and y < x)
    # Nothing was computed for it: the theorem answered.
    assert client.get(f"/api/v1/entries/{wid}").get_json()["computed"] == computed
    # The theorem agrees with the game's literal rule where a table exists:
    # every cell by the function the route answers a Ho variant with (as
    # checked above), every 9th column through the route itself.
    table = {tuple(p) for p in p_positions(game, 90).tolist()}
    for x in range(90):
        for y in range(90):
            label, move = closed.outcome(x, y)
            if x % 9 == 0:
                body = client.get(f"/api/v1/entries/{wid}/positions/{x}/{y}")
                answer = body.get_json()
                assert answer["outcome"] == label, (x, y)
                assert answer["move_to"] == (list(move) if move else None), (x, y)
            assert label == ("P" if (x, y) in table else "N"), (x, y)
            if move is not None:  # ``in`` stops at the move (Ho's options: x*y)
                assert tuple(move) in options(game, x, y) and tuple(move) in table


def test_a_kl_maharaja_game_far_out_reads_its_dictionary_off_the_stored_table(
    fresh_app, monkeypatch
):
    # (2,3)-Maharaja Nim: the dictionary closes (observed); the table it is
    # read from is filled through the store, within the request's budget.
    module = importlib.import_module("catalog.service.solvers")
    monkeypatch.setattr(module, "_SOLVED", OrderedDict())  # as a new process
    client = fresh_app.test_client()
    x = 10**40 + 1
    rows = [
        y
        for y in range(x - 8, x + 8)
        if client.get(f"/api/v1/entries/W000005/positions/{x}/{y}").get_json()[
            "outcome"
        ]
        == "P"
    ]
    assert len(rows) <= 1  # at most one P-position a column near the diagonal
    body = client.get(f"/api/v1/entries/W000005/positions/{x}/0").get_json()
    assert body["outcome"] == "N"
    a, b = body["move_to"]
    assert (
        client.get(f"/api/v1/entries/W000005/positions/{a}/{b}").get_json()["outcome"]
        == "P"
    )
    computed = client.get("/api/v1/entries/W000005").get_json()["computed"]
    assert computed["x_bound"] >= 100_000  # stored for the next process


def test_openapi_documents_the_adjoinable_route(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    route = doc["paths"]["/api/v1/adjoinable/{i}/{j}"]["get"]
    assert {p["name"] for p in route["parameters"]} == {"i", "j"}
    schema = doc["components"]["schemas"]["Adjoinable"]
    answer = client.get("/api/v1/adjoinable/2/3").get_json()
    assert set(schema["required"]) == set(answer)
    assert {"dictionary", "invariants"} <= set(
        doc["components"]["schemas"]["Entry"]["properties"]
    )
