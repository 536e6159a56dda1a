"""Wedge cones of the cone sweep as growing, merging components.

A wedge (a cone with both lines, s1 < s2, or a mirrored cone with an upper
line, or a mirrored one without it and s1 >= 1) blocks in column x, from
each earlier P-position (x', y'), the rows of one class y - x ≡ y' - x'
(mod m) in an interval whose ends move with x. In the sheared coordinate
w = y - σ x, with σ between the speeds of the two ends, every P-position's
set only grows: its lower end never rises, its upper end never falls. With
σ ≡ 1 (mod m) the class is a fixed residue of w, and two sets that touch
(no row of their class between them) touch for good; otherwise the class
turns with x, and they are one once no row of a residue mod g lies between
them, or once their real ends meet (:func:`gap`). So the
union of a class's sets is a sorted list of disjoint *components* that only
grow and merge. A component is kept as the least lower key and the largest
upper key of its members: an end is a monotone function of its key, so
those two members give its ends at every later column.

- plain wedge, σ in [s1, s2]: from k = x - x' on (k >= kc, so l >= 1), rows
  [Lk + s1 x + t1, Rk + s2 x + t2] with Lk = y' - s1 x', Rk = y' - s2 x'.
- mirrored (σ = 1 when s1 <= 1 <= s2): from x - x' > t2 (so the row step
  k >= 1), rows [ceil((Lk + x - t2) / s2), floor((Rk + x - t1) / s1)] with
  Lk = s2 y' - x', Rk = s1 y' - x' (no upper end when s1 = 0).
- mirrored without an upper line, s1 >= 1 (:data:`OPEN`, σ = 0): from
  x - x' >= 1, rows [Lk + 1, floor((Rk + x - t1) / s1)] with Lk = y'.

The components of a class sit in a three-level bitset over lower keys
(predecessor and successor in a few word reads), and each pair of neighbours
has one event: the first column at which they touch, found by a galloping
search on that monotone test and kept in a doubly linked list per column. A
query ("the last row blocked from (x, y) on") is one predecessor search: the
component with the largest lower end at or below y, whose upper end says how
far its class is blocked. Every insertion and merge is paid once, so a
column costs O(1) amortised plus its queries (no walk over earlier
P-positions).

A query answers for one class. When every cone of a game grows under one
shear (:func:`catalog.compute.wedgescan.common_shear`), the climb of
:mod:`catalog.compute.wedgescan` asks every class at once instead, and
settles for good each row the components block: since every member's set
only grows in w, a row blocked in column x stays blocked σ rows higher in
each later column.

A P-position enters its cone's components once its set is non-empty and its
ends are in the linear regime above (``entry`` columns after its own); the
cone sweep checks the younger ones directly.

Everything but the bitsets lives in one int64 array ``ws`` (a header, each
cone's row of fields, each column's first event, the first slot of each
bucket of keys in half a word, then the pool of slots, :data:`WORDS` words
each: upper key, lower key, next and previous event, 0 meaning none, its
key and the next slot of its bucket), so a compiled call
passes two arrays: numba counts a reference for each array argument, with an
atomic instruction, on every call.

References
----------
.. [1] A. S. Fraenkel, "Heap games, numeration systems and sequences",
   Annals of Combinatorics 2 (1998) 197–210 ((s,t)-Wythoff: two wedges).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from catalog.compute import bitsets
from catalog.compute.bitsets import clear, predecessor, successor
from catalog.compute.jit import njit
from catalog.compute.kernel import _div, _mod

INF = np.iinfo(np.int64).max // 4

# The header of ``ws``: cone count, n, where the columns' events and the
# slots start; then each cone's FIELDS words.
NCONES, SIDE, HEADS, SLOTS, INDEX, POOL = range(6)
HEADER = 8
# A cone's fields.
(
    KIND, S1, T1, S2, T2, MOD, SIZE, OFF, SLOT, B0, W0, B1, W1, B2, W2, ENTRY, GAP,
    BUCKET, SHIFT,
) = range(19)  # fmt: skip
FIELDS = 19
#: Words a component slot: upper key, lower key, next and previous event,
#: its key (global: the cone's and class's keys follow each other), the
#: next slot of its bucket.
WORDS = 6
PLAIN, MIRRORED, OPEN = 1, 2, 3


def shear(row: Any) -> int:
    """The component kind of a cone row [s1, t1, s2, t2, hi, m, mirror]:
    :data:`PLAIN`, :data:`MIRRORED`, :data:`OPEN` (mirrored without an
    upper line, s1 >= 1: rows y' + 1 to y' + (x - x' - t1) / s1), or 0 for
    the cones left to the sweep's other structures (a band, a plain cone
    without an upper line, a mirrored one of s1 = 0: O(1) a query)."""
    s1, _t1, s2, _t2, hi, _m, mirror = (int(v) for v in row)
    if not hi:
        return OPEN if mirror and s1 >= 1 else 0
    if s1 == s2:
        return 0
    return MIRRORED if mirror else PLAIN


def gap(row: Any) -> int:
    """The modulus g of a wedge's merges (0: none, its ends' real values
    are compared): two components of a class are one once no row y with
    y ≡ x + c (mod g) lies between them, c the class, and stay one.

    Under a shear σ between the speeds of the ends (w = y - σ x; σ in
    [s1, s2] plain, [1/s2, 1/s1] mirrored) the gap between two components
    only shrinks, and class c's rows, y ≡ x + c (mod m), are the w with
    w ≡ c + (1 - σ) x (mod m): with σ ≡ 1 (mod m) a fixed residue, so g = m.
    Otherwise they turn with x, through every w ≡ c (mod g) for
    g = gcd(σ - 1, m) (the best σ of the interval); no such w between them
    means none of the class ever. A mirrored cone with s1 >= 2 has no
    integer σ, and its class's rows turn by one row a column: g = 0, one
    once their real intervals meet ((Lk + x - t2) / s2 <= (Rk + x - t1) /
    s1, which only grows true). One without an upper line keeps its lowest
    row, y' + 1 (σ = 0; g = 1 for s1 >= 2, whose rows turn)."""
    s1, _t1, s2, _t2, hi, m, mirror = (int(v) for v in row)
    if mirror:
        return m if s1 <= 1 else 0 if hi else 1
    return max(math.gcd(sigma - 1, m) for sigma in range(s1, min(s2, s1 + m) + 1))


