"""Can the moves (I, J) and (J, I) be added to Wythoff's Nim, keeping its P-positions?

Exact for integers of any size, in O(1) integer square roots (no search).

Notation: φ = (1 + √5) / 2, A_n = ⌊nφ⌋ (:func:`catalog.compute.closed.lower`),
B_n = A_n + n = ⌊nφ²⌋. The P-positions of Wythoff's Nim are (A_n, B_n) and
(B_n, A_n), n ≥ 0.

From the slides (wythoff-extensions-restrictions-slides.md, "Extension
preserving set of P-positions"): adjoining moves never breaks absorption, so a
move (i, j), i < j, can be adjoined iff it joins no two P-positions, that is
iff it lies in neither

* D1 = {(A_n − A_m, B_n − B_m) : n > m ≥ 0} nor
* D2 = {(A_n − B_m, B_n − A_m) : n > m ≥ 0}.

D1 (the slides' Proposition): with s = n − m, A_{m+s} − A_m is ⌊sφ⌋ or
⌊sφ⌋ + 1, so D1 = {(A_s, B_s)} ∪ {(A_s + 1, B_s + 1)} over s > 0. The first is
reached from (A_s, B_s) to (0, 0); the second from (A_{B_s}, B_{B_s}) to
(A_{A_s}, B_{A_s}), by the identities A_{A_s} = B_s − 1 and A_{B_s} = A_s + B_s
(write A_s = sφ − f with 0 < f < 1; then A_s φ = B_s − f/φ and
B_s φ = A_s + B_s + f/φ², and 0 < f/φ, f/φ² < 1).

D2: a member has j − i = n + m = s and i = g(m) = A_{s−m} − A_m − m, with
0 ≤ m < s − m. Writing A_k = kφ − {kφ} and φ³ = 2φ + 1,

    g(m) = sφ − mφ³ + δ,  δ = {mφ} − {(s − m)φ} ∈ (−1, 1),

so g(m) = i forces m = (sφ − i)/φ³ + ε with |ε| < 1/φ³ < 0.24. Now
(sφ − i)/φ³ = (3j + i − √5(i + j)) / 2 =: X, and with r = ⌊√5(i + j)⌋ (√5(i + j)
is irrational) and t = 3j + i − r, X lies in ((t − 1)/2, t/2). The only integer
within 0.24 of that interval is t // 2, so m = t // 2 is the only candidate,
checked exactly.

>>> adjoinable(2, 3).adjoinable, adjoinable(2, 3).witness
(False, ((3, 5), (1, 2)))
>>> adjoinable(2, 4).reason
'keeps the P-positions'
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from math import isqrt
from typing import Any

from catalog.compute.closed import lower
from catalog.errors import BadInput, Unprocessable

ALREADY = "already a move of Wythoff's Nim"
JOINS = "joins two P-positions"
KEEPS = "keeps the P-positions"

Position = tuple[int, int]


@dataclass(frozen=True)
class Adjoinable:
    """The answer for the move pair (I, J), (J, I), in the order the user wrote.

    ``witness`` is ``None`` when the moves can be adjoined; otherwise it is a
    P-position and the P-position the move (I, J) reaches from it, so
    ``from − to == move`` coordinate by coordinate.
    """

    move: tuple[int, int]
    adjoinable: bool
    reason: str
    witness: tuple[Position, Position] | None = None

    def to_json(self) -> dict[str, Any]:
        """The contract's ``{"move", "adjoinable"}`` plus reason and witness."""
        witness = None
        if self.witness is not None:
            start, end = self.witness
            witness = {"from": list(start), "to": list(end)}
        return {
            "move": list(self.move),
            "adjoinable": self.adjoinable,
            "reason": self.reason,
            "witness": witness,
        }


def _pair(n: int) -> Position:
    """(A_n, B_n), the n-th Wythoff P-position."""
    a = lower(n)
    return a, a + n


def joined(i: int, j: int) -> tuple[Position, Position] | None:
    """Two P-positions (from, to) joined by the move (i, j), 0 < i < j, or None.

    None exactly when (i, j) is in neither D1 nor D2 (see the module notes).
    """
    s = j - i
    a_s = lower(s)
    if i == a_s:  # D1, m = 0: (A_s, B_s) -> (0, 0).
        return (a_s, a_s + s), (0, 0)
    if i == a_s + 1:  # D1 via A_{B_s} - A_{A_s} = A_s + 1.
        return _pair(a_s + s), _pair(a_s)
    m = (3 * j + i - isqrt(5 * (i + j) ** 2)) // 2  # the only D2 candidate
    if 0 <= m and 2 * m < s:
        n = s - m
        a_n, a_m = lower(n), lower(m)
        if a_n - a_m - m == i:  # D2: (A_n, B_n) -> (B_m, A_m).
            return (a_n, a_n + n), (a_m + m, a_m)
    return None


def adjoinable(i: int, j: int) -> Adjoinable:
    """Can the moves (i, j) and (j, i) be added to Wythoff's Nim, same P-positions?

    ``i`` and ``j`` are non-negative integers of any size, not both zero.
    Moves Wythoff's Nim already has, (k, 0), (0, k) and (k, k), are trivially
    adjoinable.
    """
    i, j = operator.index(i), operator.index(j)
    if i < 0 or j < 0:
        raise BadInput(f"a move takes a non-negative number of tokens: ({i}, {j})")
    if i == j == 0:
        raise Unprocessable("(0, 0) is not a move: it takes no tokens")
    move = (i, j)
    if i == 0 or j == 0 or i == j:
        return Adjoinable(move, True, ALREADY)
    found = joined(i, j) if i < j else joined(j, i)
    if found is None:
        return Adjoinable(move, True, KEEPS)
    start, end = found
    if i > j:
        start, end = (start[1], start[0]), (end[1], end[0])
    return Adjoinable(move, False, JOINS, (start, end))
