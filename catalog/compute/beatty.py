"""Beatty pairs of a quadratic irrational, and the games they solve, exactly.

For irrational 1 < α < 2 and β = α/(α − 1) (so 1/α + 1/β = 1), the
sequences ⌊nα⌋ and ⌊nβ⌋, n ≥ 1, partition the positive integers (Beatty's
theorem). The set {(⌊nα⌋, ⌊nβ⌋), (⌊nβ⌋, ⌊nα⌋) : n ≥ 0} is then a candidate
set of P-positions: of Wythoff's Nim for α = φ, of Fraenkel's a-Wythoff for
α = (2 − a + √(a² + 4))/2, and of the ⋆ of the contract's ``beatty`` rule.

:class:`BeattyPairs` answers membership and partners with one ``isqrt``
each (see :meth:`catalog.games.quadratic.Quadratic.floor_mul`), so heaps of
hundreds of digits cost microseconds; :meth:`BeattyPairs.p_positions` lists
a window with numpy. :func:`awythoff_outcome` adds a winning move.

References
----------
.. [1] S. Beatty, Problem 3173, Amer. Math. Monthly 33 (1926) 159; solutions
   34 (1927) 159.
.. [2] A. S. Fraenkel, "How to beat your Wythoff games' opponent on three
   fronts", Amer. Math. Monthly 89 (1982) 353–361, doi:10.2307/2321643.
.. [3] A. S. Fraenkel, "Heap games, numeration systems and sequences",
   Ann. Comb. 2 (1998) 197–210, doi:10.1007/BF01608532.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from catalog.errors import BadInput
from catalog.games.quadratic import Quadratic

Cell = tuple[int, int]
#: Largest window :meth:`BeattyPairs.p_positions` lists (int64 and the float
#: guess's error bound, below, both hold far beyond it).
MAX_BOUND = 100_000_000
#: Largest a of a-Wythoff: a² + 4 must stay small enough to reduce exactly.
MAX_A = 10**6
#: A float guess of ⌊kα⌋ this close to an integer is recomputed exactly. For
#: k < 2^31 the guess k·float(α) is off by less than k·α·2^-51 < 2e-6.
_FLOAT_MARGIN = 1e-5
_CHUNK = 1 << 20


class NoClosedForm(BadInput):
    """A game this module has no exact closed form for."""


def check_position(x: object, y: object) -> tuple[int, int]:
    """(x, y) if both are non-negative ints (not bools), else BadInput."""
    for name, value in (("x", x), ("y", y)):
        if type(value) is not int or value < 0:
            raise BadInput(f"{name} must be a non-negative integer, not {value!r}")
    return x, y  # type: ignore[return-value]


def floor_mul_array(alpha: Quadratic, k: np.ndarray) -> np.ndarray:
    """⌊k·α⌋ for an int64 array of 0 ≤ k < 2^31, exactly.

    A float64 guess, then every element whose guess lies within
    ``_FLOAT_MARGIN`` of an integer recomputed with
    :meth:`~catalog.games.quadratic.Quadratic.floor_mul` (about
    2·10⁻⁵ of them, α being badly approximable).
    """
    product = k.astype(np.float64) * float(alpha)
    guess = np.floor(product)
    frac = product - guess
    out = guess.astype(np.int64)
    for i in np.flatnonzero((frac < _FLOAT_MARGIN) | (frac > 1 - _FLOAT_MARGIN)):
        out[i] = alpha.floor_mul(int(k[i]))
    return out


class BeattyPairs:
    """The pairs (⌊nα⌋, ⌊nβ⌋) of an irrational 1 < α < 2, β = α/(α − 1).

    Parameters
    ----------
    alpha : Quadratic
        The slope of the lower sequence; :class:`~catalog.errors.BadInput`
        unless 1 < α < 2.

    Notes
    -----
    Every method but :meth:`p_positions` is O(1) big-integer operations:
    an ``isqrt`` of a number of twice the heap's digits.

    Examples
    --------
    >>> from catalog.games.quadratic import parse
    >>> pairs = BeattyPairs(parse("sqrt(2)"))
    >>> [pairs.pair(n) for n in range(5)]
    [(0, 0), (1, 3), (2, 6), (4, 10), (5, 13)]
    >>> pairs.is_p(10, 4), pairs.is_p(10, 5), pairs.partner(3)
    (True, False, 1)
    """

    def __init__(self, alpha: Quadratic) -> None:
        if not 1 < alpha < 2:
            raise BadInput(f"the Beatty slope {alpha} must lie between 1 and 2")
        self.alpha = alpha
        self.beta = alpha.complement()
        self._alpha_inv = alpha.reciprocal()
        self._beta_inv = self.beta.reciprocal()

    def lower(self, n: int) -> int:
        """⌊nα⌋."""
        return self.alpha.floor_mul(n)

    def upper(self, n: int) -> int:
        """⌊nβ⌋."""
        return self.beta.floor_mul(n)

    def pair(self, n: int) -> Cell:
        """(⌊nα⌋, ⌊nβ⌋), the n-th pair; (0, 0) for n = 0."""
        return self.alpha.floor_mul(n), self.beta.floor_mul(n)

    def index_of_lower(self, x: int) -> int | None:
        """The n with ⌊nα⌋ = x, or None.

        ⌊nα⌋ = x iff x/α ≤ n < (x + 1)/α, an interval shorter than 1; its
        only candidate is ⌈x/α⌉ = ⌊x/α⌋ + 1 (x/α is irrational for x > 0).
        """
        if x == 0:
            return 0
        n = self._alpha_inv.floor_mul(x) + 1
        return n if self.alpha.floor_mul(n) == x else None

    def index_of_upper(self, y: int) -> int | None:
        """The n with ⌊nβ⌋ = y, or None (as :meth:`index_of_lower`)."""
        if y == 0:
            return 0
        n = self._beta_inv.floor_mul(y) + 1
        return n if self.beta.floor_mul(n) == y else None

    def partner(self, x: int) -> int:
        """The one y with (x, y) a pair or a mirrored pair (complementarity:
        every x ≥ 1 is exactly one of ⌊nα⌋, ⌊nβ⌋)."""
        n = self.index_of_lower(x)
        if n is not None:
            return self.beta.floor_mul(n)
        n = self.index_of_upper(x)
        if n is None:  # pragma: no cover - Beatty's theorem
            raise AssertionError(f"{x} is in neither Beatty sequence")
        return self.alpha.floor_mul(n)

    def is_p(self, x: int, y: int) -> bool:
        """Is (x, y) in {(⌊nα⌋, ⌊nβ⌋), (⌊nβ⌋, ⌊nα⌋) : n ≥ 0}?"""
        x, y = check_position(x, y)
        return self.partner(x) == y

    def p_positions(self, n_bound: int) -> np.ndarray:
        """Every pair (x, y) of the set with x, y < ``n_bound``, sorted by x.

        Parameters
        ----------
        n_bound : int
            The window, 0 ≤ n_bound ≤ :data:`MAX_BOUND`.

        Returns
        -------
        numpy.ndarray
            A (k, 2) int64 array, one row per column x at most (every column
            has exactly one partner), so sorted by x then y.

        Notes
        -----
        O(n_bound) numpy work and 8·n_bound bytes for the column array, the
        floors being computed in chunks (:func:`floor_mul_array`).

        Examples
        --------
        >>> from catalog.games.quadratic import parse
        >>> BeattyPairs(parse("(1+sqrt(5))/2")).p_positions(6).tolist()
        [[0, 0], [1, 2], [2, 1], [3, 5], [5, 3]]
        """
        if type(n_bound) is not int or not 0 <= n_bound <= MAX_BOUND:
            raise BadInput(f"n_bound must be an integer in [0, {MAX_BOUND}]")
        column = np.full(n_bound, -1, dtype=np.int64)
        k_end = self._alpha_inv.floor_mul(n_bound) + 2  # past the last ⌊kα⌋ < n
        for start in range(0, k_end, _CHUNK):
            k = np.arange(start, min(start + _CHUNK, k_end), dtype=np.int64)
            low = floor_mul_array(self.alpha, k)
            high = floor_mul_array(self.beta, k)
            keep = low < n_bound
            column[low[keep]] = high[keep]
            keep = high < n_bound
            column[high[keep]] = low[keep]
        xs = np.flatnonzero((column >= 0) & (column < n_bound))
        return np.column_stack([xs, column[xs]]).astype(np.int64)


# -- a-Wythoff and (s, t)-Wythoff ---------------------------------------------


def awythoff_alpha(a: int) -> Quadratic:
    """α_a = (2 − a + √(a² + 4))/2, the lower slope of a-Wythoff (a = 1: φ,
    a = 2: √2)."""
    return Quadratic(2 - a, 1, a * a + 4, 2)


@lru_cache(maxsize=64)
def awythoff_pairs(a: int) -> BeattyPairs:
    """The P-positions of a-Wythoff: A_n = ⌊nα_a⌋, B_n = A_n + a·n."""
    if type(a) is not int or not 1 <= a <= MAX_A:
        raise BadInput(f"a must be an integer in [1, {MAX_A}], not {a!r}")
    return BeattyPairs(awythoff_alpha(a))


def awythoff_outcome(a: int, x: int, y: int) -> tuple[bool, Cell | None]:
    """(True, None) for a P-position of a-Wythoff, else (False, a winning move).

    The moves: take k ≥ 1 from one pile, or k, l ≥ 1 from both with
    |k − l| < a. The P-positions are (0, 0) and (A_n, B_n), (B_n, A_n) with
    A_n = ⌊nα_a⌋, B_n = A_n + a·n [1]_.

    Parameters
    ----------
    a : int
        1 ≤ a ≤ :data:`MAX_A` (a = 1 is Wythoff's Nim).
    x, y : int
        The piles, non-negative integers of any size.

    Returns
    -------
    tuple
        ``(is_p, move_to)``: ``move_to`` is the position a winning move
        leads to (a P-position), None for a P-position.

    Notes
    -----
    With x ≤ y (mirror otherwise), x is 0, some B_m or some A_n:

    - x = 0: take all of y;
    - x = B_m (m ≥ 1): cut y down to A_m < B_m ≤ y, onto (B_m, A_m);
    - x = A_n and y > B_n: cut y down to B_n;
    - x = A_n and A_n ≤ y < B_n: with d = y − x < a·n, let m = ⌊d/a⌋ < n.
      Taking k = A_n − A_m ≥ 1 and l = y − B_m from both piles lands on
      (A_m, B_m), and l − k = d − a·m lies in [0, a), so l ≥ k ≥ 1 and
      |k − l| < a: a legal move.

    Each case is O(1) exact floors; the tests check every cell of a box
    against a brute-force solver.

    References
    ----------
    .. [1] A. S. Fraenkel, "How to beat your Wythoff games' opponent on three
       fronts", Amer. Math. Monthly 89 (1982) 353–361, doi:10.2307/2321643.

    Examples
    --------
    >>> awythoff_outcome(2, 4, 10), awythoff_outcome(2, 4, 8)
    ((True, None), (False, (2, 6)))
    >>> awythoff_outcome(1, 10**30, 10**30)
    (False, (0, 0))
    """
    x, y = check_position(x, y)
    pairs = awythoff_pairs(a)
    swap = x > y
    small, big = (y, x) if swap else (x, y)
    if small == 0:
        if big == 0:
            return True, None
        move = (0, 0)
    elif (n := pairs.index_of_lower(small)) is not None:
        upper = small + a * n
        if big == upper:
            return True, None
        if big > upper:
            move = (small, upper)
        else:
            m = (big - small) // a
            lower_m = pairs.lower(m)
            move = (lower_m, lower_m + a * m)
    else:
        m = pairs.index_of_upper(small)  # type: ignore[assignment]
        if m is None:  # pragma: no cover - Beatty's theorem
            raise AssertionError(f"{small} is in neither Beatty sequence")
        move = (small, pairs.lower(m))
    return False, (move[1], move[0]) if swap else move


def st_wythoff_outcome(s: int, t: int, x: int, y: int) -> tuple[bool, Cell | None]:
    """:func:`awythoff_outcome` for Fraenkel's (s, t)-Wythoff, where it applies.

    (s, t)-Wythoff: Nim moves, or k, l ≥ 1 from both piles with
    k ≤ l < s·k + t (or mirrored). Its P-positions are A_n = mex{A_i, B_i :
    i < n}, B_n = s·A_n + t·n [1]_. For s = 1 the moves are exactly those
    of t-Wythoff (|k − l| < t), whose pairs are Beatty pairs. For s ≥ 2
    Fraenkel shows that no α, β give A_n = ⌊nα⌋, B_n = ⌊nβ⌋; his strategy
    there reads A_n and B_n off an exotic numeration system instead
    (not implemented): :class:`NoClosedForm`.

    Notes
    -----
    A lead for s ≥ 2, checked by brute force on the first 20000 pairs for
    every s, t ≤ 3 (not proved here): with u_0 = 1, u_1 = s + t,
    u_i = (s + t − 1)·u_(i−1) + s·u_(i−2) and greedy digits, the A_n are the
    numbers whose expansion ends in an even number of zeros and B_n is A_n
    shifted one digit left, so a partner costs O(log x) digit operations.

    References
    ----------
    .. [1] A. S. Fraenkel, "Heap games, numeration systems and sequences",
       Ann. Comb. 2 (1998) 197–210, doi:10.1007/BF01608532.

    Examples
    --------
    >>> st_wythoff_outcome(1, 2, 4, 8) == awythoff_outcome(2, 4, 8)
    True
    """
    if type(s) is not int or type(t) is not int or s < 1 or t < 1:
        raise BadInput(f"s and t must be positive integers, not {s!r}, {t!r}")
    if s != 1:
        raise NoClosedForm(
            f"({s},{t})-Wythoff: no Beatty closed form for s >= 2 (Fraenkel 1998)"
        )
    return awythoff_outcome(t, x, y)
