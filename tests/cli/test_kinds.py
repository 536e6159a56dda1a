"""The new rule kinds through the command line and the API: a new user's
session (add, show by label, is-p far out, grundy, identify), and bad
input refused in one line naming the field, with nothing written."""

from __future__ import annotations

import json

import pytest

import catalog
from tests.cli.conftest import command

NIM = [[1, 0], [0, 1]]
TWO_WYTHOFF = {"rays": NIM, "cones": [{"lo": [1, -1], "hi": [1, 1]}]}


@pytest.fixture
def wythoff(runner, seeded_url):
    return command(runner, seeded_url)


@pytest.mark.parametrize(
    ("definition", "field"),
    [
        ({"rays": NIM, "cones": [{"lo": [1, 3], "hi": [1, 2]}]}, "cones[0]"),
        ({"rays": NIM, "cones": [{"lo": [2, 0], "hi": [1, 0]}]}, "cones[0].hi"),
        ({"rays": NIM, "cones": [{"lo": [1, 0], "mod": 0}]}, "cones[0].mod"),
        ({"rays": NIM, "block": -1}, "block"),
        ({"rays": NIM, "block": 65}, "block"),
        ({"special": ["euclides"]}, "special"),
    ],
)
def test_bad_definitions_are_refused_in_one_line(wythoff, definition, field):
    code, _, err = wythoff("add", "--definition", json.dumps(definition))
    assert code != 0
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and field in lines[0], err
    code, doc, _ = wythoff("list", "--limit", "1000")
    assert code == 0 and all(e["id"] <= "W000026" for e in doc["entries"])


def test_a_new_users_session_with_the_new_kinds(wythoff):
    code, doc, _ = wythoff("add", "--definition", json.dumps(TWO_WYTHOFF))
    assert code == 0 and doc["created"]
    wid = doc["id"]
    # The same game written as (1,2)-Wythoff is the same entry.
    st = {"rays": NIM, "cones": [{"lo": [1, 0], "hi": [1, 1], "symmetric": True}]}
    code, again, _ = wythoff("add", "--definition", json.dumps(st))
    assert (code, again) == (0, {"id": wid, "created": False})
    code, doc, _ = wythoff("positions", wid, "--n", "20")
    assert doc["positions"] == catalog.p_positions(TWO_WYTHOFF, 20).tolist()
    big = str(10**299)
    code, doc, _ = wythoff("is-p", wid, big, big)
    assert code == 0 and doc["outcome"] == "N" and doc["move_to"] is not None
    code, doc, _ = wythoff("grundy", wid, "--n", "21")
    assert code == 0 and doc["grundy"][10][:5] == [10, 11, 12, 13, 0]
    blocking = {"rays": [*NIM, [1, 1]], "block": 1}
    code, doc, _ = wythoff("add", "--definition", json.dumps(blocking))
    code, _, err = wythoff("grundy", doc["id"], "--n", "5")
    assert code != 0 and err.strip().splitlines()[-1].startswith("Error: block:")


def test_identify_answers_two_wythoffs_data_with_its_entry(wythoff):
    code, doc, _ = wythoff("add", "--definition", json.dumps(TWO_WYTHOFF))
    wid = doc["id"]
    wythoff("compute", wid, "--n", "60")
    cells = catalog.p_positions(TWO_WYTHOFF, 60).tolist()
    text = " ".join(f"{x},{y}" for x, y in cells)
    code, doc, _ = wythoff("identify", "--positions", text, "--n", "60", "--symmetric")
    assert code == 0
    assert [e["id"] for e in doc["catalog"]] == [wid]
    # ⋆ of the Beatty game of √2 first (one rule), then 2-Wythoff.
    assert doc["games"][0]["definition"] == {
        "rays": [],
        "moves": [],
        "special": [],
        "star": {"beatty": "sqrt(2)"},
    }
    assert doc["games"][1]["id"] == wid and doc["games"][1]["size"] == 2
    assert doc["exact"] is True
