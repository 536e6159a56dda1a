"""What ``catalog.compute.invariants`` gathers per definition."""

from __future__ import annotations

import functools
import random

import numpy as np
import pytest

from catalog import p_positions
from catalog.compute import dictionary, invariants
from tests.papers import MAHARAJA_WORDS

RAYS = [[1, 0], [0, 1], [1, 1]]


@functools.cache
def wythoff() -> np.ndarray:
    """Computed on first use, not while pytest collects (tests/kernels.py)."""
    return p_positions({"rays": RAYS}, 400)


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
def test_adjoined_moves_say_whether_the_p_positions_are_wythoffs(moves, monkeypatch):
    """The slides' Corollary, against recomputing the game (also for moves
    added in one direction only). The Maharaja items, tested below, are left
    out: a sweep to 100,000 and two dictionaries for each mirrored move set
    took 95% of this test's time."""
    monkeypatch.setattr(invariants.dictionary, "is_maharaja_type", lambda game: False)
    found = invariants.compute({"rays": RAYS, "moves": moves})["adjoined_moves"]
    same = np.array_equal(p_positions({"rays": RAYS, "moves": moves}, 400), wythoff())
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
        "far_out",
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


def maharaja_type(k: int, m: int) -> dict:
    return invariants.compute({"rays": RAYS, "moves": [[k, m], [m, k]]})


def complete_columns(k: int, m: int) -> int:
    n = dictionary.DEFAULT_N
    table = p_positions({"rays": RAYS, "moves": [[k, m], [m, k]]}, n)
    return len(dictionary.column_values(table, n))


def test_far_out_is_a_theorem_for_maharaja_nim():
    """The paper's dictionary (27)-(40) from column 8, and the process it
    drives rebuilds every complete column of the table."""
    found = maharaja_type(1, 2)
    item = found["far_out"]
    assert item["status"] == "theorem" and "(27)–(40)" in item["source"]
    assert item["value"] == {"start": 8, "words": 14}
    assert item["checked_to"] == complete_columns(1, 2) > 60_000


@pytest.mark.parametrize(("k", "m", "words"), [(2, 3, 10), (1, 3, 2), (1, 7, 3)])
def test_far_out_is_observed_where_the_words_close_a_dictionary(k, m, words):
    found = maharaja_type(k, m)
    item = found["far_out"]  # from the words of the sector rule
    book = found.get("dictionary_sector", found["dictionary"])
    assert item["status"] == "observed"
    assert item["checked_to"] == complete_columns(k, m) > 60_000
    assert item["value"] == {"start": book["start"], "words": words}
    assert len(book["value"]) == words


@pytest.mark.parametrize(("k", "m"), [(3, 5), (4, 6), (4, 7)])
def test_no_far_out_where_the_words_close_no_dictionary(k, m):
    found = maharaja_type(k, m)
    assert "dictionary" in found and "far_out" not in found


def test_a_maharaja_type_games_items_are_computed_once_a_process(monkeypatch):
    """The same game again (however its definition is written) reuses the
    items computed first; each caller gets its own copy."""
    invariants._maharaja_items.cache_clear()
    readings = []
    real = dictionary.read_dictionary

    def counted(*args, **kwargs):
        readings.append(kwargs.get("rule"))
        return real(*args, **kwargs)

    monkeypatch.setattr(dictionary, "read_dictionary", counted)
    first = invariants.compute({"rays": RAYS, "moves": [[2, 3], [3, 2]]})
    again = invariants.compute({"moves": [[3, 2], [2, 3]], "rays": RAYS[::-1]})
    assert first == again and readings == ["sector", "relaxed"]
    words = dict(again["dictionary"]["value"])
    assert words
    first["dictionary"]["value"].clear()
    third = invariants.compute({"rays": RAYS, "moves": [[2, 3], [3, 2]]})
    assert third["dictionary"]["value"] == words
    assert readings == ["sector", "relaxed"]
    other = invariants.compute({"rays": RAYS, "moves": [[2, 7], [7, 2]]})
    assert readings == ["sector", "relaxed"] * 2 and other != first
