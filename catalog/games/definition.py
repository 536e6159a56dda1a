"""Game definitions: validation and the canonical form.

A definition is the JSON object of the contract::

    {"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[1, 2], [2, 1]],
     "special": [], "alter": {"P": [[0, 0]], "N": [[1, 1]]}}

:func:`canonicalize` validates one and returns a :class:`Definition`, a frozen
value whose :attr:`~Definition.key` is equal for equal games: definitions that
differ only in the order of their lists, in duplicates, in boxes written out
as cells, or in moves and rays that another ray already contains describe the
same game and get the same key.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from catalog.errors import BadInput
from catalog.games.special import SPECIAL_RULES
from catalog.inputs import (
    MAX_DEFINITION_DEPTH,
    MAX_DEFINITION_LENGTH,
    MAX_INT_DIGITS,
    check_text,
)

#: Largest ``n`` that :func:`catalog.p_positions` accepts.
MAX_N = 100_000_000
#: Largest number of rays, and of single moves, in one definition.
MAX_RULES = 32
#: Largest component of a ray or a single move.
MAX_STEP = 1024
#: Largest coordinate of a forced cell.
MAX_ALTER_COORD = 1_000_000
#: Largest number of forced cells (P and N together, after boxes are expanded).
MAX_ALTER_CELLS = 250_000

Vector = tuple[int, int]


class DefinitionError(BadInput):
    """A definition, or an argument that goes with it, makes no sense.

    The message names the offending field, e.g. ``rays[2]: (0, 0) is not a ray``.
    """


@dataclass(frozen=True)
class Definition:
    """A validated game in canonical form.

    Attributes
    ----------
    rays, moves : tuple of (a, b)
        Sorted, without duplicates; moves already contained in a ray and rays
        that are multiples of another ray are dropped.
    special : tuple of str
        Sorted names of :data:`catalog.games.special.SPECIAL_RULES`.
    forced_p, forced_n : tuple of (x, y)
        Sorted forced cells.
    """

    rays: tuple[Vector, ...]
    moves: tuple[Vector, ...] = ()
    special: tuple[str, ...] = ()
    forced_p: tuple[Vector, ...] = ()
    forced_n: tuple[Vector, ...] = ()

    @property
    def altered(self) -> bool:
        return bool(self.forced_p or self.forced_n)

    def rules(self) -> Definition:
        """The same game without its alterations."""
        return Definition(self.rays, self.moves, self.special)

    def to_json(self) -> dict[str, Any]:
        """The canonical JSON object (lists, not tuples)."""
        return {**self.rules_json(), "alter": self.alteration_json()}

    def rules_json(self) -> dict[str, Any]:
        return {
            "rays": [list(v) for v in self.rays],
            "moves": [list(v) for v in self.moves],
            "special": list(self.special),
        }

    def alteration_json(self) -> dict[str, Any]:
        return {
            "P": [list(c) for c in self.forced_p],
            "N": [list(c) for c in self.forced_n],
        }

    # The keys are computed once per definition: the fields are frozen.

    @cached_property
    def key(self) -> str:
        """SHA-256 of the canonical JSON: equal for equal games."""
        return digest(self.to_json())

    @cached_property
    def rules_key(self) -> str:
        return digest(self.rules_json())

    @cached_property
    def alteration_key(self) -> str:
        return digest(self.alteration_json())


def digest(data: Any) -> str:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def parse_json(text: str) -> Definition:
    """Parse a definition given as JSON text (as the CLI receives it).

    The text is checked before the parser sees it: at most
    :data:`~catalog.inputs.MAX_DEFINITION_LENGTH` characters, no NUL, and
    arrays and objects nested at most
    :data:`~catalog.inputs.MAX_DEFINITION_DEPTH` deep (the parser recurses
    once per level). A key given twice is an error, not "the last one wins".
    """
    check_text(text, "definition", MAX_DEFINITION_LENGTH)
    depth = _nesting(text)
    if depth > MAX_DEFINITION_DEPTH:
        raise DefinitionError(
            f"definition: nested {depth} levels deep (at most {MAX_DEFINITION_DEPTH})"
        )
    try:
        data = json.loads(text, object_pairs_hook=_unique_keys, parse_int=_json_int)
    except json.JSONDecodeError as exc:
        raise DefinitionError(f"definition is not valid JSON: {exc}") from None
    except ValueError as exc:  # from _unique_keys or _json_int
        raise DefinitionError(f"definition: {exc}") from None
    return canonicalize(data)


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)


def _nesting(text: str) -> int:
    """How deep arrays and objects nest in ``text``, strings left out (an
    unterminated string only makes the count larger; the parser refuses it
    anyway)."""
    codes = np.frombuffer(_STRING.sub("", text).encode(), dtype=np.uint8)
    steps = np.zeros(codes.size, dtype=np.int64)
    steps[(codes == ord("[")) | (codes == ord("{"))] = 1
    steps[(codes == ord("]")) | (codes == ord("}"))] = -1
    return int(np.cumsum(steps).max(initial=0))


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"a number has more than {MAX_INT_DIGITS} digits")
    return int(text)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise ValueError(f"key {key!r} given twice")
        data[key] = value
    return data


def canonicalize(data: Mapping[str, Any] | Definition) -> Definition:
    """Validate a definition and return its canonical form.

    Raises
    ------
    DefinitionError
        When a field is missing its shape, a number is negative or too large,
        a ray is (0, 0), a special rule is unknown, or a cell is forced both
        P and N. The message names the field.
    """
    if isinstance(data, Definition):
        return data
    if not isinstance(data, Mapping):
        raise DefinitionError("definition must be a JSON object")
    unknown = set(data) - {"rays", "moves", "special", "alter"}
    if unknown:
        raise DefinitionError(f"definition: unknown field {sorted(unknown)[0]!r}")
    rays = _vectors(data.get("rays", []), "rays", MAX_STEP)
    moves = _vectors(data.get("moves", []), "moves", MAX_STEP)
    for name, vectors in (("rays", rays), ("moves", moves)):
        if len(vectors) > MAX_RULES:
            raise DefinitionError(f"{name}: more than {MAX_RULES} entries")
        for i, v in enumerate(vectors):
            if v == (0, 0):
                raise DefinitionError(f"{name}[{i}]: (0, 0) is not a move")
    special = data.get("special", [])
    if not isinstance(special, list) or not all(isinstance(s, str) for s in special):
        raise DefinitionError("special: must be a list of rule names")
    for s in special:
        if s not in SPECIAL_RULES:
            known = ", ".join(sorted(SPECIAL_RULES))
            raise DefinitionError(f"special: unknown rule {s!r} (known: {known})")
    forced_p, forced_n = _alteration(data.get("alter", {}))

    ray_set = _primitive_rays(set(rays))
    move_set = {m for m in set(moves) if not any(_on_ray(m, r) for r in ray_set)}
    return Definition(
        rays=tuple(sorted(ray_set)),
        moves=tuple(sorted(move_set)),
        special=tuple(sorted(set(special))),
        forced_p=forced_p,
        forced_n=forced_n,
    )


def _on_ray(v: Vector, ray: Vector) -> bool:
    """Is ``v`` a positive multiple of ``ray``?"""
    a, b = ray
    x, y = v
    if a * y != b * x:
        return False
    k = x // a if a else y // b
    return k >= 1 and (k * a, k * b) == v


def _primitive_rays(rays: set[Vector]) -> set[Vector]:
    """Drop every ray that is a multiple (k >= 2) of another: it adds no move."""
    return {r for r in rays if not any(s != r and _on_ray(r, s) for s in rays)}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _vectors(value: Any, name: str, limit: int) -> list[Vector]:
    if not isinstance(value, list):
        raise DefinitionError(f"{name}: must be a list of [a, b] pairs")
    out = []
    for i, item in enumerate(value):
        if not (isinstance(item, list | tuple) and len(item) == 2):
            raise DefinitionError(f"{name}[{i}]: must be a pair [a, b]")
        a, b = item
        if not (_is_int(a) and _is_int(b)):
            raise DefinitionError(f"{name}[{i}]: components must be integers")
        if a < 0 or b < 0:
            raise DefinitionError(f"{name}[{i}]: components must be non-negative")
        if a > limit or b > limit:
            raise DefinitionError(f"{name}[{i}]: components must be at most {limit}")
        out.append((a, b))
    return out


def _alteration(alter: Any) -> tuple[tuple[Vector, ...], tuple[Vector, ...]]:
    if not isinstance(alter, Mapping):
        raise DefinitionError("alter: must be an object with P, N, P_boxes, N_boxes")
    unknown = set(alter) - {"P", "N", "P_boxes", "N_boxes"}
    if unknown:
        raise DefinitionError(f"alter: unknown field {sorted(unknown)[0]!r}")
    cells: dict[str, set[Vector]] = {}
    for label in ("P", "N"):
        found = set(_vectors(alter.get(label, []), f"alter.{label}", MAX_ALTER_COORD))
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
    if not all(_is_int(v) for v in box):
        raise DefinitionError(f"{name}: components must be integers")
    x0, y0, w, h = box
    if min(box) < 0:
        raise DefinitionError(f"{name}: components must be non-negative")
    if w * h > MAX_ALTER_CELLS:
        raise DefinitionError(f"{name}: more than {MAX_ALTER_CELLS} cells")
    if x0 + w - 1 > MAX_ALTER_COORD or y0 + h - 1 > MAX_ALTER_COORD:
        raise DefinitionError(f"{name}: cells must lie below {MAX_ALTER_COORD + 1}")
    return {(x, y) for x in range(x0, x0 + w) for y in range(y0, y0 + h)}


def check_n(n: Any, name: str = "n", maximum: int = MAX_N) -> int:
    """Validate a bound ``n`` (0 <= n <= maximum) and return it."""
    if not _is_int(n):
        raise DefinitionError(f"{name}: must be an integer")
    if n < 0:
        raise DefinitionError(f"{name}: must be non-negative")
    if n > maximum:
        raise DefinitionError(f"{name}: must be at most {maximum}")
    return n


def lcm(values: list[int]) -> int:
    return math.lcm(*values) if values else 1
