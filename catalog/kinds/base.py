"""What every rule kind shares: the error it raises, the shape it has, and
the parsing of the pairs and integers definitions are written with.

A **kind** is one sort of move rule of a definition (rays, single moves,
cones, blocking, Ho's and Euclid's special rules, alterations). Each kind is
one module of :mod:`catalog.kinds` holding one :class:`Kind`: it parses and
canonicalises its part of a definition, says whether a game uses it, lists
its options literally (the reference every fast path is tested against),
names the engines that can compute it, describes itself in words and names
its paper. The engine, the store and the pages ask the kinds; none of them
tests for a kind's name.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from itertools import repeat
from typing import Any, ClassVar, Protocol

from catalog.errors import BadInput

Vector = tuple[int, int]


class Definition(Protocol):
    """What a kind reads of a game: the fields of
    :class:`catalog.games.definition.Definition`, which is built from the
    kinds (so the kinds name its shape, not its module)."""

    @property
    def rays(self) -> tuple[Vector, ...]: ...
    @property
    def moves(self) -> tuple[Vector, ...]: ...
    @property
    def special(self) -> tuple[str, ...]: ...
    @property
    def forced_p(self) -> tuple[Vector, ...]: ...
    @property
    def forced_n(self) -> tuple[Vector, ...]: ...
    @property
    def cones(self) -> tuple[Any, ...]: ...  # catalog.kinds.cones.Cone
    @property
    def block(self) -> int: ...
    @property
    def beatty(self) -> Any: ...  # catalog.games.quadratic.Quadratic | None
    @property
    def star(self) -> Any: ...  # the game G of G⋆, a Definition, or None
    @property
    def key(self) -> str: ...


#: The engines of :mod:`catalog.compute` (:func:`catalog.compute.modes.engine`
#: picks the first whose every kind agrees, in this order).
ENGINES = (
    "closed",  # Wythoff's Nim itself: the closed form
    "altered",  # altered Wythoff: the sweep, then Hu-Sleator-Tsin's update
    "kernel",  # one vertical ray: the compiled column sweep (kernel.py)
    "cones",  # cone games with both Nim rays: the sparse sweep (conesweep.py)
    # blocking games with both Nim rays, other rays, single moves and
    # alterations: the sparse sweep of at most b + 1 a column (blocksweep.py)
    "blocking",
    "general",  # several vertical rays, Ho's rules (special_kernel.py)
    "transposed",  # a horizontal ray but no vertical one, through its transpose
    "box",  # neither ray: the general sweep in a box
    "dense",  # any rule: counts of P options cell by cell in a box (dense.py)
    "subtraction",  # invariant moves given as a set: bitset sums (subtraction.py)
)


class DefinitionError(BadInput):
    """A definition, or an argument that goes with it, makes no sense.

    The message names the offending field, e.g. ``rays[2]: (0, 0) is not a ray``.
    """


class Kind:
    """One kind of move rule. Subclasses set the class attributes and
    override what applies to them."""

    #: The kind's name: its key in a definition, or its name in ``special``.
    name: ClassVar[str]
    #: The key of the definition that holds it (``special`` for named rules).
    field: ClassVar[str]
    #: One line: what the rule allows, for lists and help.
    summary: ClassVar[str]
    #: The papers that define or solve it, as the docs cite them.
    papers: ClassVar[tuple[str, ...]] = ()
    #: Its docs page under docs/ (a path relative to it).
    page: ClassVar[str] = "definitions.md"
    #: Why Sprague-Grundy values are not defined for games with this rule
    #: (a one-line error naming the field), or None when they are.
    no_grundy: ClassVar[str | None] = None
    #: Do restricting rules (Ho's restriction) apply to its moves?
    restrictable: ClassVar[bool] = False
    #: Does :meth:`describe` give whole sentences (a rule about outcomes),
    #: rather than phrases that follow "A move may"?
    sentences: ClassVar[bool] = False

    def parse(self, data: Mapping[str, Any], fields: dict[str, Any]) -> None:
        """Validate this kind's part of ``data`` into ``fields`` (the
        :class:`~catalog.games.definition.Definition`'s keyword arguments)."""

    def reduce(self, fields: dict[str, Any]) -> None:
        """Bring ``fields`` to the canonical form where this kind makes
        another rule redundant (a move on a ray, a ray inside a cone). Runs
        once every kind has parsed, in the registry's order."""

    def present(self, game: Definition) -> bool:
        raise NotImplementedError

    def options(self, game: Definition, x: int, y: int) -> Iterator[Vector]:
        """Every position this rule reaches from (x, y), literally (the
        reference's options; duplicates allowed)."""
        return iter(())

    def engines(self, game: Definition) -> frozenset[str]:
        """The engines that compute games with this rule, as ``game`` has it."""
        return frozenset(ENGINES)

    def describe(self, game: Definition) -> list[str]:
        """What this rule lets a player do, as phrases ("take …")."""
        return []

    def rules(self, game: Definition, symmetric: bool) -> int:
        """How many rules this kind counts in the ``size`` of a game that
        identify proposes (:func:`catalog.kinds.size`): one (a named
        special rule, the blocking rule, the Beatty moves of one α), unless
        the kind counts its parts. With ``symmetric`` a rule and its mirror
        image count one together."""
        return 1


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def integer(value: Any, name: str, lo: int, hi: int) -> int:
    """``value`` as an integer in [lo, hi], or an error naming the field."""
    if not is_int(value):
        raise DefinitionError(f"{name}: must be an integer")
    if value < lo or value > hi:
        raise DefinitionError(f"{name}: must be between {lo} and {hi}")
    return int(value)


def vectors(value: Any, name: str, limit: int) -> list[Vector]:
    """A list of pairs [a, b] of integers 0 <= a, b <= ``limit``."""
    if not isinstance(value, list):
        raise DefinitionError(f"{name}: must be a list of [a, b] pairs")
    out = []
    for i, item in enumerate(value):
        if not (isinstance(item, list | tuple) and len(item) == 2):
            raise DefinitionError(f"{name}[{i}]: must be a pair [a, b]")
        a, b = item
        if not (is_int(a) and is_int(b)):
            raise DefinitionError(f"{name}[{i}]: components must be integers")
        if a < 0 or b < 0:
            raise DefinitionError(f"{name}[{i}]: components must be non-negative")
        if a > limit or b > limit:
            raise DefinitionError(f"{name}[{i}]: components must be at most {limit}")
        out.append((a, b))
    return out


def on_ray(v: Vector, ray: Vector) -> bool:
    """Is ``v`` a positive multiple of ``ray``?"""
    a, b = ray
    x, y = v
    if a * y != b * x:
        return False
    k = x // a if a else y // b
    return k >= 1 and (k * a, k * b) == v


def orbits(items: Iterable[Vector], symmetric: bool) -> int:
    """How many of ``items`` there are, a pair and its mirror image counted
    once when ``symmetric``."""
    if symmetric:
        return len({min(v, (v[1], v[0])) for v in items})
    return len(set(items))


def steps_down(start: int, step: int) -> Iterable[int]:
    """start - step, start - 2·step, … down to 0; ``start`` forever if step is 0."""
    return repeat(start) if step == 0 else range(start - step, -1, -step)
