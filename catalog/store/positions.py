"""P-positions in the store: the extent, compressed chunks of columns, and
pages read from them through a per-process cache of decoded chunks.

Every function takes the session first and never creates, commits or closes
it. The reads run Core statements on :mod:`catalog.store.tables` and take a
bare Connection as well; only the writes import the ORM's models.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np
from sqlalchemy import bindparam, delete, select

from catalog.store import chunks
from catalog.store.db import Reader
from catalog.store.ids import format_id
from catalog.store.tables import extents, p_chunks, utcnow

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from catalog.store.models import Extent, PositionChunk


def get_extent(session: Session, entry_id: int) -> Extent | None:
    from catalog.store.models import Extent  # the ORM: writes alone

    return session.get(Extent, entry_id)


def write_chunk(
    session: Session,
    entry_id: int,
    x0: int,
    x1: int,
    y_bound: int | None,
    positions: np.ndarray,
) -> PositionChunk:
    """Store the P-positions of columns [x0, x1), replacing a chunk at x0."""
    from catalog.store.models import PositionChunk

    session.execute(
        delete(PositionChunk).where(
            PositionChunk.entry_id == entry_id, PositionChunk.x0 == x0
        )
    )
    encoding, data = chunks.encode_positions(positions)
    row = PositionChunk(
        entry_id=entry_id,
        x0=x0,
        x1=x1,
        y_bound=y_bound,
        count=len(positions),
        encoding=encoding,
        data=data,
        checksum=chunks.checksum(positions),
        created_at=utcnow(),
    )
    session.add(row)
    return row


class ChunkCache:
    """Decoded chunks, least recently used first out. Safe to share: a key
    holds the chunk's checksum, so a rewritten chunk is a new key."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._items: OrderedDict[tuple[int, int, str], np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[int, int, str]) -> np.ndarray | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: tuple[int, int, str], value: np.ndarray) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


#: The statements of the read paths, built once: building a statement and
#: its cache key costs more than running it on a small table.
_CHUNKS_FROM = (
    select(p_chunks.c.x0, p_chunks.c.checksum)
    .where(
        p_chunks.c.entry_id == bindparam("entry"),
        p_chunks.c.x1 > bindparam("x0"),
    )
    .order_by(p_chunks.c.x0)
)
_CHUNKS_IN = _CHUNKS_FROM.where(p_chunks.c.x0 < bindparam("x1"))
_CHUNK = select(
    p_chunks.c.count,
    p_chunks.c.encoding,
    p_chunks.c.checksum,
    p_chunks.c.data,
).where(p_chunks.c.entry_id == bindparam("entry"), p_chunks.c.x0 == bindparam("x0"))
_BOUNDS = select(extents.c.x_bound, extents.c.y_bound).where(
    extents.c.entry_id == bindparam("entry")
)


def iter_chunks(
    session: Reader,
    entry_id: int,
    x0: int = 0,
    x1: int | None = None,
    cache: ChunkCache | None = None,
) -> Iterator[np.ndarray]:
    """The decoded chunks that cover columns [x0, x1), in column order.

    Only the chunks' metadata is read first; a chunk's data is fetched and
    checked only when ``cache`` does not already hold it.
    """
    if x1 is None:
        query, params = _CHUNKS_FROM, {"entry": entry_id, "x0": x0}
    else:
        query, params = _CHUNKS_IN, {"entry": entry_id, "x0": x0, "x1": x1}
    for start, digest in session.execute(query, params).all():
        key = (entry_id, start, digest)
        found = cache.get(key) if cache is not None else None
        if found is None:
            # Read the row whole: a concurrent fill may have rewritten this
            # (partial, last) chunk since the metadata query.
            count, encoding, digest, data = session.execute(
                _CHUNK, {"entry": entry_id, "x0": start}
            ).one()
            key = (entry_id, start, digest)
            found = chunks.decode_positions(encoding, data, count)
            if chunks.checksum(found) != digest:
                raise chunks.CorruptChunk(
                    f"{format_id(entry_id)}: chunk at column {start} fails its checksum"
                )
            if cache is not None:
                cache.put(key, found)
        yield found


def read_positions(
    session: Reader,
    entry_id: int,
    x0: int = 0,
    x1: int | None = None,
    y1: int | None = None,
    cache: ChunkCache | None = None,
) -> np.ndarray:
    """Stored P-positions with x0 <= x < x1 (and y < y1), loading only the
    chunks that cover those columns.

    Memory: about one copy of the result (16 bytes a position) besides the
    cache: each chunk is cut to what is asked as it is decoded, and dropped
    once it is copied into the result, whose pages are touched only as it
    is written (10^7 columns of a game with two P-positions a column read
    back whole took three copies, some 1 GB).
    """
    parts = []
    for found in iter_chunks(session, entry_id, x0, x1, cache):
        keep = found[:, 0] >= x0
        if x1 is not None:
            keep &= found[:, 0] < x1
        if y1 is not None:
            keep &= found[:, 1] < y1
        parts.append(found if keep.all() else found[keep])
    result = np.empty((sum(len(part) for part in parts), 2), dtype=np.int64)
    parts.reverse()
    at = 0
    while parts:
        part = parts.pop()
        result[at : at + len(part)] = part
        at += len(part)
    return result


def covers(session: Reader, entry_id: int, n: int) -> bool:
    """Does the store hold every P-position of the entry with x, y < n?"""
    row = session.execute(_BOUNDS, {"entry": entry_id}).first()
    if row is None:
        return n == 0
    x_bound, y_bound = row
    return x_bound >= n and (y_bound is None or y_bound >= n)


def read_page(
    session: Reader,
    entry_id: int,
    n: int,
    start: tuple[int, int],
    limit: int,
    cache: ChunkCache | None = None,
) -> tuple[np.ndarray, tuple[int, int] | None]:
    """Up to ``limit`` positions with x, y < n from ``start`` = (x, y) on, in
    order, and where the next page starts (None after the last one)."""
    parts: list[np.ndarray] = []
    have = 0
    for found in iter_chunks(session, entry_id, start[0], n, cache):
        # Chunks are sorted by (x, y): slice by binary search, filter the slice.
        xs = found[:, 0]
        lo, hi = np.searchsorted(xs, start[0]), np.searchsorted(xs, start[0], "right")
        first = lo + int(np.searchsorted(found[lo:hi, 1], start[1]))
        stop = np.searchsorted(xs, n)
        piece = found[first:stop]
        piece = piece[piece[:, 1] < n]
        parts.append(piece[: limit + 1 - have])
        have += len(parts[-1])
        if have > limit:
            break
    page = np.concatenate(parts) if parts else np.zeros((0, 2), dtype=np.int64)
    if len(page) > limit:
        x, y = page[limit].tolist()
        return page[:limit], (x, y)
    return page, None


def chunk_rows(session: Session, entry_id: int) -> list[PositionChunk]:
    from catalog.store.models import PositionChunk

    query = select(PositionChunk).where(PositionChunk.entry_id == entry_id)
    return list(session.scalars(query.order_by(PositionChunk.x0)))
