"""Rays: (a, b) takes k·a from pile 1 and k·b from pile 2, any k >= 1 that
stays non-negative (Linear Nimhoff rules; Wythoff's Nim is (1,0), (0,1),
(1,1)).

Canonical form: sorted, without duplicates, and without a ray that is a
multiple (k >= 2) of another, which adds no move.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from catalog.kinds.base import (
    ENGINES,
    Definition,
    DefinitionError,
    Kind,
    Vector,
    on_ray,
    orbits,
    steps_down,
    vectors,
)

#: Largest number of rays, and of single moves, in one definition.
MAX_RULES = 32
#: Largest component of a ray or a single move.
MAX_STEP = 1024
#: A kernel sweep keeps its vertical ray's classes in a column: at most this.
KERNEL_MAX_VERTICAL = 64

_WORDS = {
    (1, 0): "take any number of stones from pile 1",
    (0, 1): "take any number of stones from pile 2",
    (1, 1): "take the same number of stones from both piles",
}


def pairs(value: Any, name: str) -> list[Vector]:
    """Rays or single moves: at most :data:`MAX_RULES` pairs, none (0, 0)."""
    found = vectors(value, name, MAX_STEP)
    if len(found) > MAX_RULES:
        raise DefinitionError(f"{name}: more than {MAX_RULES} entries")
    for i, v in enumerate(found):
        if v == (0, 0):
            raise DefinitionError(f"{name}[{i}]: (0, 0) is not a move")
    return found


class Rays(Kind):
    name = "rays"
    field = "rays"
    restrictable = True
    summary = "take k·a from pile 1 and k·b from pile 2, any k ≥ 1"
    papers: ClassVar[tuple[str, ...]] = (
        "J. Hu, D. Sleator, J. Tsin, Wythoff's Nim with Finite Alterations, "
        "arXiv:2408.02851, section 6 (Linear Nimhoff)",
    )

    def parse(self, data: Mapping[str, Any], fields: dict[str, Any]) -> None:
        fields["rays"] = set(pairs(data.get("rays", []), "rays"))

    def reduce(self, fields: dict[str, Any]) -> None:
        rays = fields["rays"]
        primitive = {r for r in rays if not any(s != r and on_ray(r, s) for s in rays)}
        fields["rays"] = tuple(sorted(primitive))

    def present(self, game: Definition) -> bool:
        return bool(game.rays)

    def options(self, game: Definition, x: int, y: int) -> Iterator[Vector]:
        for a, b in game.rays:
            # (x - k·a, y - k·b) for k = 1, 2, … while both are >= 0
            yield from zip(steps_down(x, a), steps_down(y, b), strict=False)

    def engines(self, game: Definition) -> frozenset[str]:
        vertical = [b for a, b in game.rays if a == 0]
        out = set(ENGINES)
        if not (len(vertical) == 1 and vertical[0] <= KERNEL_MAX_VERTICAL):
            out.discard("kernel")
        return frozenset(out)

    def describe(self, game: Definition) -> list[str]:
        return [
            _WORDS.get((a, b), f"take {a}k from pile 1 and {b}k from pile 2, k ≥ 1")
            for a, b in game.rays
        ]

    def rules(self, game: Definition, symmetric: bool) -> int:
        return orbits(game.rays, symmetric)
