"""``/api/v1/jobs/{id}`` and, with a queue (``WYTHOFF_QUEUE=1``), requests
over their budget answered ``202 Accepted``: the fill is queued for the
workers (``wythoff worker``), ``Location`` names its job and ``Retry-After``
says when to ask again; once the job is done the same request answers 200.
Without a queue such a request gets the 422 naming budget and estimate."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, request, url_for

from catalog.api.errors import error_response
from catalog.api.schema import as_json, errors, param
from catalog.inputs import parse_int
from catalog.service import Store
from catalog.service import jobs as queue
from catalog.store.fill import OverBudget

bp = Blueprint("jobs", __name__, url_prefix="/api/v1")

#: Seconds a client may wait before asking about a queued or running job again.
POLL_SECONDS = 5


def _store() -> Store:
    return current_app.extensions["catalog"]


@bp.get("/jobs/<job_id>")
def job(job_id: str) -> Response:
    """One job of the queue: what ``wythoff jobs`` prints for it."""
    doc = queue.job(_store(), parse_int(job_id, "id", 1, 2**63 - 1))
    response = jsonify(doc)
    if doc["state"] in ("queued", "running"):
        eta = doc["eta"] if doc["eta"] is not None else POLL_SECONDS
        response.headers["Retry-After"] = str(max(1, min(600, eta)))
    response.cache_control.no_cache = True
    return response


def register(app: Flask) -> None:
    """The job route, and the queue's answer to a request over its budget."""
    app.register_blueprint(bp)

    @app.errorhandler(OverBudget)
    def over_budget(exc: OverBudget) -> Response:
        if not request.path.startswith("/api/"):
            from catalog.api.html import error_page

            return error_page(exc)
        if not app.config["QUEUE"]:
            return error_response(exc.status, str(exc))
        doc, retry = queue.enqueue_over_budget(_store(), exc)
        response = jsonify(doc)
        response.status_code = 202
        response.headers["Retry-After"] = str(retry)
        response.headers["Location"] = url_for("jobs.job", job_id=doc["id"])
        return response


def paths(config: Mapping[str, Any]) -> dict[str, Any]:
    """This module's part of the OpenAPI document."""
    return {
        "/api/v1/jobs/{job_id}": {
            "get": {
                "summary": "A job of the queue of fills: `wythoff jobs`",
                "parameters": [
                    param(
                        "job_id",
                        "path",
                        {"type": "integer", "minimum": 1, "maximum": 2**63 - 1},
                        "the job",
                    )
                ],
                "responses": {
                    "200": {
                        **as_json({"$ref": "#/components/schemas/Job"}, "the job"),
                        "headers": {
                            "Retry-After": {
                                "description": "while queued or running",
                                "schema": {"type": "integer", "minimum": 1},
                            }
                        },
                    },
                    **errors(400, 404),
                },
            }
        }
    }


def accepted() -> dict[str, Any]:
    """The 202 of a route that computes, on a server with a queue."""
    integer = {"schema": {"type": "integer", "minimum": 1}}
    return {
        **as_json(
            {"$ref": "#/components/schemas/Job"},
            "over the budget: the fill is queued; ask again after Retry-After "
            "seconds (200 once the job in Location is done)",
        ),
        "headers": {
            "Retry-After": integer,
            "Location": {"schema": {"type": "string"}},
        },
    }


JOB = {
    "type": "object",
    "required": ["id", "entry", "n", "state", "done", "attempts", "worker", "error"],
    "properties": {
        "id": {"type": "integer"},
        "entry": {"type": "string"},
        "n": {"type": "integer"},
        "state": {"enum": ["queued", "running", "done", "failed"]},
        "done": {"type": "integer", "description": "columns stored of n"},
        "attempts": {"type": "integer"},
        "worker": {"type": ["string", "null"], "description": "host:pid"},
        "error": {"type": ["string", "null"]},
        "priority": {"type": "integer"},
        "rate": {"type": ["number", "null"], "description": "columns per second"},
        "eta": {"type": ["integer", "null"], "description": "seconds"},
        "created": {"type": "string"},
        "finished": {"type": ["string", "null"]},
    },
}
