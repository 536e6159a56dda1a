"""Every fast path against the reference, one by one, on generated games."""

import random
from math import isqrt

import numpy as np
import pytest

from catalog.compute import altered, closed, kernel, reference, window
from catalog.compute.ptable import Sweep
from catalog.games.definition import canonicalize
from catalog.store.seed import read_seed, seed_dir
from tests.papers import legal

WYTHOFF_RAYS = [[1, 0], [0, 1], [1, 1]]
VECTORS = [(a, b) for a in range(5) for b in range(5) if (a, b) != (0, 0)]


def alteration(rng, width=8, height=8, most=8):
    cells = [(x, y) for x in range(width) for y in range(height)]
    chosen = rng.sample(cells, rng.randint(0, most))
    split = rng.randint(0, len(chosen))
    return {"P": chosen[:split], "N": chosen[split:]}


def kernel_game(rng):
    """Random rays with exactly one vertical ray, moves with a > 0."""
    rays = [v for v in rng.sample(VECTORS, rng.randint(0, 4)) if v[0] > 0]
    rays.append((0, rng.randint(1, 3)))
    moves = [v for v in rng.sample(VECTORS, rng.randint(0, 3)) if v[0] > 0]
    game = canonicalize({"rays": rays, "moves": moves, "alter": alteration(rng)})
    assert kernel.supported(game)
    return game


@pytest.mark.parametrize("seed", range(6))
def test_kernel_matches_reference(seed):
    rng = random.Random(seed)
    for _ in range(25):
        game = kernel_game(rng)
        n = rng.randint(1, 40)
        whole = kernel.KernelSweep(game, x_cap=8).advance(n, y_bound=n)
        assert np.array_equal(whole, reference.p_positions(game, n)), game


@pytest.mark.parametrize("seed", range(3))
def test_kernel_matches_reference_a_few_hundred_columns(seed):
    rng = random.Random(50 + seed)
    for _ in range(2):
        game = kernel_game(rng)
        found = kernel.KernelSweep(game, x_cap=8).advance(150, y_bound=150)
        assert np.array_equal(found, reference.p_positions(game, 150)), game


@pytest.mark.parametrize("seed", range(4))
def test_kernel_resumes_and_grows(seed):
    rng = random.Random(100 + seed)
    for _ in range(10):
        game = kernel_game(rng)
        whole = Sweep(game).advance(400)
        cut = rng.randint(0, 400)
        resumed = kernel.KernelSweep.resume(game, whole[whole[:, 0] < cut], cut)
        rest = resumed.advance(400)
        assert np.array_equal(np.concatenate([whole[whole[:, 0] < cut], rest]), whole)


@pytest.mark.parametrize("seed", range(4))
def test_numpy_sweep_matches_reference(seed):
    rng = random.Random(200 + seed)
    for _ in range(25):
        definition = {
            "rays": rng.sample(VECTORS, rng.randint(0, 3)),
            "moves": rng.sample(VECTORS, rng.randint(0, 3)),
            "special": rng.sample(
                ["ho-restriction", "ho-extension"], rng.randint(0, 2)
            ),
            "alter": alteration(rng, 6, 6, 5),
        }
        game = canonicalize(definition)
        n = rng.randint(1, 24)
        found = Sweep(game, height=n).advance(n)
        assert np.array_equal(found, reference.p_positions(game, n)), definition


@pytest.mark.parametrize("seed", range(5))
def test_altered_wythoff_matches_kernel_and_reference(seed):
    rng = random.Random(300 + seed)
    for _ in range(20):
        w, h = rng.randint(1, 9), rng.randint(1, 9)
        game = canonicalize(
            {"rays": WYTHOFF_RAYS, "alter": alteration(rng, w, h, min(10, w * h))}
        )
        if not game.altered:
            continue
        assert np.array_equal(
            altered.p_positions(game, 48), reference.p_positions(game, 48)
        )
        n = rng.choice([100, 2500])
        fast = altered.p_positions(game, n)
        assert np.array_equal(fast, kernel.KernelSweep(game).advance(n, y_bound=n))


