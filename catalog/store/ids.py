"""Permanent entry IDs: ``W`` and six digits."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from sqlalchemy import func, select

from catalog.errors import BadInput, NotFound
from catalog.inputs import SPACE, shown
from catalog.store.tables import entries

if TYPE_CHECKING:
    from catalog.store.db import Reader

#: ASCII digits only (``\d`` would take ``W００００01``), and nothing after them.
_ID = re.compile(r"[Ww]([0-9]{6})")


class UnknownEntry(NotFound):
    """No entry has this ID."""


class BadId(BadInput):
    """Text that is not of the form W000123."""


def format_id(number: int) -> str:
    return f"W{number:06d}"


def parse_id(text: str) -> int:
    """The number of the ID ``text`` (``W000004`` -> 4), or BadId."""
    match = _ID.fullmatch(text.strip(SPACE)) if isinstance(text, str) else None
    if match is None or int(match.group(1)) == 0:
        what = shown(text) if isinstance(text, str) else type(text).__name__
        raise BadId(
            f"not an entry ID: {what} (expected W and six digits, e.g. W000001)"
        )
    return int(match.group(1))


class IdsExhausted(BadInput):
    """Every number below the family blocks is taken."""


def next_free(session: Reader) -> int:
    """The number after the largest one in use below the family blocks (IDs
    only ever append; numbers from :data:`FIRST_FAMILY_ID` on belong to the
    families, see :mod:`catalog.families.registry`)."""
    # Imported here: reading an entry resolves IDs without the families.
    from catalog.families.registry import FIRST_FAMILY_ID

    below = select(func.max(entries.c.id)).where(entries.c.id < FIRST_FAMILY_ID)
    number = (session.scalar(below) or 0) + 1
    if number >= FIRST_FAMILY_ID:
        raise IdsExhausted(f"every ID below {format_id(FIRST_FAMILY_ID)} is taken")
    return number
