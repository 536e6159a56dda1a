"""The compiled column sweep (numba) for games with one vertical ray (0, b).

Each non-vertical ray keeps its lines in a "next free" union-find: the lines
of ray (a, b) = g (p, q) that cross column x are indexed so that the cell
(x, y + 1) sits one stride after (x, y). ``find`` then jumps straight from a
blocked cell to the next cell of the column whose line on that ray is free.
A column is searched by leapfrogging between the rays (Hu, Sleator and Tsin's
free rows and free diagonals are the rays (1, 0) and (1, 1)); a cell where
every ray is free is checked against the forced N cells and the single moves,
so a column costs O(jumps + moves), not O(height).

One column step (:func:`_sweep`) serves both sweeps of such games: this
module's, over whole line tables that grow with the columns (the store's
resumable fills), and :mod:`catalog.compute.window`'s, over windows that
slide down with the columns (every position below n in O(n) memory). The
general sweeps of :mod:`catalog.compute.special_kernel` scan cell by cell
(vertical rays counted, Ho's jumps), with the same union-find (:func:`_find`).

Why numba: the column loop is inherently sequential (each column depends on
the ones before it), so numpy cannot vectorise it and a Python loop costs
microseconds per column; numba compiles this loop to machine code with no
build step at install time, and ``cache=True`` keeps the compiled code.
"""

from __future__ import annotations

from collections.abc import Callable
from math import gcd
from typing import Any

import numpy as np

from catalog.compute.jit import njit, trailing_zeros
from catalog.compute.modes import engine
from catalog.games.definition import Definition

INF = np.iinfo(np.int64).max
#: Status codes of :func:`_sweep`.
OK, NEED_LINES, NEED_OUTPUT = 0, 1, 2
#: Bytes of line tables above which :class:`KernelSweep` keeps its lines as
#: bits (:func:`_next_free_bit`): some 20 times smaller, and 2 to 4 times
#: slower a column, so only the fills that need it pay for it. The seeds'
#: and the kernel families' tables stay under it up to n = 10^6 (the
#: heaviest ``nimhoff`` member: 296 MB at 10^6, 2.9 GB at 10^7; Linear
#: Nimhoff W000012 267 MB at 10^7), and a fill that passes it would pass
#: 1 GB with its output beside the tables.
LINE_BUDGET = 384 * 2**20


def supported(game: Definition) -> bool:
    """Can the kernel sweep ``game``? One vertical ray (of at most 64), no
    vertical moves, no rule of another kind (the kinds say,
    :func:`catalog.compute.modes.engine`)."""
    return engine(game) == "kernel"


@njit(cache=True, inline="always")
def _slot(idx, ring_origin):
    """The slot of line ``idx``: the line itself in a whole table
    (``ring_origin`` None: numba compiles that case without the branch); in
    a window ``(low, phase, size)`` of ``size`` slots holding the lines
    [low, low + size) from slot ``phase`` on, as a ring."""
    if ring_origin is None:
        return idx
    low, phase, size = ring_origin
    s = idx - low + phase
    return s - size if s >= size else s


@njit(cache=True, inline="always")
def _origin(window, i, rsize):
    """Ray i's :func:`_slot` origin: None for whole tables (``window``
    None), else its window's (low, phase, size), read once a find."""
    if window is None:
        return None
    return window[0][i], window[1][i], rsize[i]


@njit(cache=True, inline="always")
def _find(ring, base, idx, top, ring_origin):
    """The first free line at or after ``idx`` along its chain, or ``top``
    if the chain reaches it first; compresses the path (the lines of one
    ray from ``ring[base]`` on, placed by :func:`_slot`).

    A slot holds the distance to the line's parent (0: the line is free), so
    a new table is all zeros and a line leaves a window freed by a 0. A find
    never follows a pointer at or above ``top``: in a sliding window
    (:mod:`catalog.compute.window`) a line that drifted above it may share
    its slot with a newer one."""
    root = idx
    while root < top:
        step = ring[base + _slot(root, ring_origin)]
        if step == 0:
            break
        root += step
    if root > top:
        root = top
    while idx < root:
        s = base + _slot(idx, ring_origin)
        step = ring[s]
        ring[s] = root - idx
        idx += step
    return root


