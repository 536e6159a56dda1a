"""Labels of family members (``maharaja.1.2``): attach, read, look up.

Every function takes the session first and never creates, commits or closes
it. Apart from :mod:`catalog.store.families` (queries by facts), whose
fields come from the compute layer: reading an entry needs only its labels.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, Row, bindparam, func, insert, select, update

from catalog.store.db import Reader
from catalog.store.tables import labels as table


def attach_labels(session: Reader, entry_id: int, rows: Iterable[dict]) -> int:
    """Give the entry these labels (``{"label", "family", "rank",
    "parameters", "codes"}``); return how many were new or moved."""
    return attach_many(session, {entry_id: rows})


def attach_many(session: Reader, by_entry: Mapping[int, Iterable[dict]]) -> int:
    """:func:`attach_labels` for many entries, in a few statements; return
    how many labels were new or moved.

    Core statements on a session or a plain connection (``wythoff add``
    writes without the ORM); the ORM never holds a label's row as an object.
    """
    from catalog.store.rows import chunked

    wanted = {
        row["label"]: _values(entry_id, row)
        for entry_id, rows in by_entry.items()
        for row in rows
    }
    if not isinstance(session, Connection):
        session.flush()  # the statements below are Core's: no autoflush
    existing: dict[str, Row] = {}
    for chunk in chunked(list(wanted)):
        query = select(table).where(table.c.label.in_(chunk))
        existing.update((found.label, found) for found in session.execute(query))
    changed = 0
    new = []
    for label, values in wanted.items():
        found = existing.get(label)
        if found is None:
            new.append({"label": label, **values})
            changed += 1
        elif any(getattr(found, k) != v for k, v in values.items()):
            changed += found.entry_id != values["entry_id"]
            session.execute(update(table).where(table.c.label == label), values)
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
