"""``wythoff db copy --to URL``: a whole catalog between SQLite and
PostgreSQL, row for row; idempotent, resumable, checked; a target holding
another catalog refused with one line and nothing written."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from catalog import service
from catalog.cli.main import cli
from catalog.config import Settings
from catalog.errors import BadInput
from catalog.store import copy as copying
from catalog.store.db import make_engine
from catalog.store.tables import entries, p_chunks, search_postings
from tests.conftest import new_database_url

OTHER = {"sqlite": "postgresql", "postgresql": "sqlite"}


def dump(url: str) -> dict[str, list[tuple]]:
    """Every copied table's rows in key order, datetimes in UTC."""

    def plain(value):
        if isinstance(value, datetime):
            return (value if value.tzinfo else value.replace(tzinfo=UTC)).astimezone(
                UTC
            )
        if isinstance(value, memoryview):
            return bytes(value)
        return value

    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return {
                table.name: [
                    tuple(plain(v) for v in row)
                    for row in connection.execute(
                        select(table).order_by(*table.primary_key.columns)
                    )
                ]
                for table in copying.TABLES
            }
    finally:
        engine.dispose()


def copy_to(url: str, to: str) -> tuple[int, dict | None, str]:
    """``wythoff --json --db URL db copy --to TO``: exit code, report, stderr."""
    result = CliRunner().invoke(cli, ["--json", "--db", url, "db", "copy", "--to", to])
    report = json.loads(result.stdout) if result.exit_code == 0 else None
    return result.exit_code, report, result.stderr


def backend(url: str) -> str:
    return "postgresql" if url.startswith("postgresql") else "sqlite"


@pytest.fixture
def target(request, computed, tmp_path):
    """An empty database of the other backend."""
    run, _ = computed
    return new_database_url(OTHER[backend(run.url)], request, tmp_path)


def test_a_copy_holds_the_catalog_row_for_row_and_verifies(computed, target):
    run, _ = computed
    code, report, err = copy_to(run.url, target)
    assert code == 0, err
    source = dump(run.url)
    assert dump(target) == source
    assert report["rows"] == {name: len(rows) for name, rows in source.items()}
    assert report["copied"] == report["rows"]
    assert report["chunks_checked"] == len(source["p_chunks"]) > 0
    store = service.Store(Settings.load(target))
    try:
        assert service.verify(store)["ok"]
        # New rows in the copy take new numbers (PostgreSQL's serials were
        # moved past the copied ones).
        added = service.add(
            store, '{"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[3, 7]]}'
        )
        assert added["id"] == "W000027"
    finally:
        store.dispose()


def test_a_second_copy_changes_nothing(computed, target):
    run, _ = computed
    assert copy_to(run.url, target)[0] == 0
    before = dump(target)
    code, report, _ = copy_to(run.url, target)
    assert code == 0
    assert set(report["copied"].values()) == {0}
    assert dump(target) == before


def test_an_interrupted_copy_completes_when_run_again(computed, target, monkeypatch):
    run, _ = computed
    whole = dump(run.url)
    postings = len(whole["search_postings"])
    before = sum(
        len(whole[t.name])
        for t in copying.TABLES[: copying.TABLES.index(search_postings)]
    )
    monkeypatch.setattr(copying, "BATCH", max(1, postings // 4))
    source = make_engine(run.url)
    into = service.Store(Settings.load(target))
    seen = []

    def crash(rows):
        seen.append(rows)
        if sum(seen) > before + postings // 2:  # in the middle of the index
            raise KeyboardInterrupt

    try:
        with pytest.raises(KeyboardInterrupt):
            copying.copy(source, into.engine, crash)
        partial = dump(target)
        assert 0 < len(partial["search_postings"]) < postings
        assert partial["extents"] == [], "extents come last"
    finally:
        source.dispose()
        into.dispose()
    code, report, err = copy_to(run.url, target)
    assert code == 0, err
    assert dump(target) == dump(run.url)
    assert report["copied"]["entries"] == 0 and report["copied"]["extents"] > 0


def test_a_target_holding_another_catalog_is_refused(computed, target):
    run, _ = computed
    other = service.Store(Settings.load(target))
    try:
        service.add(other, '{"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[2, 9]]}')
    finally:
        other.dispose()
    source = dump(run.url)
    before = dump(target)
    code, _, err = copy_to(run.url, target)
    assert code == 1
    assert err.count("\n") == 1
    assert "holds another catalog: its " in err and "is not this catalog" in err
    assert dump(target) == before
    assert dump(run.url) == source


def test_a_target_that_cannot_be_used_is_one_line(shared, tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    for to, message in [
        ("nosuch://x", "unknown scheme 'nosuch'"),
        (f"sqlite:///{blocked}/catalog.sqlite3", "a-file"),
    ]:
        code, _, err = copy_to(shared.url, to)
        assert code == 1, to
        assert err.count("\n") == 1 and message in err, err


def test_the_catalog_is_not_copied_onto_itself(shared):
    code, _, err = copy_to(shared.url, shared.url)
    assert code == 1
    assert "is the catalog itself" in err


def test_the_check_refuses_a_target_whose_entry_differs(computed, target):
    run, _ = computed
    assert copy_to(run.url, target)[0] == 0
    engine = make_engine(target)
    try:
        with engine.begin() as connection:
            connection.execute(
                entries.update().where(entries.c.id == 4).values(key="0" * 64)
            )
        source = make_engine(run.url)
        with source.connect() as ours, engine.connect() as theirs:
            with pytest.raises(BadInput, match="its W000004 is not"):
                copying.check_same_catalog(ours, theirs, "the target")
        source.dispose()
    finally:
        engine.dispose()


def test_a_chunk_damaged_in_the_target_is_found(computed, target):
    run, _ = computed
    assert copy_to(run.url, target)[0] == 0
    engine = make_engine(target)
    try:
        with engine.begin() as connection:
            first = connection.execute(
                select(p_chunks.c.entry_id, p_chunks.c.x0)
            ).first()
            connection.execute(
                p_chunks.update()
                .where(p_chunks.c.entry_id == first.entry_id, p_chunks.c.x0 == first.x0)
                .values(checksum="0" * 64)
            )
    finally:
        engine.dispose()
    code, _, err = copy_to(run.url, target)
    assert code == 1
    assert f"the chunk of W{first.entry_id:06d} at x = {first.x0}" in err
