"""``/api/v1``: the contract's read routes, over :mod:`catalog.service`."""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping
from typing import Any, cast

from flask import Blueprint, Response, current_app, jsonify, request, url_for

from catalog import service
from catalog.api.args import choice, int_arg, store
from catalog.api.cache import Rendered, ResponseCache
from catalog.api.errors import BadParameter
from catalog.api.schema import (
    BEYOND_ENTRY,
    ENTRIES_PAGE,
    INAPPLICABLE,
    SEARCH,
    SEQUENCE,
    WHERE,
    WID,
    as_json,
    errors,
    integer,
    param,
    text,
    words,
)
from catalog.config import Settings
from catalog.errors import Unprocessable
from catalog.families import MAX_ID
from catalog.families.filters import FIELDS, MAX_CONDITION_LENGTH, MAX_CONDITIONS
from catalog.inputs import (
    MAX_KEYWORD_LENGTH,
    MAX_LIST_LIMIT,
    MAX_QUERY_LENGTH,
    MAX_QUERY_WORDS,
    MAX_SEARCH_LIMIT,
    MAX_SEARCH_OFFSET,
    parse_words,
)

bp = Blueprint("v1", __name__, url_prefix="/api/v1")

FORMATS = ("json", "csv", "bfile")
#: Largest start of a page: coordinates and indices are 64-bit in the store.
MAX_INDEX = 10**18


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
        store(),
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
    doc = service.show(store(), wid)
    doc["page"] = url_for("pages.entry", wid=doc["id"])
    return _cached(jsonify(doc), current_app.config["ENTRY_MAX_AGE"])


@bp.get("/entries/<wid>/p-positions")
def p_positions(wid: str) -> Response:
    """P-positions with x, y < n, paged from (start, start_y) on."""
    n = int_arg("n", maximum=store().settings.max_compute_n)
    fmt = choice("format", FORMATS, "json")
    limit = _page_size()
    first = (
        int_arg("start", 0, maximum=MAX_INDEX),
        int_arg("start_y", 0, maximum=MAX_INDEX),
    )
    number = service.entry_number(store(), wid)
    version = service.entry_version(store(), number)
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
    page = service.positions_page(store(), wid, n, first, limit)
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
    catalog = store()
    service.positions_page(catalog, wid, n, (0, 0), 1)
    text = service.bfile(catalog, wid, n, start, limit)
    return Rendered(text.encode(), "text/plain", None)


@bp.get("/entries/<wid>/positions/<x>/<y>")
def position(wid: str, x: str, y: str) -> Response:
    """What ``wythoff is-p`` prints."""
    col = int_arg("x", value=x)
    row = int_arg("y", value=y)
    doc = service.is_p(store(), wid, col, row)
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
    body = service.grundy_json(store(), wid, n)
    return _result(body, mimetype="application/json")


@bp.get("/entries/<wid>/sequences/<name>")
def sequence(wid: str, name: str) -> Response:
    """Stored terms of a derived sequence (y, a, b, b-a, bits)."""
    start = int_arg("start", 0, maximum=MAX_INDEX)
    doc = service.sequence(store(), wid, name, start, _page_size())
    return _result(doc)


@bp.get("/entries/<wid>/bitstring")
def bitstring(wid: str) -> Response:
    """The upper/lower bit-string of a one-P-per-column game, as stored."""
    return _cached(
        jsonify(service.bitstring(store(), wid)), current_app.config["ENTRY_MAX_AGE"]
    )


@bp.get("/search")
def search() -> Response:
    """What ``wythoff search`` prints, ranked and paged."""
    query = request.args.get("q")
    if query is None:
        raise BadParameter("q: required")
    offset = int_arg("offset", 0, maximum=MAX_SEARCH_OFFSET)
    limit = int_arg("limit", 50, 1, MAX_SEARCH_LIMIT)
    doc = service.search(store(), query, offset, limit)
    return _cached(jsonify(doc), current_app.config["ENTRY_MAX_AGE"])


