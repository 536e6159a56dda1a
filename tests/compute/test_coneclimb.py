"""The climb of catalog.compute.wedgescan for the cones that are not wedges
(bands, plain cones without an upper line, mirrored ones without one of
s1 <= 1) beside wedges, with mods 2..64 odd and even, forced cells, extra
rays and moves: against the literal rules (kind_reference), the dense
engine, and the class by class search with its rings and trees."""

from __future__ import annotations

import random

import numpy as np
import pytest

from catalog.compute import conesweep, conetrees, kind_reference, wedges, wedgescan
from catalog.compute.conesweep import cone_sweep_p_positions
from catalog.compute.dense import dense_p_positions
from catalog.compute.ruleset import in_cone, rules

NIM = [[1, 0], [0, 1]]
MODS = [2, 3, 4, 5, 7, 8, 9, 16, 31, 32, 64]
KINDS = ["plain", "mirrored0", "mirrored1", "band", "mirrored band", "wedge"]


def random_cones(rng: random.Random) -> list[list[int]]:
    """One to three cones that grow under one σ ≡ 1 (mod M): σ = 1, or
    1 + m with m <= 8 (then no mirrored cone of s1 = 1); the first of mod
    m, the others of mod m or 1."""
    m = rng.choice(MODS)
    sigma = 1 + m if m <= 8 and rng.random() < 0.3 else 1
    kinds = rng.choices(KINDS, k=rng.choice([1, 1, 2, 3]))
    cones = []
    for i, kind in enumerate(kinds):
        mj = rng.choice([m, m, 1]) if i else m
        t1 = rng.randint(-8, 6)
        t2 = t1 + rng.randint(0, 2 * mj + 3)
        if kind == "plain":
            cones.append([rng.randint(0, sigma), t1, 0, 0, 0, mj, 0])
        elif kind == "mirrored0" or (kind == "mirrored1" and sigma > 1):
            cones.append([0, t1, 0, 0, 0, mj, 1])
        elif kind == "mirrored1":
            cones.append([1, t1, 0, 0, 0, mj, 1])
        elif kind == "band" or sigma > 1:
            cones.append([sigma, t1, sigma, t2, 1, mj, 0])
        elif kind == "mirrored band":
            cones.append([1, t1, 1, t2, 1, mj, 1])
        else:
            s1 = max(0, sigma - rng.choice([0, 1, 2]))
            cones.append([s1, t1, sigma + rng.choice([1, 3]), t2, 1, mj, 0])
    return cones


def random_game(rng: random.Random, n: int) -> dict:
    cells = [[rng.randrange(n), rng.randrange(n)] for _ in range(6)]
    forced_p = cells[: rng.choice([0, 0, 1, 3])]
    extra = [[rng.randint(1, 3), rng.randint(1, 3)]] if rng.random() < 0.2 else []
    moves = [[rng.randint(0, 4), rng.randint(1, 4)] for _ in range(rng.randint(0, 1))]
    return {
        "cones": random_cones(rng),
        "rays": NIM + extra,
        "moves": moves,
        "forced_p": forced_p,
        "forced_n": [c for c in cells[3:] if c not in forced_p],
    }


def climbs(cones: list[list[int]]) -> bool:
    arr = rules(NIM, None, conesweep._as_bands(cones)).cones
    return wedgescan.common_shear(int(np.lcm.reduce(arr[:, 5])), arr) >= 0


def test_random_games_climb() -> None:
    rng = random.Random(1)
    games = [random_cones(rng) for _ in range(300)]
    assert all(climbs(c) for c in games)
    for kind in ("plain", "mirrored", "band"):  # each kind alone, and beside others
        alone = [c for c in games if len(c) == 1 and _kind(c[0]) == kind]
        mixed = [c for c in games if len(c) > 1 and kind in map(_kind, c)]
        assert len(alone) > 10 and len(mixed) > 20, kind


def _kind(row: list[int]) -> str:
    if not row[4]:
        return "mirrored" if row[6] else "plain"
    return "band" if row[0] == row[2] else "wedge"


@pytest.mark.parametrize("seed", range(3))
def test_climb_matches_the_literal_rules(seed: int) -> None:
    rng = random.Random(300 + seed)
    for _ in range(15):
        n = rng.randint(1, 26)
        game = random_game(rng, n)
        np.testing.assert_array_equal(
            cone_sweep_p_positions(n, **game),
            kind_reference.p_positions(n, **game),
            str(game),
        )


@pytest.mark.parametrize("seed", range(4))
def test_climb_matches_the_dense_engine(seed: int) -> None:
    rng = random.Random(400 + seed)
    for _ in range(40):
        n = rng.randint(1, 150)
        game = random_game(rng, n)
        np.testing.assert_array_equal(
            cone_sweep_p_positions(n, **game), dense_p_positions(n, **game), str(game)
        )


