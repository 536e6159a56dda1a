"""The engine the kinds choose, on games of every new kind, against the
contract read literally: ``catalog.p_positions`` (canonical form, engine
choice, compiled sweep) must agree with a labelling written from the
contract's words alone."""

from __future__ import annotations

import random

import numpy as np
import pytest

import catalog
from catalog.compute import grundy, modes
from catalog.compute.kindsweeps import st_parameters
from catalog.compute.theorems import awythoff_parameter
from catalog.errors import Unprocessable
from catalog.games.definition import DefinitionError, canonicalize
from tests.kinds import literal
from tests.kinds.test_cones import _random_definition

NIM = [[1, 0], [0, 1]]


def test_every_kind_takes_its_engine():
    def engine(d: dict) -> str:
        return modes.engine(canonicalize(d))

    assert engine({"rays": [*NIM, [1, 1]]}) == "kernel"
    assert engine({"rays": NIM, "cones": [{"lo": [1, -1], "hi": [1, 1]}]}) == "cones"
    assert engine({"rays": [[0, 1]], "cones": [{"lo": [1, 0]}]}) == "dense"
    assert engine({"rays": [*NIM, [1, 1]], "block": 2}) == "blocking"
    assert engine({"rays": [[1, 0], [1, 1]], "block": 2}) == "dense"
    assert engine({"rays": NIM, "cones": [{"lo": [1, 0]}], "block": 1}) == "dense"
    blocking = canonicalize({"rays": [*NIM, [1, 1]], "block": 1})
    assert modes.max_n(blocking) >= 10**6 and modes.box_limited(blocking)
    assert engine({"special": ["euclid"]}) == "dense"
    assert engine({"rays": [*NIM, [1, 1]], "special": ["ho-restriction"]}) == "general"
    assert modes.max_n(canonicalize({"special": ["euclid"]})) == modes.MAX_DENSE_N


def test_random_games_of_the_new_kinds_against_the_contract():
    rng = random.Random(4040)
    checked = 0
    while checked < 40:
        d = _random_definition(rng)
        try:
            canonicalize(d)
        except DefinitionError:
            continue
        n = rng.randint(8, 18)
        assert np.array_equal(catalog.p_positions(d, n), literal.p_positions(d, n)), d
        checked += 1


@pytest.mark.parametrize("a", [2, 3, 5])
def test_the_theorem_paths_are_taken_only_for_their_games(a):
    game = canonicalize({"rays": NIM, "cones": [{"lo": [1, 1 - a], "hi": [1, a - 1]}]})
    assert awythoff_parameter(game) == a
    st = canonicalize(
        {"rays": NIM, "cones": [{"lo": [1, 0], "hi": [a, 1], "symmetric": True}]}
    )
    assert st_parameters(st) == (a, 2)
    for other in (
        {"rays": [*NIM, [1, 2]], "cones": [{"lo": [1, 1 - a], "hi": [1, a - 1]}]},
        {"rays": NIM, "cones": [{"lo": [1, 1 - a], "hi": [1, a - 1], "mod": 2}]},
        {"rays": NIM, "cones": [{"lo": [1, 1 - a], "hi": [1, a]}]},
    ):
        assert awythoff_parameter(canonicalize(other)) is None
        assert st_parameters(canonicalize(other)) is None
        assert np.array_equal(
            catalog.p_positions(other, 30), literal.p_positions(other, 30)
        )


def test_blocking_wythoff_starts_as_larsson_says():
    """Larsson's characterisations of the P-positions for k = 2 and 3
    (EJC 18 (2011) P120, arXiv 1010.5816) could not be found: they are not
    in ../shared/papers, and the search corpus holds only the paper's
    abstract and introduction. So this checks the first positions the
    papers' README records for k = 2 (by brute force from the rule), and
    tests/compute/test_blocksweep.py checks the engine against the literal
    rule on random games and at 10^5."""
    found = catalog.p_positions({"rays": [*NIM, [1, 1]], "block": 1}, 16)
    lower = [tuple(p) for p in found.tolist() if p[0] <= p[1]]
    assert lower[:12] == [
        (0, 0), (0, 1), (1, 3), (2, 2), (2, 5), (3, 7),
        (4, 6), (4, 9), (5, 11), (6, 13), (7, 15), (8, 12),
    ]  # fmt: skip


