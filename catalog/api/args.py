"""What the API's routes and the pages read from a request: the store, and
query or path parameters, checked as the command line checks them."""

from __future__ import annotations

from typing import cast

from flask import current_app, request

from catalog import service
from catalog.api.errors import BadParameter
from catalog.inputs import parse_int


def store() -> service.Store:
    """The app's catalog (``app.extensions["catalog"]``)."""
    return cast(service.Store, current_app.extensions["catalog"])


def int_arg(
    name: str,
    default: int | None = None,
    minimum: int = 0,
    maximum: int | None = None,
    value: str | None = None,
) -> int:
    """An integer query (or path) parameter in ASCII digits, or a 400 naming
    it (:func:`catalog.inputs.parse_int`, as the command line). Absent, it
    is ``default``; empty (``limit=``), too on a page (a form's blank field)
    but not in the JSON API, whose document says what an integer is."""
    text = request.args.get(name) if value is None else value
    if text == "" and request.path.startswith("/api/"):
        raise BadParameter(f"{name}: must be an integer, not empty")
    if text is None or text == "":
        if default is None:
            raise BadParameter(f"{name}: required")
        return default
    return parse_int(text, name, minimum, maximum)


def choice(name: str, choices: tuple[str, ...], default: str) -> str:
    """A query parameter that is one of ``choices`` (``default`` when absent)."""
    value = request.args.get(name, default)
    if value not in choices:
        raise BadParameter(f"{name}: must be one of {', '.join(choices)}")
    return value
