"""Alembic environment: the catalog's tables, on the catalog's database."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from catalog.config import Settings
from catalog.store import job_model  # noqa: F401  (its table, in the metadata)
from catalog.store.db import make_engine
from catalog.store.tables import metadata

config = context.config
target_metadata = metadata


def run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        # SQLite cannot ALTER most things: batch mode copies the table instead.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        run(connection)
        return
    engine = config.attributes.get("engine")
    if engine is not None:
        with engine.begin() as connection:
            run(connection)
        return
    url = config.get_main_option("sqlalchemy.url") or Settings.load().database_url
    engine = make_engine(url)
    with engine.connect() as connection:
        run(connection)
    engine.dispose()


if context.is_offline_mode():
    raise SystemExit("offline migrations are not supported: give a database URL")
run_migrations_online()
