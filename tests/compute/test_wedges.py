"""The cone sweep's wedge components (catalog.compute.wedges) against the
literal rules (kind_reference), the dense engine, the trees they
replace, and the (s,t)-Wythoff theorem; and their bitsets against a sorted
list."""

from __future__ import annotations

import random

import numpy as np
import pytest

from catalog.compute import conesweep, kind_reference, wedges
from catalog.compute.conesweep import cone_sweep_p_positions
from catalog.compute.dense import dense_p_positions
from catalog.compute.mex import st_wythoff

NIM = [[1, 0], [0, 1]]


def random_wedge(rng: random.Random) -> list[int]:
    """A cone row that is often a wedge: wide or narrow, steep, mirrored,
    with a mod, lines through or far from the origin."""
    s1 = rng.choice([0, 0, 1, 1, 1, 2, 3, 7, 64])
    s2 = min(64, s1 + rng.choice([1, 1, 2, 3, 9, 64]))
    return [
        s1,
        rng.randint(-12, 8),
        s2,
        rng.randint(-8, 12),
        rng.choice([1, 1, 1, 0]),
        rng.choice([1, 1, 2, 3, 4, 6, 7, 8]),
        rng.randint(0, 1),
    ]


def random_game(rng: random.Random, n: int) -> dict:
    cones = [random_wedge(rng) for _ in range(rng.choice([1, 1, 2, 3]))]
    if rng.random() < 0.3:  # symmetric: the cone and its mirror
        cones.append(cones[0][:6] + [1 - cones[0][6]])
    cells = [[rng.randrange(n), rng.randrange(n)] for _ in range(6)]
    forced_p = cells[: rng.choice([0, 0, 1, 3])]
    extra = [[rng.randint(1, 3), rng.randint(1, 3)]] if rng.random() < 0.2 else []
    moves = [[rng.randint(0, 4), rng.randint(1, 4)] for _ in range(rng.randint(0, 1))]
    return {
        "cones": cones,
        "rays": NIM + extra,
        "moves": moves,
        "forced_p": forced_p,
        "forced_n": [c for c in cells[3:] if c not in forced_p],
    }


def test_random_games_cover_both_kinds() -> None:
    """The generator reaches plain and mirrored components and the trees,
    and each way components merge: a residue of m, of g < m (no shear
    σ ≡ 1 mod m), and the real ends (mirrored, s1 >= 2)."""
    rng = random.Random(0)
    rows = [c for _ in range(300) for c in random_game(rng, 9)["cones"]]
    kinds = [wedges.shear(c) for c in rows]
    assert {kinds.count(k) > 30 for k in (0, wedges.PLAIN, wedges.MIRRORED)} == {True}
    assert kinds.count(wedges.OPEN) > 20
    merges = [
        "m" if wedges.gap(c) == c[5] else "real" if wedges.gap(c) == 0 else "g"
        for c, k in zip(rows, kinds, strict=True)
        if k and c[5] > 1
    ]
    assert {merges.count(w) > 10 for w in ("m", "g", "real")} == {True}


@pytest.mark.parametrize(
    ("row", "g"),
    [
        ([1, 0, 2, 2, 1, 4, 0], 4),  # σ = 1
        ([3, 0, 5, 2, 1, 8, 0], 4),  # σ = 5: 4 = gcd(5 - 1, 8)
        ([2, 0, 3, 1, 1, 4, 0], 2),  # σ = 3
        ([2, 0, 2, 1, 1, 4, 0], 0),  # a band: no components
        ([4, 0, 5, 1, 1, 5, 0], 1),  # gcd(3, 5) = gcd(4, 5) = 1
        ([0, 1, 9, 0, 1, 7, 1], 7),  # mirrored, s1 <= 1 <= s2: σ = 1
        ([2, 0, 3, 1, 1, 4, 1], 0),  # mirrored, s1 >= 2: the real ends
        ([1, 3, 0, 0, 0, 5, 1], 5),  # mirrored, no upper line, s1 = 1: σ = 1
        ([3, 2, 0, 0, 0, 12, 1], 1),  # s1 >= 2: σ = 0
        ([0, 2, 0, 0, 0, 12, 1], 0),  # s1 = 0: the least y' of a class
    ],
)
def test_the_merges_modulus(row: list[int], g: int) -> None:
    assert (wedges.gap(row) if wedges.shear(row) else 0) == g


