"""⋆ of the Beatty game of α answered by Larsson–Hegarty–Fraenkel's theorem
(:func:`catalog.compute.theorems.beatty_star_outcome`): the outcome against
the engine's table near the origin and against Beatty pairs derived again
(:mod:`tests.kinds.beattyref`) at 10^300; every winning move given leads to
a P-position by a move of the game, i.e. by a non-zero P-position of G."""

from __future__ import annotations

import random

import numpy as np
import pytest

import catalog
from catalog.compute.theorems import MOVE_WINDOW, beatty_star_outcome, theorem_for
from catalog.games.definition import canonicalize
from catalog.games.quadratic import parse
from tests.kinds import beattyref

SMALL = 300


def g_table(alpha: str) -> np.ndarray:
    """G's outcomes (True: P) below the theorem's window, by the engine."""
    n = MOVE_WINDOW
    table = np.zeros((n, n), dtype=bool)
    found = catalog.p_positions({"beatty": alpha}, n)
    table[found[:, 0], found[:, 1]] = True
    return table


def is_move_of_star(table: np.ndarray, dx: int, dy: int) -> bool:
    """Is (dx, dy) a move of G⋆, a non-zero P-position of G? A Beatty move
    has both coordinates >= 1, so (d, 0) and (0, d) are P in G (no option);
    the rest is read off G's table."""
    if (dx, dy) == (0, 0) or dx < 0 or dy < 0:
        return False
    if dx == 0 or dy == 0:
        return True
    return dx < table.shape[0] and dy < table.shape[0] and bool(table[dx, dy])


@pytest.mark.long
@pytest.mark.parametrize("alpha", ["sqrt(2)", "(1+sqrt(5))/2", "(9-sqrt(5))/4"])
def test_every_position_near_the_origin(alpha):
    n = SMALL if alpha == "sqrt(2)" else 120
    number = parse(alpha)
    star = np.zeros((n, n), dtype=bool)
    found = catalog.p_positions({"star": {"beatty": alpha}}, n)
    star[found[:, 0], found[:, 1]] = True
    table = g_table(alpha)
    for x in range(n):
        for y in range(n):
            p, move = beatty_star_outcome(number, x, y)
            assert p == star[x, y], (x, y)
            if p:
                assert move is None
                continue
            assert move is not None, (x, y)  # every N position below 300
            u, v = move
            assert star[u, v], (x, y, move)
            assert is_move_of_star(table, x - u, y - v), (x, y, move)


def test_the_beatty_moves_have_no_empty_pile():
    """What :func:`is_move_of_star` relies on, for the table's α."""
    for alpha in beattyref.ALPHAS.values():
        assert all(a and b for a, b in beattyref.pairs(alpha, 2000) - {(0, 0)})


@pytest.mark.long
@pytest.mark.parametrize("alpha", ["sqrt(2)", "(1+sqrt(5))/2", "2-sqrt(2)/2"])
def test_far_out_against_the_pairs_derived_again(alpha):
    exact, number = beattyref.ALPHAS[alpha], parse(alpha)
    table = g_table(alpha)
    rng = random.Random(300)
    big = 10**300
    moves = 0
    for trial in range(60):
        x = big - rng.randint(1, 10**6)
        above = None
        if trial % 3 == 0:  # a pair, or a cell above it
            y = beattyref.partner(exact, x)
            while y >= big:  # x was the smaller pile: take the next x
                x -= 1
                y = beattyref.partner(exact, x)
            above = rng.choice([0, 0, 1, 5, 10**200])
            y += above
        else:
            y = rng.randint(x // 3, big - 1)
        for pos in ((x, y), (y, x)):
            p, move = beatty_star_outcome(number, *pos)
            assert p == beattyref.is_pair(exact, *pos), pos
            if above:  # straight down to the pair at least: always found
                assert move is not None, pos
            if p or move is None:
                continue
            moves += 1
            u, v = move
            assert beattyref.is_pair(exact, u, v), (pos, move)
            assert is_move_of_star(table, pos[0] - u, pos[1] - v), (pos, move)
    assert moves > 40


def test_the_theorem_is_named_for_star_of_a_beatty_game_only():
    theorem = theorem_for(canonicalize({"star": {"beatty": "2/sqrt(2)"}}))
    assert theorem is not None and "Larsson, Hegarty and Fraenkel" in theorem.source
    assert theorem.name == "⋆ of the Beatty game of sqrt(2)"
    for other in (
        {"beatty": "sqrt(2)"},
        {"star": {"beatty": "sqrt(2)"}, "moves": [[1, 1]]},
        {"star": {"beatty": "sqrt(2)", "moves": [[1, 1]]}},
        {"star": {"beatty": "sqrt(2)", "alter": {"N": [[0, 0]]}}},
        {"star": {"beatty": "sqrt(2)"}, "alter": {"N": [[0, 0]]}},
        {"star": {"star": {"beatty": "sqrt(2)"}}},
    ):
        assert theorem_for(canonicalize(other)) is None, other
