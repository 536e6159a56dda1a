"""Every kind of bad input, on both databases: the status and the whole
``{"error": …}`` payload. Nothing here may reach the database as a 500."""

import base64
import json
import socket
from urllib.parse import quote, unquote

import pytest

from catalog.api.serving import JSONErrorsHandler
from tests.api.conftest import serve


def cursor(data) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode()


NOT_A_CURSOR = {"error": "cursor: not a cursor this API gave out"}
ARABIC_30 = quote("٣٠")
WIDE_ID = "W" + quote("００００") + "01"

CASES = [
    # NUL bytes: PostgreSQL refuses them, SQLite's LIKE stops at them.
    ("/entries?keyword=%00", {"error": "keyword: must not contain NUL characters"}),
    ("/entries?q=%00", {"error": "q: must not contain NUL characters"}),
    ("/entries?q=nim%00", {"error": "q: must not contain NUL characters"}),
    ("/search?q=%00", {"error": "q: must not contain NUL characters"}),
    ("/search?q=keyword:%00", {"error": "q: must not contain NUL characters"}),
    # Lengths: "LIKE pattern too complex", "expression tree too large".
    (
        "/entries?q=" + "x" * 60_000,
        {"error": "q: must be at most 2000 characters long"},
    ),
    ("/search?q=" + "x" * 60_000, {"error": "q: must be at most 2000 characters long"}),
    ("/entries?q=" + "a+" * 1500, {"error": "q: must be at most 2000 characters long"}),
    ("/search?q=" + "a+" * 1500, {"error": "q: must be at most 2000 characters long"}),
    ("/entries?q=" + "a+" * 17, {"error": "q: at most 16 words"}),
    ("/search?q=" + "a+" * 17, {"error": "q: at most 16 words"}),
    (
        "/entries?keyword=" + "k" * 65,
        {"error": "keyword: must be at most 64 characters long"},
    ),
    # Cursors: only what the API gave out, numbers an ID can write.
    ("/entries?cursor=" + cursor({"after": 2147483648}), NOT_A_CURSOR),
    ("/entries?cursor=" + cursor({"after": 10**23}), NOT_A_CURSOR),
    ("/entries?cursor=" + cursor({"after": -1}), NOT_A_CURSOR),
    ("/entries?cursor=" + cursor({"after": True}), NOT_A_CURSOR),
    ("/entries?cursor=" + cursor({"after": 1.5}), NOT_A_CURSOR),
    ("/entries?cursor=" + cursor({"after": 1, "x": 2}), NOT_A_CURSOR),
    ("/entries?cursor=" + cursor([[[[[[[[[[1]]]]]]]]]]), NOT_A_CURSOR),
    ("/entries?cursor=" + "A" * 10_000, NOT_A_CURSOR),
    ("/entries?cursor=" + quote("é"), NOT_A_CURSOR),
    ("/entries?cursor=nonsense", NOT_A_CURSOR),
    # Numbers: ASCII digits only, within the stated range.
    (
        "/search?q=1,2,3&offset=1" + "0" * 400,
        {"error": "offset: must be at most 10000"},
    ),
    ("/search?q=1,2,3&offset=10001", {"error": "offset: must be at most 10000"}),
    ("/search?q=1,2,3&limit=1001", {"error": "limit: must be at most 1000"}),
    ("/entries?limit=1001", {"error": "limit: must be at most 1000"}),
    (
        f"/entries/W000001/p-positions?n={ARABIC_30}",
        {"error": "n: must be an integer, not '٣٠'"},
    ),
    (
        "/entries/W000001/p-positions?n=1_000",
        {"error": "n: must be an integer, not '1_000'"},
    ),
    (
        "/entries/W000001/p-positions?n=" + quote("²"),
        {"error": "n: must be an integer, not '²'"},
    ),
    ("/entries/W000001/p-positions?n=-4", {"error": "n: must be non-negative"}),
    (
        "/entries/W000001/p-positions?n=5&start=" + "9" * 401,
        {"error": "start: must be at most 1000000000000000000"},
    ),
    (
        f"/entries/W000001/positions/{ARABIC_30}/3",
        {"error": "x: must be an integer, not '٣٠'"},
    ),
    (
        "/entries/W000001/positions/3/" + "9" * 401,
        {"error": "y: must have at most 400 digits"},
    ),
    (
        f"/adjoinable/{ARABIC_30}/3",
        {"error": "i: must be an integer, not '٣٠'"},
    ),
    (
        f"/entries/W000004/sequences/y?start={ARABIC_30}",
        {"error": "start: must be an integer, not '٣٠'"},
    ),
    (
        f"/entries/W000001/grundy?n={ARABIC_30}",
        {"error": "n: must be an integer, not '٣٠'"},
    ),
    (
        f"/entries/W000001/export?n={ARABIC_30}",
        {"error": "n: must be an integer, not '٣٠'"},
    ),
    # IDs: W and six ASCII digits.
    (
        f"/entries/{WIDE_ID}",
        {
            "error": "not an entry ID or label: 'W００００01' (expected an entry ID "
            "such as W000001, or a family member's label such as maharaja.1.2)"
        },
    ),
    (
        "/entries/W00000" + quote("١"),
        {
            "error": "not an entry ID or label: 'W00000١' (expected an entry ID "
            "such as W000001, or a family member's label such as maharaja.1.2)"
        },
    ),
    (
        "/search?q=id:" + WIDE_ID,
        {
            "error": "q: not an entry ID: 'W００００01' (expected W and six digits, "
            "e.g. W000001)"
        },
    ),
    (
        "/search?q=" + quote("١,٢,٣"),
        {
            "error": "q: write terms with the ASCII digits 0-9, separated by "
            "commas or spaces"
        },
    ),
    (
        "/search?q=1,2," + "9" * 30,
        {"error": "q: each term: must be at most 4611686018427387903"},
    ),
]


