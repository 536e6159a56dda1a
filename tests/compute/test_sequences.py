"""The sequences read off P-positions against plain Python on generated sets."""

import random

import numpy as np
import pytest

from catalog import p_positions
from catalog.compute import sequences


def sorted_positions(cells):
    return np.array(sorted(cells), dtype=np.int64).reshape(-1, 2)


@pytest.mark.parametrize("seed", range(4))
def test_is_symmetric_is_the_mirror_of_the_square(seed):
    rng = random.Random(seed)
    for _ in range(200):
        side = rng.randint(1, 12)
        cells = {(rng.randrange(side), rng.randrange(3 * side)) for _ in range(20)}
        if rng.random() < 0.5:  # make the square symmetric, keep what is above
            cells |= {(y, x) for x, y in cells if y < side}
        cells = {(x, y) for x, y in cells if x < side}
        inside = {(x, y) for x, y in cells if y < side}
        want = inside == {(y, x) for x, y in inside}
        assert sequences.is_symmetric(sorted_positions(cells), side) == want


def test_is_symmetric_on_games():
    wythoff = p_positions({"rays": [[1, 0], [0, 1], [1, 1]]}, 500)
    assert sequences.is_symmetric(wythoff, 500)
    lopsided = p_positions({"rays": [[1, 0], [0, 2], [1, 1]]}, 500)
    assert not sequences.is_symmetric(lopsided, 500)


@pytest.mark.parametrize("most", [None, 0, 1, 7, 1000])
def test_upper_lower_bits_are_the_columns_sides(most):
    rng = random.Random(most)
    for _ in range(50):
        column = np.array([rng.randrange(40) for _ in range(rng.randint(1, 40))])
        on = [x for x in range(column.size) if column[x] == x]
        start = on[-1] + 1 if on else 0
        bits = "".join("0" if column[x] > x else "1" for x in range(start, column.size))
        assert sequences.upper_lower_bits(column, most) == (
            start,
            bits if most is None else bits[:most],
        )
