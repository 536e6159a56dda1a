"""The stored entries whose P-positions below n are exactly given cells.

One indexed read of the window prints (:mod:`catalog.store.prints`) finds
the candidates; each is then checked against its stored P-positions below
n. Only entries whose store holds the whole window x, y < n can match: an
entry not computed that far is not read, nor computed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sqlalchemy import select

from catalog.service.store import Store
from catalog.store import labels as labelled
from catalog.store import positions as stored
from catalog.store import prints
from catalog.store.ids import format_id
from catalog.store.tables import entries


def stored_matches(
    store: Store, cells: np.ndarray, n: int, limit: int = 50
) -> tuple[list[dict[str, Any]], int]:
    """Up to ``limit`` matching entries in ID order (``{"id", "label",
    "name"}``), and how many match in all."""
    cells = np.asarray(cells, dtype=np.int64).reshape(-1, 2)
    cells = cells[np.lexsort((cells[:, 1], cells[:, 0]))]
    matched: list[int] = []
    with store.reading() as connection:
        for number in prints.candidates(connection, cells, n):
            if not stored.covers(connection, number, n):
                continue
            found = stored.read_positions(connection, number, 0, n, n, store.cache)
            if found.shape == cells.shape and bool((found == cells).all()):
                matched.append(number)
        shown = matched[:limit]
        names = dict(
            connection.execute(
                select(entries.c.id, entries.c.name).where(entries.c.id.in_(shown))
            ).all()
        )
        labels = labelled.primary_labels(connection, shown)
    return [
        {"id": format_id(e), "label": labels.get(e), "name": names[e]} for e in shown
    ], len(matched)
