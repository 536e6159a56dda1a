"""Every fast path against the reference, one by one, on generated games."""

import os
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


@pytest.mark.parametrize("compact", [False, True], ids=["int32", "bits"])
@pytest.mark.parametrize("seed", range(6))
def test_kernel_matches_reference(seed, compact):
    """Both layouts of the line tables (int32 distances, bits)."""
    rng = random.Random(seed)
    for _ in range(25):
        game = kernel_game(rng)
        n = rng.randint(1, 40)
        sweep = kernel.KernelSweep(game, x_cap=8, compact=compact)
        whole = sweep.advance(n, y_bound=n)
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


def test_trailing_zeros_in_python_and_compiled():
    """jit.trailing_zeros: numba's intrinsic once compiled, its Python
    stand-in before; both count an int64's trailing zero bits (64 for 0)."""
    import numba
    from numba.cpython.unsafe.numbers import trailing_zeros as intrinsic

    from catalog.compute import jit

    assert jit.trailing_zeros.load() is intrinsic
    compiled = numba.njit(lambda v: intrinsic(v))
    values = [0, 1, 2, 3, 8, 96, -1, -(2**63), 2**62, 2**63 - 1]
    values += [random.Random(k).getrandbits(64) - 2**63 for k in range(50)]
    for value in values:
        expected = 64 if value == 0 else (value & -value).bit_length() - 1
        assert jit.trailing_zeros(value) == expected
        assert compiled(np.int64(value)) == expected


def test_divide_is_divmod():
    """The float division of the compact tables, for every stride a table
    can have and lines up to 2^52 (exact multiples included)."""
    rng = random.Random(7)
    for m in range(1, 200):
        inverse = 1.0 / m
        for idx in [0, m - 1, m, 2**52 - m, 2**52 - 1, 2**52 // m * m - m]:
            assert kernel._divide(idx, m, inverse) == divmod(idx, m)
        for _ in range(20):
            idx = rng.randrange(2 ** rng.randint(1, 52))
            assert kernel._divide(idx, m, inverse) == divmod(idx, m)
            idx -= idx % m
            assert kernel._divide(idx, m, inverse) == divmod(idx, m)


def chain_definition(blocked, m, idx, top):
    """The first free line of idx's chain (step m) below top, else top."""
    while idx < top and idx in blocked:
        idx += m
    return min(idx, top)


@pytest.mark.parametrize("seed", range(4))
def test_compact_finds_are_the_first_free_line_of_the_chain(seed):
    """_next_free_bit against its definition, on tables with runs of every
    length (inside a word, across words, to the end) and any stride."""
    find, block = kernel._next_free_bit, kernel._block_bit
    rng = random.Random(seed)
    mods = np.array([rng.randint(1, 7) for _ in range(3)], dtype=np.int64)
    lines = np.array([rng.randint(1, 3000) for _ in range(3)], dtype=np.int64)
    compact, words = kernel.bit_layout(mods, lines)
    bits = np.zeros(words, dtype=np.int64)
    blocked: list[set[int]] = [set(), set(), set()]
    for _ in range(40):
        i = rng.randrange(3)
        start = rng.randrange(lines[i])
        run = rng.choice([1, 5, 64, 200, int(lines[i])])
        for idx in range(start, min(lines[i], start + run * mods[i]), mods[i]):
            if rng.random() < 0.97:
                block(bits, i, idx, compact)
                blocked[i].add(idx)
        for _ in range(30):
            idx = rng.randrange(lines[i])
            top = rng.choice([int(lines[i]), rng.randint(idx + 1, int(lines[i]))])
            expected = chain_definition(blocked[i], int(mods[i]), idx, top)
            assert find(bits, i, idx, top, compact) == expected, (i, idx, top)


def test_compact_tables_are_a_twentieth_of_the_int32_ones():
    game = canonicalize({"rays": [[1, 0], [0, 2], [1, 1], [2, 1], [1, 2]]})
    wide = kernel.KernelSweep(game, compact=False)
    bits = kernel.KernelSweep(game, compact=True)
    for sweep in (wide, bits):
        sweep.advance(5_000)
    assert wide.layout is None and wide.ring.dtype == np.int32
    assert np.array_equal(wide.rcap, bits.rcap)
    full = bits.layout[4]
    assert 20 * (bits.ring.nbytes + full.nbytes) < wide.ring.nbytes


@pytest.mark.parametrize("seed", range(3))
def test_compact_kernel_matches_the_int32_tables_far_out(seed):
    """Thousands of columns (long blocked runs, many words a row), in
    chunks, resumed from stored columns, and grown from a small start."""
    rng = random.Random(500 + seed)
    for _ in range(4):
        game = kernel_game(rng)
        whole = kernel.KernelSweep(game, compact=False).advance(6000)
        sweep = kernel.KernelSweep(game, x_cap=8, compact=True)
        parts = [sweep.advance(x) for x in (100, 2500, 6000)]
        assert np.array_equal(np.concatenate(parts), whole), game
        cut = rng.randint(1, 6000)
        resumed = kernel.KernelSweep.resume(game, whole[whole[:, 0] < cut], cut)
        resumed.compact = True
        resumed._layout(resumed.x_cap, resumed.y_cap)
        rest = resumed.advance(6000)
        assert resumed.layout is not None
        assert np.array_equal(rest, whole[whole[:, 0] >= cut]), game


def test_the_tables_turn_compact_past_the_budget(monkeypatch):
    """A sweep keeps int32 distances while they fit LINE_BUDGET and bits
    past it, the same P-positions either way."""
    game = canonicalize(read_seed(seed_dir() / "W000012.json")["definition"])
    small = kernel.KernelSweep(game)
    expected = small.advance(50_000)
    assert small.layout is None
    int32_bytes = small.ring.nbytes
    monkeypatch.setattr(kernel, "LINE_BUDGET", int32_bytes - 1)
    big = kernel.KernelSweep(game)
    assert np.array_equal(big.advance(50_000), expected)
    assert big.layout is not None
    monkeypatch.setattr(kernel, "LINE_BUDGET", int32_bytes)
    again = kernel.KernelSweep(game)
    again.advance(50_000)
    assert again.layout is None and again.ring.nbytes == int32_bytes


def test_the_numba_cache_folder_follows_every_compiled_module(
    monkeypatch, tmp_path
) -> None:
    """jit._cache_in_user_folder names the cache by the sources of all the
    modules: numba keys a function's code on its own file only, and a
    change to an inlined callee's module alone (wedges.py, under the
    unchanged wedgescan.py) served code compiled from the old callee."""
    from catalog.compute import jit

    def folder(sources: dict[str, str]) -> str:
        place = tmp_path / str(len(list(tmp_path.iterdir())))
        place.mkdir()
        for name, text in sources.items():
            (place / name).write_text(text)
        monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
        jit._cache_in_user_folder(place)
        return os.environ["NUMBA_CACHE_DIR"]

    modules = {"wedges.py": "A = 1\n", "wedgescan.py": "from wedges import A\n"}
    first = folder(modules)
    assert folder(dict(modules)) == first  # the same sources, the same code
    assert folder({**modules, "wedges.py": "A = 2\n"}) != first
    monkeypatch.setenv("NUMBA_CACHE_DIR", "/elsewhere")
    jit._cache_in_user_folder(tmp_path)
    assert os.environ["NUMBA_CACHE_DIR"] == "/elsewhere"  # the user's choice
