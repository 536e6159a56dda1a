"""Beatty data recognised: the interval of α is exact and tight, the small
quadratic irrationals in it are all there and all give the data, and data
that is no Beatty set gives None."""

from __future__ import annotations

import time
from fractions import Fraction
from functools import cache
from itertools import product
from math import floor

import numpy as np
import pytest

from catalog.compute import reference
from catalog.compute.beatty import BeattyPairs, awythoff_alpha, awythoff_pairs
from catalog.compute.beattyfit import (
    awythoff_of,
    beatty_interval,
    gives_data,
    minimal_polynomial,
    quadratic_irrationals_in,
    recognise_beatty,
    simplicity,
)
from catalog.errors import BadInput
from catalog.games.quadratic import Quadratic, parse

#: Slopes in (1, 2) with d ≤ 30, r ≤ 12 and |q| ≤ 6 (so in the candidates),
#: a-Wythoff's among them (φ, √2, α_3, α_4 = √5 − 1, α_5, α_6 = √10 − 2).
SLOPES = [
    "(1+sqrt(5))/2",
    "sqrt(2)",
    "sqrt(3)",
    "(1+sqrt(3))/2",
    "(3+sqrt(5))/4",
    "sqrt(5)-1",
    "sqrt(7)-1",
    "(2+sqrt(5))/3",
    "(2*sqrt(5)-1)/2",
    "(7-sqrt(5))/3",
    "2-sqrt(2)/2",
    "2*sqrt(3)/3",
    "(5+sqrt(13))/6",
    "1+sqrt(2)/3",
    "(sqrt(17)-1)/2",
    "3-sqrt(2)",
    "(1+sqrt(7))/3",
    "(-1+sqrt(13))/2",
    "(-3+sqrt(29))/2",
    "sqrt(10)-2",
    "(12+sqrt(2))/8",
    "(11-5*sqrt(3))/2",
]
WINDOWS = [60, 200, 1000]


def grid_of(cells: np.ndarray, n: int) -> np.ndarray:
    grid = np.zeros((n, n), dtype=bool)
    grid[cells[:, 0], cells[:, 1]] = True
    return grid


@cache
def beatty_grid(text: str, n: int) -> np.ndarray:
    return grid_of(BeattyPairs(parse(text)).p_positions(n), n)


def literally_fits(alpha: Fraction, grid: np.ndarray) -> bool:
    """The floor conditions of :class:`Fit` read literally at a rational α."""
    if not 1 < alpha < 2:
        return False
    n, beta = len(grid), alpha / (alpha - 1)
    upper = [(x, y) for x, y in np.argwhere(grid).tolist() if x < y]
    pairs_ok = all(
        (floor(k * alpha), floor(k * beta)) == pair
        for k, pair in enumerate(upper, start=1)
    )
    return pairs_ok and floor((len(upper) + 1) * beta) >= n


def near(x: Fraction, sign: int, digits: int = 15) -> Quadratic:
    """x ± √2/10^digits: an irrational just beside a rational end."""
    v, scale = x.denominator, 10**digits
    return Quadratic(x.numerator * scale, sign * v, 2, v * scale)


def test_slopes_are_in_range_and_distinct():
    alphas = [parse(text) for text in SLOPES]
    assert len(set(alphas)) == len(SLOPES) >= 16
    assert all(1 < alpha < 2 for alpha in alphas)


@pytest.mark.parametrize("n", WINDOWS)
@pytest.mark.parametrize("text", SLOPES)
def test_interval_holds_alpha_and_is_exact_at_its_ends(text, n):
    alpha, grid = parse(text), beatty_grid(text, n)
    fit = beatty_interval(grid)
    assert fit is not None and alpha in fit and fit.n == n
    assert fit.pairs == int(np.count_nonzero(np.triu(grid, 1)))
    # Exact: irrationals a hair inside each end give the data, a hair
    # outside do not (every α in (1, 2) outside the set differs below n).
    for end, inward in ((fit.lo, 1), (fit.hi, -1)):
        assert (end in fit) == literally_fits(end, grid)  # open or closed
        inside, outside = near(end, inward), near(end, -inward)
        assert inside in fit and gives_data(inside, grid)
        assert outside not in fit
        if 1 < outside < 2:
            assert not gives_data(outside, grid)


