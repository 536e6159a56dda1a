"""Labels of family members (``maharaja.1.2``): attach, read, look up.

Every function takes the session first and never creates, commits or closes
it. Apart from :mod:`catalog.store.families` (queries by facts), whose
fields come from the compute layer: reading an entry needs only its labels.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import Row, bindparam, func, insert, select

from catalog.store.db import Reader
from catalog.store.tables import labels as table

if TYPE_CHECKING:
    from sqlalchemy.orm import Session


def attach_labels(session: Session, entry_id: int, rows: Iterable[dict]) -> int:
    """Give the entry these labels (``{"label", "family", "rank",
    "parameters", "codes"}``); return how many were new or moved."""
    return attach_many(session, {entry_id: rows})


def attach_many(session: Session, by_entry: Mapping[int, Iterable[dict]]) -> int:
    """:func:`attach_labels` for many entries, in a few statements; return
    how many labels were new or moved."""
    from catalog.store.entries import chunked
    from catalog.store.models import Label  # the ORM: writes alone

    wanted = {
        row["label"]: _values(entry_id, row)
        for entry_id, rows in by_entry.items()
        for row in rows
    }
    session.flush()  # the insert below is Core's: no autoflush
    existing: dict[str, Label] = {}
    for chunk in chunked(list(wanted)):
        query = select(Label).where(Label.label.in_(chunk))
        existing.update((found.label, found) for found in session.scalars(query))
    changed = 0
    new = []
    for label, values in wanted.items():
        found = existing.get(label)
        if found is None:
            new.append({"label": label, **values})
            changed += 1
        elif any(getattr(found, k) != v for k, v in values.items()):
            changed += found.entry_id != values["entry_id"]
            for key, value in values.items():
                setattr(found, key, value)
    if new:
        session.execute(insert(table), new)
    return changed


def _values(entry_id: int, row: dict) -> dict[str, Any]:
    codes = list(row["codes"]) + [None] * (3 - len(row["codes"]))
    return {
        "entry_id": entry_id,
        "family": row["family"],
        "rank": row["rank"],
        "parameters": row["parameters"],
        "p1": codes[0],
        "p2": codes[1],
        "p3": codes[2],
    }


_LABELS_OF = (
    select(table.c.label, table.c.family, table.c.parameters)
    .where(table.c.entry_id == bindparam("entry"))
    .order_by(table.c.rank, table.c.label)
)
_ENTRY_FOR_LABEL = select(table.c.entry_id).where(table.c.label == bindparam("label"))


def labels_of(session: Reader, entry_id: int) -> list[Row[Any]]:
    """The entry's labels as rows of (label, family, parameters), primary
    (lowest family) first."""
    return list(session.execute(_LABELS_OF, {"entry": entry_id}))


def primary_labels(session: Reader, entry_ids: Sequence[int]) -> dict[int, str]:
    """The primary label of each of these entries that has one."""
    out: dict[int, str] = {}
    if not entry_ids:
        return out
    query = (
        select(table.c.entry_id, table.c.label)
        .where(table.c.entry_id.in_(entry_ids))
        .order_by(table.c.entry_id, table.c.rank, table.c.label)
    )
    for number, label in session.execute(query):
        out.setdefault(number, label)
    return out


def entry_for_label(session: Reader, label: str) -> int | None:
    return session.scalar(_ENTRY_FOR_LABEL, {"label": label})


def family_counts(session: Reader) -> dict[str, int]:
    """How many members of each family the catalog holds."""
    query = select(table.c.family, func.count()).group_by(table.c.family)
    return {family: count for family, count in session.execute(query)}
