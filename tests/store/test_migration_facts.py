"""Migration 0005 fills ``facts`` for a catalog that already has entries."""

from __future__ import annotations

from alembic import command
from sqlalchemy import select

from catalog import service
from catalog.config import Settings
from catalog.store.db import alembic_config
from catalog.store.models import Facts


def facts(store):
    with store.sessions() as session:
        rows = session.scalars(select(Facts).order_by(Facts.entry_id)).all()
        return {
            row.entry_id: {
                c.name: getattr(row, c.name)
                for c in Facts.__table__.columns
                if c.name != "entry_id"
            }
            for row in rows
        }


def migrate(store, revision, down=False):
    with store.engine.begin() as connection:
        cfg = alembic_config(store.engine)
        cfg.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(cfg, revision)


def test_facts_of_existing_entries_survive_0004_to_0005(seeded_url):
    store = service.Store(Settings.load(seeded_url))
    try:
        for wid in ("W000001", "W000004", "W000017", "W000024", "W000003"):
            service.compute(store, wid, 300)
            service.show(store, wid)  # the invariants
        before = facts(store)
        assert before[4]["deviation_min"] == -4 and before[24]["adjoined_same"]
        assert before[1]["xref_class"] == 1 and before[17]["symmetric"] is False
        migrate(store, "0004", down=True)
        migrate(store, "head")
        after = facts(store)
        # A symmetric game is recognised by its stored a_n; other entries'
        # symmetry is unknown until they are filled further.
        expected = {
            number: {
                **row,
                "symmetric": True if row["symmetric"] else None,
            }
            for number, row in before.items()
        }
        assert after == expected
    finally:
        store.dispose()