def test_grundy_of_cones_and_euclid_and_its_refusals():
    # CGSuite's GameHeapTest: 2-Wythoff's row x = 10, y = 0..20.
    two = {"rays": NIM, "cones": [{"lo": [1, -1], "hi": [1, 1]}]}
    assert grundy.grundy(two, 21)[10].tolist() == [
        10, 11, 12, 13, 0, 14, 9, 17, 18, 19, 20, 21,
        22, 23, 24, 25, 26, 15, 28, 29, 30,
    ]  # fmt: skip
    euclid = grundy.grundy({"special": ["euclid"]}, 40)
    zeros = {(x, y) for x, y in np.argwhere(euclid == 0).tolist()}
    assert zeros == {
        tuple(p) for p in catalog.p_positions({"special": ["euclid"]}, 40).tolist()
    }
    with pytest.raises(Unprocessable, match="^block: .*not defined"):
        grundy.grundy({"rays": NIM, "block": 1}, 5)


def test_the_invariants_speak_to_fraenkels_papers():
    from catalog.compute import invariants

    two = invariants.compute({"rays": NIM, "cones": [{"lo": [1, -1], "hi": [1, 1]}]})
    assert (
        two["far_out"]["status"] == "theorem" and "Fraenkel" in two["far_out"]["source"]
    )
    assert two["cone_pairs"]["value"]["difference_linear"] is True
    assert two["cone_pairs"]["value"]["slope"] == 2
    assert two["cone_pairs"]["value"]["form"] == {"s": 1, "t": 2, "holds": True}
    st = {"rays": NIM, "cones": [{"lo": [1, 0], "hi": [2, 2], "symmetric": True}]}
    pairs = invariants.compute(st)["cone_pairs"]["value"]
    assert pairs["form"] == {"s": 2, "t": 3, "holds": True}
    assert pairs["difference_linear"] is False and pairs["first_failure"] == 5
    assert "far_out" not in invariants.compute(st)  # no Beatty form for s >= 2
    euclid = invariants.compute({"special": ["euclid"]})
    assert (
        euclid["far_out"]["status"] == "theorem"
        and "Cole" in euclid["far_out"]["source"]
    )


def test_the_dense_engine_refuses_tables_over_the_box_limit_before_computing():
    from catalog.errors import TooMuchWork

    many = {
        "rays": [[0, 1]],
        "cones": [
            {"lo": [0, 1], "hi": [0, 3], "mod": m, "symmetric": True}
            for m in range(2, 10)
        ],
    }
    with pytest.raises(TooMuchWork, match="MB, over the 1024 MB a box may take"):
        catalog.p_positions(many, modes.MAX_DENSE_N)
    assert len(catalog.p_positions(many, 40)) == len(literal.p_positions(many, 40))


def test_a_cone_games_grundy_table_is_estimated_at_its_enumerated_cost():
    """dense_grundy enumerates a cone's options: O(n^4). The estimate must
    grow so, or a request would pass its budget (2 s) and run for hours."""
    from catalog.compute.cost import grundy_seconds

    two = canonicalize({"rays": NIM, "cones": [{"lo": [1, -1], "hi": [1, 1]}]})
    wythoff = canonicalize({"rays": [*NIM, [1, 1]]})
    assert grundy_seconds(two, 1000) > 100 * grundy_seconds(wythoff, 1000)
    assert grundy_seconds(two, 1000) > 16 * 0.9 * grundy_seconds(two, 500)
