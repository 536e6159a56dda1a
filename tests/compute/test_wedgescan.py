"""The cone sweep's scan of all classes at once (catalog.compute.wedgescan),
for games whose cones are wedges of one shear, with mods up to 64: against
the literal rules (kind_reference), the dense engine, the sweep's class by
class search and the Fenwick trees; and when it is chosen."""

from __future__ import annotations

import random

import numpy as np
import pytest

from catalog.compute import conesweep, kind_reference, wedges, wedgescan
from catalog.compute.conesweep import cone_sweep_p_positions
from catalog.compute.dense import dense_p_positions
from catalog.compute.ruleset import in_cone, rules

NIM = [[1, 0], [0, 1]]
MODS = [2, 3, 4, 7, 8, 13, 16, 32, 64]


def random_wedges(rng: random.Random) -> list[list[int]]:
    """Wedges sharing a shear σ: (s,t)-Wythoff's two (σ = 1), plain ones
    around a σ ≡ 1 (mod m) (steep, wide or narrow), with mods up to 64,
    sometimes one of mod 1 beside them (its runs are settled whole)."""
    m = rng.choice(MODS)
    if rng.random() < 0.5:
        s, t = rng.randint(1, 4), rng.randint(-3, 6)
        cones = [[1, rng.randint(-2, 1), s + 1, t, 1, m, mirror] for mirror in (0, 1)]
    else:
        sigma = 1 + m * rng.choice([0, 0, 0, 1]) if m <= 8 else 1
        cones = [
            [
                max(0, sigma - rng.choice([0, 1, 2])),
                rng.randint(-10, 6),
                sigma + rng.choice([0, 1, 3, 9]),
                rng.randint(-6, 10),
                1,
                rng.choice([m, m, 1]) if i else m,
                0,
            ]
            for i in range(rng.choice([1, 1, 2, 3]))
        ]
    if rng.random() < 0.2 and cones[0][0] <= 1 <= cones[0][2]:
        cones.append([0, rng.randint(0, 3), 2, rng.randint(-2, 4), 1, 1, 1])
    return [c if c[0] < c[2] else [c[0], c[1], c[2] + 1, *c[3:]] for c in cones]


def random_game(rng: random.Random, n: int) -> dict:
    cells = [[rng.randrange(n), rng.randrange(n)] for _ in range(6)]
    forced_p = cells[: rng.choice([0, 0, 1, 3])]
    extra = [[rng.randint(1, 3), rng.randint(1, 3)]] if rng.random() < 0.2 else []
    moves = [[rng.randint(0, 4), rng.randint(1, 4)] for _ in range(rng.randint(0, 1))]
    return {
        "cones": random_wedges(rng),
        "rays": NIM + extra,
        "moves": moves,
        "forced_p": forced_p,
        "forced_n": [c for c in cells[3:] if c not in forced_p],
    }


def scanned(cones: list[list[int]]) -> bool:
    """Does the cone sweep take the scan of all classes for these cones
    (budget aside)?"""
    arr = rules(NIM, None, conesweep._as_bands(cones)).cones
    big_m = int(np.lcm.reduce(arr[:, 5]))
    return wedgescan.common_shear(big_m, arr) >= 0


def test_random_games_take_the_scan() -> None:
    rng = random.Random(0)
    games = [random_game(rng, 50)["cones"] for _ in range(300)]
    assert sum(scanned(c) for c in games) > 250
    assert sum(any(r[5] == 1 for r in c) and scanned(c) for c in games) > 20


