"""The compiled box engine: P-positions of [0, n)^2 for any rule set of
:mod:`catalog.compute.ruleset` (rays, single moves, cones, Euclid, Ho's
restriction), with blocking and forced cells.

A cell (x, y) is P iff it is forced P, or it is not forced N and at most
``block`` of its options are P (block 0: none is). The cells are labelled
column by column (x, then y upwards); every option lies in an earlier
column or lower in the same one. Each rule keeps a count table, so that
the number of P options a rule gives a cell costs O(1) (rays, moves,
Euclid) or O(K + mod) (a cone), never the number of options:

- a ray (a, b): ``cnt[x, y] = P[x, y] + cnt[x - a, y - b]``, and the cell's
  count is ``cnt[x - a, y - b]``;
- Euclid: the same along row y with stride y (``E1[x, y] = P + E1[x - y, y]``,
  the options (x - j y, y)) and along column x with stride x;
- a cone (k, l): with ``C[x, y] = P[x, y] + C[x, y - m]`` (P cells of column x
  at rows <= y in y's class mod m), the options (x - k, y - l), l in
  [lo(k), hi(k)], l ≡ k (mod m) of one k count
  ``C[x - k, y - lo(k)] - C[x - k, y - hi(k) - m]``. Past kc (where
  L(k) = s1 k + t1 reaches 1) lo(k + m) = lo(k) + s1 m and
  hi(k + m) = hi(k) + s2 m, so the sum over k >= kc is two shear sums

      U(x, y) = sum_r C[x - f_r, y - lo(f_r)] + U(x - m, y - s1 m)
      D(x, y) = sum_r C[x - f_r, y - hi(f_r) - m] + D(x - m, y - s2 m)

  over the classes r of k mod m, each from its first non-empty k = f_r (a
  class's range never empties again past it: its width grows by
  (s2 - s1) m a step; a class that never has an l is left out). Terms
  outside the box are 0, which is exact since lo, hi >= 1. The k < kc are
  summed directly. A mirrored cone is the same with rows for columns
  (``R[x, y] = P[x, y] + R[x - m, y]``).

Counting is exact for each rule. Two rules can share a step (a ray inside
a cone, parallel rays, a cone and its mirror along the diagonal, Euclid
and a horizontal ray); with block 0 that does not matter (a count is only
compared with 0), but with block > 0 the options must be counted once:
:func:`dense_p_positions` first drops the rules another contains
(:func:`catalog.compute.ruleset.rules`), then, if two rules still share a
step inside the box, labels it with the exact enumeration of
:func:`catalog.compute.ruleset.exact_outcomes` (n <= 400) and raises
ValueError above that.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from catalog.compute.jit import njit
from catalog.compute.ruleset import (
    Rules,
    _hi,
    _lo,
    exact_outcomes,
    forced_grid,
    overlaps,
    rules,
)

#: The count tables are int32: every count is at most n^2 < 2^31.
MAX_N = 46340


@njit(cache=True)
def _dense(n, rays, moves, cones, kc, starts, key, dix, euclid, ho, block, forced):
    """The P grid (int8) of [0, n)^2, as the module docstring computes it.

    ``key[j]``: cone j's class-prefix table (C or R, shared by the cones of
    the same mod and orientation); ``dix[j]``: its D table (-1: no upper
    bound).
    """
    nr, nc = rays.shape[0], cones.shape[0]
    nkeys = 0
    ndix = 0
    for j in range(nc):
        nkeys = max(nkeys, key[j] + 1)
        ndix = max(ndix, dix[j] + 1)
    p = np.zeros((n, n), dtype=np.int8)
    cnt = np.zeros((nr, n, n), dtype=np.int32)
    ecnt = np.zeros((2 if euclid else 0, n, n), dtype=np.int32)
    pre = np.zeros((nkeys, n, n), dtype=np.int32)
    up = np.zeros((nc, n, n), dtype=np.int32)
    down = np.zeros((ndix, n, n), dtype=np.int32)
    kmod = np.zeros(nkeys, dtype=np.int64)
    kmirror = np.zeros(nkeys, dtype=np.int64)
    for j in range(nc):
        kmod[key[j]] = cones[j, 5]
        kmirror[key[j]] = cones[j, 6]
    for x in range(n):
        for y in range(n):
            count = 0
            for i in range(nr):
                a, b = rays[i, 0], rays[i, 1]
                if x >= a and y >= b:
                    if not (ho and ((b == 0 and x < y) or (a == 0 and y < x))):
                        count += cnt[i, x - a, y - b]
            for i in range(moves.shape[0]):
                a, b = moves[i, 0], moves[i, 1]
                if x >= a and y >= b:
                    if not (ho and ((b == 0 and x < y) or (a == 0 and y < x))):
                        count += p[x - a, y - b]
            if euclid:
                if 0 < y <= x:
                    count += ecnt[0, x - y, y]
                if 0 < x <= y:
                    count += ecnt[1, x, y - x]
            for j in range(nc):
                count += _cone_count(
                    x, y, j, cones, kc, starts, pre[key[j]], up[j], down, dix[j]
                )
            f = forced[x, y]
            if f == 1:
                v = 1
            elif f == 2:
                v = 0
            else:
                v = 1 if count <= block else 0
            p[x, y] = v
            for i in range(nr):
                a, b = rays[i, 0], rays[i, 1]
                prev = cnt[i, x - a, y - b] if x >= a and y >= b else 0
                cnt[i, x, y] = v + prev
            if euclid:
                ecnt[0, x, y] = v + (ecnt[0, x - y, y] if 0 < y <= x else 0)
                ecnt[1, x, y] = v + (ecnt[1, x, y - x] if 0 < x <= y else 0)
            for q in range(nkeys):
                m = kmod[q]
                if kmirror[q]:
                    pre[q, x, y] = v + (pre[q, x - m, y] if x >= m else 0)
                else:
                    pre[q, x, y] = v + (pre[q, x, y - m] if y >= m else 0)
    return p


@njit(cache=True, inline="always")
def _at(table, u, v):
    """table[u, v], or 0 outside the box below (u or v negative)."""
    if u < 0 or v < 0:
        return 0
    return table[u, v]


@njit(cache=True, inline="always")
def _cone_count(x, y, j, cones, kc, starts, pre, up, down, d):
    """The P options cone j gives (x, y); stores its U (and D) at (x, y).

    Written for the plain cone; a mirrored cone runs the same sums with the
    roles of x and y exchanged (``pk``: the pile k comes from)."""
    s1, t1, s2, t2, hi, m, mirror = cones[j]
    pk, pl = (y, x) if mirror else (x, y)
    total = 0
    for k in range(1, min(pk, kc[j] - 1) + 1):  # below kc: one k at a time
        lo = _lo(k, s1, t1, m)
        if lo > pl:
            continue
        if hi:
            h = _hi(k, s2, t2, m)
            if h < lo:
                continue
            if mirror:
                total += _at(pre, x - lo, y - k) - _at(pre, x - h - m, y - k)
            else:
                total += _at(pre, x - k, y - lo) - _at(pre, x - k, y - h - m)
        elif mirror:
            total += pre[x - lo, y - k]
        else:
            total += pre[x - k, y - lo]
    u = 0
    w = 0
    for r in range(m):
        f = starts[j, r]
        if f < 0 or f > pk:
            continue
        lo = _lo(f, s1, t1, m)
        if mirror:
            u += _at(pre, x - lo, y - f)
        else:
            u += _at(pre, x - f, y - lo)
        if hi:
            h = _hi(f, s2, t2, m)
            if mirror:
                w += _at(pre, x - h - m, y - f)
            else:
                w += _at(pre, x - f, y - h - m)
    if mirror:
        u += _at(up, x - s1 * m, y - m)
    else:
        u += _at(up, x - m, y - s1 * m)
    up[x, y] = u
    if hi:
        if mirror:
            w += _at(down[d], x - s2 * m, y - m)
        else:
            w += _at(down[d], x - m, y - s2 * m)
        down[d, x, y] = w
    return total + u - w


def _tables(r: Rules) -> tuple[np.ndarray, np.ndarray]:
    """Each cone's prefix table (one per (mod, mirror)) and D table index."""
    keys: dict[tuple[int, int], int] = {}
    key = np.zeros(len(r.cones), dtype=np.int64)
    dix = np.full(len(r.cones), -1, dtype=np.int64)
    nd = 0
    for j, row in enumerate(r.cones):
        key[j] = keys.setdefault((int(row[5]), int(row[6])), len(keys))
        if row[4]:
            dix[j] = nd
            nd += 1
    return key, dix


