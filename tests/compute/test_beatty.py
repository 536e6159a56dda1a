"""Beatty pairs and a-Wythoff against enumeration and a brute-force solver."""

from __future__ import annotations

import random

import numpy as np
import pytest

from catalog.compute.beatty import (
    BeattyPairs,
    NoClosedForm,
    awythoff_outcome,
    awythoff_pairs,
    floor_mul_array,
    st_wythoff_outcome,
)
from catalog.errors import BadInput
from catalog.games.quadratic import parse

#: Slopes in (1, 2): a-Wythoff's, and others with r > 1, q < 0, large d.
SLOPES = [
    "sqrt(2)",
    "(1+sqrt(5))/2",
    "(3+sqrt(5))/4",
    "(1+sqrt(3))/2",
    "2-sqrt(2)/2",
    "sqrt(3)",
    "2*sqrt(3)/3",
    "(5+sqrt(13))/6",
    "1+sqrt(2)/3",
    "sqrt(5)-1",
    "(sqrt(17)-1)/2",
    "3-sqrt(2)",
    "(1+sqrt(7))/3",
    "1+1/sqrt(1000001)",
    "(-1+sqrt(13))/2",
    "(-4+sqrt(41))/2",
    "(12345+sqrt(987654323))/30000",
    "(-3+sqrt(29))/2",
]
BOX = 200


def test_slopes_are_distinct_and_in_range():
    values = [parse(t) for t in SLOPES]
    assert len(set(values)) == len(SLOPES) >= 16
    assert all(1 < v < 2 for v in values)


@pytest.mark.parametrize("text", SLOPES)
def test_lower_and_upper_partition_the_positive_integers(text):
    pairs = BeattyPairs(parse(text))
    m = 5000
    lows = [pairs.lower(n) for n in range(1, m + 1)]
    highs = [pairs.upper(n) for n in range(1, m + 1)]
    hit = [v for v in lows + highs if v <= m]
    assert sorted(hit) == list(range(1, m + 1))  # each exactly once
    assert lows == sorted(lows) and highs == sorted(highs)
    for n in [*range(60), *random.Random(text).sample(range(m), 60)]:
        x, y = pairs.pair(n)
        assert pairs.index_of_lower(x) == n and pairs.index_of_upper(y) == n
        assert pairs.partner(x) == y and pairs.partner(y) == x
        assert pairs.index_of_lower(x + 1) is None or pairs.lower(n + 1) == x + 1


@pytest.mark.parametrize("text", SLOPES)
def test_is_p_and_p_positions_against_the_pairs(text):
    pairs = BeattyPairs(parse(text))
    expected = set()
    for n in range(BOX + 1):
        x, y = pairs.pair(n)
        expected |= {(x, y), (y, x)}
    expected = {c for c in expected if max(c) < BOX}
    got = {(x, y) for x in range(BOX) for y in range(BOX) if pairs.is_p(x, y)}
    assert got == expected
    table = pairs.p_positions(BOX)
    assert table.dtype == np.int64 and table.shape[1] == 2
    assert [tuple(r) for r in table.tolist()] == sorted(expected)
    assert pairs.p_positions(0).shape == (0, 2)
    assert pairs.p_positions(1).tolist() == [[0, 0]]


@pytest.mark.parametrize("text", SLOPES)
def test_floor_mul_array_is_exact_where_floats_are_not(text):
    """Convergent denominators q of α make qα within 1/q of an integer: there
    a float guess of ⌊qα⌋ goes wrong unless it is corrected."""
    alpha = parse(text)
    for slope in (alpha, alpha.complement()):
        h0, h1 = 0, 1  # denominators of the convergents
        ks = []
        for a in slope.continued_fraction(80):
            h0, h1 = h1, a * h1 + h0
            if h1 >= 2**31 - 2:
                break
            ks += [h1 - 1, h1, h1 + 1]
        k = np.array(sorted(set(ks)), dtype=np.int64)
        assert floor_mul_array(slope, k).tolist() == [
            slope.floor_mul(int(v)) for v in k
        ]


def test_p_positions_at_a_million():
    pairs = BeattyPairs(parse("sqrt(2)"))
    n = 10**6
    table = pairs.p_positions(n)
    # (0, 0) and both orientations of each pair with ⌊kβ⌋ < n, k ≤ n/β.
    assert len(table) == 2 * pairs.beta.reciprocal().floor_mul(n) + 1
    assert np.all(np.diff(table[:, 0]) > 0) and table.max() < n
    for x, y in table[random.Random(1).sample(range(len(table)), 300)].tolist():
        assert pairs.is_p(x, y) and pairs.partner(x) == y


def test_bad_slopes_and_arguments():
    for text in ["(1+sqrt(5))/4", "1+sqrt(2)", "2+sqrt(2)", "-sqrt(2)"]:
        with pytest.raises(BadInput, match="between 1 and 2"):
            BeattyPairs(parse(text))
    pairs = BeattyPairs(parse("sqrt(2)"))
    for bad in [(-1, 0), (0, -1), (1.0, 2), (True, 2)]:
        with pytest.raises(BadInput):
            pairs.is_p(*bad)
    for bound in [-1, 10**9, 3.0]:
        with pytest.raises(BadInput, match="n_bound"):
            pairs.p_positions(bound)
    for a in [0, -2, 1.5, 10**7]:
        with pytest.raises(BadInput, match="a must be"):
            awythoff_outcome(a, 3, 4)


# -- a-Wythoff against a brute-force solver ------------------------------------


