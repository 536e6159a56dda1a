"""Euclid's game against a brute-force solver, and far out."""

from __future__ import annotations

import random
from decimal import Decimal, localcontext

import numpy as np
import pytest

from catalog.compute.euclid import euclid_is_p, euclid_outcome
from catalog.errors import BadInput

BOX = 200


def options(x: int, y: int) -> list[tuple[int, int]]:
    """Subtract a positive multiple of the smaller pile from the larger one,
    leaving it >= 0 (both ways when the piles are equal); none once a pile
    is empty."""
    if x == 0 or y == 0:
        return []
    out = []
    if x >= y:
        out += [(x - j * y, y) for j in range(1, x // y + 1)]
    if y >= x:
        out += [(x, y - j * x) for j in range(1, y // x + 1)]
    return out


def brute_grid(n: int) -> np.ndarray:
    p = np.zeros((n, n), dtype=bool)
    for x in range(n):
        for y in range(n):
            p[x, y] = not any(p[o] for o in options(x, y))
    return p


def test_euclid_on_every_cell():
    grid = brute_grid(BOX)
    for x in range(BOX):
        for y in range(BOX):
            is_p, move = euclid_outcome(x, y)
            assert is_p == grid[x, y] == euclid_is_p(x, y), (x, y)
            if is_p:
                assert move is None
            else:
                assert move in options(x, y) and grid[move], (x, y, move)


def fibonacci(count: int) -> list[int]:
    f = [1, 2]
    while len(f) < count:
        f.append(f[-1] + f[-2])
    return f


def test_euclid_far_out():
    fib = fibonacci(1500)
    big = [k for k in range(len(fib) - 1) if 10**299 < fib[k] < 10**301]
    assert big
    for k in big:
        # Ratios of consecutive Fibonacci numbers alternate around φ, as
        # close to it as integers of this size get: the hardest cases.
        lo, hi = fib[k], fib[k + 1]
        with localcontext() as ctx:
            ctx.prec = 700
            phi = (1 + Decimal(5).sqrt()) / 2
            assert euclid_is_p(hi, lo) == (Decimal(hi) / lo < phi)
        for start in [
            (hi, lo),
            (lo, hi),
            (hi + 1, lo),
            (hi - 1, lo),
            (lo, lo),
            (3 * hi, lo),
        ]:
            is_p, move = euclid_outcome(*start)
            assert is_p == euclid_is_p(*start)
            if not is_p:
                u, v = move
                x, y = start
                assert euclid_is_p(u, v)
                if x >= y:
                    assert v == y and u >= 0 and (x - u) % y == 0 and x > u
                else:
                    assert u == x and v >= 0 and (y - v) % x == 0 and y > v
    rng = random.Random(5)
    for _ in range(300):
        x, y = rng.randrange(10**300), rng.randrange(1, 10**300)
        is_p, move = euclid_outcome(x, y)
        if not is_p:
            assert move is not None and euclid_is_p(*move)


@pytest.mark.parametrize("bad", [(-1, 2), (2, -1), (1.5, 2), (None, 1)])
def test_bad_positions(bad):
    with pytest.raises(BadInput):
        euclid_outcome(*bad)