@pytest.mark.parametrize("seed", range(3))
def test_sweep_matches_the_literal_rules(seed: int) -> None:
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
def test_sweep_matches_the_dense_engine(seed: int) -> None:
    rng = random.Random(200 + seed)
    for _ in range(60):
        n = rng.randint(1, 120)
        game = random_game(rng, n)
        np.testing.assert_array_equal(
            cone_sweep_p_positions(n, **game), dense_p_positions(n, **game), str(game)
        )


def test_components_match_the_fenwick_trees_far_out(monkeypatch) -> None:
    """Two structures, one answer, at n where merges and events abound."""
    rng = random.Random(7)
    games = [random_game(rng, 3000) for _ in range(12)]
    games = [g for g in games if any(wedges.shear(c) for c in g["cones"])]
    fast = [cone_sweep_p_positions(3000, **g) for g in games]
    monkeypatch.setattr(wedges, "shear", lambda row: 0)
    for game, got in zip(games, fast, strict=True):
        np.testing.assert_array_equal(
            got, cone_sweep_p_positions(3000, **game), str(game)
        )


@pytest.mark.parametrize("shift", [0, 62])
def test_buckets_of_any_width_give_the_same_answer(monkeypatch, shift: int) -> None:
    """The index's buckets (wedges.layout) at their extremes: a key a
    bucket (the dense index it replaced) and a cone's keys in one bucket
    (one chain of every live component, merged ones dropped from anywhere
    in it), against the default width and the trees."""
    rng = random.Random(11)
    games = [random_game(rng, 3000) for _ in range(16)]
    games = [g for g in games if any(wedges.shear(c) for c in g["cones"])]
    assert len(games) >= 8
    default = [cone_sweep_p_positions(3000, components=True, **g) for g in games]
    widths = set()
    for g in games:
        rows = np.asarray(g["cones"], dtype=np.int64)
        kinds = [wedges.shear(c) for c in g["cones"]]
        ws, _ = wedges.layout(3000, rows, np.ones(len(rows), np.int64), kinds)
        widths |= {int(ws[wedges.HEADER + j * wedges.FIELDS + wedges.SHIFT])
                   for j, k in enumerate(kinds) if k}  # fmt: skip
    assert max(widths) >= 4  # the default buckets hold many keys
    monkeypatch.setattr(wedges, "_shift", lambda keys, entries: shift)
    for game, want in zip(games, default, strict=True):
        got = cone_sweep_p_positions(3000, components=True, **game)
        np.testing.assert_array_equal(got, want, str(game))
    monkeypatch.setattr(wedges, "shear", lambda row: 0)
    for game, want in zip(games, default, strict=True):
        np.testing.assert_array_equal(
            cone_sweep_p_positions(3000, **game), want, str(game)
        )


@pytest.mark.parametrize(("s", "t", "m"), [(2, 3, 1), (3, 2, 1), (5, 1, 1)])
def test_st_wythoff_through_the_components(s: int, t: int, m: int) -> None:
    """(s,t)-Wythoff's theorem (Fraenkel 1998) at n = 10^5: B = s A + t n."""
    cones = [[1, 0, s, t - 1, 1, m, mirror] for mirror in (0, 1)]
    assert {wedges.shear(c) for c in cones} == {wedges.PLAIN, wedges.MIRRORED}
    np.testing.assert_array_equal(
        cone_sweep_p_positions(10**5, cones), st_wythoff(10**5, s, t)
    )


