"""Identify recognises the literature's cone games: the data of a-Wythoff,
(s,t)-Wythoff and m-modular Wythoff is answered with Nim's rays and one
cone, not with the hundreds of rays of the maximal game."""

from __future__ import annotations

import pytest

import catalog
from catalog.compute.identify import Window, identify
from catalog.compute.recognise import literature_games
from catalog.games.definition import canonicalize

NIM = [[1, 0], [0, 1]]
GAMES = {
    "2-Wythoff": {"rays": NIM, "cones": [{"lo": [1, -1], "hi": [1, 1]}]},
    "5-Wythoff": {"rays": NIM, "cones": [{"lo": [1, -4], "hi": [1, 4]}]},
    "(2,1)-Wythoff": {
        "rays": NIM,
        "cones": [{"lo": [1, 0], "hi": [2, 0], "symmetric": True}],
    },
    "(3,4)-Wythoff": {
        "rays": NIM,
        "cones": [{"lo": [1, 0], "hi": [3, 3], "symmetric": True}],
    },
    "4-modular": {"rays": NIM, "cones": [{"lo": [0, 1], "mod": 4}]},
}


def window(definition: dict, n: int) -> Window:
    return Window.of(catalog.p_positions(definition, n).tolist(), n, symmetric=True)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_family_is_recognised_from_its_data(name):
    game = canonicalize(GAMES[name])
    found = literature_games(window(GAMES[name], 60).grid)
    assert (game.rays, game.cones) in found


def test_other_data_is_no_literature_game():
    maharaja = {"rays": [*NIM, [1, 1]], "moves": [[1, 2], [2, 1]]}
    assert literature_games(window(maharaja, 60).grid) == []
    assert literature_games(window({"rays": NIM}, 60).grid) == []


def test_two_wythoffs_data_is_answered_with_one_cone():
    """The issue's case: 2-Wythoff's P-positions below 60, symmetric. They
    are Beatty pairs (of √2): ⋆ of the Beatty game of √2 comes first, one
    rule, then 2-Wythoff (tests/compute/test_identify_beatty.py)."""
    answer = identify(window(GAMES["2-Wythoff"], 60), seconds=60)
    assert answer.invariant and answer.exact
    assert len(answer.maximal.rays) > 400  # what a rays-only answer would face
    assert [g.size for g in answer.games][:2] == [1, 2]
    assert answer.games[0].definition == {
        "rays": [],
        "moves": [],
        "special": [],
        "star": {"beatty": "sqrt(2)"},
    }
    assert answer.games[1].definition == {
        "rays": [[0, 1], [1, 0]],
        "moves": [],
        "special": [],
        "cones": [{"lo": [1, -1], "hi": [1, 1], "mod": None, "symmetric": False}],
    }


def test_wythoffs_small_window_keeps_its_rays():
    """Below 6 some m-modular games have Wythoff's P-positions too (with
    m >= 6 their cone moves only along the diagonal there): a rule set of
    rays and moves as small is the answer, not those cones."""
    data = Window.of([(0, 0), (1, 2), (3, 5)], 6, symmetric=True)
    assert literature_games(data.grid)  # the m-modular games with m = 4, 5
    answer = identify(data)
    assert [g.definition for g in answer.games] == [
        {"rays": [[0, 1], [1, 0], [1, 1]], "moves": [], "special": []}
    ]


def test_beatty_data_is_named_with_its_interval_of_alpha():
    answer = identify(window(GAMES["2-Wythoff"], 60))
    (note,) = [n for n in answer.notes if "Beatty pairs" in n]
    assert "(41/29, 58/41]" in note and "sqrt(2), " in note
    assert "sqrt(2) is 2-Wythoff's α" in note
    maharaja = {"rays": [*NIM, [1, 1]], "moves": [[1, 2], [2, 1]]}
    assert not [n for n in identify(window(maharaja, 30)).notes if "Beatty" in n]
