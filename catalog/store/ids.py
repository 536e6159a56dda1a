"""Permanent entry IDs: ``W`` and six digits."""

from __future__ import annotations

import re

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from catalog.errors import BadInput, NotFound
from catalog.store.models import Entry

_ID = re.compile(r"^[Ww](\d{6})$")


class UnknownEntry(NotFound):
    """No entry has this ID."""


class BadId(BadInput):
    """Text that is not of the form W000123."""


def format_id(number: int) -> str:
    return f"W{number:06d}"


def parse_id(text: str) -> int:
    match = _ID.match(text.strip()) if isinstance(text, str) else None
    if match is None or int(match.group(1)) == 0:
        raise BadId(
            f"not an entry ID: {text!r} (expected W and six digits, e.g. W000001)"
        )
    return int(match.group(1))


def next_free(session: Session) -> int:
    """The number after the largest one in use (IDs only ever append)."""
    return (session.scalar(select(func.max(Entry.id))) or 0) + 1
