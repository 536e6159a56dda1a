"""The work estimate: its shape, and its constants against real timings."""

import math
import time

import pytest

from catalog.compute import cost
from catalog.compute.ptable import p_positions
from catalog.errors import TooMuchWork
from catalog.games.definition import canonicalize
from catalog.store.seed import read_seed, seed_dir

BOX = {"rays": [[1, 1], [2, 1]], "moves": [[1, 0]]}
DENSE_BOX = {"rays": [[1, 1]], "moves": [[2, 0], [0, 3]]}
HORIZONTAL = {"rays": [[1, 0], [1, 1]], "moves": [[1, 2], [2, 1]]}


def seed(wid):
    return canonicalize(read_seed(seed_dir() / f"{wid}.json")["definition"])


GAMES = {
    "closed": (seed("W000001"), 1_000_000),
    "altered": (seed("W000016"), 2_000_000),
    "kernel": (seed("W000004"), 200_000),
    "ho-restriction": (seed("W000022"), 300_000),
    "ho-extension": (seed("W000023"), 300_000),
    "general": (
        canonicalize({"rays": [[1, 0], [0, 3], [1, 1]], "moves": [[0, 1]]}),
        100_000,
    ),
    "transposed": (canonicalize(HORIZONTAL), 300_000),
    "box": (canonicalize(BOX), 5000),
    "dense box": (canonicalize(DENSE_BOX), 2000),
}


def test_each_engine_is_chosen_as_the_computation_does():
    assert cost.fill_engine(seed("W000004")) == "kernel"
    assert cost.fill_engine(seed("W000022")) == "general"
    assert cost.fill_engine(seed("W000023")) == "general"
    assert cost.fill_engine(canonicalize(BOX)) == "box"
    assert cost.fill_engine(canonicalize(HORIZONTAL)) == "transposed"
    plain = canonicalize({"rays": [[1, 0], [0, 3], [1, 1]], "moves": [[0, 1]]})
    assert cost.fill_engine(plain) == "general"


@pytest.mark.parametrize("wid", ["W000001", "W000004", "W000012", "W000023"])
def test_fill_estimate_grows_with_n_and_is_zero_when_stored(wid):
    game = seed(wid)
    bounds = [0, 10, 100, 1000, 10_000]
    costs = [cost.fill_seconds(game, 0, None, n) for n in bounds]
    assert costs[0] == 0 and costs == sorted(set(costs))
    for n in bounds:
        assert cost.fill_seconds(game, n, None, n) == 0
        assert cost.fill_seconds(game, n + 5, None, n) == 0
    # Resuming after stored columns costs less than starting over.
    assert cost.fill_seconds(game, 5000, None, 10_000) < costs[-1]


def test_box_estimate_follows_the_stored_box():
    game = canonicalize(BOX)
    assert cost.fill_seconds(game, 100, 100, 100) == 0
    wider = cost.fill_seconds(game, 100, 200, 150)  # the same box, continued
    taller = cost.fill_seconds(game, 100, 100, 150)  # recomputed whole
    assert 0 < wider < taller


def test_chunks_are_sized_by_time_within_the_column_bound():
    slow, fast = seed("W000023"), seed("W000001")
    assert cost.chunk_columns(fast, 0, 1.0, 65_536) == 65_536
    width = cost.chunk_columns(slow, 10_000, 0.01, 65_536)
    assert type(width) is int and 1 <= width < 65_536  # a number of columns
    assert cost.chunk_seconds(slow, 10_000, 10_000 + width) <= 0.01
    assert cost.chunk_seconds(slow, 10_000, 10_000 + width + 1) > 0.01
    # Every engine is linear in the columns: the same width further out.
    assert cost.chunk_columns(slow, 10**6, 0.01, 65_536) == width
    assert cost.chunk_columns(slow, 10**6, 1e-9, 65_536) == 1


