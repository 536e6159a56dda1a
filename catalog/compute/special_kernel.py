"""Compiled sweeps (numba) for the games :mod:`catalog.compute.kernel` leaves out.

:class:`GeneralSweep` handles every rule of a definition: any number of
vertical rays, vertical single moves, Ho's restriction and extension
(:mod:`catalog.games.special`), and a height bound (box mode, for games
without a vertical ray). :class:`TransposedSweep` computes a game with a
horizontal ray but no vertical one as the column game it becomes when the
piles are exchanged.

How a column is scanned. The cells of column x are visited upwards, but never
one by one: each non-vertical ray keeps its lines in a "next free" union-find
(as in :mod:`catalog.compute.kernel`, with chains one row apart), so the scan
leapfrogs from a blocked cell to the next cell whose lines are all free.
Ho's extension is one more jumper: with ``first[r]``/``last[r]`` the leftmost
and rightmost P-position of row r so far,

- a cell (x, y) with y <= x is blocked by the extension iff the column holds a
  P-position below it, or some row r < y has ``r - last[r] < y - x``. Both
  stay true up the column to the diagonal, so one blocked cell sends the scan
  to (x, x + 1);
- a cell (x, y) with y >= x is blocked iff ``M(y) > y - x`` where ``M(y)`` is
  the largest ``r - first[r]`` over the rows r <= y. Every cell below
  ``x + M(y)`` is then blocked too, so the scan jumps there.

Prefix maxima and minima over rows are Fenwick trees. A cell free of every
jumper is checked against the forced cells, the single moves (a binary search
in an earlier column), the vertical rays (the residues of the column's
P-positions so far) and the vertical moves; a column ends when one vertical
ray has blocked all its residues, when a whole period above the last
P-position is blocked by the vertical rays alone, or at the height bound.

So a column costs O((jumps + P-positions + forced cells) * log) and never
its height: the cost follows the number of P-positions, in box mode too.
Ho's restriction only changes which rays and moves act at a cell (horizontal
ones for y <= x, vertical ones for y >= x); a horizontal jump stops at the
diagonal, where horizontal rays stop acting.
"""

from __future__ import annotations

from collections.abc import Callable
from math import gcd

import numpy as np

from catalog.compute.jit import njit
from catalog.compute.kernel import (
    NEED_LINES,
    NEED_OUTPUT,
    OK,
    Growing,
    _contains,
    _csr,
    _find,
    _line,
    load_columns,
)
from catalog.compute.modes import transpose
from catalog.games.definition import Definition, DefinitionError, lcm

INF = np.iinfo(np.int64).max
NEG = np.iinfo(np.int64).min


@njit(cache=True)
def _fen_max_update(tree, i, v):
    i += 1
    while i < tree.size:
        if tree[i] < v:
            tree[i] = v
        i += i & -i


@njit(cache=True)
def _fen_max_query(tree, i):
    """Largest value at rows 0..i (NEG if none)."""
    i = min(i + 1, tree.size - 1)
    best = NEG
    while i > 0:
        if tree[i] > best:
            best = tree[i]
        i -= i & -i
    return best


@njit(cache=True)
def _fen_min_update(tree, i, v):
    i += 1
    while i < tree.size:
        if tree[i] > v:
            tree[i] = v
        i += i & -i


@njit(cache=True)
def _fen_min_query(tree, i):
    """Smallest value at rows 0..i (INF if none)."""
    i = min(i + 1, tree.size - 1)
    best = INF
    while i > 0:
        if tree[i] < best:
            best = tree[i]
        i -= i & -i
    return best


@njit(cache=True)
def _record(x, lo, hi, out_y, rp, rq, rg, roff, rbase, parent, ext, first, fmax, fmin):
    """Mark the lines (and rows, for the extension) of out_y[lo:hi] in column x."""
    for k in range(lo, hi):
        y = out_y[k]
        for i in range(rp.size):
            stride = rp[i] * rg[i]
            idx = _line(x, y, rp[i], rq[i], rg[i], roff[i])
            parent[rbase[i] + idx] = stride  # a distance (kernel._find)
        if ext:
            if first[y] < 0:
                first[y] = x
                _fen_max_update(fmax, y, y - x)
            _fen_min_update(fmin, y, y - x)


