"""The rule kinds of a definition, one module each, and their registry.

A definition is read by asking every kind to parse its part
(:meth:`~catalog.kinds.base.Kind.parse`), then to bring the whole to its
canonical form (:meth:`~catalog.kinds.base.Kind.reduce`, in
:data:`REDUCING` order: a cone can turn out to be a ray, which can swallow a
single move). The engine asks :func:`engines` which sweeps can compute a
game; the reference asks each kind for its options; the pages ask each kind
to describe itself. A new kind is a new module and a line here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from catalog.kinds.alter import Alteration
from catalog.kinds.base import ENGINES, Definition, DefinitionError, Kind, Vector
from catalog.kinds.beatty import Beatty
from catalog.kinds.block import Block
from catalog.kinds.cones import Cones
from catalog.kinds.euclid import Euclid
from catalog.kinds.ho import HoExtension, HoRestriction, Special
from catalog.kinds.moves import Moves
from catalog.kinds.rays import Rays
from catalog.kinds.star import Star

_RAYS, _MOVES, _CONES = Rays(), Moves(), Cones()
#: Every kind, in the order a definition's fields are checked.
KINDS: tuple[Kind, ...] = (
    _RAYS,
    _MOVES,
    HoRestriction(),
    HoExtension(),
    Euclid(),
    Alteration(),
    _CONES,
    Beatty(),
    Star(lambda game, n: label(game, n), lambda game: present(game)),
    Block(),
)
#: The kinds whose :meth:`~Kind.reduce` makes the form canonical, in order.
REDUCING: tuple[Kind, ...] = (_CONES, _RAYS, _MOVES)
#: The named rules of ``special``, by name.
SPECIAL_RULES: dict[str, Special] = {k.name: k for k in KINDS if isinstance(k, Special)}
#: The keys a definition may have.
FIELDS = frozenset(k.field for k in KINDS)


def by_name(name: str) -> Kind:
    return next(k for k in KINDS if k.name == name)


def parse(data: Mapping[str, Any]) -> dict[str, Any]:
    """The canonical keyword arguments of a
    :class:`~catalog.games.definition.Definition` for ``data``."""
    unknown = set(data) - FIELDS
    if unknown:
        raise DefinitionError(f"definition: unknown field {sorted(unknown)[0]!r}")
    fields: dict[str, Any] = {"special": _special(data.get("special", []))}
    for kind in KINDS:
        kind.parse(data, fields)
    for kind in REDUCING:
        kind.reduce(fields)
    return fields


def _special(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
        raise DefinitionError("special: must be a list of rule names")
    for s in value:
        if s not in SPECIAL_RULES:
            known = ", ".join(sorted(SPECIAL_RULES))
            raise DefinitionError(f"special: unknown rule {s!r} (known: {known})")
    return tuple(sorted(set(value)))


def present(game: Definition) -> tuple[Kind, ...]:
    """The kinds ``game`` uses, in registry order."""
    return tuple(k for k in KINDS if k.present(game))


def engines(game: Definition) -> frozenset[str]:
    """The engines every kind of ``game`` can be computed by."""
    out = frozenset(ENGINES)
    for kind in present(game):
        out &= kind.engines(game)
    return out


def size(game: Definition, symmetric: bool = False) -> int:
    """The number of rules of ``game``, as identify counts its proposals'
    ``size``: each kind's :meth:`~catalog.kinds.base.Kind.rules` (a ray, a
    single move, a cone, a forced cell, a named rule, the Beatty moves of
    one α: one each; ⋆ of G: G's rules). With ``symmetric`` a rule and its
    mirror image count one together.

    >>> from catalog.games.definition import canonicalize
    >>> size(canonicalize({"rays": [[1, 0], [0, 1], [1, 1]]}), symmetric=True)
    2
    >>> size(canonicalize({"star": {"beatty": "sqrt(2)"}}), symmetric=True)
    1
    """
    return sum(kind.rules(game, symmetric) for kind in present(game))


def label(game: Definition, n: int) -> set[Vector]:
    """The P-positions of ``game`` with x, y < n, labelled literally: P iff
    forced P, or not forced N and at most ``block`` (0: none) of the
    options are P. Every option of (x, y) has x' <= x and y' <= y, so
    labelling the box column by column, bottom-up, only ever looks at
    labelled cells. The reference every engine is tested against
    (:mod:`catalog.compute.reference`); the ⋆-operator's options read it."""
    forced_p, forced_n = set(game.forced_p), set(game.forced_n)
    block = game.block
    p: set[Vector] = set()
    for x in range(n):
        for y in range(n):
            if (x, y) in forced_p:
                p.add((x, y))
            elif (x, y) in forced_n:
                continue
            elif block == 0:
                if p.isdisjoint(options(game, x, y)):
                    p.add((x, y))
            elif len(p.intersection(options(game, x, y))) <= block:
                p.add((x, y))
    return p


def options(game: Definition, x: int, y: int) -> Iterator[Vector]:
    """Every position reachable from (x, y), literally (duplicates allowed):
    the options of each kind, less what a restricting rule forbids."""
    kinds = present(game)
    restricting = [k for k in kinds if isinstance(k, Special) and k.restricts]
    for kind in kinds:
        if not (restricting and kind.restrictable):
            yield from kind.options(game, x, y)
            continue
        for option in kind.options(game, x, y):
            dx, dy = x - option[0], y - option[1]
            if not any(r.forbids(x, y, dx, dy) for r in restricting):
                yield option


__all__ = [
    "ENGINES",
    "FIELDS",
    "KINDS",
    "SPECIAL_RULES",
    "DefinitionError",
    "Kind",
    "by_name",
    "engines",
    "label",
    "options",
    "parse",
    "present",
    "size",
]
