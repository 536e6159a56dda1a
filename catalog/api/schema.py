"""The pieces every route module's part of the OpenAPI document is built of.

Each route module (:mod:`.v1`, :mod:`.families`, :mod:`.identify`,
:mod:`.jobs`) declares its own paths with these, and :mod:`.openapi`
assembles them into the document; neither imports the other way. Every
limit a schema states is read from where the server's check reads it
(:mod:`catalog.inputs`, the settings, the app's configuration), so the
document and the server cannot disagree about a parameter's form.
"""

from __future__ import annotations

from typing import Any

from catalog.compute.modes import MAX_BOX_N
from catalog.families.filters import WHERE_PATTERN
from catalog.inputs import MAX_INT_DIGITS, MAX_LABEL_LENGTH, WHITESPACE

ID = {"type": "string", "pattern": "^W[0-9]{6}$", "example": "W000001"}
#: What names an entry in a path: its ID or a family member's label.
ENTRY = {
    "type": "string",
    # W and six digits, not all zero; or a label (family.P1.P2…).
    "pattern": (
        r"^(W(0{5}[1-9]|0{4}[1-9][0-9]|0{3}[1-9][0-9]{2}|00[1-9][0-9]{3}"
        r"|0[1-9][0-9]{4}|[1-9][0-9]{5})|[a-z][a-z0-9-]*(\.[A-Za-z0-9-]+)+)$"
    ),
    "maxLength": MAX_LABEL_LENGTH,
    "example": "maharaja.1.2",
}
PAIR = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}
ERROR = {"$ref": "#/components/schemas/Error"}
#: FIELD OP VALUE (:mod:`catalog.families.filters`), without NUL characters.
WHERE = f"^{WHERE_PATTERN}$"
#: Largest integer a parameter without a range of its own may be: the most
#: digits :func:`catalog.inputs.parse_int` reads.
MAX_INTEGER = 10**MAX_INT_DIGITS - 1


def words(most: int) -> str:
    """At most ``most`` words (split at white space, as ``str.split``),
    without NUL."""
    word = f"[^{WHITESPACE}\\x00]"
    space = f"[{WHITESPACE}]"
    return f"^{space}*({word}+{space}+){{0,{most - 1}}}{word}*{space}*$"


def text(most: int, blank: bool = True) -> dict[str, Any]:
    """A free text parameter: at most ``most`` characters, no NUL; not blank
    (only white space) unless empty, or unless ``blank``."""
    if blank:
        return {"type": "string", "maxLength": most, "pattern": r"^[^\x00]*$"}
    pattern = f"^([{WHITESPACE}]*[^{WHITESPACE}\\x00][^\\x00]*)?$"
    return {"type": "string", "maxLength": most, "pattern": pattern}


def integer(minimum: int = 0, maximum: int = MAX_INTEGER) -> dict[str, Any]:
    return {"type": "integer", "minimum": minimum, "maximum": maximum}


#: The 422 of a field that no member of the family has.
INAPPLICABLE = (
    "a field (where, sort or a table's invariant) that no member of the family "
    "has: box games have no deviations, Maharaja games no offset"
)
#: The 422 of an n (or x, y) past the entry's own limit.
BEYOND_ENTRY = (
    f"n (or x, y) past what this entry's game is computed to: a game with "
    f"neither a vertical nor a horizontal ray is computed whole in a box, at "
    f"most {MAX_BOX_N} wide; is-p answers a game without a far-out theorem "
    "from its table"
)


def param(
    name: str, where: str, schema: dict[str, Any], text: str, required: bool = False
) -> dict[str, Any]:
    """A parameter object (a path parameter is always required)."""
    return {
        "name": name,
        "in": where,
        "required": required or where == "path",
        "description": text,
        "schema": schema,
    }


def as_json(schema: dict[str, Any], text: str) -> dict[str, Any]:
    """A JSON answer of this schema."""
    return {"description": text, "content": {"application/json": {"schema": schema}}}


def errors(
    *codes: int, budget: float | None = None, unprocessable: str | None = None
) -> dict[str, Any]:
    """The error answers of a route. Its 422 is ``unprocessable``: what a
    request valid parameter by parameter may still fail (catalog.errors.
    Unprocessable), and, on a route that computes (``budget`` given: the
    app's ``INLINE_SECONDS``), the work budget; such a route is gated, so
    it may answer 429 too."""
    texts = {
        400: "a parameter is missing or malformed",
        404: "no such entry, label, family (or sequence)",
        503: "another process is computing this entry, or the computation ran "
        "over its time (its progress is kept): retry after Retry-After seconds",
        429: "this client's quota of computation is spent (WYTHOFF_QUOTA_SECONDS "
        "a minute), or every compute slot of the server is in use: retry after "
        "Retry-After seconds; reads of what is stored are never refused so",
    }
    reasons = [unprocessable] if unprocessable is not None else []
    if budget is not None:
        reasons.append(
            f"the computation is expected to take more than {budget:g} s (this "
            "server's WYTHOFF_INLINE_SECONDS); the message names budget and "
            "estimate"
        )
        if 429 not in codes:
            codes = (*codes, 429)
    texts[422] = "; or ".join(reasons)
    out = {str(code): as_json(ERROR, texts[code]) for code in codes}
    for code in (429, 503):
        if code in codes:
            out[str(code)]["headers"] = {
                "Retry-After": {"schema": {"type": "integer", "minimum": 1}}
            }
    return out


#: The path parameter naming an entry, the same on every route.
WID = param(
    "wid", "path", ENTRY, "the entry's permanent ID, or a family member's label"
)

#: The component schemas (``#/components/schemas/…``) of the routes' answers.
COMPONENTS: dict[str, Any] = {
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
#: The answers of a page of entries, of a sequence's terms, of a search.
ENTRIES_PAGE = {
    "type": "object",
    "required": ["entries", "next"],
    "properties": {
        "entries": {"type": "array", "items": {"type": "object"}},
        "next": {"type": ["string", "null"], "description": "cursor of the next page"},
    },
}
SEQUENCE = {
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
SEARCH = {
    "type": "object",
    "required": ["query", "results", "next"],
    "properties": {"results": {"type": "array", "items": {"type": "object"}}},
}
