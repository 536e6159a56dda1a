"""Euclid's game (Cole and Davie 1969): from (x, y) with 0 < y <= x,
subtract any positive multiple of y from x, leaving it >= 0, and the mirror;
a position with an empty pile is terminal. Written ``"special": ["euclid"]``.

Its P-positions are the positions with an empty pile and those whose piles
differ with ratio below the golden ratio φ (Cole–Davie; Nivasch, "More on
the Sprague–Grundy function for Wythoff's game" and "The Sprague-Grundy
function of the game Euclid", Discrete Math. 306 (2006)).
"""

from __future__ import annotations

from collections.abc import Iterator

from catalog.kinds.base import Definition, Vector
from catalog.kinds.ho import Special


class Euclid(Special):
    name = "euclid"
    summary = (
        "subtract a positive multiple of the smaller pile from the larger, "
        "leaving it ≥ 0 (Euclid's game)"
    )
    papers = (
        "A. J. Cole, A. J. T. Davie, A game based on the Euclidean algorithm "
        "and a winning strategy for it, Math. Gaz. 53 (1969)",
        "G. Nivasch, The Sprague-Grundy function of the game Euclid, "
        "Discrete Math. 306 (2006)",
    )
    page = "kinds/euclid.md"

    def options(self, game: Definition, x: int, y: int) -> Iterator[Vector]:
        if 0 < y <= x:
            for rest in range(x - y, -1, -y):
                yield rest, y
        if 0 < x <= y:
            for rest in range(y - x, -1, -x):
                yield x, rest

    def engines(self, game: Definition) -> frozenset[str]:
        return frozenset({"dense"})
