"""Recognise the literature's games in data: the cone games of Fraenkel
(a-Wythoff, (s,t)-Wythoff) and Khovanova–Niu (m-modular Wythoff) whose
P-positions below n are exactly the data.

The smallest rule set of rays and single moves for such data is long (the
P-positions of 2-Wythoff below 60 leave some five hundred rays in the
maximal game), while the game itself is Nim's two rays and one cone. So
:func:`literature_games` tries the families' members, cheaply: a-Wythoff's
and (s,t)-Wythoff's parameters are read off the first pairs (A_1, B_1),
(A_2, B_2) of the data (B_n − A_n = a·n; B_n = s·A_n + t·n), m-modular
Wythoff is tried for each m, and each candidate is computed below n and
compared with the data. :func:`catalog.compute.identify.identify` lists
what it finds among the games and searches the rays and moves only for
games as small.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from catalog.games.definition import canonicalize
from catalog.kinds.cones import MAX_MOD, Cone

#: The families' ranges (seeds/families/awythoff.json, stwythoff.json,
#: modwythoff.json), searched here too.
MAX_A, MAX_S, MAX_T, MAX_M = 64, 8, 16, 32
NIM = [[1, 0], [0, 1]]


def _candidates(grid: np.ndarray) -> list[dict[str, Any]]:
    """Definitions worth computing for the data ``grid`` (n x n)."""
    xs, ys = np.nonzero(grid)
    upper = sorted((int(x), int(y)) for x, y in zip(xs, ys, strict=True) if x < y)
    out: list[dict[str, Any]] = []
    if len(upper) >= 1:
        a = upper[0][1] - upper[0][0]
        if 2 <= a <= MAX_A:
            out.append({"rays": NIM, "cones": [{"lo": [1, 1 - a], "hi": [1, a - 1]}]})
    st = _st(upper)
    if st is not None:
        s, t = st
        cone = {"lo": [1, 0], "hi": [s, t - 1], "symmetric": True}
        out.append({"rays": NIM, "cones": [cone]})
    # With m >= n the cone's only moves in the window are the diagonal's,
    # which the search of rays finds as the ray (1, 1).
    for m in range(2, min(MAX_M, MAX_MOD, grid.shape[0] - 1) + 1):
        out.append({"rays": NIM, "cones": [{"lo": [0, 1], "hi": None, "mod": m}]})
    return out


def _st(upper: list[tuple[int, int]]) -> tuple[int, int] | None:
    """(s, t) with B_i = s·A_i + t·i for the first pair (A_1, B_1) and the
    first later pair that is not proportional to it, if they are integers in
    the family's range."""
    if not upper:
        return None
    a1, b1 = upper[0]
    for j, (aj, bj) in enumerate(upper[1:], start=2):
        den = a1 * j - aj
        if den == 0:
            continue
        num = b1 * j - bj
        if num % den:
            return None
        s = num // den
        t = b1 - s * a1
        return (s, t) if 2 <= s <= MAX_S and 1 <= t <= MAX_T else None
    return None


Found = list[tuple[tuple[tuple[int, int], ...], tuple[Cone, ...]]]


def literature_games(grid: np.ndarray) -> Found:
    """The (rays, cones) of every candidate game whose P-positions below n
    are exactly ``grid``'s cells (n x n booleans)."""
    from catalog.compute.ptable import p_positions  # the sweeps, to compute

    n = grid.shape[0]
    if not grid[0, 0]:
        return []
    found = []
    for definition in _candidates(grid):
        game = canonicalize(definition)
        cells = p_positions(game, n)
        mine = np.zeros_like(grid)
        mine[cells[:, 0], cells[:, 1]] = True
        if np.array_equal(mine, grid):
            found.append((game.rays, game.cones))
    return found
