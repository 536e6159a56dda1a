"""The data of an identification and the maximal game it allows.

A :class:`Window` holds the cells of S, every P-position with x, y < n;
:func:`maximal` finds the maximal game M* (every step that joins no two
cells of S) and whether it is absorbing; a :class:`Game` is a proposed rule
set (with forced cells for an altered game) and :func:`reproduces` checks it
against the data. :mod:`catalog.compute.identify` says what this means and
asks :mod:`catalog.compute.smallest` for the smallest games; both build on
this module, which imports neither.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from catalog.errors import BadInput, Unprocessable
from catalog.kinds.cones import Cone

#: Largest window n of one identification (n × n cells, n² candidate steps).
MAX_IDENTIFY_N = 256

Cell = tuple[int, int]


@dataclass(frozen=True)
class Window:
    """The data: the cells of S in the window x, y < n, as a boolean grid."""

    n: int
    grid: np.ndarray  # grid[x, y]: is (x, y) in S

    @classmethod
    def of(
        cls, cells: Iterable[Sequence[int]], n: int, symmetric: bool = False
    ) -> Window:
        """The window n holding ``cells`` (and their mirror images when
        ``symmetric``). Raises :class:`BadInput` naming the field."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise BadInput("n: must be a positive integer")
        if n > MAX_IDENTIFY_N:
            raise BadInput(f"n: at most {MAX_IDENTIFY_N}")
        grid = np.zeros((n, n), dtype=bool)
        count = 0
        for i, cell in enumerate(cells):
            if len(cell) != 2 or not all(
                isinstance(c, int | np.integer) and not isinstance(c, bool)
                for c in cell
            ):
                raise BadInput(f"positions[{i}]: must be a pair of integers")
            x, y = int(cell[0]), int(cell[1])
            if x < 0 or y < 0:
                raise BadInput(f"positions[{i}]: ({x}, {y}) has a negative coordinate")
            if x >= n or y >= n:
                raise Unprocessable(
                    f"positions[{i}]: ({x}, {y}) lies outside x, y < n = {n}"
                )
            grid[x, y] = True
            count += 1
        if not count:
            raise BadInput("positions: give at least one P-position")
        if symmetric:
            grid |= grid.T
        return cls(n, grid)

    @property
    def cells(self) -> np.ndarray:
        """The cells of S, shape (k, 2), sorted by x then y."""
        return np.argwhere(self.grid).astype(np.int64)

    @property
    def symmetric(self) -> bool:
        """Is S its own mirror image? Then a step and its mirror count one."""
        return bool((self.grid == self.grid.T).all())


@dataclass(frozen=True)
class Maximal:
    """The maximal game M*: every step of the window that joins no two cells
    of S. ``rays`` are the steps with at least two multiples in the window,
    all in M*, that are no multiple of another such ray; ``moves`` counts
    the other steps of M*."""

    allowed: np.ndarray  # allowed[a, b]: is the step (a, b) in M*
    ray_ok: np.ndarray  # ray_ok[a, b]: all multiples of (a, b) in the window in M*
    rays: list[Cell]
    moves: int
    absorbing: bool  # does M* reach S from every other cell of the window?
    unreached: list[Cell]  # cells outside S that no step of M* takes into S


@dataclass(frozen=True)
class Game:
    """A proposed rule set (with forced cells for an altered game)."""

    rays: tuple[Cell, ...]
    moves: tuple[Cell, ...]
    forced_p: tuple[Cell, ...] = ()
    forced_n: tuple[Cell, ...] = ()
    size: int = 0
    #: Cones of the literature's games (:mod:`catalog.compute.recognise`).
    cones: tuple[Cone, ...] = ()
    #: A game the fields above do not describe (⋆ of a Beatty game), as the
    #: JSON text of its definition; the fields above are then empty.
    written: str | None = None

    @property
    def forced(self) -> int:
        return len(self.forced_p) + len(self.forced_n)

    @property
    def definition(self) -> dict[str, Any]:
        """The catalog's definition JSON of this game (rules only when no cell
        is forced)."""
        if self.written is not None:
            return dict(json.loads(self.written))
        data: dict[str, Any] = {
            "rays": [list(r) for r in sorted(self.rays)],
            "moves": [list(m) for m in sorted(self.moves)],
            "special": [],
        }
        if self.cones:
            data["cones"] = [c.to_json() for c in self.cones]
        if self.forced:
            data["alter"] = {
                "P": [list(c) for c in sorted(self.forced_p)],
                "N": [list(c) for c in sorted(self.forced_n)],
            }
        return data


# -- the maximal game ---------------------------------------------------------


def differences(grid: np.ndarray, exempt: np.ndarray | None = None) -> np.ndarray:
    """``d[a, b]``: is (a, b) ≠ (0, 0) a difference t − s of two cells of S in
    the window (t not in ``exempt``, the cells forced P, whose moves may join
    S)? One shifted OR of the grid per cell s of S: O(|S| n²) bit operations.

    >>> g = np.zeros((4, 4), dtype=bool); g[0, 0] = g[1, 2] = g[2, 1] = True
    >>> np.argwhere(differences(g)).tolist()
    [[1, 2], [2, 1]]
    """
    n = grid.shape[0]
    targets = grid if exempt is None else grid & ~exempt
    cells = np.argwhere(grid)
    if len(cells) > _SHIFTS:
        d = _correlate(grid, targets)
    else:
        d = np.zeros_like(grid)
        for sx, sy in cells:
            d[: n - sx, : n - sy] |= targets[sx:, sy:]
    d[0, 0] = False
    return d


