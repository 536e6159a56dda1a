"""Sprague–Grundy values against the literal mex of compute/reference.py, the
slides' table and known facts."""

import json
import random

import numpy as np
import pytest

from catalog import p_positions
from catalog.compute import reference
from catalog.compute.grundy import MAX_GRUNDY_N, grundy, json_rows, plan
from catalog.errors import Unprocessable
from catalog.games.definition import DefinitionError, canonicalize
from catalog.store.seed import read_seed, seed_dir

WYTHOFF = {"rays": [[1, 0], [0, 1], [1, 1]]}

# Duchêne–Fraenkel–Nowakowski–Rigo, slides: Wythoff's game, g(x, y) for
# x, y < 10; row 8 corrected ("1 2", not the slides' "1 1": see the papers'
# README).
SLIDES = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    [1, 2, 0, 4, 5, 3, 7, 8, 6, 10],
    [2, 0, 1, 5, 3, 4, 8, 6, 7, 11],
    [3, 4, 5, 6, 2, 0, 1, 9, 10, 12],
    [4, 5, 3, 2, 7, 6, 9, 0, 1, 8],
    [5, 3, 4, 0, 6, 8, 10, 1, 2, 7],
    [6, 7, 8, 1, 9, 10, 3, 4, 5, 13],
    [7, 8, 6, 9, 0, 1, 4, 5, 3, 14],
    [8, 6, 7, 10, 1, 2, 5, 3, 4, 15],
    [9, 10, 11, 12, 8, 7, 13, 14, 15, 16],
]


def seed(wid):
    return read_seed(seed_dir() / f"{wid}.json")["definition"]


def generated(rng, top=4):
    """A game of random rays (vertical and horizontal ones too), single
    moves and sometimes Ho's restriction."""
    vectors = [(a, b) for a in range(top + 1) for b in range(top + 1)][1:]
    return {
        "rays": rng.sample(vectors, rng.randint(0, 4)),
        "moves": rng.sample(vectors, rng.randint(0, 3)),
        "special": ["ho-restriction"] if rng.random() < 0.3 else [],
    }


def test_the_slides_table():
    assert grundy(WYTHOFF, 10).tolist() == SLIDES


@pytest.mark.parametrize("seed_", range(6))
def test_generated_games_match_the_literal_mex(seed_):
    """Every ray kept as line bitsets, every ray walked, and a mix of both
    (a memory bound that keeps only the cheapest rays) give the same table
    as the literal mex over the options."""
    rng = random.Random(seed_)
    for _ in range(25):
        definition = generated(rng)
        n = rng.randint(1, 22)
        expected = reference.grundy(definition, n)
        game = canonicalize(definition)
        some = plan(game, n).words * 8 * (2 * n + 1)
        for line_bytes in (2**29, 0, some):
            got = grundy(definition, n, line_bytes=line_bytes)
            assert np.array_equal(got, expected), (definition, n, line_bytes)


def test_the_memory_bound_chooses_the_walked_rays():
    game = canonicalize({"rays": [[1, 0], [0, 1], [1, 1], [7, 5]]})
    assert plan(game, 100).walked == ()
    words = plan(game, 100).words * 8
    # Room for the column, the rows and the diagonals, not for (7, 5).
    tight = plan(game, 100, line_bytes=words * (1 + 100 + 199))
    assert tight.lines == ((0, 1), (1, 0), (1, 1)) and tight.walked == ((7, 5),)


@pytest.mark.parametrize(
    "definition",
    [
        seed("W000004"),  # Maharaja Nim
        seed("W000012"),  # Linear Nimhoff {(1,0),(0,2),(1,1)}
        seed("W000014"),
        seed("W000022"),  # Ho's restriction
        {"rays": [[1, 0], [1, 1], [2, 3], [1, 2], [0, 1]]},
        {"rays": [[2, 1], [0, 1]], "moves": [[1, 0], [3, 3]]},
    ],
)
def test_the_zeros_are_the_p_positions(definition):
    table = grundy(definition, 300)
    zeros = np.column_stack(np.nonzero(table == 0))
    assert np.array_equal(zeros, p_positions(definition, 300))


def test_two_pile_nim_is_the_xor():
    # Bouton; Sprague and Grundy: g(x, y) = x XOR y.
    x, y = np.indices((300, 300))
    assert np.array_equal(grundy(seed("W000003"), 300), x ^ y)


def test_known_facts_of_wythoffs_table():
    n = 400
    g = grundy(WYTHOFF, n).astype(np.int64)
    x, y = np.indices((n, n))
    assert np.array_equal(g, g.T)
    # A row's cells are options of one another: its values differ.
    assert all(len(set(row)) == n for row in g.tolist())
    # The known bound g(x, y) <= x + y.
    assert (g <= x + y).all()
    # Rows are additively periodic (Dress, Flammenkamp and Pink 1999;
    # Landman 2002); rows 1 and 2 with period 3 and saving 3 from the start,
    # as the slides' table begins.
    k = np.arange(n)
    assert np.array_equal(g[1], 3 * (k // 3) + np.array([1, 2, 0])[k % 3])
    assert np.array_equal(g[2], 3 * (k // 3) + np.array([2, 0, 1])[k % 3])
    # The P-positions are Wythoff's pairs.
    assert np.array_equal(np.column_stack(np.nonzero(g == 0)), p_positions(WYTHOFF, n))


def test_altered_games_and_ho_extension_are_refused():
    # Valid games the question has no answer for: Unprocessable (422).
    with pytest.raises(Unprocessable, match="not defined"):
        grundy({**WYTHOFF, "alter": {"N": [[0, 0]]}}, 5)
    with pytest.raises(Unprocessable, match="ho-extension"):
        grundy({**WYTHOFF, "special": ["ho-extension"]}, 5)
    with pytest.raises(DefinitionError, match=f"at most {MAX_GRUNDY_N}"):
        grundy(WYTHOFF, MAX_GRUNDY_N + 1)


def test_small_tables_use_int16_and_the_edges_work():
    assert grundy(WYTHOFF, 0).shape == (0, 0)
    assert grundy(WYTHOFF, 1).tolist() == [[0]]
    assert grundy(WYTHOFF, 50).dtype == np.int16
    assert grundy({"rays": [[3, 5]]}, 4).tolist() == [[0] * 4] * 4


def test_json_rows_is_the_json_of_the_rows():
    table = grundy({"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[1, 2]]}, 120)
    text = "[" + json_rows(table, 0, 120) + "]"
    assert json.loads(text) == table.tolist()
    assert json.loads("[" + json_rows(table, 100, 500) + "]") == table[100:].tolist()
    assert json_rows(table, 5, 5) == ""
