"""Every kind of bad input to ``wythoff``, on both databases: exit status 1
and one line on stderr, the same message the API gives; nothing written."""

import json

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from catalog.cli.main import cli
from catalog.store.db import make_engine
from catalog.store.models import Entry

RAYS = '{"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[5, 9]]}'
BAD_ID = "not an entry ID: {!r} (expected W and six digits, e.g. W000001)"
BAD_ENTRY = (
    "not an entry ID or label: {!r} (expected an entry ID such as W000001, "
    "or a family member's label such as maharaja.1.2)"
)


@pytest.fixture
def url(shared_url):
    """A seeded catalog (nothing computed), shared by the module's tests."""
    return shared_url


def run(url, *args):
    command, *rest = args
    return CliRunner().invoke(cli, [*command.split(), "--db", url, *rest])


def count_entries(url):
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return conn.scalar(select(func.count()).select_from(Entry))
    finally:
        engine.dispose()


CASES = [
    # Definitions and names that reached the database, or the recursion limit.
    (
        ("add", "--definition", "[" * 60_000 + "]" * 60_000),
        "definition: nested 60000 levels deep (at most 8)",
    ),
    (
        ("add", "--definition", '{"rays": [[1, 0]], "rays": [[0, 1]]}'),
        "definition: key 'rays' given twice",
    ),
    (
        ("add", "--definition", RAYS + "\x00"),
        "definition: must not contain NUL characters",
    ),
    (
        ("add", "--definition", RAYS, "--name", "x" * 201),
        "name: must be at most 200 characters long",
    ),
    (("add", "--definition", RAYS, "--name", ""), "name: must not be empty"),
    (("add", "--definition", RAYS, "--name", "  "), "name: must not be empty"),
    (
        ("add", "--definition", RAYS, "--name", "a\x00b"),
        "name: must not contain NUL characters",
    ),
    # NUL bytes and lengths in searches and filters.
    (("search", "\x00"), "TERMS: must not contain NUL characters"),
    (("search", "keyword:\x00"), "TERMS: must not contain NUL characters"),
    (("search", "x" * 60_000), "TERMS: must be at most 2000 characters long"),
    (("search", "a " * 1500), "TERMS: must be at most 2000 characters long"),
    (("search", "a " * 17), "TERMS: at most 16 words"),
    (("search", "1,2"), "TERMS: give at least 3 terms"),
    (("list", "--keyword", "\x00"), "keyword: must not contain NUL characters"),
    (("list", "--keyword", "k" * 65), "keyword: must be at most 64 characters long"),
    # Numbers: ASCII digits only, within range.
    (("search", "1,2,3", "--offset", "1" + "0" * 400), "offset: must be at most 10000"),
    (("search", "1,2,3", "--offset", "-1"), "offset: must be non-negative"),
    (("search", "1,2,3", "--limit", "1001"), "limit: must be at most 1000"),
    (("positions", "W000001", "--n", "٣٠"), "n: must be an integer, not '٣٠'"),
    (("positions", "W000001", "--n", "1_000"), "n: must be an integer, not '1_000'"),
    (("compute", "W000001", "--n", "３０"), "n: must be an integer, not '３０'"),
    (("grundy", "W000001", "--n", "²"), "n: must be an integer, not '²'"),
    (("export", "W000001", "--n", "٣٠"), "n: must be an integer, not '٣٠'"),
    (("is-p", "W000001", "٣", "5"), "x: must be an integer, not '٣'"),
    (("is-p", "W000001", "3", "9" * 401), "y: must have at most 400 digits"),
    (("adjoinable", "1", "٢"), "j: must be an integer, not '٢'"),
    (("list", "--limit", "٣"), "limit: must be an integer, not '٣'"),
    (("seed", "--n", "٣"), "n: must be an integer, not '٣'"),
    # IDs: W and six ASCII digits.
    (("show", "W００００01"), BAD_ENTRY.format("W００００01")),
    (("show", "W00000١"), BAD_ENTRY.format("W00000١")),
    (("positions", "not-a-label", "--n", "5"), BAD_ENTRY.format("not-a-label")),
    (("list", "--after", "W００００01"), BAD_ENTRY.format("W００００01")),
    (("verify", "W00000١"), BAD_ENTRY.format("W00000١")),
    (("search", "id:W００００01"), "TERMS: " + BAD_ID.format("W００００01")),
    (
        ("search", "١,٢,٣"),
        "TERMS: write terms with the ASCII digits 0-9, separated by commas or spaces",
    ),
]


@pytest.mark.parametrize(("args", "message"), CASES)
def test_bad_input_is_one_line(url, args, message):
    before = count_entries(url)
    result = run(url, *args)
    assert (result.exit_code, result.stdout, result.stderr) == (
        1,
        "",
        f"Error: {message}\n",
    )
    assert count_entries(url) == before


def test_a_name_at_the_limit_is_stored_whole(url):
    name = "é" * 200
    result = run(url, "add", "--json", "--definition", RAYS, "--name", name)
    assert result.exit_code == 0, result.stderr
    wid = json.loads(result.stdout)["id"]
    shown = json.loads(run(url, "show", "--json", wid).stdout)
    assert shown["name"] == name


def test_box_entries_export_their_column_sequence(url):
    """Box(8,13): columns 0..7 hold 13 P-positions each, every later column
    one; the export is y(x) from x = 8 on."""
    result = run(url, "export", "W000017", "--format", "bfile", "--n", "40")
    assert result.exit_code == 0, result.stderr
    positions = json.loads(
        run(url, "positions", "--json", "W000017", "--n", "200").stdout
    )["positions"]
    column = {x: y for x, y in positions if x >= 8}
    assert result.stdout.splitlines() == ["# W000017 sequence y, offset 8"] + [
        f"{x} {column[x]}" for x in range(8, 40)
    ]
    oeis = run(url, "export", "W000017", "--format", "oeis", "--n", "40")
    assert oeis.exit_code == 0, oeis.stderr
    lines = oeis.stdout.splitlines()
    first = ",".join(str(column[x]) for x in range(8, 16))
    assert lines[1].startswith(f"%S W000017 {first},")
    assert "%O W000017 8,1" in lines
    assert any(
        line.startswith("%N W000017 Box(8,13)") and "for n >= 8" in line
        for line in lines
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["show"], "Missing argument 'ID'. (see wythoff show -h)"),
        (
            ["seed", "--path", "/missing-folder"],
            "Directory '/missing-folder' does not exist.",
        ),
        (
            ["show", "--bogus", "W000001"],
            "No such option '--bogus'. (see wythoff show -h)",
        ),
        (["nosuch"], "No such command 'nosuch'. (see wythoff -h)"),
        (["db", "copy"], "Missing option '--to'. (see wythoff db copy -h)"),
        (["positions", "W000001"], "Missing option '--n'."),
    ],
)
def test_clicks_own_usage_errors_are_one_line_too(url, args, message):
    result = CliRunner().invoke(cli, ["--db", url, *args], prog_name="wythoff")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("Error: ") and message in result.stderr


@pytest.mark.parametrize("args", [["-h"], ["show", "-h"], ["db", "--help"], []])
def test_help_is_still_help(args):
    result = CliRunner().invoke(cli, args, prog_name="wythoff")
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: wythoff")
