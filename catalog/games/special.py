"""Special rules: moves that are not the same at every position.

Both rules come from Nhan Bao Ho's variants of Wythoff's Nim, as quoted by
Duchêne, Fraenkel, Nowakowski and Rigo (J. Combin. Theory Ser. A 117 (2010)),
and both keep Wythoff's P-positions.

``ho-restriction``
    While the piles differ, the smaller pile may not be reduced alone: at
    (x, y) with x < y the moves (a, 0) are forbidden, with y < x the moves
    (0, b). This applies to every ray and single move of the definition.
``ho-extension``
    Also allowed: take k >= 1 from the smaller pile and l < k from the other
    (0 <= l < k). When the piles are equal either pile counts as the smaller.
"""

from __future__ import annotations

from collections.abc import Iterator

SPECIAL_RULES = {
    "ho-restriction": "while the piles differ, the smaller pile may not be "
    "reduced alone",
    "ho-extension": "also take k >= 1 from the smaller pile and l < k from the other",
}


def restricted(x: int, y: int, a: int, b: int) -> bool:
    """Does ho-restriction forbid the step (a, b) from (x, y)?"""
    if b == 0 and x < y:
        return True
    return a == 0 and y < x


def extension_options(x: int, y: int) -> Iterator[tuple[int, int]]:
    """Every position ho-extension reaches from (x, y), literally."""
    if x <= y:
        for k in range(1, x + 1):
            for ell in range(k):
                yield x - k, y - ell
    if y <= x:
        for k in range(1, y + 1):
            for ell in range(k):
                yield x - ell, y - k
