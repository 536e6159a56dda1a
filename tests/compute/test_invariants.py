"""What ``catalog.compute.invariants`` gathers per definition."""

from __future__ import annotations

import random

import numpy as np
import pytest

from catalog import p_positions
from catalog.compute import invariants
from tests.papers import MAHARAJA_WORDS

RAYS = [[1, 0], [0, 1], [1, 1]]
WYTHOFF = p_positions({"rays": RAYS}, 400)


def random_move_sets(count: int, seed: int) -> list[list[list[int]]]:
    rng = random.Random(seed)
    sets = []
    for _ in range(count):
        moves = []
        for _ in range(rng.randrange(1, 3)):
            i = rng.randrange(1, 14)
            j = rng.choice([k for k in range(1, 14) if k != i])
            moves += [[i, j], [j, i]] if rng.random() < 0.7 else [[i, j]]
        sets.append(moves)
    return sets


@pytest.mark.parametrize("moves", random_move_sets(60, seed=4), ids=str)
def test_adjoined_moves_say_whether_the_p_positions_are_wythoffs(moves):
    """The slides' Corollary, against recomputing the game (also for moves
    added in one direction only)."""
    found = invariants.compute({"rays": RAYS, "moves": moves})["adjoined_moves"]
    same = np.array_equal(p_positions({"rays": RAYS, "moves": moves}, 400), WYTHOFF)
    assert found["value"]["same_p_positions_as_wythoff"] == same
    assert found["status"] == "theorem"


def test_what_applies_to_which_game():
    assert invariants.compute({"rays": [[1, 0], [0, 1]]}) == {}
    assert set(invariants.compute({"rays": RAYS})) == {
        "offset",
        "saturation",
        "defects",
        "overlap",
    }
    maharaja = invariants.compute({"rays": RAYS, "moves": [[1, 2], [2, 1]]})
    assert set(maharaja) == {
        "deviations",
        "dictionary",
        "dictionary_relaxed",
        "adjoined_moves",
    }
    assert maharaja["dictionary"]["value"] == MAHARAJA_WORDS
    assert maharaja["dictionary"]["paper"]["not_seen"] == [
        "(36)",
        "(37)",
        "(38)",
        "(39)",
        "(40)",
    ]
    assert maharaja["adjoined_moves"]["value"]["moves"][0]["witness"] == {
        "from": [1, 2],
        "to": [0, 0],
    }