def literal_grid(legal_step, n: int) -> np.ndarray:
    """P iff no option is P, options enumerated one by one (slow, obvious)."""
    p = np.zeros((n, n), dtype=bool)
    for x in range(n):
        for y in range(n):
            p[x, y] = not any(
                p[x - k, y - j]
                for k in range(x + 1)
                for j in range(y + 1)
                if (k or j) and legal_step(k, j)
            )
    return p


def awythoff_grid(a: int, n: int) -> np.ndarray:
    """P iff no option is P, filled forward: each P-position found marks N
    every cell it is an option of (row-major order visits options first)."""
    p = np.zeros((n, n), dtype=bool)
    marked = np.zeros((n, n), dtype=bool)
    steps = np.arange(1, n)
    for x in range(n):
        for y in range(n):
            if marked[x, y]:
                continue
            p[x, y] = True
            marked[x, y + 1 :] = True
            marked[x + 1 :, y] = True
            for e in range(1 - a, a):  # both piles: j = k + e, k, j >= 1
                ks = steps[steps + e >= 1]
                xs, ys = x + ks, y + ks + e
                keep = (xs < n) & (ys < n)
                marked[xs[keep], ys[keep]] = True
    return p


def awythoff_step(a: int):
    return lambda k, j: k == 0 or j == 0 or abs(k - j) < a


@pytest.mark.parametrize("a", [1, 2, 3, 4])
def test_forward_solver_is_the_literal_one(a):
    assert np.array_equal(awythoff_grid(a, 30), literal_grid(awythoff_step(a), 30))


def check_move(a: int, start, target) -> None:
    (x, y), (u, v) = start, target
    k, j = x - u, y - v
    assert u >= 0 and v >= 0 and k >= 0 and j >= 0 and (k, j) != (0, 0)
    assert awythoff_step(a)(k, j), (a, start, target)
    assert awythoff_pairs(a).is_p(u, v), (a, start, target)


@pytest.mark.parametrize("a", range(1, 7))
def test_awythoff_outcome_on_every_cell(a):
    grid = awythoff_grid(a, BOX)
    for x in range(BOX):
        for y in range(BOX):
            is_p, move = awythoff_outcome(a, x, y)
            assert is_p == grid[x, y], (a, x, y)
            if is_p:
                assert move is None
            else:
                assert move is not None and grid[move], (a, x, y, move)
                check_move(a, (x, y), move)


def test_awythoff_is_wythoff_for_a_1_and_sqrt_2_for_a_2():
    assert awythoff_pairs(1).alpha == parse("(1+sqrt(5))/2")
    assert awythoff_pairs(2).alpha == parse("sqrt(2)")
    for a in range(1, 10):
        pairs = awythoff_pairs(a)
        assert pairs.beta == parse(f"({2 - a}+sqrt({a * a + 4}))/2+{a}")
        assert all(pairs.upper(n) == pairs.lower(n) + a * n for n in range(500))


@pytest.mark.parametrize("a", [1, 2, 3, 5, 1000, 10**6])
def test_awythoff_far_out(a):
    pairs = awythoff_pairs(a)
    rng = random.Random(a)
    for _ in range(40):
        n = rng.randrange(10**299, 10**300)
        x, y = pairs.pair(n)
        assert y == x + a * n
        assert awythoff_outcome(a, x, y) == (True, None)
        assert awythoff_outcome(a, y, x) == (True, None)
        for start in [(x, y + 1), (x + 1, y), (x, y - 1), (y + 1, x), (x, x), (0, y)]:
            is_p, move = awythoff_outcome(a, *start)
            assert not is_p
            check_move(a, start, move)
        start = (rng.randrange(10**300), rng.randrange(10**300))
        is_p, move = awythoff_outcome(a, *start)
        assert is_p == pairs.is_p(*start)
        if not is_p:
            check_move(a, start, move)


# -- (s, t)-Wythoff -------------------------------------------------------------


def st_step(s: int, t: int):
    """(s,t)-Wythoff: Nim moves, or 0 < k <= j < s·k + t, mirrored."""
    return lambda k, j: k == 0 or j == 0 or (k <= j < s * k + t) or (j <= k < s * j + t)


def mex_pairs(s: int, t: int, count: int) -> list[tuple[int, int]]:
    """A_n = mex{A_i, B_i : i < n}, B_n = s·A_n + t·n (Fraenkel 1998)."""
    used: set[int] = set()
    out = []
    for n in range(count):
        a = 0
        while a in used:
            a += 1
        b = s * a + t * n
        used |= {a, b}
        out.append((a, b))
    return out


@pytest.mark.parametrize("t", [1, 2, 3])
def test_st_wythoff_with_s_1_is_t_wythoff(t):
    n = 40
    grid = literal_grid(st_step(1, t), n)
    for x in range(n):
        for y in range(n):
            is_p, move = st_wythoff_outcome(1, t, x, y)
            assert is_p == grid[x, y]
            if not is_p:
                k, j = x - move[0], y - move[1]
                assert st_step(1, t)(k, j) and grid[move]


@pytest.mark.parametrize(("s", "t"), [(2, 1), (2, 3), (3, 2)])
def test_st_wythoff_for_s_2_has_mex_pairs_but_no_closed_form_here(s, t):
    n = 40
    grid = literal_grid(st_step(s, t), n)
    expected = {c for a, b in mex_pairs(s, t, n) for c in [(a, b), (b, a)]}
    assert {(x, y) for x in range(n) for y in range(n) if grid[x, y]} == {
        c for c in expected if max(c) < n
    }
    with pytest.raises(NoClosedForm, match="s >= 2"):
        st_wythoff_outcome(s, t, 3, 4)