def test_each_engine_costs_what_its_documented_formula_says():
    """The table of the module's docstring, for the columns [10, 110)."""
    c = cost.CONSTANTS
    general = canonicalize({"rays": [[1, 0], [0, 3], [1, 1]], "moves": [[0, 1]]})
    horizontal = canonicalize({"rays": [[3, 0], [1, 1]], "moves": [[1, 2]]})
    box = canonicalize(BOX)
    assert (cost.rules(general), cost._period(general)) == (4, 3)
    expected = {
        ("closed", seed("W000001")): c["closed"].column * 100,
        ("altered", seed("W000016")): c["altered"].column * 100,
        ("kernel", seed("W000004")): c["kernel"].column * 5 * 1 * 100,
        ("general", general): c["general"].column * 4 * 3 * 100,
        # the transpose, rays (0, 3) and (1, 1) and a move, is a kernel game:
        # its 110 columns (the box's height), then 100 columns read off it
        ("transposed", horizontal): c["kernel"].column * 3 * 3 * 110
        + c["transposed"].column * 3 * 100,
        ("box", box): 300 * (c["box"].column + c["box"].cell * cost.density(box, 110)),
    }  # fmt: skip
    for (engine, game), seconds in expected.items():
        assert cost.engine_seconds(engine, game, 10, 110) == pytest.approx(seconds)
        assert cost.engine_seconds(engine, game, 10, 10) == 0
        assert cost.engine_seconds(engine, game, 10, 9) == 0
    tall = c["box"].column + c["box"].cell * cost.density(box, 5000)
    assert cost.engine_seconds("box", box, 10, 110, 5000) == pytest.approx(300 * tall)
    assert cost.engine_seconds("transposed", horizontal, 10, 110, 50) == pytest.approx(
        c["kernel"].column * 9 * 50 + c["transposed"].column * 3 * 100
    )
    assert cost.rules(canonicalize({"rays": [[1, 1]]})) == 1


def test_a_grundy_table_costs_what_its_documented_formula_says():
    from catalog.compute.grundy import plan

    c = cost.CONSTANTS
    game = canonicalize({"rays": [[1, 0], [0, 1], [1, 1], [9, 7]]})
    n = 10_000  # (9, 7) is walked: its lines would not fit
    how = plan(game, n)
    assert how.walked == ((9, 7),) and len(how.lines) == 3
    cells = float(n) * n
    assert cost.grundy_seconds(game, n) == pytest.approx(
        cells * (c["grundy"].column * 4 + c["grundy"].cell * n * 3)
        + c["grundy-walk"].column * how.walk_steps()
        + c["grundy-emit"].column * cells
    )


def test_a_fill_costs_resuming_computing_storing_and_deriving():
    c = cost.CONSTANTS
    game = seed("W000004")  # kernel, 5 rules, at most 1 P-position a column
    assert cost.fill_seconds(game, 100, None, 1000) == pytest.approx(
        c["resume"].column * 100
        + c["kernel"].column * 5 * 900
        + c["store"].column * 900
        + c["derive"].column * 1000
    )
    assert cost.chunk_seconds(game, 100, 1000) == pytest.approx(
        c["kernel"].column * 5 * 900 + c["store"].column * 900
    )
    box = canonicalize(BOX)
    d150, d200 = cost.density(box, 150), cost.density(box, 200)
    # the same box (200 rows) continued from column 100 to 150
    assert cost.fill_seconds(box, 100, 200, 150) == pytest.approx(
        c["resume"].column * 100
        + 3 * 50 * (c["box"].column + c["box"].cell * d200)
        + c["store"].column * d200 * 50
        + c["derive"].column * d200 * 150
    )
    # a taller box: all 150 columns again, 150 rows
    assert cost.fill_seconds(box, 100, 100, 150) == pytest.approx(
        3 * 150 * (c["box"].column + c["box"].cell * d150)
        + c["store"].column * d150 * 150
        + c["derive"].column * d150 * 150
    )
    assert cost.fill_seconds(box, 150, 150, 150) == 0
    assert cost.fill_seconds(box, 149, 150, 150) > 0
    assert cost.fill_seconds(box, 150, 149, 150) > 0


@pytest.mark.parametrize(
    "definition", [BOX, {"moves": [[1, 1]]}, {"rays": [[1, 2], [2, 1]]}]
)
def test_box_density_bounds_the_real_one_closely(definition):
    """The density extrapolated from the two probes, against the P-positions
    per column of a real box 1024 high: above it (rounded up), not by much.
    The second game's density grows linearly with the height."""
    from catalog.compute.special_kernel import GeneralSweep

    game = canonicalize(definition)
    real = len(GeneralSweep(game, height=1024).advance(1024)) / 1024
    assert real <= cost.density(game, 1024) <= 1.3 * real
    d1, d2 = cost._probe(game)
    assert cost.density(game, 2 * cost.PROBE) == d2
    assert cost.density(game, 1) == d2


