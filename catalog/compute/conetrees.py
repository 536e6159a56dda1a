"""The cone sweep's structures for the cones not kept as components.

Both scans of the cone sweep, class by class (:mod:`catalog.compute.conesweep`)
and every class at once (:mod:`catalog.compute.wedgescan`), put a P-position
old enough into its cone's structure with :func:`enter` and ask it with
:func:`last`; the structures (one per class of rows mod the cone's m, in the
flat arrays ``tv`` and ``tu`` from ``tbase[j]`` on, ``tsize[j] + 1`` words a
class) are described in :mod:`catalog.compute.conesweep`:

- a band: a "next free line" union-find over w = y - s x;
- a plain cone without an upper line: the least u' = y' - s1 x';
- a mirrored cone without one and s1 = 0: the least y' (it blocks every
  higher row of its class once x - x' >= max(1, t1));
- a mirrored cone without one, s1 >= 1: a prefix-maximum tree over y'
  keeping the least u' = x' - s1 y';
- a mirrored cone with one: a prefix-maximum tree over n - 1 - v' keeping
  the least u';
- a plain cone with one (a wedge left to trees): a prefix-maximum tree
  over u' keeping the largest v' = y' - s2 x'.

A prefix-maximum tree keeps at each position the largest v entered there,
and its *records* in a three-level bitset (:mod:`catalog.compute.bitsets`,
in the array ``bits`` after the wedges' words; the class's slot 0 holds
where in its ``tv``): the positions whose v is above every v below them.
The largest v over the positions 0..p is the last record at or below p,
one predecessor search (a few word reads) and one read, where the Fenwick
trees these replaced walked about log2 n nodes: the wedge 3..5 mod 8
beside Wythoff's diagonal took 0.88 s at 10^6 with them, 0.62 s with
records. An entry that sets a record clears the records above it that it
passes, each once. The other structures are O(1) an entry and a query.
All are inlined into the scans, which numba compiles without reference
counts.

A tree is over up to (s + 1) n positions in each of m classes, 16 m
(s + 1) n bytes, though a class holds about n / m entries (one P-position a
column at most, in one class). Where it takes fewer words (about always
with m > 1 or s >= 2), a cone's trees are bucketed instead (``tu`` of each
class's slot 0 holds k; 0 is the plain tree):
positions p go to buckets p >> k of B = 2^k, B about m (s + 1) so that a
bucket holds about one entry. The cone's region of ``tv`` / ``tu``
(``tsize[j] = 2 nb``, nb buckets a class) is then

- per class, ``2 nb + 1`` slots: slot 0 (``tu`` = k), slots 1..nb each
  bucket's largest v and its u (as the plain tree keeps them per position;
  the records are buckets), slots nb + 1..2 nb the heads of the buckets'
  lists (``tu``: an entry's number, 0 for none);
- after the m classes, the cone's pool: a slot whose ``tu`` counts the
  entries, then two slots an entry e = 1, 2, ...: (v, u), then (p, the next
  entry of its bucket's list). Every P-position enters a cone once, so the
  pool holds n plus the forced P-positions.

A query for the positions 0..p asks the records for the buckets below
p >> k and walks bucket p >> k's list for the entries at positions <= p: the same
largest v as the plain tree. Its u may be another of that v's (ties are
kept in another order), which no caller minds: the mirrored trees keep
v = -u, and the plain one's callers use only v.
"""

from __future__ import annotations

import numpy as np

from catalog.compute import bitsets
from catalog.compute.bitsets import clear, insert, predecessor, successor
from catalog.compute.conecells import _row
from catalog.compute.jit import njit
from catalog.compute.kernel import _div, _mod

INF = np.iinfo(np.int64).max // 4
NEG = -INF


@njit(cache=True, inline="always")
def _stair_bits(tv, base, count):
    """The bitset of the class at ``base`` (its level 0 at ``tv[base]`` in
    ``bits``) over ``count`` keys: (b0, b1, b2, w2), as
    :func:`catalog.compute.bitsets.layout` lays them."""
    b0 = tv[base]
    w0 = (count >> 6) + bitsets.SPARE
    w1 = (w0 >> 6) + 1
    return b0, b0 + w0, b0 + w0 + w1, (w1 >> 6) + 1


