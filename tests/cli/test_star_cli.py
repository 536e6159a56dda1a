"""``beatty`` and ``star`` through the command line: names resolved by the
catalog (IDs, labels), bad input refused in one line with nothing written,
one entry for one game however written, and ⋆ of the Beatty game of √2
answered at 10^300 by the theorem that ``show`` names.

(No HTTP route takes a definition: the API is read-only, so these errors
have no 4xx to check there; ``tests/api`` reads such entries like others.)"""

from __future__ import annotations

import json

import pytest

import catalog
from tests.cli.conftest import command
from tests.kinds import beattyref

NIM = [[1, 0], [0, 1]]
WYTHOFF = [*NIM, [1, 1]]
MAHARAJA = {"rays": WYTHOFF, "moves": [[1, 2], [2, 1]]}


@pytest.fixture
def wythoff(runner, seeded_url):
    return command(runner, seeded_url)


def entries(wythoff) -> list[str]:
    code, doc, _ = wythoff("list", "--limit", "1000")
    assert code == 0
    return [e["id"] for e in doc["entries"]]


@pytest.mark.parametrize(
    ("star", "says"),
    [
        ("W999999", "star: no entry W999999"),
        ("W0000001", "star: not an entry ID or label: 'W0000001'"),
        ("nosuch.1.2", "star: unknown family 'nosuch'"),
        ("maharaja.99.2", "star: k: 99 is out of range"),
        ({"star": "W999999"}, "star.star: no entry W999999"),
        ({"beatty": "3/2"}, "star.beatty: '3/2': not irrational"),
        ({"rays": [[1, 0]], "dots": 1}, "star: unknown field 'dots'"),
        (7, "star: must be an entry ID, a label or a definition"),
    ],
)
def test_a_bad_star_is_refused_in_one_line_and_nothing_is_written(wythoff, star, says):
    before = entries(wythoff)
    code, doc, err = wythoff("add", "--definition", json.dumps({"star": star}))
    assert code != 0 and doc is None
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and says in lines[0], err
    assert entries(wythoff) == before


@pytest.mark.parametrize(
    "alpha", ["sqrt(4)", "sqrt(5)", "2**0.5", "", "sqrt(2)+sqrt(3)", 1.5]
)
def test_a_bad_alpha_is_refused_in_one_line(wythoff, alpha):
    before = entries(wythoff)
    code, _, err = wythoff("add", "--definition", json.dumps({"beatty": alpha}))
    lines = [line for line in err.splitlines() if line.strip()]
    assert code != 0 and len(lines) == 1 and "beatty: " in lines[0], err
    assert entries(wythoff) == before


def test_one_game_however_written_is_one_entry(wythoff):
    def add(definition) -> tuple[str, bool]:
        code, doc, err = wythoff("add", "--definition", json.dumps(definition))
        assert code == 0, err
        return doc["id"], doc["created"]

    wid, created = add({"star": {"beatty": "sqrt(2)"}})
    assert created
    for same in ("2/sqrt(2)", "sqrt(8)/2"):
        assert add({"star": {"beatty": same}}) == (wid, False)
    g = add({"beatty": "sqrt(8)/2"})
    assert g[1] and g[0] != wid  # G itself is another game
    # Maharaja⋆ by its ID, by its label, and written out: one entry.
    code, shown, _ = wythoff("show", "W000004")
    assert "maharaja.1.2" in shown["labels"]
    by_id = add({"star": "W000004"})
    assert by_id[1]
    assert add({"star": "maharaja.1.2"}) == (by_id[0], False)
    assert add({"star": {"moves": [[2, 1], [1, 2]], "rays": WYTHOFF}}) == (
        by_id[0],
        False,
    )
    code, doc, _ = wythoff("show", by_id[0])
    assert doc["definition"]["star"]["moves"] == [[1, 2], [2, 1]]  # written out
    code, doc, _ = wythoff("positions", by_id[0], "--n", "40")
    assert doc["positions"] == catalog.p_positions({"star": MAHARAJA}, 40).tolist()
    # A family member that is not seeded yet is resolved by its label too.
    code, doc, err = wythoff("add", "--definition", '{"star": "maharaja.2.5"}')
    assert code == 0 and doc["created"], err


def test_star_of_the_beatty_game_of_sqrt2_far_out(wythoff):
    code, doc, _ = wythoff("add", "--definition", '{"star": {"beatty": "sqrt(2)"}}')
    wid = doc["id"]
    code, shown, _ = wythoff("show", wid)
    far = shown["invariants"]["far_out"]
    assert far["status"] == "theorem"
    assert "Larsson, Hegarty and Fraenkel" in far["source"]
    assert "Theoret. Comput. Sci. 412 (2011)" in far["source"]
    exact = beattyref.ALPHAS["sqrt(2)"]
    big = 10**300
    x = big - 3
    while (y := beattyref.partner(exact, x)) >= big:
        x -= 1  # the larger pile of its pair: the partner is below 10^300
    code, doc, err = wythoff("is-p", wid, str(x), str(y))
    assert code == 0, err
    assert doc == {"id": wid, "position": [x, y], "outcome": "P", "move_to": None}
    code, doc, _ = wythoff("is-p", wid, str(y), str(x))
    assert doc["outcome"] == "P"
    code, doc, _ = wythoff("is-p", wid, str(x), str(y + 1))
    assert doc["outcome"] == "N" and doc["move_to"] is not None
    u, v = doc["move_to"]
    assert beattyref.is_pair(exact, u, v) and u <= x and v <= y + 1
    code, doc, _ = wythoff("is-p", wid, str(big), str(big))
    assert code == 0 and doc["outcome"] == "N"  # (k, k) is no Beatty pair
    code, _, err = wythoff("is-p", wid, str(big + 1), "0")
    assert code != 0 and "x: must be at most" in err
