"""The cone sweep against the dense engine (itself tested against the literal
rules in test_dense.py) and against the theorem paths at large n."""

from __future__ import annotations

import random

import numpy as np
import pytest

from catalog.compute import conesweep
from catalog.compute.conesweep import cone_sweep_p_positions
from catalog.compute.dense import dense_p_positions
from catalog.compute.mex import beatty_mex, st_wythoff
from catalog.compute.ruleset import rules

NIM = [[1, 0], [0, 1]]


def random_cone_game(rng: random.Random, n: int) -> dict:
    cones = []
    for _ in range(rng.choice([1, 1, 2])):
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
    extra = [[rng.randint(1, 3), rng.randint(1, 3)] for _ in range(rng.randint(0, 1))]
    moves = [[rng.randint(0, 4), rng.randint(1, 4)] for _ in range(rng.randint(0, 2))]
    cells = [[rng.randrange(n), rng.randrange(n)] for _ in range(5)]
    forced_p = cells[: rng.randint(0, 2)]
    return {
        "cones": cones,
        "rays": NIM + extra,
        "moves": moves,
        "forced_p": forced_p,
        "forced_n": [c for c in cells[2:] if c not in forced_p],
    }


@pytest.mark.parametrize("transpose", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_sweep_matches_the_dense_engine(seed: int, transpose: bool) -> None:
    """As given, or swept with its piles swapped (rays, moves and forced
    cells mirrored, plain and mirrored cones exchanged) and mirrored back,
    a game has the dense engine's P-positions."""
    rng = random.Random(seed)
    for _ in range(40):
        n = rng.randint(1, 70)
        game = random_cone_game(rng, n)
        np.testing.assert_array_equal(
            cone_sweep_p_positions(n, **game, transpose=transpose),
            dense_p_positions(n, **game),
            str(game),
        )


@pytest.mark.parametrize("a", [1, 2, 5, 16])
def test_sweep_of_a_wythoff_is_the_mex_pairs(a: int) -> None:
    n = 10**5
    plain = cone_sweep_p_positions(n, [[1, 1 - a, 1, a - 1, 1, 1, 0]])
    np.testing.assert_array_equal(plain, beatty_mex(n, a))
    mirrored = cone_sweep_p_positions(n, [[1, 1 - a, 1, a - 1, 1, 1, 1]])
    np.testing.assert_array_equal(mirrored, plain)


@pytest.mark.parametrize(("s", "t"), [(2, 1), (2, 3), (3, 2)])
def test_sweep_of_st_wythoff_is_the_mex_pairs(s: int, t: int) -> None:
    n = 20000
    cones = [[1, 0, s, t - 1, 1, 1, m] for m in (0, 1)]
    np.testing.assert_array_equal(cone_sweep_p_positions(n, cones), st_wythoff(n, s, t))


def test_modular_wythoff_matches_the_dense_engine() -> None:
    for m in (2, 4, 7):
        game = {"cones": [[0, 1, 0, 0, 0, m, 0]], "rays": NIM}
        np.testing.assert_array_equal(
            cone_sweep_p_positions(300, **game), dense_p_positions(300, **game)
        )


def test_sweep_needs_both_nim_rays() -> None:
    with pytest.raises(ValueError, match="both rays"):
        cone_sweep_p_positions(10, [[1, 0, 1, 0, 1, 1, 0]], rays=[[1, 0], [1, 1]])
    assert cone_sweep_p_positions(0, [[1, 0, 1, 0, 1, 1, 0]]).shape == (0, 2)


@pytest.mark.parametrize("seed", range(3))
def test_extra_rays_skip_their_used_lines_as_the_dense_engine_says(seed: int) -> None:
    """Wythoff's diagonal and other extra rays (some a multiple g (p, q),
    whose lines a column meets p g apart) beside cones that the class by
    class search takes (mirrored, s1 >= 2) and cones that the climb takes
    (wedges), at sizes where a ray's used lines form long runs in a column:
    the sweep passes a run with one find (conecells._rays_free)."""
    rng = random.Random(500 + seed)
    for _ in range(3):
        n = rng.randint(400, 900)
        m = rng.choice([1, 2, 4, 16])
        cone = rng.choice(
            [[2, 0, 3, 1, 1, m, 1], [1, 0, 2, 1, 1, m, 0], [2, 1, 3, 2, 1, m, 0]]
        )
        extra = [[1, 1], *rng.sample([[1, 2], [2, 1], [2, 2], [3, 2], [2, 4]], 2)]
        game = {"cones": [cone], "rays": NIM + extra}
        if rng.random() < 0.5:
            game["moves"] = [[rng.randint(0, 3), rng.randint(1, 3)]]
        np.testing.assert_array_equal(
            cone_sweep_p_positions(n, **game), dense_p_positions(n, **game), str(game)
        )


def symmetric_cone_game(rng: random.Random) -> dict:
    """Nim's rays, cones each beside its mirror (some that no shear suits,
    some the climb takes), mirrored moves, maybe Wythoff's diagonal."""
    cones = []
    for _ in range(rng.randint(1, 2)):
        s1 = rng.randint(0, 3)
        row = [s1, rng.randint(-2, 3), s1 + rng.randint(0, 2), rng.randint(0, 4)]
        row += [rng.randint(0, 1), rng.choice([1, 2, 3, 4, 8])]
        cones += [[*row, 0], [*row, 1]]
    moves = []
    for _ in range(rng.randint(0, 2)):
        a, b = rng.randint(0, 3), rng.randint(1, 4)
        moves += [[a, b], [b, a]] if a else [[0, b], [b, 0]]
    rays = NIM + ([[1, 1]] if rng.random() < 0.6 else [])
    return {"cones": cones, "rays": rays, "moves": moves}


@pytest.mark.parametrize("seed", range(4))
def test_a_symmetric_game_takes_its_mirrors_and_starts_at_the_diagonal(
    seed: int,
) -> None:
    """A game that is its own mirror (and forces no cell) answers a column
    below the diagonal with the mirror of a P-position found, and searches
    the rest from the diagonal up (conesweep._symmetric), in both scans:
    the same P-positions as the dense engine."""
    rng = random.Random(700 + seed)
    for _ in range(4):
        n = rng.randint(300, 800)
        game = symmetric_cone_game(rng)
        assert conesweep._symmetric(
            rules(game["rays"], game["moves"], game["cones"]), game["cones"]
        )
        np.testing.assert_array_equal(
            cone_sweep_p_positions(n, **game), dense_p_positions(n, **game), str(game)
        )


def test_only_a_game_that_is_its_own_mirror_takes_the_mirrors() -> None:
    mirrored = [[2, 0, 3, 1, 1, 4, 0], [2, 0, 3, 1, 1, 4, 1]]
    sym = conesweep._symmetric
    assert sym(rules(NIM, None, mirrored), mirrored)
    assert not sym(rules(NIM, None, mirrored[:1]), mirrored[:1])
    assert not sym(rules([*NIM, [1, 2]], None, mirrored), mirrored)
    assert not sym(rules(NIM, [[1, 2]], mirrored), mirrored)


def test_a_ray_passes_its_class_runs_in_one_find() -> None:
    """The symmetric cones 3..∞ mod 7 beside Wythoff's diagonal: half the
    columns hold no P-position below n and walk each class up to n. With
    the diagonal's lines chained row by row a find stopped at every free
    line of another class (118 steps a column at 10^4, 317 at 3·10^4, 764
    at 10^5: quadratic); chained M rows apart, a constant few. Steps are
    counted, not timed; the P-positions are the dense engine's."""
    cones = [[3, 1, 4, -1, 0, 7, 1], [3, 1, 4, -1, 0, 7, 0]]
    rays = [[1, 0], [0, 1], [1, 1]]
    steps = []
    for n in (10_000, 40_000):
        stats = np.zeros(1, dtype=np.int64)
        cone_sweep_p_positions(n, cones, rays=rays, stats=stats)
        steps.append(stats[0] / n)
    assert steps[1] < 1.3 * steps[0] < 30, steps
    np.testing.assert_array_equal(
        cone_sweep_p_positions(600, cones, rays=rays),
        dense_p_positions(600, rays=rays, cones=cones),
    )


def test_a_cone_that_blocks_the_rest_of_a_class_caps_its_search() -> None:
    """The cones 1..3 mod 12 and 2..∞ mod 8 beside Wythoff's diagonal: half
    the columns hold no P-position below n. The cone without an upper line
    blocks each class from its least u' on (conesweep._caps), so a column
    searches no residue whose first row is there and stops each search
    there: 33.5 steps a column walked every class up to n, 8.5 now. Steps
    are counted, not timed; the P-positions are the dense engine's."""
    cones = [[1, -1, 3, 0, 1, 12, 0], [2, 2, 4, 1, 0, 8, 0]]
    rays = [*NIM, [1, 1]]
    stats = np.zeros(1, dtype=np.int64)
    out = cone_sweep_p_positions(20_000, cones, rays=rays, stats=stats)
    assert stats[0] < 12 * 20_000, stats[0] / 20_000
    assert len(out) < 0.6 * 20_000  # the columns past their P-position's n
    np.testing.assert_array_equal(
        cone_sweep_p_positions(700, cones, rays=rays),
        dense_p_positions(700, rays=rays, cones=cones),
    )


def test_a_probe_transposes_where_it_saves_steps(monkeypatch) -> None:
    """The mirrored cone 2..5 mod 16 beside Wythoff's diagonal merges its
    runs only where their real ends meet (57 steps a column); its transpose,
    a plain cone, by residues (18). The probe sweeps the transpose of the
    one and not of the other; a game that is its own transpose, or n of 4
    probes or fewer, is not probed."""
    rays = [*NIM, [1, 1]]
    mirrored = ([[2, 2, 5, 0, 1, 16, 1]], rays, None, None, None)
    assert conesweep._probe_transpose(10**5, mirrored)
    plain = conesweep._transposed(mirrored)
    assert plain[0].tolist() == [[2, 2, 5, 0, 1, 16, 0]]
    assert not conesweep._probe_transpose(10**5, plain)
    steps = []
    for flag in (False, True):
        stats = np.zeros(1, dtype=np.int64)
        cone_sweep_p_positions(20_000, mirrored[0], rays, stats=stats, transpose=flag)
        steps.append(stats[0])
    assert steps[1] < 0.5 * steps[0], steps
    np.testing.assert_array_equal(
        cone_sweep_p_positions(20_000, mirrored[0], rays, transpose=True),
        cone_sweep_p_positions(20_000, mirrored[0], rays, transpose=False),
    )
    monkeypatch.setattr(conesweep, "cone_sweep_p_positions", None)  # not called
    both = [[2, 2, 5, 0, 1, 16, 1], [2, 2, 5, 0, 1, 16, 0]]
    assert not conesweep._probe_transpose(10**5, (both, rays, None, None, None))
    assert not conesweep._probe_transpose(4 * conesweep.PROBE, mirrored)


def test_a_transpose_past_the_budget_falls_back_to_the_game(monkeypatch) -> None:
    """Where the probe chose the transpose and its run is refused (past the
    trees' budget, as the game itself may not be), the game is swept as
    given; a transpose asked for is refused as it is."""
    cones, rays = [[2, 2, 5, 0, 1, 16, 1]], [*NIM, [1, 1]]
    expected = cone_sweep_p_positions(300, cones, rays, transpose=False)

    trees = conesweep._trees

    def budget(n, cones, *args, **kwargs):
        """Trees past the budget for the transpose (its cone plain)."""
        if not cones[:, 6].all():
            raise ValueError("the cones' trees need more bytes than the budget")
        return trees(n, cones, *args, **kwargs)

    monkeypatch.setattr(conesweep, "_probe_transpose", lambda n, game: True)
    monkeypatch.setattr(conesweep, "_trees", budget)
    np.testing.assert_array_equal(cone_sweep_p_positions(300, cones, rays), expected)
    with pytest.raises(ValueError):
        cone_sweep_p_positions(300, cones, rays, transpose=True)