@njit(cache=True, inline="always")
def _stair_set(tv, tu, bits, base, count, q, v, u):
    """Keep (v, u) at key q (0-based) of the class at ``base`` if v is the
    largest there, and keep the class's records: the keys whose v is above
    every v below them, a bitset, so that a prefix's largest v is its last
    record's (:func:`_stair_best`)."""
    s = base + 1 + q
    if v <= tv[s]:
        return
    tv[s] = v
    tu[s] = u
    b0, b1, b2, w2 = _stair_bits(tv, base, count)
    a = predecessor(bits, b0, b1, b2, q - 1)
    if a >= 0 and tv[base + 1 + a] >= v:
        return  # a key below holds as much: q is no record
    insert(bits, b0, b1, b2, q)
    nxt = q
    while nxt + 1 < count:  # records above that v now passes
        nxt = successor(bits, b0, b1, b2, w2, nxt + 1)
        if nxt < 0 or tv[base + 1 + nxt] > v:
            break
        clear(bits, b0, b1, b2, nxt)


@njit(cache=True, inline="always")
def _stair_best(tv, tu, bits, base, count, q):
    """(largest v, its u) over keys 0..q of the class at ``base`` (NEG if
    none): the last record at or below q."""
    if q < 0:
        return NEG, 0
    b0, b1, b2, _ = _stair_bits(tv, base, count)
    a = predecessor(bits, b0, b1, b2, min(q, count - 1))
    if a < 0:
        return NEG, 0
    return tv[base + 1 + a], tu[base + 1 + a]


@njit(cache=True, _nrt=False)
def _tree_set(tv, tu, bits, base, size, pool, p, v, u):
    """Keep (v, u) at position p of the class at ``base``, plain
    (``tu[base]`` = 0, ``size`` positions) or bucketed (k = ``tu[base]``,
    ``size`` = 2 nb; ``pool`` is the cone's)."""
    k = tu[base]
    if k == 0:
        if p < size:
            _stair_set(tv, tu, bits, base, size, p, v, u)
        return
    nb = size >> 1
    q = p >> k
    if q >= nb:  # past the positions, as the plain tree drops it
        return
    _stair_set(tv, tu, bits, base, nb, q, v, u)
    e = tu[pool] + 1
    tu[pool] = e
    a = pool + 2 * e - 1
    tv[a], tu[a] = v, u
    head = base + nb + 1 + q
    tv[a + 1], tu[a + 1] = p, tu[head]
    tu[head] = e


@njit(cache=True, _nrt=False)
def _tree_best(tv, tu, bits, base, size, pool, p):
    """(largest v, its u) over positions 0..p of the class at ``base``
    (NEG if none), plain or bucketed (as :func:`_tree_set`): the records
    of the buckets below p >> k, then bucket p >> k's entries at
    positions <= p."""
    k = tu[base]
    if k == 0:
        return _stair_best(tv, tu, bits, base, size, p)
    if p < 0:
        return NEG, 0
    nb = size >> 1
    q = p >> k
    if q >= nb:
        return _stair_best(tv, tu, bits, base, nb, nb - 1)
    bv, bu = _stair_best(tv, tu, bits, base, nb, q - 1)
    e = tu[base + nb + 1 + q]
    while e:
        a = pool + 2 * e - 1
        if tv[a] > bv and tv[a + 1] <= p:
            bv, bu = tv[a], tu[a]
        e = tu[a + 1]
    return bv, bu


@njit(cache=True, inline="always")
def _mark_band(ring, base, lo, hi, m, size):
    """Block the band [lo, hi] of a band cone's class (clipped to its
    ``size + 1 - m`` lines, half a word each): chains link lines m apart,
    so each residue's free lines in the band are found by
    :func:`_find_half` and marked once."""
    top = size + 1 - m
    lo = max(lo, 0)
    hi = min(hi, top - 1)
    for w0 in range(lo, min(hi, lo + m - 1) + 1):  # each residue's first line
        w = w0
        while w <= hi:
            w = _find_half(ring, base, w, top)
            if w > hi:
                break
            _set_half(ring, base, w, m)
            w += m


def is_band_row(row: list[int]) -> bool:
    """Is the cone row [s1, t1, s2, t2, hi, m, mirror] a band?"""
    return bool(row[4]) and not row[6] and row[0] == row[2]


@njit(cache=True, inline="always")
def band_words(size):
    """Words of a band's class of ``size`` + 1 lines, half a word a line:
    its lines span (s + 1) n + m in each of m classes, mostly untouched,
    and every page touched took a process's first run at 10^6 from 0.39 s
    to 1.02 s for the symmetric band 2 mod 16 beside the diagonal (404 MB
    of int64 lines)."""
    return (size + 2) >> 1


@njit(cache=True, inline="always")
def _half(ring, base, w):
    """Line w's distance (0: free) in half-words from ``ring[base]``."""
    return (ring[base + (w >> 1)] >> (32 * (w & 1))) & 0xFFFFFFFF


