"""Random games with Beatty moves and ⋆s, mixed with every other kind the
subtraction engine takes (rays, single moves, cones, alterations) and with
⋆s of games of any kind (blocking, Euclid's, Ho's, altered, iterated):
``catalog.p_positions`` against the reference (``catalog.compute.
reference``) and against the contract read literally (``tests.kinds.
literal``, Beatty pairs from :mod:`tests.kinds.beattyref`); Grundy values
against the reference's mex."""

from __future__ import annotations

import random

import numpy as np
import pytest

import catalog
from catalog.compute import grundy, reference
from catalog.errors import Unprocessable
from catalog.games.definition import DefinitionError, canonicalize
from tests.kinds import beattyref, literal
from tests.kinds.test_cones import _random_cone

ALPHAS = list(beattyref.ALPHAS)
RAYS = ([1, 0], [0, 1], [1, 1], [1, 2], [2, 1], [0, 2])


def _moves(rng: random.Random, most: int) -> list[list[int]]:
    out = []
    for _ in range(rng.randint(0, most)):
        a, b = rng.randint(0, 4), rng.randint(0, 4)
        if a or b:
            out.append([a, b])
    return out


def _cone(rng: random.Random) -> dict:
    while True:
        cone = _random_cone(rng)
        try:
            canonicalize({"cones": [cone]})
        except DefinitionError:
            continue
        return cone


def _alter(rng: random.Random) -> dict:
    """Forced cells, misère's [[0, 0]] N among them."""
    cells = [[rng.randint(0, 6), rng.randint(0, 6)] for _ in range(rng.randint(1, 3))]
    forced_n = [c for c in cells if rng.random() < 0.5]
    forced_p = [c for c in cells if c not in forced_n]
    if rng.random() < 0.4 and [0, 0] not in forced_p:
        forced_n.append([0, 0])
    return {"P": forced_p, "N": forced_n}


def inner_game(rng: random.Random, levels: int) -> dict:
    """A game of any kind, for a ⋆ to read its P-positions off."""
    d: dict = {"rays": [r for r in RAYS if rng.random() < 0.35]}
    d["moves"] = _moves(rng, 2)
    if rng.random() < 0.25:
        d["cones"] = [_cone(rng)]
    kind = rng.random()
    if kind < 0.15:
        d["block"] = rng.randint(1, 2)
    elif kind < 0.25:
        d["special"] = ["euclid"]
    elif kind < 0.35:
        d["special"] = ["ho-restriction"]
        d["rays"] = [[1, 0], [0, 1], [1, 1]]
    elif kind < 0.55:
        d["beatty"] = rng.choice(ALPHAS)
        d.pop("cones", None) if rng.random() < 0.5 else None
    elif kind < 0.7 and levels:
        d = {"star": inner_game(rng, levels - 1), "moves": d["moves"]}
    if rng.random() < 0.2:
        d["alter"] = _alter(rng)
    return d


def random_game(rng: random.Random, altered: bool = True) -> dict:
    """A game the subtraction engine computes: Beatty moves or a ⋆ (or
    both) with rays, single moves, cones and forced cells."""
    d: dict = {}
    shape = rng.random()
    if shape < 0.7:
        d["star"] = inner_game(rng, 1)
    if shape > 0.4:
        d["beatty"] = rng.choice(ALPHAS)
    d["rays"] = [r for r in RAYS if rng.random() < 0.2]
    d["moves"] = _moves(rng, 3)
    if rng.random() < 0.25:
        d["cones"] = [_cone(rng)]
    if altered and rng.random() < 0.35:
        d["alter"] = _alter(rng)
    return d


def _valid(d: dict) -> bool:
    try:
        canonicalize(d)
    except DefinitionError as exc:
        assert "cannot be combined yet" in str(exc), (d, exc)
        return False
    return True


@pytest.mark.long
@pytest.mark.parametrize("seed", range(24))
def test_random_games_against_the_reference_and_the_contract(seed):
    rng = random.Random(4100 + seed)
    checked = 0
    while checked < 3:
        d = random_game(rng)
        if not _valid(d):
            continue
        assert "subtraction" == _engine(d), d
        n = rng.randint(1, 40) if checked else rng.randint(25, 40)
        found = catalog.p_positions(d, n)
        assert np.array_equal(found, reference.p_positions(d, n)), (d, n)
        assert np.array_equal(found, literal.p_positions(d, n)), (d, n)
        checked += 1


def _engine(d: dict) -> str:
    from catalog.compute.modes import engine

    return engine(canonicalize(d))


def test_the_generator_reaches_every_kind():
    """The random games above hold every kind, inside a ⋆ and outside."""
    rng = random.Random(4100)
    outside: set[str] = set()
    inside: set[str] = set()
    for _ in range(400):
        d = random_game(rng)
        if _valid(d):
            game = canonicalize(d)
            outside |= game.kinds
            if game.star is not None:
                inside |= game.star.kinds
    assert outside >= {"rays", "moves", "cones", "beatty", "star", "alter"}
    assert inside >= outside | {"block", "euclid", "ho-restriction"}


@pytest.mark.parametrize("seed", range(8))
def test_grundy_values_of_random_games_against_the_reference(seed):
    rng = random.Random(4200 + seed)
    checked = 0
    while checked < 2:
        d = random_game(rng, altered=False)
        if not _valid(d):
            continue
        n = rng.randint(12, 26)
        found = grundy.grundy(d, n)
        assert np.array_equal(found, reference.grundy(d, n)), (d, n)
        zeros = np.argwhere(found == 0)
        assert np.array_equal(zeros, catalog.p_positions(d, n)), d
        checked += 1


@pytest.mark.parametrize(
    "game",
    [
        {"beatty": "sqrt(2)"},
        {"star": {"beatty": "(1+sqrt(5))/2"}},
        {"star": {"rays": [[1, 0], [0, 1], [1, 1]], "block": 1}},
        {"star": {"star": {"rays": [[1, 0], [0, 1]]}}},
    ],
)
def test_grundy_of_the_named_games(game):
    n = 40
    assert np.array_equal(grundy.grundy(game, n), reference.grundy(game, n))


def test_grundy_values_of_an_altered_beatty_game_are_refused():
    with pytest.raises(Unprocessable, match="alter"):
        grundy.grundy({"beatty": "sqrt(2)", "alter": {"N": [[0, 0]]}}, 5)
