"""The slow, obviously right P-position computation.

Written straight from the definition: a position is P iff it is forced P, or
it is not forced N and none of its options is P. Every option of (x, y) has
x' <= x and y' <= y, so labelling the box [0, n) x [0, n) row-major in x then
y only ever looks at labelled cells. Every fast path is tested against this.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from catalog.games.definition import Definition, canonicalize, check_n
from catalog.games.special import extension_options, restricted


def options(game: Definition, x: int, y: int) -> Iterator[tuple[int, int]]:
    """Every position reachable from (x, y) in one move."""
    ho_restriction = "ho-restriction" in game.special
    for a, b in game.rays:
        if ho_restriction and restricted(x, y, a, b):
            continue
        k = 1
        while x - k * a >= 0 and y - k * b >= 0:
            yield x - k * a, y - k * b
            k += 1
    for a, b in game.moves:
        if ho_restriction and restricted(x, y, a, b):
            continue
        if x >= a and y >= b:
            yield x - a, y - b
    if "ho-extension" in game.special:
        yield from extension_options(x, y)


def outcome_grid(definition: Mapping[str, Any] | Definition, n: int) -> np.ndarray:
    """Boolean grid ``g[x, y]``: is (x, y) a P-position, for x, y < n."""
    game = canonicalize(definition)
    n = check_n(n, maximum=2000)
    forced_p = set(game.forced_p)
    forced_n = set(game.forced_n)
    grid = np.zeros((n, n), dtype=bool)
    for x in range(n):
        for y in range(n):
            if (x, y) in forced_p:
                grid[x, y] = True
            elif (x, y) not in forced_n:
                grid[x, y] = not any(grid[o] for o in options(game, x, y))
    return grid


def p_positions(definition: Mapping[str, Any] | Definition, n: int) -> np.ndarray:
    """Every P-position with x, y < n, shape (k, 2), sorted by x then y."""
    xs, ys = np.nonzero(outcome_grid(definition, n))
    return np.column_stack([xs, ys]).astype(np.int64)


def grundy(definition: Mapping[str, Any] | Definition, n: int) -> np.ndarray:
    """Sprague–Grundy values ``g[x, y]`` for x, y < n: the least value not
    among the options' values, cell by cell (games without alterations)."""
    game = canonicalize(definition)
    n = check_n(n, maximum=300)
    if game.altered:
        raise ValueError("an altered game has no Grundy values")
    table = np.zeros((n, n), dtype=np.int64)
    for x in range(n):
        for y in range(n):
            seen = {int(table[o]) for o in options(game, x, y)}
            value = 0
            while value in seen:
                value += 1
            table[x, y] = value
    return table
