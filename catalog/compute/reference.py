"""The slow, obviously right P-position computation.

Written straight from the definition: a position is P iff it is forced P, or
it is not forced N and none of its options is P (at most ``block`` of them,
for a blocking game). Each rule kind lists its options literally
(:meth:`catalog.kinds.base.Kind.options`). Every option of (x, y) has
x' <= x and y' <= y, so labelling the box [0, n) x [0, n) row-major in x then
y only ever looks at labelled cells. Every fast path is tested against this.

Still cell by cell and option by option, but without per-option Python
work: a ray's cells are two ``range``s zipped, and "no option is P" is
``isdisjoint`` of the options with the set of P-positions so far (the tests
compare thousands of grids with this, and it took half their time).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from catalog import kinds
from catalog.games.definition import Definition, canonicalize, check_n

#: Every position reachable from (x, y) in one move, as each rule kind of
#: :mod:`catalog.kinds` lists them (duplicates allowed).
options = kinds.options


def outcome_grid(definition: Mapping[str, Any] | Definition, n: int) -> np.ndarray:
    """Boolean grid ``g[x, y]``: is (x, y) a P-position, for x, y < n."""
    game = canonicalize(definition)
    n = check_n(n, maximum=2000)
    p = kinds.label(game, n)
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
    for kind in kinds.present(game):
        if kind.no_grundy:
            raise ValueError(kind.no_grundy)
    table = np.zeros((n, n), dtype=np.int64)
    for x in range(n):
        for y in range(n):
            seen = {int(table[o]) for o in options(game, x, y)}
            value = 0
            while value in seen:
                value += 1
            table[x, y] = value
    return table