def _opens(row: Any, kc: int, n: int) -> int:
    """The first k = x - x' from which the cone's set is non-empty and its
    ends linear (n if none below n). A mirrored cone merged by its real
    ends (:func:`gap` 0) takes its members as soon as their ends are
    linear, empty or not: an empty member touches no successor (whose lower
    end is as high as its own, above its upper one) and joins a
    predecessor only where its lower end is inside that one's rows, so a
    component stays one interval. Waiting for a step of the class took 19
    columns for the mirrored cone 2..5 mod 16, each checked directly at
    every query."""
    s1, t1, s2, t2, upper, m, mirror = (int(v) for v in row)
    start = kc if not mirror else max(1, t2 + 1) if upper else 1
    if mirror and upper and not gap(row):
        return min(start, n)
    for big_x in range(start, n):
        if mirror:
            if s1 == 0 and big_x < t1:
                continue
            lo = -((t2 - big_x) // s2) if upper else 1
            hi = INF if s1 == 0 else (big_x - t1) // s1
        else:
            lo, hi = s1 * big_x + t1, s2 * big_x + t2
        if lo + (big_x - lo) % m <= hi:  # a step with l ≡ k (mod m)
            return big_x
    return n


def _size(row: list[int], kind: int, n: int) -> int:
    """Lower keys a class: the range of Lk, divided by g (see :func:`insert`
    and :func:`gap`; by 1 for g = 0)."""
    s1, _t1, s2, _t2, _hi, _m, _mirror = row
    keys = (s1 + 1) * n if kind == PLAIN else (s2 + 1) * n if kind == MIRRORED else n
    return keys // max(1, gap(row)) + 1


def keys(n: int, row: list[int], kind: int) -> int:
    """A cone's keys in all its classes (its key space)."""
    return row[5] * _size(row, kind, n)


def _shift(keys: int, entries: int) -> int:
    """log2 of a cone's keys a bucket: about as many keys as a P-position
    has (so about one component a bucket)."""
    return max(0, (keys // max(1, entries)).bit_length() - 1)


def nbytes(n: int, cones: np.ndarray, kinds: list[int], entries: int = 0) -> int:
    """The bytes :func:`layout` allocates for these kinds (``entries``
    P-positions a cone, n by default)."""
    total = 8 * n
    for row, kind in zip(cones.tolist(), kinds, strict=True):
        if kind:
            size = _size(row, kind, n)
            keys = row[5] * size
            total += 4 * ((keys >> _shift(keys, entries or n)) + 1)
            total += row[5] * (size // 8 + 64)
            total += 8 * WORDS * ((entries or n) + 1)
    return total


def layout(
    n: int, cones: np.ndarray, kc: np.ndarray, kinds: list[int], entries: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """``ws`` and the bitsets for the cones of a non-zero kind (the others
    are left to the cone sweep's other structures), all free: a pool of
    ``entries`` slots a cone (n by default; every P-position enters a cone
    once and makes at most one component) and an index of buckets of keys,
    about as many keys a bucket as a P-position has, each holding the first
    slot of its chain of components, half a word (:func:`_slot`). A slot of
    32 bytes a key took 1 GB for the mirrored cone 3..6 mod 4 at 10^6, and
    half a word a key 328 MB for the cones 3..6 mod 8 beside their mirror,
    one key in 56 holding a component: every page touched, which took as
    long as the sweep in a process's first run."""
    rows = np.zeros((len(cones), FIELDS), dtype=np.int64)
    slots = words = pool = buckets = 0
    for j, row in enumerate(cones.tolist()):
        kind = kinds[j]
        if not kind:
            continue
        s1, t1, s2, t2, _hi, m, _mirror = row
        size = _size(row, kind, n)
        w0 = (size + 63) >> 6
        w1 = (w0 + 63) >> 6
        w2 = (w1 + 63) >> 6
        entry = _opens(row, int(kc[j]), n)
        shift = _shift(m * size, entries or n)
        rows[j] = (
            kind, s1, t1, s2, t2, m, size,
            s1 * n if kind == PLAIN else n if kind == MIRRORED else 0,
            slots, words, w0, words + m * w0, w1, words + m * (w0 + w1), w2, entry,
            gap(row), buckets, shift,
        )  # fmt: skip
        slots += m * size
        words += m * (w0 + w1 + w2)
        pool += (entries or n) + 1
        buckets += ((m * size) >> shift) + 1
    heads = HEADER + FIELDS * len(cones)
    index = heads + n
    start = index + (buckets + 1) // 2 + 1
    ws = np.zeros(start + WORDS * pool, dtype=np.int64)  # untouched: free
    ws[NCONES], ws[SIDE], ws[HEADS] = len(cones), n, heads
    ws[SLOTS], ws[INDEX] = start, index
    ws[HEADER:heads] = rows.ravel()
    return ws, np.zeros(max(words, 1), dtype=np.uint64)


@njit(cache=True, inline="always")
def field(ws, j, f):
    """Field f of cone j."""
    return ws[HEADER + j * FIELDS + f]


@njit(cache=True, inline="always")
def _succ(bits, b0, b1, b2, w2, size, key):
    """The smallest set key > key (below size), or -1."""
    if key + 1 >= size:
        return -1
    return successor(bits, b0, b1, b2, w2, key + 1)


@njit(cache=True, inline="always")
def _left(kind, s1, t1, s2, t2, lk, x):
    """The lowest row of a member with lower key lk in column x."""
    if kind == 1:
        return lk + s1 * x + t1
    if kind == 3:  # y' + 1
        return lk + 1
    return -_div(t2 - lk - x, s2)


@njit(cache=True, inline="always")
def _right(kind, s1, t1, s2, t2, rk, x):
    """The highest row of a member with upper key rk in column x."""
    if kind == 1:
        return rk + s2 * x + t2
    if s1 == 0:
        return INF
    return _div(rk + x - t1, s1)


@njit(cache=True, inline="always")
def _touch(ws, j, c, ra, lb, x):
    """Do a component with upper key ra and one with lower key lb above it
    leave no row of class c between them in column x, nor in any later
    column (:func:`gap`)?"""
    kind, s1, t1, s2, t2, g = (
        field(ws, j, KIND), field(ws, j, S1), field(ws, j, T1), field(ws, j, S2),
        field(ws, j, T2), field(ws, j, GAP),
    )  # fmt: skip
    if g == 0:  # the real ends: (lb + x - t2) / s2 <= (ra + x - t1) / s1
        return s1 * (lb + x - t2) <= s2 * (ra + x - t1)
    top = _right(kind, s1, t1, s2, t2, ra, x)
    if top >= INF:
        return True
    top -= _mod(top - x - c, g)
    low = _left(kind, s1, t1, s2, t2, lb, x)
    low += _mod(x + c - low, g)
    return low <= top + g


@njit(cache=True, inline="always")
def _bases(ws, j, c):
    """Class c's first (global) key and its bitset's three levels."""
    return (
        field(ws, j, SLOT) + c * field(ws, j, SIZE),
        field(ws, j, B0) + c * field(ws, j, W0),
        field(ws, j, B1) + c * field(ws, j, W1),
        field(ws, j, B2) + c * field(ws, j, W2),
    )


@njit(cache=True, inline="always")
def _bucket(ws, j, gk):
    """The index's half-word of cone j's bucket of global key gk."""
    return field(ws, j, BUCKET) + ((gk - field(ws, j, SLOT)) >> field(ws, j, SHIFT))


@njit(cache=True, inline="always")
def _head(ws, h):
    """The first slot + 1 of the chain of half-word h (0: none)."""
    return (ws[ws[INDEX] + (h >> 1)] >> (32 * (h & 1))) & 0xFFFFFFFF


@njit(cache=True, inline="always")
def _set_head(ws, h, v):
    """Half-word h holds v (a slot + 1, or 0)."""
    i = ws[INDEX] + (h >> 1)
    shift = 32 * (h & 1)
    ws[i] = (ws[i] & ~(0xFFFFFFFF << shift)) | (v << shift)


@njit(cache=True, inline="always")
def _slot(ws, j, gk):
    """The slot of cone j's component at global key gk (a key set in its
    bitset): the chain of gk's bucket, linked through each slot's last
    word, holds the live components of the bucket (about one)."""
    s = _head(ws, _bucket(ws, j, gk)) - 1
    while ws[_at(ws, s) + 4] != gk:
        s = ws[_at(ws, s) + 5] - 1
    return s


@njit(cache=True, inline="always")
def _new(ws, j, gk, r, lk):
    """A new component of cone j at global key gk, of upper key r and lower
    key lk: the next slot of the pool, first in its bucket's chain.
    Returns where its words start."""
    s = ws[POOL]
    ws[POOL] = s + 1
    h = _bucket(ws, j, gk)
    at = _at(ws, s)
    ws[at], ws[at + 1], ws[at + 4], ws[at + 5] = r, lk, gk, _head(ws, h)
    _set_head(ws, h, s + 1)
    return at


@njit(cache=True, inline="always")
def _drop(ws, j, s):
    """Take slot s (a component merged into another) out of its bucket's
    chain."""
    at = _at(ws, s)
    h = _bucket(ws, j, ws[at + 4])
    p = _head(ws, h) - 1
    if p == s:
        _set_head(ws, h, ws[at + 5])
        return
    while ws[_at(ws, p) + 5] != s + 1:
        p = ws[_at(ws, p) + 5] - 1
    ws[_at(ws, p) + 5] = ws[at + 5]


@njit(cache=True, inline="always")
def _at(ws, s):
    """Where slot s's words start: upper key, lower key, next event (slot
    + 1, 0: none), previous (slot + 1, -1 - column when first, 0: in no
    list)."""
    return ws[SLOTS] + WORDS * s


@njit(cache=True, inline="always")
def _unlink(ws, s):
    """Take slot s out of its column's event list (if in one)."""
    at = _at(ws, s)
    p, q = ws[at + 3], ws[at + 2]
    if p == 0:
        return
    if p < 0:
        ws[ws[HEADS] - 1 - p] = q
    else:
        ws[_at(ws, p - 1) + 2] = q
    if q > 0:
        ws[_at(ws, q - 1) + 3] = p
    ws[at + 2] = 0
    ws[at + 3] = 0


@njit(cache=True, _nrt=False)
def _schedule(ws, bits, j, c, key, x):
    """Put the component at ``key`` in the list of the first column after x
    at which it touches its successor (nowhere if none below n)."""
    slot, b0, b1, b2 = _bases(ws, j, c)
    s = _slot(ws, j, slot + key)
    _unlink(ws, s)
    nb = _succ(bits, b0, b1, b2, field(ws, j, W2), field(ws, j, SIZE), key)
    if nb < 0:
        return
    n = ws[SIDE]
    ra, lb = ws[_at(ws, s)], ws[_at(ws, _slot(ws, j, slot + nb)) + 1]
    lo, step = x, 1  # the test is false at lo and monotone in the column
    hi = x + 1
    while hi < n and not _touch(ws, j, c, ra, lb, hi):
        lo = hi
        step *= 2
        hi = lo + step
    if hi >= n:
        if not _touch(ws, j, c, ra, lb, n - 1):
            return
        hi = n - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _touch(ws, j, c, ra, lb, mid):
            hi = mid
        else:
            lo = mid
    q = ws[ws[HEADS] + hi]
    at = _at(ws, s)
    ws[at + 2], ws[at + 3] = q, -1 - hi
    if q > 0:
        ws[_at(ws, q - 1) + 3] = s + 1
    ws[ws[HEADS] + hi] = s + 1


@njit(cache=True, _nrt=False)
def _absorb(ws, bits, j, c, key, x):
    """Merge into the component at ``key`` the successors it touches."""
    slot, b0, b1, b2 = _bases(ws, j, c)
    at = _at(ws, _slot(ws, j, slot + key))
    while True:
        nb = _succ(bits, b0, b1, b2, field(ws, j, W2), field(ws, j, SIZE), key)
        if nb < 0:
            return
        s = _slot(ws, j, slot + nb)
        other = _at(ws, s)
        if not _touch(ws, j, c, ws[at], ws[other + 1], x):
            return
        ws[at] = max(ws[at], ws[other])
        clear(bits, b0, b1, b2, nb)
        _unlink(ws, s)
        _drop(ws, j, s)


@njit(cache=True, _nrt=False)
def insert(ws, bits, j, x, xo, yo):
    """The P-position (xo, yo) joins cone j's components in column x.

    A class's keys are the lower keys divided by g (:func:`gap`; 1 for
    g = 0): two members whose lower keys are that close have lowest rows
    less than g apart, and each holds a row y ≡ x + c (mod g) for good, so
    they touch and are one."""
    m = field(ws, j, MOD)
    c = _mod(yo - xo, m)
    if field(ws, j, KIND) == 1:
        lk, r = yo - field(ws, j, S1) * xo, yo - field(ws, j, S2) * xo
    elif field(ws, j, KIND) == 3:
        lk, r = yo, field(ws, j, S1) * yo - xo
    else:
        lk, r = field(ws, j, S2) * yo - xo, field(ws, j, S1) * yo - xo
    key = _div(lk + field(ws, j, OFF), max(1, field(ws, j, GAP)))
    slot, b0, b1, b2 = _bases(ws, j, c)
    a = predecessor(bits, b0, b1, b2, key)
    at = _at(ws, _slot(ws, j, slot + a)) if a >= 0 else 0
    if a >= 0 and (a == key or _touch(ws, j, c, ws[at], lk, x)):
        ws[at] = max(ws[at], r)
        ws[at + 1] = min(ws[at + 1], lk)
        comp = a
    else:
        bitsets.insert(bits, b0, b1, b2, key)
        _new(ws, j, slot + key, r, lk)
        comp = key
    _absorb(ws, bits, j, c, comp, x)
    _schedule(ws, bits, j, c, comp, x)
    if a >= 0 and comp != a:  # a's successor is new
        _schedule(ws, bits, j, c, a, x)


@njit(cache=True, inline="always")
def _end(ws, j):
    """The global key after cone j's."""
    return field(ws, j, SLOT) + field(ws, j, MOD) * field(ws, j, SIZE)


@njit(cache=True, _nrt=False)
def merge_due(ws, bits, x):
    """Merge the neighbours that touch from column x on (their events)."""
    while ws[ws[HEADS] + x] > 0:
        s = ws[ws[HEADS] + x] - 1
        _unlink(ws, s)
        gk = ws[_at(ws, s) + 4]
        j = 0  # the cone whose keys hold gk
        while not field(ws, j, KIND) or gk >= _end(ws, j):
            j += 1
        c = (gk - field(ws, j, SLOT)) // field(ws, j, SIZE)
        key = gk - field(ws, j, SLOT) - c * field(ws, j, SIZE)
        _absorb(ws, bits, j, c, key, x)
        _schedule(ws, bits, j, c, key, x)


@njit(cache=True, inline="always")
def last_blocked(ws, bits, j, x, y):
    """The last row of column x that cone j's components block from (x, y)
    on in y's class (-1 if they leave (x, y) free; INF: the whole column)."""
    kind, s1, t1, s2, t2, m = (
        field(ws, j, KIND), field(ws, j, S1), field(ws, j, T1), field(ws, j, S2),
        field(ws, j, T2), field(ws, j, MOD),
    )  # fmt: skip
    c = _mod(y - x, m)
    # the lower keys of the members whose lowest row is at most y
    lk = y - s1 * x - t1 if kind == 1 else y - 1 if kind == 3 else s2 * y - x + t2
    key = lk + field(ws, j, OFF)
    if key < 0:
        return -1
    slot, b0, b1, b2 = _bases(ws, j, c)
    g = max(1, field(ws, j, GAP))
    a = predecessor(bits, b0, b1, b2, min(_div(key, g), field(ws, j, SIZE) - 1))
    if a >= 0 and ws[_at(ws, _slot(ws, j, slot + a)) + 1] > lk:
        a = predecessor(bits, b0, b1, b2, a - 1)
    if a < 0:
        return -1
    top = _right(kind, s1, t1, s2, t2, ws[_at(ws, _slot(ws, j, slot + a))], x)
    return top if top >= y else -1
