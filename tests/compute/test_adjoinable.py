"""Adjoinable moves of Wythoff's Nim against brute force and the definition."""

from __future__ import annotations

import random

import numpy as np
import pytest

from catalog import p_positions
from catalog.compute import closed, reference
from catalog.compute.adjoinable import ALREADY, JOINS, KEEPS, Adjoinable, adjoinable
from catalog.compute.closed import lower

WYTHOFF = {"rays": [[1, 0], [0, 1], [1, 1]]}
SIZES = [10**12, 10**15, 10**18, 10**30]


def with_moves(i, j):
    return {**WYTHOFF, "moves": [[i, j], [j, i]]}


def check_witness(result: Adjoinable) -> None:
    """Both ends are P-positions of Wythoff's Nim and the move joins them."""
    assert result.witness is not None
    start, end = result.witness
    assert closed.outcome(*start)[0] == "P"
    assert closed.outcome(*end)[0] == "P"
    assert (start[0] - end[0], start[1] - end[1]) == result.move


def by_definition(i, j):
    """Is (i, j), 0 < i < j, in D1 ∪ D2? D1 by the slides' Proposition, D2 by
    binary search of the strictly decreasing g(m) = A_{s-m} - A_m - m."""
    s = j - i
    if i in (lower(s), lower(s) + 1):
        return True
    lo, hi = 0, (s - 1) // 2  # n = s - m > m
    while lo <= hi:
        m = (lo + hi) // 2
        g = lower(s - m) - lower(m) - m
        if g == i:
            return True
        lo, hi = (m + 1, hi) if g > i else (lo, m - 1)
    return False


def test_small_moves_against_the_fast_engine():
    """The contract's check: every 1 <= I < J <= 25, P-positions in [0, 1000)²."""
    base = p_positions(WYTHOFF, 1000)
    for i in range(1, 26):
        for j in range(i + 1, 26):
            same = np.array_equal(p_positions(with_moves(i, j), 1000), base)
            assert adjoinable(i, j).adjoinable is same, (i, j)
            assert adjoinable(j, i).adjoinable is same, (j, i)


def test_small_moves_against_the_reference():
    """The literal "P iff no option is P" grid agrees, for I < J <= 9."""
    n = 80
    base = reference.p_positions(WYTHOFF, n)
    assert np.array_equal(base, p_positions(WYTHOFF, n))
    for i in range(1, 10):
        for j in range(i + 1, 10):
            found = reference.p_positions(with_moves(i, j), n)
            assert np.array_equal(found, p_positions(with_moves(i, j), n))
            assert adjoinable(i, j).adjoinable is np.array_equal(found, base)


def test_d1_d2_from_lists_of_wythoff_pairs():
    """Every move i < j <= 300 against D1 ∪ D2 enumerated from the pairs."""
    top = 300
    a = [lower(k) for k in range(2000)]
    b = [a[k] + k for k in range(2000)]
    joins = set()
    for m in range(1000):
        for s in range(1, top + 1):  # D1: (A_n - A_m, B_n - B_m), n = m + s
            joins.add((a[m + s] - a[m], b[m + s] - b[m]))
    for n in range(top + 1):
        for m in range(n):  # D2: (A_n - B_m, B_n - A_m), if A_n >= B_m
            if a[n] >= b[m]:
                joins.add((a[n] - b[m], b[n] - a[m]))
    for i in range(1, top + 1):
        for j in range(i + 1, top + 1):
            result = adjoinable(i, j)
            assert result.adjoinable is ((i, j) not in joins), (i, j)
            assert result.adjoinable is not by_definition(i, j)
            if result.adjoinable:
                assert result.reason == KEEPS and result.witness is None
            else:
                assert result.reason == JOINS
                check_witness(result)


def test_the_identities_behind_the_d1_witness():
    rng = random.Random(7)
    ns = list(range(1, 3000)) + [rng.randrange(size) + 1 for size in SIZES * 50]
    for n in ns:
        a_n, b_n = lower(n), lower(n) + n
        assert lower(a_n) == b_n - 1
        assert lower(b_n) == a_n + b_n


@pytest.mark.parametrize("size", SIZES)
def test_random_big_moves(size):
    rng = random.Random(size)
    for _ in range(300):
        i, j = rng.randrange(1, size), rng.randrange(1, size)
        if i == j:
            continue
        result = adjoinable(i, j)
        assert result.adjoinable is not by_definition(min(i, j), max(i, j))
        if not result.adjoinable:
            check_witness(result)


@pytest.mark.parametrize("size", SIZES)
def test_big_moves_that_join_two_p_positions(size):
    rng = random.Random(size + 1)
    for _ in range(200):
        n = rng.randrange(2, size)
        m = rng.randrange(0, n)
        a_n, b_n, a_m, b_m = lower(n), lower(n) + n, lower(m), lower(m) + m
        moves = [(a_n - a_m, b_n - b_m)]
        m = rng.randrange(0, n // 3)  # A_n >= B_m holds for m <= n/φ²
        a_m, b_m = lower(m), lower(m) + m
        assert a_n >= b_m
        moves.append((a_n - b_m, b_n - a_m))
        for i, j in moves:
            for move in ((i, j), (j, i)):
                result = adjoinable(*move)
                assert not result.adjoinable, move
                assert result.reason == JOINS
                check_witness(result)
            for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1), (2, 1), (-1, -3)):
                near = adjoinable(i + di, j + dj)
                assert near.adjoinable is not by_definition(i + di, j + dj)
                if not near.adjoinable:
                    check_witness(near)


def test_symmetry():
    rng = random.Random(3)
    pairs = [(i, j) for i in range(1, 60) for j in range(1, 60)]
    pairs += [(rng.randrange(1, 10**20), rng.randrange(1, 10**20)) for _ in range(99)]
    for i, j in pairs:
        one, other = adjoinable(i, j), adjoinable(j, i)
        assert one.adjoinable is other.adjoinable
        assert one.reason == other.reason
        assert one.move == (i, j) and other.move == (j, i)
        if one.witness is not None:
            assert other.witness is not None
            (x0, y0), (x1, y1) = one.witness
            assert other.witness == ((y0, x0), (y1, x1))


@pytest.mark.parametrize("k", [1, 2, 17, 10**18, 10**40])
def test_moves_wythoff_already_has(k):
    for move in ((0, k), (k, 0), (k, k)):
        result = adjoinable(*move)
        assert result == Adjoinable(move, True, ALREADY, None)


@pytest.mark.parametrize("move", [(0, 0), (-1, 2), (2, -1), (-3, -3)])
def test_not_a_move(move):
    with pytest.raises(ValueError, match="move"):
        adjoinable(*move)


def test_not_an_integer():
    with pytest.raises(TypeError):
        adjoinable(1.0, 2)  # type: ignore[arg-type]


def test_to_json():
    assert adjoinable(2, 3).to_json() == {
        "move": [2, 3],
        "adjoinable": False,
        "reason": JOINS,
        "witness": {"from": [3, 5], "to": [1, 2]},
    }
    assert adjoinable(4, 2).to_json() == {
        "move": [4, 2],
        "adjoinable": True,
        "reason": KEEPS,
        "witness": None,
    }
    assert adjoinable(0, 7).to_json()["reason"] == ALREADY
