"""Invariants are computed once per entry and stored, on both databases."""

import json
import threading

import pytest
from sqlalchemy import event, select

from catalog import service
from catalog.compute import invariants
from catalog.config import Settings
from catalog.store import repository as repo
from catalog.store.models import Entry, Facts, Invariants
from catalog.store.seed import seed_dir


@pytest.fixture
def store(seeded_url):
    store = service.Store(Settings.load(seeded_url))
    yield store
    store.dispose()


@pytest.fixture
def calls(monkeypatch):
    """The definitions ``invariants.compute`` was called with, in order."""
    seen = []
    real = invariants.compute

    def counting(definition):
        seen.append(json.dumps(definition, sort_keys=True))
        return real(definition)

    monkeypatch.setattr(invariants, "compute", counting)
    return seen


def stored(store, model, number):
    with store.sessions() as session:
        return session.get(model, number)


def offset_row(store, number):
    row = stored(store, Facts, number)
    if row is None or row.offset_dx is None:
        return None
    return (
        row.offset_dx,
        row.offset_dy,
        row.offset_method,
        row.defects,
        row.saturation_column,
    )


def test_stored_on_first_show_and_read_afterwards(store, calls):
    assert stored(store, Invariants, 17) is None
    first = service.show(store, "W000017")
    assert len(calls) == 1
    row = stored(store, Invariants, 17)
    assert row.version == invariants.VERSION and row.data == first["invariants"]
    assert service.show(store, "W000017") == first
    # Another process (a new store on the same database) reads it too.
    other = service.Store(Settings.load(store.settings.database_url))
    try:
        assert service.show(other, "W000017") == first
    finally:
        other.dispose()
    assert len(calls) == 1


def test_nothing_applies_is_stored_as_empty(store, calls):
    assert service.show(store, "W000022")["invariants"] == {}
    assert stored(store, Invariants, 22).data == {}
    service.show(store, "W000022")
    assert len(calls) == 1 and offset_row(store, 22) is None


def test_an_older_version_is_recomputed(store, calls):
    fresh = service.show(store, "W000017")["invariants"]
    with store.sessions.begin() as session:
        row = session.get(Invariants, 17)
        row.version = invariants.VERSION - 1
        row.data = {"offset": {"value": {"dx": 99, "dy": 99}}}
    again = service.show(store, "W000017")
    assert len(calls) == 2 and again["invariants"] == fresh
    assert again["offset"] == {"dx": 12, "dy": 7}
    row = stored(store, Invariants, 17)
    assert (row.version, row.data) == (invariants.VERSION, fresh)
    service.show(store, "W000017")
    assert len(calls) == 2


def test_a_new_recipe_version_recomputes(store, calls, monkeypatch):
    service.show(store, "W000016")
    monkeypatch.setattr(invariants, "VERSION", invariants.VERSION + 1)
    service.show(store, "W000016")
    assert len(calls) == 2
    assert stored(store, Invariants, 16).version == invariants.VERSION


def test_offsets_row_for_altered_games_only(store):
    for wid in ("W000001", "W000002", "W000016", "W000017", "W000004", "W000022"):
        service.show(store, wid)
    assert offset_row(store, 17) == (12, 7, "theorem-2", 50, 8)
    assert offset_row(store, 16) == (0, 0, "theorem-3", 4, 7)
    assert offset_row(store, 2) == (0, 0, "theorem-3", 0, 2)
    assert offset_row(store, 1) == (0, 0, "theorem-3", 0, 0)
    assert offset_row(store, 4) is None and offset_row(store, 22) is None
    # The columns agree with what show prints.
    doc = service.show(store, "W000016")
    assert offset_row(store, 16)[:2] == (doc["offset"]["dx"], doc["offset"]["dy"])


def test_clear_results_drops_them(store, calls):
    service.show(store, "W000017")
    with store.sessions.begin() as session:
        repo.clear_results(session, session.get(Entry, 17))
    assert stored(store, Invariants, 17) is None and offset_row(store, 17) is None
    assert service.show(store, "W000017")["defects"] == 50
    assert len(calls) == 2 and offset_row(store, 17) is not None


