"""``/api/v1``: the contract's read routes, over :mod:`catalog.service`."""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any, cast

from flask import Blueprint, Response, current_app, jsonify, request, url_for

from catalog import service
from catalog.api.cache import Rendered, ResponseCache
from catalog.api.errors import BadParameter
from catalog.api.openapi import document
from catalog.errors import Unprocessable
from catalog.families import MAX_ID
from catalog.inputs import MAX_SEARCH_LIMIT, MAX_SEARCH_OFFSET, parse_int, parse_words

bp = Blueprint("v1", __name__, url_prefix="/api/v1")

FORMATS = ("json", "csv", "bfile")
#: Largest start of a page: coordinates and indices are 64-bit in the store.
MAX_INDEX = 10**18


def _store() -> service.Store:
    return current_app.extensions["catalog"]


def int_arg(
    name: str,
    default: int | None = None,
    minimum: int = 0,
    maximum: int | None = None,
    value: str | None = None,
) -> int:
    """An integer query (or path) parameter in ASCII digits, or a 400 naming
    it (:func:`catalog.inputs.parse_int`, as the command line). Absent, it
    is ``default``; empty (``limit=``), too on a page (a form's blank field)
    but not in the JSON API, whose document says what an integer is."""
    text = request.args.get(name) if value is None else value
    if text == "" and request.path.startswith("/api/"):
        raise BadParameter(f"{name}: must be an integer, not empty")
    if text is None or text == "":
        if default is None:
            raise BadParameter(f"{name}: required")
        return default
    return parse_int(text, name, minimum, maximum)


def _choice(name: str, choices: tuple[str, ...], default: str) -> str:
    value = request.args.get(name, default)
    if value not in choices:
        raise BadParameter(f"{name}: must be one of {', '.join(choices)}")
    return value


def _page_size() -> int:
    cfg = current_app.config
    return int_arg("limit", cfg["PAGE_SIZE"], 1, cfg["MAX_PAGE_SIZE"])


def _cached(response: Response, max_age: int) -> Response:
    """ETag from the body; 304 when the client has it already."""
    response.add_etag()
    response.cache_control.public = True
    response.cache_control.max_age = max_age
    return cast(Response, response.make_conditional(request))


def _result(body: Any, mimetype: str = "application/json") -> Response:
    """A cached response: ``body`` as JSON, or as is when it is text."""
    if mimetype == "application/json" and not isinstance(body, str):
        response = jsonify(body)
    else:
        response = Response(body, mimetype=mimetype)
    return _cached(response, current_app.config["RESULT_MAX_AGE"])


def _encode_cursor(after: int) -> str:
    return base64.urlsafe_b64encode(json.dumps({"after": after}).encode()).decode()


#: Longest cursor this API gives out, with room to spare.
MAX_CURSOR_LENGTH = 64


def _decode_cursor(cursor: str) -> int:
    """The entry number a cursor of :func:`_encode_cursor` holds; anything
    else (too long, not base64, not that JSON, a number no ID can write) is
    a 400."""
    if len(cursor) > MAX_CURSOR_LENGTH or not cursor.isascii():
        raise BadParameter("cursor: not a cursor this API gave out")
    # Well formed (as the document says), but not one of ours.
    bad = Unprocessable("cursor: not a cursor this API gave out")
    try:
        data = json.loads(base64.b64decode(cursor, altchars=b"-_", validate=True))
    except (ValueError, binascii.Error):
        raise bad from None
    after = data.get("after") if isinstance(data, dict) and len(data) == 1 else None
    if not isinstance(after, int) or isinstance(after, bool):
        raise bad
    if not 0 <= after <= MAX_ID:
        raise bad
    return after


@bp.get("/entries")
def entries() -> Response:
    """A page of entries in ID order (or by ``sort``), filtered by keyword,
    name words, family and ``where`` conditions; the cursor pages either way."""
    limit = int_arg("limit", 100, 1, service.MAX_LIST_LIMIT)
    cursor = request.args.get("cursor")
    after = _decode_cursor(cursor) if cursor else 0
    keyword = request.args.get("keyword") or None
    words = parse_words(request.args.get("q", ""), "q")
    page = service.list_entries(
        _store(),
        keyword=keyword,
        words=words,
        after=after,
        limit=limit + 1,
        family=request.args.get("family") or None,
        where=request.args.getlist("where"),
        sort=request.args.get("sort") or None,
    )
    rows = page["entries"]
    more = len(rows) > limit
    rows = rows[:limit]
    for row in rows:
        row["url"] = url_for("v1.entry", wid=row["id"], _external=False)
    last = int(rows[-1]["id"][1:]) if rows else after
    body = {"entries": rows, "next": _encode_cursor(last) if more else None}
    return _cached(jsonify(body), current_app.config["ENTRY_MAX_AGE"])


@bp.get("/entries/<wid>")
def entry(wid: str) -> Response:
    """What ``wythoff show`` prints, and ``page``: the entry's web page."""
    doc = service.show(_store(), wid)
    doc["page"] = url_for("pages.entry", wid=doc["id"])
    return _cached(jsonify(doc), current_app.config["ENTRY_MAX_AGE"])


