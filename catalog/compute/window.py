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
from catalog.compute.kernel import OK, _csr, _sweep
from catalog.games.definition import Definition


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
        x, n_out, status = _sweep(
            x,
            n,
            b,
            rp,
            rq,
            g,
            np.zeros(len(rays), dtype=np.int64),
            rbase,
            rsize,
            (low, phase, rsize),
            ring,
            None,
            n + b,
            n,
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