@pytest.mark.parametrize(
    "cones",
    [
        [[3, 0, 5, 2, 1, 8, 0]],
        [[2, 0, 3, 1, 1, 4, 0], [2, 0, 3, 1, 1, 4, 1]],
        [[3, -1, 5, 1, 1, 2, 1]],
        [[2, 0, 4, 1, 1, 6, 1], [2, 0, 4, 1, 1, 6, 0]],
        [[4, 0, 5, 1, 1, 5, 0], [4, 0, 5, 1, 1, 5, 1]],
        [[3, 2, 6, 1, 0, 12, 1]],
    ],
)
def test_turning_classes_beside_the_diagonal(
    cones: list[list[int]], monkeypatch
) -> None:
    """Cones that no shear σ ≡ 1 (mod m) suits, whose classes turn against
    the components' keys (merged by a residue of g < m, or by their real
    ends), beside Wythoff's diagonal (where their columns search far): the
    same P-positions as the trees at n = 6000 and the dense engine at 700."""
    rays = [*NIM, [1, 1]]
    assert all(wedges.shear(c) and wedges.gap(c) < c[5] for c in cones)
    rows = np.array(cones, dtype=np.int64)
    assert all(  # they keep components, not trees
        conesweep._components_pay(6000, rows[j : j + 1], False, 6000)
        for j in range(len(cones))
    )
    fast = cone_sweep_p_positions(6000, cones, rays=rays)
    np.testing.assert_array_equal(
        fast[(fast < 700).all(axis=1)],
        dense_p_positions(700, rays=rays, cones=cones),
    )
    monkeypatch.setattr(wedges, "shear", lambda row: 0)
    np.testing.assert_array_equal(fast, cone_sweep_p_positions(6000, cones, rays=rays))


def test_cones_merged_by_their_real_ends_enter_once_linear() -> None:
    """A mirrored cone with s1 >= 2 (merged by its real ends) takes a
    P-position from x - x' = t2 + 1 on, while its interval may still be
    empty (the mirrored cone 2..5 mod 16: a step of its class from
    x - x' = 20); the others wait for a step of their class. The
    P-positions are the dense engine's, beside the diagonal too."""
    from catalog.compute.ruleset import in_cone

    n = 700
    for row in (
        [2, 2, 5, 0, 1, 16, 1],
        [3, 4, 5, 0, 1, 8, 1],
        [1, 0, 3, 1, 1, 4, 1],  # g = 4
        [2, 0, 3, 1, 1, 4, 0],  # plain, g = 2
    ):
        cones = np.array([row], dtype=np.int64)
        ws, _ = wedges.layout(n, cones, np.array([1]), [wedges.shear(row)])
        linear = max(1, row[3] + 1) if row[6] else 1  # x - x' from which
        first_step = next(
            d
            for d in range(linear, n)
            if any(in_cone(cones[0], d, k) for k in range(n))
        )
        expected = linear if wedges.gap(row) == 0 else first_step
        assert ws[wedges.HEADER + wedges.ENTRY] == expected, row
        assert wedges.gap(row) != 0 or first_step > expected, row
        for rays in (NIM, [*NIM, [1, 1]]):
            np.testing.assert_array_equal(
                cone_sweep_p_positions(n, [row], rays=rays, components=True),
                dense_p_positions(n, rays=rays, cones=[row]),
                str((row, rays)),
            )


def test_components_are_kept_where_their_memory_pays() -> None:
    """Components up to COMPONENTS_OVER_TREES times a cone's trees: the
    steep wedge 63..64 at 10^6 would touch 290 MiB of keys and slots (0.37 s,
    0.05 s in trees of 61 MiB); the wedge 3..5 mod 8 takes 70 MiB."""
    steep = np.array([[63, 0, 64, 0, 1, 1, 0]], dtype=np.int64)
    assert not conesweep._components_pay(10**6, steep, False, 10**6)
    wedge = np.array([[3, 0, 5, 2, 1, 8, 0]], dtype=np.int64)
    assert conesweep._components_pay(10**6, wedge, False, 10**6)
    assert wedges.nbytes(10**6, wedge, [wedges.PLAIN], 10**6) < 80 * 2**20