def test_common_shear() -> None:
    """The least σ ≡ 1 (mod every m) inside every plain cone's slopes
    ([s1, ∞) without an upper line); 1 with a mirrored wedge, at most 1
    with a mirrored cone of s1 = 1 and no upper line; -1 without one, or
    with M = 1."""

    def sigma(*cones: list[int]) -> int:
        arr = np.array(cones, dtype=np.int64)
        return wedgescan.common_shear(int(np.lcm.reduce(arr[:, 5])), arr)

    assert sigma([1, 0, 2, 2, 1, 64, 0], [1, 0, 2, 2, 1, 64, 1]) == 1
    assert sigma([2, 0, 9, 0, 1, 4, 0]) == 5
    assert sigma([2, 0, 9, 0, 1, 4, 0], [0, 0, 6, 0, 1, 2, 0]) == 5
    assert sigma([2, 0, 9, 0, 1, 4, 0], [0, 0, 4, 0, 1, 2, 0]) == -1
    assert sigma([2, 0, 9, 0, 1, 4, 0], [0, 0, 2, 0, 1, 1, 1]) == -1
    assert sigma([0, 0, 3, 0, 1, 1, 0]) == -1  # M = 1: the class search
    assert sigma([0, 0, 3, 0, 1, 2, 0]) == 1
    assert sigma([1, 0, 2, 2, 1, 64, 0], [1, 0, 1, 2, 1, 1, 0]) == 1  # a band
    assert sigma([2, 0, 2, 2, 1, 1, 0], [0, 0, 3, 0, 1, 2, 0]) == -1  # band at 2
    assert sigma([3, 0, 3, 2, 1, 2, 0], [0, 0, 3, 0, 1, 2, 0]) == 3
    assert sigma([2, 0, 3, 1, 1, 2, 1]) == -1  # mirrored, s1 >= 2
    assert sigma([3, 1, 0, 0, 0, 64, 0]) == 65  # plain, no upper line
    assert sigma([0, 1, 0, 0, 0, 4, 1], [3, 1, 0, 0, 0, 4, 0]) == 5
    assert sigma([1, 1, 0, 0, 0, 4, 1], [3, 1, 0, 0, 0, 4, 0]) == -1
    assert sigma([1, 1, 0, 0, 0, 4, 1]) == 1
    assert sigma([2, 1, 0, 0, 0, 4, 1]) == -1  # mirrored, s1 >= 2


@pytest.mark.parametrize("seed", range(3))
def test_scan_matches_the_literal_rules(seed: int) -> None:
    rng = random.Random(100 + seed)
    for _ in range(12):
        n = rng.randint(1, 26)
        game = random_game(rng, n)
        np.testing.assert_array_equal(
            cone_sweep_p_positions(n, **game),
            kind_reference.p_positions(n, **game),
            str(game),
        )


@pytest.mark.parametrize("seed", range(4))
def test_scan_matches_the_dense_engine(seed: int) -> None:
    rng = random.Random(200 + seed)
    for _ in range(40):
        n = rng.randint(1, 150)
        game = random_game(rng, n)
        np.testing.assert_array_equal(
            cone_sweep_p_positions(n, **game), dense_p_positions(n, **game), str(game)
        )


def test_scan_matches_the_class_search_and_the_trees_far_out(monkeypatch) -> None:
    """Three structures, one answer, at n where settled runs, merges and
    events abound; (s,t)-Wythoff's wedges with each mod among them."""
    rng = random.Random(7)
    games = [random_game(rng, 3000) for _ in range(10)]
    games += [
        {"cones": [[1, 0, 2, 2, 1, m, 0], [1, 0, 2, 2, 1, m, 1]]}
        for m in (7, 13, 16, 32, 64)
    ]
    n = 3000
    fast = [cone_sweep_p_positions(n, **g) for g in games]
    monkeypatch.setattr(wedgescan, "common_shear", lambda *args: -1)
    search = [cone_sweep_p_positions(n, **g) for g in games]
    monkeypatch.setattr(wedges, "shear", lambda row: 0)
    for game, got, other in zip(games, fast, search, strict=True):
        np.testing.assert_array_equal(got, other, str(game))
        np.testing.assert_array_equal(got, cone_sweep_p_positions(n, **game), str(game))


@pytest.mark.parametrize("m", [16, 64])
def test_st_wythoff_mod_m_at_large_n(m: int, monkeypatch) -> None:
    """(2,3)-Wythoff's wedges mod 16 and 64 at n = 10^5: the scan and the
    class by class search agree."""
    cones = [[1, 0, 2, 2, 1, m, mirror] for mirror in (0, 1)]
    assert scanned(cones)
    fast = cone_sweep_p_positions(10**5, cones)
    monkeypatch.setattr(wedgescan, "common_shear", lambda *args: -1)
    np.testing.assert_array_equal(fast, cone_sweep_p_positions(10**5, cones))