def test_climb_matches_the_class_search_far_out(monkeypatch) -> None:
    """The climb (with the wedges as components, then as trees) and the
    class by class search (bands in rings of their own, mirrored cones of
    s1 = 1 in Fenwick trees) at n = 3000, with the benchmark's mod-64 cones
    among the games."""
    rng = random.Random(11)
    games = [random_game(rng, 3000) for _ in range(12)]
    games += [
        {"cones": [[0, 1, 0, 0, 0, 64, 1]]},
        {"cones": [[1, -1, 1, 1, 1, 64, 0]]},
        {"cones": [[0, 3, 0, 0, 0, 33, 1], [1, 0, 2, 2, 1, 33, 0]]},
        {"cones": [[1, 2, 0, 0, 0, 16, 1], [1, -5, 1, 40, 1, 16, 0]]},
        # no shared σ (the mirrored cone needs σ <= 1, the plain one 5): searched
        {"cones": [[1, 2, 0, 0, 0, 4, 1], [3, 0, 0, 0, 0, 4, 0]]},
        {"cones": [[1, 2, 0, 0, 0, 4, 1], [5, 0, 5, 0, 1, 4, 0]]},
    ]
    n = 3000
    fast = [cone_sweep_p_positions(n, **g) for g in games]
    with monkeypatch.context() as patch:  # the climb asks the wedges' trees
        patch.setattr(wedges, "shear", lambda row: 0)
        trees = [cone_sweep_p_positions(n, **g) for g in games]
    monkeypatch.setattr(wedgescan, "common_shear", lambda *args: -1)
    for game, got, other in zip(games, fast, trees, strict=True):
        np.testing.assert_array_equal(got, other, str(game))
        np.testing.assert_array_equal(got, cone_sweep_p_positions(n, **game), str(game))


@pytest.mark.parametrize(
    "cones",
    [
        [[0, 3, 0, 0, 0, 4, 1], [1, 0, 2, 2, 1, 4, 0]],
        [[1, -2, 0, 0, 0, 3, 1]],
        [[1, 2, 0, 0, 0, 1, 1], [0, 1, 3, 0, 1, 2, 0]],
        [[0, 2, 0, 0, 0, 5, 0], [2, -1, 0, 0, 0, 1, 0]],
    ],
)
def test_settled_rows_stay_blocked(cones: list[list[int]]) -> None:
    """settled_run with the cones' trees against the literal move set: a
    row it settles is blocked, and so is the row σ higher in each later
    column; 0 means free."""
    r = rules(NIM, None, cones)
    sigma = wedgescan.common_shear(int(np.lcm.reduce(r.cones[:, 5])), r.cones)
    assert sigma >= 0
    n, points = 60, [(0, 1), (0, 9), (1, 0), (2, 5), (3, 3), (4, 14), (6, 2)]
    delay, shift, tbase, tsize, tv, tu, ws, bits = conesweep._trees(
        n, r.cones, r.kc, climb=True
    )
    x0 = max(p[0] for p in points) + 12  # every point old enough
    for j in range(len(r.cones)):
        for xo, yo in points:
            if wedges.field(ws, j, wedges.KIND):
                wedges.insert(ws, bits, j, x0, xo, yo)
            else:
                conetrees.enter(
                    r.cones, j, n, shift, tbase, tsize, tv, tu, bits, xo, yo
                )

    def blocked(x: int, y: int) -> bool:
        return any(in_cone(row, x - xo, y - yo) for row in r.cones for xo, yo in points)

    for x in range(x0, x0 + 12):
        wedges.merge_due(ws, bits, x)
        for y in range(n):
            run = wedgescan.settled_run(
                ws, bits, r.cones, shift, tbase, tsize, tv, tu, x, y, n
            )
            assert (run > 0) == blocked(x, y), (x, y)
            for i in range(run):
                for later in range(x, x0 + 12):
                    assert blocked(later, y + i + sigma * (later - x)), (x, y, i)


@pytest.mark.parametrize(
    "cones",
    [
        [[1, -5, 0, 0, 0, 2, 1], [3, -3, 3, 0, 1, 2, 0]],
        [[1, -4, 0, 0, 0, 3, 1], [3, 10, 0, 0, 0, 3, 0]],
        [[1, -4, 0, 0, 0, 8, 1], [5, 30, 0, 0, 0, 1, 0]],
    ],
)
def test_no_shared_shear_is_searched(cones: list[list[int]]) -> None:
    """A mirrored cone of s1 = 1 without an upper line grows only under
    σ <= 1, the other cone needs σ >= 3: such games are searched class by
    class (climbed under σ = 3, 4 or 9 they come out wrong by n = 170)."""
    assert not climbs(cones)
    np.testing.assert_array_equal(
        cone_sweep_p_positions(170, cones), dense_p_positions(170, NIM, cones=cones)
    )


def test_bands_take_no_rings_in_the_climb() -> None:
    """A band of mod 64 at n = 10^6 climbs in its settled rows: the lines
    it would need apart (64 classes of 2 n lines, half a word each: 1 GB
    counted with their ``tu`` words) are not built."""
    r = rules(NIM, None, [[1, -1, 1, 1, 1, 64, 0]])
    assert conesweep._tree_bytes(10**6, r.cones, [0], climb=True) < 2**12
    assert conesweep._tree_bytes(10**6, r.cones, [0]) > 2**29
