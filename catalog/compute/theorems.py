"""Games whose outcome at any position a theorem gives in closed form, with
exact integer arithmetic: positions far past any table (10^300) are
answered in microseconds, with a winning move.

- Fraenkel's **a-Wythoff** (a >= 2; a = 1 is Wythoff's Nim,
  :mod:`catalog.compute.closed`): its P-positions are the Beatty pairs of
  α = (2 − a + √(a² + 4))/2 and β = α + a (Fraenkel, Amer. Math. Monthly 89
  (1982)); (1,t)-Wythoff is the same game as t-Wythoff.
- **Euclid's game**: P iff a pile is empty or the piles differ with ratio
  below φ (Cole and Davie, Math. Gaz. 53 (1969)).
- **⋆ of the Beatty game of α** (Larsson, Hegarty and Fraenkel, TCS 412
  (2011), Theorem 1): its P-positions are the Beatty pairs of α and their
  mirrors; a winning move is found among the moves G⋆ is sure to have
  (:func:`beatty_star_outcome`).

The theorem is recognised from the canonical definition, so every spelling
of the game is answered the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np

from catalog.compute.beatty import BeattyPairs, awythoff_outcome
from catalog.compute.euclid import euclid_outcome
from catalog.games.definition import Definition
from catalog.games.quadratic import Quadratic
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

LHF_2011 = (
    "Larsson, Hegarty and Fraenkel, Invariant and dual subtraction games "
    "resolving the Duchêne–Rigo conjecture, Theoret. Comput. Sci. 412 (2011), "
    "Theorem 1: the P-positions of the ⋆ of the Beatty game of α are the "
    "Beatty pairs of α and their mirrors"
)
#: How far below a position :func:`beatty_star_outcome` looks for a winning
#: move that is neither vertical nor horizontal (the table of G it reads).
MOVE_WINDOW = 512


@dataclass(frozen=True)
class Theorem:
    """A closed form of a game's outcomes: ``outcome(x, y)`` is (is it P,
    a move to a P-position when it is not)."""

    name: str
    source: str
    outcome: Callable[[int, int], tuple[bool, Cell | None]]
    #: What the closed form answers, for ``far_out``'s note.
    note: str = (
        "is-p at any pile size (10^300 and beyond), exactly, with a winning move"
    )


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


def beatty_star_alpha(game: Definition) -> Quadratic | None:
    """α when ``game`` is ⋆ of the Beatty game of α and nothing else, else
    None."""
    if game.kinds != {"star"} or game.star is None:
        return None
    inner = game.star
    return inner.beatty if inner.kinds == {"beatty"} else None


@cache
def _beatty_game_table(alpha: Quadratic) -> np.ndarray:
    """G's outcomes below :data:`MOVE_WINDOW`: the moves G⋆ has there."""
    from catalog.compute.subtraction import beatty_moves, subtraction_p_positions

    n = MOVE_WINDOW
    table = np.zeros((n, n), dtype=bool)
    found = subtraction_p_positions(n, beatty_moves(alpha, n))
    table[found[:, 0], found[:, 1]] = True
    table[0, 0] = False  # (0, 0) is no move
    return table


def beatty_star_outcome(alpha: Quadratic, x: int, y: int) -> tuple[bool, Cell | None]:
    """(is (x, y) P, a winning move) in ⋆ of the Beatty game G of α.

    P iff (x, y) is a Beatty pair or its mirror (LHF). G has no move with an
    empty pile (⌊α⌋ = 1), so (0, d) and (d, 0) are P in G and G⋆ has Nim's
    moves: a position whose x has its partner below y moves down to it, and
    the mirror. Otherwise a move to a pair (u, v) needs (x − u, y − v) P in
    G; it is looked for among the pairs within :data:`MOVE_WINDOW` below
    (x, y), and None is returned when none is there (the outcome stands).
    """
    pairs = BeattyPairs(alpha)
    if pairs.is_p(x, y):
        return True, None
    if (px := pairs.partner(x)) < y:
        return False, (x, px)
    if (py := pairs.partner(y)) < x:
        return False, (py, y)
    table = _beatty_game_table(alpha)
    window = table.shape[0]
    for u in range(x, max(-1, x - window), -1):
        v = pairs.partner(u)
        if v <= y and y - v < window and table[x - u, y - v]:
            return False, (u, v)
    return False, None


def theorem_for(game: Definition) -> Theorem | None:
    """The closed form that answers ``game`` anywhere, or None."""
    a = awythoff_parameter(game)
    if a is not None:
        return Theorem(
            f"{a}-Wythoff", FRAENKEL_1982, lambda x, y: awythoff_outcome(a, x, y)
        )
    if game.kinds == {"euclid"}:
        return Theorem("Euclid's game", COLE_DAVIE, euclid_outcome)
    alpha = beatty_star_alpha(game)
    if alpha is not None:
        return Theorem(
            f"⋆ of the Beatty game of {alpha}",
            LHF_2011,
            lambda x, y: beatty_star_outcome(alpha, x, y),
            "is-p at any pile size (10^300 and beyond), exactly; a winning move "
            "along a pile, or within 512 of the position (else move_to is null)",
        )
    return None
