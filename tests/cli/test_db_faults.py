"""Faults of the database itself: each is one line on stderr, never a
traceback, and no password is ever printed."""

from __future__ import annotations

import json
import socket
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from catalog.cli.main import cli
from catalog.store import db
from tests.cli.conftest import computed_catalog
from tests.cli.racing import Forked, Outcome, race
from tests.conftest import BACKENDS, new_database_url
from tests.databases import migrated

PASSWORD = "s3cr%40t%25x"  # "s3cr@t%x", escaped as a URL must be
SHOWN = ("s3cr", "%40t", "@t%x")  # no piece of it may be printed


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts TCP connections and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    yield server.getsockname()[1]
    server.close()


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # free again once closed: nobody listens


def with_password(url: str) -> str:
    return (
        make_url(url)
        .render_as_string(hide_password=False)
        .replace("://postgres@", f"://postgres:{PASSWORD}@", 1)
    )


def corrupted(tmp_path) -> str:
    path = tmp_path / "garbage.sqlite3"
    path.write_bytes(bytes(range(256)) * 64)
    return f"sqlite:///{path}"


def read_only_sqlite(tmp_path, runner) -> str:
    path = tmp_path / "ro.sqlite3"
    assert (
        runner.invoke(cli, ["db", "upgrade", "--db", f"sqlite:///{path}"]).exit_code
        == 0
    )
    return f"sqlite:///file:{path}?mode=ro&uri=true"


def read_only_postgres(fresh_url: str, runner) -> str:
    assert runner.invoke(cli, ["db", "upgrade", "--db", fresh_url]).exit_code == 0
    url = make_url(with_password(fresh_url))
    return url.update_query_dict(
        {"options": "-c default_transaction_read_only=on"}
    ).render_as_string(hide_password=False)


def not_a_folder(tmp_path) -> str:
    (tmp_path / "afile").write_text("x")
    return f"sqlite:///{tmp_path / 'afile' / 'sub' / 'catalog.sqlite3'}"


ADD = ["add", "--definition", '{"rays": [[1, 0], [0, 1], [1, 1], [2, 5]]}']

# (case, how to build the URL, the command, a fragment of the one line)
CASES = [
    (
        "closed port",
        lambda t, r, p, f: (
            f"postgresql+psycopg://postgres:{PASSWORD}@127.0.0.1:{closed_port()}/x"
        ),
        ["list"],
        "cannot connect",
    ),
    (
        "silent server",
        lambda t, r, p, f: f"postgresql+psycopg://postgres:{PASSWORD}@127.0.0.1:{p}/x",
        ["list"],
        "cannot connect",
    ),
    (
        "unknown host",
        lambda t, r, p, f: (
            f"postgresql+psycopg://postgres:{PASSWORD}@no-such-host.invalid/x"
        ),
        ["list"],
        "cannot connect",
    ),
    ("a folder", lambda t, r, p, f: f"sqlite:///{t}", ["list"], "is a folder"),
    (
        "folder not creatable",
        lambda t, r, p, f: not_a_folder(t),
        ["list"],
        "cannot create its folder",
    ),
    (
        "corrupted file",
        lambda t, r, p, f: corrupted(t),
        ["list"],
        "file is not a database",
    ),
    (
        "unknown scheme",
        lambda t, r, p, f: f"nosuchdb://postgres:{PASSWORD}@h/x",
        ["list"],
        "unknown scheme",
    ),
    (
        "postgres scheme",
        lambda t, r, p, f: f"postgres://postgres:{PASSWORD}@h/x",
        ["list"],
        "postgresql+psycopg://",
    ),
    (
        "missing driver",
        lambda t, r, p, f: f"mysql://postgres:{PASSWORD}@h/x",
        ["list"],
        "driver for 'mysql' is not installed",
    ),
    (
        "not a URL",
        lambda t, r, p, f: f"postgres:{PASSWORD}@h",
        ["list"],
        "cannot be parsed",
    ),
    ("read-only SQLite", lambda t, r, p, f: read_only_sqlite(t, r), ADD, "read-only"),
]


@pytest.mark.parametrize(
    ("build", "command", "fragment"),
    [pytest.param(*case[1:], id=case[0]) for case in CASES],
)
def test_a_database_fault_is_one_line(
    runner, tmp_path, silent_port, monkeypatch, build, command, fragment
):
    monkeypatch.setattr(db, "CONNECT_TIMEOUT", 1)  # the silent server's wait
    url = build(tmp_path, runner, silent_port, None)
    result = runner.invoke(cli, [*command, "--db", url])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: database "), lines
    assert fragment in lines[0]
    assert result.stdout == ""
    assert not any(piece in result.output for piece in SHOWN)


@pytest.mark.postgres
def test_a_read_only_postgresql_role_is_one_line(runner, request, tmp_path):
    fresh = new_database_url("postgresql", request, tmp_path, migrated)
    url = read_only_postgres(fresh, runner)
    result = runner.invoke(cli, [*ADD, "--db", url])
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "read-only" in lines[0], lines
    assert not any(piece in result.output for piece in SHOWN)
    # Reading still works.
    assert runner.invoke(cli, ["list", "--db", url]).exit_code == 0


