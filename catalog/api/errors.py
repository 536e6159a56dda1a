"""The one error shape of the API: ``{"error": "…"}`` with a 4xx status."""

from __future__ import annotations

import logging

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from catalog.games.definition import DefinitionError
from catalog.service import UnknownSequence
from catalog.store.fill import TooMuchWork
from catalog.store.ids import BadId, UnknownEntry

log = logging.getLogger(__name__)


class BadParameter(ValueError):
    """A query or path parameter that is missing or malformed."""


def error_response(status: int, message: str) -> Response:
    response = jsonify({"error": message})
    response.status_code = status
    return response


def register(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Response:
        message = exc.description or exc.name
        if exc.code == 404:
            message = f"not found: {request.path} (the routes: /api/v1/openapi.json)"
        elif exc.code == 405:
            message = f"{request.method} is not allowed: the API is read-only (GET)"
        response = error_response(exc.code or 500, message)
        if exc.code == 405:
            response.headers["Allow"] = "GET, HEAD, OPTIONS"
        return response

    @app.errorhandler(UnknownEntry)
    @app.errorhandler(UnknownSequence)
    def not_found(exc: LookupError) -> Response:
        return error_response(404, str(exc))

    @app.errorhandler(BadId)
    @app.errorhandler(BadParameter)
    @app.errorhandler(DefinitionError)
    def bad_request(exc: ValueError) -> Response:
        return error_response(400, str(exc))

    @app.errorhandler(TooMuchWork)
    def too_much(exc: TooMuchWork) -> Response:
        return error_response(422, str(exc))

    @app.errorhandler(Exception)
    def internal(exc: Exception) -> Response:  # pragma: no cover - a bug
        log.exception("unhandled error")
        return error_response(500, "internal error")
