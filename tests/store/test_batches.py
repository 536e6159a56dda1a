"""Seeding in batches (``service.compute_many``): many entries in one
transaction hold exactly what computing them one at a time holds, and an
interrupted batch leaves nothing of itself; on both databases."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from catalog import service
from catalog.config import Settings
from catalog.service import entries as entries_service
from catalog.store import repository as repo
from catalog.store import search
from catalog.store.tables import search_postings
from tests.cli.test_db_copy import dump
from tests.conftest import BACKENDS, new_database_url
from tests.databases import migrated

#: Tables whose rows hold times or numbers of their own making.
UNSTABLE = {"search_segments", "search_postings"}
N = 400


def logical(url: str) -> dict:
    """The catalog's rows, times left out, and the index as (kind, gram,
    entry) triples whatever its segments."""
    tables = dump(url)
    out = {
        name: [tuple(v for v in row if not hasattr(v, "tzinfo")) for row in rows]
        for name, rows in tables.items()
        if name not in UNSTABLE
    }
    store = service.Store(Settings.load(url))
    try:
        with store.reading() as conn:
            rows = conn.execute(
                select(
                    search_postings.c.kind,
                    search_postings.c.gram,
                    search_postings.c.entries,
                )
            ).all()
    finally:
        store.dispose()
    lists = search._unpack_many([r[2] for r in rows])
    out["index"] = sorted(
        {
            (k, g, e)
            for (k, g, _), got in zip(rows, lists, strict=True)
            for e in got.tolist()
        }
    )
    return out


def fresh(backend: str, request, tmp_path, name: str) -> str:
    folder = tmp_path / name
    folder.mkdir()
    return new_database_url(backend, request, folder, migrated)


def seeded(url: str, families) -> list[str]:
    """The seeds and the box family (a, b <= 5: the members come in the
    same order whatever the range), rows only: the first 40 IDs."""
    store = service.Store(Settings.load(url))
    store.families = families(box=5)  # type: ignore[misc]
    try:
        report = service.seed_families(store, ["box"])
        return list(
            dict.fromkeys(report["added"] + report["updated"] + report["unchanged"])
        )[:40]
    finally:
        store.dispose()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_batch_holds_what_one_at_a_time_holds(
    backend, request, tmp_path, monkeypatch, family_sets
):
    urls = [fresh(backend, request, tmp_path, name) for name in ("one", "batched")]
    ids = seeded(urls[0], family_sets)
    assert seeded(urls[1], family_sets) == ids
    store = service.Store(Settings.load(urls[0]))
    try:
        for wid in ids:
            service.compute(store, wid, N)
            service.entry_invariants(store, service.entry_number(store, wid))
    finally:
        store.dispose()
    monkeypatch.setattr(entries_service, "BATCH_ENTRIES", 8)
    store = service.Store(Settings.load(urls[1]))
    done = []
    try:
        service.compute_many(store, ids, N, done.append)
    finally:
        store.dispose()
    assert sum(done) == len(ids)
    one, batched = logical(urls[0]), logical(urls[1])
    assert one.keys() == batched.keys()
    for table in one:
        assert one[table] == batched[table], table
    # Cross-references between entries of the same batch were found too
    # (Box(1,1), forcing (0,0) P, is Wythoff's Nim, W000001).
    store = service.Store(Settings.load(urls[1]))
    try:
        with store.sessions() as session:
            assert repo.xref_ids(session, 1) != []
    finally:
        store.dispose()


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_interrupted_batch_leaves_nothing_and_runs_again(
    backend, request, tmp_path, monkeypatch, family_sets
):
    whole_url, url = (fresh(backend, request, tmp_path, n) for n in ("whole", "again"))
    ids = seeded(whole_url, family_sets)
    seeded(url, family_sets)
    monkeypatch.setattr(entries_service, "BATCH_ENTRIES", 8)
    store = service.Store(Settings.load(whole_url))
    try:
        service.compute_many(store, ids, N)
    finally:
        store.dispose()
    seen = []

    def stop(step):
        seen.append(step)
        if len(seen) == 12:  # four entries into the second batch
            raise KeyboardInterrupt

    store = service.Store(Settings.load(url))
    try:
        with pytest.raises(KeyboardInterrupt):
            service.compute_many(store, ids, N, stop)
        with store.reading() as conn:
            filled = conn.exec_driver_sql("SELECT entry_id FROM extents").all()
            jobs = conn.exec_driver_sql("SELECT count(*) FROM jobs").scalar()
        # The first batch whole, nothing of the second.
        first = {service.entry_number(store, w) for w in ids[:8]}
        assert {e for (e,) in filled} == first
        assert jobs == 8
        service.compute_many(store, ids, N)
    finally:
        store.dispose()
    whole, again = logical(whole_url), logical(url)
    for table in whole:
        assert again[table] == whole[table], table


def test_seeding_vacuums_the_index_every_so_many_entries_and_at_the_end(
    request, tmp_path, monkeypatch, family_sets
):
    url = fresh("postgresql", request, tmp_path, "vacuumed")
    ids = seeded(url, family_sets)[:20]
    calls: list[str] = []
    real = search.vacuum
    monkeypatch.setattr(
        search,
        "vacuum",
        lambda engine: calls.append(engine.dialect.name) or real(engine),
    )
    monkeypatch.setattr(search, "VACUUM_ENTRIES", 8)
    monkeypatch.setattr(entries_service, "BATCH_ENTRIES", 4)
    store = service.Store(Settings.load(url))
    try:
        service.compute_many(store, ids, 200)
    finally:
        store.dispose()
    # Batches of 4: after the 8th, 16th and the last (20th) entry.
    assert calls == ["postgresql"] * 3
