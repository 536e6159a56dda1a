"""Outcomes of an altered Wythoff game at any distance, in O(log x) steps.

After saturation (column t, Hu–Sleator–Tsin Lemma 2) the rows from l_t on
read R = S · w(S) · w²(S) · … with w: 0 → 001, 1 → 01 (Lemma 3, section 4;
see :mod:`catalog.compute.altered`). Write L = |S|, Z for the zeros of S and
W = w(R) = R[L:]. Every symbol R[i] contributes its image w(R[i]) to W, and
every zero of W is one column after t:

- the zero at W[p] followed by a 1 is an upper P-position, in the row of
  that 1: (column, l_t + L + p + 1);
- the first zero of a w(0) = 001 is the lower P-position of that symbol,
  in row l_t + i, where i counts the images completed before it.

So the P-position of column x > t, the one of a row, and the one of a
diagonal come from three operations on R: the bit at an index, the zeros
before an index (rank) and the index of the m-th zero (select). R is the
concatenation of the blocks w^k(S), and w^k(b) = w^{k-1}(w(b)), so each
operation walks down the blocks and the images of single bits: about
log_φ²(x) levels, plus a binary search in S at the top. Python integers
keep it exact far past 64 bits.

Three facts tie the rest to the saturated head (every P-position in the
columns up to t): rows below l_t, rows of S marked 1, and the diagonals in
[l_t − t, u_t − t] are used by the head and get no later P-position; every
other row and diagonal gets exactly one. The m-th new lower P-position lies
on diagonal l_t − t − 1 − m and the m-th upper one on u_t − t + 1 + m.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable

import numpy as np

from catalog.compute.altered import Saturation

Cell = tuple[int, int]


class Stream:
    """R = S · w(S) · w²(S) · …, indexed without being written out."""

    def __init__(self, bits: Iterable[int]) -> None:
        self.bits = [int(b) for b in bits]
        if not self.bits:
            raise ValueError("the saturated bitstring is empty")
        #: zeros[j]: the zeros among the first j symbols of S.
        self.zeros = [0]
        for b in self.bits:
            self.zeros.append(self.zeros[-1] + (b == 0))
        # Per level k: |w^k(0)|, |w^k(1)|, zeros of w^k(0), zeros of w^k(1).
        self.len0, self.len1, self.zer0, self.zer1 = [1], [1], [1], [0]
        # Per block k: where w^k(S) starts in R and the zeros before it.
        self.start, self.zeros_before = [0], [0]
        self._grow()

    def _grow(self) -> None:
        """Add one level: w^k(0) = w^{k-1}(0)² w^{k-1}(1), w^k(1) = w^{k-1}(01)."""
        k = len(self.start) - 1
        length, zeros = self._block(k)
        self.start.append(self.start[k] + length)
        self.zeros_before.append(self.zeros_before[k] + zeros)
        l0, l1, z0, z1 = self.len0[k], self.len1[k], self.zer0[k], self.zer1[k]
        self.len0.append(2 * l0 + l1)
        self.len1.append(l0 + l1)
        self.zer0.append(2 * z0 + z1)
        self.zer1.append(z0 + z1)

    def _block(self, k: int) -> tuple[int, int]:
        """(length, zeros) of w^k(S)."""
        z = self.zeros[-1]
        o = len(self.bits) - z
        return (
            z * self.len0[k] + o * self.len1[k],
            z * self.zer0[k] + o * self.zer1[k],
        )

    def _prefix(self, k: int, j: int, measure: str) -> int:
        """Length (or zeros) of w^k(S[:j])."""
        z = self.zeros[j]
        o = j - z
        if measure == "length":
            return z * self.len0[k] + o * self.len1[k]
        return z * self.zer0[k] + o * self.zer1[k]

    def _locate(self, value: int, measure: str) -> tuple[int, int, int, int]:
        """(level k, symbol j of S, the bit S[j], remainder) for a position
        (measure "length") or a zero's rank (measure "zeros") in R."""
        table = self.start if measure == "length" else self.zeros_before
        while table[-1] <= value:
            self._grow()
        k = bisect_right(table, value) - 1
        value -= table[k]
        j = bisect_right(
            range(len(self.bits) + 1), value, key=lambda i: self._prefix(k, i, measure)
        )
        j -= 1
        return k, j, self.bits[j], value - self._prefix(k, j, measure)

    def _descend(
        self, k: int, bit: int, rest: int, measure: str
    ) -> tuple[int, int, int]:
        """Walk from w^k(bit) down to the single bit at ``rest`` (a position, or
        a zero's rank, by ``measure``): w^k(b) is w^(k-1) of the bits of w(b).
        Returns (that bit, the length and the zeros skipped on the way)."""
        skipped_length = skipped_zeros = 0
        while k > 0:
            k -= 1
            for child in (0, 0, 1) if bit == 0 else (0, 1):
                length = self.len0[k] if child == 0 else self.len1[k]
                zeros = self.zer0[k] if child == 0 else self.zer1[k]
                if rest < (length if measure == "length" else zeros):
                    bit = child
                    break
                rest -= length if measure == "length" else zeros
                skipped_length += length
                skipped_zeros += zeros
        return bit, skipped_length, skipped_zeros

    def bit(self, q: int) -> int:
        """R[q]."""
        k, _, bit, rest = self._locate(q, "length")
        return self._descend(k, bit, rest, "length")[0]

    def rank0(self, q: int) -> int:
        """The zeros in R[:q]."""
        k, j, bit, rest = self._locate(q, "length")
        before = self.zeros_before[k] + self._prefix(k, j, "zeros")
        return before + self._descend(k, bit, rest, "length")[2]

    def select0(self, m: int) -> int:
        """The index in R of its m-th zero (m = 0, 1, …)."""
        k, j, bit, rest = self._locate(m, "zeros")
        before = self.start[k] + self._prefix(k, j, "length")
        return before + self._descend(k, bit, rest, "zeros")[1]


