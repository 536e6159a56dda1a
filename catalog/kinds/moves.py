"""Single moves: (a, b) allows the one move (x, y) -> (x - a, y - b).
Nothing is mirrored implicitly (Maharaja Nim lists (1, 2) and (2, 1)).

Canonical form: sorted, without duplicates, without a move that a ray
already contains (:class:`catalog.kinds.rays.Rays` runs first).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from catalog.kinds.base import ENGINES, Definition, Kind, Vector, on_ray, orbits
from catalog.kinds.rays import pairs


class Moves(Kind):
    name = "moves"
    field = "moves"
    restrictable = True
    summary = "the single move (a, b): take a from pile 1 and b from pile 2"
    papers: ClassVar[tuple[str, ...]] = (
        "U. Larsson, J. Wästlund, From heaps of matches to the limits of "
        "computability, Electron. J. Combin. 20 (2013) (Maharaja Nim)",
    )

    def parse(self, data: Mapping[str, Any], fields: dict[str, Any]) -> None:
        fields["moves"] = set(pairs(data.get("moves", []), "moves"))

    def reduce(self, fields: dict[str, Any]) -> None:
        rays = fields["rays"]
        kept = {m for m in fields["moves"] if not any(on_ray(m, r) for r in rays)}
        fields["moves"] = tuple(sorted(kept))

    def present(self, game: Definition) -> bool:
        return bool(game.moves)

    def options(self, game: Definition, x: int, y: int) -> Iterator[Vector]:
        for a, b in game.moves:
            if x >= a and y >= b:
                yield x - a, y - b

    def engines(self, game: Definition) -> frozenset[str]:
        if any(a == 0 for a, _ in game.moves):  # a vertical move: not the kernel's
            return frozenset(ENGINES) - {"kernel"}
        return frozenset(ENGINES)

    def describe(self, game: Definition) -> list[str]:
        listed = ", ".join(f"({a}, {b})" for a, b in game.moves)
        return [f"make one of the single moves {listed} (take a, b stones)"]

    def rules(self, game: Definition, symmetric: bool) -> int:
        return orbits(game.moves, symmetric)