@bp.get("/entries/<wid>/p-positions")
def p_positions(wid: str) -> Response:
    """P-positions with x, y < n, paged from (start, start_y) on."""
    n = int_arg("n", maximum=_store().settings.max_compute_n)
    fmt = _choice("format", FORMATS, "json")
    limit = _page_size()
    first = (
        int_arg("start", 0, maximum=MAX_INDEX),
        int_arg("start_y", 0, maximum=MAX_INDEX),
    )
    number = service.entry_number(_store(), wid)
    version = service.entry_version(_store(), number)
    key = ("p-positions", number, version, n, fmt, first, limit)
    rendered = _pages().get(key)
    if rendered is None:
        rendered = _render_positions(wid, n, fmt, first, limit)
        _pages().put(key, rendered)
    response = Response(rendered.body, mimetype=rendered.mimetype)
    if rendered.link:
        response.headers["Link"] = f'<{rendered.link}>; rel="next"'
    return _cached(response, current_app.config["RESULT_MAX_AGE"])


def _pages() -> ResponseCache:
    return current_app.extensions["catalog.pages"]


def _render_positions(
    wid: str, n: int, fmt: str, first: tuple[int, int], limit: int
) -> Rendered:
    if fmt == "bfile":
        return _bfile(wid, n, first[0], limit)
    page = service.positions_page(_store(), wid, n, first, limit)
    following = None
    if page["next"]:
        x, y = page["next"]
        following = url_for(
            "v1.p_positions",
            wid=page["id"],
            n=n,
            start=x,
            start_y=y,
            limit=limit,
            format=fmt,
        )
    if fmt == "csv":
        text = "x,y\n" + "".join(f"{x},{y}\n" for x, y in page["positions"])
        return Rendered(text.encode(), "text/csv", following)
    page["next"] = following
    return Rendered(
        current_app.json.dumps(page).encode(), "application/json", following
    )


def _bfile(wid: str, n: int, start: int, limit: int) -> Rendered:
    """The entry's main sequence as ``index value`` lines (an OEIS b-file)."""
    store = _store()
    service.positions_page(store, wid, n, (0, 0), 1)
    text = service.bfile(store, wid, n, start, limit)
    return Rendered(text.encode(), "text/plain", None)


@bp.get("/entries/<wid>/positions/<x>/<y>")
def position(wid: str, x: str, y: str) -> Response:
    """What ``wythoff is-p`` prints."""
    col = int_arg("x", value=x)
    row = int_arg("y", value=y)
    doc = service.is_p(_store(), wid, col, row)
    return _result(doc)


@bp.get("/adjoinable/<i>/<j>")
def adjoinable(i: str, j: str) -> Response:
    """What ``wythoff adjoinable I J`` prints."""
    first = int_arg("i", value=i)
    second = int_arg("j", value=j)
    doc = service.adjoinable(first, second)
    return _cached(jsonify(doc), current_app.config["ENTRY_MAX_AGE"])


@bp.get("/entries/<wid>/grundy")
def grundy(wid: str) -> Response:
    """Sprague–Grundy values grundy[x][y] for x, y < n (no alterations)."""
    n = int_arg("n", maximum=current_app.config["MAX_GRUNDY_N"])
    body = service.grundy_json(_store(), wid, n)
    return _result(body, mimetype="application/json")


@bp.get("/entries/<wid>/sequences/<name>")
def sequence(wid: str, name: str) -> Response:
    """Stored terms of a derived sequence (y, a, b, b-a, bits)."""
    start = int_arg("start", 0, maximum=MAX_INDEX)
    doc = service.sequence(_store(), wid, name, start, _page_size())
    return _result(doc)


@bp.get("/entries/<wid>/bitstring")
def bitstring(wid: str) -> Response:
    """The upper/lower bit-string of a one-P-per-column game, as stored."""
    return _cached(
        jsonify(service.bitstring(_store(), wid)), current_app.config["ENTRY_MAX_AGE"]
    )


@bp.get("/search")
def search() -> Response:
    """What ``wythoff search`` prints, ranked and paged."""
    query = request.args.get("q")
    if query is None:
        raise BadParameter("q: required")
    offset = int_arg("offset", 0, maximum=MAX_SEARCH_OFFSET)
    limit = int_arg("limit", 50, 1, MAX_SEARCH_LIMIT)
    doc = service.search(_store(), query, offset, limit)
    return _cached(jsonify(doc), current_app.config["ENTRY_MAX_AGE"])


@bp.get("/entries/<wid>/export")
def export(wid: str) -> Response:
    """The entry in the OEIS internal format, or its b-file."""
    fmt = _choice("format", ("oeis", "bfile"), "oeis")
    n = int_arg("n", 1000, maximum=_store().settings.max_compute_n)
    store = _store()
    service.positions_page(store, wid, n, (0, 0), 1)
    text = (
        service.oeis(store, wid, n) if fmt == "oeis" else service.bfile(store, wid, n)
    )
    return _result(text, "text/plain")


@bp.get("/openapi.json")
def openapi() -> Response:
    """The OpenAPI 3.1 document of every route of this blueprint."""
    doc = document(current_app.config)
    return _cached(jsonify(doc), current_app.config["ENTRY_MAX_AGE"])
