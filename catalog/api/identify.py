"""``POST /api/v1/identify`` and ``GET /api/v1/entries/{id}/extensions``.

Identify takes its data as a JSON body (a window holds up to 65,536 cells,
more than a URL should carry) and answers within the request's work budget:
the solver stops at the budget and says ``"exact": false`` with the bound it
proved, rather than a 422 (the window's own work, the maximal game, is a few
milliseconds at the largest n).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from catalog import service
from catalog.api.args import int_arg
from catalog.api.errors import BadParameter
from catalog.api.schema import WID, as_json, errors, param
from catalog.compute.identify import MAX_IDENTIFY_LIMIT, MAX_IDENTIFY_N
from catalog.inputs import MAX_BODY_BYTES, MAX_JSON_DEPTH
from catalog.service import identify as found

bp = Blueprint("identify", __name__, url_prefix="/api/v1")


def _store() -> service.Store:
    return current_app.extensions["catalog"]


@bp.post("/identify")
def identify() -> Response:
    """What ``wythoff identify`` prints, for the body's data."""
    if request.content_length is not None and request.content_length > MAX_BODY_BYTES:
        raise BadParameter(f"body: at most {MAX_BODY_BYTES} bytes")
    # A chunked body has no length to check: werkzeug's stream stops one byte
    # past the limit (silently, the rest unread), and a body that long is refused.
    request.max_content_length = MAX_BODY_BYTES + 1
    data = request.get_data(cache=True)
    if len(data) > MAX_BODY_BYTES:
        raise BadParameter(f"body: at most {MAX_BODY_BYTES} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadParameter("body: must be JSON in UTF-8") from None
    body = found.read_body(text)
    doc = found.identify(
        _store(),
        body.positions,
        body.n,
        bool(body.symmetric),
        5 if body.limit is None else body.limit,
    )
    return jsonify(doc)


@bp.get("/entries/<wid>/extensions")
def extensions(wid: str) -> Response:
    """What ``wythoff extensions ID --n N`` prints."""
    n = int_arg("n", minimum=1, maximum=MAX_IDENTIFY_N)
    response = jsonify(found.extensions(_store(), wid, n))
    response.cache_control.public = True
    response.cache_control.max_age = current_app.config["ENTRY_MAX_AGE"]
    return response


def paths(config: Mapping[str, Any]) -> dict[str, Any]:
    """The OpenAPI paths of these routes (as :mod:`catalog.api.families`)."""
    pair = {
        "type": "array",
        "items": {"type": "integer", "minimum": 0, "maximum": MAX_IDENTIFY_N - 1},
        "minItems": 2,
        "maxItems": 2,
    }
    game: dict[str, Any] = {
        "type": "object",
        "required": ["definition", "size", "id"],
        "properties": {
            "definition": {"type": "object"},
            "size": {"type": "integer", "minimum": 0},
            "id": {"type": ["string", "null"]},
        },
    }
    altered = {
        **game,
        "required": [*game["required"], "forced"],
        "properties": {
            **game["properties"],
            "forced": {"type": "integer", "minimum": 0},
        },
    }
    cells = {"type": "array", "items": pair}
    answer = {
        "type": "object",
        "required": [
            "n",
            "cells",
            "symmetric",
            "catalog",
            "catalog_total",
            "invariant",
            "maximal",
            "games",
            "altered",
            "exact",
            "bound",
            "unseen",
            "seconds",
        ],
        "properties": {
            "n": {"type": "integer", "minimum": 1, "maximum": MAX_IDENTIFY_N},
            "cells": {"type": "integer", "minimum": 1},
            "symmetric": {"type": "boolean"},
            "catalog": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["id", "label", "name"],
                    "properties": {
                        "id": {"type": "string"},
                        "label": {"type": ["string", "null"]},
                        "name": {"type": ["string", "null"]},
                    },
                },
            },
            "catalog_total": {"type": "integer", "minimum": 0},
            "invariant": {"type": "boolean"},
            "maximal": {
                "type": "object",
                "required": ["rays", "moves", "unreached"],
                "properties": {
                    "rays": cells,
                    "moves": {"type": "integer", "minimum": 0},
                    "unreached": cells,
                },
            },
            "games": {"type": "array", "items": game, "maxItems": MAX_IDENTIFY_LIMIT},
            "altered": {
                "type": "array",
                "items": altered,
                "maxItems": MAX_IDENTIFY_LIMIT,
            },
            "exact": {"type": "boolean"},
            "bound": {"type": ["integer", "null"]},
            "unseen": {"type": "string"},
            "notes": {"type": "array", "items": {"type": "string"}},
            "seconds": {"type": "number", "minimum": 0},
        },
    }
    extended = {
        "type": "object",
        "required": [
            "id",
            "n",
            "checked_below",
            "adjoinable",
            "droppable",
            "smallest",
            "unseen",
        ],
        "properties": {
            "id": {"type": "string"},
            "n": {"type": "integer", "minimum": 1, "maximum": MAX_IDENTIFY_N},
            "checked_below": {"type": "integer"},
            "adjoinable": {
                "type": "object",
                "required": ["rays", "moves"],
                "properties": {"rays": cells, "moves": cells},
            },
            "droppable": {"type": "array", "items": {"type": "object"}},
            "smallest": {"type": ["object", "null"]},
            "unseen": {"type": "string"},
        },
    }
    body = {
        "type": "object",
        "required": ["positions"],
        "additionalProperties": False,
        "properties": {
            "positions": {"type": "array", "items": pair, "minItems": 1},
            "n": {"type": "integer", "minimum": 1, "maximum": MAX_IDENTIFY_N},
            "symmetric": {"type": "boolean"},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_IDENTIFY_LIMIT},
        },
    }
    n = param(
        "n",
        "query",
        {"type": "integer", "minimum": 1, "maximum": MAX_IDENTIFY_N},
        "moves with both components below n",
        required=True,
    )
    return {
        "/api/v1/identify": {
            "post": {
                "summary": "Which games have exactly these P-positions below n: "
                "stored entries, the maximal game, the smallest rule sets and "
                "altered games. `wythoff identify`",
                "requestBody": {
                    "required": True,
                    "description": f"JSON in UTF-8, at most {MAX_BODY_BYTES} "
                    f"bytes, nested at most {MAX_JSON_DEPTH} deep, each key once",
                    "content": {"application/json": {"schema": body}},
                },
                "responses": {
                    "200": as_json(answer, "the answer"),
                    **errors(
                        400,
                        422,
                        429,
                        unprocessable="a position outside the window x, y < n",
                    ),
                },
            }
        },
        "/api/v1/entries/{wid}/extensions": {
            "get": {
                "summary": "What can be adjoined to the entry's rules, and what "
                "dropped, keeping its P-positions. `wythoff extensions`",
                "parameters": [WID, n],
                "responses": {
                    "200": as_json(extended, "the answer"),
                    **errors(400, 404, 422, budget=float(config["INLINE_SECONDS"])),
                },
            }
        },
    }