def test_a_box_too_big_names_its_largest_n():
    """A box whose every cell fits is not probed; one that does not fit by
    its density is refused with the largest n that fits, exactly."""
    import re

    grows = canonicalize({"moves": [[1, 1]]})  # about n / 2 P-positions a column
    fits = int((cost.MAX_BOX_BYTES / cost.BOX_BYTES_PER_POSITION) ** 0.5)
    cost.check_box_memory(grows, fits)
    cost.check_box_memory(canonicalize(BOX), 100_000)  # 2 a column: fits
    with pytest.raises(TooMuchWork, match="1024 MB a box may take") as refused:
        cost.check_box_memory(grows, 100_000)
    largest = int(re.search(r"largest n is about (\d+)$", str(refused.value))[1])
    assert cost.box_bytes(grows, largest) <= cost.MAX_BOX_BYTES
    assert cost.box_bytes(grows, largest + 1) > cost.MAX_BOX_BYTES
    # The same largest n whatever n was asked for (the search's path
    # differs: from n = 30,000, the documented limit, a midpoint rounded
    # down would never end).
    for n in (largest + 1, 6_000, 30_000):
        with pytest.raises(TooMuchWork, match=f"its largest n is about {largest}$"):
            cost.check_box_memory(grows, n)
    need = cost.box_bytes(grows, 100_000)
    assert f"need about {need / 2**20:.0f} MB" in str(refused.value)
    positions = 100_000 * cost.density(grows, 100_000)
    assert f"hold about {positions:.3g} P-positions" in str(refused.value)


def best_of_three(func):
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - start)
    return best


@pytest.mark.parametrize("engine", list(GAMES))
def test_estimate_is_within_a_generous_factor_of_a_real_timing(engine):
    """Not a speed goal (those are in benchmarks/cost.py): a model that is
    off by more than 20 times either way has a wrong constant or formula.
    The best of three runs resists a busy machine; an estimate may be
    cautious (above the timing) by more, since it is rounded up."""
    game, n = GAMES[engine]
    p_positions(game, 64)  # compile (numba) before timing
    estimate = cost.p_positions_seconds(game, n)
    measured = best_of_three(lambda: p_positions(game, n))
    assert measured < 20 * estimate + 0.05
    assert estimate < 40 * measured + 0.05


def test_grundy_estimate_grows_with_n_and_counts_walked_rays():
    from catalog.compute.grundy import plan

    game = seed("W000001")
    costs = [cost.grundy_seconds(game, n) for n in (0, 10, 100, 1000, 10_000)]
    assert costs[0] == 0 and costs == sorted(set(costs))
    # Far beyond a request's budget at the largest n.
    assert costs[-1] > 20
    far = canonicalize({"rays": [[1, 0], [0, 1], [1, 1], [9, 7]]})
    assert plan(far, 2000).walked == ()
    assert cost.grundy_seconds(far, 2000) > cost.grundy_seconds(game, 2000)


def test_grundy_estimate_is_within_a_generous_factor_of_a_real_timing():
    """As above, for a Grundy table computed and written as JSON text."""
    from catalog.compute.grundy import grundy, json_rows

    game = seed("W000014")
    n = 600
    json_rows(grundy(game, 20), 0, 20)  # compile
    estimate = cost.grundy_seconds(game, n)
    measured = best_of_three(lambda: json_rows(grundy(game, n), 0, n))
    assert measured < 20 * estimate + 0.05
    assert estimate < 40 * measured + 0.05


def test_density_grows_at_most_linearly_with_the_height(monkeypatch):
    """Between the probes the density may grow eightfold (a sparse start):
    the extrapolation stays linear in the height, not faster."""
    game = canonicalize(BOX)
    monkeypatch.setattr(cost, "_probe", lambda g: (1.0, 8.0))
    assert cost.density(game, 8 * cost.PROBE) == pytest.approx(1.25 * 8.0 * 4)
    # Extrapolated from just past the larger probe on.
    past = 2 * cost.PROBE + 44
    assert cost.density(game, past) == pytest.approx(1.25 * 8.0 * past / 256)
    assert cost.density(game, 2 * cost.PROBE) == 8.0
    monkeypatch.setattr(cost, "_probe", lambda g: (4.0, 4.0))
    assert cost.density(game, 8 * cost.PROBE) == pytest.approx(1.25 * 4.0)
    # A density that fell between the probes is not extrapolated downwards.
    monkeypatch.setattr(cost, "_probe", lambda g: (4.0, 2.0))
    assert cost.density(game, 8 * cost.PROBE) == pytest.approx(1.25 * 2.0)


