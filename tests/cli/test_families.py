"""``wythoff families``, ``seed --family``, ``list --where``, ``table``, on
both databases."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from catalog import service
from catalog.cli.main import cli
from catalog.families import load_families
from tests.cli.test_cli import count_entries


def command(runner, url):
    """Run ``wythoff … --db URL`` (``--json`` unless ``text=True``)."""

    def run(*args, text=False):
        name, *rest = args
        flags = ["--db", url] + ([] if text else ["--json"])
        result = runner.invoke(cli, [name, *flags, *rest])
        out = result.stdout
        if result.exit_code == 0 and not text:
            out = json.loads(out)
        return result.exit_code, out, result.stderr

    run.url = url
    return run


@pytest.fixture
def wythoff(runner, fresh_url):
    return command(runner, fresh_url)


@pytest.fixture(scope="module")
def shipped():
    return load_families()


def test_seed_a_family_then_list_show_and_tabulate(wythoff, shipped):
    code, report, _ = wythoff("seed", "--family", "box", "--n", "0")
    assert code == 0 and report["families"] == {"box": {"members": 1024, "added": 1019}}
    assert {"W000017", "W120000"} <= set(report["added"])
    code, again, _ = wythoff("seed", "--family", "box", "--n", "0")
    assert again["added"] == [] and again["updated"] == []

    listed = {f["name"]: f for f in wythoff("families")[1]["families"]}
    assert listed["box"]["members"] == listed["box"]["seeded"] == 1024
    assert listed["maharaja"]["seeded"] == 9  # W000004–W000011 and W000024

    code, shown, _ = wythoff("show", "box.8.13")
    assert code == 0 and shown["id"] == "W000017" and shown["label"] == "box.8.13"

    code, page, _ = wythoff(
        "list", "--family", "box", "--where", "a=8", "--sort", "-b", "--limit", "3"
    )
    assert [e["label"] for e in page["entries"]] == ["box.8.32", "box.8.31", "box.8.30"]
    assert [e["values"] for e in page["entries"]] == [
        {"a": 8, "b": b} for b in (32, 31, 30)
    ]

    code, grid, _ = wythoff("table", "box", "id")
    assert code == 0
    assert grid["rows"] == {"name": "a", "values": list(range(1, 33))}
    assert grid["columns"] == {"name": "b", "values": list(range(1, 33))}
    expected = [
        [
            f"W{shipped.number(shipped.parse_label(f'box.{a}.{b}')):06d}"
            for b in range(1, 33)
        ]
        for a in range(1, 33)
    ]
    assert grid == {
        "family": "box",
        "invariant": "id",
        "rows": grid["rows"],
        "columns": grid["columns"],
        "cells": expected,
    }
    assert grid["cells"][7][12] == "W000017"

    code, text, _ = wythoff("table", "box", "id", text=True)
    lines = text.splitlines()
    assert lines[0] == "box: id" and lines[1].split()[:3] == ["a\\b", "1", "2"]
    code, csv, _ = wythoff("table", "box", "id", "--format", "csv", text=True)
    assert csv.splitlines()[0] == "a\\b," + ",".join(map(str, range(1, 33)))
    assert csv.splitlines()[8].split(",")[13] == "W000017"


def test_table_with_a_fixed_parameter(runner, seeded_url):
    wythoff = command(runner, seeded_url)
    wythoff("seed", "--family", "cell", "--n", "0")
    code, grid, _ = wythoff("table", "cell", "id", "--fix", "kind=N")
    assert code == 0 and grid["rows"]["name"] == "x" and grid["columns"]["name"] == "y"
    pairs = {
        (x, y)
        for i, x in enumerate(grid["rows"]["values"])
        for j, y in enumerate(grid["columns"]["values"])
        if grid["cells"][i][j] is not None
    }
    assert (0, 0) in pairs and (1, 2) in pairs and (2, 1) in pairs and len(pairs) == 23
    i, j = grid["rows"]["values"].index(0), grid["columns"]["values"].index(0)
    assert grid["cells"][i][j] == "W000002"  # misère Wythoff


def test_family_flag_alone_means_every_family(runner, fresh_url, monkeypatch):
    seen = []

    def fake(store, names):
        seen.append(list(names))
        return {"added": [], "updated": [], "unchanged": [], "families": {}}

    monkeypatch.setattr(service, "seed_families", fake)
    for args, names in (
        (["--family"], ["all"]),
        (["--family", "box,cell"], ["box,cell"]),
    ):
        result = runner.invoke(cli, ["seed", "--db", fresh_url, "--n", "0", *args])
        assert result.exit_code == 0, result.stderr
        assert seen.pop() == names


BAD = [
    (["table", "nope", "id"], "unknown family 'nope'"),
    (
        ["table", "cell", "id"],
        "a table needs one or two free parameters; cell has kind, x, y: fix 1",
    ),
    (["table", "box", "colour"], "unknown invariant 'colour'"),
    (["table", "maharaja", "offset"], "the family maharaja has no offset"),
    (["table", "cell", "id", "--fix", "kind"], "--fix 'kind': expected NAME=VALUE"),
    (["list", "--where", "a=1"], "unknown field 'a'"),
    (["list", "--family", "box", "--where", "a~1"], "expected FIELD OP VALUE"),
    (["list", "--family", "box", "--sort", "c"], "unknown field 'c'"),
    (["show", "box.33.1"], "a: 33 is out of range 1..32"),
    (["show", "box.1.1"], "box.1.1 is not in this catalog yet"),
    (["seed", "--family", "box,nope", "--n", "0"], "unknown family 'nope'"),
]


@pytest.mark.parametrize("args, message", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_is_one_line_and_writes_nothing(runner, shared_url, args, message):
    shared = command(runner, shared_url)
    before = count_entries(shared_url)
    code, _, err = shared(*args)
    assert code != 0
    assert err.count("\n") == 1 and message in err
    assert count_entries(shared_url) == before


def test_families_show_their_constraints(shared):
    code, doc, _ = shared("families")
    assert code == 0
    by_name = {f["name"]: f for f in doc["families"]}
    assert by_name["maharaja"]["constraints"] == ["k < l"]
    assert by_name["box"]["constraints"] == []
    text = CliRunner().invoke(cli, ["families", "--db", shared.url]).stdout
    line = next(x for x in text.splitlines() if x.startswith("maharaja "))
    assert "k in 1..16; l in 1..16; k < l" in line


def test_the_beatty_and_star_families_seed_and_answer(wythoff, shipped):
    """Issue 41: the families seed, their labels resolve, ⋆ of the Beatty
    game of √2 is answered from Larsson–Hegarty–Fraenkel's theorem far out,
    and a ``star`` naming a label is the member's game."""
    names = "beatty,beatty-star,star,star2"
    code, report, _ = wythoff("seed", "--family", names, "--n", "0")
    assert code == 0
    assert {k: v["members"] for k, v in report["families"].items()} == {
        "beatty": 20,
        "beatty-star": 20,
        "star": 26,
        "star2": 26,
    }
    code, shown, _ = wythoff("show", "beatty-star.sqrt2")
    member = shipped.parse_label("beatty-star.sqrt2")
    assert shown["id"] == f"W{member.slot:06d}" and shown["label"] == member.label
    assert shown["definition"] == member.game.to_json()
    far_out = shown["invariants"]["far_out"]
    assert far_out["status"] == "theorem" and "Larsson" in far_out["source"]

    big = 10**299  # the pair (⌊kα⌋, ⌊kβ⌋) at k = 10^299, α = √2
    alpha = member.game.star.beatty
    x, y = alpha.floor_mul(big), alpha.complement().floor_mul(big)
    code, answer, _ = wythoff("is-p", "beatty-star.sqrt2", str(x), str(y))
    assert code == 0 and answer["outcome"] == "P"
    code, answer, _ = wythoff("is-p", "beatty-star.sqrt2", str(x), str(y + 1))
    assert answer["outcome"] == "N" and answer["move_to"] == [x, y]

    code, page, _ = wythoff("list", "--family", "beatty", "--where", "alpha=sqrt3")
    assert [e["label"] for e in page["entries"]] == ["beatty.sqrt3"]
    code, added, _ = wythoff("add", "--definition", '{"star": "beatty.sqrt2"}')
    assert added == {"id": shown["id"], "created": False}
    code, added, _ = wythoff("add", "--definition", '{"star": {"star": "W000003"}}')
    nim = shipped.parse_label("star2.W000003")
    assert added == {"id": f"W{nim.slot:06d}", "created": False}
    code, positions, _ = wythoff("positions", "star2.W000003", "--n", "5")
    assert positions["positions"] == [[k, k] for k in range(5)]  # Nim⋆⋆ = Nim
