"""Maharaja-type games far out, through the dictionary, against the table."""

from __future__ import annotations

import random
from math import isqrt

import numpy as np
import pytest

from catalog.compute import reference
from catalog.compute.dictionary import (
    MAHARAJA_MOVES,
    PAPER_DICTIONARIES,
    column_values,
    deviations,
)
from catalog.compute.ptable import p_positions
from catalog.compute.wordfarout import (
    PROVED_N,
    NotADictionary,
    local_translation,
    solve,
)
from catalog.games.definition import canonicalize

RAYS = [[1, 0], [0, 1], [1, 1]]


def game(k: int, m: int):
    return canonicalize({"rays": RAYS, "moves": [[k, m], [m, k]]})


@pytest.fixture(scope="module")
def maharaja():
    g = game(1, 2)
    return solve(g.moves, p_positions(g, PROVED_N), PROVED_N, base_bits=4000)


@pytest.fixture(scope="module")
def table():
    n = 200_000
    return column_values(p_positions(game(1, 2), n), n)


@pytest.mark.parametrize("word", list(PAPER_DICTIONARIES[MAHARAJA_MOVES][1]))
def test_the_local_rule_gives_the_papers_translates(word):
    translate, equation = PAPER_DICTIONARIES[MAHARAJA_MOVES][1][word]
    assert local_translation(word, MAHARAJA_MOVES).translate == translate, equation


def test_a_word_that_closes_no_sector_is_refused():
    with pytest.raises(NotADictionary):
        local_translation("0", MAHARAJA_MOVES)  # (0, 0) then the Knight reaches on


def test_maharaja_is_a_theorem_from_column_8(maharaja):
    assert maharaja.status == "theorem" and "(27)–(40)" in maharaja.source
    assert maharaja.solver.s0 == 8
    assert maharaja.solver.bits[8:34] == "00100100101100010010011000"


def test_every_column_of_a_large_prefix(maharaja, table):
    """A base of 4000 bits: everything past it goes down the levels. Every
    column up to 50,000 (the first five levels above the base), then every
    7th column and the last 2,000 (each query costs more a level higher)."""
    solver, c = maharaja.solver, len(table)
    for x in [*range(50_000), *range(50_000, c - 2_000, 7), *range(c - 2_000, c)]:
        assert solver.column(x) == [table[x]], x


def test_rows_and_diagonals_against_the_table(maharaja, table):
    solver, c = maharaja.solver, len(table)
    rows = {int(y): x for x, y in enumerate(table)}
    diagonals = {int(y) - x: x for x, y in enumerate(table)}
    for y in range(0, c // 2, 7):
        assert solver.row(y) == [rows[y]]
    for k in range(-c // 3, c // 3, 5):
        assert solver.diagonal(k) == [diagonals[k]]


def test_the_corner_against_the_literal_reference(maharaja):
    found = reference.p_positions(game(1, 2), 60)
    want = {tuple(p) for p in found.tolist()}
    for x in range(60):
        for y in range(60):
            assert maharaja.solver.is_p(x, y) == ((x, y) in want)


@pytest.mark.parametrize("exponent", [18, 50, 300])
def test_far_out_the_papers_facts_hold(maharaja, exponent):
    """One P-position per column, row and diagonal, symmetric, and the
    deviation bound -4 <= b_n - a_n - n <= 3 (end of section 2)."""
    solver, rng = maharaja.solver, random.Random(exponent)
    for _ in range(6):
        x = rng.randrange(10**exponent)
        [y] = solver.column(x)
        assert solver.row(x) == [y] and solver.column(y) == [x]
        assert solver.diagonal(y - x) == [x]
        if y > x:  # an upper P-position (a_n, b_n), n = zeros before x
            near = (isqrt(5 * x * x) - x) // 2  # x / φ
            n = next(m for m in range(near - 8, near + 9) if solver.select0(m) == x)
            assert -4 <= y - x - n <= 3
        for probe in (y - 1, y + 1, 0):
            move = solver.winning_move(x, probe)
            assert move is not None and solver.is_p(*move)
            dx, dy = x - move[0], probe - move[1]
            assert (
                dx >= 0
                and dy >= 0
                and (dx == 0 or dy == 0 or dx == dy or (dx, dy) in MAHARAJA_MOVES)
            )


def test_deviations_match_the_table(maharaja, table):
    n = len(table)
    positions = np.column_stack([np.arange(n), table])
    dev = deviations(positions, n)
    assert maharaja.solver.dev_min <= dev.min and dev.max <= maharaja.solver.dev_max
    assert (maharaja.solver.dev_min, maharaja.solver.dev_max) == (-4, 3)


@pytest.mark.parametrize(("k", "m"), [(2, 3), (1, 3), (1, 7)])
def test_observed_dictionaries_against_a_larger_table(k, m):
    g = game(k, m)
    solved = solve(g.moves, p_positions(g, 20_000), 20_000, base_bits=2000)
    assert solved is not None and solved.status == "observed"
    n = 300_000
    ys = column_values(p_positions(g, n), n)
    rng = random.Random(k * 100 + m)
    for x in [*range(0, len(ys), 97), *rng.sample(range(len(ys)), 2000)]:
        assert solved.solver.column(x) == [ys[x]], x


@pytest.mark.parametrize(("k", "m"), [(3, 5), (4, 6), (2, 4)])
def test_games_whose_data_close_no_dictionary_keep_the_table(k, m):
    g = game(k, m)
    assert solve(g.moves, p_positions(g, 20_000), 20_000) is None
