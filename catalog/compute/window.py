"""P-positions below a height, with each ray's lines kept in a sliding window.

:func:`catalog.p_positions` needs only the P-positions with x, y < n, and
every move lowers y or keeps it, so whether (x, y) is P depends on the cells
with y' <= y only: the sweep of :mod:`catalog.compute.kernel` may stop each
column at y = n. The lines of a ray (a, b) = g (p, q) that cross a column
below n are then ``(n + b) p g`` consecutive line indices, a window that
slides down by ``q g`` per column (see :func:`kernel._column_lines`). This
module keeps each ray's "next free" union-find in a ring of that size
instead of one entry per line of the whole box: at n = 10^7 a game with the
nine rays of steps up to 3 (a Linear Nimhoff member) needs some 600 MB of
lines instead of 3 GB, and Linear Nimhoff {(1,0),(0,2),(1,1)} 80 MB instead
of 280 MB.

A slot holds the distance to the line's parent (0: the line is free), so a
slot that a new line enters is freed by writing 0, and a find never follows
a pointer at or above the top of the window (a line that drifted above it
may share its slot with a newer one): it stops there, which means "no free
line below n".

Why numba: see :mod:`catalog.compute.kernel`.
"""

from __future__ import annotations

from math import gcd

import numpy as np

from catalog.compute.jit import njit
from catalog.compute.kernel import _column_lines, _contains, _csr, _sort_column
from catalog.games.definition import Definition

#: Status codes of :func:`_sweep_below`.
OK, NEED_OUTPUT = 0, 2


@njit(cache=True)
def _slot(idx, low, phase, size):
    """The ring slot of line ``idx``, for lines in [low, low + size)."""
    s = idx - low + phase
    return s - size if s >= size else s


@njit(cache=True)
def _find_below(ring, base, idx, top, low, phase, size):
    """The first free line at or after ``idx`` along its chain, or ``top`` if
    the chain reaches the top of the window first; compresses the path."""
    root = idx
    while root < top:
        step = ring[base + _slot(root, low, phase, size)]
        if step == 0:
            break
        root += step
    if root > top:
        root = top
    while idx < root:
        s = base + _slot(idx, low, phase, size)
        step = ring[s]
        ring[s] = root - idx
        idx += step
    return root


@njit(cache=True)
def _sweep_below(
    x0,
    n,
    b,
    rp,
    rq,
    rg,
    rbase,
    rsize,
    low,
    phase,
    ring,
    mva,
    mvb,
    fp_start,
    fp_y,
    fn_start,
    fn_y,
    col_start,
    out_y,
    n_out,
):
    """Columns x0 <= x < n, rows y < n. Returns (next column, positions
    written, status); stops before a column whose positions might not fit."""
    nrays = rp.size
    nmoves = mva.size
    forced_cols = fp_start.size - 1
    stride = rp * rg
    column = np.empty(nrays, dtype=np.int64)
    roff = np.zeros(nrays, dtype=np.int64)
    found = np.empty(b, dtype=np.int64)
    for x in range(x0, n):
        fs = fp_start[x] if x < forced_cols else 0
        fe = fp_start[x + 1] if x < forced_cols else 0
        ns = fn_start[x] if x < forced_cols else 0
        ne = fn_start[x + 1] if x < forced_cols else 0
        if n_out + b + fe - fs > out_y.size:
            return x, n_out, NEED_OUTPUT
        _column_lines(x, rp, rq, rg, roff, column)
        for i in range(nrays):
            # Lines entering the window at its bottom start free.
            while column[i] < low[i]:
                low[i] -= 1
                phase[i] = phase[i] - 1 if phase[i] > 0 else rsize[i] - 1
                ring[rbase[i] + phase[i]] = 0
        count = 0
        for r in range(b):
            limit = n
            for k in range(fs, fe):
                if fp_y[k] % b == r:
                    limit = min(limit, fp_y[k])
                    break
            y = r
            while y < limit:
                # Leapfrog between the rays (kernel._climb) within the window.
                free = 0
                i = 0
                while free < nrays:
                    idx = column[i] + y * stride[i]
                    top = column[i] + (n + b) * stride[i]
                    f = _find_below(
                        ring, rbase[i], idx, top, low[i], phase[i], rsize[i]
                    )
                    if f != idx:
                        y += (f - idx) // stride[i]
                        if y >= limit:
                            break
                        free = 1
                    else:
                        free += 1
                    i = i + 1 if i + 1 < nrays else 0
                if y >= limit:
                    break
                blocked = _contains(fn_y, ns, ne, y)
                for j in range(nmoves):
                    if blocked:
                        break
                    if x >= mva[j] and y >= mvb[j]:
                        xs = x - mva[j]
                        ys = y - mvb[j]
                        for k in range(col_start[xs], col_start[xs + 1]):
                            if out_y[k] == ys:
                                blocked = True
                                break
                if not blocked:
                    found[count] = y
                    count += 1
                    break
                y += b
        start = n_out
        for i in range(count):
            out_y[n_out] = found[i]
            n_out += 1
        for k in range(fs, fe):
            if fp_y[k] < n:
                out_y[n_out] = fp_y[k]
                n_out += 1
        _sort_column(out_y, start, n_out)
        for k in range(start, n_out):
            for i in range(nrays):
                idx = column[i] + out_y[k] * stride[i]
                s = rbase[i] + _slot(idx, low[i], phase[i], rsize[i])
                ring[s] = stride[i] * b
        col_start[x + 1] = n_out
    return n, n_out, OK


