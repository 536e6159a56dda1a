"""The one exception hierarchy of every error a user can meet.

Each kind carries its HTTP status. The API's error handler
(:mod:`catalog.api.errors`) and the CLI's top level (:mod:`catalog.cli.main`) map
:class:`CatalogError` and nothing else to a user-facing message; any other
exception is a bug, logged with its traceback.

Kept free of imports so that every layer (games, compute, store, service)
can raise these without pulling in the others.
"""

from __future__ import annotations


class CatalogError(Exception):
    """An error to show the user: the message says what was wrong."""

    #: HTTP status the API answers with.
    status = 400
    #: Seconds after which a retry may succeed (``Retry-After``), if any.
    retry_after: int | None = None


class BadInput(CatalogError, ValueError):
    """An argument, parameter or definition that makes no sense (400)."""


class Unprocessable(BadInput):
    """Input that matches every rule the API's document states for each
    parameter, but not together or not for this catalog (422): a position
    outside the window ``n``, (0, 0) as a move, a field the family's members
    lack. The message names the parameters."""

    status = 422


class NotFound(CatalogError, LookupError):
    """No entry, sequence, family or label of that name (404)."""

    status = 404


class TooMuchWork(CatalogError):
    """The request needs more work than one request may do (422); the message
    names the budget and the estimate."""

    status = 422


class Busy(CatalogError):
    """Another process holds what this request needs; try again (503)."""

    status = 503

    def __init__(self, message: str, retry_after: int = 5) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Throttled(CatalogError):
    """The request's computation cannot run now (429): the client has spent
    its quota of work, or every compute slot of the server is in use. Reads
    of what is stored are never throttled; ``Retry-After`` says when to ask
    again."""

    status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class DatabaseUnavailable(CatalogError):
    """The database cannot be reached, opened or written (503)."""

    status = 503
    retry_after = 10


class StoreCorrupt(CatalogError):
    """Stored data fails its own check (a checksum): a fault of the server, not
    of the request (500); ``wythoff verify`` finds every such place."""

    status = 500
