"""The winning move of a game of invariant moves (Beatty moves, a ⋆): read
off the engine's move bitset, checked against the literal options."""

from __future__ import annotations

import pytest

import catalog
from catalog.compute import reference
from catalog.compute.kindsweeps import winning_move
from catalog.games.definition import canonicalize

GAMES = [
    {"star": {"rays": [[1, 0], [0, 1], [1, 1]]}},
    {"star": {"beatty": "sqrt(3)"}, "alter": {"N": [[0, 0]]}},
    {"beatty": "sqrt(2)", "cones": [{"lo": [2, 0], "hi": None}]},
    {"beatty": "(1+sqrt(5))/2", "moves": [[0, 2]], "alter": {"P": [[3, 3]]}},
    {"star": {"star": {"rays": [[1, 0], [0, 1]], "moves": [[1, 2]]}}},
]


@pytest.mark.parametrize("definition", GAMES)
def test_every_n_position_gets_a_move_to_a_p_position(definition):
    """Below 36: a move exactly when some literal option is P (an altered
    game's forced N cell may have none), and the move is one of them."""
    game = canonicalize(definition)
    n = 36
    found = catalog.p_positions(game, n)
    p = set(map(tuple, found.tolist()))
    moves = 0
    for x in range(n):
        for y in range(n):
            if (x, y) in p:
                continue
            to = winning_move(game, found, x, y)
            winning = set(reference.options(game, x, y)) & p
            assert (to is None) == (not winning), (x, y)
            if to is not None:
                assert to in winning
                moves += 1
    assert moves > n * n // 2
