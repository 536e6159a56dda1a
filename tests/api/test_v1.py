"""The routes: whole payloads, paging, caching, CORS, and every bad input."""

import pytest

from catalog import p_positions
from catalog.store.seed import read_seed, seed_dir

MAHARAJA = read_seed(seed_dir() / "W000004.json")["definition"]


def test_entry_is_the_show_document(client, app):
    from catalog import service

    body = client.get("/api/v1/entries/W000002").get_json()
    shown = service.show(app.extensions["catalog"], "W000002")
    assert body == {**shown, "page": "/W000002"}


def test_positions_whole_payload(client):
    response = client.get("/api/v1/entries/W000004/p-positions?n=30")
    assert response.status_code == 200
    assert response.get_json() == {
        "id": "W000004",
        "n": 30,
        "positions": p_positions(MAHARAJA, 30).tolist(),
        "next": None,
    }


def test_paging_walks_every_position(client):
    url = "/api/v1/entries/W000004/p-positions?n=3000&limit=700"
    seen = []
    while url:
        body = client.get(url).get_json()
        assert len(body["positions"]) <= 700
        seen += body["positions"]
        url = body["next"]
    assert seen == p_positions(MAHARAJA, 3000).tolist()


def test_paging_inside_a_column(client):
    """W000015 forces a 100 x 100 corner P: column 0 has 100 P-positions."""
    body = client.get("/api/v1/entries/W000015/p-positions?n=120&limit=30").get_json()
    assert body["positions"][-1][0] == 0 and body["next"].endswith(
        "start_y=30&limit=30&format=json"
    )
    second = client.get(body["next"]).get_json()
    assert second["positions"][0] == [0, 30]


def test_formats(client):
    csv = client.get("/api/v1/entries/W000004/p-positions?n=10&format=csv")
    assert csv.mimetype == "text/csv"
    expected = "".join(f"{x},{y}\n" for x, y in p_positions(MAHARAJA, 10).tolist())
    assert csv.get_data(as_text=True) == "x,y\n" + expected
    bfile = client.get("/api/v1/entries/W000004/p-positions?n=12&format=bfile")
    lower = sorted(
        {x for x, y in p_positions(MAHARAJA, 48).tolist() if x <= y and x < 12}
    )
    assert bfile.get_data(as_text=True).splitlines()[1:] == [
        f"{i} {a}" for i, a in enumerate(lower)
    ]


def test_is_p(client):
    assert client.get("/api/v1/entries/W000004/positions/8/13").get_json() == {
        "id": "W000004",
        "position": [8, 13],
        "outcome": "P",
        "move_to": None,
    }
    body = client.get("/api/v1/entries/W000004/positions/8/14").get_json()
    assert body["outcome"] == "N" and body["move_to"] == [8, 13]
    huge = client.get(f"/api/v1/entries/W000001/positions/{10**25}/{10**25}").get_json()
    assert huge["outcome"] == "N" and huge["move_to"] == [0, 0]


def test_sequences_and_bitstring(client):
    client.get("/api/v1/entries/W000004/p-positions?n=100")
    seq = client.get("/api/v1/entries/W000004/sequences/y?limit=5").get_json()
    assert seq["terms"] == [0, 3, 6, 1, 5] and seq["next"] == 5
    bits = client.get("/api/v1/entries/W000004/bitstring").get_json()
    assert bits["bits"][8 - bits["start"] : 8 - bits["start"] + 10] == "0010010010"


def test_entries_cursor_pages(client):
    ids, url = [], "/api/v1/entries?limit=7"
    while url:
        body = client.get(url).get_json()
        ids += [e["id"] for e in body["entries"]]
        url = f"/api/v1/entries?limit=7&cursor={body['next']}" if body["next"] else None
    assert ids == [f"W{i:06d}" for i in range(1, len(ids) + 1)] and len(ids) >= 20
    maharaja = client.get("/api/v1/entries?keyword=maharaja&q=nim").get_json()
    assert "W000004" in [e["id"] for e in maharaja["entries"]]
    none = client.get("/api/v1/entries?q=%25").get_json()  # % is matched literally
    assert none["entries"] == []


