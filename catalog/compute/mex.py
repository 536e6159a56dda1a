"""The theorem paths of a-Wythoff and (s,t)-Wythoff: P-positions by the mex.

Fraenkel's theorems give the P-positions of these games as pairs
(A_k, B_k) and (B_k, A_k), k >= 0, with

    A_k = mex{A_i, B_i : i < k},    B_k = s A_k + t k,

for integers s, t >= 1 ((s,t)-Wythoff; a-Wythoff is s = 1, t = a, and
Wythoff's Nim is s = t = 1). Their rule sets, for
:mod:`catalog.compute.dense`: rays (1, 0), (0, 1) and the cone
[1, 1 - a, 1, a - 1, 1, 1, 0] (a-Wythoff), or the cones [1, 0, s, t - 1, 1,
1, 0] and its mirror ((s,t)-Wythoff); the tests check both against each
other.

References
----------
.. [1] A. S. Fraenkel, "How to beat your Wythoff games' opponent on three
   fronts", Amer. Math. Monthly 89 (1982) 353–361.
.. [2] A. S. Fraenkel, "Heap games, numeration systems and sequences",
   Annals of Combinatorics 2 (1998) 197–210.
"""

from __future__ import annotations

import numpy as np

from catalog.compute.jit import njit


@njit(cache=True)
def _st_wythoff(n, s, t):
    used = np.zeros(n, dtype=np.uint8)
    column = np.full(n, -1, dtype=np.int64)  # at most one P-position a column
    a = 0
    k = 0
    count = 0
    while True:
        while a < n and used[a]:
            a += 1
        if a >= n:
            break
        b = s * a + t * k
        used[a] = 1
        if b < n:
            used[b] = 1
            column[a] = b
            column[b] = a
            count += 1 if a == b else 2
        k += 1
    out = np.empty((count, 2), dtype=np.int64)
    i = 0
    for x in range(n):
        if column[x] >= 0:
            out[i, 0] = x
            out[i, 1] = column[x]
            i += 1
    return out


def st_wythoff(n: int, s: int, t: int) -> np.ndarray:
    """Every P-position of (s,t)-Wythoff with x, y < n, by Fraenkel's theorem.

    Parameters
    ----------
    n : int
        The box side (>= 0).
    s, t : int
        The game's parameters, s, t >= 1.

    Returns
    -------
    numpy.ndarray
        (k, 2) int64 sorted by x: (0, 0) and each (A_k, B_k), (B_k, A_k)
        with both coordinates below n.

    Notes
    -----
    One pass over the values below n: O(n) time, 9 n bytes besides the
    output (16 bytes a P-position).

    References
    ----------
    .. [1] A. S. Fraenkel, Annals of Combinatorics 2 (1998) 197–210.

    Examples
    --------
    >>> st_wythoff(8, 1, 1).tolist()
    [[0, 0], [1, 2], [2, 1], [3, 5], [4, 7], [5, 3], [7, 4]]
    """
    if s < 1 or t < 1:
        raise ValueError("(s,t)-Wythoff needs s, t >= 1")
    if n <= 0:
        return np.zeros((0, 2), dtype=np.int64)
    return _st_wythoff(int(n), int(s), int(t))  # type: ignore[no-any-return]


def beatty_mex(n: int, a: int) -> np.ndarray:
    """Every P-position of a-Wythoff with x, y < n: B_k = A_k + a k.

    Parameters
    ----------
    n : int
        The box side (>= 0).
    a : int
        The game's parameter, a >= 1 (a = 1: Wythoff's Nim).

    Returns
    -------
    numpy.ndarray
        (k, 2) int64 sorted by x, as :func:`st_wythoff` with s = 1, t = a.

    Notes
    -----
    O(n) time and 9 n bytes besides the output. The pairs are the Beatty
    pairs of α = (2 - a + √(a² + 4)) / 2 (Fraenkel 1982).

    References
    ----------
    .. [1] A. S. Fraenkel, Amer. Math. Monthly 89 (1982) 353–361.

    Examples
    --------
    >>> beatty_mex(10, 2).tolist()
    [[0, 0], [1, 3], [2, 6], [3, 1], [6, 2]]
    """
    return st_wythoff(n, 1, a)