@njit(cache=True, inline="always")
def _mod(a, m):
    """a mod m (m >= 1), by a mask when m is a power of two: a division
    costs as much as the rest of a cone query or a find, and the mods and
    slopes of the literature's cones mostly are powers of two."""
    return a & (m - 1) if m & (m - 1) == 0 else a % m


@njit(cache=True, inline="always")
def _div(a, d):
    """a // d (d >= 1, floor), by a shift when d is a power of two."""
    return a >> np.int64(trailing_zeros(d)) if d & (d - 1) == 0 else a // d


@njit(cache=True, inline="always")
def _divide(idx, m, inverse):
    """(idx // m, idx % m) for 0 <= idx < 2^52 by a multiplication by the
    float ``inverse`` = 1 / m, corrected by one: a 64-bit division costs
    more than the rest of a find."""
    q = np.int64(idx * inverse)
    r = idx - q * m
    if r < 0:
        q -= 1
        r += m
    elif r >= m:
        q += 1
        r -= m
    return q, r


@njit(cache=True, inline="always")
def _next_free_bit(bits, i, idx, top, compact):
    """:func:`_find` over compact tables: the first free line at or after
    ``idx`` in its chain (idx, idx + m, idx + 2m, ... with m = ``mods[i]``,
    the stride of b rows), or ``top`` if there is none below it.

    ``compact`` is (mods, inverses, words, base, full) (:func:`bit_layout`):
    ray i's lines of one class c mod m lie in a row of ``words[i]`` 64-bit
    words of bits (1: blocked) from word ``base[i] + c * words[i]`` on, line
    idx at bit idx // m, so a chain is a run of consecutive bits; ``full``
    is a "next free" union-find over those words (as :func:`_find`'s, a
    distance a slot, 0 for a word with a free bit), so a find reads one word,
    or jumps over the full ones to the next that has a free bit.
    """
    mods, inverses, words, base, full = compact
    m = mods[i]
    pos, c = _divide(idx, m, inverses[i])
    row = base[i] + c * words[i]
    w = pos >> 6
    if w >= words[i]:
        return top
    word = bits[row + w] | ((1 << (pos & 63)) - 1)  # the bits before pos: full
    if word == -1:
        w = _find(full, row, w + 1, words[i], None)
        if w >= words[i]:
            return top
        word = bits[row + w]
    line = c + ((w << 6) + trailing_zeros(~word)) * m
    return line if line < top else top


@njit(cache=True, inline="always")
def _block_bit(bits, i, idx, compact):
    """Mark line ``idx`` of ray i blocked in compact tables
    (:func:`_next_free_bit`), and its word full when it is."""
    mods, inverses, words, base, full = compact
    pos, c = _divide(idx, mods[i], inverses[i])
    a = base[i] + c * words[i] + (pos >> 6)
    word = bits[a] | (1 << (pos & 63))
    bits[a] = word
    if word == -1:
        full[a] = 1


