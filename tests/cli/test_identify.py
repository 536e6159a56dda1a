"""``wythoff identify`` and ``wythoff extensions`` on both databases: the
data read every way, the answers of the papers' games, bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest
from sqlalchemy import create_engine, select

from catalog import p_positions
from catalog.cli.main import cli
from catalog.compute.adjoinable import adjoinable
from catalog.config import Settings
from catalog.errors import BadInput
from catalog.service import Store
from catalog.service.identify import parse_grid, parse_pairs
from catalog.service.lookup import stored_matches
from catalog.store import positions as stored
from catalog.store.tables import extents, window_prints
from tests.cli.conftest import command

WYTHOFF_6 = "0,0 1,2 2,1 3,5 5,3"
WYTHOFF_RULES = {"rays": [[0, 1], [1, 0], [1, 1]], "moves": [], "special": []}
NO_RULES = {"rays": [], "moves": [], "special": []}


@pytest.fixture
def wythoff(runner, shared_url):
    return command(runner, shared_url)


def test_wythoffs_positions_name_wythoffs_rules_and_entry(wythoff):
    code, doc, _ = wythoff("identify", "--positions", WYTHOFF_6)
    assert code == 0
    assert (doc["n"], doc["cells"], doc["symmetric"]) == (6, 5, True)
    assert doc["invariant"] is True and doc["exact"] is True
    assert doc["games"][0] == {"definition": WYTHOFF_RULES, "size": 2, "id": "W000001"}
    assert doc["altered"] == []
    assert "component >= n" in doc["unseen"]


def test_beatty_data_name_the_stored_star_and_a_wythoff(runner, seeded_url):
    """The issue's case: the Beatty pairs of √2 below 60, --symmetric. With
    ⋆ of the Beatty game of √2 and 2-Wythoff stored, both proposals carry
    their IDs (the canonical key: √2 written another way is the same)."""
    run = command(runner, seeded_url)
    code, added, _ = run("add", "--definition", '{"star": {"beatty": "2/sqrt(2)"}}')
    assert code == 0
    two = {"rays": [[1, 0], [0, 1]], "cones": [{"lo": [1, -1], "hi": [1, 1]}]}
    code, awythoff, _ = run("add", "--definition", json.dumps(two))
    assert code == 0
    cells = p_positions({"star": {"beatty": "sqrt(2)"}}, 60)
    text = " ".join(f"{x},{y}" for x, y in cells.tolist() if x <= y)
    code, doc, _ = run("identify", "--positions", text, "--n", "60", "--symmetric")
    assert code == 0 and doc["exact"] is True
    assert doc["games"][0] == {
        "definition": {**NO_RULES, "star": {"beatty": "sqrt(2)"}},
        "size": 1,
        "id": added["id"],
    }
    assert doc["games"][1]["id"] == awythoff["id"] and doc["games"][1]["size"] == 2
    assert all(g.keys() == {"definition", "size", "id"} for g in doc["games"])


def test_beatty_data_at_a_terminal(runner, shared_url):
    """Without --json: ⋆ of the Beatty game named, each size shown where it
    is not the least, the note with the interval of α."""
    cells = p_positions({"star": {"beatty": "sqrt(2)"}}, 60)
    text = " ".join(f"{x},{y}" for x, y in cells.tolist())
    result = runner.invoke(
        cli, ["identify", "--db", shared_url, "--positions", text, "--limit", "2"]
    )
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    at = lines.index("Smallest rule sets (size 1):")
    assert lines[at + 1] == "  ⋆ of (the Beatty pairs of α = sqrt(2))"
    assert lines[at + 2].startswith("  (size 2) rays (0,1) (1,0); cone [")
    assert "(41/29, 58/41]" in result.stdout


def test_misere_wythoff_is_an_altered_game(wythoff):
    cells = p_positions({"rays": [[1, 0], [0, 1], [1, 1]], "alter": {"N": [[0, 0]]}}, 8)
    text = " ".join(f"{x},{y}" for x, y in cells.tolist())
    code, doc, _ = wythoff("identify", "--positions", text)
    assert code == 0
    assert doc["invariant"] is False and doc["games"] == []
    assert doc["maximal"]["unreached"] == [[0, 0]]
    assert doc["altered"][0] == {
        "definition": {**WYTHOFF_RULES, "alter": {"P": [], "N": [[0, 0]]}},
        "size": 3,
        "forced": 1,
        "id": "W000002",
    }


def test_the_same_data_from_a_file_stdin_and_a_grid(runner, shared_url, tmp_path):
    run = command(runner, shared_url)
    _, expected, _ = run("identify", "--positions", WYTHOFF_6)
    pairs = tmp_path / "pairs.txt"
    pairs.write_text("# Wythoff below 6\n0,0\n1 2\n(2, 1)\n3,5\n5,3\n")
    grid = tmp_path / "grid.txt"
    grid.write_text("...P..\n......\n.....P\n.P....\n..P...\nP.....\n")
    from_stdin = runner.invoke(
        cli, ["identify", "-", "--json", "--db", shared_url], input=WYTHOFF_6
    )
    answers = [
        run("identify", "--file", str(pairs))[1],
        run("identify", "--grid", str(grid))[1],
        json.loads(from_stdin.stdout),
    ]
    for doc in answers:
        assert {k: v for k, v in doc.items() if k != "seconds"} == {
            k: v for k, v in expected.items() if k != "seconds"
        }


def test_the_apis_json_body_on_stdin(runner, shared_url):
    run = command(runner, shared_url)
    _, expected, _ = run("identify", "--positions", WYTHOFF_6, "--n", "7")

    def stdin(body: str, *args: str):
        return runner.invoke(
            cli, ["identify", "-", "--json", "--db", shared_url, *args], input=body
        )

    pairs = json.dumps([list(map(int, p.split(","))) for p in WYTHOFF_6.split()])
    for found in (
        stdin(f'{{"positions": {pairs}, "n": 7}}'),
        stdin(f'  {{"positions": {pairs}}}', "--n", "7"),
    ):
        assert found.exit_code == 0, found.stderr
        doc = json.loads(found.stdout)
        assert {k: v for k, v in doc.items() if k != "seconds"} == {
            k: v for k, v in expected.items() if k != "seconds"
        }


@pytest.mark.parametrize(
    ("body", "args", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, [], "body: nested 100000 levels deep"),
        ('{"positions": [[0, 0]], "positions": [[1, 1]]}', [], "key 'positions'"),
        ('{"positions": [[0, 0]], "n": 3}', ["--n", "3"], "--n: also given in"),
        ('{"positions": [[0, 0]], "limit": 2}', ["--limit", "5"], "--limit: also"),
        ('{"positions": [[0, 0]], "symmetric": true}', ["--symmetric"], "--symm"),
        ('{"positions": [[0, 0]], "extra": 1}', [], "extra: unknown field"),
        ("[[0, 0], [1, 2]]", [], "body: must be a JSON object"),
        ('{"positions": [' + "[0, 0], " * 300_000 + "[0, 0]]}", [], "body: at most"),
    ],
)
def test_bad_json_on_stdin_is_one_line(runner, shared_url, body, args, message):
    result = runner.invoke(
        cli, ["identify", "-", "--json", "--db", shared_url, *args], input=body
    )
    assert result.exit_code == 1
    assert result.stdout == ""
    assert message in result.stderr and result.stderr.count("\n") == 1, result.stderr


def test_symmetric_adds_mirror_images(wythoff):
    code, doc, _ = wythoff("identify", "--positions", "0,0 1,2 3,5", "--symmetric")
    assert code == 0 and doc["cells"] == 5 and doc["games"][0]["id"] == "W000001"


def test_text_for_people(runner, shared_url):
    result = runner.invoke(
        cli, ["identify", "--db", shared_url, "--positions", WYTHOFF_6]
    )
    assert result.exit_code == 0
    assert "Smallest rule sets (size 2):" in result.stdout
    assert "rays (0,1) (1,0) (1,1)  = W000001" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "give the data once"),
        (["--positions", "0,0", "--grid", "-"], "give the data once"),
        (["--positions", "0,0 1"], "positions: line 1: '1' is not a pair x,y"),
        (["--positions", "0,0 1,-2"], "has a negative coordinate"),
        (["--positions", "0,0 1,x"], "positions: line 1"),
        (["--positions", "0,0 ٣,1"], "positions: line 1"),
        (["--positions", "0,0 3,5", "--n", "4"], "lies outside x, y < n = 4"),
        (["--positions", "0,0 300,1"], "the window is at most n = 256"),
        (["--positions", "0,0", "--limit", "0"], "limit"),
        (["--positions", "0,0", "--limit", "51"], "limit: from 1 to 50"),
        (["--positions", "  "], "positions: must not be empty"),
        (["stray"], "unexpected argument"),
    ],
)
def test_bad_data_is_one_line_and_exit_1(wythoff, args, message):
    code, _, err = wythoff("identify", *args)
    assert code != 0
    assert message in err, err


def test_bad_grids(tmp_path):
    for text, message in [
        ("P.\n.P.\n", "line 2 has 3 cells, line 1 has 2"),
        ("P.x\n...\n...\n", "line 1 holds 'x'"),
        ("P..\n...\n", "2 lines of 3 cells; the window is square"),
        ("", "grid: must not be empty"),
    ]:
        with pytest.raises(BadInput) as caught:
            parse_grid(text)
        assert message in str(caught.value)
    assert parse_grid("\nP.\n.P\n\n") == ([(0, 1), (1, 0)], 2)
    assert parse_pairs("0,0\n\n# nothing\n 4 , 5 ") == [(0, 0), (4, 5)]


def test_extensions_of_wythoff_agree_with_adjoinable(wythoff):
    n = 16
    code, doc, _ = wythoff("extensions", "W000001", "--n", str(n))
    assert code == 0 and doc["id"] == "W000001" and doc["checked_below"] == 8 * n
    free = {tuple(m) for m in doc["adjoinable"]["moves"]}
    for i in range(n):
        for j in range(n):
            if (i, j) == (0, 0):
                continue
            theirs = adjoinable(i, j)
            ours = {(i, j), (j, i)} <= free or theirs.reason.startswith("already")
            assert ours == theirs.adjoinable, (i, j)
    assert doc["droppable"] == []
    assert doc["smallest"]["definition"]["rays"] == [[0, 1], [1, 0], [1, 1]]


def test_extensions_drop_what_the_window_does_not_need(wythoff):
    """Maharaja Nim's knight moves matter; Wythoff plus (1,3),(3,1) keeps
    Wythoff's P-positions, so both added moves can be dropped."""
    code, doc, _ = wythoff("extensions", "W000024", "--n", "20")
    assert code == 0
    assert {(d["kind"], tuple(d["step"])) for d in doc["droppable"]} == {
        ("move", (1, 3)),
        ("move", (3, 1)),
    }
    code, doc, _ = wythoff("extensions", "W000004", "--n", "20")
    assert code == 0 and doc["droppable"] == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["W000001", "--n", "0"], "n"),
        (["W000001", "--n", "257"], "n: from 1 to 256"),
        (["W999999", "--n", "5"], "W999999"),
    ],
)
def test_extensions_bad_input(wythoff, args, message):
    code, _, err = wythoff("extensions", *args)
    assert code != 0 and message in err


