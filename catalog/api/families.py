"""``/api/v1/families``: the families of variants and their tables."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from catalog import service
from catalog.api.errors import BadParameter
from catalog.api.schema import INAPPLICABLE, as_json, errors, param, text
from catalog.families.filters import (
    ALIASES,
    FIELDS,
    MAX_CONDITION_LENGTH,
    TABLE_EXTRAS,
)
from catalog.inputs import MAX_KEYWORD_LENGTH

bp = Blueprint("families", __name__, url_prefix="/api/v1")


def _store() -> service.Store:
    return current_app.extensions["catalog"]


def _cached(body: Any) -> Response:
    response = jsonify(body)
    response.add_etag()
    response.cache_control.public = True
    response.cache_control.max_age = current_app.config["ENTRY_MAX_AGE"]
    return response.make_conditional(request)  # type: ignore[return-value]


@bp.get("/families")
def families() -> Response:
    """What ``wythoff families`` prints."""
    return _cached(service.families(_store()))


@bp.get("/families/<name>/table")
def table(name: str) -> Response:
    """What ``wythoff table NAME INVARIANT --fix …`` prints with ``--json``."""
    invariant = request.args.get("invariant")
    if not invariant:
        raise BadParameter("invariant: required")
    doc = service.table(_store(), name, invariant, request.args.getlist("fix"))
    return _cached(doc)


def paths(config: Mapping[str, Any]) -> dict[str, Any]:
    """This blueprint's part of the OpenAPI document (assembled by
    :func:`catalog.api.openapi.document`)."""
    axis = {
        "type": "object",
        "required": ["name", "values"],
        "properties": {"name": {"type": "string"}, "values": {"type": "array"}},
    }
    grid = {
        "type": "object",
        "required": ["family", "invariant", "rows", "columns", "cells"],
        "properties": {
            "family": {"type": "string"},
            "invariant": {"type": "string"},
            "rows": axis,
            "columns": axis,
            "cells": {"type": "array", "items": {"type": "array"}},
        },
    }
    listing = {
        "type": "object",
        "required": ["families"],
        "properties": {"families": {"type": "array", "items": {"type": "object"}}},
    }
    return {
        "/api/v1/families": {
            "get": {
                "summary": "The families of variants: `wythoff families`",
                "responses": {"200": as_json(listing, "the families")},
            }
        },
        "/api/v1/families/{name}/table": {
            "get": {
                "summary": "An invariant over a family's two parameters: "
                "`wythoff table`; cells are null where no stored member has it",
                "parameters": [
                    param(
                        "name", "path", text(MAX_KEYWORD_LENGTH, False), "the family"
                    ),
                    param(
                        "invariant",
                        "query",
                        {"enum": [*FIELDS, *ALIASES, *TABLE_EXTRAS]},
                        "offset, offset_dx, offset_dy, defects, saturation_column, "
                        "deviations, deviations_min, deviations_max, "
                        "adjoined_moves, one_p_per_column, symmetric, cone_slope, "
                        "cone_form, cone_s, cone_t, xref_class "
                        "or id (deviation and adjoined: earlier spellings)",
                        required=True,
                    ),
                    {
                        **param(
                            "fix",
                            "query",
                            {
                                "type": "array",
                                "items": {
                                    "type": "string",
                                    "maxLength": MAX_CONDITION_LENGTH,
                                    "pattern": r"^[^=\x00]*=[^\x00]*$",
                                },
                                "maxItems": 3,
                            },
                            "NAME=VALUE: fix a parameter of a family with more "
                            "than two (repeatable)",
                        ),
                        "style": "form",
                        "explode": True,
                    },
                ],
                "responses": {
                    "200": as_json(grid, "the table"),
                    **errors(400, 404, 422, unprocessable=INAPPLICABLE),
                },
            }
        },
    }