def test_an_empty_probe_counts_one_position_a_column(monkeypatch):
    """A probe box without P-positions (no division by zero): one a column."""
    import numpy as np

    def empty(game, side):
        return np.zeros((0, 2), dtype=np.int64)

    monkeypatch.setattr(cost, "box_positions", empty)
    cost._probe.cache_clear()
    try:
        game = canonicalize({"rays": [[1, 1]], "moves": [[5, 0]]})
        assert cost._probe(game) == (1.0, 1.0)
        assert cost.density(game, 4096) == pytest.approx(1.25)
    finally:
        cost._probe.cache_clear()


def test_a_box_between_the_sure_fit_and_the_limit_is_probed():
    """Past the size where every cell would fit, the density decides: about
    n / 2 a column at n = 20,000 is 12 GB, refused."""
    from catalog.errors import TooMuchWork

    grows = canonicalize({"moves": [[1, 1]]})
    with pytest.raises(TooMuchWork):
        cost.check_box_memory(grows, 20_000)


def test_storing_a_continued_box_counts_its_own_height():
    """A box 3000 rows high continued to the right stores and derives at the
    density of its 3000 rows, not of the window asked for."""
    c = cost.CONSTANTS
    game = canonicalize({"moves": [[1, 1]]})  # the density grows with the height
    d3000, d2000 = cost.density(game, 3000), cost.density(game, 2000)
    assert d3000 > d2000
    assert cost.fill_seconds(game, 1000, 3000, 2000) == pytest.approx(
        c["resume"].column * 1000
        + cost.engine_seconds("box", game, 1000, 2000, 3000)
        + c["store"].column * d3000 * 1000
        + c["derive"].column * d3000 * 2000
    )


def test_the_constants_cannot_be_changed_in_place():
    import dataclasses

    with pytest.raises(dataclasses.FrozenInstanceError):
        cost.CONSTANTS["store"].column = 1.0  # type: ignore[misc]


@pytest.mark.parametrize("engine", list(GAMES))
def test_p_positions_costs_its_engine_over_the_whole_window(engine):
    """catalog.p_positions computes the columns [0, n) of its engine (n rows
    in box mode), nothing stored: exactly that estimate. Wythoff's Nim and
    the altered games have their closed forms there."""
    game, n = GAMES[engine]
    used = engine if engine in ("closed", "altered") else cost.fill_engine(game)
    expected = cost.engine_seconds(used, game, 0, n, n)
    assert cost.p_positions_seconds(game, n) == expected
    assert cost.p_positions_seconds(game, 2 * n) > expected


def test_rules_count_rays_moves_and_special_rules():
    assert cost.rules(seed("W000001")) == 3
    assert cost.rules(seed("W000004")) == 5
    assert cost.rules(seed("W000022")) == 4  # Wythoff's rays and Ho's rule


def test_no_constant_is_negative_or_absurd():
    """Seconds per column, row or value: each engine does millions a second,
    so a constant of a microsecond's tens is a typo, not a measurement."""
    for name, rate in cost.CONSTANTS.items():
        assert 0 < rate.column < 1e-4 and 0 <= rate.cell < 1e-4, name


def test_a_column_holds_as_many_positions_as_its_vertical_rays_period():
    """The vertical ray (0, 3) leaves up to 3 P-positions a column: storing
    them costs three times a column's worth (a column game's own period, not
    its transpose's)."""
    c = cost.CONSTANTS
    game, _ = GAMES["general"]
    assert cost.fill_engine(game) == "general"
    assert cost.chunk_seconds(game, 0, 1000) == pytest.approx(
        cost.engine_seconds("general", game, 0, 1000) + c["store"].column * 3 * 1000
    )


def test_the_box_limit_is_what_the_definitions_page_says():
    """The page users read states the box's bytes a P-position and its
    ceiling: the refusal they meet must follow those numbers."""
    from pathlib import Path

    text = " ".join(
        (Path(__file__).parents[2] / "docs" / "definitions.md").read_text().split()
    )
    stated = (
        f"by the density its first {2 * cost.PROBE} columns show, "
        f"{cost.BOX_BYTES_PER_POSITION} bytes a P-position) exceeds "
        f"{cost.MAX_BOX_BYTES >> 30} GB is refused"
    )
    assert stated in text


