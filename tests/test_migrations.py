"""The schema comes only from Alembic, and models and migrations agree."""

from alembic import command
from sqlalchemy import inspect

from catalog.store.db import alembic_config, make_engine
from catalog.store.models import Base


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
