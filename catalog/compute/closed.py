"""Wythoff's Nim in closed form, in exact integer arithmetic.

The P-positions are (a_k, b_k) and (b_k, a_k) with a_k = ⌊kφ⌋ and
b_k = a_k + k = ⌊kφ²⌋ (Wythoff 1907; see the covering-theorem notes).
Since kφ = (k + k√5) / 2, a_k = (k + ⌊√(5k²)⌋) // 2 exactly.
"""

from __future__ import annotations

from math import isqrt

import numpy as np

from catalog import kinds
from catalog.games.definition import Definition
from catalog.kinds.ho import Special

WYTHOFF_RAYS = ((0, 1), (1, 0), (1, 1))


def is_wythoff(game: Definition) -> bool:
    """Is ``game`` Wythoff's Nim itself (no extra moves, rules or alterations)?"""
    return game.rays == WYTHOFF_RAYS and not game.beyond("rays")


def is_ho_variant(game: Definition) -> bool:
    """Is ``game`` Wythoff's Nim with exactly one special rule that keeps
    its P-positions (Ho's restriction or extension, :mod:`catalog.kinds.ho`)
    and nothing else? Its P-positions are Wythoff's by Ho's theorem, and the move
    :func:`outcome` gives is legal in it: the extension only adds moves, and
    that move takes from both piles or from the larger one alone, which the
    restriction allows."""
    others = game.beyond("rays")
    if game.rays != WYTHOFF_RAYS or len(others) != 1:
        return False
    rule = kinds.by_name(next(iter(others)))
    return isinstance(rule, Special) and rule.keeps_wythoff


def isqrt_array(values: np.ndarray) -> np.ndarray:
    """⌊√v⌋ for int64 values below 2**62, exactly (float guess, then fixed)."""
    root = np.sqrt(values.astype(np.float64)).astype(np.int64)
    root -= (root * root > values).astype(np.int64)
    root += ((root + 1) * (root + 1) <= values).astype(np.int64)
    return root


def lower(k: int) -> int:
    """a_k = ⌊kφ⌋ for any non-negative integer k."""
    return (k + isqrt(5 * k * k)) // 2


def p_positions(n: int) -> np.ndarray:
    """Every P-position of Wythoff's Nim with x, y < n, sorted by x.

    One P-position per column: y(a_k) = b_k and y(b_k) = a_k. The columns are
    filled by two scatters, so the cost is O(n) numpy work.
    """
    if n <= 0:
        return np.zeros((0, 2), dtype=np.int64)
    k_max = int(n / 1.618) + 2  # a_k < n needs k < n/φ + 1
    k = np.arange(k_max, dtype=np.int64)
    a = (k + isqrt_array(5 * k * k)) // 2
    b = a + k
    column = np.full(n, -1, dtype=np.int64)
    keep = a < n
    column[a[keep]] = b[keep]
    keep = b < n
    column[b[keep]] = a[keep]
    xs = np.flatnonzero((column >= 0) & (column < n))
    return np.column_stack([xs, column[xs]])


def outcome(x: int, y: int) -> tuple[str, tuple[int, int] | None]:
    """("P", None), or ("N", a move to a P-position), for any size of x and y.

    Exact for arbitrarily large integers: only isqrt of O(x²) is needed.
    """
    swap = x > y
    small, big = (y, x) if swap else (x, y)
    k = big - small
    a = lower(k)
    if small == a:
        return "P", None
    if small > a:
        # Take small - a from both piles: onto (a_k, b_k).
        move = (a, a + k)
    else:
        # small < a_k: small is a_j or b_j for some j < k; move the big pile.
        j = (isqrt(5 * small * small) - small) // 2  # ≈ small / φ
        for cand in (j - 1, j, j + 1, j + 2):
            if cand >= 0 and lower(cand) == small:
                move = (small, small + cand)  # onto (a_j, b_j), b_j < big
                break
        else:
            j = (3 * small - isqrt(5 * small * small)) // 2  # ≈ small / φ²
            for cand in (j - 1, j, j + 1, j + 2):
                if cand >= 0 and lower(cand) + cand == small:
                    move = (small, lower(cand))  # onto (b_j, a_j)
                    break
            else:  # pragma: no cover - the Beatty sequences cover every integer
                raise AssertionError(f"{small} is neither a_j nor b_j")
    return "N", (move[1], move[0]) if swap else move
