"""The literature's rule kinds as plain arrays, and their literal option sets.

A rule set is what the compiled engines of :mod:`catalog.compute.dense` and
:mod:`catalog.compute.conesweep` take: rays ``(a, b)`` (options
``(x - k a, y - k b)``, k >= 1), single moves ``(a, b)``, cones (rows
``[s1, t1, s2, t2, has_hi, mod, mirror]``: the moves (k, l) with k, l >= 1,
``s1 k + t1 <= l``, ``l <= s2 k + t2`` if has_hi, ``l ≡ k (mod mod)``, taken
as (l, k) when mirrored), Euclid's moves and Ho's restriction. This module
checks and simplifies such a set (:func:`rules`), enumerates the options of
one position literally (:func:`_collect`), and holds the engines that work
from those enumerations: the exact labelling for blocking games whose rules
overlap (:func:`exact_outcomes`) and the Sprague–Grundy table
(:func:`dense_grundy`).

References
----------
.. [1] A. S. Fraenkel, "How to beat your Wythoff games' opponent on three
   fronts", Amer. Math. Monthly 89 (1982) 353–361 (a-Wythoff).
.. [2] A. S. Fraenkel, "Heap games, numeration systems and sequences",
   Annals of Combinatorics 2 (1998) 197–210 ((s,t)-Wythoff).
.. [3] U. Larsson, "Blocking Wythoff Nim", Electron. J. Combin. 18 (2011)
   P120, arXiv:1010.5816.
.. [4] G. Nivasch, "The Sprague–Grundy function of the game Euclid",
   Discrete Math. 306 (2006) 2798–2800.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from catalog.compute.jit import njit

#: Bounds on a cone's parameters (the definition language's).
MAX_SLOPE, MAX_SHIFT, MAX_MOD = 64, 4096, 64
#: Largest box of the exact (overlap-deduplicating) labelling: it enumerates
#: every option of every cell, O(n^2) a cell for a cone.
EXACT_MAX_N = 400
#: Largest box of :func:`dense_grundy` (same enumeration).
GRUNDY_MAX_N = 1000


class Rules(NamedTuple):
    """A checked, simplified rule set (int64 arrays)."""

    rays: np.ndarray  # (r, 2)
    moves: np.ndarray  # (q, 2)
    cones: np.ndarray  # (c, 7): s1, t1, s2, t2, has_hi, mod, mirror
    kc: np.ndarray  # (c,): first k from which L(k) = s1 k + t1 >= 1
    starts: np.ndarray  # (c, MAX_MOD): first non-empty k >= kc of each class
    euclid: bool
    ho_restriction: bool


def _pairs(values: Any, name: str) -> np.ndarray:
    arr = np.asarray([] if values is None else values, dtype=np.int64).reshape(-1, 2)
    if (arr < 0).any() or ((arr[:, 0] == 0) & (arr[:, 1] == 0)).any():
        raise ValueError(f"{name} must be pairs of non-negative ints, not (0, 0)")
    return np.unique(arr, axis=0)


def _lo_py(k: int, s1: int, t1: int, m: int) -> int:
    """The least l >= max(1, s1 k + t1) with l ≡ k (mod m)."""
    low = max(1, s1 * k + t1)
    return low + (k - low) % m


def _hi_py(k: int, s2: int, t2: int, m: int) -> int:
    """The largest l <= s2 k + t2 with l ≡ k (mod m)."""
    high = s2 * k + t2
    return high - (high - k) % m


def _cone_rows(cones: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Checked cone rows, each cone's kc and its classes' first non-empty k.

    Past kc, L(k) is linear (or constant when s1 = 0), so along a class
    k, k + m, ... the bounds move by s1 m and s2 m and the width of the
    range grows by (s2 - s1) m: the first non-empty k of a class is found
    in closed form, and a class that is empty there with s1 = s2 stays
    empty (start -1).
    """
    arr = np.asarray([] if cones is None else cones, dtype=np.int64).reshape(-1, 7)
    arr = np.unique(arr, axis=0)
    kc = np.ones(len(arr), dtype=np.int64)
    starts = np.full((len(arr), MAX_MOD), -1, dtype=np.int64)
    for j, row in enumerate(arr):
        s1, t1, s2, t2, hi, m, mirror = (int(v) for v in row)
        if hi not in (0, 1) or mirror not in (0, 1):
            raise ValueError(f"cone {row.tolist()}: has_hi and mirror are 0 or 1")
        if not 1 <= m <= MAX_MOD:
            raise ValueError(f"cone {row.tolist()}: mod must be in 1..{MAX_MOD}")
        if not 0 <= s1 <= MAX_SLOPE or (hi and not s1 <= s2 <= MAX_SLOPE):
            raise ValueError(f"cone {row.tolist()}: need 0 <= s1 <= s2 <= 64")
        if max(abs(t1), abs(t2)) > MAX_SHIFT:
            raise ValueError(f"cone {row.tolist()}: |t| must be <= {MAX_SHIFT}")
        if not hi:
            s2 = t2 = 0
        if s1 == 0:
            t1 = max(t1, 1)  # l >= 1 anyway: L(k) is the constant max(1, t1)
        arr[j] = (s1, t1, s2, t2, hi, m, mirror)
        kc[j] = 1 if s1 == 0 else max(1, -((t1 - 1) // s1))
        for r in range(m):
            k0 = int(kc[j]) + (r - int(kc[j])) % m
            if not hi:
                starts[j, r] = k0
                continue
            width = _hi_py(k0, s2, t2, m) - _lo_py(k0, s1, t1, m)
            if width >= 0:
                starts[j, r] = k0
            elif s2 > s1:
                grow = (s2 - s1) * m
                starts[j, r] = k0 + m * ((-width + grow - 1) // grow)
    keep = np.unique(arr, axis=0, return_index=True)[1]
    return arr[keep], kc[keep], starts[keep]


def in_cone(row: np.ndarray, dx: int, dy: int) -> bool:
    """Is the move (dx, dy) one of the cone ``row``'s?"""
    s1, t1, s2, t2, hi, m, mirror = (int(v) for v in row)
    k, ell = (dy, dx) if mirror else (dx, dy)
    return (
        k >= 1
        and ell >= 1
        and ell >= s1 * k + t1
        and (not hi or ell <= s2 * k + t2)
        and (ell - k) % m == 0
    )


def _within(outer: tuple[int, int], inner: tuple[int, int]) -> bool:
    """Is every multiple of ``inner`` a multiple of ``outer`` (rays)?"""
    (a, b), (c, d) = outer, inner
    if a * d != b * c:
        return False
    return c % a == 0 if a else d % b == 0


def rules(
    rays: Any = None,
    moves: Any = None,
    cones: Any = None,
    euclid: bool = False,
    ho_restriction: bool = False,
) -> Rules:
    """Check a rule set and drop what another rule already contains.

    The options of a position are a set, so a ray whose steps are multiples
    of another ray's, a single move on a ray or in a cone, and repeated rows
    add nothing; dropping them changes no option set, with Ho's restriction
    too (it depends only on which coordinate of a step is 0).

    Raises
    ------
    ValueError
        On a malformed ray, move or cone (see :data:`MAX_SLOPE`, ...).
    """
    ray_arr = _pairs(rays, "rays")
    kept = [
        (int(a), int(b))
        for i, (a, b) in enumerate(ray_arr)
        if not any(
            i != j and _within((int(c), int(d)), (int(a), int(b)))
            for j, (c, d) in enumerate(ray_arr)
        )
    ]
    cone_arr, kc, starts = _cone_rows(cones)
    move_list = [
        (int(a), int(b))
        for a, b in _pairs(moves, "moves")
        if not any(_within(r, (int(a), int(b))) for r in kept)
        and not any(in_cone(row, int(a), int(b)) for row in cone_arr)
    ]
    return Rules(
        np.array(kept, dtype=np.int64).reshape(-1, 2),
        np.array(move_list, dtype=np.int64).reshape(-1, 2),
        cone_arr,
        kc,
        starts,
        bool(euclid),
        bool(ho_restriction),
    )


def mirrored(pairs: Any) -> bool:
    """Is this set of pairs (moves, rays or cells) its own mirror?"""
    cells = {tuple(c) for c in np.asarray(pairs).reshape(-1, 2).tolist()}
    return cells == {(b, a) for a, b in cells}


def forced_grid(n: int, forced_p: Any, forced_n: Any) -> np.ndarray:
    """int8 grid of the forced labels in [0, n)^2: 1 forced P, 2 forced N.

    Raises
    ------
    ValueError
        If a cell is forced both ways, or a coordinate is negative.
    """
    grid = np.zeros((n, n), dtype=np.int8)
    for value, cells in ((1, forced_p), (2, forced_n)):
        arr = np.asarray([] if cells is None else cells, dtype=np.int64)
        arr = arr.reshape(-1, 2)
        if (arr < 0).any():
            raise ValueError("forced cells must have non-negative coordinates")
        arr = arr[(arr[:, 0] < n) & (arr[:, 1] < n)]
        if value == 2 and (grid[arr[:, 0], arr[:, 1]] == 1).any():
            raise ValueError("a cell is forced both P and N")
        grid[arr[:, 0], arr[:, 1]] = value
    return grid


@njit(cache=True, inline="always")
def _lo(k, s1, t1, m):
    """:func:`_lo_py`, compiled."""
    low = s1 * k + t1
    if low < 1:
        low = 1
    return low + (k - low) % m


@njit(cache=True, inline="always")
def _hi(k, s2, t2, m):
    """:func:`_hi_py`, compiled."""
    high = s2 * k + t2
    return high - (high - k) % m


@njit(cache=True)
def _collect(x, y, rays, moves, cones, euclid, ho, ox, oy):
    """Write every option of (x, y) into ox, oy (repeats possible when rules
    overlap); return how many. The literal rule set, as the module says."""
    c = 0
    for i in range(rays.shape[0]):
        a, b = rays[i, 0], rays[i, 1]
        if ho and ((b == 0 and x < y) or (a == 0 and y < x)):
            continue
        xs, ys = x - a, y - b
        while xs >= 0 and ys >= 0:
            ox[c], oy[c] = xs, ys
            c += 1
            xs -= a
            ys -= b
    for i in range(moves.shape[0]):
        a, b = moves[i, 0], moves[i, 1]
        if ho and ((b == 0 and x < y) or (a == 0 and y < x)):
            continue
        if x >= a and y >= b:
            ox[c], oy[c] = x - a, y - b
            c += 1
    for j in range(cones.shape[0]):
        s1, t1, s2, t2, hi, m, mirror = cones[j]
        pk, pl = (y, x) if mirror else (x, y)  # the piles k and l come from
        for k in range(1, pk + 1):
            top = pl
            if hi:
                top = min(top, _hi(k, s2, t2, m))
            for ell in range(_lo(k, s1, t1, m), top + 1, m):
                if mirror:
                    ox[c], oy[c] = x - ell, y - k
                else:
                    ox[c], oy[c] = x - k, y - ell
                c += 1
    if euclid:
        if 0 < y <= x:
            for j in range(1, x // y + 1):
                ox[c], oy[c] = x - j * y, y
                c += 1
        if 0 < x <= y:
            for j in range(1, y // x + 1):
                ox[c], oy[c] = x, y - j * x
                c += 1
    return c


def _buffer(n: int, r: Rules) -> int:
    """An upper bound on the options of a cell of [0, n)^2."""
    return n * (len(r.rays) + 2 * r.euclid) + len(r.moves) + n * n * len(r.cones) + 1


@njit(cache=True)
def _exact(n, rays, moves, cones, euclid, ho, block, forced, size):
    """P grid, counting each P option once (a stamp a cell)."""
    p = np.zeros((n, n), dtype=np.int8)
    stamp = np.zeros((n, n), dtype=np.int64)
    ox = np.empty(size, dtype=np.int64)
    oy = np.empty(size, dtype=np.int64)
    for x in range(n):
        for y in range(n):
            f = forced[x, y]
            if f != 0:
                p[x, y] = 1 if f == 1 else 0
                continue
            c = _collect(x, y, rays, moves, cones, euclid, ho, ox, oy)
            mark = x * n + y + 1
            count = 0
            for i in range(c):
                u, v = ox[i], oy[i]
                if p[u, v] and stamp[u, v] != mark:
                    stamp[u, v] = mark
                    count += 1
                    if count > block:
                        break
            p[x, y] = 1 if count <= block else 0
    return p


def exact_outcomes(n: int, r: Rules, block: int, forced: np.ndarray) -> np.ndarray:
    """int8 grid ``p[x, y]`` (1: P) of [0, n)^2, each P option counted once.

    Notes
    -----
    O(n^2 · options) time: O(n) a cell a ray and O(n^2) a cell a cone, so
    n is capped at :data:`EXACT_MAX_N`; memory 9 n^2 bytes.
    """
    if n > EXACT_MAX_N:
        raise ValueError(
            f"overlapping rules with block > 0 are labelled exactly only for "
            f"n <= {EXACT_MAX_N} (got n = {n})"
        )
    args = (r.rays, r.moves, r.cones, r.euclid, r.ho_restriction)
    return _exact(n, *args, block, forced, _buffer(n, r))  # type: ignore[no-any-return]


@njit(cache=True)
def _grundy(n, rays, moves, cones, euclid, ho, size):
    table = np.zeros((n, n), dtype=np.int64)
    ox = np.empty(size, dtype=np.int64)
    oy = np.empty(size, dtype=np.int64)
    seen = np.zeros(size + 1, dtype=np.int64)
    for x in range(n):
        for y in range(n):
            c = _collect(x, y, rays, moves, cones, euclid, ho, ox, oy)
            mark = x * n + y + 1
            for i in range(c):
                g = table[ox[i], oy[i]]
                if g <= c:  # a value above c cannot be the mex
                    seen[g] = mark
            g = 0
            while seen[g] == mark:
                g += 1
            table[x, y] = g
    return table


def dense_grundy(
    n: int,
    rays: Any = None,
    moves: Any = None,
    cones: Any = None,
    euclid: bool = False,
    ho_restriction: bool = False,
) -> np.ndarray:
    """Sprague–Grundy values ``g[x, y]`` of [0, n)^2 (shape (n, n), int64).

    Parameters
    ----------
    n : int
        The box side, 0 <= n <= :data:`GRUNDY_MAX_N`.
    rays, moves : array_like of shape (k, 2)
        Rays (a, b) (options (x - k a, y - k b), k >= 1) and single moves.
    cones : array_like of shape (k, 7)
        Rows [s1, t1, s2, t2, has_hi, mod, mirror] (module docstring).
    euclid, ho_restriction : bool
        Euclid's moves; Ho's restriction on rays and single moves.

    Returns
    -------
    numpy.ndarray
        The table; the mex over the option set of each cell.

    Notes
    -----
    Each cell enumerates its options (:func:`_collect`) and takes the least
    value not among them: O(n^2 · options) time, that is O(n^3) for rays and
    Euclid and O(n^4) with a cone (n = 300 with one wide cone: about 2e9
    steps, seconds); O(n^2 + options) memory. Blocking games (block > 0)
    have no Grundy values: the rule is not "no option is P".

    Examples
    --------
    >>> dense_grundy(3, rays=[[1, 0], [0, 1], [1, 1]]).tolist()
    [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    """
    if not 0 <= n <= GRUNDY_MAX_N:
        raise ValueError(f"n must be in 0..{GRUNDY_MAX_N}")
    r = rules(rays, moves, cones, euclid, ho_restriction)
    args = (r.rays, r.moves, r.cones, r.euclid, r.ho_restriction)
    return _grundy(n, *args, _buffer(n, r))  # type: ignore[no-any-return]


@njit(cache=True)
def _claims_overlap(n, rays, moves, cones, euclid):
    """Does some step (dx, dy) with dx, dy < n belong to two rules?"""
    claim = np.zeros((n, n), dtype=np.int8)
    if euclid:  # Euclid's steps (j y, 0) and (0, j x) reach every (d, 0), (0, d)
        claim[1:, 0] = 1
        claim[0, 1:] = 1
    for i in range(rays.shape[0]):
        a, b = rays[i, 0], rays[i, 1]
        dx, dy = a, b
        while dx < n and dy < n:
            if claim[dx, dy]:
                return True
            claim[dx, dy] = 1
            dx += a
            dy += b
    for i in range(moves.shape[0]):
        a, b = moves[i, 0], moves[i, 1]
        if a < n and b < n:
            if claim[a, b]:
                return True
            claim[a, b] = 1
    for j in range(cones.shape[0]):
        s1, t1, s2, t2, hi, m, mirror = cones[j]
        for k in range(1, n):
            top = n - 1
            if hi:
                top = min(top, _hi(k, s2, t2, m))
            for ell in range(_lo(k, s1, t1, m), top + 1, m):
                dx, dy = (ell, k) if mirror else (k, ell)
                if claim[dx, dy]:
                    return True
                claim[dx, dy] = 1
    return False


def overlaps(n: int, r: Rules) -> bool:
    """Do two rules of ``r`` share a step inside [0, n)^2 (Euclid counted as
    every horizontal and vertical step)? O(n^2) time and bytes."""
    return bool(_claims_overlap(n, r.rays, r.moves, r.cones, r.euclid))
