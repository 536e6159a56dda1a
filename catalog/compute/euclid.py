"""Euclid's game, exactly at any size: its P-positions and a winning move.

From (x, y) with 0 < y ≤ x a move subtracts a positive multiple of y from x,
leaving it ≥ 0 (and mirrored); a position with an empty pile is terminal,
so P. Cole and Davie's theorem: (x, y) with both piles non-empty is P iff
x ≠ y and max/min < φ = (1 + √5)/2.

References
----------
.. [1] A. J. Cole and A. J. T. Davie, "A game based on the Euclidean
   algorithm and a winning strategy for it", Math. Gaz. 53 (1969) 354–357,
   doi:10.2307/3612461.
.. [2] G. Nivasch, "The Sprague–Grundy function of the game Euclid",
   Discrete Math. 306 (2006) 2798–2800, doi:10.1016/j.disc.2006.04.020.
"""

from __future__ import annotations

from catalog.compute.beatty import Cell, check_position


def euclid_is_p(x: int, y: int) -> bool:
    """Is (x, y) a P-position of Euclid's game?

    For big > small > 0: big < φ·small iff 2·big − small < √5·small, and
    both sides are positive, so compare squares.

    >>> euclid_is_p(5, 0), euclid_is_p(3, 3), euclid_is_p(8, 5), euclid_is_p(9, 5)
    (True, False, True, False)
    """
    x, y = check_position(x, y)
    if x == 0 or y == 0:
        return True
    small, big = min(x, y), max(x, y)
    return big != small and (2 * big - small) ** 2 < 5 * small * small


def euclid_outcome(x: int, y: int) -> tuple[bool, Cell | None]:
    """(True, None) for a P-position, else (False, a move onto a P-position).

    Parameters
    ----------
    x, y : int
        Non-negative integers of any size.

    Returns
    -------
    tuple
        ``(is_p, move_to)`` as in
        :func:`catalog.compute.beatty.awythoff_outcome`.

    Notes
    -----
    The classical strategy [1]_: with big = q·small + r, 0 ≤ r < small,

    - r = 0: subtract q·small, emptying the pile (terminal, so P);
    - q ≥ 2: (r + small, small) or (r, small) is P: if the first is N then
      (r + small)/small > φ, so small/r < φ and (small, r) is P;
    - q = 1: the only move, to (r, small), which is P when (big, small) is N.

    O(1) big-integer operations.

    Examples
    --------
    >>> euclid_outcome(8, 5), euclid_outcome(7, 2), euclid_outcome(11, 4)
    ((True, None), (False, (3, 2)), (False, (3, 4)))
    """
    if euclid_is_p(x, y):
        return True, None
    swap = x < y
    big, small = (y, x) if swap else (x, y)
    q, r = divmod(big, small)
    if r == 0:
        target = 0
    elif q >= 2 and euclid_is_p(r + small, small):
        target = r + small
    else:
        target = r
    return False, (small, target) if swap else (target, small)