#: Above this many cells of S, shifted ORs give way to one FFT (n² log n).
_SHIFTS = 256


def _correlate(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``c[d]``: is there s with a[s] and b[s + d] (d ≥ 0, inside the grid)?
    Counted by FFT in floating point; the counts are integers below 2^17."""
    n = a.shape[0]
    fa = np.fft.rfft2(a.astype(np.float64), s=(2 * n, 2 * n))
    fb = np.fft.rfft2(b.astype(np.float64), s=(2 * n, 2 * n))
    counts = np.fft.irfft2(np.conj(fa) * fb, s=(2 * n, 2 * n))[:n, :n]
    return counts > 0.5


def _convolve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``c[x]``: is there s with a[s] and b[x − s] (x inside the grid)?"""
    n = a.shape[0]
    fa = np.fft.rfft2(a.astype(np.float64), s=(2 * n, 2 * n))
    fb = np.fft.rfft2(b.astype(np.float64), s=(2 * n, 2 * n))
    return np.fft.irfft2(fa * fb, s=(2 * n, 2 * n))[:n, :n] > 0.5


def _multiples_ok(allowed: np.ndarray) -> np.ndarray:
    """``ok[a, b]``: every multiple k·(a, b), k ≥ 1, inside the window is
    allowed (false for (0, 0) and for steps outside M*)."""
    n = allowed.shape[0]
    ok = allowed.copy()
    a, b = np.nonzero(ok)
    for k in range(2, n):
        inside = (k * a < n) & (k * b < n)
        if not inside.any():
            break
        a, b = a[inside], b[inside]
        bad = ~allowed[k * a, k * b]
        ok[a[bad], b[bad]] = False
    return ok


def _long(n: int) -> np.ndarray:
    """``long[a, b]``: has (a, b) at least two multiples in the window, so that
    as a ray it differs from the single move?"""
    steps = np.arange(n)
    return (2 * steps[:, None] < n) & (2 * steps[None, :] < n)


def maximal(window: Window) -> Maximal:
    """The maximal game M* of the data, its rays, and whether it is absorbing."""
    grid, n = window.grid, window.n
    allowed = ~differences(grid)
    allowed[0, 0] = False
    ray_ok = _multiples_ok(allowed) & _long(n)
    rays = [
        (int(a), int(b))
        for a, b in np.argwhere(ray_ok)
        if not _on_listed(ray_ok, int(a), int(b))
    ]
    on_rays = np.zeros_like(allowed)
    for a, b in rays:
        k = np.arange(1, n)
        k = k[(k * a < n) & (k * b < n)]
        on_rays[k * a, k * b] = True
    reached = _cover(grid, allowed)
    unreached = np.argwhere(~grid & ~reached)
    return Maximal(
        allowed=allowed,
        ray_ok=ray_ok,
        rays=rays,
        moves=int((allowed & ~on_rays).sum()),
        absorbing=not len(unreached),
        unreached=[(int(x), int(y)) for x, y in unreached[:20]],
    )


def _on_listed(ray_ok: np.ndarray, a: int, b: int) -> bool:
    """Is (a, b) a multiple k ≥ 2 of a smaller step whose ray is allowed?"""
    g = math.gcd(a, b)
    return any(ray_ok[a // d, b // d] for d in range(2, g + 1) if g % d == 0)


def _cover(grid: np.ndarray, steps: np.ndarray) -> np.ndarray:
    """``c[x, y]``: does some step of ``steps`` (a boolean grid of (a, b)) take
    (x, y) into S? Shifts the steps by each cell of S."""
    n = grid.shape[0]
    cells = np.argwhere(grid)
    if len(cells) > _SHIFTS:
        return _convolve(grid, steps)
    c = np.zeros_like(grid)
    for sx, sy in cells:
        c[sx:, sy:] |= steps[: n - sx, : n - sy]
    return c


def step_grid(rays: Iterable[Cell], moves: Iterable[Cell], n: int) -> np.ndarray:
    """``steps[a, b]``: is (a, b), with a, b < n, a move of the rules (a
    single move, or a multiple of a ray)?"""
    steps = np.zeros((n, n), dtype=bool)
    for a, b in moves:
        if a < n and b < n:
            steps[a, b] = True
    for a, b in rays:
        k = 1
        while k * a < n and k * b < n:
            steps[k * a, k * b] = True
            k += 1
    return steps


def covered_by(grid: np.ndarray, game: Game) -> np.ndarray:
    """The cells that the game's rules take into S."""
    return _cover(grid, step_grid(game.rays, game.moves, grid.shape[0]))


def reproduces(window: Window, game: Game) -> bool:
    """Is S exactly the game's P-set in the window? (Independent apart from
    the forced P cells, absorbing apart from the forced N cells.)"""
    grid = window.grid
    steps = step_grid(game.rays, game.moves, window.n)
    forced_p = np.zeros_like(grid)
    forced_n = np.zeros_like(grid)
    for x, y in game.forced_p:
        if not grid[x, y]:
            return False
        forced_p[x, y] = True
    for x, y in game.forced_n:
        if grid[x, y]:
            return False
        forced_n[x, y] = True
    joined = differences(grid, exempt=forced_p)
    if (joined & steps).any():
        return False
    return bool((grid | forced_n | _cover(grid, steps)).all())
