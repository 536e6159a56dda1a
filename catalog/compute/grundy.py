"""Sprague–Grundy values of games without alterations.

g(x, y) = mex of the values of the options. Each ray's line keeps the set of
values already on it as a Python integer used as a bitset, so a cell costs
one OR per ray and single move and a mex by bit tricks, not a Python set.
An altered game fixes only which positions are P and N, so its Grundy values
are not defined.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import gcd
from typing import Any

import numpy as np

from catalog.games.definition import Definition, DefinitionError, canonicalize, check_n
from catalog.games.special import restricted

#: Largest n for a Grundy table (n x n values).
MAX_GRUNDY_N = 3000


def _mex(mask: int) -> int:
    """Lowest value not in the bitset ``mask``."""
    return (~mask & (mask + 1)).bit_length() - 1


def grundy(definition: Mapping[str, Any] | Definition, n: int) -> np.ndarray:
    """``g[x, y]`` for x, y < n, as an (n, n) int64 array.

    Raises
    ------
    DefinitionError
        For an altered game (its Grundy values are not defined), for the
        special rule ho-extension (not supported yet), or a bad ``n``.

    Examples
    --------
    >>> grundy({"rays": [[1, 0], [0, 1], [1, 1]]}, 3).tolist()
    [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    """
    game = canonicalize(definition)
    n = check_n(n, maximum=MAX_GRUNDY_N)
    if game.altered:
        raise DefinitionError(
            "alter: an altered game fixes only P and N, so its Grundy values "
            "are not defined"
        )
    if "ho-extension" in game.special:
        raise DefinitionError(
            "special: Grundy values of ho-extension are not supported yet"
        )
    restriction = "ho-restriction" in game.special
    rays = []
    for a, b in game.rays:
        if a == 0:
            rays.append((a, b, 0, 0, 0))
        else:
            g = gcd(a, b)
            rays.append((a, b, a // g, b // g, g))
    # Line tables: for ray i, bitset of values seen on each line so far.
    lines: list[dict[int, int]] = [{} for _ in rays]
    table = np.zeros((n, n), dtype=np.int64)
    rows: list[list[int]] = []
    for x in range(n):
        column: list[int] = []
        for y in range(n):
            mask = 0
            for i, (a, b, p, q, g) in enumerate(rays):
                if restriction and restricted(x, y, a, b):
                    continue
                key = (y % b) if a == 0 else (y * p - x * q) * g + (x // p) % g
                mask |= lines[i].get(key, 0)
            for a, b in game.moves:
                if x >= a and y >= b and not (restriction and restricted(x, y, a, b)):
                    mask |= 1 << (rows[x - a][y - b] if a else column[y - b])
            value = _mex(mask)
            column.append(value)
            bit = 1 << value
            for i, (a, b, p, q, g) in enumerate(rays):
                key = (y % b) if a == 0 else (y * p - x * q) * g + (x // p) % g
                lines[i][key] = lines[i].get(key, 0) | bit
        # Vertical lines belong to one column: start them afresh.
        for i, (a, _, _, _, _) in enumerate(rays):
            if a == 0:
                lines[i].clear()
        rows.append(column)
        table[x] = column
    return table
