"""Labels of family members (``maharaja.1.2``): attach, read, look up.

Every function takes the session first and never creates, commits or closes
it. Apart from :mod:`catalog.store.families` (queries by facts), whose
fields come from the compute layer: reading an entry needs only its labels.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import Row, bindparam, func, select
from sqlalchemy.orm import Session

from catalog.store.db import Reader
from catalog.store.models import Label


def attach_labels(session: Session, entry_id: int, rows: Iterable[dict]) -> int:
    """Give the entry these labels (``{"label", "family", "rank",
    "parameters", "codes"}``); return how many were new or moved."""
    rows = list(rows)
    query = select(Label).where(Label.label.in_([row["label"] for row in rows]))
    existing = {found.label: found for found in session.scalars(query)}
    changed = 0
    for row in rows:
        codes = list(row["codes"]) + [None] * (3 - len(row["codes"]))
        values = {
            "entry_id": entry_id,
            "family": row["family"],
            "rank": row["rank"],
            "parameters": row["parameters"],
            "p1": codes[0],
            "p2": codes[1],
            "p3": codes[2],
        }
        found = existing.get(row["label"])
        if found is None:
            session.add(Label(label=row["label"], **values))
            changed += 1
        elif any(getattr(found, k) != v for k, v in values.items()):
            changed += found.entry_id != entry_id
            for key, value in values.items():
                setattr(found, key, value)
    return changed


_LABELS_OF = (
    select(Label.label, Label.family, Label.parameters)
    .where(Label.entry_id == bindparam("entry"))
    .order_by(Label.rank, Label.label)
)


def labels_of(session: Reader, entry_id: int) -> list[Row[Any]]:
    """The entry's labels as rows of (label, family, parameters), primary
    (lowest family) first."""
    return list(session.execute(_LABELS_OF, {"entry": entry_id}))


def primary_labels(session: Session, entry_ids: Sequence[int]) -> dict[int, str]:
    """The primary label of each of these entries that has one."""
    out: dict[int, str] = {}
    if not entry_ids:
        return out
    query = (
        select(Label.entry_id, Label.label)
        .where(Label.entry_id.in_(entry_ids))
        .order_by(Label.entry_id, Label.rank, Label.label)
    )
    for number, label in session.execute(query):
        out.setdefault(number, label)
    return out


def entry_for_label(session: Session, label: str) -> int | None:
    return session.scalar(select(Label.entry_id).where(Label.label == label))


def family_counts(session: Session) -> dict[str, int]:
    """How many members of each family the catalog holds."""
    query = select(Label.family, func.count()).group_by(Label.family)
    return {family: count for family, count in session.execute(query)}
