"""Compact encoding of P-positions and sequences.

A chunk holds the P-positions of a range of columns, sorted by x then y. It is
stored as two delta streams: the steps of x (mostly 0 or 1) and the steps of
y within a column (the first y of a column is stored as is). Both streams go
in the narrowest signed integer type that holds them, then through zlib.
The encoding name records the type, e.g. ``delta-zlib-i2``.
"""

from __future__ import annotations

import hashlib
import zlib

import numpy as np

from catalog.errors import StoreCorrupt

_WIDTHS = (np.int8, np.int16, np.int32, np.int64)


class CorruptChunk(StoreCorrupt):
    """A stored chunk does not decode to what its checksum promises."""


def checksum(values: np.ndarray) -> str:
    data = np.ascontiguousarray(values, dtype="<i8").tobytes()
    return hashlib.sha256(data).hexdigest()


def _narrowest(values: np.ndarray) -> type[np.signedinteger]:
    if values.size == 0:
        return np.int8
    lo, hi = int(values.min()), int(values.max())
    for dtype in _WIDTHS:
        info = np.iinfo(dtype)
        if info.min <= lo and hi <= info.max:
            return dtype
    raise OverflowError("values do not fit in 64 bits")


def encode_ints(values: np.ndarray) -> tuple[str, bytes]:
    """Delta-encode a 1-d integer array: ``(encoding, data)``."""
    values = np.asarray(values, dtype=np.int64)
    deltas = np.diff(values, prepend=np.int64(0))
    dtype = _narrowest(deltas)
    name = f"delta-zlib-i{np.dtype(dtype).itemsize}"
    return name, zlib.compress(
        deltas.astype(np.dtype(dtype).newbyteorder("<")).tobytes()
    )


def decode_ints(encoding: str, data: bytes, count: int | None = None) -> np.ndarray:
    """The integers ``encode_ints`` wrote; only the first ``count`` of them
    when given (decompressing no further than they reach)."""
    dtype = _dtype_of(encoding, "delta-zlib-i")
    if count is None:
        raw = zlib.decompress(data)
    elif count <= 0:  # max_length 0 would mean "no limit"
        raw = b""
    else:
        raw = zlib.decompressobj().decompress(data, count * dtype.itemsize)
    deltas = np.frombuffer(raw, dtype=dtype)
    return np.cumsum(deltas, dtype=np.int64)


def _dtype_of(encoding: str, prefix: str) -> np.dtype:
    if not encoding.startswith(prefix):
        raise CorruptChunk(f"unknown encoding {encoding!r}")
    size = encoding[len(prefix) :]
    if size not in {"1", "2", "4", "8"}:
        raise CorruptChunk(f"unknown encoding {encoding!r}")
    return np.dtype(f"<i{size}")


def encode_positions(positions: np.ndarray) -> tuple[str, bytes]:
    """Encode a (k, 2) array sorted by x then y: ``(encoding, data)``."""
    positions = np.asarray(positions, dtype=np.int64).reshape(-1, 2)
    xs, ys = positions[:, 0], positions[:, 1]
    dx = np.diff(xs, prepend=xs[:1]) if xs.size else xs
    new_column = np.ones(ys.size, dtype=bool)
    new_column[1:] = dx[1:] != 0
    dy = ys - np.where(new_column, 0, np.roll(ys, 1))
    first = xs[:1] if xs.size else np.zeros(1, dtype=np.int64)
    stream = np.concatenate([first, dx, dy])
    dtype = np.dtype(_narrowest(stream)).newbyteorder("<")
    name = f"pos-zlib-i{dtype.itemsize}"
    return name, zlib.compress(stream.astype(dtype).tobytes())


def decode_positions(encoding: str, data: bytes, count: int) -> np.ndarray:
    dtype = _dtype_of(encoding, "pos-zlib-i")
    stream = np.frombuffer(zlib.decompress(data), dtype=dtype).astype(np.int64)
    if stream.size != 1 + 2 * count:
        raise CorruptChunk("chunk length does not match its count")
    if count == 0:
        return np.zeros((0, 2), dtype=np.int64)
    first, dx, dy = stream[0], stream[1 : 1 + count], stream[1 + count :]
    xs = first + np.cumsum(dx)
    new_column = np.ones(count, dtype=bool)
    new_column[1:] = dx[1:] != 0
    # y restarts at each new column: cumulative sum within runs of equal x.
    total = np.cumsum(dy)
    starts = np.flatnonzero(new_column)
    base = np.repeat(total[starts] - dy[starts], np.diff(np.append(starts, count)))
    ys = total - base
    return np.column_stack([xs, ys])