@bp.get("/entries/<wid>/export")
def export(wid: str) -> Response:
    """The entry in the OEIS internal format, or its b-file."""
    fmt = choice("format", ("oeis", "bfile"), "oeis")
    n = int_arg("n", 1000, maximum=store().settings.max_compute_n)
    catalog = store()
    service.positions_page(catalog, wid, n, (0, 0), 1)
    text = (
        service.oeis(catalog, wid, n)
        if fmt == "oeis"
        else service.bfile(catalog, wid, n)
    )
    return _result(text, "text/plain")


# -- this blueprint's part of the OpenAPI document (catalog.api.openapi) -------

_TEXT = {"text/plain": {"schema": {"type": "string"}}}
_START = param("start", "query", integer(0, MAX_INDEX), "first x (or index)")
_PILE = integer(0, service.MAX_EXACT_COORDINATE)
_MOVE = integer()


def _limit(maximum: int, what: str) -> dict[str, Any]:
    return param("limit", "query", integer(1, maximum), what)


def _get(summary: str, parameters: list[Any], ok: Any, **answers: Any) -> Any:
    return {
        "get": {
            "summary": summary,
            "parameters": parameters,
            "responses": {"200": ok, **answers},
        }
    }


def paths(config: Mapping[str, Any]) -> dict[str, Any]:
    """The OpenAPI paths of this blueprint for an app of this ``config``:
    its work budget (``INLINE_SECONDS``, named where a route may answer
    422), page size (``MAX_PAGE_SIZE``) and Grundy bound (``MAX_GRUNDY_N``)
    are read from it, as the routes read them."""
    budget = float(config["INLINE_SECONDS"])
    page_limit = _limit(int(config["MAX_PAGE_SIZE"]), "items per page")
    n = param(
        "n",
        "query",
        integer(0, Settings.max_compute_n),
        "bound: positions with x < n and y < n",
        required=True,
    )
    positions_ok = as_json({"$ref": "#/components/schemas/Positions"}, "a page")
    positions_ok["content"].update({"text/csv": {"schema": {"type": "string"}}})
    positions_ok["content"].update(_TEXT)
    computed = errors(400, 404, 422, 503, budget=budget, unprocessable=BEYOND_ENTRY)
    listing = [
        param("keyword", "query", text(MAX_KEYWORD_LENGTH, False), "with this keyword"),
        param(
            "q",
            "query",
            {
                "type": "string",
                "maxLength": MAX_QUERY_LENGTH,
                "pattern": words(MAX_QUERY_WORDS),
            },
            f"words of the name (at most {MAX_QUERY_WORDS})",
        ),
        param("family", "query", text(MAX_KEYWORD_LENGTH, False), "only its members"),
        {
            **param(
                "where",
                "query",
                {
                    "type": "array",
                    "items": {
                        "type": "string",
                        "maxLength": MAX_CONDITION_LENGTH,
                        "pattern": WHERE,
                    },
                    "maxItems": MAX_CONDITIONS,
                },
                "FIELD OP VALUE, OP one of = != < <= > >= (a pair as "
                "offset=12,7); fields: "
                + ", ".join(FIELDS)
                + ", and with family= its parameters (repeatable)",
            ),
            "style": "form",
            "explode": True,
        },
        param(
            "sort",
            "query",
            {
                "type": "string",
                "maxLength": MAX_KEYWORD_LENGTH,
                "pattern": r"^(-?[A-Za-z_][A-Za-z0-9_]*)?$",
            },
            "FIELD or -FIELD (descending), then the ID; entries without FIELD "
            "are left out",
        ),
        param(
            "cursor",
            "query",
            {
                "type": "string",
                "pattern": rf"^[A-Za-z0-9_=-]{{0,{MAX_CURSOR_LENGTH}}}$",
            },
            "from a previous 'next' (one it did not give: 422)",
        ),
        _limit(MAX_LIST_LIMIT, "entries per page"),
    ]
    return {
        "/api/v1/entries": _get(
            "A page of entries, in ID order or sorted by an invariant",
            listing,
            as_json(ENTRIES_PAGE, "entries"),
            **errors(400, 404, 422, unprocessable=INAPPLICABLE),
        ),
        "/api/v1/entries/{wid}": _get(
            "An entry: what `wythoff show` prints",
            [WID],
            as_json({"$ref": "#/components/schemas/Entry"}, "the entry"),
            **errors(400, 404),
        ),
        "/api/v1/entries/{wid}/p-positions": _get(
            "P-positions with x, y < n, computed on demand, paged",
            [
                WID,
                n,
                _START,
                param(
                    "start_y", "query", integer(0, MAX_INDEX), "first y at x = start"
                ),
                page_limit,
                param(
                    "format",
                    "query",
                    {"type": "string", "enum": list(FORMATS)},
                    "json (default), csv, or bfile (the main sequence as "
                    "'index value' lines)",
                ),
            ],
            positions_ok,
            **computed,
        ),
        "/api/v1/entries/{wid}/positions/{x}/{y}": _get(
            "Outcome of (x, y) and a winning move: `wythoff is-p`",
            [
                WID,
                param("x", "path", _PILE, "pile 1"),
                param("y", "path", _PILE, "pile 2"),
            ],
            as_json({"$ref": "#/components/schemas/Outcome"}, "the outcome"),
            **computed,
        ),
        "/api/v1/entries/{wid}/sequences/{name}": _get(
            "Stored terms of a derived sequence",
            [
                WID,
                param("name", "path", {"type": "string"}, "y, a, b, b-a or bits"),
                _START,
                page_limit,
            ],
            as_json(SEQUENCE, "terms"),
            **errors(400, 404),
        ),
        "/api/v1/entries/{wid}/grundy": _get(
            "Sprague-Grundy values grundy[x][y] (no alterations)",
            [
                WID,
                param(
                    "n",
                    "query",
                    integer(0, int(config["MAX_GRUNDY_N"])),
                    "x, y < n",
                    required=True,
                ),
            ],
            as_json({"type": "object"}, "the table"),
            **errors(
                400,
                404,
                422,
                budget=budget,
                unprocessable="an entry whose Grundy values are not defined (an "
                "altered game) or not supported (Ho's extension)",
            ),
        ),
        "/api/v1/entries/{wid}/bitstring": _get(
            "The upper/lower bit-string (0: upper P-position)",
            [WID],
            as_json({"type": "object"}, "bits"),
            **errors(400, 404),
        ),
        "/api/v1/adjoinable/{i}/{j}": _get(
            "Can (i, j) and (j, i) join Wythoff's Nim without changing its "
            "P-positions? `wythoff adjoinable`",
            [param("i", "path", _MOVE, "move"), param("j", "path", _MOVE, "move")],
            as_json({"$ref": "#/components/schemas/Adjoinable"}, "the answer"),
            **errors(
                400, 422, unprocessable="(0, 0) is not a move: it takes no tokens"
            ),
        ),
        "/api/v1/search": _get(
            "Entries whose sequences contain the terms, ranked",
            [
                param(
                    "q",
                    "query",
                    {"type": "string", "minLength": 1, "maxLength": MAX_QUERY_LENGTH},
                    "3 to 64 terms (1,3,4,6), or id:W… (or a label), keyword:…, "
                    "family:…, name words",
                    required=True,
                ),
                param(
                    "offset",
                    "query",
                    integer(0, MAX_SEARCH_OFFSET),
                    "results to skip",
                ),
                _limit(MAX_SEARCH_LIMIT, "results per page"),
            ],
            as_json(SEARCH, "matches"),
            **errors(
                400,
                422,
                unprocessable="a query the search grammar refuses: fewer than 3 "
                "or more than the most terms, a term over the largest, digits "
                "other than 0-9, a malformed id:, more than 16 words, a NUL",
            ),
        ),
        "/api/v1/entries/{wid}/export": _get(
            "The entry in the OEIS internal format, or its b-file",
            [
                WID,
                param(
                    "format",
                    "query",
                    {"type": "string", "enum": ["oeis", "bfile"]},
                    "oeis (default) or bfile",
                ),
                param(
                    "n",
                    "query",
                    integer(0, Settings.max_compute_n),
                    "bound (default 1000)",
                ),
            ],
            {"description": "text", "content": _TEXT},
            **computed,
        ),
    }