def test_a_probe_keeps_components_where_they_save_steps() -> None:
    """Past the memory rule, a probe of 4096 columns both ways decides: the
    mirrored cone 2..5 mod 16 beside the diagonal (5.4 times its trees'
    bytes) takes 56 steps a column in components against 194 in trees, so
    it keeps them; the steep wedge 63..64 (4.7 times) takes 2 either way,
    so it keeps its trees. Both ways give the same P-positions."""
    from catalog.compute.ruleset import rules

    rays = [*NIM, [1, 1]]
    mirrored = [[2, 2, 5, 0, 1, 16, 1]]
    r = rules(rays, None, mirrored)
    assert not conesweep._components_pay(10**5, r.cones, False, 10**5)
    assert conesweep._probe_components(
        10**5, mirrored, rays, None, None, None, r, False, 10**5
    )
    steep = [[63, 0, 64, 0, 1, 1, 0]]
    r = rules(NIM, None, steep)
    assert not conesweep._probe_components(
        10**5, steep, NIM, None, None, None, r, False, 10**5
    )
    np.testing.assert_array_equal(
        cone_sweep_p_positions(20_000, mirrored, rays=rays, components=True),
        cone_sweep_p_positions(20_000, mirrored, rays=rays, components=False),
    )


def test_fallback_to_trees_past_the_budget(monkeypatch) -> None:
    """Components over the budget and trees under it: the trees compute."""
    cones = np.array([[1, 0, 2, 2, 1, 1, 0]], dtype=np.int64)
    n = 500
    parts = wedges.nbytes(n, cones, [wedges.PLAIN])
    trees = 16 * 2 * n
    assert trees < parts
    monkeypatch.setattr(conesweep, "TREE_BUDGET", (trees + parts) // 2 + 8 * n)
    np.testing.assert_array_equal(
        cone_sweep_p_positions(n, cones), dense_p_positions(n, cones=cones, rays=NIM)
    )
    monkeypatch.setattr(conesweep, "TREE_BUDGET", 1000)
    with pytest.raises(ValueError, match="trees need"):
        cone_sweep_p_positions(n, cones)


def test_query_is_the_literal_move_set() -> None:
    """last_blocked against in_cone, cell by cell, after inserting a few
    P-positions by hand: lower keys that share a class's key (divided by g)
    but start above y must not block it. Merged by a residue of g < m (or
    their real ends), a class's run of blocked rows may take two
    components: the first must block y and nothing past the run."""
    from catalog.compute.ruleset import in_cone

    n = 40
    for row in (
        [1, 1, 3, 0, 1, 2, 0],
        [0, 1, 2, -1, 1, 3, 0],
        [1, 0, 3, 1, 1, 4, 1],
        [2, 0, 3, 1, 1, 4, 0],  # g = 2
        [3, -1, 5, 1, 1, 2, 1],  # g = 0
        [2, 1, 0, 0, 0, 3, 1],  # no upper line, g = 1
    ):
        cones = np.array([row], dtype=np.int64)
        kind = wedges.shear(row)
        assert kind
        ws, bits = wedges.layout(n, cones, np.array([1]), [kind])
        entry = int(ws[wedges.HEADER + wedges.ENTRY])
        points = [(0, 1), (0, 4), (1, 0), (2, 9)]
        x = max(p[0] for p in points) + entry + 3
        for xo, yo in points:
            wedges.insert(ws, bits, 0, x, xo, yo)
        m = row[5]

        for y in range(n):
            expected = -1  # the last row of the run from y in y's class
            top = y
            while top < 4 * n and any(
                in_cone(cones[0], x - xo, top - yo) for xo, yo in points
            ):
                expected = top
                top += m
            got = wedges.last_blocked(ws, bits, 0, x, y)
            got -= (got - y) % m if got >= 0 else 0  # the class's last row
            if wedges.gap(row) < m:  # a run may take more than one component
                assert (got >= 0) == (expected >= 0), (row, y, got, expected)
                assert got <= expected or expected >= 4 * n - m, (row, y, got)
            elif expected < 4 * n - m:
                assert got == expected, (row, y, got, expected)
            else:
                assert got >= expected, (row, y, got, expected)
