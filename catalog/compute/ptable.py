"""P-positions by a column sweep: :func:`p_positions` and :class:`Sweep`.

Columns are computed left to right. The state is what Hu, Sleator and Tsin
keep for Wythoff's Nim (their ``row[]`` and ``diag[]``), generalised: for each
ray, the set of its lines that already hold a P-position. A cell (x, y) is
then decided by looking up the lines through it, the columns its single moves
reach, and, for vertical rays, the P-positions already found lower in the
same column.

Games with a vertical ray (0, b) have finitely many P-positions in each
column, and the sweep computes whole columns ("column mode"). Games without
one can have a P-position in every row of a column, so they are computed in a
box [0, X) x [0, Y) ("box mode"); see :mod:`catalog.compute.modes`.

:func:`p_positions` and the store run the compiled sweeps
(:mod:`catalog.compute.kernel`, :mod:`catalog.compute.special_kernel`); the
numpy :class:`Sweep` here stays as an independent implementation for tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import gcd
from typing import Any

import numpy as np

from catalog.compute import altered, closed
from catalog.compute.kernel import KernelSweep
from catalog.compute.kindsweeps import (
    BlockSweep,
    ConeSweep,
    DenseSweep,
    SubtractionSweep,
)
from catalog.compute.modes import column_mode, engine, max_n
from catalog.compute.special_kernel import GeneralSweep, TransposedSweep
from catalog.compute.window import p_positions_below
from catalog.games.definition import (
    Definition,
    DefinitionError,
    canonicalize,
    check_n,
    lcm,
)


class _KeySet:
    """A set of integer keys kept as a growable boolean array."""

    def __init__(self) -> None:
        self.lo = 0
        self.bits = np.zeros(0, dtype=bool)

    def add(self, keys: np.ndarray) -> None:
        if keys.size == 0:
            return
        lo, hi = int(keys.min()), int(keys.max()) + 1
        cur_hi = self.lo + self.bits.size
        if self.bits.size == 0 or lo < self.lo or hi > cur_hi:
            span = max(hi, cur_hi) - min(lo, self.lo)
            new_lo = min(lo, self.lo) - (span if lo < self.lo else 0)
            new_hi = max(hi, cur_hi) + (span if hi > cur_hi else 0)
            if self.bits.size == 0:
                new_lo, new_hi = lo - 64, hi + 64
            bits = np.zeros(new_hi - new_lo, dtype=bool)
            bits[self.lo - new_lo : self.lo - new_lo + self.bits.size] = self.bits
            self.lo, self.bits = new_lo, bits
        self.bits[keys - self.lo] = True

    def lookup(self, keys: np.ndarray) -> np.ndarray:
        idx = keys - self.lo
        inside = (idx >= 0) & (idx < self.bits.size)
        out = np.zeros(keys.shape, dtype=bool)
        out[inside] = self.bits[idx[inside]]
        return out


class _LineRay:
    """The lines of one non-vertical ray (a, b), a > 0, that hold a P-position.

    With (a, b) = g * (p, q), p and q coprime, the cells reachable along the
    ray from (x, y) are those with the same ``x*q - y*p`` (the line) and the
    same ``(x // p) mod g`` (the class of steps along it).
    """

    def __init__(self, a: int, b: int) -> None:
        self.a, self.b = a, b
        self.g = gcd(a, b)
        self.p, self.q = a // self.g, b // self.g
        self.seen = _KeySet()

    def keys(self, x: int, ys: np.ndarray) -> np.ndarray:
        return (x * self.q - ys * self.p) * self.g + (x // self.p) % self.g


def _grow(arr: np.ndarray, size: int, fill: int) -> np.ndarray:
    if arr.size >= size:
        return arr
    out = np.full(max(size, 2 * arr.size), fill, dtype=arr.dtype)
    out[: arr.size] = arr
    return out


class Sweep:
    """Left-to-right computation of P-positions, resumable at any column.

    Parameters
    ----------
    definition : dict or Definition
        The game.
    height : int or None
        ``None`` computes whole columns (only for :func:`column_mode` games);
        an integer computes the rows ``y < height`` of each column.

    Notes
    -----
    A column costs O(H * rules) numpy work, where H is the height below which
    a line of a non-vertical ray can still be blocked (about 2.6 x for
    Wythoff's Nim). Memory is O(P-positions found).
    """

    def __init__(
        self, definition: Mapping[str, Any] | Definition, height: int | None = None
    ) -> None:
        game = canonicalize(definition)
        if height is None and not column_mode(game):
            raise DefinitionError("rays: whole columns need a vertical ray (0, b)")
        if game.beyond("rays", "moves", "alter", "ho-restriction", "ho-extension"):
            raise DefinitionError("definition: the numpy sweep knows the first kinds")
        self.game = game
        self.height = height
        self.x = 0
        self.line_rays = [_LineRay(a, b) for a, b in game.rays if a > 0]
        self.vertical = sorted(b for a, b in game.rays if a == 0)
        self.period = lcm(self.vertical)
        self.column_moves = [(a, b) for a, b in game.moves if a > 0]
        self.vertical_moves = sorted(b for a, b in game.moves if a == 0)
        self.lookback = max((a for a, _ in self.column_moves), default=0)
        self.restriction = "ho-restriction" in game.special
        self.extension = "ho-extension" in game.special
        self.max_y = -1
        self.columns: dict[int, np.ndarray] = {}
        # ho-extension: leftmost and rightmost P-position of each row so far.
        self.row_first = np.full(0, -1, dtype=np.int64)
        self.row_last = np.full(0, -1, dtype=np.int64)
        # The ray (1, 0): which rows hold a P-position, and the lowest free one.
        self.rows_used = np.zeros(0, dtype=bool) if (1, 0) in game.rays else None
        self.free_row = 0
        self.forced_p: dict[int, list[int]] = {}
        self.forced_n: dict[int, list[int]] = {}
        for x, y in game.forced_p:
            self.forced_p.setdefault(x, []).append(y)
        for x, y in game.forced_n:
            self.forced_n.setdefault(x, []).append(y)

    # -- state -------------------------------------------------------------

    @classmethod
    def resume(
        cls,
        definition: Mapping[str, Any] | Definition,
        positions: np.ndarray,
        x_bound: int,
        height: int | None = None,
    ) -> Sweep:
        """A sweep that continues at column ``x_bound`` after ``positions``.

        ``positions`` must be every P-position in the columns below
        ``x_bound`` (rows below ``height`` in box mode), as computed before.
        """
        sweep = cls(definition, height)
        positions = np.asarray(positions, dtype=np.int64).reshape(-1, 2)
        bounds = np.searchsorted(positions[:, 0], np.arange(x_bound + 1))
        for x in range(x_bound):
            sweep._record(x, positions[bounds[x] : bounds[x + 1], 1])
        sweep.x = x_bound
        return sweep

    def _record(self, x: int, ys: np.ndarray) -> None:
        for ray in self.line_rays:
            ray.seen.add(ray.keys(x, ys))
        if ys.size:
            self.max_y = max(self.max_y, int(ys.max()))
            if self.rows_used is not None:
                self.rows_used = _grow(self.rows_used, self.max_y + 1, 0)
                self.rows_used[ys] = True
            if self.extension:
                self.row_first = _grow(self.row_first, self.max_y + 1, -1)
                self.row_last = _grow(self.row_last, self.max_y + 1, -1)
                first = self.row_first[ys] < 0
                self.row_first[ys[first]] = x
                self.row_last[ys] = x
        if self.lookback:
            self.columns[x] = ys
            self.columns.pop(x - self.lookback, None)

    # -- one column ---------------------------------------------------------

    def _scan_height(self, x: int) -> int:
        """Rows at and above this can only be blocked from within column x."""
        if self.height is not None:
            return self.height
        top = self.max_y
        h = top + 1
        for ray in self.line_rays:
            h = max(h, top + (x // ray.a) * ray.b + 1)
        for a, b in self.column_moves:
            if a <= x:
                h = max(h, top + b + 1)
        if self.extension:
            h = max(h, top + x + 1, x + 1)
        if self.restriction:
            h = max(h, x + 1)
        forced = self.forced_p.get(x, []) + self.forced_n.get(x, [])
        return max([h, 1] + [y + 1 for y in forced])

    def _blocked(self, x: int, lo: int, hi: int) -> np.ndarray:
        """Cells lo <= y < hi of column x with a P option outside the column."""
        ys = np.arange(lo, hi, dtype=np.int64)
        blocked = np.zeros(hi - lo, dtype=bool)
        for ray in self.line_rays:
            hit = ray.seen.lookup(ray.keys(x, ys))
            if self.restriction and ray.b == 0:
                hit &= ys <= x  # x < y: pile x is the smaller, may not move alone
            blocked |= hit
        for a, b in self.column_moves:
            prev = self.columns.get(x - a)
            if prev is None or prev.size == 0:
                continue
            targets = prev + b
            targets = targets[(targets >= lo) & (targets < hi)]
            if self.restriction and b == 0:
                targets = targets[targets <= x]
            blocked[targets - lo] = True
        if self.extension and self.max_y >= 0:
            blocked |= self._extension_blocked(x, hi)[lo:]
        return blocked

    def _extension_blocked(self, x: int, h: int) -> np.ndarray:
        ys = np.arange(h, dtype=np.int64)
        rows = min(h, self.max_y + 1)
        first = self.row_first[:rows]
        last = self.row_last[:rows]
        idx = np.arange(rows, dtype=np.int64)
        big = np.iinfo(np.int64).max
        # x <= y: reach (x', y') with x' < x, y' <= y and y' - x' > y - x.
        up = np.where(first >= 0, idx - first, -big)
        best_up = np.full(h, -big, dtype=np.int64)
        best_up[:rows] = np.maximum.accumulate(up)
        best_up[rows:] = best_up[rows - 1]
        case_a = (ys >= x) & (best_up > ys - x)
        # y <= x: reach (x', y') with x' < x, y' < y and y' - x' < y - x.
        down = np.where(last >= 0, idx - last, big)
        low = np.full(h, big, dtype=np.int64)
        low[1 : rows + 1] = np.minimum.accumulate(down)[: h - 1]
        if rows + 1 < h:
            low[rows + 1 :] = low[rows]
        case_b = (ys <= x) & (low < ys - x)
        return case_a | case_b

    def _start_row(self, x: int) -> int:
        """Rows below this are blocked along the ray (1, 0) (Lemma 1's l_t)."""
        if self.rows_used is None:
            return 0
        used = self.rows_used
        while self.free_row < used.size and used[self.free_row]:
            self.free_row += 1
        if self.restriction:
            return min(self.free_row, x + 1)
        return self.free_row

    def _column(self, x: int) -> np.ndarray:
        h = self._scan_height(x)
        forced = sorted(y for y in self.forced_p.get(x, []) if y < h)
        forced_n = [y for y in self.forced_n.get(x, []) if y < h]
        found: list[int] = []
        residues: dict[int, set[int]] = {b: set() for b in self.vertical}
        in_column = bool(self.vertical or self.vertical_moves or self.extension)
        lo = self._start_row(x)
        for y in forced:
            if y < lo:
                self._take(y, found, residues)
        # Scan upwards in growing windows: most columns end near their start.
        size = 64
        while lo < h:
            hi = min(h, lo + size)
            free = ~self._blocked(x, lo, hi)
            is_forced = np.zeros(hi - lo, dtype=bool)
            is_forced[[y - lo for y in forced if lo <= y < hi]] = True
            free[[y - lo for y in forced_n if lo <= y < hi]] = False
            candidates = np.flatnonzero(free | is_forced) + lo
            if not in_column:
                found.extend(candidates.tolist())
            for y in candidates.tolist() if in_column else ():
                if is_forced[y - lo]:
                    self._take(y, found, residues)
                elif not self._vertically_blocked(x, y, found, residues):
                    self._take(y, found, residues)
                elif self._column_closed(x, y, residues):
                    found.extend(v for v in forced if v > y)
                    return np.asarray(found, dtype=np.int64)
            lo, size = hi, 2 * size
        if self.height is None:
            # Above h only vertical rays and moves act, and the column's
            # pattern repeats with the period of the vertical rays. Once y is
            # past the last P-position by the longest vertical move, a whole
            # period without a new one proves the column complete.
            y = h
            longest = max(self.vertical_moves, default=0)
            while y < max(h, (found[-1] if found else -1) + longest + 1) + self.period:
                if self._column_closed(x, y, residues):
                    break
                if not self._vertically_blocked(x, y, found, residues):
                    self._take(y, found, residues)
                y += 1
        return np.asarray(found, dtype=np.int64)

    @staticmethod
    def _take(y: int, found: list[int], residues: dict[int, set[int]]) -> None:
        found.append(y)
        for b, seen in residues.items():
            seen.add(y % b)

    def _vertically_blocked(
        self, x: int, y: int, found: list[int], residues: dict[int, set[int]]
    ) -> bool:
        if not found:
            return False
        if not (self.restriction and y < x):
            if any(y % b in seen for b, seen in residues.items()):
                return True
            if any(y - b in found for b in self.vertical_moves):
                return True
        # ho-extension with y <= x: reduce y alone, by any amount.
        return self.extension and y <= x

    def _column_closed(self, x: int, y: int, residues: dict[int, set[int]]) -> bool:
        """No cell above y of column x can be a natural P-position any more."""
        if not self.vertical or (self.restriction and y < x):
            return False
        b = self.vertical[0]
        return len(residues[b]) == b

    def advance(self, x_end: int, progress=None) -> np.ndarray:
        """Compute columns [self.x, x_end); return their P-positions (k, 2)."""
        xs: list[np.ndarray] = []
        ys: list[np.ndarray] = []
        for x in range(self.x, x_end):
            col = self._column(x)
            self._record(x, col)
            xs.append(np.full(col.size, x, dtype=np.int64))
            ys.append(col)
            if progress is not None:
                progress(1)
        self.x = max(self.x, x_end)
        if not xs:
            return np.zeros((0, 2), dtype=np.int64)
        return np.column_stack([np.concatenate(xs), np.concatenate(ys)])


Resumable = (
    KernelSweep
    | GeneralSweep
    | TransposedSweep
    | ConeSweep
    | BlockSweep
    | DenseSweep
    | SubtractionSweep
)


def resume_sweep(
    definition: Mapping[str, Any] | Definition,
    positions: np.ndarray,
    x_bound: int,
    height: int | None = None,
) -> Resumable:
    """The fastest sweep for ``definition``, continuing at column ``x_bound``
    after ``positions`` (every P-position of the columns below it; rows
    below ``height`` in box mode), as :func:`catalog.compute.modes.engine`
    names it."""
    game = canonicalize(definition)
    name = engine(game)
    if height is None:
        if name == "kernel":
            return KernelSweep.resume(game, positions, x_bound)
        if name != "general":
            raise DefinitionError("rays: whole columns need a vertical ray (0, b)")
        return GeneralSweep.resume(game, positions, x_bound)
    if name == "transposed":
        return TransposedSweep.resume(game, positions, x_bound, height)
    if name == "dense":
        return DenseSweep.resume(game, positions, x_bound, height)
    if name == "cones":
        return ConeSweep.resume(game, positions, x_bound, height)
    if name == "subtraction":
        return SubtractionSweep.resume(game, positions, x_bound, height, p_positions)
    if name == "blocking":
        return BlockSweep.resume(game, positions, x_bound, height)
    return GeneralSweep.resume(game, positions, x_bound, height)


def p_positions(definition: Mapping[str, Any] | Definition, n: int) -> np.ndarray:
    """Every P-position (x, y) with x < n and y < n.

    Parameters
    ----------
    definition : dict
        A game definition (see the contract); validated first.
    n : int
        The bound, 0 <= n <= :data:`~catalog.games.definition.MAX_N`
        (:func:`~catalog.compute.modes.max_n` for games held to a box).

    Returns
    -------
    numpy.ndarray
        Shape (k, 2), dtype int64, sorted by x then y.

    Raises
    ------
    DefinitionError
        A ``ValueError`` naming the field that makes no sense.
    TooMuchWork
        A box-mode game whose box n x n would take more memory than
        :data:`~catalog.compute.cost.MAX_BOX_BYTES` (by its density).

    Notes
    -----
    Wythoff's Nim itself is the exact closed form; altered Wythoff games run
    the compiled sweep to their saturation column and then the Wythoff
    update (Hu–Sleator–Tsin Lemma 3), vectorised; other games with one
    vertical ray run the compiled sweep below the height n with its lines in
    sliding windows (:mod:`catalog.compute.window`), O(n) memory; every
    other game the compiled sweeps of :mod:`catalog.compute.special_kernel`
    (column games, transposed games with a horizontal ray but no vertical
    one, and box mode).

    Examples
    --------
    >>> p_positions({"rays": [[1, 0], [0, 1], [1, 1]]}, 6).tolist()
    [[0, 0], [1, 2], [2, 1], [3, 5], [5, 3]]

    References
    ----------
    .. [1] J. Hu, D. Sleator, J. Tsin, "Wythoff's Nim with Finite Alterations",
       arXiv:2408.02851, sections 2 and 3.
    """
    game = canonicalize(definition)
    n = check_n(n)
    if closed.is_wythoff(game):
        return closed.p_positions(n)
    if altered.is_altered_wythoff(game):
        return altered.p_positions(game, n)
    name = engine(game)
    if name == "kernel":
        return p_positions_below(game, n)
    if name == "general":
        return GeneralSweep(game).advance(n, y_bound=n)
    if name == "transposed":
        return TransposedSweep(game, n).advance(n)
    n = check_n(n, maximum=max_n(game))
    if name == "cones":
        return ConeSweep(game, height=n).advance(n)
    if name == "blocking":
        return BlockSweep(game, height=n).advance(n)
    if name == "dense":
        return DenseSweep(game, height=n).advance(n)
    from catalog.compute.cost import check_box_memory  # cost imports this module

    check_box_memory(game, n)
    if name == "subtraction":
        return SubtractionSweep(game, n, p_positions).advance(n)
    return GeneralSweep(game, height=n).advance(n)
