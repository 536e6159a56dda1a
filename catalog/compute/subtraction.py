"""The compiled sweep of invariant subtraction games with large move sets:
Beatty subtraction games and Larsson–Hegarty–Fraenkel's ⋆-operator.

A move set M holds pairs (a, b) >= 0, not both 0; the options of (x, y) are
the (x - a, y - b) >= 0, (a, b) in M, and a position is P iff none of its
options is. So (x, y) is N iff some P-position q <= (x, y) has
(x, y) - q in M: a column's cells are blocked by the sumset of M and the
P-positions of the earlier columns, plus the vertical moves (0, b) inside
the column itself.

Columns are bitsets of 64-bit words (a row a bit), both for P (column x:
the y of its P-positions) and for M (column a: the b of the moves (a, b)).
The cells of column x blocked from earlier columns are, over a = 1 .. x,
the sums of column a of M and column x - a of P. For each a the sweep
walks the shorter of the two lists and shift-ORs the other column's words
into the accumulator (or, when that column has fewer elements than words,
sets its bits one by one): Beatty games have O(n) moves and dense
P-positions, their ⋆ dense moves and O(n) P-positions, and either way a
pair of columns costs the sparse side's length times the dense side's
words. The column is then labelled bottom-up: its lowest free cell is P,
the vertical moves block the cells above it (a shift-OR of column 0 of M:
with every (0, b) in M that blocks the whole rest at once), and the next
free cell is found a word at a time.

Why numba: as in :mod:`catalog.compute.kernel`, each column depends on all
the earlier ones, so the loop is sequential; it is compiled with
``cache=True`` through :func:`catalog.compute.jit.njit`.

References
----------
.. [1] U. Larsson, P. Hegarty, A. S. Fraenkel, "Invariant and dual
   subtraction games resolving the Duchêne–Rigo conjecture", Theoret.
   Comput. Sci. 412 (2011) 729–735, doi:10.1016/j.tcs.2010.11.015,
   arXiv:1005.4162.
.. [2] U. Larsson, "The ⋆-operator and invariant subtraction games",
   Theoret. Comput. Sci. 422 (2012) 52–58, doi:10.1016/j.tcs.2011.11.028.
.. [3] E. Duchêne, M. Rigo, "Invariant games", Theoret. Comput. Sci. 411
   (2010) 3169–3180, doi:10.1016/j.tcs.2010.05.007.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from catalog.compute.beatty import BeattyPairs
from catalog.compute.jit import njit, trailing_zeros
from catalog.games.quadratic import Quadratic, parse

#: Largest box side: the two bitsets take n^2 / 4 bytes (2.5 GB at 10^5);
#: the caller bounds the memory below it.
MAX_N = 100_000
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
#: The cost of a call of :func:`_add`, in bits set (measured: walking the
#: longer list costs more than its length suggests).
_CALL = 4


@njit(cache=True, inline="always")
def _shift_or(acc, src, row, words, s, width):
    """acc |= src[row] << s, over its first ``words`` words, up to
    ``width`` (a row and its index, not a view: a view a call costs more
    than a short column's words)."""
    q = s >> 6
    r = s & 63
    if r == 0:
        end = min(width, q + words)
        for w in range(q, end):
            acc[w] |= src[row, w - q]
        return
    left = np.uint64(r)
    right = np.uint64(64 - r)
    end = min(width, q + words + 1)
    carry = np.uint64(0)
    for w in range(q, end):
        i = w - q
        cur = src[row, i] if i < words else np.uint64(0)
        acc[w] |= (cur << left) | carry
        carry = cur >> right


@njit(cache=True, inline="always")
def _scatter(acc, values, lo, hi, s, n):
    """Set the bits values[lo:hi] + s below n (values ascending)."""
    one = np.uint64(1)
    for i in range(lo, hi):
        t = values[i] + s
        if t >= n:
            break
        acc[t >> 6] |= one << np.uint64(t & 63)


@njit(cache=True, inline="always")
def _add(acc, bits, row, words, values, lo, hi, s, n, width):
    """acc |= (column ``row``, listed as values[lo:hi]) << s, by the
    cheaper route: its elements one by one, or its words."""
    if hi - lo <= words:
        _scatter(acc, values, lo, hi, s, n)
    else:
        _shift_or(acc, bits, row, words, s, width)


@njit(cache=True, inline="always")
def _next_zero(acc, y, n, width):
    """The first clear bit of ``acc`` at or after y, or n if none below n."""
    if y >= n:
        return n
    w = y >> 6
    word = ~acc[w] & (_ALL << np.uint64(y & 63))
    while word == 0:
        w += 1
        if w >= width:
            return n
        word = ~acc[w]
    z = (w << 6) + np.int64(trailing_zeros(word))
    return z if z < n else n


@njit(cache=True)
def _bits_from_moves(n, moves):
    """The columns of M (a, then bit b) as an (n, words) uint64 array."""
    width = (n + 63) >> 6
    bits = np.zeros((n, max(width, 1)), dtype=np.uint64)
    one = np.uint64(1)
    for i in range(moves.shape[0]):
        a, b = moves[i, 0], moves[i, 1]
        if a < n and b < n:
            bits[a, b >> 6] |= one << np.uint64(b & 63)
    return bits


@njit(cache=True)
def _lists(bits, n):
    """(offsets, values, words) of the bitset columns: column a's rows
    ascending are values[offsets[a]:offsets[a + 1]], its words up to the
    last non-zero one ``words[a]``."""
    width = bits.shape[1]
    offsets = np.zeros(n + 1, dtype=np.int64)
    words = np.zeros(n, dtype=np.int64)
    total = 0
    for a in range(n):
        for w in range(width):
            v = bits[a, w]
            while v:
                total += 1
                v &= v - np.uint64(1)
    values = np.empty(total, dtype=np.int32)
    k = 0
    for a in range(n):
        offsets[a] = k
        for w in range(width):
            v = bits[a, w]
            if v:
                words[a] = w + 1
            while v:
                values[k] = (w << 6) + np.int64(trailing_zeros(v))
                k += 1
                v &= v - np.uint64(1)
    offsets[n] = k
    return offsets, values, words


@njit(cache=True)
def _sweep(n, mbits, moff, mvals, mwords, fpoff, fpvals, fnoff, fnvals):
    """P-positions below n of the game whose move columns are ``mbits``
    (with :func:`_lists`' ``moff``, ``mvals``, ``mwords``) and whose cells
    forced P and N are listed by column (``fpoff``/``fpvals``, ``fnoff``/
    ``fnvals``, rows ascending); returns P as the same four arrays (bits,
    offsets, rows, words)."""
    width = max((n + 63) >> 6, 1)
    pbits = np.zeros((n, width), dtype=np.uint64)
    poff = np.zeros(n + 1, dtype=np.int64)
    pwords = np.zeros(n, dtype=np.int64)
    pvals = np.empty(max(4 * n, 16), dtype=np.int32)
    count = 0
    acc = np.zeros(width, dtype=np.uint64)
    tail = np.uint64(0) if n & 63 == 0 else _ALL << np.uint64(n & 63)
    one = np.uint64(1)
    if n == 0:
        return pbits, poff, pvals[:0], pwords
    vlo, vhi, vwords = moff[0], moff[1], mwords[0]
    for x in range(n):
        acc[:] = 0
        acc[width - 1] |= tail  # rows >= n are never free
        for a in range(1, x + 1):
            mlo, mhi = moff[a], moff[a + 1]
            c = x - a
            plo, phi = poff[c], poff[c + 1]
            cm, cp = mhi - mlo, phi - plo
            if cm == 0 or cp == 0:
                continue
            # Walk one list and add the other column at each shift: the
            # cost is the walked length times (a call's overhead plus the
            # added column's length or words, whichever is fewer).
            if cm * (_CALL + min(cp, pwords[c])) <= cp * (_CALL + min(cm, mwords[a])):
                for i in range(mlo, mhi):
                    _add(acc, pbits, c, pwords[c], pvals, plo, phi, mvals[i], n, width)
            else:
                for i in range(plo, phi):
                    _add(acc, mbits, a, mwords[a], mvals, mlo, mhi, pvals[i], n, width)
        for i in range(fnoff[x], fnoff[x + 1]):  # forced N: never P
            acc[fnvals[i] >> 6] |= one << np.uint64(fnvals[i] & 63)
        j, jend = fpoff[x], fpoff[x + 1]  # forced P: P whatever blocks them
        y = _next_zero(acc, 0, n, width)
        while True:
            if j < jend and fpvals[j] <= y:
                y = fpvals[j]
                j += 1
            if y >= n:
                break
            if count == pvals.shape[0]:
                grown = np.empty(2 * count, dtype=np.int32)
                grown[:count] = pvals
                pvals = grown
            pvals[count] = y
            count += 1
            pbits[x, y >> 6] |= one << np.uint64(y & 63)
            pwords[x] = (y >> 6) + 1
            if vhi > vlo:  # the vertical moves (0, b) block y + b
                _add(acc, mbits, 0, vwords, mvals, vlo, vhi, y, n, width)
            y = _next_zero(acc, y + 1, n, width)
        poff[x + 1] = count
    return pbits, poff, pvals[:count], pwords


def _positions(offsets: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The (k, 2) int64 array of the columns' lists, sorted by x then y."""
    xs = np.repeat(np.arange(len(offsets) - 1, dtype=np.int64), np.diff(offsets))
    return np.column_stack([xs, values.astype(np.int64)])


def _check_n(n: int) -> int:
    if isinstance(n, bool) or not isinstance(n, int | np.integer):
        raise ValueError(f"n must be an integer, not {n!r}")
    if not 0 <= n <= MAX_N:
        raise ValueError(f"n must be in 0..{MAX_N}, not {n}")
    return int(n)


def _check_moves(moves: Any) -> np.ndarray:
    """``moves`` as an (m, 2) int64 array: non-negative, none (0, 0)."""
    array = np.asarray(moves if moves is not None else [], dtype=np.int64)
    if array.size == 0:
        return np.zeros((0, 2), dtype=np.int64)
    if array.ndim != 2 or array.shape[1] != 2:
        raise ValueError(f"moves must have shape (m, 2), not {array.shape}")
    if (array < 0).any():
        raise ValueError("a move must be non-negative")
    if ((array[:, 0] == 0) & (array[:, 1] == 0)).any():
        raise ValueError("(0, 0) is not a move")
    return array


_NONE = np.zeros(0, dtype=np.int64)


def _by_column(cells: Any, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(offsets, rows) of ``cells`` below n, by column, rows ascending."""
    array = np.asarray(cells if cells is not None else [], dtype=np.int64)
    array = array.reshape(-1, 2)
    array = array[(array[:, 0] < n) & (array[:, 1] < n)]
    array = array[np.lexsort((array[:, 1], array[:, 0]))]
    offsets = np.searchsorted(array[:, 0], np.arange(n + 1)).astype(np.int64)
    return offsets, np.ascontiguousarray(array[:, 1])


def _label(
    n: int, bits: np.ndarray, forced_p: Any = None, forced_n: Any = None
) -> tuple[np.ndarray, ...]:
    """The sweep of the moves ``bits`` (columns of a bitset) with forced cells."""
    fp, fn = _by_column(forced_p, n), _by_column(forced_n, n)
    return _sweep(n, bits, *_lists(bits, n), *fp, *fn)


@njit(cache=True)
def cone_bits(bits, n, rows):
    """Set in ``bits`` (columns of a move bitset) the moves below n of the
    cones ``rows`` ([s1, t1, s2, t2, has_hi, mod, mirror], as
    :func:`catalog.compute.kindsweeps.cone_rows` writes them)."""
    one = np.uint64(1)
    for r in range(rows.shape[0]):
        s1, t1, s2, t2, has_hi, m, mirror = rows[r]
        for k in range(1, n):
            lo = max(1, s1 * k + t1)
            hi = min(n - 1, s2 * k + t2) if has_hi else n - 1
            if lo > hi:
                continue
            lo += (k - lo) % m  # the first l >= lo with l ≡ k (mod m)
            for ell in range(lo, hi + 1, m):
                a, b = (ell, k) if mirror else (k, ell)
                bits[a, b >> 6] |= one << np.uint64(b & 63)


def move_bits(n: int, moves: Any) -> np.ndarray:
    """The columns of the move set ``moves`` below n as a bitset (n rows of
    (n + 63) // 64 words), to add cones to (:func:`cone_bits`) before
    :func:`p_positions_of_bits`."""
    return _bits_from_moves(_check_n(n), _check_moves(moves))


def p_positions_of_bits(
    n: int, bits: np.ndarray, forced_p: Any = None, forced_n: Any = None
) -> np.ndarray:
    """:func:`subtraction_p_positions` of a move set given as the bitset of
    :func:`move_bits`, with cells forced P and N (an altered game, as
    Hu–Sleator–Tsin alter Wythoff's Nim: a forced cell is labelled as
    forced and blocks, or not, like any P- or N-position)."""
    _, poff, pvals, _ = _label(_check_n(n), bits, forced_p, forced_n)
    return _positions(poff, pvals)


def subtraction_p_positions(n: int, moves: Any) -> np.ndarray:
    """Every P-position (x, y), x, y < n, of the invariant subtraction game
    with move set ``moves``.

    Parameters
    ----------
    n : int
        The box side, 0 <= n <= :data:`MAX_N`.
    moves : array_like of shape (m, 2)
        The moves (a, b), a, b >= 0, not both 0: (x, y) -> (x - a, y - b).
        Moves with a or b >= n never apply below n and are ignored, so a
        finite prefix of an infinite set (every move below n) is exact;
        duplicates are harmless.

    Returns
    -------
    numpy.ndarray
        Shape (k, 2), dtype int64, sorted by x then y.

    Raises
    ------
    ValueError
        On n out of range, a negative move, (0, 0) or a malformed array.

    Notes
    -----
    Column x costs, over a = 1 .. x, min(|M_a| min(|P_(x-a)|, w),
    |P_(x-a)| min(|M_a|, w)) word operations (M_a: the moves (a, ·), P_c:
    the P-positions of column c, w <= n / 64 the words of the column added),
    plus min(|M_0|, w) for each of its P-positions; at most
    O(n^3 / 64) in all, and O(|M| n^2 / 64) or O(|P| n^2 / 64) when either
    is O(n). Memory: two n x n bitsets (25 MB at n = 10^4), the lists of
    the moves and P-positions (4 bytes each) and the output (16 bytes a
    P-position). Measured in ``benchmarks/star.py``.

    References
    ----------
    .. [1] E. Duchêne, M. Rigo, Theoret. Comput. Sci. 411 (2010) 3169–3180.

    Examples
    --------
    >>> subtraction_p_positions(4, [[1, 0], [0, 1], [1, 1]]).tolist()
    [[0, 0], [0, 2], [2, 0], [2, 2]]
    """
    return p_positions_of_bits(n, move_bits(n, moves))


def star_moves(p_positions: Any) -> np.ndarray:
    """The moves of G⋆: the P-positions of G other than (0, 0).

    Parameters
    ----------
    p_positions : array_like of shape (k, 2)
        P-positions of G (all of them below some n, for a prefix of G⋆).

    Returns
    -------
    numpy.ndarray
        Shape (k', 2), int64, in the given order.

    Examples
    --------
    >>> star_moves([[0, 0], [1, 2], [2, 1]]).tolist()
    [[1, 2], [2, 1]]
    """
    array = np.asarray(p_positions, dtype=np.int64).reshape(-1, 2)
    return array[(array[:, 0] != 0) | (array[:, 1] != 0)]


def star_p_positions(n: int, moves: Any) -> np.ndarray:
    """The P-positions below n of G⋆, G being the subtraction game ``moves``.

    Parameters
    ----------
    n : int
        The box side, 0 <= n <= :data:`MAX_N`.
    moves : array_like of shape (m, 2)
        G's moves, as :func:`subtraction_p_positions` takes them.

    Returns
    -------
    numpy.ndarray
        Shape (k, 2), int64, sorted by x then y.

    Notes
    -----
    G⋆'s moves are P(G) minus (0, 0) [1]_; a move of G⋆ below n is a
    P-position of G below n, so two sweeps (:func:`subtraction_p_positions`)
    give the answer, the first one's P bitset serving as the second one's
    moves. For the Beatty game of α, P(G⋆) = {(0, 0)} ∪ the Beatty pairs of
    α [1]_; and Nim⋆⋆ = Nim [2]_.

    References
    ----------
    .. [1] U. Larsson, P. Hegarty, A. S. Fraenkel, Theoret. Comput. Sci. 412
       (2011) 729–735, Theorem 1.
    .. [2] U. Larsson, Theoret. Comput. Sci. 422 (2012) 52–58.

    Examples
    --------
    >>> star_p_positions(6, beatty_moves("(1+sqrt(5))/2", 6)).tolist()
    [[0, 0], [1, 2], [2, 1], [3, 5], [5, 3]]
    """
    n = _check_n(n)
    pbits, _, _, _ = _label(n, move_bits(n, moves))
    if n:
        pbits[0, 0] &= ~np.uint64(1)  # (0, 0) is no move
    return _positions(*_label(n, pbits)[1:3])


def beatty_moves(alpha: Quadratic | str, n: int) -> np.ndarray:
    """The moves below n of the Beatty subtraction game G_α.

    Parameters
    ----------
    alpha : Quadratic or str
        An irrational 1 < α < 2 (a string is read by
        :func:`catalog.games.quadratic.parse`); β = α/(α − 1).
    n : int
        The bound, 0 <= n <= :data:`MAX_N`.

    Returns
    -------
    numpy.ndarray
        The (⌊kα⌋, ⌊kβ⌋) and (⌊kβ⌋, ⌊kα⌋), k >= 1, with both coordinates
        below n: shape (m, 2), int64, sorted by the first.

    Notes
    -----
    The Beatty pairs other than (0, 0), from
    :meth:`catalog.compute.beatty.BeattyPairs.p_positions`: O(n) exact.

    Examples
    --------
    >>> beatty_moves("sqrt(2)", 7).tolist()
    [[1, 3], [2, 6], [3, 1], [6, 2]]
    """
    n = _check_n(n)
    value = parse(alpha) if isinstance(alpha, str) else alpha
    return star_moves(BeattyPairs(value).p_positions(n))


def ray_moves(rays: Any, n: int) -> np.ndarray:
    """The moves below n of rays (a, b): k (a, b), k >= 1 (Nim's are (1, 0)
    and (0, 1)), to join a move set (:func:`numpy.concatenate`).

    >>> ray_moves([[1, 1]], 3).tolist()
    [[1, 1], [2, 2]]
    """
    n = _check_n(n)
    out = [np.zeros((0, 2), dtype=np.int64)]
    for a, b in _check_moves(rays).tolist():
        k = np.arange(1, n, dtype=np.int64)
        k = k[(k * a < n) & (k * b < n)]
        out.append(np.column_stack([k * a, k * b]))
    return np.concatenate(out)
