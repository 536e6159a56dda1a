"""identify on Beatty data: ⋆ of the Beatty game of each small α that fits
(one rule) and a-Wythoff where α is its α, each checked here against the
subtraction engine (``catalog.p_positions``), not only the theorem the
answer cites; no ⋆ for other data; the games of one rule against the solver
and an exhaustive search."""

from __future__ import annotations

import time

import numpy as np
import pytest

import catalog
from catalog.compute import smallest
from catalog.compute.beatty import BeattyPairs
from catalog.compute.beattyfit import awythoff_of, beatty_interval
from catalog.compute.identify import (
    BEATTY_PAIRS,
    Window,
    identify,
    maximal,
    rules_of_one,
)
from catalog.games.definition import canonicalize
from catalog.games.quadratic import parse
from catalog.kinds import size
from tests.compute.test_identify import gives, least

#: α of the tests: three a-Wythoff slopes (φ: a = 1, √2: a = 2, α_3) and
#: three others.
ALPHAS = [
    "sqrt(2)",
    "(1+sqrt(5))/2",
    "sqrt(3)",
    "(1+sqrt(3))/2",
    "(-1+sqrt(13))/2",
    "(3+sqrt(5))/4",
]
NIM = [[1, 0], [0, 1]]
MAHARAJA = {"rays": [*NIM, [1, 1]], "moves": [[1, 2], [2, 1]]}
WYTHOFF = {"rays": [*NIM, [1, 1]]}


def data_of(definition: dict, n: int, symmetric: bool = True) -> Window:
    return Window.of(catalog.p_positions(definition, n).tolist(), n, symmetric)


def engine_gives(definition: dict, window: Window) -> bool:
    """The engine's P-positions below n are exactly the data."""
    found = catalog.p_positions(definition, window.n)
    return np.array_equal(found, window.cells)


def star(alpha: str) -> dict:
    """⋆ of the Beatty game of α, as identify writes it."""
    return {"rays": [], "moves": [], "special": [], "star": {"beatty": alpha}}


@pytest.mark.parametrize("alpha", ALPHAS)
@pytest.mark.parametrize("n", [60, 120])
def test_beatty_data_propose_star_of_the_beatty_game(alpha, n):
    """The data are ⋆ of the Beatty game of α computed by the engine; they
    are α's Beatty pairs (LHF), and identify proposes that game first, one
    rule, exact, with a-Wythoff right after it where α is α_a."""
    number = parse(alpha)
    window = data_of(star(alpha), n)
    assert np.array_equal(window.cells, BeattyPairs(number).p_positions(n))
    answer = identify(window, limit=6)
    assert answer.invariant and answer.exact and answer.bound is None
    first = answer.games[0]
    assert (first.definition, first.size) == (star(str(number)), 1)
    a = awythoff_of(number)
    cones = [g for g in answer.games if g.written is None]
    if a is None:
        assert cones == []
    else:
        awythoff = {"rays": NIM, "cones": [{"lo": [1, 1 - a], "hi": [1, a - 1]}]}
        assert canonicalize(answer.games[1].definition) == canonicalize(awythoff)
        assert answer.games[1].size == 2 and cones == [answer.games[1]]
    for game in answer.games:
        definition = game.definition
        assert engine_gives(definition, window), definition
        assert game.size == size(canonicalize(definition), window.symmetric)
        assert game.size == (2 if game.cones or game.rays else 1)
    assert not answer.altered
    (note,) = [note for note in answer.notes if "Beatty pairs" in note]
    assert str(beatty_interval(window.grid)) in note and "d ≤ 30" in note


@pytest.mark.parametrize("alpha", ALPHAS)
def test_every_alpha_proposed_lies_in_the_interval_and_gives_the_data(alpha):
    """Up to 20 proposals: every ⋆ game is of an α in the interval of fit,
    no α twice, a-Wythoff's α first, and the engine agrees with each."""
    window = data_of(star(alpha), 60)
    fit = beatty_interval(window.grid)
    answer = identify(window, limit=20)
    stars = [g.definition["star"]["beatty"] for g in answer.games if g.written]
    assert len(stars) == len(set(stars)) and stars[0] == str(parse(alpha))
    for text in stars:
        assert parse(text) in fit
        assert engine_gives(star(text), window), text
    assert len(answer.games) <= 20


def test_an_alpha_past_the_bounds_is_answered_by_small_ones_that_agree():
    """√31/4 (d = 31 > 30) is not among the quadratic irrationals searched;
    below 120 smaller ones have the same Beatty pairs, and those are
    proposed, each giving the data by the engine."""
    window = data_of(star("sqrt(31)/4"), 120)
    answer = identify(window, limit=4)
    assert answer.exact and [g.size for g in answer.games] == [1, 1, 1, 1]
    for game in answer.games:
        assert game.definition != star("sqrt(31)/4")
        assert engine_gives(game.definition, window), game.definition


def test_the_limit_cuts_the_proposals():
    window = data_of(star("sqrt(2)"), 60)
    for limit in (1, 2, 3):
        answer = identify(window, limit=limit)
        assert len(answer.games) == limit and answer.exact
        assert answer.games[0].definition == star("sqrt(2)")


