"""The literal labelling of the rule kinds of :mod:`catalog.compute.ruleset`,
in plain Python: the option set of each cell written from the definitions,
P iff forced P, or not forced N and at most ``block`` options are P. The
compiled engines (:mod:`catalog.compute.dense`,
:mod:`catalog.compute.conesweep`) are tested against it. No simplification,
no numba: O(n^2 · options) with options a set.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

Pair = Sequence[int]


def options(
    x: int,
    y: int,
    rays: Iterable[Pair] = (),
    moves: Iterable[Pair] = (),
    cones: Iterable[Sequence[int]] = (),
    euclid: bool = False,
    ho_restriction: bool = False,
) -> set[tuple[int, int]]:
    """The set of positions reachable from (x, y) in one move."""
    out: set[tuple[int, int]] = set()

    def allowed(a: int, b: int) -> bool:
        if not ho_restriction:
            return True
        return not ((b == 0 and x < y) or (a == 0 and y < x))

    for a, b in rays:
        k = 1
        while allowed(a, b) and x - k * a >= 0 and y - k * b >= 0:
            out.add((x - k * a, y - k * b))
            k += 1
    for a, b in moves:
        if allowed(a, b) and x >= a and y >= b:
            out.add((x - a, y - b))
    for s1, t1, s2, t2, hi, m, mirror in cones:
        for dx in range(1, x + 1):
            for dy in range(1, y + 1):
                k, ell = (dy, dx) if mirror else (dx, dy)
                if ell < s1 * k + t1 or (hi and ell > s2 * k + t2):
                    continue
                if (ell - k) % m == 0:
                    out.add((x - dx, y - dy))
    if euclid:
        if 0 < y <= x:
            out.update((x - j * y, y) for j in range(1, x // y + 1))
        if 0 < x <= y:
            out.update((x, y - j * x) for j in range(1, y // x + 1))
    return out


def outcome_grid(
    n: int,
    rays: Iterable[Pair] = (),
    moves: Iterable[Pair] = (),
    cones: Iterable[Sequence[int]] = (),
    euclid: bool = False,
    ho_restriction: bool = False,
    block: int = 0,
    forced_p: Iterable[Pair] = (),
    forced_n: Iterable[Pair] = (),
) -> np.ndarray:
    """Boolean grid ``g[x, y]``: is (x, y) a P-position, for x, y < n."""
    rays, moves, cones = list(rays), list(moves), list(cones)
    fp = {(int(a), int(b)) for a, b in forced_p}
    fn = {(int(a), int(b)) for a, b in forced_n}
    grid = np.zeros((n, n), dtype=bool)
    for x in range(n):
        for y in range(n):
            if (x, y) in fp:
                grid[x, y] = True
            elif (x, y) not in fn:
                opts = options(x, y, rays, moves, cones, euclid, ho_restriction)
                grid[x, y] = sum(bool(grid[o]) for o in opts) <= block
    return grid


def p_positions(n: int, **rule_set: object) -> np.ndarray:
    """Every P-position with x, y < n, (k, 2) int64 sorted by x then y."""
    return np.argwhere(outcome_grid(n, **rule_set)).astype(np.int64)  # type: ignore[arg-type]


def grundy(
    n: int,
    rays: Iterable[Pair] = (),
    moves: Iterable[Pair] = (),
    cones: Iterable[Sequence[int]] = (),
    euclid: bool = False,
    ho_restriction: bool = False,
) -> np.ndarray:
    """Sprague–Grundy values ``g[x, y]`` for x, y < n (the mex, cell by cell)."""
    rays, moves, cones = list(rays), list(moves), list(cones)
    table = np.zeros((n, n), dtype=np.int64)
    for x in range(n):
        for y in range(n):
            seen = {
                int(table[o])
                for o in options(x, y, rays, moves, cones, euclid, ho_restriction)
            }
            g = 0
            while g in seen:
                g += 1
            table[x, y] = g
    return table