@njit(cache=True, inline="always")
def _set_half(ring, base, w, v):
    """Line w's distance is v (0 <= v < 2^32)."""
    i = base + (w >> 1)
    shift = 32 * (w & 1)
    ring[i] = (ring[i] & ~(0xFFFFFFFF << shift)) | (v << shift)


@njit(cache=True, inline="always")
def _find_half(ring, base, idx, top):
    """:func:`catalog.compute.kernel._find` over half-word lines: the first
    free line at or after ``idx`` along its chain, or ``top``; compresses
    the path."""
    root = idx
    while root < top:
        step = _half(ring, base, root)
        if step == 0:
            break
        root += step
    if root > top:
        root = top
    while idx < root:
        step = _half(ring, base, idx)
        _set_half(ring, base, idx, root - idx)
        idx += step
    return root


@njit(cache=True, inline="always")
def is_band(cones, j):
    """Is cone j a band (a plain cone with s1 = s2 and an upper line)?"""
    return cones[j, 4] != 0 and cones[j, 6] == 0 and cones[j, 0] == cones[j, 2]


@njit(cache=True, inline="always")
def enter(cones, j, n, shift, tbase, tsize, tv, tu, bits, xo, yo):
    """The P-position (xo, yo) joins cone j's structure."""
    s1, t1, s2, t2, hi, m, mirror = _row(cones, j)
    b = tbase[j] + _mod(yo - xo, m) * (tsize[j] + 1)
    pool = tbase[j] + m * (tsize[j] + 1)  # a bucketed tree's entries
    if mirror:
        u, v = xo - s1 * yo, xo - s2 * yo
    else:
        u, v = yo - s1 * xo, yo - s2 * xo
    if hi and not mirror and s1 == s2:
        b = tbase[j] + _mod(yo - xo, m) * band_words(tsize[j])
        _mark_band(tv, b, u + t1 + shift[j], u + t2 + shift[j], m, tsize[j])
    elif not hi and not mirror:
        if u < tv[b]:
            tv[b] = u
    elif not hi and s1 == 0:
        if yo < tv[b]:
            tv[b] = yo
    elif not hi:  # over y', keeping -u' (the least u')
        _tree_set(tv, tu, bits, b, tsize[j], pool, yo, -u, u)
    elif mirror:  # over n - 1 - v' (a suffix of v'), the least u'
        _tree_set(tv, tu, bits, b, tsize[j], pool, n - 1 - v, -u, u)
    else:
        _tree_set(tv, tu, bits, b, tsize[j], pool, u + shift[j], v, u)


@njit(cache=True, inline="always")
def last(cones, j, n, shift, tbase, tsize, tv, tu, bits, x, y):
    """The last row of column x that cone j's structure blocks from (x, y)
    on in y's class (-1: none; INF: the rest of the column)."""
    s1, t1, s2, t2, hi, m, mirror = _row(cones, j)
    b = tbase[j] + _mod(y - x, m) * (tsize[j] + 1)
    pool = tbase[j] + m * (tsize[j] + 1)
    if hi and not mirror and s1 == s2:
        b = tbase[j] + _mod(y - x, m) * band_words(tsize[j])
        top = tsize[j] + 1 - m
        w = y - s1 * x + shift[j]
        w1 = _find_half(tv, b, w, top)
        return INF if w1 >= top else y + (w1 - w) - 1
    if not hi and not mirror:
        return INF if tv[b] <= y - s1 * x - t1 else -1
    if not hi and s1 == 0:
        return INF if tv[b] < y else -1
    if not hi:
        w, u = _tree_best(tv, tu, bits, b, tsize[j], pool, y - 1)
        if w > NEG and u <= x - s1 * y - t1:
            return _div(x - t1 - u, s1)
        return -1
    if mirror:  # the least u' over v' >= v0 reaches the farthest
        p = n - 1 - (x - s2 * y - t2)
        if p >= 0:
            w, u = _tree_best(tv, tu, bits, b, tsize[j], pool, p)
            if w > NEG and u <= x - s1 * y - t1:
                return INF if s1 == 0 else _div(x - t1 - u, s1)
        return -1
    # the largest v' over u' <= u0 reaches the farthest
    p = y - s1 * x - t1 + shift[j]
    if p >= 0:
        v, u = _tree_best(tv, tu, bits, b, tsize[j], pool, p)
        if v >= y - s2 * x - t2:
            return v + s2 * x + t2
    return -1