def test_five_wythoffs_data_propose_its_star_and_five_wythoff():
    """α_5 = (−3 + √29)/2: 5-Wythoff's data below 60 (9 pairs) are answered
    by ⋆ of the Beatty game of α_5 and 5-Wythoff; below 40 (6 pairs) by
    the literature's 5-Wythoff alone."""
    alpha = "(-3+sqrt(29))/2"
    five = {"rays": NIM, "cones": [{"lo": [1, -4], "hi": [1, 4]}]}
    window = data_of(five, 60)
    answer = identify(window, limit=3)
    assert answer.games[0].definition == star(alpha)
    assert canonicalize(answer.games[1].definition) == canonicalize(five)
    for game in answer.games:
        assert engine_gives(game.definition, window)
    small = identify(data_of(five, 40), limit=3)
    assert [canonicalize(g.definition) for g in small.games] == [canonicalize(five)]


@pytest.mark.parametrize("symmetric", [True, False])
def test_the_data_need_not_be_given_both_ways(symmetric):
    """Beatty data are symmetric: --symmetric or not, the same answer."""
    cells = BeattyPairs(parse("sqrt(2)")).p_positions(60)
    if symmetric:
        cells = cells[cells[:, 0] <= cells[:, 1]]
    answer = identify(Window.of(cells.tolist(), 60, symmetric))
    assert answer.games[0].definition == star("sqrt(2)")


def removed(window: Window, *cells: tuple[int, int]) -> Window:
    grid = window.grid.copy()
    for cell in cells:
        grid[cell] = False
    return Window(window.n, grid)


@pytest.mark.parametrize(
    "case", ["maharaja", "pair removed", "cell removed", "row added", "nim"]
)
def test_other_data_propose_no_star(case):
    """Maharaja Nim's P-positions, Wythoff's with a pair or one cell taken
    out or a row added, Nim's: no Beatty note, no ⋆ game."""
    wythoff = data_of(WYTHOFF, 60)
    assert wythoff.grid[12, 20] and wythoff.grid[5, 3]
    window = {
        "maharaja": lambda: data_of(MAHARAJA, 60),
        "pair removed": lambda: removed(wythoff, (3, 5), (5, 3)),
        "cell removed": lambda: removed(wythoff, (12, 20)),
        "row added": lambda: Window(60, wythoff.grid | (np.arange(60) == 7)[:, None]),
        "nim": lambda: data_of({"rays": NIM}, 60),
    }[case]()
    answer = identify(window, limit=5, seconds=30)
    assert not [g for g in answer.games + answer.altered if g.written is not None]
    assert not [note for note in answer.notes if "Beatty" in note]


def test_few_pairs_are_named_but_propose_nothing():
    """Wythoff's data below 10: 3 pairs, an interval too wide to propose an
    α from; the note says so, the rule sets are the answer."""
    window = data_of(WYTHOFF, 10)
    assert beatty_interval(window.grid).pairs == 3 < BEATTY_PAIRS
    answer = identify(window)
    assert answer.games[0].definition["rays"] == [[0, 1], [1, 0], [1, 1]]
    assert not [g for g in answer.games if g.written is not None]
    (note,) = answer.notes
    assert "3 pairs, fewer than 8" in note and "(8/5, 5/3)" in note


def test_beatty_data_need_no_solver(monkeypatch):
    """The answer is proven without CP-SAT: the search is never built."""

    class NoSearch:
        def __init__(self, *args, **kwargs):
            raise AssertionError("the solver was asked")

    monkeypatch.setattr(smallest, "Search", NoSearch)
    answer = identify(data_of(star("(1+sqrt(3))/2"), 60), seconds=60)
    assert answer.exact and answer.games[0].size == 1


# -- games of at most one rule, without the solver ---------------------------


def one_rule_windows():
    """Small windows: the P-positions of random games of one or two rules,
    the whole window, and random cells, plain and symmetric."""
    rng = np.random.default_rng(41)
    for _ in range(40):
        n = int(rng.integers(2, 9))
        steps = [(a, b) for a in range(n) for b in range(n) if a or b]
        picks = rng.choice(len(steps), size=int(rng.integers(1, 3)), replace=False)
        kinds = rng.integers(0, 2, len(picks))
        definition = {
            "rays": [list(steps[i]) for i, k in zip(picks, kinds, strict=True) if k],
            "moves": [
                list(steps[i]) for i, k in zip(picks, kinds, strict=True) if not k
            ],
        }
        yield data_of(definition, n, symmetric=bool(rng.integers(0, 2)))
    yield Window(4, np.ones((4, 4), dtype=bool))  # no rule at all
    for _ in range(19):
        n = int(rng.integers(2, 7))
        grid = rng.random((n, n)) < 0.3
        grid[0, 0] = True
        yield Window(n, grid)


@pytest.mark.parametrize("index", range(60))
def test_games_of_one_rule_are_the_solvers_and_the_exhaustive_ones(index):
    window = list(one_rule_windows())[index]
    found = maximal(window)
    few = rules_of_one(window, found)
    for game in few:
        assert gives(game.definition, window), game.definition
    best = least(window, False, 1)
    assert (few[0].size if few else None) == best
    if not found.absorbing:
        assert few == []
        return
    deadline = time.monotonic() + 60
    solved = smallest.Search(window, found, False, deadline).smallest(
        20, deadline, below=2
    )
    assert solved.exact
    assert {repr(g.definition) for g in few} == {
        repr(g.definition) for g in solved.games
    }