def _same(table, data, n):
    """Are the table's P-positions below n exactly ``data``?"""
    below = table[(table[:, 0] < n) & (table[:, 1] < n)]
    return below.shape == data.shape and bool((below == data).all())


def test_stored_matches_are_the_brute_force_ones(computed):
    """The prints' answer against reading every entry's P-positions below n,
    for windows on and off the ladder, the data exact or one cell changed."""
    run, _ = computed
    store = Store(Settings.load(run.url))
    try:
        with store.reading() as connection:
            numbers = [row[0] for row in connection.execute(extents.select())]
            tables = {
                e: stored.read_positions(connection, e, 0, 200, 200) for e in numbers
            }
        rng = np.random.default_rng(5)
        for source in (1, 2, 4, 12, 16, 17, 24):
            for n in (1, 2, 3, 7, 8, 30, 64, 100, 200):
                cells = tables[source]
                cells = cells[(cells[:, 0] < n) & (cells[:, 1] < n)]
                variants = [cells]
                if n > 3:
                    extra = rng.integers(0, n, size=(1, 2))
                    variants.append(cells[1:])
                    variants.append(np.concatenate([cells, extra]))
                for data in variants:
                    data = np.unique(data, axis=0)
                    expected = sorted(
                        e for e, table in tables.items() if _same(table, data, n)
                    )
                    found, total = stored_matches(store, data, n, limit=100)
                    assert [int(f["id"][1:]) for f in found] == expected, (source, n)
                    assert total == len(expected)
    finally:
        store.dispose()


def test_prints_follow_the_fill_and_go_with_the_results(seeded_url, runner):
    """A fill writes the prints of its window; a larger fill adds sizes; an
    entry whose definition changed loses them with its results."""
    run = command(runner, seeded_url)

    def sizes(number):
        engine = create_engine(seeded_url)
        try:
            with engine.connect() as connection:
                return list(
                    connection.scalars(
                        select(window_prints.c.size)
                        .where(window_prints.c.entry_id == number)
                        .order_by(window_prints.c.size)
                    )
                )
        finally:
            engine.dispose()

    assert sizes(4) == []
    assert run("compute", "W000004", "--n", "40")[0] == 0
    assert sizes(4) == [1, 2, 4, 8, 16, 32]
    assert run("compute", "W000004", "--n", "70")[0] == 0
    assert sizes(4) == [1, 2, 4, 8, 16, 32, 64]
    assert run("compute", "W000017", "--n", "20")[0] == 0  # a box: x, y < 20
    assert sizes(17) == [1, 2, 4, 8, 16]
