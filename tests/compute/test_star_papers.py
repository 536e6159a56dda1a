"""The papers of issue 41 checked through ``catalog.p_positions`` (the
canonical form, the engine choice, the subtraction sweep and the ⋆'s inner
game together), against Beatty pairs derived again in the test
(:mod:`tests.kinds.beattyref`) and the slow reference:

- Larsson, Hegarty and Fraenkel (TCS 412, 2011), Theorem 1: ⋆ of the Beatty
  subtraction game of α has exactly the Beatty pairs of α as P-positions;
- Fraenkel (1982): a-Wythoff's P-positions are the Beatty pairs of
  (2 − a + √(a² + 4))/2, so a-Wythoff and that ⋆ agree;
- Larsson (TCS 422, 2012): Nim⋆ = the game moving by (k, k), Nim⋆⋆ = Nim;
- Wythoff⋆ is the Beatty game of φ (its moves are Wythoff's non-zero
  P-positions, the Beatty pairs of φ), hence Wythoff⋆⋆ has Wythoff's
  P-positions (LHF for α = φ).
"""

from __future__ import annotations

import numpy as np
import pytest

import catalog
from catalog.compute import reference
from catalog.compute.kindsweeps import move_list
from catalog.games.definition import canonicalize
from tests.kinds import beattyref, literal

NIM = [[1, 0], [0, 1]]
WYTHOFF = {"rays": [*NIM, [1, 1]]}
MAHARAJA = {"rays": [*NIM, [1, 1]], "moves": [[1, 2], [2, 1]]}
PHI = "(1+sqrt(5))/2"


def cells(array: np.ndarray) -> set[tuple[int, int]]:
    return set(map(tuple, array.tolist()))


def moves_below(definition: dict, n: int) -> set[tuple[int, int]]:
    """The moves the subtraction engine is given for ``definition``."""
    return cells(move_list(canonicalize(definition), n, catalog.p_positions))


def awythoff(a: int) -> dict:
    return {"rays": NIM, "cones": [{"lo": [1, 1 - a], "hi": [1, a - 1]}]}


@pytest.mark.parametrize("alpha", list(beattyref.ALPHAS))
def test_star_of_the_beatty_game_has_the_beatty_pairs_lhf(alpha):
    n = 2000
    found = catalog.p_positions({"star": {"beatty": alpha}}, n)
    expected = beattyref.pairs(beattyref.ALPHAS[alpha], n)
    assert cells(found) == expected
    assert found.tolist() == sorted(map(list, expected))  # sorted by x then y
    # Not the Beatty game itself: it has far more P-positions (the axes).
    assert len(catalog.p_positions({"beatty": alpha}, 200)) > 2 * 200


def test_the_independent_pairs_agree_with_betas_closed_form():
    """beattyref's two routes: the complement (Beatty's theorem) and β."""
    for alpha in beattyref.ALPHAS.values():
        expected = beattyref.pairs(alpha, 300)
        for x in range(1, 300):
            y = beattyref.partner(alpha, x)
            assert ((x, y) in expected) == (y < 300)


@pytest.mark.parametrize("a", sorted(beattyref.AWYTHOFF))
def test_awythoff_and_the_star_of_its_beatty_game_agree_fraenkel(a):
    n = 1500
    alpha = beattyref.AWYTHOFF[a]
    star = catalog.p_positions({"star": {"beatty": alpha}}, n)
    assert np.array_equal(star, catalog.p_positions(awythoff(a), n))
    # The partner of ⌊kα⌋ is ⌊kα⌋ + a·k: β = α + a.
    lower = sorted(x for x, y in cells(star) if x < y)
    assert all(
        beattyref.partner(beattyref.ALPHAS[alpha], x) == x + a * (k + 1)
        for k, x in enumerate(lower)
    )


def test_nim_star_is_the_diagonal_game_and_nim_star_star_is_nim_larsson():
    n = 300
    diagonal = {(k, k) for k in range(n)}
    axes = {(k, 0) for k in range(n)} | {(0, k) for k in range(n)}
    nim = catalog.p_positions({"rays": NIM}, n)
    assert cells(nim) == diagonal
    star = {"star": {"rays": NIM}}
    assert moves_below(star, n) == diagonal - {(0, 0)}
    assert cells(catalog.p_positions(star, n)) == axes
    star_star = {"star": star}
    assert moves_below(star_star, n) == axes - {(0, 0)}  # Nim's moves below n
    assert moves_below(star_star, n) == moves_below({"rays": NIM}, n)
    assert np.array_equal(catalog.p_positions(star_star, n), nim)
    # And once more: Nim⋆⋆⋆ = Nim⋆.
    assert cells(catalog.p_positions({"star": star_star}, n)) == axes