def test_an_edited_seed_definition_drops_and_recomputes_them(store, calls, tmp_path):
    assert service.show(store, "W000017")["offset"] == {"dx": 12, "dy": 7}
    edited = json.loads((seed_dir() / "W000017.json").read_text())
    edited["definition"]["alter"]["P_boxes"] = [[0, 0, 4, 6]]  # Box(4,6)
    (tmp_path / "W000017.json").write_text(json.dumps(edited))
    assert service.seed(store, tmp_path)["updated"] == ["W000017"]
    assert stored(store, Invariants, 17) is None and offset_row(store, 17) is None
    doc = service.show(store, "W000017")
    # Theorem 2: Box(a, b) has offset (b - 1, a - 1).
    assert doc["offset"] == {"dx": 5, "dy": 3} and len(calls) == 2
    assert offset_row(store, 17)[:3] == (5, 3, "theorem-2")
    # Changing only the name keeps them.
    edited["name"] = "Box(4,6) altered Wythoff"
    (tmp_path / "W000017.json").write_text(json.dumps(edited))
    assert service.seed(store, tmp_path)["updated"] == ["W000017"]
    assert service.show(store, "W000017")["offset"] == {"dx": 5, "dy": 3}
    assert len(calls) == 2


def test_an_edit_during_the_first_computation_is_not_stored_stale(
    store, monkeypatch, tmp_path
):
    """The definition changes while its invariants are being computed: the
    old game's values must not be stored (or shown) for the new one."""
    edited = json.loads((seed_dir() / "W000017.json").read_text())
    edited["definition"]["alter"]["P_boxes"] = [[0, 0, 4, 6]]  # Box(4,6)
    (tmp_path / "W000017.json").write_text(json.dumps(edited))
    real = invariants.compute
    definitions = []

    def compute_then_edit(definition):
        definitions.append(definition)
        data = real(definition)
        if len(definitions) == 1:
            service.seed(store, tmp_path)  # the edit lands mid-computation
        return data

    monkeypatch.setattr(invariants, "compute", compute_then_edit)
    assert service.show(store, "W000017")["offset"] == {"dx": 5, "dy": 3}
    assert len(definitions) == 2
    assert stored(store, Invariants, 17).data["offset"]["value"] == {"dx": 5, "dy": 3}


def test_concurrent_first_reads_both_succeed(store, monkeypatch):
    """Both readers find nothing stored, compute, and write at once: the row
    is an upsert, so neither write fails on the primary key (on PostgreSQL
    both are in flight together; SQLite serializes the writers), and one row
    holds the (equal) result."""
    both_computed = threading.Barrier(2, timeout=60)
    real = invariants.compute

    def compute(definition):
        data = real(definition)
        both_computed.wait()  # both have looked for the row: both write
        return data

    monkeypatch.setattr(invariants, "compute", compute)
    errors = []

    def handle_error(context):
        errors.append(type(context.sqlalchemy_exception).__name__)

    event.listen(store.engine, "handle_error", handle_error)
    results, failures = [], []

    def read():
        try:
            results.append(service.show(store, "W000017"))
        except Exception as exc:  # noqa: BLE001  (reported below)
            failures.append(exc)

    threads = [threading.Thread(target=read) for _ in range(2)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
    finally:
        event.remove(store.engine, "handle_error", handle_error)
    assert failures == [] and len(results) == 2
    assert results[0] == results[1] and results[0]["defects"] == 50
    assert errors == []
    with store.sessions() as session:
        rows = session.scalars(select(Invariants.entry_id)).all()
    assert rows == [17] and offset_row(store, 17) == (12, 7, "theorem-2", 50, 8)


def test_a_catalog_stored_before_far_out_gets_it(store, calls):
    """Version 1 had no ``far_out``: a row stored then is recomputed on the
    next show, so an existing catalog gains the item."""
    fresh = service.show(store, "W000004")["invariants"]
    assert fresh["far_out"]["status"] == "theorem" and invariants.VERSION >= 2
    with store.sessions.begin() as session:
        row = session.get(Invariants, 4)
        row.version = 1
        row.data = {k: v for k, v in fresh.items() if k != "far_out"}
    again = service.show(store, "W000004")
    assert len(calls) == 2 and again["invariants"] == fresh
    assert stored(store, Invariants, 4).version == invariants.VERSION
