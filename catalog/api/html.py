"""What every page module answers with: an HTML page with its ETag, and the
HTML page of an error. Below the page blueprints (:mod:`.pages`,
:mod:`.docs_pages`, :mod:`.family_pages`, :mod:`.identify_page`) and
:mod:`.jobs`, which share them."""

from __future__ import annotations

from typing import cast

from flask import Response, current_app, render_template, request
from werkzeug.exceptions import HTTPException

from catalog.errors import CatalogError


def html(body: str, status: int = 200) -> Response:
    """An HTML answer with an ETag; 304 when the client has it already."""
    response = Response(body, status=status, mimetype="text/html")
    if status == 200:
        response.add_etag()
        response.cache_control.public = True
        response.cache_control.max_age = current_app.config["ENTRY_MAX_AGE"]
        response = cast(Response, response.make_conditional(request))
    return response


def error_page(exc: Exception) -> Response:
    """The HTML page of an error, with its status (and Retry-After)."""
    retry = None
    if isinstance(exc, HTTPException):
        status, message = exc.code or 500, exc.description or exc.name
        if status == 404:
            message = f"There is no page at {request.path}."
    elif isinstance(exc, CatalogError):
        status, message, retry = exc.status, str(exc), exc.retry_after
    else:  # a bug: logged by the API's handler's logger, shown plainly here
        current_app.logger.exception("unhandled error")
        status, message = 500, "internal error"
    response = Response(
        render_template("error.html", status=status, message=message),
        status=status,
        mimetype="text/html",
    )
    if retry is not None:
        response.headers["Retry-After"] = str(retry)
    if status == 405:
        response.headers["Allow"] = "GET, HEAD"
    return response
