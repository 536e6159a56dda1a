"""The OpenAPI 3.1 document of ``/api/v1``.

Written as data beside the routes; ``tests/api/test_openapi.py`` checks that
every route of the blueprint is here with its parameters, and schemathesis
checks the answers against it, so the two cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from catalog.config import INLINE_SECONDS, Settings
from catalog.families.filters import FIELDS, MAX_CONDITION_LENGTH, MAX_CONDITIONS
from catalog.inputs import (
    MAX_KEYWORD_LENGTH,
    MAX_LIST_LIMIT,
    MAX_QUERY_LENGTH,
    MAX_QUERY_WORDS,
    MAX_SEARCH_LIMIT,
    MAX_SEARCH_OFFSET,
)

ID = {"type": "string", "pattern": "^W[0-9]{6}$", "example": "W000001"}
#: What names an entry in a path: its ID or a family member's label.
ENTRY = {
    "type": "string",
    # W and six digits, not all zero; or a label (family.P1.P2…).
    "pattern": (
        r"^(W(0{5}[1-9]|0{4}[1-9][0-9]|0{3}[1-9][0-9]{2}|00[1-9][0-9]{3}"
        r"|0[1-9][0-9]{4}|[1-9][0-9]{5})|[a-z][a-z0-9-]*(\.[A-Za-z0-9-]+)+)$"
    ),
    "example": "maharaja.1.2",
}
PAIR = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}
ERROR = {"$ref": "#/components/schemas/Error"}
#: FIELD OP VALUE (catalog.families.filters), without NUL characters.
WHERE = r"^\s*[A-Za-z_][A-Za-z0-9_]*\s*(==|!=|<=|>=|=|<|>)[^\x00]*$"


#: At most MAX_QUERY_WORDS words, without NUL.
WORDS = rf"^\s*([^\s\x00]+\s+){{0,{MAX_QUERY_WORDS - 1}}}[^\s\x00]*\s*$"


def _text(most: int) -> dict[str, Any]:
    """A free text parameter: at most ``most`` characters, no NUL."""
    return {"type": "string", "maxLength": most, "pattern": r"^[^\x00]*$"}


#: The 422 of a field that no member of the family has.
INAPPLICABLE = (
    "a field (where, sort or a table's invariant) that no member of the family "
    "has: box games have no deviations, Maharaja games no offset"
)


def _param(name: str, where: str, schema: dict[str, Any], text: str, required=False):
    return {
        "name": name,
        "in": where,
        "required": required or where == "path",
        "description": text,
        "schema": schema,
    }


def _json(schema: dict[str, Any], text: str) -> dict[str, Any]:
    return {"description": text, "content": {"application/json": {"schema": schema}}}


def _errors(
    *codes: int, budget: float = INLINE_SECONDS, unprocessable: str | None = None
) -> dict[str, Any]:
    """The error answers of a route. 422 is the work budget on a route that
    computes (which is then gated: 429 too), or ``unprocessable``: what a
    request valid parameter by parameter may still fail (catalog.errors.
    Unprocessable)."""
    texts = {
        400: "a parameter is missing or malformed",
        404: "no such entry, label, family (or sequence)",
        422: f"the computation is expected to take more than {budget:g} s (this "
        "server's WYTHOFF_INLINE_SECONDS); the message names budget and estimate",
        503: "another process is computing this entry, or the computation ran "
        "over its time (its progress is kept): retry after Retry-After seconds",
    }
    texts[429] = (
        "this client's quota of computation is spent (WYTHOFF_QUOTA_SECONDS a "
        "minute), or every compute slot of the server is in use: retry after "
        "Retry-After seconds; reads of what is stored are never refused so"
    )
    if unprocessable is not None:
        texts[422] = unprocessable
    elif 422 in codes and 429 not in codes:  # every route that computes is gated
        codes = (*codes, 429)
    out = {str(code): _json(ERROR, texts[code]) for code in codes}
    for code in (429, 503):
        if code in codes:
            out[str(code)]["headers"] = {
                "Retry-After": {"schema": {"type": "integer", "minimum": 1}}
            }
    return out


WID = _param(
    "wid", "path", ENTRY, "the entry's permanent ID, or a family member's label"
)
N = _param(
    "n",
    "query",
    {"type": "integer", "minimum": 0, "maximum": Settings.max_compute_n},
    "bound: positions with x < n and y < n",
    required=True,
)
INDEX = {"type": "integer", "minimum": 0, "maximum": 10**18}
QUERY = {"type": "string", "minLength": 1, "maxLength": MAX_QUERY_LENGTH}
START = _param("start", "query", INDEX, "first x (or index)")
START_Y = _param("start_y", "query", INDEX, "first y at x = start")


def _limit(maximum: int, text: str) -> dict[str, Any]:
    schema = {"type": "integer", "minimum": 1, "maximum": maximum}
    return _param("limit", "query", schema, text)


FORMAT = _param(
    "format",
    "query",
    {"type": "string", "enum": ["json", "csv", "bfile"]},
    "json (default), csv, or bfile (the main sequence as 'index value' lines)",
)

SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "required": ["error"],
        "properties": {"error": {"type": "string"}},
    },
    "Entry": {
        "type": "object",
        "required": [
            "id",
            "name",
            "label",
            "family",
            "labels",
            "definition",
            "offset",
            "defects",
            "saturation_column",
            "xrefs",
        ],
        "properties": {
            "id": ID,
            "name": {"type": "string"},
            "label": {
                "type": ["string", "null"],
                "description": "the primary label (its family comes first in the "
                "global order), null for an entry in no family",
            },
            "family": {
                "oneOf": [
                    {
                        "type": "object",
                        "required": ["name", "parameters"],
                        "properties": {
                            "name": {"type": "string"},
                            "parameters": {"type": "object"},
                        },
                    },
                    {"type": "null"},
                ],
                "description": "the primary label's family and parameters",
            },
            "labels": {"type": "array", "items": {"type": "string"}},
            "definition": {"type": "object"},
            "offset": {"type": ["object", "null"]},
            "defects": {"type": ["integer", "null"]},
            "saturation_column": {"type": ["integer", "null"]},
            "xrefs": {"type": "array", "items": ID},
            "dictionary": {
                "type": "object",
                "additionalProperties": {"type": "string"},
                "description": "word -> translate, for Maharaja-type games",
            },
            "invariants": {
                "type": "object",
                "description": "each invariant with its value, status "
                "('theorem' or 'observed') and source",
            },
        },
    },
    "Adjoinable": {
        "type": "object",
        "required": ["move", "adjoinable", "reason", "witness"],
        "properties": {
            "move": PAIR,
            "adjoinable": {"type": "boolean"},
            "reason": {"type": "string"},
            "witness": {
                "oneOf": [
                    {
                        "type": "object",
                        "required": ["from", "to"],
                        "properties": {"from": PAIR, "to": PAIR},
                    },
                    {"type": "null"},
                ],
                "description": "two P-positions the move joins",
            },
        },
    },
    "Positions": {
        "type": "object",
        "required": ["id", "n", "positions", "next"],
        "properties": {
            "id": ID,
            "n": {"type": "integer"},
            "positions": {"type": "array", "items": PAIR},
            "next": {"type": ["string", "null"], "description": "URL of the next page"},
        },
    },
    "Outcome": {
        "type": "object",
        "required": ["id", "position", "outcome", "move_to"],
        "properties": {
            "id": ID,
            "position": PAIR,
            "outcome": {"enum": ["P", "N"]},
            "move_to": {"oneOf": [PAIR, {"type": "null"}]},
        },
    },
}


def document(config: Mapping[str, Any]) -> dict[str, Any]:
    """The whole OpenAPI document of a server with this configuration (the
    app's ``config``): its work budget (``INLINE_SECONDS``, named where a
    route may answer 422), page size (``MAX_PAGE_SIZE``) and Grundy bound
    (``MAX_GRUNDY_N``) are read from it, so the document states the limits
    the server enforces."""
    budget = float(config["INLINE_SECONDS"])
    page_limit = _limit(int(config["MAX_PAGE_SIZE"]), "items per page")
    from catalog.api.families import paths as families_paths
    from catalog.api.identify import paths as identify_paths
    from catalog.api.jobs import JOB, accepted
    from catalog.api.jobs import paths as jobs_paths

    entries_page = {
        "type": "object",
        "required": ["entries", "next"],
        "properties": {
            "entries": {"type": "array", "items": {"type": "object"}},
            "next": {
                "type": ["string", "null"],
                "description": "cursor of the next page",
            },
        },
    }
    sequence = {
        "type": "object",
        "required": ["id", "name", "offset", "length", "terms", "next"],
        "properties": {
            "terms": {"type": "array", "items": {"type": "integer"}},
            "capped": {
                "type": "boolean",
                "description": "the sequence reached the most terms the catalog "
                "keeps; it goes on beyond them",
            },
            "next": {"type": ["integer", "null"]},
        },
    }
    search = {
        "type": "object",
        "required": ["query", "results", "next"],
        "properties": {"results": {"type": "array", "items": {"type": "object"}}},
    }
    text = {
        "text/csv": {"schema": {"type": "string"}},
        "text/plain": {"schema": {"type": "string"}},
    }
    positions_ok = _json({"$ref": "#/components/schemas/Positions"}, "a page")
    positions_ok["content"].update(text)
    paths = {
        "/api/v1/entries": {
            "get": {
                "summary": "A page of entries, in ID order or sorted by an invariant",
                "parameters": [
                    _param(
                        "keyword",
                        "query",
                        _text(MAX_KEYWORD_LENGTH),
                        "only with this keyword",
                    ),
                    _param(
                        "q",
                        "query",
                        {
                            "type": "string",
                            "maxLength": MAX_QUERY_LENGTH,
                            "pattern": WORDS,
                        },
                        f"words of the name (at most {MAX_QUERY_WORDS})",
                    ),
                    _param(
                        "family", "query", _text(MAX_KEYWORD_LENGTH), "only its members"
                    ),
                    {
                        **_param(
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
                    _param(
                        "sort",
                        "query",
                        {
                            "type": "string",
                            "maxLength": MAX_KEYWORD_LENGTH,
                            "pattern": r"^(-?[A-Za-z_][A-Za-z0-9_]*)?$",
                        },
                        "FIELD or -FIELD (descending), then the ID; entries "
                        "without FIELD are left out",
                    ),
                    _param(
                        "cursor",
                        "query",
                        {"type": "string", "pattern": r"^[A-Za-z0-9_=-]{0,64}$"},
                        "from a previous 'next' (one it did not give: 422)",
                    ),
                    _limit(MAX_LIST_LIMIT, "entries per page"),
                ],
                "responses": {
                    "200": _json(entries_page, "entries"),
                    **_errors(400, 404, 422, unprocessable=INAPPLICABLE),
                },
            }
        },
        "/api/v1/entries/{wid}": {
            "get": {
                "summary": "An entry: what `wythoff show` prints",
                "parameters": [WID],
                "responses": {
                    "200": _json({"$ref": "#/components/schemas/Entry"}, "the entry"),
                    **_errors(400, 404),
                },
            }
        },
        "/api/v1/entries/{wid}/p-positions": {
            "get": {
                "summary": "P-positions with x, y < n, computed on demand, paged",
                "parameters": [WID, N, START, START_Y, page_limit, FORMAT],
                "responses": {
                    "200": positions_ok,
                    **_errors(400, 404, 422, 503, budget=budget),
                },
            }
        },
        "/api/v1/entries/{wid}/positions/{x}/{y}": {
            "get": {
                "summary": "Outcome of (x, y) and a winning move: `wythoff is-p`",
                "parameters": [
                    WID,
                    _param("x", "path", {"type": "integer", "minimum": 0}, "pile 1"),
                    _param("y", "path", {"type": "integer", "minimum": 0}, "pile 2"),
                ],
                "responses": {
                    "200": _json(
                        {"$ref": "#/components/schemas/Outcome"}, "the outcome"
                    ),
                    **_errors(400, 404, 422, 503, budget=budget),
                },
            }
        },
        "/api/v1/entries/{wid}/sequences/{name}": {
            "get": {
                "summary": "Stored terms of a derived sequence",
                "parameters": [
                    WID,
                    _param("name", "path", {"type": "string"}, "y, a, b, b-a or bits"),
                    START,
                    page_limit,
                ],
                "responses": {"200": _json(sequence, "terms"), **_errors(400, 404)},
            }
        },
        "/api/v1/entries/{wid}/grundy": {
            "get": {
                "summary": "Sprague-Grundy values grundy[x][y] (no alterations)",
                "parameters": [
                    WID,
                    _param(
                        "n",
                        "query",
                        {
                            "type": "integer",
                            "minimum": 0,
                            "maximum": int(config["MAX_GRUNDY_N"]),
                        },
                        "x, y < n",
                        required=True,
                    ),
                ],
                "responses": {
                    "200": _json({"type": "object"}, "the table"),
                    **_errors(400, 404, 422, budget=budget),
                },
            }
        },
        "/api/v1/entries/{wid}/bitstring": {
            "get": {
                "summary": "The upper/lower bit-string (0: upper P-position)",
                "parameters": [WID],
                "responses": {
                    "200": _json({"type": "object"}, "bits"),
                    **_errors(400, 404),
                },
            }
        },
        "/api/v1/adjoinable/{i}/{j}": {
            "get": {
                "summary": "Can (i, j) and (j, i) join Wythoff's Nim without "
                "changing its P-positions? `wythoff adjoinable`",
                "parameters": [
                    _param("i", "path", {"type": "integer", "minimum": 0}, "move"),
                    _param("j", "path", {"type": "integer", "minimum": 0}, "move"),
                ],
                "responses": {
                    "200": _json(
                        {"$ref": "#/components/schemas/Adjoinable"}, "the answer"
                    ),
                    **_errors(
                        400,
                        422,
                        unprocessable="(0, 0) is not a move: it takes no tokens",
                    ),
                },
            }
        },
        "/api/v1/search": {
            "get": {
                "summary": "Entries whose sequences contain the terms, ranked",
                "parameters": [
                    _param(
                        "q",
                        "query",
                        QUERY,
                        "3 to 64 terms (1,3,4,6), or id:W… (or a label), keyword:…, "
                        "family:…, name words",
                        required=True,
                    ),
                    _param(
                        "offset",
                        "query",
                        {"type": "integer", "minimum": 0, "maximum": MAX_SEARCH_OFFSET},
                        "results to skip",
                    ),
                    _limit(MAX_SEARCH_LIMIT, "results per page"),
                ],
                "responses": {
                    "200": _json(search, "matches"),
                    **_errors(
                        400,
                        422,
                        unprocessable="a query the search grammar refuses: fewer "
                        "than 3 or more than the most terms, a term over the "
                        "largest, digits other than 0-9, a malformed id:, more "
                        "than 16 words",
                    ),
                },
            }
        },
        "/api/v1/entries/{wid}/export": {
            "get": {
                "summary": "The entry in the OEIS internal format, or its b-file",
                "parameters": [
                    WID,
                    _param(
                        "format",
                        "query",
                        {"type": "string", "enum": ["oeis", "bfile"]},
                        "oeis (default) or bfile",
                    ),
                    _param(
                        "n",
                        "query",
                        {"type": "integer", "minimum": 0, "maximum": 10**7},
                        "bound (default 1000)",
                    ),
                ],
                "responses": {
                    "200": {
                        "description": "text",
                        "content": {"text/plain": {"schema": {"type": "string"}}},
                    },
                    **_errors(400, 404, 422, 503, budget=budget),
                },
            }
        },
        **families_paths(_param, _json, _errors),
        **jobs_paths(_param, _json, _errors),
        "/api/v1/openapi.json": {
            "get": {
                "summary": "This document",
                "responses": {"200": _json({"type": "object"}, "OpenAPI 3.1")},
            }
        },
    }
    if config.get("QUEUE"):  # what may answer 422 answers 202 instead
        for route in paths.values():
            if "422" in route["get"]["responses"]:
                route["get"]["responses"]["202"] = accepted(_json)
    # Identify answers within the budget (inexact past it); extensions are
    # not queued: a 422 over the budget, with or without workers.
    paths.update(identify_paths(_param, _json, _errors))
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Wythoff Variant Catalog",
            "version": "1",
            "description": "Read-only access to the catalog's entries and their "
            'P-positions. Errors are {"error": "..."} with a 4xx status.',
        },
        "paths": paths,
        "components": {"schemas": {**SCHEMAS, "Job": JOB}},
    }
