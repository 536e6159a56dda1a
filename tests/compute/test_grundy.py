"""Sprague–Grundy values against a literal mex and the slides' table."""

import random

import numpy as np
import pytest

from catalog.compute.grundy import grundy
from catalog.compute.reference import options
from catalog.games.definition import DefinitionError, canonicalize

WYTHOFF = {"rays": [[1, 0], [0, 1], [1, 1]]}

# Duchêne–Fraenkel–Nowakowski–Rigo, slides: Wythoff's game, g(x, y) for
# x, y < 10; row 8 corrected ("1 2", not the slides' "1 1": see the papers'
# README).
SLIDES = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    [1, 2, 0, 4, 5, 3, 7, 8, 6, 10],
    [2, 0, 1, 5, 3, 4, 8, 6, 7, 11],
    [3, 4, 5, 6, 2, 0, 1, 9, 10, 12],
    [4, 5, 3, 2, 7, 6, 9, 0, 1, 8],
    [5, 3, 4, 0, 6, 8, 10, 1, 2, 7],
    [6, 7, 8, 1, 9, 10, 3, 4, 5, 13],
    [7, 8, 6, 9, 0, 1, 4, 5, 3, 14],
    [8, 6, 7, 10, 1, 2, 5, 3, 4, 15],
    [9, 10, 11, 12, 8, 7, 13, 14, 15, 16],
]


def literal(definition, n):
    game = canonicalize(definition)
    table = np.zeros((n, n), dtype=np.int64)
    for x in range(n):
        for y in range(n):
            seen = {int(table[o]) for o in options(game, x, y)}
            table[x, y] = min(set(range(len(seen) + 1)) - seen)
    return table


def test_the_slides_table():
    assert grundy(WYTHOFF, 10).tolist() == SLIDES


@pytest.mark.parametrize("seed", range(4))
def test_generated_games_match_a_literal_mex(seed):
    rng = random.Random(seed)
    vectors = [(a, b) for a in range(4) for b in range(4) if (a, b) != (0, 0)]
    for _ in range(30):
        definition = {
            "rays": rng.sample(vectors, rng.randint(0, 3)),
            "moves": rng.sample(vectors, rng.randint(0, 3)),
            "special": ["ho-restriction"] if rng.random() < 0.3 else [],
        }
        n = rng.randint(1, 18)
        assert np.array_equal(grundy(definition, n), literal(definition, n)), definition


def test_zeros_are_the_p_positions():
    from catalog import p_positions

    table = grundy({**WYTHOFF, "moves": [[1, 2], [2, 1]]}, 200)
    zeros = np.column_stack(np.nonzero(table == 0))
    assert np.array_equal(
        zeros, p_positions({**WYTHOFF, "moves": [[1, 2], [2, 1]]}, 200)
    )


def test_altered_games_have_no_grundy_values():
    with pytest.raises(DefinitionError, match="not defined"):
        grundy({**WYTHOFF, "alter": {"N": [[0, 0]]}}, 5)
