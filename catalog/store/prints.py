"""Window prints: which entries have given P-positions below n, by one read.

For each entry the store keeps the digest of its P-positions in the windows
x, y < m for the sizes m of :data:`SIZES` that its stored columns hold
whole. A query of the window n reads the entries whose print at the
largest size m ≤ n is the data's, then checks each against its stored
P-positions below n: the print narrows, the check decides. Thirteen rows an
entry (about 0.6 KB with the index, on SQLite).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

import numpy as np
from sqlalchemy import Connection, delete, insert, select
from sqlalchemy.orm import Session

from catalog.store.tables import window_prints

#: The window sizes printed: 1, 2, 4, …, 4096.
SIZES = tuple(2**k for k in range(13))


def digest(positions: np.ndarray, size: int) -> int:
    """The print of the P-positions with x, y < size (any order): the first
    eight bytes of BLAKE2b over the sorted pairs as int64, a signed integer.

    >>> first = digest(np.array([[1, 2], [0, 0], [2, 1]]), 3)
    >>> first == digest(np.array([[0, 0], [1, 2], [2, 1], [5, 0]]), 3)
    True
    """
    inside = positions[(positions[:, 0] < size) & (positions[:, 1] < size)]
    inside = inside[np.lexsort((inside[:, 1], inside[:, 0]))].astype("<i8")
    raw = hashlib.blake2b(np.ascontiguousarray(inside).tobytes(), digest_size=8)
    return int.from_bytes(raw.digest(), "little", signed=True)


def sizes_within(window: int) -> list[int]:
    """The printed sizes that a stored window x, y < ``window`` holds."""
    return [m for m in SIZES if m <= window]


def rows(entry_id: int, positions: np.ndarray, window: int) -> list[dict]:
    return [
        {"size": m, "digest": digest(positions, m), "entry_id": entry_id}
        for m in sizes_within(window)
    ]


def replace(
    session: Session | Connection, entry_id: int, positions: np.ndarray, window: int
) -> None:
    """The entry's prints for its stored window, in one statement each way."""
    session.execute(delete(window_prints).where(window_prints.c.entry_id == entry_id))
    found = rows(entry_id, positions, window)
    if found:
        session.execute(insert(window_prints), found)


def clear(session: Session | Connection, entry_ids: Iterable[int]) -> None:
    session.execute(
        delete(window_prints).where(window_prints.c.entry_id.in_(list(entry_ids)))
    )


def rebuild(session: Session | Connection) -> int:
    """Every stored entry's prints, from its stored P-positions (migration
    0008 and ``wythoff db reindex``); return the entries printed."""
    from catalog.store.positions import read_positions
    from catalog.store.tables import extents

    done = 0
    for entry_id, x_bound, y_bound in session.execute(
        select(extents.c.entry_id, extents.c.x_bound, extents.c.y_bound)
    ).all():
        window = min(x_bound, SIZES[-1], y_bound if y_bound is not None else x_bound)
        if window >= 1:
            found = read_positions(session, entry_id, 0, window, window)
            replace(session, entry_id, found, window)
            done += 1
    return done


def candidates(connection: Connection, cells: np.ndarray, n: int) -> list[int]:
    """The entries whose print of the largest size m ≤ n is the data's."""
    size = max(m for m in SIZES if m <= n)
    found = connection.scalars(
        select(window_prints.c.entry_id)
        .where(window_prints.c.size == size)
        .where(window_prints.c.digest == digest(cells, size))
        .order_by(window_prints.c.entry_id)
    )
    return list(found)
