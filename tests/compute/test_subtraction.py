"""The subtraction-game sweep against a literal brute force, and the
theorems on the ⋆-operator: Larsson–Hegarty–Fraenkel's P(G_α⋆) = the Beatty
pairs of α, and Larsson's Nim⋆⋆ = Nim."""

from __future__ import annotations

import random

import numpy as np
import pytest

from catalog import p_positions
from catalog.compute.beatty import BeattyPairs
from catalog.compute.subtraction import (
    MAX_N,
    beatty_moves,
    ray_moves,
    star_moves,
    star_p_positions,
    subtraction_p_positions,
)
from catalog.games.quadratic import parse

#: Slopes in (1, 2) for the theorem of Larsson, Hegarty and Fraenkel.
SLOPES = [
    "sqrt(2)",
    "(1+sqrt(5))/2",
    "sqrt(3)",
    "(1+sqrt(3))/2",
    "(3+sqrt(5))/4",
    "sqrt(5)-1",
    "(1+sqrt(7))/3",
    "2-sqrt(2)/2",
    "(5+sqrt(13))/6",
    "1+1/sqrt(1000001)",
]
WYTHOFF = {"rays": [[1, 0], [0, 1], [1, 1]]}
MAHARAJA = {"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[1, 2], [2, 1]]}


def brute_force(n, moves):
    """P iff no option is P, literally: every move tried at every cell."""
    moves = np.asarray(moves, dtype=np.int64).reshape(-1, 2)
    a, b = moves[:, 0], moves[:, 1]
    p = np.zeros((n, n), dtype=bool)
    for x in range(n):
        for y in range(n):
            legal = (a <= x) & (b <= y)
            p[x, y] = not p[x - a[legal], y - b[legal]].any()
    return np.argwhere(p).astype(np.int64)


def random_moves(rng, n):
    """Sparse, dense, vertical-heavy and out-of-box move sets."""
    kind = rng.choice(["sparse", "dense", "vertical", "wide"])
    count = {"sparse": 4, "dense": 4 * n, "vertical": 12, "wide": 30}[kind]
    top = 2 * n if kind == "wide" else n
    moves = set()
    for _ in range(count):
        a = 0 if kind == "vertical" and rng.random() < 0.5 else rng.randrange(top)
        b = rng.randrange(top)
        if a or b:
            moves.add((a, b))
    return sorted(moves) or [(1, 1)]


@pytest.mark.parametrize("seed", range(60))
def test_random_move_sets_match_the_brute_force(seed):
    rng = random.Random(seed)
    n = rng.randrange(1, 41)
    moves = random_moves(rng, n)
    expected = brute_force(n, moves)
    assert np.array_equal(subtraction_p_positions(n, moves), expected)
    shuffled = moves * 2  # repeated and out of order: the same game
    rng.shuffle(shuffled)
    assert np.array_equal(subtraction_p_positions(n, shuffled), expected)


@pytest.mark.parametrize("seed", range(12))
def test_star_of_random_games_matches_the_brute_force(seed):
    rng = random.Random(1000 + seed)
    n = rng.randrange(1, 33)
    moves = random_moves(rng, n)
    star = star_moves(brute_force(n, moves))
    assert np.array_equal(star_p_positions(n, moves), brute_force(n, star))


def test_the_beatty_game_of_sqrt2():
    moves = beatty_moves("sqrt(2)", 60)
    result = subtraction_p_positions(60, moves)
    assert len(result) == 325
    assert np.array_equal(result, brute_force(60, moves))
    # No move changes one pile only, so every (0, y) and (x, 0) is P.
    assert {(0, y) for y in range(60)} <= set(map(tuple, result.tolist()))


@pytest.mark.parametrize("alpha", SLOPES)
def test_star_of_a_beatty_game_is_its_beatty_pairs(alpha):
    """Larsson, Hegarty, Fraenkel (TCS 412, 2011), Theorem 1."""
    n = 2000
    pairs = BeattyPairs(parse(alpha)).p_positions(n)
    assert np.array_equal(star_p_positions(n, beatty_moves(alpha, n)), pairs)


def test_star_of_a_beatty_game_at_small_n_matches_the_brute_force():
    for alpha in SLOPES[:4]:
        moves = beatty_moves(alpha, 50)
        star = star_moves(brute_force(50, moves))
        assert np.array_equal(star_p_positions(50, moves), brute_force(50, star))


def test_nim_star_star_is_nim():
    """Larsson (TCS 422, 2012): Nim⋆ moves (k, k); Nim⋆⋆ = Nim."""
    n = 200
    diagonal = np.column_stack([np.arange(n), np.arange(n)])
    nim = ray_moves([[1, 0], [0, 1]], n)
    assert np.array_equal(subtraction_p_positions(n, nim), diagonal)
    nim_star = star_moves(diagonal)
    axes = subtraction_p_positions(n, nim_star)
    assert np.array_equal(star_p_positions(n, nim), axes)
    assert sorted(map(tuple, axes.tolist())) == sorted(
        {(0, y) for y in range(n)} | {(x, 0) for x in range(n)}
    )
    assert np.array_equal(subtraction_p_positions(n, star_moves(axes)), diagonal)
    assert np.array_equal(star_p_positions(n, nim_star), diagonal)


@pytest.mark.parametrize("game", [WYTHOFF, MAHARAJA], ids=["wythoff", "maharaja"])
def test_star_of_ray_games_matches_the_brute_force(game):
    n = 60
    moves = star_moves(p_positions(game, n))
    expected = brute_force(n, moves)
    assert np.array_equal(subtraction_p_positions(n, moves), expected)
    # The rays as moves below n: the same game, then its ⋆ in one call.
    rays = ray_moves(game["rays"], n)
    singles = np.asarray(game.get("moves", np.zeros((0, 2))), dtype=np.int64)
    own = np.concatenate([rays, singles.reshape(-1, 2)])
    assert np.array_equal(subtraction_p_positions(n, own), p_positions(game, n))
    assert np.array_equal(star_p_positions(n, own), expected)


def test_word_boundaries_and_sizes():
    """Shifts by multiples of 64 and boxes one past a word, both routes."""
    for n in (0, 1, 63, 64, 65, 129):
        moves = [(1, 64), (64, 0), (0, 64), (2, 1), (1, 63), (65, 65)]
        dense = [(a, b) for a in range(3) for b in range(0, n, 3) if a or b]
        for m in (moves, dense, moves + dense) if n < 100 else (moves,):
            assert np.array_equal(subtraction_p_positions(n, m), brute_force(n, m)), (
                n,
                m,
            )


def test_bad_input():
    with pytest.raises(ValueError, match="not a move"):
        subtraction_p_positions(5, [[0, 0]])
    with pytest.raises(ValueError, match="non-negative"):
        subtraction_p_positions(5, [[1, -1]])
    with pytest.raises(ValueError, match="shape"):
        subtraction_p_positions(5, [1, 2, 3])
    with pytest.raises(ValueError, match="n must be"):
        subtraction_p_positions(MAX_N + 1, [[1, 1]])
    with pytest.raises(ValueError, match="n must be"):
        star_p_positions(True, [[1, 1]])
    assert subtraction_p_positions(3, []).tolist() == [
        [x, y] for x in range(3) for y in range(3)
    ]
