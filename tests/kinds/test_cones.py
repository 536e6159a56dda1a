"""Cones: validation, the canonical form, and the options they give."""

from __future__ import annotations

import random

import numpy as np
import pytest

from catalog.compute import reference
from catalog.games.definition import DefinitionError, canonicalize
from catalog.kinds.cones import MAX_MOD, MAX_OFFSET, MAX_SLOPE, Cone
from tests.kinds import literal

NIM = [[1, 0], [0, 1]]


def awythoff(a: int) -> dict:
    return {"rays": NIM, "cones": [{"lo": [1, 1 - a], "hi": [1, a - 1]}]}


@pytest.mark.parametrize(
    ("cones", "message"),
    [
        ({"lo": [1, 0]}, "cones: must be a list of cones"),
        ([[1, 0]], "cones[0]: must be an object"),
        ([{"hi": [1, 0]}], "cones[0].lo: missing"),
        ([{"lo": [1]}], "cones[0].lo: must be a pair"),
        ([{"lo": [1, 0.5]}], "cones[0].lo: s and t must be integers"),
        ([{"lo": [-1, 0]}], "cones[0].lo: the slope must be between 0 and"),
        ([{"lo": [MAX_SLOPE + 1, 0]}], "cones[0].lo: the slope"),
        ([{"lo": [1, MAX_OFFSET + 1]}], "cones[0].lo: the offset"),
        ([{"lo": [2, 0], "hi": [1, 5]}], "cones[0].hi: slope 1 is below"),
        ([{"lo": [1, 0], "mod": 0}], "cones[0].mod: must be between 1 and"),
        ([{"lo": [1, 0], "mod": MAX_MOD + 1}], "cones[0].mod"),
        ([{"lo": [1, 0], "mod": True}], "cones[0].mod: must be an integer"),
        ([{"lo": [1, 0], "symmetric": 1}], "cones[0].symmetric: must be true"),
        ([{"lo": [1, 0], "width": 2}], "cones[0]: unknown field 'width'"),
        ([{"lo": [1, 3], "hi": [1, 2]}], "cones[0]: the cone holds no move"),
        ([{"lo": [0, 0], "hi": [0, 0]}], "cones[0]: the cone holds no move"),
        ([{"lo": [1, 1], "hi": [1, 1], "mod": 2}], "the cone holds no move"),
        ([{"lo": [1, 0]}] * 9, "cones: more than 8 entries"),
    ],
)
def test_bad_cones_are_refused_naming_the_field(cones, message):
    with pytest.raises(DefinitionError) as err:
        canonicalize({"rays": NIM, "cones": cones})
    assert message in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    ("block", "message"),
    [
        (-1, "block: must be between 0 and 64"),
        (65, "block: must be between"),
        ("2", "block: must be an integer"),
        (True, "block: must be an integer"),
    ],
)
def test_bad_blocks_are_refused(block, message):
    with pytest.raises(DefinitionError, match=message):
        canonicalize({"rays": NIM, "block": block})


def test_euclid_is_a_special_rule_and_others_are_not():
    assert canonicalize({"special": ["euclid"]}).kinds == {"euclid"}
    with pytest.raises(DefinitionError, match="unknown rule 'gcd'.*euclid"):
        canonicalize({"special": ["gcd"]})


def test_rules_that_no_engine_computes_together_are_refused():
    with pytest.raises(DefinitionError, match="cannot be combined yet"):
        canonicalize({"rays": NIM, "special": ["ho-extension"], "block": 1})


