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
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from catalog.games.quadratic import Quadratic
from catalog.inputs import (
    MAX_DEFINITION_LENGTH,
    BadValue,
    read_json,
)
from catalog.kinds import engines, present
from catalog.kinds import parse as parse_kinds
from catalog.kinds.alter import MAX_ALTER_CELLS, MAX_ALTER_COORD
from catalog.kinds.base import DefinitionError, Vector, is_int, on_ray
from catalog.kinds.cones import Cone
from catalog.kinds.rays import MAX_RULES, MAX_STEP
from catalog.kinds.star import Names, resolve

#: Largest ``n`` that :func:`catalog.p_positions` accepts.
MAX_N = 100_000_000

__all__ = [
    "MAX_ALTER_CELLS",
    "MAX_ALTER_COORD",
    "MAX_N",
    "MAX_RULES",
    "MAX_STEP",
    "Cone",
    "Definition",
    "DefinitionError",
    "Vector",
    "canonicalize",
    "check_n",
    "digest",
    "lcm",
    "on_ray",
    "parse_json",
]


@dataclass(frozen=True)
class Definition:
    """A validated game in canonical form.

    Attributes
    ----------
    rays, moves : tuple of (a, b)
        Sorted, without duplicates; moves already contained in a ray and rays
        that are multiples of another ray are dropped.
    special : tuple of str
        Sorted names of :data:`catalog.kinds.SPECIAL_RULES`.
    forced_p, forced_n : tuple of (x, y)
        Sorted forced cells.
    cones : tuple of Cone
        Canonical cones (:mod:`catalog.kinds.cones`).
    block : int
        Options the mover may block (:mod:`catalog.kinds.block`); 0: none.
    beatty : Quadratic or None
        The α of the Beatty moves (:mod:`catalog.kinds.beatty`).
    star : Definition or None
        The game G whose non-zero P-positions are moves
        (:mod:`catalog.kinds.star`).
    """

    rays: tuple[Vector, ...]
    moves: tuple[Vector, ...] = ()
    special: tuple[str, ...] = ()
    forced_p: tuple[Vector, ...] = ()
    forced_n: tuple[Vector, ...] = ()
    cones: tuple[Cone, ...] = ()
    block: int = 0
    beatty: Quadratic | None = None
    star: Definition | None = None

    @property
    def altered(self) -> bool:
        return bool(self.forced_p or self.forced_n)

    @cached_property
    def kinds(self) -> frozenset[str]:
        """The names of the rule kinds the game uses (:mod:`catalog.kinds`)."""
        return frozenset(k.name for k in present(self))

    def beyond(self, *names: str) -> frozenset[str]:
        """The kinds the game uses besides ``names``: ``game.beyond("rays")``
        is empty for a Linear Nimhoff game (rays and nothing else)."""
        return self.kinds - set(names)

    def rules(self) -> Definition:
        """The same game without its alterations."""
        return Definition(
            self.rays,
            self.moves,
            self.special,
            cones=self.cones,
            block=self.block,
            beatty=self.beatty,
            star=self.star,
        )

    def to_json(self) -> dict[str, Any]:
        """The canonical JSON object (lists, not tuples)."""
        return {**self.rules_json(), "alter": self.alteration_json()}

    def rules_json(self) -> dict[str, Any]:
        # The keys of the first kinds are always written; a later kind's only
        # when it is used, so that the games defined before it keep their keys.
        out: dict[str, Any] = {
            "rays": [list(v) for v in self.rays],
            "moves": [list(v) for v in self.moves],
            "special": list(self.special),
        }
        if self.cones:
            out["cones"] = [c.to_json() for c in self.cones]
        if self.block:
            out["block"] = self.block
        if self.beatty is not None:
            out["beatty"] = str(self.beatty)
        if self.star is not None:
            out["star"] = self.star.to_json()
        return out

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


def parse_json(text: str, names: Names | None = None) -> Definition:
    """Parse a definition given as JSON text (as the CLI receives it).

    Read by :func:`catalog.inputs.read_json`: at most
    :data:`~catalog.inputs.MAX_DEFINITION_LENGTH` characters, no NUL, arrays
    and objects nested at most :data:`~catalog.inputs.MAX_JSON_DEPTH` deep
    (counted before the decoder, which recurses once per level, runs), and a
    key given twice is an error, not "the last one wins". ``names`` resolves
    the entry IDs and labels a ``star`` may give (:func:`canonicalize`).
    """
    try:
        data = read_json(text, "definition", MAX_DEFINITION_LENGTH)
    except BadValue as exc:
        raise DefinitionError(str(exc)) from None
    return canonicalize(data, names)


def canonicalize(
    data: Mapping[str, Any] | Definition, names: Names | None = None
) -> Definition:
    """Validate a definition and return its canonical form.

    ``names`` turns an entry ID or label that a ``star`` gives into that
    entry's definition (the store's lookup; without it such a ``star`` is
    an error saying so): the canonical form holds G written out.

    Raises
    ------
    DefinitionError
        When a field is missing its shape, a number is negative or too large,
        a ray is (0, 0), a special rule is unknown, a cone holds no move, a
        cell is forced both P and N, or the game of a ``star`` is not a game
        (``star.rays[0]: …``). The message names the field. Each kind checks
        its own field (:mod:`catalog.kinds`).
    """
    if isinstance(data, Definition):
        return data
    if not isinstance(data, Mapping):
        raise DefinitionError("definition must be a JSON object")
    fields = parse_kinds(resolve(data, names))
    if fields["star"] is not None:
        try:
            fields["star"] = canonicalize(fields["star"])
        except DefinitionError as exc:
            raise DefinitionError(_inside("star", str(exc))) from None
    game = Definition(**fields)
    if not engines(game):
        names_ = ", ".join(sorted(game.kinds))
        raise DefinitionError(f"definition: {names_} cannot be combined yet")
    return game


def _inside(field: str, message: str) -> str:
    """An error of the game inside ``field``, named from there:
    ``rays[0]: …`` becomes ``star.rays[0]: …``."""
    if message.startswith("definition"):
        return f"{field}: {message.removeprefix('definition').lstrip(': ')}"
    return f"{field}.{message}"


def check_n(n: Any, name: str = "n", maximum: int = MAX_N) -> int:
    """Validate a bound ``n`` (0 <= n <= maximum) and return it."""
    if not is_int(n):
        raise DefinitionError(f"{name}: must be an integer")
    if n < 0:
        raise DefinitionError(f"{name}: must be non-negative")
    if n > maximum:
        raise DefinitionError(f"{name}: must be at most {maximum}")
    return n


def lcm(values: list[int]) -> int:
    return math.lcm(*values) if values else 1
