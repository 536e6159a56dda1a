"""``is-p`` of a ⋆ game, end to end on both databases: inside the table the
move is read off the engine's move set (a ⋆'s options would need its game
labelled cell by cell); far out LHF's theorem answers."""

from __future__ import annotations

import pytest

from catalog import p_positions
from catalog.compute import reference
from catalog.games.definition import canonicalize
from tests.cli.conftest import command

WYTHOFF_STAR = {"star": {"rays": [[1, 0], [0, 1], [1, 1]]}}


@pytest.fixture
def seeded(runner, seeded_url):
    return command(runner, seeded_url)


def test_a_star_of_an_id_is_stored_written_out_and_answers_is_p(seeded):
    code, added, err = seeded("add", "--definition", '{"star": "W000001"}')
    assert code == 0, err
    code, shown, _ = seeded("show", added["id"])
    assert shown["definition"] == canonicalize(WYTHOFF_STAR).to_json()
    game = canonicalize(WYTHOFF_STAR)
    p = set(map(tuple, p_positions(game, 40).tolist()))
    for x, y in [(20, 7), (39, 2), (5, 30)]:
        code, answer, err = seeded("is-p", added["id"], str(x), str(y))
        assert code == 0, err
        assert answer["outcome"] == ("P" if (x, y) in p else "N")
        if answer["outcome"] == "N":
            to = tuple(answer["move_to"])
            assert to in p and to in set(reference.options(game, x, y))


def test_beatty_star_far_out_is_the_theorem(seeded):
    code, added, err = seeded("add", "--definition", '{"star": {"beatty": "sqrt(2)"}}')
    assert code == 0, err
    big = 10**300 - 3
    # (⌊kα⌋, ⌊kβ⌋) for k = 10^299: a P-position; one more stone on pile 2: N.
    from math import isqrt

    k = 10**299
    a = isqrt(2 * k * k)
    b = a + 2 * k  # β = 2 + √2
    for x, y, outcome in [(a, b, "P"), (a, b + 1, "N"), (b, a, "P"), (big, 5, "N")]:
        code, answer, err = seeded("is-p", added["id"], str(x), str(y))
        assert code == 0, err
        assert answer["outcome"] == outcome, (x, y)
    code, answer, _ = seeded("is-p", added["id"], str(a), str(b + 1))
    assert answer["move_to"] == [a, b]  # down pile 2: (0, 1) is P in G
    code, shown, _ = seeded("show", added["id"])
    far = shown["invariants"]["far_out"]
    assert far["status"] == "theorem" and "Larsson" in far["source"]
