"""Engines, sessions and migrations, and what a database fault means to a user.

The schema comes only from the Alembic history shipped in the ``migrations``
package; :func:`upgrade_to_head` runs it, which is what first use does.

Every engine made here turns the faults of the database itself (it cannot be
reached, opened or written; the connection was lost) into
:class:`~catalog.errors.DatabaseUnavailable`, whose one-line message names the
database without its password. Errors of the statements (a unique key, bad
data) stay SQLAlchemy's, for the code that expects them.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from sqlalchemy import Connection, Engine, create_engine, event, exc, inspect, text
from sqlalchemy.engine import URL, ExceptionContext, make_url

from catalog.errors import BadInput, Busy, DatabaseUnavailable

if TYPE_CHECKING:
    from alembic.config import Config
    from sqlalchemy.orm import Session, sessionmaker

#: What the read functions of the store take: a Session, or a bare
#: Connection on the read paths (the CLI's show and is-p, the API's reads:
#: no ORM state, and ``sqlalchemy.orm`` is not even imported).
Reader: TypeAlias = "Session | Connection"

#: Seconds a PostgreSQL connection attempt may take (unless the URL sets one).
CONNECT_TIMEOUT = 10
#: Seconds an SQLite writer waits for another one before giving up.
SQLITE_BUSY_TIMEOUT = 60


class ConnectionLost(DatabaseUnavailable):
    """The database connection broke under a statement (a restart, a
    terminated backend); a fresh connection may work (503)."""


def safe_url(url: URL | str) -> str:
    """``url`` as it may be shown: the password replaced by ``***``."""
    return make_url(url).render_as_string(hide_password=True)


def make_engine(url: str | URL, **kwargs: Any) -> Engine:
    """An engine for ``url``; an SQLite file's folder is created if missing.

    Raises :class:`BadInput` for a URL that names no usable database (not a
    URL, an unknown scheme, a missing driver, a folder) and
    :class:`DatabaseUnavailable` when an SQLite file's folder cannot be made.
    """
    try:
        parsed = make_url(url)
    except exc.ArgumentError:
        # The text is not echoed: it may hold a password.
        raise BadInput(
            "database URL cannot be parsed; write e.g. sqlite:///catalog.sqlite3"
            " or postgresql+psycopg://user@host/db"
        ) from None
    shown = safe_url(parsed)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        kwargs.setdefault("connect_args", {"timeout": SQLITE_BUSY_TIMEOUT})
        uri = parsed.query.get("uri") == "true"  # file:…?mode=ro and such
        if parsed.database and parsed.database != ":memory:" and not uri:
            path = Path(parsed.database).expanduser()
            if path.is_dir():
                raise BadInput(f"database {shown}: is a folder, not an SQLite file")
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise DatabaseUnavailable(
                    f"database {shown}: cannot create its folder"
                    f" ({error.strerror or error})"
                ) from None
    else:
        kwargs.setdefault("pool_pre_ping", True)
        if backend == "postgresql" and "connect_timeout" not in parsed.query:
            args = kwargs.setdefault("connect_args", {})
            args.setdefault("connect_timeout", CONNECT_TIMEOUT)
    try:
        engine = create_engine(parsed, **kwargs)
    except exc.NoSuchModuleError:
        hint = " (PostgreSQL: postgresql+psycopg://)" if backend == "postgres" else ""
        raise BadInput(
            f"database {shown}: unknown scheme {parsed.drivername!r}{hint};"
            " the catalog knows sqlite:/// and postgresql+psycopg://"
        ) from None
    except ImportError as error:
        raise BadInput(
            f"database {shown}: the driver for {parsed.drivername!r} is not"
            f" installed ({error.name or error})"
        ) from None
    event.listen(engine, "handle_error", _translator(shown))
    event.listen(engine, "before_cursor_execute", _note_writes)
    if backend == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
    return engine


#: SQLite's messages that mean the file, not the statement, is at fault.
_SQLITE_FAULTS = (
    "unable to open database file",
    "file is not a database",
    "database disk image is malformed",
    "readonly database",
    "disk i/o error",
    "database or disk is full",
)


def _translator(shown: str) -> Any:
    def translate(context: ExceptionContext) -> None:
        if context.is_pre_ping:
            return  # the pool reconnects by itself
        error = context.sqlalchemy_exception
        original = context.original_exception
        reason = str(original).strip().splitlines()[0] if str(original) else ""
        reason = reason.removeprefix("connection failed: ")
        if context.is_disconnect:
            raise ConnectionLost(f"database {shown}: connection lost ({reason})")
        if getattr(original, "sqlstate", None) == "25006":  # read-only transaction
            raise DatabaseUnavailable(f"database {shown}: read-only ({reason})")
        if not isinstance(error, exc.OperationalError | exc.InterfaceError) and (
            type(error) is not exc.DatabaseError
        ):
            return
        if context.dialect.name == "sqlite":
            lowered = reason.lower()
            if "database is locked" in lowered:
                raise Busy(f"database {shown}: locked by another writer; try again")
            if "readonly" in lowered:
                raise DatabaseUnavailable(
                    f"database {shown}: read-only (the file or its folder cannot"
                    " be written)"
                )
            if any(fault in lowered for fault in _SQLITE_FAULTS):
                raise DatabaseUnavailable(f"database {shown}: {reason}")
        if context.connection is None:  # could not connect at all
            raise DatabaseUnavailable(f"database {shown}: cannot connect ({reason})")

    return translate


#: Whether the current request (thread or task) has sent a statement that
#: writes; see :func:`tracking_writes`.
_WROTE: ContextVar[list[bool] | None] = ContextVar("wrote", default=None)
_READS = ("SELECT", "BEGIN", "PRAGMA", "SAVEPOINT", "RELEASE", "ROLLBACK", "COMMIT")


def _note_writes(
    _conn: Any, _cursor: Any, statement: str, *_args: Any, **_kwargs: Any
) -> None:
    flag = _WROTE.get()
    if flag is not None and not flag[0]:
        words = statement.lstrip()[:16].upper()
        flag[0] = not words.startswith(_READS) or "IMMEDIATE" in words


@contextmanager
def tracking_writes() -> Iterator[list[bool]]:
    """``[wrote]``: becomes ``[True]`` once a statement that writes is sent
    within the block (so a caller knows whether a retry would repeat a write)."""
    flag = [False]
    token = _WROTE.set(flag)
    try:
        yield flag
    finally:
        _WROTE.reset(token)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # pysqlite's own transaction handling defers BEGIN and breaks SAVEPOINT;
    # turn it off and let SQLAlchemy emit BEGIN itself (SQLAlchemy's pysqlite
    # "serializable isolation / savepoints" recipe).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    mode = cursor.execute("PRAGMA journal_mode").fetchone()[0]
    if mode != "wal":  # a write: only when the file is not in WAL mode yet
        cursor.execute("PRAGMA journal_mode=WAL")
    # In WAL mode a commit is then written to the log without waiting for
    # the disk (SQLite's advice for WAL): a killed process loses nothing it
    # committed and the file is never corrupt; a power cut may lose the
    # last commits, whole. An fsync at every commit was most of a small
    # fill's time.
    cursor.execute("PRAGMA synchronous=NORMAL")
    # Room for a batch of entries' pages (64 MiB, taken only as used): a
    # transaction larger than the cache spills pages to the log before its
    # commit and writes them again when they change.
    cursor.execute("PRAGMA cache_size=-65536")
    # Savepoints' journals (a batch's sessions) and sorts in memory, not in
    # temporary files: they were most of the bytes a seed wrote.
    cursor.execute("PRAGMA temp_store=MEMORY")
    cursor.close()


def _sqlite_begin(connection: Any) -> None:
    # Write transactions ask for "BEGIN IMMEDIATE" (:func:`writing`).
    mode = connection.get_execution_options().get("sqlite_begin", "")
    if mode:
        connection.exec_driver_sql(f"BEGIN {mode}")
    else:
        # A read's BEGIN takes no lock and touches no file: sent as is, it
        # costs a tenth of a statement sent through the engine (which would
        # only note that it does not write).
        connection.connection.driver_connection.execute("BEGIN")


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    from sqlalchemy.orm import sessionmaker  # the writes' (the ORM's) alone

    return sessionmaker(bind=engine, expire_on_commit=False)


@contextmanager
def writing(maker: sessionmaker[Session]) -> Iterator[Session]:
    """A write transaction. On SQLite it takes the write lock at BEGIN, so
    concurrent writers queue on the busy timeout instead of failing when a
    read transaction tries to turn into a write."""
    with maker.begin() as session:
        session.connection(execution_options={"sqlite_begin": "IMMEDIATE"})
        yield session


def dialect_insert(session: Session) -> Any:
    """The INSERT with ``ON CONFLICT`` of the session's database."""
    return insert_of(session.get_bind().dialect.name)


