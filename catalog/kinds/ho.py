"""Nhan Bao Ho's two special rules, each of which keeps Wythoff's
P-positions (Ho, J. Combin. Theory Ser. A 2012; quoted by Duchêne,
Fraenkel, Nowakowski and Rigo, the slide on Ho's two variants).

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
from typing import ClassVar

from catalog.kinds.base import Definition, Kind, Vector

_PAPERS = (
    "N. B. Ho, Two variants of Wythoff's game preserving its P-positions, "
    "J. Combin. Theory Ser. A 119 (2012)",
    "E. Duchêne, A. S. Fraenkel, R. J. Nowakowski, M. Rigo, Extensions and "
    "restrictions of Wythoff's game preserving its P positions, J. Combin. "
    "Theory Ser. A 117 (2010)",
)


def restricted(x: int, y: int, a: int, b: int) -> bool:
    """Does ho-restriction forbid the step (a, b) from (x, y)?"""
    if b == 0 and x < y:
        return True
    return a == 0 and y < x


def extension_options(x: int, y: int) -> Iterator[Vector]:
    """Every position ho-extension reaches from (x, y), literally."""
    if x <= y:
        for k in range(1, x + 1):
            for ell in range(k):
                yield x - k, y - ell
    if y <= x:
        for k in range(1, y + 1):
            for ell in range(k):
                yield x - ell, y - k


class Special(Kind):
    """A named rule of the definition's ``special`` list."""

    field = "special"
    #: Wythoff's rays with this rule alone have exactly Wythoff's P-positions
    #: (a theorem): the closed form answers for it, far out too.
    keeps_wythoff: ClassVar[bool] = False
    #: Does the rule only remove options that rays and single moves give
    #: (:meth:`forbids`), rather than add its own?
    restricts: ClassVar[bool] = False

    @staticmethod
    def forbids(x: int, y: int, a: int, b: int) -> bool:
        return False

    def present(self, game: Definition) -> bool:
        return self.name in game.special

    def describe(self, game: Definition) -> list[str]:
        return [self.summary]


class HoRestriction(Special):
    name = "ho-restriction"
    summary = (
        "while the piles differ, the smaller pile may not be reduced alone "
        "(Ho's restriction)"
    )
    papers = _PAPERS
    page = "families/ho.md"
    keeps_wythoff = True
    restricts = True

    def engines(self, game: Definition) -> frozenset[str]:
        return frozenset({"general", "transposed", "box", "dense"})

    @staticmethod
    def forbids(x: int, y: int, a: int, b: int) -> bool:
        """Does the rule forbid the step (a, b) of a ray or move at (x, y)?"""
        return restricted(x, y, a, b)


class HoExtension(Special):
    name = "ho-extension"
    summary = (
        "also take k ≥ 1 stones from the smaller pile and fewer than k from the "
        "other (Ho's extension)"
    )
    papers = _PAPERS
    page = "families/ho.md"
    keeps_wythoff = True

    def options(self, game: Definition, x: int, y: int) -> Iterator[Vector]:
        return extension_options(x, y)

    def engines(self, game: Definition) -> frozenset[str]:
        return frozenset({"general", "transposed", "box"})
