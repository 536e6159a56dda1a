"""Games whose outcome at any position a theorem gives in closed form, with
exact integer arithmetic: positions far past any table (10^300) are
answered in microseconds, with a winning move.

- Fraenkel's **a-Wythoff** (a >= 2; a = 1 is Wythoff's Nim,
  :mod:`catalog.compute.closed`): its P-positions are the Beatty pairs of
  α = (2 − a + √(a² + 4))/2 and β = α + a (Fraenkel, Amer. Math. Monthly 89
  (1982)); (1,t)-Wythoff is the same game as t-Wythoff.
- **Euclid's game**: P iff a pile is empty or the piles differ with ratio
  below φ (Cole and Davie, Math. Gaz. 53 (1969)).

The theorem is recognised from the canonical definition, so every spelling
of the game is answered the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from catalog.compute.beatty import awythoff_outcome
from catalog.compute.euclid import euclid_outcome
from catalog.games.definition import Definition
from catalog.kinds.cones import Cone

Cell = tuple[int, int]
NIM_RAYS = ((0, 1), (1, 0))

FRAENKEL_1982 = (
    "Fraenkel, How to beat your Wythoff games' opponent on three fronts, "
    "Amer. Math. Monthly 89 (1982): the P-positions of a-Wythoff are the "
    "Beatty pairs of (2 - a + sqrt(a^2 + 4))/2"
)
COLE_DAVIE = (
    "Cole and Davie, A game based on the Euclidean algorithm and a winning "
    "strategy for it, Math. Gaz. 53 (1969): P iff a pile is empty or the "
    "piles differ with ratio below the golden ratio"
)


@dataclass(frozen=True)
class Theorem:
    """A closed form of a game's outcomes: ``outcome(x, y)`` is (is it P,
    a move to a P-position when it is not)."""

    name: str
    source: str
    outcome: Callable[[int, int], tuple[bool, Cell | None]]


def awythoff_parameter(game: Definition) -> int | None:
    """``a`` when ``game`` is a-Wythoff with a >= 2 (Nim's rays and the cone
    |k − l| < a, nothing else), else None."""
    if game.kinds != {"rays", "cones"} or game.rays != NIM_RAYS:
        return None
    if len(game.cones) != 1:
        return None
    (cone,) = game.cones
    a = 1 - cone.lo[1]
    if cone != Cone((1, 1 - a), (1, a - 1)) or a < 2:
        return None
    return a


def theorem_for(game: Definition) -> Theorem | None:
    """The closed form that answers ``game`` anywhere, or None."""
    a = awythoff_parameter(game)
    if a is not None:
        return Theorem(
            f"{a}-Wythoff", FRAENKEL_1982, lambda x, y: awythoff_outcome(a, x, y)
        )
    if game.kinds == {"euclid"}:
        return Theorem("Euclid's game", COLE_DAVIE, euclid_outcome)
    return None