@pytest.mark.parametrize(
    ("one", "other"),
    [
        # The diagonal ray inside a-Wythoff's cone adds nothing.
        (awythoff(3), {**awythoff(3), "rays": [*NIM, [1, 1], [2, 2]]}),
        # A cone that is a ray's moves exactly is that ray.
        (
            {"rays": [*NIM, [1, 1]]},
            {"rays": NIM, "cones": [{"lo": [1, 0], "hi": [1, 0]}]},
        ),
        (
            {"rays": [*NIM, [2, 6], [6, 2]]},
            {
                "rays": NIM,
                "cones": [{"lo": [3, 0], "hi": [3, 0], "mod": 4, "symmetric": True}],
            },
        ),
        # A cone and its mirror written apart are one symmetric cone.
        (
            {"rays": NIM, "cones": [{"lo": [1, 0], "hi": [1, 3], "symmetric": True}]},
            {
                "rays": NIM,
                "cones": [{"lo": [1, -3], "hi": [1, 0]}, {"lo": [1, 0], "hi": [1, 3]}],
            },
        ),
        (
            {"rays": NIM, "cones": [{"lo": [1, 0], "hi": [1, 3], "symmetric": True}]},
            {"rays": NIM, "cones": [{"lo": [1, -3], "hi": [1, 0], "symmetric": True}]},
        ),
        (
            {"rays": NIM, "cones": [{"lo": [1, 2], "symmetric": True}]},
            {"rays": NIM, "cones": [{"lo": [1, 2]}, {"lo": [0, 1], "hi": [1, -2]}]},
        ),
        # A cone that is its own mirror needs no "symmetric".
        (
            awythoff(4),
            {"rays": NIM, "cones": [{"lo": [1, -3], "hi": [1, 3], "symmetric": True}]},
        ),
        (
            {"rays": NIM, "cones": [{"lo": [0, 1], "mod": 3}]},
            {"rays": NIM, "cones": [{"lo": [0, -7], "mod": 3, "symmetric": True}]},
        ),
        # Single moves inside a cone, a cone written twice, mod 1.
        (awythoff(2), {**awythoff(2), "moves": [[3, 4], [4, 3], [5, 5]]}),
        (
            awythoff(2),
            {"rays": NIM, "cones": [{"lo": [1, -1], "hi": [1, 1], "mod": 1}] * 2},
        ),
        # (1,t)-Wythoff is t-Wythoff: a band and its mirror band meet.
        (
            awythoff(3),
            {"rays": NIM, "cones": [{"lo": [1, 0], "hi": [1, 2], "symmetric": True}]},
        ),
        (
            {"rays": [*NIM, [1, 1]]},
            {"rays": NIM, "cones": [{"lo": [1, 0], "hi": [1, 0], "symmetric": True}]},
        ),
        (
            {"rays": NIM, "cones": [{"lo": [0, 1]}]},
            {"rays": NIM, "cones": [{"lo": [1, -2], "symmetric": True}]},
        ),
        # block 0 is no blocking.
        ({"rays": NIM}, {"rays": NIM, "block": 0}),
    ],
)
def test_two_spellings_of_one_game_are_one_definition(one, other):
    assert canonicalize(one).key == canonicalize(other).key
    n = 24
    assert np.array_equal(literal.p_positions(one, n), literal.p_positions(other, n))


def test_the_first_games_keep_their_keys():
    """A definition without the new kinds is written as before they came."""
    game = canonicalize({"rays": [*NIM, [1, 1]], "moves": [[1, 2]], "block": 0})
    assert set(game.to_json()) == {"rays", "moves", "special", "alter"}
    game = canonicalize(awythoff(2) | {"block": 1})
    assert game.to_json()["cones"] == [
        {"lo": [1, -1], "hi": [1, 1], "mod": None, "symmetric": False}
    ]
    assert game.to_json()["block"] == 1


def _random_cone(rng: random.Random) -> dict:
    s1 = rng.randint(0, 3)
    cone: dict = {"lo": [s1, rng.randint(-4, 4)]}
    if rng.random() < 0.7:
        cone["hi"] = [s1 + rng.randint(0, 2), rng.randint(-2, 6)]
    if rng.random() < 0.4:
        cone["mod"] = rng.randint(1, 4)
    if rng.random() < 0.5:
        cone["symmetric"] = True
    return cone


def _random_definition(rng: random.Random) -> dict:
    d: dict = {"rays": [], "cones": []}
    for ray in ([1, 0], [0, 1], [1, 1], [1, 2], [2, 1]):
        if rng.random() < (0.8 if 0 in ray else 0.3):
            d["rays"].append(ray)
    while not d["cones"] or rng.random() < 0.3:
        try:
            canonicalize({"cones": [c := _random_cone(rng)]})
        except DefinitionError:
            continue
        d["cones"].append(c)
    if rng.random() < 0.3:
        d["moves"] = [[rng.randint(0, 3), rng.randint(1, 3)]]
    if rng.random() < 0.3:
        d["block"] = rng.randint(1, 2)
    if rng.random() < 0.2:
        d["special"] = ["euclid"]
    if rng.random() < 0.2:
        d["alter"] = {"P": [[rng.randint(0, 5), rng.randint(0, 5)]]}
    return d


def test_the_canonical_form_and_the_reference_keep_every_game():
    """The reference on the canonical form against the contract read
    literally on the definition as written, on random definitions."""
    rng = random.Random(40)
    for _ in range(60):
        d = _random_definition(rng)
        try:
            game = canonicalize(d)
        except DefinitionError as exc:
            assert "cannot be combined" in str(exc) or "holds no move" in str(exc)
            continue
        expected = literal.p_positions(d, 14)
        assert np.array_equal(reference.p_positions(game, 14), expected), d


def test_a_cone_lists_exactly_its_moves():
    rng = random.Random(41)
    for _ in range(200):
        raw = _random_cone(rng)
        try:
            (cone,) = canonicalize({"cones": [raw]}).cones
        except (DefinitionError, ValueError):
            continue
        x, y = rng.randint(0, 12), rng.randint(0, 12)
        listed = set(cone.moves_from(x, y))
        plain = Cone(cone.lo, cone.hi, cone.mod)
        assert listed == {
            (x - k, y - ell)
            for k in range(1, x + 1)
            for ell in range(1, y + 1)
            if plain.holds(k, ell)
        }
