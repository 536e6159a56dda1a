"""Recognise Beatty data: the slopes α whose Beatty pairs are the data.

For irrational 1 < α < 2 and β = α/(α − 1), the Beatty set of α below n is

    T_n(α) = {(0, 0)} ∪ {(⌊kα⌋, ⌊kβ⌋), (⌊kβ⌋, ⌊kα⌋) : k ≥ 1} ∩ [0, n)²,

the P-positions of Wythoff's Nim (α = φ), of a-Wythoff (α = α_a) and of
the ⋆ of the Beatty subtraction game of α (Larsson–Hegarty–Fraenkel).
Given data S (an n x n boolean grid), :func:`beatty_interval` finds every
α with T_n(α) = S, exactly: they form an interval with rational end
points (:class:`Fit`). :func:`quadratic_irrationals_in` lists the
quadratic irrationals with small coefficients in an interval, simplest
first; :func:`beatty_candidates` and :func:`recognise_beatty` put the two
together and check every candidate against the data with
:class:`~catalog.compute.beatty.BeattyPairs`; :func:`awythoff_of` says
which α are a-Wythoff's.

Everything is exact: :class:`~fractions.Fraction` end points,
:class:`~catalog.games.quadratic.Quadratic` numbers and integer square
roots; no float decides anything.

References
----------
.. [1] S. Beatty, Problem 3173, Amer. Math. Monthly 33 (1926) 159;
   solutions 34 (1927) 159.
.. [2] U. Larsson, P. Hegarty, A. S. Fraenkel, "Invariant and dual
   subtraction games resolving the Duchêne–Rigo conjecture", Theoret.
   Comput. Sci. 412 (2011),
   arXiv:1005.4162.
.. [3] A. S. Fraenkel, "How to beat your Wythoff games' opponent on three
   fronts", Amer. Math. Monthly 89 (1982) 353–361, doi:10.2307/2321643.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import floor, gcd, isqrt

import numpy as np

from catalog.compute.beatty import BeattyPairs, awythoff_alpha
from catalog.errors import BadInput
from catalog.games.quadratic import Quadratic, split_square

#: Default bounds of :func:`quadratic_irrationals_in`: α = (p + q√d)/r with
#: d square-free in [2, MAX_D], 1 ≤ r ≤ MAX_R, 1 ≤ |q| ≤ MAX_Q (p is not
#: bounded: the interval bounds it), and α_a for 1 ≤ a ≤ MAX_A (the range
#: of the family ``awythoff``, :data:`catalog.compute.recognise.MAX_A`).
MAX_D, MAX_R, MAX_Q, MAX_A = 30, 12, 6, 64

Rational = int | Fraction
#: A bound on α: (numerator, denominator > 0, closed).
_Bound = tuple[int, int, bool]


@dataclass(frozen=True)
class Fit:
    """The α in (1, 2) whose Beatty pairs are the data below ``n``.

    The set is the interval from ``lo`` to ``hi``, each end included when
    ``lo_closed`` / ``hi_closed``. Read literally, it is the set of real α
    with ⌊kα⌋ = A_k and ⌊kβ⌋ = B_k for the ``pairs`` pairs (A_k, B_k) of
    the data and ⌊(pairs + 1)·β⌋ ≥ n; the ends are rational, so for the
    irrational α (the only ones with complementary sequences) it is the
    open interval (lo, hi), never empty.
    """

    lo: Fraction
    lo_closed: bool
    hi: Fraction
    hi_closed: bool
    n: int
    pairs: int

    def __contains__(self, alpha: object) -> bool:
        """Is ``alpha`` (a Quadratic, an int or a Fraction) in the set?"""
        if not isinstance(alpha, Quadratic | int | Fraction):
            return False
        above = alpha >= self.lo if self.lo_closed else alpha > self.lo
        below = alpha <= self.hi if self.hi_closed else alpha < self.hi
        return bool(above and below)

    @property
    def width(self) -> Fraction:
        """hi − lo."""
        return self.hi - self.lo

    def __str__(self) -> str:
        left = "[" if self.lo_closed else "("
        right = "]" if self.hi_closed else ")"
        return f"{left}{self.lo}, {self.hi}{right}"


def _tighter_lo(a: _Bound, b: _Bound) -> _Bound:
    """The larger of two lower bounds; at a tie, an open end excludes the
    point. Integers, not Fractions: this runs up to 3n times."""
    left, right = a[0] * b[1], b[0] * a[1]
    if left != right:
        return a if left > right else b
    return (a[0], a[1], a[2] and b[2])


def _tighter_hi(a: _Bound, b: _Bound) -> _Bound:
    """The smaller of two upper bounds (as :func:`_tighter_lo`)."""
    left, right = a[0] * b[1], b[0] * a[1]
    if left != right:
        return a if left < right else b
    return (a[0], a[1], a[2] and b[2])


def _empty(lo: _Bound, hi: _Bound) -> bool:
    """Is lo ≥ hi (no interior left)?"""
    return lo[0] * hi[1] >= hi[0] * lo[1]


def _upper_cells(grid: np.ndarray) -> np.ndarray | None:
    """The cells (x, y), x < y, of a symmetric grid holding (0, 0) and no
    other diagonal cell, sorted by x; None for any other grid."""
    if not grid[0, 0] or not np.array_equal(grid, grid.T):
        return None
    if np.count_nonzero(np.diagonal(grid)) != 1:
        return None
    cells = np.argwhere(grid)  # row-major: sorted by x
    return cells[cells[:, 0] < cells[:, 1]].astype(np.int64)


def beatty_interval(grid: np.ndarray) -> Fit | None:
    """Every α in (1, 2) whose Beatty pairs below n are exactly the data.

    Parameters
    ----------
    grid : numpy.ndarray
        The data, an n x n boolean array (n ≥ 1): ``grid[x, y]`` is True for
        the P-positions (x, y) with x, y < n.

    Returns
    -------
    Fit or None
        The interval of α (see :class:`Fit`), or None when no irrational
        1 < α < 2 has T_n(α) = S (the module's notation).

    Notes
    -----
    What is required, precisely: S is symmetric, its only diagonal cell is
    (0, 0), and, with (A_1, B_1), ..., (A_m, B_m) its cells above the
    diagonal sorted by x, the set of real α in (1, 2) with

    - ⌊kα⌋ = A_k, i.e. A_k/k ≤ α < (A_k + 1)/k, for k = 1..m;
    - ⌊kβ⌋ = B_k, i.e. B_k/k ≤ β < (B_k + 1)/k, for k = 1..m, where
      β = α/(α − 1) decreases in α: β ≥ t iff α ≤ t/(t − 1) (t > 1);
    - ⌊(m + 1)β⌋ ≥ n: the next pair is not in the window, so the data
      holds all pairs (A_k, B_k) with B_k < n (a k with A_k < n but
      B_k ≥ n shows no cell: its row is empty in the window);

    has interior points. This is equivalent to T_n(α) = S for the
    irrational α of the interval: since kα < kβ, T_n(α) holds the pairs
    with B_k < n, which are the first K(α) pairs, and the conditions say
    K(α) = m and pair k is (A_k, B_k). Everything else a Beatty set has
    (one cell in each row and column, A_k and B_k increasing, A's and B's
    complementary below n) follows: data without it leaves at most a
    single rational point, which is no Beatty slope, and gives None.

    O(m) exact rational operations for m ≤ n/2 pairs, after O(n²) numpy
    work on the grid.

    References
    ----------
    .. [1] S. Beatty, Problem 3173, Amer. Math. Monthly 33 (1926) 159.
    .. [2] U. Larsson, P. Hegarty, A. S. Fraenkel, "Invariant and dual
       subtraction games resolving the Duchêne–Rigo conjecture", Theoret.
       Comput. Sci. 412 (2011), arXiv:1005.4162.

    Examples
    --------
    >>> from catalog.games.quadratic import parse
    >>> grid = np.zeros((12, 12), dtype=bool)
    >>> for x, y in [(0, 0), (1, 3), (2, 6), (4, 10)]:
    ...     grid[x, y] = grid[y, x] = True
    >>> fit = beatty_interval(grid)
    >>> str(fit), parse("sqrt(2)") in fit, parse("(1+sqrt(5))/2") in fit
    ('(7/5, 10/7]', True, False)
    >>> grid[1, 3] = False
    >>> beatty_interval(grid) is None
    True
    """
    if not isinstance(grid, np.ndarray) or grid.ndim != 2:
        raise BadInput("grid: must be a two-dimensional array")
    n = grid.shape[0]
    if n < 1 or grid.shape[1] != n:
        raise BadInput(f"grid: must be square and non-empty, not {grid.shape}")
    cells = _upper_cells(grid.astype(bool, copy=False))
    if cells is None:
        return None
    m = len(cells)
    lo: _Bound = (1, 1, False)
    hi: _Bound = (2, 1, False)
    # β = t  iff  α = t/(t − 1): β ≥ b/k iff α ≤ b/(b − k), β < c/k iff
    # α > c/(c − k) (for t > 1; t ≤ 1 < β is automatic for ≥, fatal for <).
    for k, (a, b) in enumerate(cells.tolist(), start=1):
        if b + 1 <= k:  # β < (b + 1)/k ≤ 1: impossible
            return None
        lo = _tighter_lo(lo, (a, k, True))  # ⌊kα⌋ = a
        hi = _tighter_hi(hi, (a + 1, k, False))
        if b > k:  # ⌊kβ⌋ = b, the lower end
            hi = _tighter_hi(hi, (b, b - k, True))
        lo = _tighter_lo(lo, (b + 1, b + 1 - k, False))  # and the upper end
        if _empty(lo, hi):
            return None  # early: the data left no room
    if n > m + 1:  # ⌊(m+1)β⌋ ≥ n iff β ≥ n/(m+1) (automatic if that is ≤ 1)
        hi = _tighter_hi(hi, (n, n - m - 1, True))
    if _empty(lo, hi):  # at most one rational point left
        return None
    return Fit(Fraction(lo[0], lo[1]), lo[2], Fraction(hi[0], hi[1]), hi[2], n, m)


# -- small quadratic irrationals ----------------------------------------------


def _floor_minus_surd(u: int, v: int, t: int, d: int) -> int:
    """⌊u/v − t√d⌋ for integers u, v > 0, t ≠ 0 and non-square d, exactly."""
    s = v * t  # ⌊(u − s√d)/v⌋ = (u + ⌊−s√d⌋) // v
    root = isqrt(s * s * d)  # ⌊|s|√d⌋, never exact
    return (u + (-root - 1 if s > 0 else root)) // v


def minimal_polynomial(alpha: Quadratic) -> tuple[int, int, int]:
    """(A, B, C), the primitive integer polynomial Ax² + Bx + C with A > 0
    that has α as a root.

    >>> from catalog.games.quadratic import parse
    >>> minimal_polynomial(parse("(1+sqrt(5))/2")), minimal_polynomial(parse("sqrt(2)"))
    ((1, -1, -1), (1, 0, -2))
    """
    p, q, d, r = alpha.p, alpha.q, alpha.d, alpha.r
    a, b, c = r * r, -2 * p * r, p * p - q * q * d  # r²x² − 2prx + p² − q²d
    g = gcd(a, b, c)
    return a // g, b // g, c // g


def simplicity(alpha: Quadratic) -> tuple[int, int, int]:
    """The sort key of :func:`quadratic_irrationals_in`: the height
    max(|A|, |B|, |C|) of α's minimal polynomial, then its discriminant,
    then the larger root before its conjugate.

    The height does not depend on how α is written: φ (x² − x − 1) has
    height 1, √2 (x² − 2) and α_a in general (x² + (a − 2)x − a) height a.
    """
    a, b, c = minimal_polynomial(alpha)
    return (max(a, abs(b), abs(c)), b * b - 4 * a * c, int(alpha.q < 0))


def awythoff_of(alpha: Quadratic) -> int | None:
    """The a ≥ 1 with α = α_a = (2 − a + √(a² + 4))/2, else None.

    α_a is the larger root of x² + (a − 2)x − a, the lower slope of the
    P-positions of a-Wythoff (a = 1: φ, Wythoff's Nim; a = 2: √2). So α is
    one of them exactly when its minimal polynomial is monic with
    constant term −a ≤ −1, linear term a − 2, and q > 0.

    References
    ----------
    .. [1] A. S. Fraenkel, "How to beat your Wythoff games' opponent on three
       fronts", Amer. Math. Monthly 89 (1982) 353–361, doi:10.2307/2321643.

    Examples
    --------
    >>> from catalog.games.quadratic import parse
    >>> awythoff_of(parse("(1+sqrt(5))/2")), awythoff_of(parse("sqrt(2)"))
    (1, 2)
    >>> awythoff_of(parse("sqrt(3)")) is None
    True
    """
    a_, b, c = minimal_polynomial(alpha)
    a = -c
    if a_ != 1 or a < 1 or b != a - 2 or alpha.q < 0:
        return None
    return a


def _awythoff_range(lo: Fraction, hi: Fraction, max_a: int) -> range:
    """The a ≤ max_a worth trying for α_a in (lo, hi): α_a lies in
    (1 + 1/(a + 1), 1 + 1/a], as a/(a² + 1) < α_a − 1 = 2/(a + √(a² + 4))
    ≤ 1/a."""
    if hi <= 1:
        return range(0)
    first = max(1, floor(1 / (hi - 1)) - 1)
    last = max_a if lo <= 1 else min(max_a, floor(1 / (lo - 1)) + 1)
    return range(first, last + 1)


def quadratic_irrationals_in(
    lo: Rational,
    hi: Rational,
    *,
    max_d: int = MAX_D,
    max_r: int = MAX_R,
    max_q: int = MAX_Q,
    max_a: int = MAX_A,
) -> list[Quadratic]:
    """Every quadratic irrational with small coefficients strictly between
    ``lo`` and ``hi``, simplest first.

    Parameters
    ----------
    lo, hi : int or Fraction
        The interval; whether its rational ends are included does not
        matter, as no quadratic irrational equals them.
    max_d, max_r, max_q : int
        α = (p + q√d)/r in normal form (see
        :class:`~catalog.games.quadratic.Quadratic`, so gcd(p, q, r) = 1)
        with d square-free in [2, max_d], 1 ≤ r ≤ max_r and 1 ≤ |q| ≤ max_q;
        p is any integer (the interval bounds it: |p| < r·max(|lo|, |hi|) +
        |q|√d). The list holds every such α, completely.
    max_a : int
        Also every a-Wythoff slope α_a (:func:`awythoff_of`) with
        1 ≤ a ≤ max_a in the interval, whatever its coefficients.

    Returns
    -------
    list of Quadratic
        Sorted by :func:`simplicity` (the height of the minimal polynomial,
        then its discriminant), without repeats.

    Notes
    -----
    For each (d, q, r) the p with lo < (p + q√d)/r < hi form one range,
    r·lo − q√d < p < r·hi − q√d, found with two integer square roots:
    5 184 ``isqrt`` calls with the defaults (18 square-free d, 12 r, 12 q)
    plus one normal form per number found, a few milliseconds of CPU for a
    narrow interval.

    Examples
    --------
    >>> near_phi = quadratic_irrationals_in(Fraction(8, 5), Fraction(13, 8))
    >>> len(near_phi), [str(a) for a in near_phi[:3]]
    (356, ['(1+sqrt(5))/2', '-2+sqrt(13)', '(2+2*sqrt(2))/3'])
    """
    lo, hi = Fraction(lo), Fraction(hi)
    found: set[Quadratic] = set()
    if lo >= hi:
        return []
    for d in range(2, max_d + 1):
        if split_square(d)[0] != 1:
            continue
        for r in range(1, max_r + 1):
            u_lo, v_lo = r * lo.numerator, lo.denominator
            u_hi, v_hi = r * hi.numerator, hi.denominator
            for q in (*range(-max_q, 0), *range(1, max_q + 1)):
                first = _floor_minus_surd(u_lo, v_lo, q, d) + 1
                last = _floor_minus_surd(u_hi, v_hi, q, d)
                for p in range(first, last + 1):
                    if gcd(p, q, r) == 1:  # the others are found in lowest terms
                        found.add(Quadratic(p, q, d, r))
    for a in _awythoff_range(lo, hi, max_a):
        alpha = awythoff_alpha(a)
        if lo < alpha < hi:
            found.add(alpha)
    return sorted(found, key=lambda alpha: (*simplicity(alpha), str(alpha)))


# -- the data's candidates ------------------------------------------------------


@dataclass(frozen=True)
class BeattyMatch:
    """Beatty data recognised: the interval of α, and the quadratic
    irrationals with small coefficients in it, each checked against the
    data, simplest first, with a-Wythoff's a where α is α_a."""

    fit: Fit
    alphas: tuple[Quadratic, ...]

    @property
    def awythoff(self) -> tuple[tuple[Quadratic, int], ...]:
        """(α, a) for every α of :attr:`alphas` that is a-Wythoff's."""
        pairs = ((alpha, awythoff_of(alpha)) for alpha in self.alphas)
        return tuple((alpha, a) for alpha, a in pairs if a is not None)


def gives_data(alpha: Quadratic, grid: np.ndarray) -> bool:
    """Are the Beatty pairs of α below n exactly the cells of ``grid``?

    Computed afresh with :meth:`~catalog.compute.beatty.BeattyPairs.p_positions`
    (sorted by x, one cell per column), independently of :class:`Fit`.
    """
    cells = np.argwhere(grid).astype(np.int64)
    return bool(np.array_equal(BeattyPairs(alpha).p_positions(grid.shape[0]), cells))


def recognise_beatty(
    grid: np.ndarray,
    *,
    max_d: int = MAX_D,
    max_r: int = MAX_R,
    max_q: int = MAX_Q,
    max_a: int = MAX_A,
) -> BeattyMatch | None:
    """Is the data the Beatty pairs of some α, and which small α?

    Parameters
    ----------
    grid : numpy.ndarray
        The data, n x n booleans (see :func:`beatty_interval`).
    max_d, max_r, max_q, max_a : int
        The bounds of :func:`quadratic_irrationals_in`.

    Returns
    -------
    BeattyMatch or None
        None when the data are no Beatty pairs (:func:`beatty_interval`);
        else the interval and its small quadratic irrationals, each of
        which gives the data (:func:`gives_data`; the interval being exact,
        none is ever dropped). The tuple is empty when none is that small.

    Notes
    -----
    For 2-Wythoff's data below n = 60 (the pairs of √2) this takes a few
    milliseconds: √2 comes first, with a = 2.

    References
    ----------
    .. [1] U. Larsson, P. Hegarty, A. S. Fraenkel, "Invariant and dual
       subtraction games resolving the Duchêne–Rigo conjecture", Theoret.
       Comput. Sci. 412 (2011), arXiv:1005.4162: for every such α,
       ⋆ of the Beatty subtraction game of α has exactly these P-positions.

    Examples
    --------
    >>> from catalog.games.quadratic import parse
    >>> cells = BeattyPairs(parse("sqrt(2)")).p_positions(60)
    >>> grid = np.zeros((60, 60), dtype=bool)
    >>> grid[cells[:, 0], cells[:, 1]] = True
    >>> match = recognise_beatty(grid)
    >>> str(match.alphas[0]), match.awythoff[0][1]
    ('sqrt(2)', 2)
    """
    fit = beatty_interval(grid)
    if fit is None:
        return None
    alphas = quadratic_irrationals_in(
        fit.lo, fit.hi, max_d=max_d, max_r=max_r, max_q=max_q, max_a=max_a
    )
    grid = grid.astype(bool, copy=False)
    return BeattyMatch(fit, tuple(a for a in alphas if gives_data(a, grid)))