def test_big_box_alterations_match_kernel():
    for a, b in [(1, 1), (12, 3), (30, 50), (100, 100)]:
        game = canonicalize(
            {"rays": WYTHOFF_RAYS, "alter": {"P_boxes": [[0, 0, a, b]]}}
        )
        expected = kernel.KernelSweep(game).advance(5000, y_bound=5000)
        assert np.array_equal(altered.p_positions(game, 5000), expected)


def test_saturation_of_figure_3():
    """Hu–Sleator–Tsin Figure 3: the P-position in column 7 saturates diag[]."""
    game = read_seed(seed_dir() / "W000016.json")["game"]
    sat = altered.saturation(game)
    assert sat.column == 7
    assert sat.bits.size == sat.high - sat.low + 1


def test_wythoff_update_is_the_queue_process():
    bits = np.array([0, 1, 1, 0], dtype=np.int8)
    stream = altered.row_stream(bits, 40)
    queue = list(bits)
    read = []
    while len(read) < 40:
        symbol = queue.pop(0)
        read.append(symbol)
        queue += [0, 0, 1] if symbol == 0 else [0, 1]
    assert stream.tolist() == read


def test_outcome_matches_the_table():
    game = canonicalize({"rays": WYTHOFF_RAYS})
    grid = reference.outcome_grid(game, 90)
    for x in range(90):
        for y in range(90):
            label, move = closed.outcome(x, y)
            assert (label == "P") == bool(grid[x, y])
            if label == "N":
                assert legal((x, y), move) and grid[move]


def test_outcome_for_huge_piles():
    big = 10**30
    for x, y in [(big, big + 7), (closed.lower(big), closed.lower(big) + big)]:
        label, move = closed.outcome(x, y)
        if label == "N":
            a, b = sorted(move)
            k = b - a
            assert a == closed.lower(k) and (move[0] <= x and move[1] <= y)
    assert closed.outcome(closed.lower(big), closed.lower(big) + big) == ("P", None)
    assert closed.outcome(closed.lower(big) + 1, closed.lower(big) + big)[0] == "N"


def test_isqrt_array_is_exact():
    values = np.array([0, 1, 2, 3, 4, 15, 16, 17, 2**62 - 1, 10**18, 10**18 - 1])
    expected = [int(v) for v in values]
    assert closed.isqrt_array(values).tolist() == [isqrt(v) for v in expected]


@pytest.mark.parametrize("seed", range(3))
def test_kernel_sorts_columns_with_many_forced_positions(seed):
    """Columns holding more P-positions than the insertion sort takes (32):
    forced P boxes 40 cells tall, then the game goes on."""
    rng = random.Random(200 + seed)
    for _ in range(3):
        game = kernel_game(rng)
        x0 = rng.randint(0, 5)
        forced = canonicalize(
            {
                "rays": [list(r) for r in game.rays],
                "moves": [list(m) for m in game.moves],
                "alter": {"P_boxes": [[x0, rng.randint(0, 3), 2, 40]]},
            }
        )
        found = kernel.KernelSweep(forced, x_cap=8).advance(60, y_bound=60)
        assert np.array_equal(found, reference.p_positions(forced, 60)), forced


@pytest.mark.parametrize("seed", range(6))
def test_window_sweep_matches_reference(seed):
    """p_positions' path for kernel games: the sweep below n with its lines
    in sliding windows."""
    rng = random.Random(300 + seed)
    for _ in range(25):
        game = kernel_game(rng)
        n = rng.randint(1, 40)
        found = window.p_positions_below(game, n)
        assert np.array_equal(found, reference.p_positions(game, n)), game


