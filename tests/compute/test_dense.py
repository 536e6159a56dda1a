"""The dense box engine, the Grundy table and the theorem paths against the
literal reference (catalog.compute.kind_reference) and the papers' facts."""

from __future__ import annotations

import random

import numpy as np
import pytest

from catalog.compute import kind_reference, reference
from catalog.compute.dense import dense_p_positions
from catalog.compute.mex import beatty_mex, st_wythoff
from catalog.compute.ruleset import dense_grundy, rules

WYTHOFF = [[1, 0], [0, 1], [1, 1]]
NIM = [[1, 0], [0, 1]]


def a_wythoff(a: int) -> dict:
    return {"rays": NIM, "cones": [[1, 1 - a, 1, a - 1, 1, 1, 0]]}


def st_game(s: int, t: int) -> dict:
    return {"rays": NIM, "cones": [[1, 0, s, t - 1, 1, 1, m] for m in (0, 1)]}


def random_rules(rng: random.Random, n: int, block: bool = True) -> dict:
    """Rays, moves, cones (mirrored, modular, with or without an upper
    bound), Euclid, Ho's restriction, blocking and forced cells, at random."""
    pairs = [(rng.randint(0, 3), rng.randint(0, 3)) for _ in range(5)]
    pairs = [list(p) for p in pairs if p != (0, 0)]
    cones = []
    for _ in range(rng.choice([0, 1, 1, 2])):
        s1 = rng.randint(0, 3)
        cones.append(
            [
                s1,
                rng.randint(-8, 6),
                s1 + rng.randint(0, 2),
                rng.randint(-6, 8),
                rng.randint(0, 1),
                rng.choice([1, 1, 2, 3, 5]),
                rng.randint(0, 1),
            ]
        )
    cells = [[rng.randrange(n), rng.randrange(n)] for _ in range(6)]
    spec = {
        "rays": pairs[:2],
        "moves": pairs[2:] + [[rng.randint(0, 4), rng.randint(1, 4)]],
        "cones": cones,
        "euclid": rng.random() < 0.3,
        "ho_restriction": rng.random() < 0.3,
    }
    if block:
        forced_p = cells[: rng.randint(0, 3)]
        spec |= {
            "block": rng.choice([0, 0, 0, 1, 2, 3, 4]),
            "forced_p": forced_p,
            "forced_n": [c for c in cells[3:] if c not in forced_p],
        }
    return spec