def bit_layout(mods: np.ndarray, lines: np.ndarray) -> tuple[tuple[Any, ...], int]:
    """The compact tables' ``compact`` tuple (:func:`_next_free_bit`) for
    rays of chain strides ``mods`` and ``lines`` lines each, and their size
    in 64-bit words (an int32 a word more for the union-find)."""
    mods = mods.astype(np.int64)
    per_class = (lines + mods - 1) // mods  # bits a class row
    words = np.maximum(1, (per_class + 63) // 64).astype(np.int64)
    sizes = words * mods
    base = (np.cumsum(sizes) - sizes).astype(np.int64)
    total = int(sizes.sum())
    full = np.zeros(total, dtype=np.int32)
    return (mods, 1.0 / mods.astype(np.float64), words, base, full), total


@njit(cache=True)
def _line(x, y, p, q, g, off):
    return (y * p - x * q) * g + (x // p) % g + off


@njit(cache=True, inline="always")
def _contains(values, lo, hi, y):
    """Is y in the sorted slice values[lo:hi]?"""
    end = hi
    while lo < hi:
        mid = (lo + hi) // 2
        if values[mid] < y:
            lo = mid + 1
        else:
            hi = mid
    return lo < end and values[lo] == y


@njit(cache=True, inline="always")
def _column_lines(x, rp, rq, rg, roff, out):
    """``out[i]``: the line index of (x, 0) on ray i, so that (x, y) is on
    line ``out[i] + y * rp[i] * rg[i]`` (:func:`_line` without a division
    per cell)."""
    for i in range(rp.size):
        out[i] = -x * rq[i] * rg[i] + (x // rp[i]) % rg[i] + roff[i]


@njit(cache=True, inline="always")
def _top(i, column, stride, rsize, window, rows):
    """The first line of ray i past what the tables hold for this column:
    a whole table's end, or the line of row ``rows`` in a window."""
    if window is None:
        return rsize[i]
    return column[i] + rows * stride[i]


def _climbing(y, limit, column, stride, rbase, rsize, window, rows, ring, compact):
    """The lowest y' >= y of y's class mod b, below ``limit``, whose line is
    free on every ray (some y' >= ``limit`` if there is none): leapfrog
    between the rays until all of them, taken in turn, are free at y'.
    Returns (y', False) when a whole table must grow first; in a window,
    every cell from row ``rows`` on counts as blocked (``rows`` >= limit).

    A ray that jumped is free where it landed (``find`` returns a free line),
    so it counts as the first free ray of the new turn; strides of 1 (every
    ray (1, b)) move y without a division.
    """
    nrays = stride.size
    free = 0
    i = 0
    while free < nrays:
        step = stride[i]
        idx = column[i] + y * step
        top = _top(i, column, stride, rsize, window, rows)
        if window is None and idx >= top:
            return y, False
        if compact is None:
            f = _find(ring, rbase[i], idx, top, _origin(window, i, rsize))
        else:
            f = _next_free_bit(ring, i, idx, top, compact)
        if f != idx:
            if f == top:  # every line of the chain below the top is taken
                return rows, window is not None
            y += f - idx if step == 1 else (f - idx) // step
            if y >= limit:
                return y, True
            free = 1
        else:
            free += 1
        i = i + 1 if i + 1 < nrays else 0
    return y, True


#: The climb compiled twice, with one body: inlined into the sweep of whole
#: tables, called from the sweep of a window. Each way was measured the
#: faster for its sweep, by about 1.3 times at 10^7 columns.
_climb = njit(cache=True)(_climbing)
_climb_inlined = njit(cache=True, inline="always")(_climbing)


@njit(cache=True)
def _sort_column(values, lo, hi):
    """Sort values[lo:hi] in place: by insertion when there are a few (a
    column's P-positions, one per class of the vertical ray), since numpy's
    sort of a two-element slice costs more than the rest of the column."""
    if hi - lo > 32:
        values[lo:hi].sort()
        return
    for k in range(lo + 1, hi):
        v = values[k]
        j = k - 1
        while j >= lo and values[j] > v:
            values[j + 1] = values[j]
            j -= 1
        values[j + 1] = v


@njit(cache=True)
def _sweep(
    x0,
    x1,
    b,
    rp,
    rq,
    rg,
    roff,
    rbase,
    rsize,
    window,
    ring,
    compact,
    rows,
    cap,
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
    """The column step of every sweep of a game with one vertical ray (0, b):
    the P-positions below ``cap`` of the columns x0 <= x < x1, each ray's
    lines in ``ring``: whole tables of ``rsize`` lines (:class:`KernelSweep`,
    ``window`` None), or sliding windows ``(low, phase, rsize)`` that keep
    the lines of the rows below ``rows`` (:mod:`catalog.compute.window`);
    whole tables are kept as bits when ``compact`` is given
    (:func:`_next_free_bit`), as distances in ``ring`` when it is None.
    Stops before a column that the output or the line tables cannot hold.

    Returns (next column, positions written, status).
    """
    nrays = rp.size
    nmoves = mva.size
    forced_cols = fp_start.size - 1
    found = np.empty(b, dtype=np.int64)
    stride = rp * rg
    column = np.empty(nrays, dtype=np.int64)
    for x in range(x0, x1):
        fs = fp_start[x] if x < forced_cols else 0
        fe = fp_start[x + 1] if x < forced_cols else 0
        ns = fn_start[x] if x < forced_cols else 0
        ne = fn_start[x + 1] if x < forced_cols else 0
        if n_out + b + fe - fs > out_y.size:
            return x, n_out, NEED_OUTPUT
        _column_lines(x, rp, rq, rg, roff, column)
        if window is not None:
            lows, phases, _ = window
            for i in range(nrays):
                # Lines entering a window at its bottom start free.
                while column[i] < lows[i]:
                    lows[i] -= 1
                    phases[i] = phases[i] - 1 if phases[i] > 0 else rsize[i] - 1
                    ring[rbase[i] + phases[i]] = 0
        count = 0
        for r in range(b):
            limit = cap
            for k in range(fs, fe):
                if fp_y[k] % b == r:
                    limit = min(limit, fp_y[k])
                    break
            y = r
            while y < limit:
                # Chains link cells b rows apart: y stays in class r.
                if window is None:
                    y, fits = _climb_inlined(
                        y,
                        limit,
                        column,
                        stride,
                        rbase,
                        rsize,
                        window,
                        rows,
                        ring,
                        compact,
                    )
                else:
                    y, fits = _climb(
                        y, limit, column, stride, rbase, rsize, window, rows, ring, None
                    )
                if not fits:
                    return x, n_out, NEED_LINES
                if y >= limit:
                    break
                blocked = _contains(fn_y, ns, ne, y)
                for j in range(nmoves):
                    if blocked:
                        break
                    if x >= mva[j] and y >= mvb[j]:
                        # A scan: a column holds a few P-positions (one per
                        # class), where a binary search costs more.
                        xs, ys = x - mva[j], y - mvb[j]
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
            if fp_y[k] < cap:
                out_y[n_out] = fp_y[k]
                n_out += 1
        # Sort the (at most b + forced) entries: naturals come per class.
        _sort_column(out_y, start, n_out)
        for k in range(start, n_out):  # a forced P-position past the tables
            for i in range(nrays):
                top = _top(i, column, stride, rsize, window, rows)
                if column[i] + out_y[k] * stride[i] >= top:
                    return x, start, NEED_LINES
        for k in range(start, n_out):
            for i in range(nrays):
                idx = column[i] + out_y[k] * stride[i]
                if compact is None:
                    slot = _slot(idx, _origin(window, i, rsize))
                    ring[rbase[i] + slot] = stride[i] * b
                else:
                    _block_bit(ring, i, idx, compact)
        col_start[x + 1] = n_out
    return x1, n_out, OK


@njit(cache=True)
def _assemble(col_start, out_y, first, last, start_out, y_bound):
    """The positions of columns [first, last) with y < y_bound, as (k, 2)."""
    count = 0
    for k in range(start_out, col_start[last]):
        if out_y[k] < y_bound:
            count += 1
    result = np.empty((count, 2), dtype=np.int64)
    i = 0
    for x in range(first, last):
        for k in range(col_start[x], col_start[x + 1]):
            if out_y[k] < y_bound:
                result[i, 0] = x
                result[i, 1] = out_y[k]
                i += 1
    return result


@njit(cache=True)
def _mark(columns, col_start, out_y, b, rp, rq, rg, roff, rbase, ring, compact):
    """Mark the lines of every position of the columns below ``columns`` in
    a whole table (each points b rows up its ray, as :func:`_sweep` does),
    or in compact tables."""
    for x in range(columns):
        for k in range(col_start[x], col_start[x + 1]):
            for i in range(rp.size):
                stride = rp[i] * rg[i]
                idx = _line(x, out_y[k], rp[i], rq[i], rg[i], roff[i])
                if compact is None:
                    ring[rbase[i] + idx] = stride * b
                else:
                    _block_bit(ring, i, idx, compact)


def _csr(
    cells: tuple[tuple[int, int], ...], columns: int
) -> tuple[np.ndarray, np.ndarray]:
    """Forced cells as (start per column, sorted ys)."""
    arr = np.asarray(cells, dtype=np.int64).reshape(-1, 2)
    arr = arr[arr[:, 0] < columns]
    order = np.lexsort((arr[:, 1], arr[:, 0]))
    arr = arr[order]
    start = np.zeros(columns + 1, dtype=np.int64)
    np.add.at(start, arr[:, 0] + 1, 1)
    return np.cumsum(start), arr[:, 1].copy()


def grown_caps(
    x_end: int, x: int, x_cap: int, y_cap: int, top: int | None
) -> tuple[int, int] | None:
    """The line tables' new (columns, rows) for running from column ``x`` to
    ``x_end``, the rows projected from ``top`` (the highest row so far; None:
    a fixed height), or None while the tables hold the run.

    A rebuild replays every column so far, so the tables grow by at least a
    quarter at a time: a fill in many chunks rebuilds them O(log n) times,
    not at every chunk (which made a fill at 10^7 quadratic), for at most a
    quarter more memory than one run to ``x_end``.
    """

    def rows(columns: int) -> int:
        if top is None:
            return y_cap
        return max(y_cap, int(1.1 * top * columns / max(1, x)) + 64)

    taller = rows(x_end) > y_cap
    if x_end <= x_cap and not taller:
        return None
    columns = x_cap if x_end <= x_cap else max(x_end, x_cap + x_cap // 4)
    height = rows(columns)
    if taller:
        height = max(height, y_cap + y_cap // 4)
    return columns, height


class Growing:
    """Table sizing shared by the compiled column sweeps: ``_layout`` builds
    the line tables, ``_run`` sweeps; ``height`` None means the rows grow
    with the columns (a fixed height for a box's rows)."""

    height: int | None = None
    x: int
    x_cap: int
    y_cap: int
    n_out: int
    out_y: np.ndarray

    def _layout(self, x_cap: int, y_cap: int) -> None:
        raise NotImplementedError

    def _step(self, target: int) -> tuple[int, int, int]:
        """One call of the compiled sweep over the columns [self.x, target):
        (next column, positions written, status)."""
        raise NotImplementedError

    @property
    def _slack(self) -> int:
        """Output rows kept free before each call of :meth:`_step`."""
        return 64

    def _run(self, x_end: int, progress: Callable[[int], None] | None) -> None:
        """Sweep to column ``x_end``, in a hundred steps when reporting
        progress, growing the tables and the output as the sweep asks."""
        if x_end > self.x_cap:
            y_cap = self.y_cap if self.height is not None else 2 * x_end
            self._layout(max(x_end, 2 * self.x_cap), max(self.y_cap, y_cap))
        step = max(1, (x_end - self.x) // 100) if progress else x_end - self.x
        while self.x < x_end:
            if self.out_y.size - self.n_out < self._slack:
                self._grow_output(max(64, 2 * self.out_y.size))
            x, n_out, status = self._step(min(x_end, self.x + step))
            if progress is not None and x > self.x:
                progress(x - self.x)
            self.x, self.n_out = x, n_out
            if status == NEED_LINES:
                self._layout(self.x_cap, 2 * self.y_cap)
            elif status == NEED_OUTPUT:
                self._grow_output(2 * self.out_y.size + 64)

    def _reserve(self, x_end: int) -> None:
        """Size the tables for x_end columns from what the first columns show,
        so that long runs do not rebuild them again and again."""
        if x_end <= self.x_cap and x_end <= 4096:
            return
        if self.x < 4096:
            self._run(min(x_end, 4096), None)
        top = None
        if self.height is None:
            top = int(self.out_y[: self.n_out].max()) + 1 if self.n_out else 1
        caps = grown_caps(x_end, self.x, self.x_cap, self.y_cap, top)
        if caps is not None:
            self._layout(*caps)
        self._grow_output(int(1.05 * self.n_out * x_end / max(1, self.x)) + 64)

    def _grow_output(self, size: int) -> None:
        """Make room for ``size`` output rows, keeping those written."""
        if size > self.out_y.size:
            grown = np.zeros(size, dtype=np.int64)
            grown[: self.n_out] = self.out_y[: self.n_out]
            self.out_y = grown


class KernelSweep(Growing):
    """A resumable compiled sweep with the interface of
    :class:`catalog.compute.ptable.Sweep` (whole columns only).

    Memory: O(columns + height) for the line tables, O(P-positions) for the
    output; nothing is ever an n x n grid.
    """

    def __init__(
        self, game: Definition, x_cap: int = 1024, compact: bool | None = None
    ) -> None:
        self.game = game
        #: Lines as bits (True), as int32 or int64 distances (False), or
        #: bits only when the distances would pass :data:`LINE_BUDGET`.
        self.compact = compact
        self.layout: tuple[Any, ...] | None = None
        self.x = 0
        self.b = next(b for a, b in game.rays if a == 0)
        rays = [(a, b) for a, b in game.rays if a > 0]
        g = [gcd(a, b) for a, b in rays]
        self.rp = np.array(
            [a // k for (a, _), k in zip(rays, g, strict=True)], np.int64
        )
        self.rq = np.array(
            [b // k for (_, b), k in zip(rays, g, strict=True)], np.int64
        )
        self.rg = np.array(g, dtype=np.int64)
        self.mva = np.array([a for a, _ in game.moves], dtype=np.int64)
        self.mvb = np.array([b for _, b in game.moves], dtype=np.int64)
        self.forced_x = 1 + max(
            (x for x, _ in game.forced_p + game.forced_n), default=-1
        )
        self.fp_start, self.fp_y = _csr(game.forced_p, self.forced_x)
        self.fn_start, self.fn_y = _csr(game.forced_n, self.forced_x)
        self.col_start = np.zeros(1, dtype=np.int64)
        self.out_y = np.zeros(0, dtype=np.int64)
        self.n_out = 0
        self.y_cap = 0
        self._layout(max(x_cap, self.forced_x, 64), 2 * x_cap + 64)

    def _layout(self, x_cap: int, y_cap: int) -> None:
        """(Re)build the line tables for columns < x_cap and rows < y_cap."""
        self.x_cap, self.y_cap = x_cap, y_cap
        self.roff = self.rq * self.rg * x_cap
        self.rcap = (y_cap * self.rp + 2 * self.b) * self.rg + self.roff
        self.rbase = (np.cumsum(self.rcap) - self.rcap).astype(np.int64)
        total = int(self.rcap.sum()) if self.rcap.size else 0
        # int32 halves the memory and the cache misses of the line tables.
        dtype = np.int32 if total < np.iinfo(np.int32).max else np.int64
        self.ring = np.empty(0, dtype=dtype)  # drop the old tables first
        compact = self.compact
        if compact is None:
            compact = total * np.dtype(dtype).itemsize > LINE_BUDGET
        self.layout = None
        if compact:
            self.layout, total = bit_layout(self.rp * self.rg * self.b, self.rcap)
            dtype = np.int64
        # Every line free: zeros, which the system hands out untouched.
        self.ring = np.zeros(total, dtype=dtype)
        col_start = np.zeros(x_cap + 1, dtype=np.int64)
        col_start[: self.x + 1] = self.col_start[: self.x + 1]
        self.col_start = col_start
        if self.n_out:
            _mark(
                self.x,
                self.col_start,
                self.out_y,
                self.b,
                self.rp,
                self.rq,
                self.rg,
                self.roff,
                self.rbase,
                self.ring,
                self.layout,
            )

    @classmethod
    def resume(
        cls, game: Definition, positions: np.ndarray, x_bound: int
    ) -> KernelSweep:
        sweep = cls(game, x_cap=max(1024, x_bound))
        return load_columns(sweep, positions, x_bound)

    def advance(
        self,
        x_end: int,
        progress: Callable[[int], None] | None = None,
        y_bound: int | None = None,
    ) -> np.ndarray:
        """Compute columns [self.x, x_end); return their P-positions (k, 2),
        only those with y < y_bound if it is given."""
        first, start_out = self.x, self.n_out
        self._reserve(x_end)
        self._run(x_end, progress)
        bound = INF if y_bound is None else y_bound
        return _assemble(self.col_start, self.out_y, first, x_end, start_out, bound)

    @property
    def _slack(self) -> int:
        return 4 * self.b

    def _step(self, target: int) -> tuple[int, int, int]:
        return _sweep(  # type: ignore[no-any-return]
            self.x,
            target,
            self.b,
            self.rp,
            self.rq,
            self.rg,
            self.roff,
            self.rbase,
            self.rcap,
            None,
            self.ring,
            self.layout,
            0,
            INF,
            self.mva,
            self.mvb,
            self.fp_start,
            self.fp_y,
            self.fn_start,
            self.fn_y,
            self.col_start,
            self.out_y,
            self.n_out,
        )


def load_columns(sweep: Any, positions: np.ndarray, x_bound: int) -> Any:
    """Put the stored columns below ``x_bound`` (every P-position of them,
    ``positions`` of shape (k, 2)) into a new sweep, so that it continues at
    column ``x_bound``; :class:`KernelSweep` and the sweeps of
    :mod:`catalog.compute.special_kernel` share this layout."""
    positions = np.asarray(positions, dtype=np.int64).reshape(-1, 2)
    counts = np.bincount(positions[:, 0], minlength=x_bound)[:x_bound]
    sweep.col_start[1 : x_bound + 1] = np.cumsum(counts)
    sweep.out_y = positions[:, 1].copy()
    sweep.n_out = len(positions)
    sweep.x = x_bound
    top = int(positions[:, 1].max()) + 1 if len(positions) else 0
    sweep._layout(sweep.x_cap, max(sweep.y_cap, 2 * top))
    return sweep
