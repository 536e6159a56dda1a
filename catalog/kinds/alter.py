"""Alterations: finite sets of positions whose label is forced to P or to N
and never recomputed (Hu, Sleator and Tsin, "Wythoff's Nim with Finite
Alterations", arXiv:2408.02851). Inputs may give ``P_boxes``/``N_boxes``
as ``[x0, y0, width, height]``, expanded to cells.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from catalog.kinds.base import (
    ENGINES,
    Definition,
    DefinitionError,
    Kind,
    Vector,
    is_int,
    orbits,
    vectors,
)

#: Largest coordinate of a forced cell.
MAX_ALTER_COORD = 1_000_000
#: Largest number of forced cells (P and N together, after boxes are expanded).
MAX_ALTER_CELLS = 250_000


class Alteration(Kind):
    name = "alter"
    field = "alter"
    summary = "positions forced to P or to N"
    papers = (
        "J. Hu, D. Sleator, J. Tsin, Wythoff's Nim with Finite Alterations, "
        "arXiv:2408.02851",
    )
    no_grundy = (
        "alter: an altered game fixes only P and N, so its Grundy values "
        "are not defined"
    )

    def parse(self, data: Mapping[str, Any], fields: dict[str, Any]) -> None:
        fields["forced_p"], fields["forced_n"] = _alteration(data.get("alter", {}))

    def present(self, game: Definition) -> bool:
        return bool(game.forced_p or game.forced_n)

    def engines(self, game: Definition) -> frozenset[str]:
        return frozenset(ENGINES) - {"closed"}

    def rules(self, game: Definition, symmetric: bool) -> int:
        """Each forced cell (with its mirror image) is one."""
        return orbits(game.forced_p, symmetric) + orbits(game.forced_n, symmetric)


def _alteration(alter: Any) -> tuple[tuple[Vector, ...], tuple[Vector, ...]]:
    if not isinstance(alter, Mapping):
        raise DefinitionError("alter: must be an object with P, N, P_boxes, N_boxes")
    unknown = set(alter) - {"P", "N", "P_boxes", "N_boxes"}
    if unknown:
        raise DefinitionError(f"alter: unknown field {sorted(unknown)[0]!r}")
    cells: dict[str, set[Vector]] = {}
    for label in ("P", "N"):
        found = set(vectors(alter.get(label, []), f"alter.{label}", MAX_ALTER_COORD))
        boxes = alter.get(f"{label}_boxes", [])
        if not isinstance(boxes, list):
            raise DefinitionError(f"alter.{label}_boxes: must be a list of boxes")
        for i, box in enumerate(boxes):
            found |= _box_cells(box, f"alter.{label}_boxes[{i}]")
            if len(found) > MAX_ALTER_CELLS:
                break
        if len(found) > MAX_ALTER_CELLS:
            raise DefinitionError(
                f"alter.{label}: more than {MAX_ALTER_CELLS} forced cells"
            )
        cells[label] = found
    if len(cells["P"]) + len(cells["N"]) > MAX_ALTER_CELLS:
        raise DefinitionError(f"alter: more than {MAX_ALTER_CELLS} forced cells")
    both = cells["P"] & cells["N"]
    if both:
        x, y = min(both)
        raise DefinitionError(f"alter: cell ({x}, {y}) is forced both P and N")
    return tuple(sorted(cells["P"])), tuple(sorted(cells["N"]))


def _box_cells(box: Any, name: str) -> set[Vector]:
    if not (isinstance(box, list | tuple) and len(box) == 4):
        raise DefinitionError(f"{name}: must be [x0, y0, width, height]")
    if not all(is_int(v) for v in box):
        raise DefinitionError(f"{name}: components must be integers")
    x0, y0, w, h = box
    if min(box) < 0:
        raise DefinitionError(f"{name}: components must be non-negative")
    if w * h > MAX_ALTER_CELLS:
        raise DefinitionError(f"{name}: more than {MAX_ALTER_CELLS} cells")
    if x0 + w - 1 > MAX_ALTER_COORD or y0 + h - 1 > MAX_ALTER_COORD:
        raise DefinitionError(f"{name}: cells must lie below {MAX_ALTER_COORD + 1}")
    return {(x, y) for x in range(x0, x0 + w) for y in range(y0, y0 + h)}