def expected_status(path: str, error: str) -> int:
    """400 for what breaks a rule the OpenAPI document states; 422 for what
    the document states in words: the search grammar of ``q``, and a cursor
    of the right form that this API did not give out."""
    if path.startswith("/search?") and error.startswith("q:"):
        return 422
    if error.startswith("cursor:"):
        cursor = unquote(path.partition("cursor=")[2])
        return 422 if len(cursor) <= 64 and cursor.isascii() else 400
    return 400


@pytest.mark.parametrize(("path", "payload"), CASES)
def test_bad_input_is_4xx_with_the_whole_error(client, path, payload):
    response = client.get("/api/v1" + path)
    assert (response.status_code, response.get_json()) == (
        expected_status(path, payload["error"]),
        payload,
    )


def test_nothing_matches_nul_on_either_database(client):
    """``q=%00`` returned every entry on SQLite: now it is refused, and a
    harmless query still finds what it should."""
    assert client.get("/api/v1/entries?q=%00").status_code == 400
    body = client.get("/api/v1/entries?q=maharaja&limit=1000").get_json()
    assert body["entries"] and all(
        "maharaja" in e["name"].lower() for e in body["entries"]
    )


def raw_request(base: str, data: bytes) -> tuple[str, dict[str, str], bytes]:
    """Send ``data`` as it is; return (status line, headers, body)."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as conn:
        conn.sendall(data)
        reply = b""
        while chunk := conn.recv(65536):
            reply += chunk
    head, _, body = reply.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines)
    return status, headers, body


@pytest.fixture(scope="module")
def live(app):
    """``app`` behind the server of ``wythoff serve``."""
    base, stop = serve(app, threaded=False, request_handler=JSONErrorsHandler)
    yield base
    stop()


@pytest.mark.parametrize(
    ("request_bytes", "status", "error"),
    [
        (
            b"GET /api/v1/search?q=" + b"1" * 70_000 + b" HTTP/1.1\r\n\r\n",
            "414 Request-URI Too Long",
            "Request-URI Too Long: URI is too long",
        ),
        (
            b"GET /api/v1/entries HTTP/1.1\r\nX-Big: " + b"x" * 70_000 + b"\r\n\r\n",
            "431 Line too long",
            "Line too long: got more than 65536 bytes when reading header line",
        ),
        (
            b"GET /api/v1/entries HTTP/1.1\r\n" + b"X-A: 1\r\n" * 200 + b"\r\n",
            "431 Too many headers",
            "Too many headers: got more than 100 headers",
        ),
        (
            b"GET /api/v1/entries HTTP/9.9\r\n\r\n",
            "505 Invalid HTTP version (9.9)",
            "Invalid HTTP version (9.9): Cannot fulfill request",
        ),
    ],
)
def test_the_servers_own_errors_are_json(live, request_bytes, status, error):
    got_status, headers, body = raw_request(live, request_bytes)
    assert got_status.split(" ", 1)[1] == status
    assert headers["Content-Type"] == "application/json"
    assert json.loads(body) == {"error": error}
