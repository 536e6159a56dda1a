"""Three-level bitsets for the compiled sweeps: insert, clear, successor,
predecessor.

A set of keys 0..size-1 is three arrays of words in one uint64 array: level
0 holds a bit a key, level 1 a bit a non-zero level-0 word, level 2 a bit a
non-zero level-1 word. The successor of a key reads at most one word of each
level on the way up and down, plus a scan of level 2 (size / 2^18 words).
Beside the usual operations, :func:`word` reads 64 keys from any key on, so
that a sweep can AND two sets shifted against each other a word at a time.

A bitset is laid out by :func:`layout` as the four offsets (level 0, 1, 2
and the level-2 words) that the functions take; :func:`fill` sets a prefix
of keys from Python.
"""

from __future__ import annotations

import numpy as np

from catalog.compute.jit import leading_zeros, njit, trailing_zeros

#: Words a bitset's level 0 keeps beyond its last key, which :func:`word` may read.
SPARE = 2


def layout(size: int, start: int = 0) -> tuple[tuple[int, int, int, int], int]:
    """The offsets (b0, b1, b2, w2) of a bitset of ``size`` keys whose words
    start at ``start``, and the word after its last."""
    w0 = size // 64 + SPARE
    w1 = w0 // 64 + 1
    w2 = w1 // 64 + 1
    return (start, start + w0, start + w0 + w1, w2), start + w0 + w1 + w2


def fill(bits: np.ndarray, offsets: tuple[int, int, int, int], count: int) -> None:
    """Set the keys 0..count-1 of a bitset at ``offsets`` (:func:`layout`)."""
    b0, b1, b2, _ = offsets
    for base, keys in ((b0, count), (b1, -(-count // 64)), (b2, -(-count // 4096))):
        full, rest = divmod(keys, 64)
        bits[base : base + full] = np.uint64(2**64 - 1)
        if rest:
            bits[base + full] = np.uint64((1 << rest) - 1)


@njit(cache=True, inline="always")
def bit(b):
    """The word with bit b (0..63) set."""
    return np.uint64(1) << np.uint64(b)


@njit(cache=True, inline="always")
def low(v):
    """The lowest set bit of a non-zero word."""
    return np.int64(trailing_zeros(v))


@njit(cache=True, inline="always")
def top(v):
    """The highest set bit of a non-zero word."""
    return 63 - np.int64(leading_zeros(v))


@njit(cache=True, inline="always")
def insert(bits, b0, b1, b2, key):
    """Add ``key``."""
    bits[b0 + (key >> 6)] |= bit(key & 63)
    bits[b1 + (key >> 12)] |= bit((key >> 6) & 63)
    bits[b2 + (key >> 18)] |= bit((key >> 12) & 63)


@njit(cache=True, inline="always")
def clear(bits, b0, b1, b2, key):
    """Remove ``key``."""
    bits[b0 + (key >> 6)] &= ~bit(key & 63)
    if bits[b0 + (key >> 6)] == 0:
        bits[b1 + (key >> 12)] &= ~bit((key >> 6) & 63)
        if bits[b1 + (key >> 12)] == 0:
            bits[b2 + (key >> 18)] &= ~bit((key >> 12) & 63)


@njit(cache=True, inline="always")
def shifted(bits, w, sh):
    """The bits of word w from bit ``sh`` (a uint64, 0..63) on, then word
    w + 1's: 64 keys from the key 64 w + sh (no shift by 64, no branch)."""
    return (bits[w] >> sh) | ((bits[w + 1] << np.uint64(1)) << (np.uint64(63) - sh))


@njit(cache=True, inline="always")
def word(bits, b0, key):
    """The keys key..key+63 as a word (bit 0 is ``key``)."""
    return shifted(bits, b0 + (key >> 6), np.uint64(key & 63))


@njit(cache=True, inline="always")
def _above(b):
    """The bits above bit b (0..63): none above 63, the shift wrapping to 0."""
    return ~((bit(b) << np.uint64(1)) - np.uint64(1))


@njit(cache=True, inline="always")
def successor(bits, b0, b1, b2, w2, key):
    """The smallest key >= ``key`` in the set, or -1."""
    i0 = key >> 6
    if i0 >> 12 >= w2:
        return -1
    v = bits[b0 + i0] & ~(bit(key & 63) - np.uint64(1))
    if v:
        return (i0 << 6) + low(v)
    i1 = i0 >> 6
    v = bits[b1 + i1] & _above(i0 & 63)
    if not v:
        i2 = i1 >> 6
        v = bits[b2 + i2] & _above(i1 & 63)
        while not v:
            i2 += 1
            if i2 >= w2:
                return -1
            v = bits[b2 + i2]
        i1 = (i2 << 6) + low(v)
        v = bits[b1 + i1]
    i0 = (i1 << 6) + low(v)
    return (i0 << 6) + low(bits[b0 + i0])


@njit(cache=True, inline="always")
def _upto(b):
    """Bits 0..b (b in 0..63)."""
    return ~np.uint64(0) >> np.uint64(63 - b)


@njit(cache=True, inline="always")
def predecessor(bits, b0, b1, b2, key):
    """The largest key <= ``key`` in the set, or -1."""
    if key < 0:
        return -1
    i0 = key >> 6
    v = bits[b0 + i0] & _upto(key & 63)
    if v:
        return (i0 << 6) + top(v)
    i1 = i0 >> 6
    v = bits[b1 + i1] & (_upto(i0 & 63) >> np.uint64(1))
    if not v:
        i2 = i1 >> 6
        v = bits[b2 + i2] & (_upto(i1 & 63) >> np.uint64(1))
        while not v:
            i2 -= 1
            if i2 < 0:
                return -1
            v = bits[b2 + i2]
        i1 = (i2 << 6) + top(v)
        v = bits[b1 + i1]
    i0 = (i1 << 6) + top(v)
    return (i0 << 6) + top(bits[b0 + i0])