@njit(cache=True)
def _sweep(
    x0,
    x1,
    height,
    rp,
    rq,
    rg,
    rh,
    roff,
    rbase,
    rcap,
    parent,
    vb,
    vbase,
    vstamp,
    epoch,
    period,
    vmoves,
    mva,
    mvb,
    fp_start,
    fp_y,
    fn_start,
    fn_y,
    restr,
    ext,
    first,
    fmax,
    fmin,
    col_start,
    out_y,
    n_out,
):
    """Compute columns x0 <= x < x1 (rows below ``height``); stop early when
    an array is too small. Returns (next column, positions written, status)."""
    nrays = rp.size
    nv = vb.size
    nmoves = mva.size
    forced_cols = fp_start.size - 1
    longest_vmove = vmoves[-1] if vmoves.size else 0
    vcount = np.zeros(max(nv, 1), dtype=np.int64)
    rows = first.size
    for x in range(x0, x1):
        epoch[0] += 1
        ep = epoch[0]
        start = n_out
        fs = fp_start[x] if x < forced_cols else 0
        fe = fp_start[x + 1] if x < forced_cols else 0
        ns = fn_start[x] if x < forced_cols else 0
        ne = fn_start[x + 1] if x < forced_cols else 0
        kfp = fs
        for i in range(nv):
            vcount[i] = 0
        last_found = -1
        run = 0  # consecutive cells blocked by the vertical rays alone
        y = 0
        while y < height:
            nextfp = fp_y[kfp] if kfp < fe else INF
            if nv > 0 and (not restr or y >= x):
                closed = run >= period
                for i in range(nv):
                    if vcount[i] == vb[i]:
                        closed = True
                if closed:
                    break
            before = y
            moved = True
            while moved and y < nextfp and y < height:
                moved = False
                for i in range(nrays):
                    if restr and rh[i] and y > x:
                        continue
                    stride = rp[i] * rg[i]
                    idx = _line(x, y, rp[i], rq[i], rg[i], roff[i])
                    if idx + stride >= rcap[i]:
                        return x, start, NEED_LINES
                    f = _find(parent, rbase[i], idx, rcap[i], None)
                    if f != idx:
                        y += (f - idx) // stride
                        if restr and rh[i] and y > x + 1:
                            y = x + 1  # horizontal rays stop acting above x
                        moved = True
                        if y >= nextfp or y >= height:
                            break
                if ext and y < nextfp and y < height:
                    if y <= x:
                        if n_out > start or (
                            y > 0 and _fen_min_query(fmin, y - 1) < y - x
                        ):
                            y = x + 1
                            moved = True
                    if y >= x and y < nextfp and y < height:
                        m = _fen_max_query(fmax, y)
                        if m > y - x:
                            y = x + m
                            moved = True
            if y >= nextfp:
                y = nextfp
                is_forced = True
            else:
                is_forced = False
            if y >= height:
                break
            if y != before:
                run = 0
            vert_ok = not restr or y >= x
            if nv > 0 and vert_ok and not is_forced and y != before:
                # The closing test again at the cell the jump reached.
                closed = False
                for i in range(nv):
                    if vcount[i] == vb[i]:
                        closed = True
                if closed:
                    break
            blocked = False
            if not is_forced:
                blocked = _contains(fn_y, ns, ne, y)
                resblocked = False
                if vert_ok:
                    for i in range(nv):
                        if vstamp[vbase[i] + y % vb[i]] == ep:
                            resblocked = True
                            break
                if resblocked and y > last_found + longest_vmove:
                    run += 1
                else:
                    run = 0
                blocked = blocked or resblocked
                if not blocked and vert_ok:
                    for c in vmoves:
                        if y >= c and _contains(out_y, start, n_out, y - c):
                            blocked = True
                            break
                if not blocked:
                    for j in range(nmoves):
                        a = mva[j]
                        b = mvb[j]
                        if restr and b == 0 and x < y:
                            continue
                        if x >= a and y >= b:
                            xs = x - a
                            if _contains(
                                out_y, col_start[xs], col_start[xs + 1], y - b
                            ):
                                blocked = True
                                break
            if is_forced or not blocked:
                if n_out >= out_y.size:
                    return x, start, NEED_OUTPUT
                out_y[n_out] = y
                n_out += 1
                for i in range(nv):
                    slot = vbase[i] + y % vb[i]
                    if vstamp[slot] != ep:
                        vstamp[slot] = ep
                        vcount[i] += 1
                last_found = y
                run = 0
                if is_forced:
                    kfp += 1
            y += 1
        # Forced P-positions above the column's end.
        while kfp < fe:
            if fp_y[kfp] >= y and fp_y[kfp] < height:
                if n_out >= out_y.size:
                    return x, start, NEED_OUTPUT
                out_y[n_out] = fp_y[kfp]
                n_out += 1
            kfp += 1
        for k in range(start, n_out):
            if ext and out_y[k] >= rows:
                return x, start, NEED_LINES
            for i in range(nrays):
                stride = rp[i] * rg[i]
                idx = _line(x, out_y[k], rp[i], rq[i], rg[i], roff[i])
                if idx + stride >= rcap[i]:
                    return x, start, NEED_LINES
        _record(
            x,
            start,
            n_out,
            out_y,
            rp,
            rq,
            rg,
            roff,
            rbase,
            parent,
            ext,
            first,
            fmax,
            fmin,
        )
        col_start[x + 1] = n_out
    return x1, n_out, OK


