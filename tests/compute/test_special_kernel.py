"""The compiled sweeps of special_kernel.py against the reference, on
generated games of every kind: Ho's rules, several vertical rays, vertical
moves, transposed games (a horizontal ray, no vertical one) and box mode."""

import random

import numpy as np
import pytest

from catalog.compute import closed, cost, reference
from catalog.compute.modes import (
    MAX_BOX_N,
    box_limited,
    column_mode,
    max_n,
    transposable,
    transpose,
)
from catalog.compute.ptable import Sweep, p_positions, resume_sweep
from catalog.compute.special_kernel import GeneralSweep, TransposedSweep
from catalog.games.definition import MAX_N, DefinitionError, canonicalize
from catalog.store.seed import read_seed, seed_dir

VECTORS = [(a, b) for a in range(5) for b in range(5) if (a, b) != (0, 0)]
SPECIALS = ["ho-restriction", "ho-extension"]


def alteration(rng, width=8, height=8, most=8):
    cells = [(x, y) for x in range(width) for y in range(height)]
    chosen = rng.sample(cells, rng.randint(0, most))
    split = rng.randint(0, len(chosen))
    return {"P": chosen[:split], "N": chosen[split:]}


def any_game(rng, special=None):
    """Random rays, moves (vertical and horizontal ones too), special rules
    and alterations."""
    return canonicalize(
        {
            "rays": rng.sample(VECTORS, rng.randint(0, 4)),
            "moves": rng.sample(VECTORS, rng.randint(0, 3)),
            "special": rng.sample(SPECIALS, rng.randint(0, 2))
            if special is None
            else special,
            "alter": alteration(rng),
        }
    )


def game_of_kind(rng, kind, special=None):
    while True:
        game = any_game(rng, special)
        if kind == "columns" and column_mode(game):
            return game
        if kind == "transposed" and transposable(game):
            return game
        if kind == "box" and box_limited(game):
            return game


@pytest.mark.parametrize("seed", range(8))
def test_p_positions_match_reference_on_generated_games(seed):
    rng = random.Random(4000 + seed)
    kinds = {"columns": 0, "transposed": 0, "box": 0}
    for _ in range(60):
        game = any_game(rng)
        n = rng.randint(1, 36)
        kind = (
            "columns"
            if column_mode(game)
            else "transposed"
            if transposable(game)
            else "box"
        )
        kinds[kind] += 1
        found = p_positions(game, n)
        assert np.array_equal(found, reference.p_positions(game, n)), (game, n)
    assert all(kinds.values()), kinds  # every kind was generated


@pytest.mark.parametrize("kind", ["columns", "transposed", "box"])
@pytest.mark.parametrize("special", [["ho-restriction"], ["ho-extension"], SPECIALS])
def test_special_rules_match_reference_in_every_mode(kind, special):
    rng = random.Random(hash((kind, tuple(special))) % 10_000)
    for _ in range(15):
        game = game_of_kind(rng, kind, special)
        n = rng.randint(1, 40)
        assert np.array_equal(p_positions(game, n), reference.p_positions(game, n)), (
            game,
            n,
        )


@pytest.mark.parametrize("seed", range(4))
def test_general_sweep_box_mode_matches_reference_for_any_game(seed):
    """Box mode is exact for every game: no option increases a pile."""
    rng = random.Random(4100 + seed)
    for _ in range(25):
        game = any_game(rng)
        n = rng.randint(1, 36)
        found = GeneralSweep(game, height=n, x_cap=8).advance(n)
        assert np.array_equal(found, reference.p_positions(game, n)), (game, n)


@pytest.mark.parametrize("seed", range(3))
def test_a_few_hundred_columns_match_reference(seed):
    rng = random.Random(4200 + seed)
    for kind in ("columns", "transposed", "box"):
        game = game_of_kind(rng, kind)
        assert np.array_equal(
            p_positions(game, 120), reference.p_positions(game, 120)
        ), game