def insert_of(dialect: str) -> Any:
    """The INSERT with ``ON CONFLICT`` of the database ``dialect``."""
    # Imported here, and only the one needed: loading the PostgreSQL dialect
    # costs 30 ms of a command's start, and only a write needs it.
    if dialect == "postgresql":
        from sqlalchemy.dialects import postgresql

        return postgresql.insert
    from sqlalchemy.dialects import sqlite

    return sqlite.insert


def alembic_config(engine: Engine | None = None) -> Config:
    """An Alembic config for the shipped migrations, bound to ``engine``.

    The engine travels in ``attributes``, never as a ``sqlalchemy.url`` option:
    Alembic's options are a ConfigParser, which reads ``%`` (as in an escaped
    password) as interpolation.
    """
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(files("catalog.migrations")))
    if engine is not None:
        cfg.attributes["engine"] = engine
    return cfg


def head_revision() -> str:
    """The newest shipped revision, read from the migrations' file names
    (``NNNN_what_it_does.py``, numbered in order; a test checks that this
    is Alembic's own head), so that opening a catalog that is up to date
    does not import Alembic."""
    names = files("catalog.migrations").joinpath("versions").iterdir()
    return max(n.name[:4] for n in names if n.name[:4].isdigit())


def _stored_revisions(engine: Engine) -> set[str]:
    with engine.connect() as connection:
        if not inspect(connection).has_table("alembic_version"):
            return set()
        rows = connection.execute(text("SELECT version_num FROM alembic_version"))
        return {row[0] for row in rows}


#: Key of the PostgreSQL advisory lock that serialises migrations.
_MIGRATION_LOCK = zlib.crc32(b"wythoff-catalog migrations")


def upgrade_to_head(engine: Engine) -> None:
    """Create or migrate the schema to the newest revision.

    A database already at the newest revision is only read (so a read-only
    one can still be used). Otherwise the upgrade holds the write lock
    (SQLite) or an advisory lock (PostgreSQL), so that processes starting
    together on a new database migrate it once, one after the other.
    """
    if _stored_revisions(engine) == {head_revision()}:
        return  # the everyday path: no Alembic import, two small reads
    from alembic import command
    from alembic.util import CommandError

    cfg = alembic_config(engine)
    locked = engine.execution_options(sqlite_begin="IMMEDIATE")
    with locked.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(
                text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK}
            )
        cfg.attributes["connection"] = connection
        try:
            command.upgrade(cfg, "head")
        except CommandError as error:
            raise DatabaseUnavailable(
                f"database {safe_url(engine.url)}: cannot migrate it ({error});"
                " is it a newer catalog's?"
            ) from None