@njit(cache=True)
def _replay(
    columns, col_start, out_y, rp, rq, rg, roff, rbase, parent, ext, first, fmax, fmin
):
    for x in range(columns):
        _record(
            x,
            col_start[x],
            col_start[x + 1],
            out_y,
            rp,
            rq,
            rg,
            roff,
            rbase,
            parent,
            ext,
            first,
            fmax,
            fmin,
        )


@njit(cache=True)
def _assemble(col_start, out_y, first, last, y_lo, y_hi):
    """Positions (x, y) of columns [first, last) with y_lo <= y < y_hi."""
    count = 0
    for k in range(col_start[first], col_start[last]):
        if out_y[k] >= y_lo and out_y[k] < y_hi:
            count += 1
    result = np.empty((count, 2), dtype=np.int64)
    i = 0
    for x in range(first, last):
        for k in range(col_start[x], col_start[x + 1]):
            if out_y[k] >= y_lo and out_y[k] < y_hi:
                result[i, 0] = x
                result[i, 1] = out_y[k]
                i += 1
    return result


@njit(cache=True)
def _transposed(col_start, out_y, columns, x_lo, x_hi):
    """The positions (y, x) for (x, y) in columns [0, columns) with
    x_lo <= y < x_hi, sorted by their new x then y (a counting sort)."""
    width = x_hi - x_lo
    counts = np.zeros(width + 1, dtype=np.int64)
    for k in range(col_start[columns]):
        y = out_y[k]
        if y >= x_lo and y < x_hi:
            counts[y - x_lo + 1] += 1
    for i in range(width):
        counts[i + 1] += counts[i]
    result = np.empty((counts[width], 2), dtype=np.int64)
    for x in range(columns):
        for k in range(col_start[x], col_start[x + 1]):
            y = out_y[k]
            if y >= x_lo and y < x_hi:
                slot = counts[y - x_lo]
                result[slot, 0] = y
                result[slot, 1] = x
                counts[y - x_lo] = slot + 1
    return result


