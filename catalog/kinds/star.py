"""The ⋆-operator: ``"star": G`` adds as moves every P-position of the game
G except (0, 0) (Larsson, Hegarty and Fraenkel 2011). G is a definition, or
an entry ID or label that the catalog resolves to its definition before the
game is read (:func:`resolve`), so a stored game holds G written out and
means the same on every machine. ``{"star": {"star": G}}`` iterates
(Larsson 2012: Nim⋆⋆ = Nim), at most :data:`MAX_STAR_DEPTH` deep.

G is canonicalised like any definition (its errors are named
``star.rays[0]: …``), so two spellings of G give one G⋆.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from catalog.errors import CatalogError
from catalog.kinds.base import Definition, DefinitionError, Kind, Vector
from catalog.kinds.beatty import LHF

#: Deepest nesting of ``star`` (G⋆⋆⋆): each level is a whole computation of
#: the game inside, and the JSON reader takes 8 levels of nesting.
MAX_STAR_DEPTH = 3
LARSSON_2012 = (
    "U. Larsson, The ⋆-operator and invariant subtraction games, Theoret. "
    "Comput. Sci. 422 (2012) 52–58"
)

#: The games whose labelling :meth:`Star.p_set` keeps (the oldest goes).
_KEEP = 8
#: Resolves an entry ID or label to its definition (or raises BadInput).
Names = Callable[[str], Mapping[str, Any]]
#: The literal labelling of a game below n (the reference's), as the set of
#: its P-positions: G⋆'s options are read off G's.
Labeller = Callable[[Definition, int], set[Vector]]


def resolve(data: Mapping[str, Any], names: Names | None) -> Mapping[str, Any]:
    """``data`` with every ``star`` that names an entry (an ID or a label)
    replaced by that entry's definition, through ``names``; nested stars
    too. A chain that comes back to a name it passed is refused."""
    return _resolve(data, names, (), "star")


def _resolve(
    data: Mapping[str, Any], names: Names | None, seen: tuple[str, ...], where: str
) -> Mapping[str, Any]:
    if not isinstance(data, Mapping) or "star" not in data:
        return data
    value = data["star"]
    if isinstance(value, str):
        if value in seen:
            chain = " → ".join((*seen, value))
            raise DefinitionError(f"{where}: names itself ({chain})")
        if names is None:
            raise DefinitionError(
                f"{where}: {value!r} names an entry; only the catalog resolves IDs "
                "and labels (wythoff add, the API): give the definition itself here"
            )
        try:
            named = names(value)
        except CatalogError as exc:  # an unknown ID, a malformed label
            raise DefinitionError(f"{where}: {exc}") from None
        inner = _resolve(named, names, (*seen, value), where + ".star")
        return {**data, "star": inner}
    if isinstance(value, Mapping):
        return {**data, "star": _resolve(value, names, seen, where + ".star")}
    return data


def names_entries(data: Any) -> bool:
    """Does a ``star`` of ``data`` (or of the games inside it) name an entry
    by ID or label?"""
    while isinstance(data, Mapping) and "star" in data:
        data = data["star"]
        if isinstance(data, str):
            return True
    return False


def depth(data: Any) -> int:
    """How many ``star`` levels ``data`` nests."""
    levels = 0
    while isinstance(data, Mapping) and "star" in data:
        levels += 1
        data = data["star"]
    return levels


class Star(Kind):
    name = "star"
    field = "star"
    summary = "move by any non-zero P-position of another game G (G⋆)"
    papers = (LHF, LARSSON_2012)
    page = "kinds/star.md"
    restrictable = True

    def __init__(self, label: Labeller, present: Callable[[Definition], Any]) -> None:
        self._label = label
        self._present = present
        #: G's P-positions as labelled so far, by G's key: (bound, set).
        self._known: dict[str, tuple[int, set[Vector]]] = {}

    def parse(self, data: Mapping[str, Any], fields: dict[str, Any]) -> None:
        value = data.get("star")
        if value is None:
            fields["star"] = None
            return
        if isinstance(value, str):
            resolve(data, None)  # raises: names are resolved before
        if not isinstance(value, Mapping):
            raise DefinitionError(
                "star: must be an entry ID, a label or a definition (an object)"
            )
        if depth(data) > MAX_STAR_DEPTH:
            raise DefinitionError(
                f"star: nested {depth(data)} deep, more than {MAX_STAR_DEPTH}"
            )
        # Canonicalised by catalog.games.definition, which builds games.
        fields["star"] = value

    def present(self, game: Definition) -> bool:
        return game.star is not None

    def p_set(self, inner: Definition, bound: int) -> set[Vector]:
        """G's P-positions with x, y < ``bound``, literally (the
        reference's labelling, kept per G and grown when asked further)."""
        known = self._known.get(inner.key)
        if known is None or known[0] < bound:
            known = (bound, self._label(inner, bound))
            if len(self._known) >= _KEEP:
                self._known.pop(next(iter(self._known)))
            self._known[inner.key] = known
        size, cells = known
        if size == bound:
            return cells
        return {(a, b) for a, b in cells if a < bound and b < bound}

    def options(self, game: Definition, x: int, y: int) -> Iterator[Vector]:
        assert game.star is not None
        for a, b in self.p_set(game.star, max(x, y) + 1):
            if (a or b) and a <= x and b <= y:
                yield x - a, y - b

    def engines(self, game: Definition) -> frozenset[str]:
        return frozenset({"subtraction"})

    def rules(self, game: Definition, symmetric: bool) -> int:
        """G's rules (at least one): ⋆ adds none of its own, so ⋆ of a
        Beatty game is one rule, like the Beatty game."""
        assert game.star is not None
        inner = game.star
        return max(1, sum(k.rules(inner, symmetric) for k in self._present(inner)))

    def describe(self, game: Definition) -> list[str]:
        assert game.star is not None
        from_inner = "; ".join(
            phrase
            for kind in self._present(game.star)
            for phrase in kind.describe(game.star)
        )
        return [
            f"take (a, b) for any P-position (a, b) ≠ (0, 0) of the game G whose "
            f"moves are: {from_inner or 'none'}"
        ]