@pytest.mark.parametrize("text", SLOPES)
def test_interval_shrinks_with_n(text):
    fits = [beatty_interval(beatty_grid(text, n)) for n in WINDOWS]
    for wide, narrow in zip(fits, fits[1:], strict=False):
        assert wide is not None and narrow is not None
        assert wide.lo <= narrow.lo and narrow.hi <= wide.hi
        assert narrow.width < wide.width
    for fit in fits:
        # ⌊mα⌋ alone leaves an interval of width 1/m.
        assert fit is not None and fit.width <= Fraction(1, fit.pairs)
    assert fits[-1] is not None and fits[-1].width < Fraction(1, 10**4)


@pytest.mark.parametrize("n", WINDOWS)
@pytest.mark.parametrize("text", SLOPES)
def test_alpha_is_a_candidate_and_every_candidate_gives_the_data(text, n):
    alpha, grid = parse(text), beatty_grid(text, n)
    match = recognise_beatty(grid)
    assert match is not None and alpha in match.alphas
    fit = match.fit
    unchecked = quadratic_irrationals_in(fit.lo, fit.hi)
    assert list(match.alphas) == unchecked  # none dropped: the fit is exact
    assert [simplicity(a) for a in unchecked] == sorted(map(simplicity, unchecked))
    assert all(a in fit for a in unchecked)


@pytest.mark.parametrize("n", [24, 60])
@pytest.mark.parametrize("text", SLOPES[::3])
def test_membership_agrees_with_the_data_for_every_small_slope(text, n):
    """Brute force over every small quadratic irrational in (1, 2)."""
    grid, fit = beatty_grid(text, n), beatty_interval(beatty_grid(text, n))
    assert fit is not None
    everyone = quadratic_irrationals_in(1, 2, max_d=7, max_r=4, max_q=2, max_a=8)
    assert len(everyone) > 150
    agree = [(alpha in fit) == gives_data(alpha, grid) for alpha in everyone]
    assert all(agree)


def test_two_wythoff_at_60_answers_sqrt_2_first_with_a_2_quickly():
    grid = grid_of(awythoff_pairs(2).p_positions(60), 60)
    start = time.process_time()  # CPU time: the machine's load does not count
    match = recognise_beatty(grid)
    elapsed = time.process_time() - start
    assert match is not None
    assert str(match.alphas[0]) == "sqrt(2)"
    assert match.awythoff == ((parse("sqrt(2)"), 2),)
    assert str(match.fit) == "(41/29, 58/41]"
    assert elapsed < 0.5


def test_the_games_own_data_are_recognised():
    """2- and 3-Wythoff computed literally from their moves (the
    reference), not from the Beatty formula."""
    for a in (2, 3):
        cone = {"lo": [1, 1 - a], "hi": [1, a - 1]}
        definition = {"rays": [[1, 0], [0, 1]], "cones": [cone]}
        match = recognise_beatty(reference.outcome_grid(definition, 40))
        assert match is not None and match.awythoff[0] == (awythoff_alpha(a), a)


@pytest.mark.parametrize("a", range(1, 11))
def test_awythoff_slopes(a):
    alpha = awythoff_alpha(a)
    assert awythoff_of(alpha) == a
    assert awythoff_of(alpha.conjugate()) is None
    assert minimal_polynomial(alpha) == (1, a - 2, -a)
    match = recognise_beatty(grid_of(awythoff_pairs(a).p_positions(200), 200))
    assert match is not None and (alpha, a) in match.awythoff


@pytest.mark.parametrize(
    "text", ["sqrt(3)", "(3+sqrt(5))/4", "1+sqrt(2)", "sqrt(5)", "(5+sqrt(13))/6"]
)
def test_other_slopes_are_no_awythoff(text):
    assert awythoff_of(parse(text)) is None


def test_awythoff_of_small_parameters_reads_the_polynomial():
    # α² + (a − 2)α − a: φ (a = 1), √2 (a = 2), (−1 + √13)/2 (a = 3).
    assert [awythoff_of(parse(t)) for t in ["(1+sqrt(5))/2", "sqrt(2)"]] == [1, 2]
    assert awythoff_of(parse("(-1+sqrt(13))/2")) == 3
    assert awythoff_of(parse("-1+sqrt(5)")) == 4


# -- data that is no Beatty set ---------------------------------------------------