def percent_url(backend: str, request, tmp_path) -> str:
    """A fresh database whose URL holds a %: an escaped password (PostgreSQL)
    or a folder name (SQLite)."""
    if backend == "sqlite":
        folder = tmp_path / "100% s3cr%40t%25x"
        return f"sqlite:///{folder / 'catalog.sqlite3'}"
    return with_password(new_database_url("postgresql", request, tmp_path))


@pytest.mark.parametrize(
    "backend", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]
)
def test_a_percent_in_the_url_works_and_no_password_is_printed(
    runner, request, tmp_path, backend, caplog
):
    url = percent_url(backend, request, tmp_path)
    upgrade = runner.invoke(cli, ["db", "upgrade", "--db", url])
    assert upgrade.exit_code == 0, upgrade.output
    added = runner.invoke(cli, [*ADD, "--json", "--db", url])
    assert added.exit_code == 0, added.output
    assert json.loads(added.stdout) == {"id": "W000001", "created": True}
    if backend == "postgresql":
        everything = upgrade.output + added.output + caplog.text
        assert not any(piece in everything for piece in SHOWN)
        assert "postgres:***@" in upgrade.stdout


@pytest.fixture(params=BACKENDS)
def race_url(request, tmp_path, trial) -> str:
    """An empty database for the first trial, a migrated one for the others."""
    template = None if trial == 0 else migrated
    return new_database_url(request.param, request, tmp_path, template)


@pytest.mark.parametrize("trial", range(5))
def test_two_processes_adding_the_same_definition_get_the_same_id(race_url, trial):
    """Two ``wythoff add`` at once, as separate processes; the first trial
    also races the migrations of a new database."""
    definition = json.dumps({"rays": [[1, 0], [0, 1], [1, 1], [1, trial + 3]]})
    add = ["add", "--json", "--db", race_url, "--definition", definition]
    results = race(add, add)
    assert [(code, err) for code, _, err in results] == [(0, ""), (0, "")]
    answers = [json.loads(out) for _, out, _ in results]
    assert answers[0]["id"] == answers[1]["id"]
    assert sorted(a["created"] for a in answers) == [False, True]


def _wythoff(url: str, *args: str, file_limit: int | None = None) -> Outcome:
    """``wythoff --db URL ARGS`` in a process of its own, its files capped at
    ``file_limit`` bytes: (exit code, stdout, stderr)."""
    found = Forked(["--db", url, *args], file_limit=file_limit).outcome()
    assert found is not None
    return found


def test_a_full_disk_is_one_line_and_loses_nothing_committed(request, tmp_path):
    # A copy of the catalog of ``wythoff seed --n 200``.
    url = new_database_url("sqlite", request, tmp_path, computed_catalog)
    path = Path(make_url(url).database or "")
    # Room for a batch of (k,l)-Maharaja entries (64), not for all 120.
    cut = _wythoff(
        url,
        "--json",
        "seed",
        "--family",
        "maharaja",
        "--n",
        "3000",
        file_limit=path.stat().st_size + 1_200_000,
    )
    code, _, err = cut
    assert code == 1, err
    assert err.startswith("Error: ") and err.count("\n") == 1
    assert "Traceback" not in err
    with sqlite3.connect(path) as check:
        assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        filled = [
            f"W{number:06d}"
            for (number,) in check.execute("SELECT entry_id FROM extents")
        ]
    # What was committed is whole: the entries with positions verify (the
    # seeds and the last ones written, of the batch before the failure).
    assert len(filled) > 25
    assert _wythoff(url, "verify", *filled[:3], *filled[-5:])[0] == 0
    code, _, err = _wythoff(
        url, "--json", "seed", "--family", "maharaja", "--n", "1000"
    )
    assert code == 0, err
    with sqlite3.connect(path) as check:
        (count,) = check.execute(
            "SELECT count(*) FROM extents WHERE x_bound >= 1000"
        ).fetchone()
    assert count > len(filled)


@pytest.mark.parametrize("backend", BACKENDS)
def test_two_processes_seeding_a_family_at_once(backend, request, tmp_path):
    """Two ``wythoff seed --family`` at once. On PostgreSQL both succeed:
    seeding is idempotent, so the one that finds the other's rows committed
    under it tries again. SQLite has one writer: the other waits, and may
    say so in one line. Either way the catalog holds each member once."""
    url = new_database_url(backend, request, tmp_path, migrated)
    seed = ["seed", "--json", "--db", url, "--family", "maharaja", "--n", "0"]
    results = race(seed, seed)
    busy = "Error: database {}: locked by another writer; try again\n"
    for code, _, err in results:
        if backend == "sqlite" and code == 1:
            assert err == busy.format(url), err
        else:
            assert (code, err) == (0, "")
    reports = [json.loads(out) for code, out, _ in results if code == 0]
    assert reports and all(r["members"] == reports[0]["members"] for r in reports)
    listed = ["list", "--json", "--db", url, "--family", "maharaja", "--limit", "1000"]
    code, out, _ = race(listed)[0]
    found = [e["id"] for e in json.loads(out)["entries"]]
    assert code == 0 and sorted(found) == sorted(reports[0]["members"])
    assert len(found) == len(set(found)) > 100