class FarOut:
    """Every P-position of a saturated altered Wythoff game, on request."""

    def __init__(self, sat: Saturation) -> None:
        self.t, self.low, self.high = sat.column, sat.low, sat.high
        self.stream = Stream(sat.bits.tolist())
        self.size = len(self.stream.bits)
        self.head_zeros = self.stream.zeros[-1]
        # The head, indexed three ways by sorted keys (numpy, not dicts: an
        # alteration can reach column 10^6).
        head = np.asarray(sat.positions, dtype=np.int64)
        self.head = head
        self._lines = {
            name: (keys[order], order)
            for name, keys in (
                ("column", head[:, 0]),
                ("row", head[:, 1]),
                ("diagonal", head[:, 1] - head[:, 0]),
            )
            for order in [np.argsort(keys, kind="stable")]
        }

    def _head(self, line: str, key: int, coordinate: int) -> list[int]:
        """The head's P-positions on one line, as x (coordinate 0) or y (1)."""
        keys, order = self._lines[line]
        lo, hi = np.searchsorted(keys, [key, key + 1])
        return sorted(self.head[order[lo:hi], coordinate].tolist())

    def column(self, x: int) -> list[int]:
        """The rows of the P-positions in column x."""
        if x <= self.t:
            return self._head("column", x, 1)
        j = x - self.t - 1  # the j-th zero of W
        p = self.stream.select0(self.head_zeros + j)
        if self.stream.bit(p + 1) == 1:
            return [self.low + p + 1]
        return [self.low + p - self.size - j]

    def row(self, y: int) -> list[int]:
        """The columns of the P-positions in row y."""
        q = y - self.low
        if q < 0 or (q < self.size and self.stream.bits[q] == 1):
            return self._head("row", y, 0)
        s = self.stream
        if s.bit(q) == 0:  # still free: symbol q gives it a lower P-position
            return [self.t + 1 + q + s.rank0(q)]
        return [self.t + 1 + s.rank0(q - 1) - self.head_zeros]

    def diagonal(self, k: int) -> list[int]:
        """The columns of the P-positions on diagonal y − x = k."""
        if self.low - self.t <= k <= self.high - self.t:
            return self._head("diagonal", k, 0)
        s = self.stream
        if k < self.low - self.t:
            m = self.low - self.t - 1 - k
            row = self.low + s.select0(m)
        else:
            m = k - (self.high - self.t + 1)
            row = self.low + self.size + 2 * (m + 1) + s.rank0(m + 1) - 1
        return [row - k]

    def is_p(self, x: int, y: int) -> bool:
        return y in self.column(x)

    def winning_move(self, x: int, y: int) -> Cell | None:
        """A move from (x, y) to a P-position, if there is one."""
        below = [r for r in self.column(x) if r < y]
        if below:
            return (x, below[0])
        left = [c for c in self.row(y) if c < x]
        if left:
            return (left[0], y)
        back = [c for c in self.diagonal(y - x) if c < x]
        if back:
            return (back[0], back[0] + y - x)
        return None
