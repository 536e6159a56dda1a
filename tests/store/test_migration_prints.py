"""Migration 0008 prints the windows of a catalog that already has entries."""

from __future__ import annotations

from sqlalchemy import select

from catalog import service
from catalog.config import Settings
from catalog.store.tables import window_prints
from tests.store.test_migration_facts import migrate


def prints(store):
    with store.reading() as connection:
        return sorted(connection.execute(select(window_prints)).all())


def test_prints_of_existing_entries_survive_0007_to_0008(seeded_url):
    store = service.Store(Settings.load(seeded_url))
    try:
        for wid in ("W000001", "W000004", "W000017"):
            service.compute(store, wid, 300)
        service.compute(store, "W000012", 5000)  # beyond the largest print
        before = prints(store)
        assert {row.size for row in before} == {2**k for k in range(13)}
        migrate(store, "0007", down=True)
        migrate(store, "head")
        assert prints(store) == before
    finally:
        store.dispose()


def test_reindex_rebuilds_the_prints(seeded_url):
    store = service.Store(Settings.load(seeded_url))
    try:
        for wid in ("W000004", "W000017"):
            service.compute(store, wid, 100)
        before = prints(store)
        with store.engine.begin() as connection:
            connection.execute(window_prints.delete())
        assert prints(store) == []
        service.reindex(store)
        assert prints(store) == before
    finally:
        store.dispose()
