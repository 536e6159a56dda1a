"""The reference grids the bounds-checked pass shares with the normal run
(tests/compute/conftest.py) are the grids computed."""

from __future__ import annotations

import numpy as np

from tests.compute.conftest import SHARED_N, _compute, shared_outcome_grid

WYTHOFF = {"rays": [[1, 0], [0, 1], [1, 1]]}
ALTERED = {**WYTHOFF, "alter": {"P": [[2, 2]], "N": [[0, 0]]}}


def test_a_shared_grid_is_the_computed_one_for_its_game_and_n(tmp_path):
    shared = shared_outcome_grid(tmp_path)
    for game in (WYTHOFF, ALTERED):
        for n in (SHARED_N, SHARED_N + 7):
            first, again = shared(game, n), shared(game, n)  # computed, read
            want = _compute(game, n)
            assert np.array_equal(first, want) and np.array_equal(again, want)
    # One file a game and n, none for the grids too small to share.
    assert len(list(tmp_path.iterdir())) == 4
    shared(WYTHOFF, SHARED_N - 1)
    assert len(list(tmp_path.iterdir())) == 4
