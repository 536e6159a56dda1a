"""What a cell of the cone sweep asks besides its cones' structures.

The two scans of :mod:`catalog.compute.conesweep` (each class of rows apart)
and :mod:`catalog.compute.wedgescan` (every class at once) share these: a
cone's row read as a tuple, the forced P-positions of a column, the line of
an extra ray and the rows its used lines block, whether a single move or a
forced label makes a cell N, and the direct test of a P-position too young
for its cone's structure. All are compiled without numba's reference counts
or inlined (see :mod:`catalog.compute.conesweep`).
"""

from __future__ import annotations

import numpy as np

from catalog.compute.jit import njit
from catalog.compute.kernel import _contains, _div, _find, _mod

INF = np.iinfo(np.int64).max // 4


@njit(cache=True, inline="always")
def _last_blocked(s1, t1, s2, t2, hi, m, mirror, x, y, xp, yp):
    """The last row of column x that the P-position (xp, yp) blocks, or -1
    if it does not block (x, y) (INF: the rest of the column)."""
    k, ell = (y - yp, x - xp) if mirror else (x - xp, y - yp)
    if k < 1 or ell < 1 or ell < s1 * k + t1 or _mod(ell - k, m):
        return -1
    if hi and ell > s2 * k + t2:
        return -1
    if mirror:
        return INF if s1 == 0 else yp + _div(ell - t1, s1)
    return yp + s2 * k + t2 if hi else INF


@njit(cache=True, inline="always")
def _row(cones, j):
    """Cone j's row as a tuple (read element by element: a row view would
    cost a reference count each time)."""
    return (
        cones[j, 0], cones[j, 1], cones[j, 2], cones[j, 3], cones[j, 4],
        cones[j, 5], cones[j, 6],
    )  # fmt: skip


@njit(cache=True, inline="always")
def _nforced(fp_start, x, forced_cols):
    """How many forced P-positions column x holds."""
    return fp_start[x + 1] - fp_start[x] if x < forced_cols else 0


@njit(cache=True, inline="always")
def _line_index(x, y, ray, base, n):
    """The bit of the line of ray (a, b) = g (p, q) through (x, y)."""
    p, q, g = ray[0], ray[1], ray[2]
    return base + (y * p - x * q + q * n) * g + _mod(_div(x, p), g)


@njit(cache=True, inline="always")
def _rays_free(x, y, rays, used, lbase, n, chain=1):
    """The first row at or above y of column x, of y's class mod ``chain``,
    up to which, from y, some extra ray blocks every such row (y itself
    when none blocks it; n when one blocks the rest of the column below n).

    ``used`` holds each ray's lines as a "next free line" union-find
    (:func:`catalog.compute.kernel._find`): a line a P-position uses holds
    the step chain p g to the line of the row ``chain`` rows up in any
    column it meets (the lines :func:`_line_index` numbers are p g apart up
    a column), so a find passes a ray's whole run of used lines of y's
    class in a column at once, where one row at a time made a column of
    Wythoff's diagonal and a cone cost the rows between its lowest free row
    and its P-position (quadratic). The climb of
    :mod:`catalog.compute.wedgescan` asks every row (``chain`` = 1); the
    class-by-class sweep asks the rows of one class mod M (``chain`` = M),
    where a find of every row stopped at free lines of the other classes,
    again and again up a run (quadratic beside the diagonal ray)."""
    top = y
    for i in range(rays.shape[0]):
        step = rays[i, 0] * rays[i, 2]
        idx = _line_index(x, y, rays[i], 0, n)
        end = idx + (n - y) * step  # the line of (x, n)
        free = _find(used, lbase[i], idx, end, None)
        top = max(top, y + _div(free - idx, step))
    return top


@njit(cache=True, inline="always")
def _use_lines(x, y, rays, used, lbase, n, chain=1):
    """The P-position (x, y) uses its line on each extra ray (linked to the
    line ``chain`` rows up, :func:`_rays_free`)."""
    for i in range(rays.shape[0]):
        used[_line_index(x, y, rays[i], lbase[i], n)] = rays[i, 0] * rays[i, 2] * chain


@njit(cache=True, _nrt=False)
def _blocked(x, y, moves, col, fp_start, fp_y, fn_start, fn_y, fcols):
    """Is (x, y) N by a forced label or a single move (the extra rays are
    :func:`_rays_free`'s)?"""
    if x < fcols and _contains(fn_y, fn_start[x], fn_start[x + 1], y):
        return True
    for i in range(moves.shape[0]):
        xs, ys = x - moves[i, 0], y - moves[i, 1]
        if xs >= 0 and ys >= 0:
            if col[xs] == ys:
                return True
            if xs < fcols and _contains(fp_y, fp_start[xs], fp_start[xs + 1], ys):
                return True
    return False