@pytest.mark.parametrize("seed", range(3))
def test_window_sweep_matches_the_kernel_far_out(seed):
    """Thousands of columns, where the windows have slid many times over
    (steep rays slide fast), against the whole-box kernel."""
    rng = random.Random(400 + seed)
    for _ in range(4):
        rays = [v for v in rng.sample(VECTORS, rng.randint(1, 7)) if v[0] > 0]
        rays.append((0, rng.randint(1, 4)))
        moves = [v for v in rng.sample(VECTORS, rng.randint(0, 3)) if v[0] > 0]
        game = canonicalize({"rays": rays, "moves": moves, "alter": alteration(rng)})
        n = rng.randint(500, 4000)
        expected = kernel.KernelSweep(game).advance(n, y_bound=n)
        assert np.array_equal(window.p_positions_below(game, n), expected), game


def test_window_memory_follows_the_height():
    """The nimhoff member with the largest line tables: about 600 MB of
    windows at n = 10^7 (the whole-box tables would take some 3 GB)."""
    heavy = canonicalize(
        {
            "rays": [
                [0, 2],
                [1, 1],
                [1, 2],
                [1, 3],
                [2, 0],
                [2, 1],
                [2, 3],
                [3, 1],
                [3, 2],
            ]
        }
    )
    assert window.ring_bytes(heavy, 10**7) < 650 * 2**20
    assert window.ring_bytes(heavy, 2 * 10**7) == pytest.approx(
        2 * window.ring_bytes(heavy, 10**7), rel=1e-6
    )


def test_linear_nimhoff_beams_far_out():
    """W000012 {(1,0),(0,2),(1,1)}: its two beams (Hu's report, quoted by
    Hu-Sleator-Tsin section 6), (⌊k/√3⌋, k + ⌊k/√3⌋) and
    (2k + ⌊k√3⌋, k + ⌊k√3⌋), against the kernel to n = 300,000 in chunks."""
    n = 300_000
    game = canonicalize({"rays": [[1, 0], [0, 2], [1, 1]]})
    sweep = kernel.KernelSweep(game)
    parts = [sweep.advance(x) for x in (1000, 70_000, n)]
    found = np.concatenate(parts)
    found = found[found[:, 1] < n]
    assert np.array_equal(window.p_positions_below(game, n), found)
    k = np.arange(n, dtype=np.int64)
    low = closed.isqrt_array(k * k // 3)
    root3 = closed.isqrt_array(3 * k * k)
    beams = np.concatenate(
        [np.column_stack([low, k + low]), np.column_stack([2 * k + root3, k + root3])]
    )
    beams = beams[(beams[:, 0] < n) & (beams[:, 1] < n)]
    beams = np.unique(beams, axis=0)
    assert np.array_equal(found, beams)


@pytest.mark.parametrize("sweep_type", ["kernel", "general"])
def test_a_sweep_in_many_calls_rebuilds_its_tables_a_few_times(monkeypatch, sweep_type):
    """A store fill advances chunk by chunk: rebuilding the tables (which
    replays every column so far) at each call made a fill quadratic."""
    from catalog.compute import special_kernel

    if sweep_type == "kernel":
        game = canonicalize(read_seed(seed_dir() / "W000004.json")["definition"])
        cls = kernel.KernelSweep
    else:
        game = canonicalize({"rays": [[0, 1], [1, 1]], "moves": [[1, 0], [2, 1]]})
        cls = special_kernel.GeneralSweep
    layouts = []
    build = cls._layout

    def counted(self, x_cap, y_cap):
        layouts.append((x_cap, y_cap))
        build(self, x_cap, y_cap)

    monkeypatch.setattr(cls, "_layout", counted)
    sweep = cls(game)
    parts = [sweep.advance(x) for x in range(3000, 120_001, 3000)]
    assert len(layouts) <= 20, layouts  # by a quarter at least, not once a call (40)
    monkeypatch.setattr(cls, "_layout", build)
    whole = cls(game).advance(120_000)
    assert np.array_equal(np.concatenate(parts), whole)