def test_scan_left_out() -> None:
    """The class search keeps M = 1 and a cone whose blocked rows do not
    only grow under the others' shear (a mirrored cone of s1 >= 2); bands
    and cones without an upper line of a shear ≡ 1 (mod M) climb."""
    assert not scanned([[1, 0, 2, 2, 1, 1, 0], [1, 0, 2, 2, 1, 1, 1]])
    assert not scanned([[1, 0, 2, 2, 1, 4, 0], [2, 0, 3, 0, 1, 4, 1]])
    assert not scanned([[2, 0, 3, 1, 1, 64, 1]])
    assert scanned([[1, 0, 2, 2, 1, 4, 0], [1, 0, 1, 3, 1, 2, 0]])
    assert scanned([[1, 0, 2, 2, 1, 4, 0], [1, 0, 1, 3, 0, 2, 0]])
    assert scanned([[0, 1, 0, 0, 0, 64, 1]])
    assert scanned([[1, -3, 1, 2, 1, 64, 1]])  # a mirrored band of slope 1
    assert not scanned([[2, -3, 2, 2, 1, 64, 1]])


def test_scan_past_the_budget_falls_back(monkeypatch) -> None:
    """The settled table counts in the sweep's budget: one byte short, the
    sweep searches class by class, with the same answer."""
    n, cones = 2000, [[1, 0, 2, 2, 1, 8, 0], [1, 0, 2, 2, 1, 8, 1]]
    r = rules(NIM, None, cones)
    held = sum(a.nbytes for a in conesweep._trees(n, r.cones, r.kc))
    fast = cone_sweep_p_positions(n, cones)
    calls = []
    scan = wedgescan.scan
    monkeypatch.setattr(wedgescan, "scan", lambda *a: calls.append(1) or scan(*a))
    for budget in (held + 8 * (2 * n + 2), held + 8 * (2 * n + 2) - 1):
        monkeypatch.setattr(conesweep, "TREE_BUDGET", budget)
        np.testing.assert_array_equal(fast, cone_sweep_p_positions(n, cones))
    assert calls == [1]


@pytest.mark.parametrize(
    "cones",
    [
        [[1, 0, 2, 2, 1, 2, 0], [1, 0, 2, 2, 1, 2, 1]],
        [[1, -1, 3, 1, 1, 7, 0], [0, 2, 2, -1, 1, 7, 1]],
        [[2, -1, 9, 0, 1, 4, 0]],
        [[1, 0, 2, 2, 1, 3, 0], [0, 1, 4, 2, 1, 1, 0]],
    ],
)
def test_settled_rows_stay_blocked(cones: list[list[int]]) -> None:
    """settled_run against the literal move set, column after column (the
    events merged as the sweep merges them): a row it settles is blocked,
    and so is the row σ higher in each later column; 0 means free."""
    r = rules(NIM, None, cones)
    kinds = [wedges.shear(c) for c in r.cones]
    sigma = wedgescan.common_shear(int(np.lcm.reduce(r.cones[:, 5])), r.cones)
    assert sigma >= 0
    n, points = 60, [(0, 1), (0, 9), (1, 0), (2, 5), (3, 3), (4, 14), (6, 2)]
    ws, bits = wedges.layout(n, r.cones, r.kc, kinds)
    none = np.zeros(len(cones), dtype=np.int64)
    entry = max(int(wedges.field(ws, j, wedges.ENTRY)) for j in range(len(cones)))
    x0 = max(p[0] for p in points) + entry
    for j in range(len(cones)):
        for xo, yo in points:
            wedges.insert(ws, bits, j, x0, xo, yo)

    def blocked(x: int, y: int) -> bool:
        return any(in_cone(row, x - xo, y - yo) for row in r.cones for xo, yo in points)

    for x in range(x0, x0 + 12):
        wedges.merge_due(ws, bits, x)
        for y in range(n):
            run = wedgescan.settled_run(
                ws, bits, r.cones, none, none, none, none, none, x, y, n
            )
            assert (run > 0) == blocked(x, y), (x, y)
            for i in range(run):
                for later in range(x, x0 + 12):
                    assert blocked(later, y + i + sigma * (later - x)), (x, y, i)