@njit(cache=True)
def _pairs(col_start, out_y, n):
    result = np.empty((col_start[n], 2), dtype=np.int64)
    for x in range(n):
        for k in range(col_start[x], col_start[x + 1]):
            result[k, 0] = x
            result[k, 1] = out_y[k]
    return result


def ring_bytes(game: Definition, n: int) -> int:
    """Bytes of the windows of :func:`p_positions_below` for ``game`` and n."""
    b = next(b for a, b in game.rays if a == 0)
    return 4 * sum((n + b + 1) * a + gcd(a, c) for a, c in game.rays if a > 0)


def p_positions_below(game: Definition, n: int) -> np.ndarray:
    """Every P-position with x, y < n of a game the kernel sweeps
    (:func:`catalog.compute.kernel.supported`), as (k, 2) sorted by x, y.

    Notes
    -----
    Memory: :func:`ring_bytes` (4 (n + b) a bytes per ray (a, b)), plus
    the output; time as the kernel's sweep.
    """
    b = next(b for a, b in game.rays if a == 0)
    rays = [(a, c) for a, c in game.rays if a > 0]
    g = np.array([gcd(a, c) for a, c in rays], dtype=np.int64)
    rp = np.array([a for a, _ in rays], dtype=np.int64) // np.maximum(g, 1)
    rq = np.array([c for _, c in rays], dtype=np.int64) // np.maximum(g, 1)
    # A window holds the lines of rows [0, n + b] and the jitter of the
    # class term (x // p) mod g.
    rsize = (n + b + 1) * rp * g + g
    rbase = (np.cumsum(rsize) - rsize).astype(np.int64)
    ring = np.zeros(int(rsize.sum()), dtype=np.int32)
    low = np.zeros(len(rays), dtype=np.int64)
    phase = np.zeros(len(rays), dtype=np.int64)
    mva = np.array([a for a, _ in game.moves], dtype=np.int64)
    mvb = np.array([c for _, c in game.moves], dtype=np.int64)
    forced_x = 1 + max((x for x, _ in game.forced_p + game.forced_n), default=-1)
    fp_start, fp_y = _csr(game.forced_p, forced_x)
    fn_start, fn_y = _csr(game.forced_n, forced_x)
    col_start = np.zeros(n + 1, dtype=np.int64)
    out_y = np.zeros(min(n * b, 1024) + len(game.forced_p) + b, dtype=np.int64)
    x, n_out = 0, 0
    while True:
        x, n_out, status = _sweep_below(
            x,
            n,
            b,
            rp,
            rq,
            g,
            rbase,
            rsize,
            low,
            phase,
            ring,
            mva,
            mvb,
            fp_start,
            fp_y,
            fn_start,
            fn_y,
            col_start,
            out_y,
            n_out,
        )
        if status == OK:
            break
        # Grow by the density seen so far (a few P-positions per column).
        grow = int(n_out / max(x, 1) * (n - x) * 1.05) + 2 * b + len(game.forced_p)
        bigger = np.zeros(out_y.size + max(grow, out_y.size // 4), dtype=np.int64)
        bigger[:n_out] = out_y[:n_out]
        out_y = bigger
    del ring
    return _pairs(col_start, out_y, n)
