"""The read API: ``create_app(config)`` builds a Flask app for one catalog.

One user: ``wythoff serve``. Many: ``gunicorn 'catalog.api:create_app()'``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask, Response, request

from catalog.api import errors, families, identify, jobs, openapi, pages, v1
from catalog.api.cache import ResponseCache
from catalog.api.gate import QUOTA_SECONDS, Gate
from catalog.compute.grundy import MAX_GRUNDY_N
from catalog.config import CLAIM_WAIT_SECONDS, INLINE_SECONDS, OVERRUN, Settings
from catalog.service import Store
from catalog.store.db import ConnectionLost, tracking_writes
from catalog.store.limits import Limits

DEFAULTS: dict[str, Any] = {
    # None: --db / WYTHOFF_DATABASE_URL / the user-data SQLite file.
    "DATABASE_URL": None,
    # Run the migrations when the app starts.
    "MIGRATE": True,
    # The work budget of a request, in expected seconds (catalog.compute.cost):
    # over it, a 422 naming budget and estimate, before anything is computed.
    "INLINE_SECONDS": INLINE_SECONDS,
    # Most seconds a request waits for another process's claim: then 503.
    "CLAIM_WAIT_SECONDS": CLAIM_WAIT_SECONDS,
    # Largest n of a Grundy table one request may compute (n x n values);
    # the work budget (INLINE_SECONDS) refuses a large table before that.
    "MAX_GRUNDY_N": MAX_GRUNDY_N,
    # Positions (or terms) per page: default and largest.
    "PAGE_SIZE": 10_000,
    "MAX_PAGE_SIZE": 100_000,
    # Seconds a client may cache stored results and entry documents.
    "RESULT_MAX_AGE": 86_400,
    # Bytes of rendered result pages kept per worker (0: none).
    "RESPONSE_CACHE_BYTES": 64 * 2**20,
    "ENTRY_MAX_AGE": 60,
    # With workers draining the queue (wythoff worker): a request over its
    # budget queues the fill and answers 202 instead of 422.
    "QUEUE": False,
    # Seconds of estimated work a client may spend per minute (0: no quota);
    # past it, 429 with Retry-After (catalog.api.gate).
    "QUOTA_SECONDS": QUOTA_SECONDS,
    # Where every API process counts the quota (limits' storage URL, e.g.
    # redis://127.0.0.1:6379/0); None: each process counts its own.
    "QUOTA_STORAGE": None,
    # The catalog's name in that store (catalogs sharing one Redis differ).
    "QUOTA_NAMESPACE": "wythoff",
    # Computations at once on this host (None: half its cores; 0: no limit);
    # with none free, a fill is queued (202, with QUEUE) or the request 429.
    "COMPUTE_SLOTS": None,
    # The slots' lock files (None: one folder per user in the temp folder).
    "COMPUTE_SLOTS_DIR": None,
    # Keys (X-API-Key) that name a client instead of its address.
    "API_KEYS": (),
    # Load every kernel's machine code before serving (a second or two at
    # start; with gunicorn --preload, once in the master for every worker).
    "WARM": True,
    # Reverse proxies whose X-Forwarded-For names the client (addresses or
    # networks); from anyone else the header is not read.
    "TRUSTED_PROXIES": (),
}


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """A Flask app serving the catalog at ``DATABASE_URL``."""
    app = Flask(__name__)
    app.config.from_mapping(DEFAULTS)
    app.config.from_prefixed_env("WYTHOFF")
    if config:
        app.config.update(config)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    budget = float(app.config["INLINE_SECONDS"])
    limits = Limits(
        budget=budget,
        wait=float(app.config["CLAIM_WAIT_SECONDS"]),
        deadline=budget * OVERRUN,
        gate=Gate(app.config),
    )
    store = Store(
        Settings.load(app.config["DATABASE_URL"]),
        migrate=app.config["MIGRATE"],
        limits=limits,
        # No round trip to test each pooled connection before a request:
        # a request that finds its connection lost runs again on a fresh
        # one, unless it wrote (_retrying), and the pool drops the others.
        pre_ping=False,
    )
    if app.config["MIGRATE"]:
        store.engine  # noqa: B018  (building the engine runs the migrations)
    app.extensions["catalog"] = store
    # A server pays numba's import and loads every kernel's machine code
    # once, at start, not inside its first requests (while others wait).
    warm_kernels(full=bool(app.config["WARM"]))
    app.extensions["catalog.pages"] = ResponseCache(app.config["RESPONSE_CACHE_BYTES"])
    app.register_blueprint(v1.bp)
    app.register_blueprint(families.bp)
    app.register_blueprint(identify.bp)
    app.register_blueprint(openapi.bp)
    jobs.register(app)
    for name, view in list(app.view_functions.items()):
        app.view_functions[name] = _retrying(view)
    errors.register(app)
    pages.register(app)  # after the API's error handlers: it wraps them
    app.after_request(_cors)
    return app


def warm_kernels(full: bool = True) -> None:
    """Import numba and make the kernels' dispatchers; with ``full``, call
    every kernel once (:mod:`catalog.compute.warm`), so that its machine code
    is loaded from numba's cache (or compiled) before the first request."""
    from catalog.compute import altered, jit, kernel, special_kernel

    for module in (kernel, altered, special_kernel):
        jit.materialize(module)
    # identify's solver (OR-Tools): imported once, not by the first request.
    import catalog.compute.smallest  # noqa: F401

    if full:
        from catalog.compute.warm import warm_once

        warm_once()


def _retrying(view: Callable[..., Any]) -> Callable[..., Any]:
    """Run ``view`` again, once, on a fresh connection when the database
    connection was lost under it and it had written nothing; otherwise the
    loss is a 503 with ``Retry-After`` (the error handler's)."""

    @functools.wraps(view)
    def run(*args: Any, **kwargs: Any) -> Any:
        with tracking_writes() as wrote:
            try:
                return view(*args, **kwargs)
            except ConnectionLost:
                if wrote[0]:
                    raise
        return view(*args, **kwargs)

    return run


#: The one route that takes a body (the data of an identification).
IDENTIFY = "/api/v1/identify"


def _cors(response: Response) -> Response:
    """Any origin may read: the API is public and read-only."""
    if request.method in {"GET", "HEAD", "OPTIONS"} or request.path == IDENTIFY:
        response.headers["Access-Control-Allow-Origin"] = "*"
        response.headers["Access-Control-Expose-Headers"] = (
            "ETag, Link, Location, Retry-After"
        )
        if request.method == "OPTIONS":
            posted = request.path == IDENTIFY
            response.headers["Access-Control-Allow-Methods"] = (
                "POST, OPTIONS" if posted else "GET, HEAD, OPTIONS"
            )
            response.headers["Access-Control-Allow-Headers"] = (
                "Content-Type" if posted else "If-None-Match"
            )
            response.headers["Access-Control-Max-Age"] = "86400"
    return response