def table_bytes(n: int, r: Rules) -> int:
    """Bytes of the tables :func:`dense_p_positions` allocates for ``r``."""
    key, dix = _tables(r)
    tables = len(r.rays) + 2 * r.euclid + len(r.cones)
    tables += len(set(key.tolist())) + int((dix >= 0).sum())
    return n * n * (4 * tables + 1)


def dense_p_positions(
    n: int,
    rays: Any = None,
    moves: Any = None,
    cones: Any = None,
    euclid: bool = False,
    ho_restriction: bool = False,
    block: int = 0,
    forced_p: Any = None,
    forced_n: Any = None,
) -> np.ndarray:
    """Every P-position of [0, n)^2 of a rule set, compiled.

    Parameters
    ----------
    n : int
        The box side, 0 <= n <= :data:`MAX_N` (the caller bounds the memory).
    rays, moves : array_like of shape (k, 2)
        Rays (a, b): options (x - k a, y - k b), k >= 1; single moves (a, b).
    cones : array_like of shape (k, 7)
        Rows [s1, t1, s2, t2, has_hi, mod, mirror]: the moves (k, l), k, l >= 1,
        s1 k + t1 <= l (<= s2 k + t2 if has_hi), l ≡ k (mod mod), taken as
        (l, k) when mirror is 1. 0 <= s1 <= s2 <= 64, |t| <= 4096,
        1 <= mod <= 64.
    euclid : bool
        Euclid's moves: (x - j y, y) for 0 < y <= x, (x, y - j x) for
        0 < x <= y, 1 <= j.
    ho_restriction : bool
        Ho's restriction: no horizontal ray or move while x < y, no vertical
        one while y < x (cones and Euclid unaffected).
    block : int
        P iff at most ``block`` options are P (0: the normal play rule).
    forced_p, forced_n : array_like of shape (k, 2)
        Cells forced P or N (those outside the box are ignored).

    Returns
    -------
    numpy.ndarray
        (k, 2) int64, sorted by x then y.

    Raises
    ------
    ValueError
        On a malformed rule, a cell forced both ways, n out of range, or
        block > 0 with rules that share a step inside the box and n > 400.

    Notes
    -----
    Time O(n^2 (R + M + E + sum over cones of (kc + mod))): R rays, M moves,
    E = 2 for Euclid, kc = max(1, ceil((1 - t1) / s1)) (1 when s1 = 0).
    Memory ``n^2 (4 T + 1)`` bytes with T = R + 2 E + (cones) + (cones with
    has_hi) + (distinct (mod, mirror) of the cones) int32 tables
    (:func:`table_bytes`); a-Wythoff at n = 4000: T = 5, 336 MB. With
    block > 0, overlapping rules: see the module docstring.

    References
    ----------
    .. [1] A. S. Fraenkel, Amer. Math. Monthly 89 (1982) 353–361.
    .. [2] U. Larsson, Electron. J. Combin. 18 (2011) P120.
    .. [3] G. Nivasch, Discrete Math. 306 (2006) 2798–2800.

    Examples
    --------
    >>> dense_p_positions(8, rays=[[1, 0], [0, 1], [1, 1]]).tolist()
    [[0, 0], [1, 2], [2, 1], [3, 5], [4, 7], [5, 3], [7, 4]]
    """
    if not 0 <= n <= MAX_N:
        raise ValueError(f"n must be in 0..{MAX_N}")
    if block < 0:
        raise ValueError("block must be >= 0")
    r = rules(rays, moves, cones, euclid, ho_restriction)
    forced = forced_grid(n, forced_p, forced_n)
    if block > 0 and overlaps(n, r):
        grid = exact_outcomes(n, r, block, forced)
    else:
        key, dix = _tables(r)
        grid = _dense(
            n,
            r.rays,
            r.moves,
            r.cones,
            r.kc,
            r.starts,
            key,
            dix,
            r.euclid,
            r.ho_restriction,
            block,
            forced,
        )
    return np.argwhere(grid).astype(np.int64)
