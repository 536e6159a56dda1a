"""The slow, obviously right P-position computation.

Written straight from the definition: a position is P iff it is forced P, or
it is not forced N and none of its options is P. Every option of (x, y) has
x' <= x and y' <= y, so labelling the box [0, n) x [0, n) row-major in x then
y only ever looks at labelled cells. Every fast path is tested against this.

Still cell by cell and option by option, but without per-option Python
work: a ray's cells are two ``range``s zipped, and "no option is P" is
``isdisjoint`` of the options with the set of P-positions so far (the tests
compare thousands of grids with this, and it took half their time).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from itertools import repeat
from typing import Any

import numpy as np

from catalog.games.definition import Definition, canonicalize, check_n
from catalog.games.special import extension_options, restricted


def _steps_down(start: int, step: int) -> Iterable[int]:
    """start - step, start - 2·step, … down to 0; ``start`` forever if step is 0."""
    return repeat(start) if step == 0 else range(start - step, -1, -step)


def options(game: Definition, x: int, y: int) -> Iterator[tuple[int, int]]:
    """Every position reachable from (x, y) in one move."""
    ho_restriction = "ho-restriction" in game.special
    for a, b in game.rays:
        if ho_restriction and restricted(x, y, a, b):
            continue
        # (x - k·a, y - k·b) for k = 1, 2, … while both are >= 0: the shorter ends it
        yield from zip(_steps_down(x, a), _steps_down(y, b), strict=False)
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
    p: set[tuple[int, int]] = set()  # the P-positions labelled so far
    for x in range(n):
        for y in range(n):
            if (x, y) in forced_p:
                p.add((x, y))
            elif (x, y) not in forced_n and p.isdisjoint(options(game, x, y)):
                p.add((x, y))
    grid = np.zeros((n, n), dtype=bool)
    for x, y in p:
        grid[x, y] = True
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