@pytest.mark.parametrize("seed", range(3))
def test_longer_runs_match_the_numpy_sweep(seed):
    """The numpy sweep of ptable.py is an independent implementation."""
    rng = random.Random(4300 + seed)
    for _ in range(4):
        game = game_of_kind(rng, "columns")
        whole = Sweep(game).advance(600)
        assert np.array_equal(GeneralSweep(game, x_cap=8).advance(600), whole), game
        game = game_of_kind(rng, "transposed")
        box = Sweep(game, height=300).advance(300)
        assert np.array_equal(TransposedSweep(game, 300).advance(300), box), game


def test_several_vertical_rays_and_vertical_moves():
    rng = random.Random(4400)
    for _ in range(40):
        vertical = rng.sample([(0, 1), (0, 2), (0, 3), (0, 4), (0, 6)], 2)
        game = canonicalize(
            {
                "rays": vertical + rng.sample(VECTORS, rng.randint(0, 2)),
                "moves": rng.sample([(0, 1), (0, 2), (0, 5), (1, 0), (2, 1)], 2),
                "alter": alteration(rng),
            }
        )
        n = rng.randint(10, 40)
        assert np.array_equal(p_positions(game, n), reference.p_positions(game, n))


@pytest.mark.parametrize("seed", range(3))
def test_resumes_equal_one_run(seed):
    rng = random.Random(4500 + seed)
    for _ in range(6):
        game = game_of_kind(rng, "columns")
        whole = GeneralSweep(game).advance(300)
        cut = rng.randint(0, 300)
        before = whole[whole[:, 0] < cut]
        rest = resume_sweep(game, before, cut).advance(300)
        assert np.array_equal(np.concatenate([before, rest]), whole), game
        for kind in ("transposed", "box"):
            game = game_of_kind(rng, kind)
            box = p_positions(game, 80)
            before = box[box[:, 0] < cut % 80]
            rest = resume_sweep(game, before, cut % 80, height=80).advance(80)
            assert np.array_equal(np.concatenate([before, rest]), box), game


def test_transpose_exchanges_the_piles():
    rng = random.Random(4600)
    for _ in range(20):
        game = any_game(rng)
        n = rng.randint(1, 30)
        ours = p_positions(game, n)
        theirs = p_positions(transpose(game), n)[:, ::-1]
        theirs = theirs[np.lexsort((theirs[:, 1], theirs[:, 0]))]
        assert np.array_equal(ours, theirs), game
        assert transpose(transpose(game)) == game


@pytest.mark.parametrize("wid", ["W000022", "W000023"])
def test_ho_variants_keep_wythoffs_p_positions(wid):
    """Ho's theorem (Duchêne–Fraenkel–Nowakowski–Rigo slides): both variants
    have exactly Wythoff's P-positions. The computation agrees far out."""
    game = canonicalize(read_seed(seed_dir() / f"{wid}.json")["definition"])
    assert np.array_equal(p_positions(game, 200_000), closed.p_positions(200_000))


def test_limits_per_kind():
    horizontal = canonicalize({"rays": [[1, 0], [1, 1]], "moves": [[1, 2], [2, 1]]})
    neither = canonicalize({"rays": [[1, 1], [1, 2]]})
    assert transposable(horizontal) and max_n(horizontal) == MAX_N
    assert box_limited(neither) and max_n(neither) == MAX_BOX_N
    found = p_positions(horizontal, 50_000)
    assert len(found) and found[:, 0].max() < 50_000 and found[:, 1].max() < 50_000
    with pytest.raises(DefinitionError, match="^n"):
        p_positions(neither, MAX_BOX_N + 1)
    with pytest.raises(DefinitionError, match="^rays"):
        GeneralSweep(neither)


def test_box_density_probe_follows_the_game():
    sparse = canonicalize({"rays": [[1, 1], [2, 1]], "moves": [[1, 0]]})
    dense = canonicalize({"moves": [[2, 0]]})  # half of every column is P
    assert cost.density(sparse, 10_000) < 10
    assert cost.density(dense, 10_000) >= 5000
    assert cost.p_positions_seconds(dense, 10_000) > cost.p_positions_seconds(
        sparse, 10_000
    )
