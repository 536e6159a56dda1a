"""The schema comes only from Alembic, and models and migrations agree."""

from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import insert, inspect, select

from catalog.store.db import (
    alembic_config,
    head_revision,
    make_engine,
    make_sessionmaker,
    upgrade_to_head,
)
from catalog.store.fill import fill
from catalog.store.models import Base, SearchGram
from catalog.store.seed import load_seeds


def test_the_head_read_from_file_names_is_alembics():
    # Opening an up-to-date catalog compares with head_revision() and so
    # never imports Alembic; a migration named out of order would break that.
    script = ScriptDirectory.from_config(alembic_config())
    assert script.get_heads() == [head_revision()]
    revisions = sorted(r.revision for r in script.walk_revisions())
    assert revisions == [f"{k:04d}" for k in range(1, len(revisions) + 1)]


def test_upgrade_check_downgrade_upgrade(fresh_url):
    engine = make_engine(fresh_url)
    try:
        with engine.begin() as connection:
            cfg = alembic_config(engine)
            cfg.attributes["connection"] = connection
            command.upgrade(cfg, "head")
            # Fails with "New upgrade operations detected" if models drifted.
            command.check(cfg)
        assert set(Base.metadata.tables) <= set(inspect(engine).get_table_names())
        with engine.begin() as connection:
            cfg.attributes["connection"] = connection
            command.downgrade(cfg, "base")
        assert inspect(engine).get_table_names() == ["alembic_version"]
        with engine.begin() as connection:
            cfg.attributes["connection"] = connection
            command.upgrade(cfg, "head")
        assert set(Base.metadata.tables) <= set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_0006_rebuilds_the_bit_rows_of_the_search_index(fresh_url):
    """A catalog indexed the old way (16-bit grams, kind 5) gets the bit
    sequences' runs (kind 6) on upgrade, the same rows a fill writes."""
    engine = make_engine(fresh_url)
    try:
        upgrade_to_head(engine)
        maker = make_sessionmaker(engine)
        with maker.begin() as session:
            load_seeds(session)
        fill(maker, 4, 300)  # Maharaja Nim: its y, a, b, b-a and bits
        rows = select(SearchGram.gram, SearchGram.entry_id, SearchGram.position)
        with engine.connect() as conn:
            written = set(conn.execute(rows.where(SearchGram.kind == 6)).all())
        assert written
        with engine.begin() as connection:
            cfg = alembic_config(engine)
            cfg.attributes["connection"] = connection
            command.downgrade(cfg, "0005")
            connection.execute(
                insert(SearchGram),
                [{"gram": 1, "entry_id": 4, "kind": 5, "position": 0}],
            )
            command.upgrade(cfg, "head")
        with engine.connect() as conn:
            assert set(conn.execute(rows.where(SearchGram.kind == 6)).all()) == written
            assert conn.execute(rows.where(SearchGram.kind == 5)).all() == []
    finally:
        engine.dispose()
