"""The OpenAPI 3.1 document of ``/api/v1``, and its route.

Assembled from what each route module declares (its ``paths(config)``, built
of :mod:`catalog.api.schema`'s pieces): this module imports the route
modules, never the reverse. ``tests/api/test_openapi.py`` checks that every
route is here with its parameters, and schemathesis checks the answers
against it, so the two cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from catalog.api import families, identify, jobs, v1
from catalog.api.schema import COMPONENTS, as_json

bp = Blueprint("openapi", __name__, url_prefix="/api/v1")


def document(config: Mapping[str, Any]) -> dict[str, Any]:
    """The whole OpenAPI document of a server with this configuration (the
    app's ``config``): each route module reads the limits it enforces from
    it (work budget, page size, Grundy bound), so the document states them."""
    paths = {
        **v1.paths(config),
        **families.paths(config),
        **jobs.paths(config),
        "/api/v1/openapi.json": {
            "get": {
                "summary": "This document",
                "responses": {"200": as_json({"type": "object"}, "OpenAPI 3.1")},
            }
        },
    }
    if config.get("QUEUE"):  # what may answer 422 answers 202 instead
        for route in paths.values():
            if "422" in route["get"]["responses"]:
                route["get"]["responses"]["202"] = jobs.accepted()
    # Identify answers within the budget (inexact past it); extensions are
    # not queued: a 422 over the budget, with or without workers.
    paths.update(identify.paths(config))
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Wythoff Variant Catalog",
            "version": "1",
            "description": "Read-only access to the catalog's entries and their "
            'P-positions. Errors are {"error": "..."} with a 4xx status.',
        },
        "paths": paths,
        "components": {"schemas": {**COMPONENTS, "Job": jobs.JOB}},
    }


@bp.get("/openapi.json")
def openapi() -> Response:
    """The OpenAPI 3.1 document of every route of ``/api/v1``."""
    response = jsonify(document(current_app.config))
    response.add_etag()
    response.cache_control.public = True
    response.cache_control.max_age = current_app.config["ENTRY_MAX_AGE"]
    return response.make_conditional(request)  # type: ignore[return-value]