class GeneralSweep(Growing):
    """A resumable compiled sweep for any definition, with the interface of
    :class:`catalog.compute.kernel.KernelSweep` (whole columns only).

    Parameters
    ----------
    game : Definition
    height : int or None
        ``None`` computes whole columns (the game needs a vertical ray); an
        integer computes the rows ``y < height`` of each column (box mode).

    Memory: O(columns + height) for the line tables (and the row tables of
    Ho's extension), O(P-positions) for the output.
    """

    def __init__(
        self, game: Definition, height: int | None = None, x_cap: int = 1024
    ) -> None:
        vertical = sorted(b for a, b in game.rays if a == 0)
        if height is None and not vertical:
            raise DefinitionError("rays: whole columns need a vertical ray (0, b)")
        self.game = game
        self.height = height
        self.x = 0
        self.vb = np.array(vertical, dtype=np.int64)
        self.vbase = (np.cumsum(self.vb) - self.vb).astype(np.int64)
        self.vstamp = np.zeros(max(1, int(self.vb.sum())), dtype=np.int64)
        self.epoch = np.zeros(1, dtype=np.int64)
        self.period = lcm(vertical) if vertical else 1
        self.vmoves = np.array(
            sorted(b for a, b in game.moves if a == 0), dtype=np.int64
        )
        rays = [(a, b) for a, b in game.rays if a > 0]
        g = [gcd(a, b) for a, b in rays]
        self.rp = np.array(
            [a // k for (a, _), k in zip(rays, g, strict=True)], np.int64
        )
        self.rq = np.array(
            [b // k for (_, b), k in zip(rays, g, strict=True)], np.int64
        )
        self.rg = np.array(g, dtype=np.int64)
        self.rh = np.array([b == 0 for _, b in rays], dtype=np.bool_)
        moves = [(a, b) for a, b in game.moves if a > 0]
        self.mva = np.array([a for a, _ in moves], dtype=np.int64)
        self.mvb = np.array([b for _, b in moves], dtype=np.int64)
        self.restr = "ho-restriction" in game.special
        self.ext = "ho-extension" in game.special
        self.forced_x = 1 + max(
            (x for x, _ in game.forced_p + game.forced_n), default=-1
        )
        self.fp_start, self.fp_y = _csr(game.forced_p, self.forced_x)
        self.fn_start, self.fn_y = _csr(game.forced_n, self.forced_x)
        self.col_start = np.zeros(1, dtype=np.int64)
        self.out_y = np.zeros(0, dtype=np.int64)
        self.n_out = 0
        self.y_cap = 0
        self.x_cap = 0
        y_cap = height + 2 if height is not None else 2 * x_cap + 64
        self._layout(max(x_cap, self.forced_x, 64), y_cap)

    @property
    def _bound(self) -> int:
        return INF if self.height is None else self.height

    def _layout(self, x_cap: int, y_cap: int) -> None:
        """(Re)build the line and row tables for columns < x_cap, rows < y_cap."""
        if self.height is not None:
            y_cap = max(y_cap, self.height + 2)
        self.x_cap, self.y_cap = x_cap, y_cap
        self.roff = self.rq * self.rg * x_cap
        self.rcap = (y_cap * self.rp + 2) * self.rg + self.roff
        self.rbase = (np.cumsum(self.rcap) - self.rcap).astype(np.int64)
        total = int(self.rcap.sum()) if self.rcap.size else 0
        dtype = np.int32 if total < np.iinfo(np.int32).max else np.int64
        self.parent = np.empty(0, dtype=dtype)  # drop the old tables first
        self.parent = np.zeros(max(total, 1), dtype=dtype)  # every line free
        rows = y_cap if self.ext else 1
        # Rows and their differences y - x fit in int32 up to 2**31 rows.
        small = np.int32 if max(x_cap, y_cap) < 2**30 else np.int64
        info = np.iinfo(small)
        self.first = self.fmax = self.fmin = np.empty(0, dtype=small)
        self.first = np.full(rows, -1, dtype=small)
        self.fmax = np.full(rows + 1, info.min, dtype=small)
        self.fmin = np.full(rows + 1, info.max, dtype=small)
        col_start = np.zeros(x_cap + 1, dtype=np.int64)
        col_start[: self.x + 1] = self.col_start[: self.x + 1]
        self.col_start = col_start
        if self.n_out:
            _replay(
                self.x,
                self.col_start,
                self.out_y,
                self.rp,
                self.rq,
                self.rg,
                self.roff,
                self.rbase,
                self.parent,
                self.ext,
                self.first,
                self.fmax,
                self.fmin,
            )

    @classmethod
    def resume(
        cls,
        game: Definition,
        positions: np.ndarray,
        x_bound: int,
        height: int | None = None,
    ) -> GeneralSweep:
        """A sweep that continues at column ``x_bound`` after ``positions``
        (every P-position of the columns below it, rows below ``height``)."""
        sweep = cls(game, height, x_cap=max(1024, x_bound))
        return load_columns(sweep, positions, x_bound)

    def advance(
        self,
        x_end: int,
        progress: Callable[[int], None] | None = None,
        y_bound: int | None = None,
    ) -> np.ndarray:
        """Compute columns [self.x, x_end); return their P-positions (k, 2),
        only those with y < y_bound if it is given."""
        first = self.x
        self._reserve(x_end)
        self._run(x_end, progress)
        if first >= x_end:
            return np.zeros((0, 2), dtype=np.int64)
        bound = INF if y_bound is None else y_bound
        return _assemble(self.col_start, self.out_y, first, x_end, 0, bound)

    def _step(self, target: int) -> tuple[int, int, int]:
        return _sweep(  # type: ignore[no-any-return]
            self.x,
            target,
            self._bound,
            self.rp,
            self.rq,
            self.rg,
            self.rh,
            self.roff,
            self.rbase,
            self.rcap,
            self.parent,
            self.vb,
            self.vbase,
            self.vstamp,
            self.epoch,
            self.period,
            self.vmoves,
            self.mva,
            self.mvb,
            self.fp_start,
            self.fp_y,
            self.fn_start,
            self.fn_y,
            self.restr,
            self.ext,
            self.first,
            self.fmax,
            self.fmin,
            self.col_start,
            self.out_y,
            self.n_out,
        )


class TransposedSweep:
    """A game with a horizontal ray but no vertical one, computed as a box
    [0, X) x [0, height) through its transpose, a column game.

    The box's rows are the transpose's columns: it computes the columns
    [0, height) of the transpose once (whole columns, with the compiled
    kernel where it applies), then reads any range of the box's columns off
    them. Cost and memory follow ``height`` and the P-positions, not the
    box's area.
    """

    def __init__(self, game: Definition, height: int) -> None:
        from catalog.compute.kernel import KernelSweep
        from catalog.compute.kernel import supported as kernel_supported

        self.game = game
        self.height = height
        self.x = 0
        inner_game = transpose(game)
        self.inner: KernelSweep | GeneralSweep = (
            KernelSweep(inner_game)
            if kernel_supported(inner_game)
            else GeneralSweep(inner_game)
        )

    @classmethod
    def resume(
        cls,
        game: Definition,
        positions: np.ndarray,
        x_bound: int,
        height: int | None = None,
    ) -> TransposedSweep:
        """Continue the box [0, x_bound) x [0, height) to the right (the rows
        are recomputed: they are the transpose's columns)."""
        if height is None:
            raise DefinitionError("rays: a game without a vertical ray needs a height")
        sweep = cls(game, height)
        sweep.x = x_bound
        return sweep

    def advance(
        self, x_end: int, progress: Callable[[int], None] | None = None
    ) -> np.ndarray:
        """Compute the columns [self.x, x_end) below the height; (k, 2)."""
        if self.inner.x < self.height:
            tick = None
            if progress is not None:
                # Progress in the box's columns, in proportion.
                width = max(0, x_end - self.x)
                done = [0, 0]

                def tick(step: int) -> None:
                    done[0] += step
                    due = width * done[0] // max(1, self.height)
                    if due > done[1]:
                        progress(due - done[1])
                        done[1] = due

            self.inner.advance(self.height, tick, y_bound=0)
        lo = self.x
        self.x = max(self.x, x_end)
        if x_end <= lo:
            return np.zeros((0, 2), dtype=np.int64)
        return _transposed(
            self.inner.col_start, self.inner.out_y, self.height, lo, x_end
        )
