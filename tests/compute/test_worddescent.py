"""The descent over words in context against the window method it replaces.

The window method (``WordFarOut.windows``) reads every level afresh and is
tested against tables in test_wordfarout.py; here the descent must name the
same word and the same translate for every position it answers.
"""

from __future__ import annotations

import random
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from catalog.compute import worddescent
from catalog.compute.ptable import p_positions
from catalog.compute.wordfarout import PROVED_N, _holding, solve
from catalog.games.definition import canonicalize


def game(k: int, m: int):
    rays = [[1, 0], [0, 1], [1, 1]]
    return canonicalize({"rays": rays, "moves": [[k, m], [m, k]]})


@pytest.fixture(scope="module", params=[(1, 2), (2, 3), (1, 3), (1, 7)])
def solver(request):
    k, m = request.param
    n = PROVED_N if (k, m) == (1, 2) else 20_000
    g = game(k, m)
    solved = solve(g.moves, p_positions(g, n), n, base_bits=4000)
    assert solved is not None and solved.solver.descent is not None
    return solved.solver


def by_windows(solver, p):
    lower, upper = solver.windows(p)
    return _holding(upper, p), solver._source_in(lower, p)


def by_descent(solver, p):
    found = solver.descent.locate(p)
    assert found is not None, p
    return found


def positions(solver, rng):
    """Random positions of every size up to 10^60, and positions on both
    sides of each level boundary (where the descent starts one level lower)."""
    out = [solver.read, solver.read + 1]
    for exponent in range(5, 61, 5):
        out += [rng.randrange(10 ** (exponent - 1), 10**exponent) for _ in range(12)]
    limit = solver.descent.limit
    for level in range(1, 60, 3):
        edge = int(limit * worddescent.PHI**level)
        out += [edge + d for d in (-2, -1, 0, 1, 2)]
    return [p for p in out if p >= solver.read]


def test_the_descent_finds_what_the_windows_find(solver):
    for p in positions(solver, random.Random(len(solver.book))):
        assert by_descent(solver, p) == by_windows(solver, p), p


def test_far_out_to_the_contracts_limit(solver):
    """Up to 10^300 (the largest coordinate a query takes), at random
    positions and on both sides of a boundary near the top level, against
    the window method (0.2 s a position there)."""
    rng = random.Random(len(solver.book) + 300)
    edge = int(solver.descent.limit * worddescent.PHI**1410)
    out = [rng.randrange(10**149, 10**150), rng.randrange(10**299, 10**300)]
    for p in [*out, edge - 1, edge + 1]:
        assert by_descent(solver, p) == by_windows(solver, p), p


def chain_start(d, n, s, z, c):
    """The start of the n-fold image one level at a time (no jumps)."""
    for k in range(n - 1, -1, -1):
        i = next(i for i, e in enumerate(d.kids[c]) if d.lengths[k][e])
        s, z, c = s + z + d.shift_s[c][i], s + d.shift_z[c][i], d.kids[c][i]
    return s


def test_the_jumps_go_up_the_chain_and_images_tile(solver):
    """The binary lifting gives the one-level chain's start, and the n-fold
    images of consecutive written-out words follow each other (lengths and
    starts agree), for levels up to 10^300's."""
    d = solver.descent
    d._tables(1420)
    starts, zeros = solver.start_list, solver.zero_list
    rng = random.Random(5)
    for n in (1, d.stable, d.stable + 1, 64, 65, 511, 1024, 1419):
        for j in rng.sample(range(d.context, len(d.base) - 1), 4):
            while not (d.lengths[n][d.base[j]] and d.lengths[n][d.base[j + 1]]):
                j += 1
            here = d._image_start(n, starts[j], zeros[j], d.base[j])
            assert here == chain_start(d, n, starts[j], zeros[j], d.base[j])
            after = d._image_start(n, starts[j + 1], zeros[j + 1], d.base[j + 1])
            assert after - here == d.lengths[n][d.base[j]], (n, j)


def test_every_block_class_is_closed(solver):
    """Each class's images are classes, its words the dictionary's, and an
    image ends where the next translate's pending part starts."""
    d = solver.descent
    size = len(d.word)
    assert all(0 <= c < size for kids in d.kids for c in kids)
    assert set(d.word) <= set(solver.book)
    assert all(set(back) <= set(solver.book) for back in d.back)
    assert all(len(d.kids[c]) == len(d.shift_s[c]) for c in range(size))
    assert len(d.base) == min(worddescent.BASE_WORDS, len(solver.words) - 64)


def test_the_first_levels_against_the_written_out_parse():
    """Where the parse is written out, the descent's word and translate are
    the written-out ones (a base of 4000 bits, read up to the full set-up)."""
    g = game(1, 2)
    table = p_positions(g, PROVED_N)
    small = solve(g.moves, table, PROVED_N, base_bits=4000).solver
    big = solve(g.moves, table, PROVED_N).solver
    rng = random.Random(7)
    inside = range(small.read, big.read)
    for p in [*inside[:300], *rng.sample(inside, 300), *inside[-300:]]:
        assert by_descent(small, p) == big.find(p), p


def test_past_the_tables_the_windows_answer(solver, monkeypatch):
    rng = random.Random(3)
    xs = [rng.randrange(10**29, 10**30) for _ in range(10)]
    want = [solver.column(x) for x in xs]
    monkeypatch.setattr(worddescent, "MAX_LEVELS", 3)
    assert all(solver.descent.locate(x) is None for x in xs)
    assert [solver.column(x) for x in xs] == want


def at_once(query, points):
    """``query`` of every point from four threads that switch often."""
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        with ThreadPoolExecutor(4) as pool:
            return list(pool.map(query, points))
    finally:
        sys.setswitchinterval(previous)


def test_threads_growing_the_tables_at_once(solver):
    """Requests share a solver: tables grown by several threads at once
    (switching often) answer as one thread's do (without the lock, two
    threads appended the same level twice)."""
    rng = random.Random(11)
    points = [rng.randrange(10 ** (e - 1), 10**e) for e in range(10, 121, 10)]
    want = [by_descent(solver, p) for p in points]
    fresh = worddescent.build(solver)
    assert fresh is not None
    found = at_once(fresh.locate, points)
    assert found == want


def test_the_tables_are_built_once_by_the_first_query_past_the_words(monkeypatch):
    """solve (and the invariants, which only check the dictionary) builds no
    descent; the first query past the written-out words builds it, once,
    however many threads ask at once."""
    built = []
    real = worddescent.build

    def counted(parse):
        built.append(parse)
        return real(parse)

    monkeypatch.setattr(worddescent, "build", counted)
    g = game(2, 3)
    solved = solve(g.moves, p_positions(g, 20_000), 20_000, base_bits=4000)
    assert solved is not None and built == []
    solver = solved.solver
    solver.find(solver.read - 1)  # written out: no descent
    assert built == []
    points = [10**k + k for k in range(20, 60)]
    found = at_once(solver.find, points)
    assert built == [solver]
    assert found == [by_descent(solver, p) for p in points]
