"""Beatty moves: ``"beatty": "sqrt(2)"`` adds the moves (⌊kα⌋, ⌊kβ⌋) and
(⌊kβ⌋, ⌊kα⌋) for every k >= 1, β = α/(α − 1), for an exact quadratic
irrational 1 < α < 2 (:mod:`catalog.games.quadratic`).

With nothing else this is the Beatty subtraction game G of Duchêne and
Rigo's conjecture; ⋆ of it (``{"star": {"beatty": …}}``) has exactly the
Beatty pairs of α and their mirrors as P-positions (Larsson, Hegarty and
Fraenkel 2011). α is kept as the exact number, so two spellings of one α
(``"sqrt(2)"``, ``"2/sqrt(2)"``) are one game.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from catalog.games.quadratic import Quadratic, QuadraticError, parse
from catalog.kinds.base import Definition, DefinitionError, Kind, Vector

DUCHENE_RIGO = (
    "E. Duchêne, M. Rigo, Invariant games, Theoret. Comput. Sci. 411 (2010) 3169–3180"
)
LHF = (
    "U. Larsson, P. Hegarty, A. S. Fraenkel, Invariant and dual subtraction "
    "games resolving the Duchêne–Rigo conjecture, Theoret. Comput. Sci. 412 "
    "(2011) 729–735, arXiv:1005.4162"
)


def alpha(value: Any, name: str = "beatty") -> Quadratic:
    """The α of a ``beatty`` value: a quadratic irrational in (1, 2), or an
    error naming the field."""
    if not isinstance(value, str):
        raise DefinitionError(
            f'{name}: must be a quadratic irrational written as text, e.g. "sqrt(2)"'
        )
    try:
        number = parse(value)
    except QuadraticError as exc:
        raise DefinitionError(f"{name}: {exc}") from None
    if not 1 < number < 2:
        raise DefinitionError(
            f"{name}: α = {number} ≈ {float(number):.6g} is not between 1 and 2"
        )
    return number


def pairs_below(number: Quadratic, bound: int) -> Iterator[Vector]:
    """The moves (⌊kα⌋, ⌊kβ⌋), k >= 1, with ⌊kα⌋ < ``bound`` (and their
    mirrors are the rest of the rule)."""
    beta = number.complement()
    k = 1
    while (a := number.floor_mul(k)) < bound:
        yield a, beta.floor_mul(k)
        k += 1


class Beatty(Kind):
    name = "beatty"
    field = "beatty"
    summary = "take (⌊kα⌋, ⌊kβ⌋) or (⌊kβ⌋, ⌊kα⌋), k ≥ 1: the Beatty pairs of α"
    papers = (DUCHENE_RIGO, LHF)
    page = "kinds/beatty.md"
    restrictable = True

    def parse(self, data: Mapping[str, Any], fields: dict[str, Any]) -> None:
        value = data.get("beatty")
        fields["beatty"] = None if value is None else alpha(value)

    def present(self, game: Definition) -> bool:
        return game.beatty is not None

    def options(self, game: Definition, x: int, y: int) -> Iterator[Vector]:
        assert game.beatty is not None
        for a, b in pairs_below(game.beatty, max(x, y) + 1):
            if a <= x and b <= y:
                yield x - a, y - b
            if b <= x and a <= y:
                yield x - b, y - a

    def engines(self, game: Definition) -> frozenset[str]:
        return frozenset({"subtraction"})

    def describe(self, game: Definition) -> list[str]:
        assert game.beatty is not None
        return [
            f"take (⌊kα⌋, ⌊kβ⌋) or (⌊kβ⌋, ⌊kα⌋) for any k ≥ 1, with α = "
            f"{game.beatty} and β = α/(α − 1) (the Beatty pairs of α)"
        ]
