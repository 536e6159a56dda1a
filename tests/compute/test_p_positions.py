"""The column sweep against the reference implementation and the papers."""

import random
from math import isqrt

import numpy as np
import pytest

from catalog import p_positions
from catalog.compute import reference
from catalog.compute.modes import MAX_BOX_N, column_mode
from catalog.compute.ptable import Sweep
from catalog.games.definition import MAX_N, DefinitionError, canonicalize
from catalog.store.seed import read_seed, seed_dir

WYTHOFF = {"rays": [[1, 0], [0, 1], [1, 1]]}
SEEDS = {p.stem: read_seed(p)["game"] for p in sorted(seed_dir().glob("W*.json"))}


def as_set(found):
    return set(map(tuple, np.asarray(found).tolist()))


def wythoff_pairs(n):
    """(⌊kφ⌋, ⌊kφ²⌋) and mirror images inside [0, n)², in exact integers."""
    out = set()
    for k in range(n):
        a = (k + isqrt(5 * k * k)) // 2
        b = a + k
        if a < n and b < n:
            out |= {(a, b), (b, a)}
    return out


def random_definition(rng):
    vectors = [(a, b) for a in range(4) for b in range(4) if (a, b) != (0, 0)]
    cells = [(x, y) for x in range(7) for y in range(7)]
    forced = rng.sample(cells, rng.randint(0, 6))
    split = rng.randint(0, len(forced))
    specials = ["ho-restriction", "ho-extension"]
    return {
        "rays": [list(v) for v in rng.sample(vectors, rng.randint(0, 4))],
        "moves": [list(v) for v in rng.sample(vectors, rng.randint(0, 3))],
        "special": rng.sample(specials, rng.randint(0, 2))
        if rng.random() < 0.3
        else [],
        "alter": {"P": forced[:split], "N": forced[split:]},
    }


@pytest.mark.parametrize("wid", sorted(SEEDS))
def test_seeds_match_reference(wid):
    game = SEEDS[wid]
    n = 60 if "ho-extension" in game.special else 160
    assert np.array_equal(p_positions(game, n), reference.p_positions(game, n))


@pytest.mark.parametrize("seed", range(8))
def test_random_definitions_match_reference(seed):
    rng = random.Random(seed)
    for _ in range(30):
        definition = random_definition(rng)
        n = rng.randint(0, 28)
        fast, slow = p_positions(definition, n), reference.p_positions(definition, n)
        assert np.array_equal(fast, slow), definition


def test_output_shape_and_order():
    found = p_positions(SEEDS["W000012"], 200)
    assert found.ndim == 2 and found.shape[1] == 2
    assert np.issubdtype(found.dtype, np.integer)
    order = np.lexsort((found[:, 1], found[:, 0]))
    assert np.array_equal(order, np.arange(len(found)))
    assert p_positions(WYTHOFF, 0).shape == (0, 2)


@pytest.mark.parametrize("n", [1, 2, 10, 1000, 6000])
def test_wythoff_is_the_beatty_pairs(n):
    assert as_set(p_positions(WYTHOFF, n)) == wythoff_pairs(n)


def test_misere_changes_only_the_corner():
    misere = as_set(p_positions(SEEDS["W000002"], 500))
    corner = {(x, y) for x in range(3) for y in range(3)}
    assert misere & corner == {(0, 1), (1, 0), (2, 2)}
    assert misere - corner == wythoff_pairs(500) - corner


def test_maharaja_facts():
    found = p_positions(SEEDS["W000004"], 200)
    column = dict(found[found[:, 0] < 200].tolist())
    assert [(x, column[x]) for x in range(8, 13)] == [
        (8, 13),
        (9, 16),
        (10, 7),
        (11, 19),
        (12, 18),
    ]
    full = Sweep(SEEDS["W000004"]).advance(40)
    bits = "".join("0" if y > x else "1" for x, y in full.tolist()[8:34])
    assert bits == "00100100101100010010011000"


def test_two_three_maharaja_start():
    found = Sweep(SEEDS["W000005"]).advance(9).tolist()
    assert found == [
        [0, 0],
        [1, 2],
        [2, 1],
        [3, 6],
        [4, 8],
        [5, 7],
        [6, 3],
        [7, 5],
        [8, 4],
    ]