def test_etag_and_cache_control(client):
    first = client.get("/api/v1/entries/W000004/p-positions?n=50")
    assert first.headers["ETag"] and "max-age" in first.headers["Cache-Control"]
    again = client.get(
        "/api/v1/entries/W000004/p-positions?n=50",
        headers={"If-None-Match": first.headers["ETag"]},
    )
    assert again.status_code == 304 and again.get_data() == b""


def test_cors(client):
    response = client.get(
        "/api/v1/entries/W000001", headers={"Origin": "https://x.org"}
    )
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    preflight = client.options("/api/v1/entries/W000001")
    assert "GET" in preflight.headers["Access-Control-Allow-Methods"]


def test_too_much_work_is_422_naming_the_limit(client):
    """More cases in tests/api/test_bounded.py."""
    response = client.get("/api/v1/entries/W000009/p-positions?n=1000000")
    assert response.status_code == 422
    assert "the budget of a request is 2 s" in response.get_json()["error"]


@pytest.mark.parametrize(
    ("url", "status", "message"),
    [
        ("/api/v1/entries/W999999", 404, "no entry W999999"),
        ("/api/v1/entries/banana", 400, "not an entry ID"),
        ("/api/v1/entries/W000001/p-positions", 400, "n: required"),
        ("/api/v1/entries/W000001/p-positions?n=abc", 400, "n: must be an integer"),
        ("/api/v1/entries/W000001/p-positions?n=-4", 400, "n: must be non-negative"),
        (
            "/api/v1/entries/W000001/p-positions?n=99999999999",
            400,
            "n: must be at most",
        ),
        (
            "/api/v1/entries/W000001/p-positions?n=5&limit=0",
            400,
            "limit: must be at least 1",
        ),
        (
            "/api/v1/entries/W000001/p-positions?n=5&format=xml",
            400,
            "format: must be one of",
        ),
        ("/api/v1/entries/W000001/positions/-1/3", 400, "x: must be non-negative"),
        ("/api/v1/entries/W000001/positions/1.5/3", 400, "x: must be an integer"),
        ("/api/v1/entries/W000001/sequences/zz", 404, "no stored sequence 'zz'"),
        ("/api/v1/entries?cursor=nonsense", 422, "cursor: not a cursor"),
        ("/api/v1/entries?limit=0", 400, "limit: must be at least 1"),
        ("/api/v1/search", 400, "q: required"),
        ("/api/v1/search?q=", 422, "q: empty query"),
        ("/api/v1/search?q=1,-2,3", 422, "q: each term: must be non-negative"),
        ("/api/v1/nowhere", 404, "not found: /api/v1/nowhere"),
    ],
)
def test_bad_input_is_a_4xx_with_one_error_key(client, url, status, message):
    response = client.get(url)
    assert response.status_code == status
    body = response.get_json()
    assert list(body) == ["error"] and message in body["error"]


def test_methods_other_than_get_are_405_json(client):
    response = client.post("/api/v1/entries/W000001")
    assert response.status_code == 405 and list(response.get_json()) == ["error"]


def test_export_route(client):
    text = client.get("/api/v1/entries/W000004/export?format=oeis&n=300")
    assert text.status_code == 200 and text.mimetype == "text/plain"
    assert text.get_data(as_text=True).startswith("%I W000004\n%S W000004 0,1,2,4,")
    bad = client.get("/api/v1/entries/W000004/export?format=pdf")
    assert (
        bad.status_code == 400 and "format: must be one of" in bad.get_json()["error"]
    )


def test_grundy_route(client):
    assert client.get("/api/v1/entries/W000001/grundy?n=3").get_json() == {
        "id": "W000001",
        "n": 3,
        "grundy": [[0, 1, 2], [1, 2, 0], [2, 0, 1]],
    }
    altered = client.get("/api/v1/entries/W000002/grundy?n=3")
    # A well-formed request for a game without Grundy values: 422, not 400.
    assert altered.status_code == 422 and "not defined" in altered.get_json()["error"]
    too_big = client.get("/api/v1/entries/W000001/grundy?n=10001")
    assert too_big.status_code == 400
    assert "n: must be at most 10000" in too_big.get_json()["error"]
    # Within the bound but over the work budget (2 s): refused before any work.
    over = client.get("/api/v1/entries/W000001/grundy?n=10000")
    assert over.status_code == 422
    assert "Grundy values of W000001 up to n=10000" in over.get_json()["error"]
    assert "budget of a request is 2 s" in over.get_json()["error"]