def test_wythoff_star_is_the_beatty_game_of_phi():
    n = 600
    star = {"star": WYTHOFF}
    assert moves_below(star, n) == moves_below({"beatty": PHI}, n)
    assert moves_below(star, n) == beattyref.pairs(beattyref.ALPHAS[PHI], n) - {(0, 0)}
    assert np.array_equal(
        catalog.p_positions(star, n), catalog.p_positions({"beatty": PHI}, n)
    )
    # LHF for φ: Wythoff⋆⋆ = (G_φ)⋆ has Wythoff's P-positions.
    assert np.array_equal(
        catalog.p_positions({"star": star}, n), catalog.p_positions(WYTHOFF, n)
    )


@pytest.mark.parametrize("game", [WYTHOFF, MAHARAJA], ids=["wythoff", "maharaja"])
@pytest.mark.parametrize("n", [41, 60])
def test_star_of_a_ray_game_against_the_references(game, n):
    star = {"star": game}
    found = catalog.p_positions(star, n)
    assert np.array_equal(found, reference.p_positions(star, n))
    assert np.array_equal(found, literal.p_positions(star, n))


def test_the_beatty_game_of_sqrt2_against_the_references():
    """325 P-positions below 60 (9 % of the cells, the issue's figure; the
    share falls as n grows), the axes among them."""
    n = 60
    game = {"beatty": "sqrt(2)"}
    found = catalog.p_positions(game, n)
    assert np.array_equal(found, reference.p_positions(game, n))
    assert np.array_equal(found, literal.p_positions(game, n))
    axes = {(k, 0) for k in range(n)} | {(0, k) for k in range(n)}
    assert axes <= cells(found) and len(found) == 325


def kernel_check(
    n: int, moves: set[tuple[int, int]], p: np.ndarray, forced_n=()
) -> None:
    """``p`` is the P-set of the subtraction game ``moves`` in [0, n)^2 iff
    no move joins two of its cells and every other cell (but those forced
    N) has a move into it (the kernel of an acyclic game is unique): one
    shifted copy of the grid a move, nothing of the sweep."""
    grid = np.zeros((n, n), dtype=bool)
    grid[p[:, 0], p[:, 1]] = True
    reach = np.zeros_like(grid)  # cells with a move to a P-position
    for a, b in moves:
        reach[a:, b:] |= grid[: n - a, : n - b]
    for x, y in forced_n:
        assert not grid[x, y]
        reach[x, y] = True
    assert not (reach & grid).any(), "two P-positions a move apart"
    assert (reach | grid).all(), "an N-position with no move to P"


@pytest.mark.parametrize(
    "game",
    [
        {"beatty": "sqrt(2)"},
        {"beatty": PHI},
        {"beatty": "(-3+sqrt(29))/2", "moves": [[0, 3]], "alter": {"N": [[0, 0]]}},
        {"star": MAHARAJA},
        {"star": {"beatty": "sqrt(3)"}, "rays": [[1, 2]]},
    ],
    ids=["G-sqrt2", "G-phi", "G-a5-altered", "maharaja-star", "star-ray"],
)
def test_large_boxes_are_kernels_of_their_move_sets(game):
    """Beyond the reference's reach (n = 1000): the engine's answer is
    certified against the move set directly."""
    n = 1000
    found = catalog.p_positions(game, n)
    forced_n = game.get("alter", {}).get("N", [])
    kernel_check(n, moves_below(game, n), found, forced_n)


def test_a_second_iterate_of_a_beatty_game_against_the_reference():
    for alpha in ("sqrt(2)", PHI, "2-sqrt(2)/2"):
        game = {"star": {"star": {"beatty": alpha}}}
        found = catalog.p_positions(game, 36)
        assert np.array_equal(found, literal.p_positions(game, 36)), alpha
        assert np.array_equal(found, reference.p_positions(game, 36)), alpha
