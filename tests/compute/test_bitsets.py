"""The three-level bitsets (catalog.compute.bitsets) against Python sets."""

from __future__ import annotations

import bisect
import random

import numpy as np
import pytest

from catalog.compute import bitsets, wedges
from catalog.compute.jit import njit


@njit
def _clear_all(bits, b0, b1, b2, keys):
    for k in keys:
        bitsets.clear(bits, b0, b1, b2, k)


@njit
def _successors(bits, b0, b1, b2, w2, keys):
    out = np.empty(keys.shape[0], dtype=np.int64)
    for i in range(keys.shape[0]):
        out[i] = bitsets.successor(bits, b0, b1, b2, w2, keys[i])
    return out


@njit
def _words(bits, b0, keys):
    out = np.empty(keys.shape[0], dtype=np.uint64)
    for i in range(keys.shape[0]):
        out[i] = bitsets.word(bits, b0, keys[i])
    return out


@pytest.mark.parametrize(
    ("size", "count", "keep"),
    [(1, 1, 1.0), (64, 64, 0.5), (5000, 4000, 0.01), (300_000, 300_000, 0.0002)],
)
def test_successor_and_word_agree_with_a_set(
    size: int, count: int, keep: float
) -> None:
    rng = random.Random(size)
    offsets, words = bitsets.layout(size, start=3)
    bits = np.zeros(words, dtype=np.uint64)
    bitsets.fill(bits, offsets, count)
    kept = {k for k in range(count) if rng.random() < keep}
    gone = np.array(sorted(set(range(count)) - kept), dtype=np.int64)
    b0, b1, b2, w2 = offsets
    _clear_all(bits, b0, b1, b2, gone)
    probes = sorted({0, size - 1, *kept, *(rng.randrange(size) for _ in range(500))})
    probes += [k + 1 for k in kept if k + 1 < size]
    keys = np.array(probes, dtype=np.int64)
    ordered = sorted(kept)
    expected = []
    for k in probes:
        i = np.searchsorted(ordered, k)
        expected.append(ordered[i] if i < len(ordered) else -1)
    assert _successors(bits, b0, b1, b2, w2, keys).tolist() == expected
    expected_words = [sum(1 << j for j in range(64) if k + j in kept) for k in probes]
    assert [int(w) for w in _words(bits, b0, keys)] == expected_words


def test_bitset_against_a_sorted_list() -> None:
    """predecessor / successor (and the cone sweep's successor above a key,
    below a size) after random inserts and clears, across the three levels."""
    rng = random.Random(3)
    size = 300_000
    w0 = (size + 63) >> 6
    w1 = (w0 + 63) >> 6
    w2 = (w1 + 63) >> 6
    bits = np.zeros(w0 + w1 + w2, dtype=np.uint64)
    b0, b1, b2 = 0, w0, w0 + w1
    keys: list[int] = []
    for step in range(4000):
        key = rng.choice([rng.randrange(size), rng.randrange(64), size - 1 - step % 9])
        i = bisect.bisect_left(keys, key)
        if i < len(keys) and keys[i] == key and rng.random() < 0.5:
            bitsets.clear(bits, b0, b1, b2, key)
            keys.pop(i)
        elif i == len(keys) or keys[i] != key:
            bitsets.insert(bits, b0, b1, b2, key)
            keys.insert(i, key)
        probe = rng.randrange(-1, size + 2)
        j = bisect.bisect_right(keys, probe)
        below = keys[j - 1] if j else -1
        above = keys[j] if j < len(keys) else -1
        assert bitsets.predecessor(bits, b0, b1, b2, min(probe, size - 1)) == below
        assert wedges._succ(bits, b0, b1, b2, w2, size, probe) == above
        if 0 <= probe < size:
            found = bitsets.successor(bits, b0, b1, b2, w2, probe)
            assert found == (probe if probe in keys else above)
