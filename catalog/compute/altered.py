"""Altered Wythoff games: the compiled sweep to saturation, then the Wythoff update.

Hu, Sleator and Tsin (sections 2–3): after a natural column t whose used
diagonals form one interval [l_t − t, u_t − t] (Lemma 2, saturation), every
later column is found from the bitstring S_t = row_t[l_t..u_t] (1 = used row).
Reading S_t from the front as a queue, a 0 gives a lower P-position in row
l (then the row is used and read again as a 1), a 1 gives an upper P-position
two rows above u, and every symbol read appends w(symbol) at the back, where
w: 0 → 001, 1 → 01 (Lemma 3 and section 4). So the rows from l_t on read

    R = S · w(S) · w²(S) · …  (equivalently R = S · w(R)),

and symbol R[i] contributes, column after column:

- R[i] = 0: a lower P-position in row l + i, then an upper one;
- R[i] = 1: an upper P-position;

the upper one sitting in the row of the last bit of w(R[i]), which is row
l + |S| + Σ_{j<=i} |w(R[j])| − 1. All of that is prefix sums: numpy, no
per-column Python loop.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from catalog.compute.closed import WYTHOFF_RAYS
from catalog.compute.jit import njit
from catalog.games.definition import Definition


def is_altered_wythoff(game: Definition) -> bool:
    """Wythoff's rays and an alteration, no other rule."""
    return (
        game.rays == WYTHOFF_RAYS and not game.beyond("rays", "alter") and game.altered
    )


@dataclass(frozen=True)
class Saturation:
    """The state of an altered Wythoff game at its saturation column."""

    #: The first natural column after which diag[] is saturated (Lemma 2).
    column: int
    #: l_t and u_t: lowest and highest row whose diagonal holds a P-position.
    low: int
    high: int
    #: S_t: row_t[l_t..u_t], 1 where the row holds a P-position.
    bits: np.ndarray
    #: Every P-position in the columns up to and including ``column``.
    positions: np.ndarray


def saturation(game: Definition) -> Saturation:
    """Sweep column by column until a natural column is saturated.

    Vectorised over the positions found so far: the running count of
    distinct diagonals against the running min and max, so the test costs
    O(n log n) however far the alteration reaches.
    """
    # Imported here: is-p and show ask is_altered_wythoff without a sweep.
    from catalog.compute.kernel import KernelSweep

    natural = 1 + max((x for x, _ in game.forced_p + game.forced_n), default=-1)
    sweep = KernelSweep(game)
    found = np.zeros((0, 2), dtype=np.int64)
    target = max(64, 2 * natural + 64)
    while True:
        found = np.concatenate([found, sweep.advance(target)])
        diagonal = found[:, 1] - found[:, 0]
        first = np.zeros(diagonal.size, dtype=bool)
        first[np.unique(diagonal, return_index=True)[1]] = True
        distinct = np.cumsum(first)
        lo = np.minimum.accumulate(diagonal)
        hi = np.maximum.accumulate(diagonal)
        columns = np.arange(natural, target)
        # Every column holds a P-position (the vertical ray), so each column
        # t has a last position with x <= t.
        last = np.searchsorted(found[:, 0], columns, side="right") - 1
        interval = distinct[last] == hi[last] - lo[last] + 1
        if interval.any():
            k = int(np.argmax(interval))
            t, end = int(columns[k]), int(last[k])
            low, high = t + int(lo[end]), t + int(hi[end])
            done = found[: end + 1]
            used = np.zeros(high - low + 1, dtype=np.int8)
            rows = done[:, 1]
            used[rows[(rows >= low) & (rows <= high)] - low] = 1
            return Saturation(t, low, high, used, done)
        target *= 2


@njit(cache=True)
def _run_queue(bits, stream_length):
    """The first symbols of R = S · w(R), read as a queue (Lemma 3)."""
    buffer = np.empty(bits.size + 3 * stream_length + 3, dtype=np.int8)
    buffer[: bits.size] = bits
    end = bits.size
    for i in range(stream_length):
        if i >= end:  # an empty S never grows
            return buffer[:end].copy()
        end = _append_w(buffer, end, buffer[i])
    return buffer[:stream_length].copy()


@njit(cache=True, inline="always")
def _append_w(buffer, end, symbol):
    """Append w(symbol) (0 → 001, 1 → 01) at ``end``; return the new end."""
    if symbol == 0:
        buffer[end] = 0
        buffer[end + 1] = 0
        buffer[end + 2] = 1
        return end + 3
    buffer[end] = 0
    buffer[end + 1] = 1
    return end + 2


@njit(cache=True)
def _tail(bits, low, first_column, n, head):
    """The head positions with y < n, then the P-positions of the columns
    from ``first_column`` on, read off the queue in one pass."""
    columns = n - first_column
    out = np.empty((head.shape[0] + columns, 2), dtype=np.int64)
    kept = 0
    for k in range(head.shape[0]):
        if head[k, 1] < n:
            out[kept, 0] = head[k, 0]
            out[kept, 1] = head[k, 1]
            kept += 1
    buffer = np.empty(bits.size + 3 * columns + 3, dtype=np.int8)
    buffer[: bits.size] = bits
    end = bits.size
    col = 0
    i = 0
    while col < columns and i < end:
        symbol = buffer[i]
        end = _append_w(buffer, end, symbol)
        if symbol == 0:  # a lower P-position in row l + i, then an upper one
            if low + i < n:
                out[kept, 0] = first_column + col
                out[kept, 1] = low + i
                kept += 1
            col += 1
            if col >= columns:
                break
        if low + end - 1 < n:  # the upper one: the row of w's final 1
            out[kept, 0] = first_column + col
            out[kept, 1] = low + end - 1
            kept += 1
        col += 1
        i += 1
    return out[:kept]


def row_stream(bits: np.ndarray, length: int) -> np.ndarray:
    """The first ``length`` symbols of R = S · w(R)."""
    return _run_queue(np.asarray(bits, dtype=np.int8), length)


def p_positions(game: Definition, n: int, sat: Saturation | None = None) -> np.ndarray:
    """Every P-position with x, y < n of an altered Wythoff game (from its
    saturated state ``sat`` when the caller already has it)."""
    sat = saturation(game) if sat is None else sat
    head = sat.positions
    if n <= sat.column + 1:
        head = head[head[:, 0] < n]
        return head[head[:, 1] < n]
    return _tail(sat.bits.astype(np.int8), sat.low, sat.column + 1, n, head)
