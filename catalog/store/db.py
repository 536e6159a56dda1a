"""Engines, sessions and migrations.

The schema comes only from the Alembic history shipped in the ``migrations``
package; :func:`upgrade_to_head` runs it, which is what first use does.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker


def make_engine(url: str, **kwargs: Any) -> Engine:
    """An engine for ``url``; an SQLite file's folder is created if missing."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        # Writers wait for each other instead of failing with "database is locked".
        kwargs.setdefault("connect_args", {"timeout": 60})
        engine = create_engine(parsed, **kwargs)
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    kwargs.setdefault("pool_pre_ping", True)
    return create_engine(parsed, **kwargs)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # pysqlite's own transaction handling defers BEGIN and breaks SAVEPOINT;
    # turn it off and let SQLAlchemy emit BEGIN itself (SQLAlchemy's pysqlite
    # "serializable isolation / savepoints" recipe).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.close()


def _sqlite_begin(connection: Any) -> None:
    # Write transactions ask for "BEGIN IMMEDIATE" (catalog.store.fill.writing).
    mode = connection.get_execution_options().get("sqlite_begin", "")
    connection.exec_driver_sql(f"BEGIN {mode}".strip())


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(bind=engine, expire_on_commit=False)


def alembic_config(engine: Engine | None = None) -> Config:
    """An Alembic config for the shipped migrations, bound to ``engine``."""
    cfg = Config()
    cfg.set_main_option("script_location", str(files("migrations")))
    if engine is not None:
        cfg.set_main_option(
            "sqlalchemy.url", engine.url.render_as_string(hide_password=False)
        )
        cfg.attributes["engine"] = engine
    return cfg


def upgrade_to_head(engine: Engine) -> None:
    """Create or migrate the schema to the newest revision."""
    with engine.begin() as connection:
        cfg = alembic_config(engine)
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "head")
