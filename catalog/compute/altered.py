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
from catalog.compute.kernel import KernelSweep
from catalog.games.definition import Definition


def is_altered_wythoff(game: Definition) -> bool:
    """Wythoff's rays, no single moves or special rules, some alteration."""
    return (
        game.rays == WYTHOFF_RAYS and not (game.moves or game.special) and game.altered
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
    """Sweep column by column until a natural column is saturated."""
    natural = 1 + max((x for x, _ in game.forced_p + game.forced_n), default=-1)
    sweep = KernelSweep(game)
    found = np.zeros((0, 2), dtype=np.int64)
    diagonals: set[int] = set()
    x, target = 0, max(64, 2 * natural + 64)
    while True:
        found = np.concatenate([found, sweep.advance(target)])
        ys_of = np.split(
            found[:, 1], np.searchsorted(found[:, 0], np.arange(1, target))
        )
        for t in range(x, target):
            diagonals.update((ys_of[t] - t).tolist())
            lo, hi = min(diagonals), max(diagonals)
            if t >= natural and len(diagonals) == hi - lo + 1:
                done = found[found[:, 0] <= t]
                low, high = t + lo, t + hi
                used = np.zeros(high - low + 1, dtype=np.int8)
                rows = done[:, 1]
                used[rows[(rows >= low) & (rows <= high)] - low] = 1
                return Saturation(t, low, high, used, done)
        x, target = target, 2 * target


def _w(bits: np.ndarray) -> np.ndarray:
    """w: 0 → 001, 1 → 01, on an int8 array."""
    ends = np.cumsum(3 - bits.astype(np.int64))
    out = np.zeros(int(ends[-1]) if ends.size else 0, dtype=np.int8)
    out[ends - 1] = 1
    return out


def row_stream(bits: np.ndarray, length: int) -> np.ndarray:
    """The first ``length`` symbols of R = S · w(R)."""
    stream = bits.astype(np.int8)
    while stream.size < length:
        grown = np.concatenate([bits.astype(np.int8), _w(stream)])
        if grown.size <= stream.size:  # S is empty: nothing ever grows
            break
        stream = grown
    return stream[:length]


def p_positions(game: Definition, n: int) -> np.ndarray:
    """Every P-position with x, y < n of an altered Wythoff game."""
    sat = saturation(game)
    head = sat.positions
    if n <= sat.column + 1:
        head = head[head[:, 0] < n]
        return head[head[:, 1] < n]
    columns = n - sat.column - 1
    # Each symbol gives at least one column: ``columns`` symbols are enough.
    stream = row_stream(sat.bits, columns).astype(np.int64)
    per_symbol = 2 - stream
    first_col = sat.column + 1 + np.cumsum(per_symbol) - per_symbol
    upper_row = sat.low + sat.bits.size + np.cumsum(3 - stream) - 1
    zero = stream == 0
    # One P-position per column from here on: fill the column -> row table.
    base = sat.column + 1
    rows = np.empty(int(first_col[-1] + per_symbol[-1]) - base, dtype=np.int64)
    rows[first_col[zero] - base] = sat.low + np.flatnonzero(zero)
    rows[first_col + zero - base] = upper_row
    rows = rows[:columns]
    xs = np.flatnonzero(rows < n)
    tail = np.column_stack([xs + base, rows[xs]])
    head = head[head[:, 1] < n]
    return np.concatenate([head, tail])