def test_a_game_without_rules_still_costs_its_columns():
    """The empty definition is a game (no move: every position is P), in box
    mode; its columns cost what a game of one rule's do, not nothing."""
    empty, one = canonicalize({}), canonicalize({"moves": [[1, 1]]})
    assert cost.rules(empty) == cost.rules(one) == 1
    assert cost.fill_engine(empty) == "box"
    assert cost.p_positions_seconds(empty, 200) > 0
    assert cost.engine_seconds("box", empty, 0, 200) > 0
    # Its density's estimate passes one a cell (5,120 a column at n = 4,096),
    # yet a box whose every cell fits is never refused: n = 4,096 is the
    # largest (64 bytes x 4,096² = 1 GB).
    side = math.isqrt(cost.MAX_BOX_BYTES // cost.BOX_BYTES_PER_POSITION)
    assert side == 4096 and cost.density(empty, side) > side
    cost.check_box_memory(empty, side)
    with pytest.raises(TooMuchWork):
        cost.check_box_memory(empty, side + 1)


WYTHOFF_RAYS = [[1, 0], [0, 1], [1, 1]]


@pytest.mark.parametrize(
    "definition",
    [
        # beside Wythoff's diagonal, no shear: each column searches its
        # classes afresh, and the steps grow by little (or nothing) a doubling
        {"rays": WYTHOFF_RAYS, "cones": [{"lo": [2, 0], "hi": [3, 1], "mod": 4}]},
        {"rays": WYTHOFF_RAYS, "cones": [{"lo": [3, 0], "hi": [5, 2], "mod": 8}]},
        # the climb, and a cone without an upper line: a constant few
        {"rays": WYTHOFF_RAYS, "cones": [{"lo": [1, 0], "hi": [2, 2], "mod": 16}]},
        {"rays": [[1, 0], [0, 1]], "cones": [{"lo": [0, 1], "mod": 64}]},
    ],
)
def test_cone_steps_bound_the_real_ones_closely(definition):
    """The cone sweep's steps a column extrapolated from the three probes,
    against the steps the sweep counts at n = 50,000 (counts, not times):
    above them, not by much."""
    import numpy as np

    from catalog.compute.conesweep import cone_sweep_p_positions
    from catalog.compute.kindsweeps import cone_rows

    game = canonicalize(definition)
    n = 50_000
    stats = np.zeros(1, dtype=np.int64)
    cone_sweep_p_positions(n, cone_rows(game.cones), game.rays, stats=stats)
    real = stats[0] / n
    assert real <= cost._cone_work(game, n) <= 1.2 * real


def test_cone_steps_carry_on_their_growth(monkeypatch):
    """Growth by the same a doubling goes on logarithmically; growth that
    grows goes on linearly in the side; a-Wythoff takes no steps (a theorem
    answers it)."""
    game = canonicalize({"rays": WYTHOFF_RAYS, "cones": [{"lo": [2, 0], "hi": [3, 1]}]})
    w = 4 * cost.CONE_PROBE
    monkeypatch.setattr(cost, "_cone_probe", lambda g: (10.0, 12.0, 14.0))
    assert cost._cone_work(game, w) == 14
    assert cost._cone_work(game, 8 * w) == pytest.approx(14 + 2 * 3)
    monkeypatch.setattr(cost, "_cone_probe", lambda g: (10.0, 20.0, 40.0))
    assert cost._cone_work(game, 8 * w) == pytest.approx(
        40 + 20 / (2 * cost.CONE_PROBE) * 7 * w
    )
    monkeypatch.undo()
    awythoff = canonicalize(
        {"rays": [[1, 0], [0, 1]], "cones": [{"lo": [1, -1], "hi": [1, 1]}]}
    )
    assert cost._cone_probe(awythoff) == (0.0, 0.0, 0.0)
    c = cost.CONSTANTS["cones"].column
    assert cost.engine_seconds("cones", game, 0, 1000) == pytest.approx(
        1000 * (c * cost.rules(game) + cost.CONE_STEP * cost._cone_work(game, 1000))
    )
