"""The one error shape of the API: ``{"error": "…"}`` with a 4xx status."""

from __future__ import annotations

import logging

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from catalog.errors import BadInput, CatalogError

log = logging.getLogger(__name__)


class BadParameter(BadInput):
    """A query or path parameter that is missing or malformed."""


def error_response(status: int, message: str) -> Response:
    response = jsonify({"error": message})
    response.status_code = status
    return response


def _allowed(exc: HTTPException) -> list[str]:
    """The methods of the route a 405 was for: GET, HEAD and OPTIONS on all
    but ``POST /api/v1/identify`` (werkzeug's ``valid_methods``)."""
    methods = getattr(exc, "valid_methods", None) or ["GET", "HEAD", "OPTIONS"]
    return sorted(methods)


def register(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Response:
        message = exc.description or exc.name
        if exc.code == 404:
            message = f"not found: {request.path} (the routes: /api/v1/openapi.json)"
        elif exc.code == 405:
            allowed = _allowed(exc)
            message = f"{request.method} is not allowed here: {', '.join(allowed)}"
        response = error_response(exc.code or 500, message)
        if exc.code == 405:
            response.headers["Allow"] = ", ".join(_allowed(exc))
        return response

    @app.errorhandler(CatalogError)
    def catalog_error(exc: CatalogError) -> Response:
        if exc.status >= 500:
            log.error("%s: %s", type(exc).__name__, exc)
        response = error_response(exc.status, str(exc))
        if exc.retry_after is not None:
            response.headers["Retry-After"] = str(exc.retry_after)
        return response

    @app.errorhandler(Exception)
    def internal(exc: Exception) -> Response:  # pragma: no cover - a bug
        log.exception("unhandled error")
        return error_response(500, "internal error")
