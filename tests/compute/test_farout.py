"""Far-out outcomes of altered Wythoff games against direct computation."""

from __future__ import annotations

import json
import random
from collections import defaultdict

import numpy as np
import pytest

from catalog.compute import closed, reference
from catalog.compute.altered import p_positions, row_stream, saturation
from catalog.compute.farout import FarOut, Stream
from catalog.compute.offsets import theorem3
from catalog.games.definition import canonicalize
from catalog.store.seed import seed_dir
from tests.papers import legal

WYTHOFF_RAYS = [[1, 0], [0, 1], [1, 1]]
ALTERED_SEEDS = ["W000002", "W000016", "W000017", "W000018", "W000019", "W000021"]


def seed_game(wid: str):
    return canonicalize(
        json.loads((seed_dir() / f"{wid}.json").read_text())["definition"]
    )


def random_games(count: int, seed: int, size: int = 12):
    rng = random.Random(seed)
    games = []
    while len(games) < count:
        cells = {(rng.randrange(size), rng.randrange(size)) for _ in range(9)}
        forced_p = {c for c in cells if rng.random() < 0.4}
        alter = {"P": sorted(forced_p), "N": sorted(cells - forced_p)}
        games.append(canonicalize({"rays": WYTHOFF_RAYS, "alter": alter}))
    return games


GAMES = [seed_game(w) for w in ALTERED_SEEDS] + random_games(60, seed=7)


@pytest.mark.parametrize("seed", range(20))
def test_stream_against_the_written_out_string(seed):
    rng = random.Random(seed)
    bits = [rng.randrange(2) for _ in range(rng.randrange(1, 12))]
    written = row_stream(np.array(bits, dtype=np.int8), 3000)
    stream = Stream(bits)
    zeros = np.concatenate([[0], np.cumsum(written == 0)])
    where = np.flatnonzero(written == 0)
    for q in range(0, 2990, 7):
        assert stream.bit(q) == written[q]
        assert stream.rank0(q) == zeros[q]
    for m in range(0, where.size, 5):
        assert stream.select0(m) == where[m]


def by_line(positions: np.ndarray):
    cols, rows, diags = defaultdict(list), defaultdict(list), defaultdict(list)
    for x, y in positions.tolist():
        cols[x].append(y)
        rows[y].append(x)
        diags[y - x].append(x)
    return cols, rows, diags


@pytest.mark.parametrize("game", GAMES, ids=range(len(GAMES)))
def test_columns_rows_and_diagonals_against_the_sweep(game):
    n = 1500
    solved = FarOut(saturation(game))
    cols, rows, diags = by_line(p_positions(game, n))
    for x in range(n):
        assert [y for y in solved.column(x) if y < n] == sorted(cols[x])
    for y in range(n // 3):  # every P-position of these rows lies left of n
        assert solved.row(y) == sorted(rows[y])
    for k in range(-n // 4, n // 4):
        assert solved.diagonal(k) == sorted(diags[k])


@pytest.mark.parametrize("game", GAMES[:20], ids=range(20))
def test_outcomes_and_winning_moves_against_the_reference(game):
    n = 60
    assert game.rays == closed.WYTHOFF_RAYS and not (game.moves or game.special)
    grid = reference.outcome_grid(game, n)
    solved = FarOut(saturation(game))
    forced_n = set(game.forced_n)
    for x in range(n):
        for y in range(n):
            assert solved.is_p(x, y) == bool(grid[x, y])
            move = solved.winning_move(x, y)
            if grid[x, y]:
                # A P-position's options are N, but a forced one's may be P.
                if (x, y) not in set(game.forced_p):
                    assert move is None
                else:
                    assert move is None or (legal((x, y), move) and grid[move])
                continue
            if move is None:  # only a forced N-position may have no P option
                assert (x, y) in forced_n
                assert not any(grid[o] for o in reference.options(game, x, y))
            else:
                assert legal((x, y), move)
                assert grid[move]


@pytest.mark.parametrize("wid", ["W000016", "W000017", "W000019"])
def test_up_to_a_million_against_the_sweep(wid):
    game = seed_game(wid)
    n = 10**6
    found = p_positions(game, n)
    solved = FarOut(saturation(game))
    rng = np.random.default_rng(5)
    first = np.searchsorted(found[:, 0], np.arange(n))
    for x in np.concatenate([rng.integers(0, n, 3000), np.arange(n - 300, n)]):
        x = int(x)
        expected = found[first[x] : first[x + 1] if x + 1 < n else None, 1]
        assert [y for y in solved.column(x) if y < n] == expected.tolist()
    cells = found[rng.integers(0, len(found), 2000)]
    for x, y in cells.tolist():
        assert solved.is_p(x, y)
        assert x in solved.row(y) and x in solved.diagonal(y - x)
        assert not solved.is_p(x, y + 1) or (x, y + 1) in set(game.forced_p)


def test_far_out_is_consistent_and_shifted_wythoff():
    """At 10^18 the lines agree with each other, every winning move is legal
    and lands on a P-position, and (Theorem 1) almost every column is
    Wythoff's shifted by the offset."""
    rng = random.Random(3)
    for game in [seed_game(w) for w in ALTERED_SEEDS]:
        sat = saturation(game)
        solved = FarOut(sat)
        dx, dy = theorem3(game, sat).dx, theorem3(game, sat).dy
        agree = 0
        for _ in range(300):
            x = rng.randrange(10**17, 10**18)
            (y,) = solved.column(x)
            assert solved.row(y) == [x] and solved.diagonal(y - x) == [x]
            label, _ = closed.outcome(x + dx, y + dy)
            agree += label == "P"
            for probe in [(x, y + 1), (x + 1, y), (x, y - 1), (x + 5, y + 5)]:
                assert not solved.is_p(*probe)
                to = solved.winning_move(*probe)
                assert to is not None and solved.is_p(*to)
                moved = (probe[0] - to[0], probe[1] - to[1])
                assert min(moved) >= 0 and max(moved) > 0
                assert 0 in moved or moved[0] == moved[1]
        assert agree >= 297


def test_every_column_below_100000():
    game = seed_game("W000016")
    n = 100_000
    found = p_positions(game, n)
    solved = FarOut(saturation(game))
    rows = np.full(n, -1)
    rows[found[:, 0]] = found[:, 1]  # one P-position per column here
    assert np.unique(found[:, 0]).size == len(found)
    for x in range(n):
        (y,) = solved.column(x)
        assert y == rows[x] or (rows[x] == -1 and y >= n)
