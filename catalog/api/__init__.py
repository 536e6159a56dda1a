"""The read API: ``create_app(config)`` builds a Flask app for one catalog.

One user: ``wythoff serve``. Many: ``gunicorn 'catalog.api:create_app()'``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, request

from catalog.api import errors, pages, v1
from catalog.api.cache import ResponseCache
from catalog.config import Settings
from catalog.service import Store

DEFAULTS: dict[str, Any] = {
    # None: --db / WYTHOFF_DATABASE_URL / the user-data SQLite file.
    "DATABASE_URL": None,
    # Run the migrations when the app starts.
    "MIGRATE": True,
    # Most columns one request may compute before answering 422.
    "MAX_COMPUTE_COLUMNS": 2_000_000,
    # Largest n of a Grundy table one request may compute (n x n values).
    "MAX_GRUNDY_N": 500,
    # Positions (or terms) per page: default and largest.
    "PAGE_SIZE": 10_000,
    "MAX_PAGE_SIZE": 100_000,
    # Seconds a client may cache stored results and entry documents.
    "RESULT_MAX_AGE": 86_400,
    # Bytes of rendered result pages kept per worker (0: none).
    "RESPONSE_CACHE_BYTES": 64 * 2**20,
    "ENTRY_MAX_AGE": 60,
}


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """A Flask app serving the catalog at ``DATABASE_URL``."""
    app = Flask(__name__)
    app.config.from_mapping(DEFAULTS)
    app.config.from_prefixed_env("WYTHOFF")
    if config:
        app.config.update(config)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    store = Store(
        Settings.load(app.config["DATABASE_URL"]), migrate=app.config["MIGRATE"]
    )
    if app.config["MIGRATE"]:
        store.engine  # noqa: B018  (building the engine runs the migrations)
    app.extensions["catalog"] = store
    app.extensions["catalog.pages"] = ResponseCache(app.config["RESPONSE_CACHE_BYTES"])
    app.register_blueprint(v1.bp)
    errors.register(app)
    pages.register(app)  # after the API's error handlers: it wraps them
    app.after_request(_cors)
    return app


def _cors(response: Response) -> Response:
    """Any origin may read: the API is public and read-only."""
    if request.method in {"GET", "HEAD", "OPTIONS"}:
        response.headers["Access-Control-Allow-Origin"] = "*"
        response.headers["Access-Control-Expose-Headers"] = "ETag, Link"
        if request.method == "OPTIONS":
            response.headers["Access-Control-Allow-Methods"] = "GET, HEAD, OPTIONS"
            response.headers["Access-Control-Allow-Headers"] = "If-None-Match"
            response.headers["Access-Control-Max-Age"] = "86400"
    return response
