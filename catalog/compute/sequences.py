"""Integer sequences and bitstrings read off a set of P-positions.

Pure functions of the positions; the store keeps their first terms.
"""

from __future__ import annotations

import numpy as np

#: Terms kept per sequence (and bits per bitstring) in the store.
MAX_TERMS = 100_000


def column_sequence(positions: np.ndarray, x_bound: int) -> np.ndarray | None:
    """y(x) when every column x < x_bound holds exactly one P-position."""
    xs = positions[:, 0]
    if len(xs) != x_bound or not np.array_equal(xs, np.arange(x_bound)):
        return None
    return positions[:, 1].copy()


def column_tail(positions: np.ndarray, x_bound: int) -> tuple[int, np.ndarray] | None:
    """``(x0, y(x) for x0 <= x < x_bound)``: the column sequence from the
    first column x0 after which every column below ``x_bound`` holds exactly
    one P-position (0 when every column does). A Box(a, b) forced P holds b
    P-positions in each of its a columns: its tail starts at x0 = a. None
    when the last column itself holds other than one.

    ``positions`` are whole columns, sorted by x then y.
    """
    xs = positions[:, 0]
    inside = xs < x_bound
    counts = np.bincount(xs[inside], minlength=x_bound)
    other = np.flatnonzero(counts != 1)
    x0 = int(other[-1]) + 1 if other.size else 0
    if x0 >= x_bound:
        return None
    return x0, positions[inside & (xs >= x0), 1].copy()


def is_symmetric(positions: np.ndarray, x_bound: int) -> bool:
    """Are the P-positions inside the square [0, x_bound)^2 symmetric in x
    and y? Needs whole columns below ``x_bound``."""
    inside = positions[:, 1] < x_bound
    if not inside.any():
        return True
    # One int64 key per position, (x, y) -> x * side + y, sorted as the
    # positions are: a quarter of the memory of sorting the mirrored pairs.
    side = max(x_bound, int(positions[inside, 0].max()) + 1)
    keys = positions[inside, 0] * side + positions[inside, 1]
    mirrored = positions[inside, 1] * side + positions[inside, 0]
    del inside
    mirrored.sort()
    return bool(np.array_equal(keys, mirrored))


def symmetric_pairs(
    positions: np.ndarray, x_bound: int
) -> tuple[np.ndarray, np.ndarray] | None:
    """(a_n, b_n): the P-positions with a_n <= b_n, when the set is symmetric.

    Needs whole columns below ``x_bound``: then every pair with a_n < x_bound
    is known. None unless the positions inside the square [0, x_bound)^2 are
    symmetric and a_n is strictly increasing.
    """
    if not is_symmetric(positions, x_bound):
        return None
    lower = positions[positions[:, 0] <= positions[:, 1]]
    if lower.size and np.any(np.diff(lower[:, 0]) <= 0):
        return None
    return lower[:, 0].copy(), lower[:, 1].copy()


def upper_lower_bits(column: np.ndarray, most: int | None = None) -> tuple[int, str]:
    """Maharaja's bit-string: bit x is 0 when column x holds an upper
    P-position (y > x), 1 when it holds a lower one (y < x).

    Returns ``(start, bits)``: the bits start after the last column whose
    P-position lies on the diagonal (usually (0, 0)); at most ``most`` bits.
    """
    on_diagonal = np.flatnonzero(column == np.arange(column.size))
    start = int(on_diagonal[-1]) + 1 if on_diagonal.size else 0
    end = column.size if most is None else min(column.size, start + most)
    lower = column[start:end] < np.arange(start, end)
    return start, (lower.view(np.uint8) + ord("0")).tobytes().decode()


def derive(
    positions: np.ndarray, x_bound: int, whole_columns: bool
) -> tuple[dict[str, tuple[int, np.ndarray, str]], dict[str, tuple[int, str]]]:
    """The sequences (name -> (offset, terms, description)) and bitstrings
    (kind -> (start, bits)) that apply, cut to :data:`MAX_TERMS`."""
    sequences: dict[str, tuple[int, np.ndarray, str]] = {}
    bitstrings: dict[str, tuple[int, str]] = {}
    if not whole_columns:
        return sequences, bitstrings
    column = column_sequence(positions, x_bound)
    if column is not None:
        sequences["y"] = (
            0,
            column[:MAX_TERMS],
            "y(x): the row of the P-position in column x",
        )
        start, bits = upper_lower_bits(column, MAX_TERMS)
        bitstrings["upper-lower"] = (start, bits)
        sequences["bits"] = (
            start,
            np.frombuffer(bits[:MAX_TERMS].encode(), dtype=np.uint8) - ord("0"),
            "bit x: 0 when column x holds an upper P-position, 1 for a lower one",
        )
    pairs = symmetric_pairs(positions, x_bound)
    if pairs is not None:
        a, b = pairs
        sequences["a"] = (
            0,
            a[:MAX_TERMS],
            "a_n: the smaller coordinate of the n-th pair",
        )
        sequences["b"] = (
            0,
            b[:MAX_TERMS],
            "b_n: the larger coordinate of the n-th pair",
        )
        sequences["b-a"] = (0, (b - a)[:MAX_TERMS], "b_n - a_n")
    return sequences, bitstrings