def test_linear_nimhoff_closed_form():
    n = 3000
    expected = set()
    for k in range(n):
        low = isqrt(k * k // 3)  # ⌊k/√3⌋
        root3 = isqrt(3 * k * k)  # ⌊k√3⌋
        expected |= {(low, k + low), (2 * k + root3, k + root3)}
    expected = {(x, y) for x, y in expected if x < n and y < n}
    assert as_set(p_positions(SEEDS["W000012"], n)) == expected


@pytest.mark.parametrize("wid", ["W000022", "W000023", "W000024"])
def test_games_that_keep_wythoffs_p_positions(wid):
    assert as_set(p_positions(SEEDS[wid], 400)) == wythoff_pairs(400)


@pytest.mark.parametrize("wid", ["W000004", "W000013", "W000017", "W000022"])
def test_resuming_equals_one_run(wid):
    game = SEEDS[wid]
    whole = Sweep(game).advance(300)
    for cut in (0, 1, 17, 150):
        before = whole[whole[:, 0] < cut]
        rest = Sweep.resume(game, before, cut).advance(300)
        assert np.array_equal(np.concatenate([before, rest]), whole)


def test_box_mode_resumes_too():
    game = canonicalize({"rays": [[1, 0], [1, 1]], "moves": [[0, 2]]})
    assert not column_mode(game)
    whole = Sweep(game, height=80).advance(80)
    before = whole[whole[:, 0] < 33]
    rest = Sweep.resume(game, before, 33, height=80).advance(80)
    assert np.array_equal(np.concatenate([before, rest]), whole)


@pytest.mark.parametrize(
    ("definition", "n", "field"),
    [
        ({"rays": [[0, 0]]}, 5, "rays"),
        (WYTHOFF, -1, "n"),
        (WYTHOFF, MAX_N + 1, "n"),
        (WYTHOFF, 2.5, "n"),
        ({"rays": [[1, 1]]}, MAX_BOX_N + 1, "n"),
        ({"special": ["nope"]}, 5, "special"),
    ],
)
def test_bad_input_raises_value_error_naming_the_field(definition, n, field):
    with pytest.raises(DefinitionError, match=f"^{field}"):
        p_positions(definition, n)
    assert issubclass(DefinitionError, ValueError)


def test_closed_outcome_against_the_table_with_a_winning_move():
    """closed.outcome on every position below 60, both pile orders: P exactly
    at the table's P-positions, else a legal move (one pile, or both by the
    same amount) onto one of them, through each of its three cases."""
    from catalog.compute import closed

    n = 60
    table = {(int(x), int(y)) for x, y in closed.p_positions(n)}
    assert len(table) == len(closed.p_positions(n)) and (0, 0) in table
    for x in range(n):
        for y in range(n):
            kind, move = closed.outcome(x, y)
            if (x, y) in table:
                assert (kind, move) == ("P", None)
                continue
            assert kind == "N" and move in table, (x, y, move)
            dx, dy = x - move[0], y - move[1]
            assert dx >= 0 and dy >= 0 and (dx == 0 or dy == 0 or dx == dy)
    assert closed.p_positions(0).shape == (0, 2)


def test_isqrt_array_at_perfect_squares_and_their_neighbours():
    """Exact where float64's square root is not: perfect squares m² and
    m² ± 1 past 2^53, where the float guess is off by one either way."""
    import math
    import random

    from catalog.compute import closed

    rng = random.Random(5)
    roots = [rng.randrange(2**26, 2**31) for _ in range(3000)] + [2**31 - 1]
    values = [v for m in roots for v in (m * m - 1, m * m, m * m + 1)]
    values += [rng.randrange(2**62) for _ in range(3000)] + [0, 1, 2, 3, 4]
    found = closed.isqrt_array(np.array(values, dtype=np.int64))
    assert found.tolist() == [math.isqrt(v) for v in values]


def test_wythoff_and_ho_variants_are_recognised_exactly():
    """is_wythoff and is_ho_variant: the games whose P-positions are
    Wythoff's by the closed form, not one rule more or less."""
    from catalog.compute import closed

    wythoff = {"rays": [[1, 0], [0, 1], [1, 1]]}
    assert closed.is_wythoff(canonicalize(wythoff))
    assert not closed.is_ho_variant(canonicalize(wythoff))
    for special in ("ho-restriction", "ho-extension"):
        ho = canonicalize({**wythoff, "special": [special]})
        assert closed.is_ho_variant(ho) and not closed.is_wythoff(ho)
    both = canonicalize({**wythoff, "special": ["ho-restriction", "ho-extension"]})
    assert not closed.is_ho_variant(both)
    others = [
        {"rays": [[1, 0], [0, 1]]},
        {"rays": [[1, 0], [0, 1], [1, 1], [1, 2]]},
        {**wythoff, "moves": [[1, 2]]},
        {**wythoff, "alter": {"P": [[2, 2]]}},
        {"rays": [[1, 0], [0, 1], [2, 2]]},
    ]
    for other in others:
        game = canonicalize(other)
        assert not closed.is_wythoff(game) and not closed.is_ho_variant(game)
        with_ho = canonicalize({**other, "special": ["ho-extension"]})
        assert not closed.is_ho_variant(with_ho)