@pytest.mark.parametrize("n", [20, 60, 100])
def test_maharaja_nim_is_no_beatty_set(n):
    maharaja = {"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[1, 2], [2, 1]]}
    grid = reference.outcome_grid(maharaja, n)
    assert grid[0, 0] and grid.sum() > 1
    assert beatty_interval(grid) is None and recognise_beatty(grid) is None


def test_wythoff_with_a_pair_removed_or_added_is_none():
    grid = beatty_grid("(1+sqrt(5))/2", 60)
    assert beatty_interval(grid) is not None
    for x, y in np.argwhere(grid).tolist():
        changed = grid.copy()
        changed[x, y] = False
        assert beatty_interval(changed) is None, (x, y)  # (0, 0) or asymmetric
        changed[y, x] = False
        assert beatty_interval(changed) is None, (x, y)
    for x, y in product(range(60), repeat=2):
        if not grid[x, y]:
            changed = grid.copy()
            changed[x, y] = True
            assert beatty_interval(changed) is None, (x, y)
            changed[y, x] = True
            assert beatty_interval(changed) is None, (x, y)


def test_nim_and_other_structures_are_none():
    n = 30
    assert beatty_interval(np.eye(n, dtype=bool)) is None  # Nim: (k, k)
    assert beatty_interval(np.zeros((n, n), dtype=bool)) is None
    shifted = beatty_grid("sqrt(2)", 61)[1:, 1:]  # no (0, 0)
    assert beatty_interval(shifted) is None
    # Two Beatty sets at once: a row with two cells.
    both = beatty_grid("sqrt(2)", n) | beatty_grid("sqrt(3)", n)
    assert beatty_interval(both) is None


def test_small_windows():
    only_origin = np.zeros((3, 3), dtype=bool)
    only_origin[0, 0] = True
    fit = beatty_interval(only_origin)  # no pair below 3: β ≥ 3, α ≤ 3/2
    assert fit is not None and str(fit) == "(1, 3/2]"
    assert beatty_interval(np.ones((1, 1), dtype=bool)) is not None


def test_random_data_near_beatty_sets_agree_with_brute_force():
    """Beatty grids of random small slopes, half of them with one pair of
    cells flipped: the fit holds exactly the small slopes that give them."""
    rng = np.random.default_rng(41)
    everyone = quadratic_irrationals_in(1, 2, max_d=7, max_r=3, max_q=2, max_a=4)
    found = missed = 0
    for _ in range(30):
        n = int(rng.integers(3, 40))
        alpha = everyone[int(rng.integers(len(everyone)))]
        grid = grid_of(BeattyPairs(alpha).p_positions(n), n)
        if rng.random() < 0.5:
            x, y = (int(c) for c in rng.integers(n, size=2))
            grid[x, y] = grid[y, x] = not grid[x, y]
        fit = beatty_interval(grid)
        if fit is not None:
            for end in (fit.lo, fit.hi):
                assert (end in fit) == literally_fits(end, grid)
        fitting = {a for a in everyone if gives_data(a, grid)}
        assert {a for a in everyone if fit is not None and a in fit} == fitting
        found += fit is not None
        missed += fit is None
    assert found and missed  # both branches were taken


# -- the candidates ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("(1+sqrt(5))/2", (1, 5, 0)),  # x² − x − 1
        ("sqrt(2)", (2, 8, 0)),
        ("(1+sqrt(3))/2", (2, 12, 0)),  # 2x² − 2x − 1
        ("(3+sqrt(5))/4", (6, 20, 0)),  # 4x² − 6x + 1
        ("(12-sqrt(2))/8", (96, 128, 1)),  # 32x² − 96x + 71, after its conjugate
    ],
)
def test_simplicity_is_height_then_discriminant(text, key):
    assert simplicity(parse(text)) == key


def test_candidates_are_complete_for_their_bounds():
    lo, hi = Fraction(13, 10), Fraction(3, 2)
    bounds = {"max_d": 11, "max_r": 5, "max_q": 3, "max_a": 0}
    brute = set()
    for d, r, q, p in product(range(2, 12), range(1, 6), range(-3, 4), range(-40, 41)):
        if q and d not in (4, 8, 9):
            alpha = Quadratic(p, q, d, r)
            if lo < alpha < hi:
                brute.add(alpha)
    assert set(quadratic_irrationals_in(lo, hi, **bounds)) == brute
    assert len(brute) > 100


def test_awythoff_slopes_beyond_the_bounds_are_candidates():
    alpha = awythoff_alpha(40)  # √1604: d = 401 > 30
    below = Fraction(alpha.floor_mul(10**6), 10**6)
    above = below + Fraction(1, 10**6)
    assert quadratic_irrationals_in(below, above) == [alpha]
    assert quadratic_irrationals_in(below, above, max_a=39) == []
    assert quadratic_irrationals_in(above, below) == []


def test_bad_grids_are_refused():
    with pytest.raises(BadInput, match="square"):
        beatty_interval(np.zeros((3, 4), dtype=bool))
    with pytest.raises(BadInput, match="two-dimensional"):
        beatty_interval(np.zeros(3, dtype=bool))