@pytest.mark.parametrize("seed", range(6))
def test_dense_matches_the_literal_rules(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(25):
        n = rng.randint(1, 22)
        spec = random_rules(rng, n)
        expected = kind_reference.p_positions(n, **spec)
        np.testing.assert_array_equal(dense_p_positions(n, **spec), expected, str(spec))


@pytest.mark.parametrize(
    "spec",
    [
        a_wythoff(3) | {"block": 2},
        st_game(2, 3),
        {"rays": NIM, "cones": [[0, 1, 0, 0, 0, 5, 0], [2, -7, 3, 4, 1, 3, 1]]},
        {"rays": [[1, 2]], "cones": [[1, -9, 0, 0, 0, 2, 1]], "block": 1},
        {"euclid": True, "moves": [[1, 1]], "block": 1, "forced_n": [[7, 9]]},
    ],
)
def test_dense_matches_the_literal_rules_on_a_larger_box(spec: dict) -> None:
    expected = kind_reference.p_positions(40, **spec)
    np.testing.assert_array_equal(dense_p_positions(40, **spec), expected)


@pytest.mark.parametrize("seed", range(3))
def test_grundy_matches_the_literal_rules(seed: int) -> None:
    rng = random.Random(100 + seed)
    for _ in range(8):
        n = rng.randint(1, 16)
        spec = random_rules(rng, n, block=False)
        np.testing.assert_array_equal(
            dense_grundy(n, **spec), kind_reference.grundy(n, **spec), str(spec)
        )


def test_the_literal_rules_agree_with_the_catalog_reference() -> None:
    """kind_reference (the oracle here) labels rays, moves, Ho's restriction
    and forced cells as catalog.compute.reference does."""
    definition = {
        "rays": [[1, 0], [0, 1], [1, 1]],
        "moves": [[1, 2], [2, 1]],
        "special": ["ho-restriction"],
        "alter": {"P": [[4, 4]], "N": [[1, 2]]},
    }
    spec = {
        "rays": definition["rays"],
        "moves": definition["moves"],
        "ho_restriction": True,
        "forced_p": [[4, 4]],
        "forced_n": [[1, 2]],
    }
    np.testing.assert_array_equal(
        kind_reference.outcome_grid(30, **spec), reference.outcome_grid(definition, 30)
    )


def test_grundy_rows_asserted_by_cgsuite() -> None:
    """GameHeapTest.scala (aaron-siegel/cgsuite): row x = 10, y = 0..20."""
    assert dense_grundy(21, **a_wythoff(2))[10].tolist() == [
        10, 11, 12, 13, 0, 14, 9, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 15, 28, 29, 30
    ]  # fmt: skip
    assert dense_grundy(21, rays=WYTHOFF)[10].tolist() == [
        10, 11, 9, 8, 13, 12, 0, 15, 16, 17, 14, 18, 7, 6, 2, 3, 1, 4, 5, 23, 28
    ]  # fmt: skip


@pytest.mark.parametrize("a", [1, 2, 3, 5, 8, 16])
def test_a_wythoff_is_the_mex_pairs(a: int) -> None:
    positions = dense_p_positions(300, **a_wythoff(a))
    np.testing.assert_array_equal(positions, beatty_mex(300, a))
    lower = positions[positions[:, 0] <= positions[:, 1]]
    k = np.arange(len(lower))
    assert (lower[:, 1] - lower[:, 0] == a * k).all()


@pytest.mark.parametrize(("s", "t"), [(2, 1), (2, 3), (3, 2)])
def test_st_wythoff_is_the_mex_pairs(s: int, t: int) -> None:
    positions = dense_p_positions(300, **st_game(s, t))
    np.testing.assert_array_equal(positions, st_wythoff(300, s, t))
    lower = positions[positions[:, 0] <= positions[:, 1]]
    k = np.arange(len(lower))
    assert (lower[:, 1] == s * lower[:, 0] + t * k).all()


def test_the_mex_path_of_wythoff_is_the_golden_pairs() -> None:
    k = np.arange(1000)
    a = (k + np.floor(np.sqrt(5.0 * k * k)).astype(np.int64)) // 2
    lower = beatty_mex(10**4, 1)
    lower = lower[lower[:, 0] <= lower[:, 1]]
    np.testing.assert_array_equal(lower[:1000, 0], a)
    np.testing.assert_array_equal(lower[:1000, 1], a + k)
    assert len(beatty_mex(0, 2)) == 0
    with pytest.raises(ValueError, match="s, t >= 1"):
        st_wythoff(10, 0, 1)


def test_euclid_is_nivasch_ratio_test() -> None:
    n = 2000
    grid = np.zeros((n, n), dtype=bool)
    xs, ys = dense_p_positions(n, euclid=True).T
    grid[xs, ys] = True
    x, y = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    big, small = np.maximum(x, y), np.minimum(x, y)
    # big / small < φ  <=>  2 big - small < √5 small (both sides positive)
    ratio = (big != small) & ((2 * big - small) ** 2 < 5 * small * small)
    np.testing.assert_array_equal(grid, (small == 0) | ratio)


def test_blocking_wythoff_with_one_blocked_option() -> None:
    positions = dense_p_positions(40, rays=WYTHOFF, block=1)
    lower = [(int(x), int(y)) for x, y in positions if x <= y]
    assert lower[:12] == [
        (0, 0), (0, 1), (1, 3), (2, 2), (2, 5), (3, 7), (4, 6), (4, 9), (5, 11),
        (6, 13), (7, 15), (8, 12),
    ]  # fmt: skip
    transposed = positions[:, ::-1]
    assert {tuple(p) for p in transposed} == {tuple(p) for p in positions}


def test_two_modular_wythoff_is_a_subset_of_wythoff() -> None:
    modular = dense_p_positions(30, rays=NIM, cones=[[0, 1, 0, 0, 0, 2, 0]])
    wythoff = {tuple(p) for p in dense_p_positions(30, rays=WYTHOFF)}
    assert len(modular) >= 3 and {tuple(p) for p in modular} <= wythoff


def test_contained_rules_are_dropped() -> None:
    r = rules(
        rays=[[1, 1], [2, 2], [0, 1]],
        moves=[[3, 3], [2, 5], [0, 4], [4, 1]],
        cones=[[1, 1, 2, 1, 1, 1, 0]] * 2,
    )
    assert r.rays.tolist() == [[0, 1], [1, 1]]
    assert r.moves.tolist() == [[4, 1]]  # (2, 5) is in the cone
    assert len(r.cones) == 1


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rays": [[0, 0]]}, "not \\(0, 0\\)"),
        ({"cones": [[2, 0, 1, 0, 1, 1, 0]]}, "s1 <= s2"),
        ({"cones": [[1, 0, 1, 0, 1, 0, 0]]}, "mod"),
        ({"cones": [[1, 5000, 1, 0, 0, 1, 0]]}, "\\|t\\|"),
        ({"forced_p": [[1, 1]], "forced_n": [[1, 1]]}, "both"),
        ({"block": -1}, "block"),
        ({"rays": [[1, 1]], "cones": [[0, 1, 0, 0, 0, 1, 0]], "block": 1}, "n <= 400"),
    ],
)
def test_bad_rule_sets_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        dense_p_positions(401, **kwargs)
