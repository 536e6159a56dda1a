"""Fixtures: every store test runs on SQLite and on the PostgreSQL server.

PostgreSQL comes from ``WYTHOFF_TEST_POSTGRES_URL`` (default: the local server,
database ``test``); each run creates and drops databases of its own. When the
server is missing the PostgreSQL tests are skipped with the reason, except
under ``CI=true``, where that fails the run.
"""

from __future__ import annotations

import compileall
import os
from collections.abc import Iterator

import pytest
from click.testing import CliRunner
from sqlalchemy import create_engine, text
from sqlalchemy.orm import Session, sessionmaker

from catalog.store.db import make_engine, upgrade_to_head
from catalog.store.seed import load_seeds
from tests.databases import Databases, Template, rolled_back, seeded

ADMIN_URL = os.environ.get(
    "WYTHOFF_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]
#: A watchdog behind every test's time limit, for a kernel that never returns.
pytest_plugins = ["tests.watchdog"]


def _postgres_admin():
    engine = create_engine(ADMIN_URL, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text("select 1"))
    except Exception as exc:  # noqa: BLE001  (any failure means: no server)
        engine.dispose()
        reason = (
            f"PostgreSQL server not reachable at {ADMIN_URL}: {exc.__class__.__name__}"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(reason + " (required under CI=true)")
        pytest.skip(reason)
    return engine


def pytest_sessionstart(session):
    """In the controller, before the workers start: write the catalog's
    bytecode, and with pytest-xdist compile the kernels so that the workers
    load them from numba's cache (:mod:`tests.kernels`).

    The bytecode is for the ``wythoff`` processes the tests start: an
    editable install writes it on first import, unless
    ``PYTHONDONTWRITEBYTECODE`` is set (as on CI machines), and then every
    process would compile the catalog's sources again."""
    config = session.config
    if hasattr(config, "workerinput"):
        return
    import catalog.cli

    for folder in {*catalog.__path__, *catalog.cli.__path__}:
        compileall.compile_dir(folder, quiet=1)
    if config.getoption("numprocesses", 0):
        from tests import bounds
        from tests.kernels import warm

        bounds.start(config)  # on the core the compiling leaves idle
        warm()


def pytest_sessionfinish(session):
    if not hasattr(session.config, "workerinput"):
        from tests import bounds

        bounds.stop()


def pytest_collection_modifyitems(items):
    """Tests marked ``long`` (seconds each) run first, and the workers share
    out the rest behind them: one left for last would end the run alone."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


def pytest_report_header(config):
    return f"PostgreSQL for store tests: {ADMIN_URL} (CI={os.environ.get('CI', '')})"


@pytest.fixture(scope="session")
def postgres_admin(databases):
    engine = _postgres_admin()
    yield engine
    # The drops still due run on this engine: disposing it under one of
    # them would leave that connection open.
    databases.drop_all()
    engine.dispose()


@pytest.fixture(scope="session")
def databases(tmp_path_factory) -> Iterator[Databases]:
    """Makes the tests' databases; its templates are built once per session."""
    made = Databases(tmp_path_factory.mktemp("templates"), ADMIN_URL)
    yield made
    made.close()


def new_database_url(
    backend: str,
    request: pytest.FixtureRequest,
    tmp_path,
    template: Template | None = None,
) -> str:
    """A URL of a new database, empty or a copy of ``template`` (e.g.
    ``databases.seeded``), dropped when the test (or module, or session) ends."""
    admin = request.getfixturevalue("postgres_admin") if backend != "sqlite" else None
    made = request.getfixturevalue("databases")
    url, drop = made.new(backend, tmp_path, admin, template)
    request.addfinalizer(drop)
    return url


@pytest.fixture(params=BACKENDS)
def fresh_url(request, tmp_path) -> str:
    """An empty database of each backend, for one test."""
    return new_database_url(request.param, request, tmp_path)


@pytest.fixture(params=BACKENDS)
def seeded_url(request, tmp_path) -> str:
    """A seeded catalog of each backend (nothing computed), for one test: a
    copy of one seeded per session."""
    return new_database_url(request.param, request, tmp_path, seeded)


@pytest.fixture(scope="session", params=BACKENDS)
def engine(request, tmp_path_factory):
    """A migrated database of each backend, shared by the session's tests."""
    url = new_database_url(request.param, request, tmp_path_factory.mktemp("db"))
    engine = make_engine(url)
    upgrade_to_head(engine)
    yield engine
    engine.dispose()


@pytest.fixture
def maker(engine) -> Iterator[sessionmaker[Session]]:
    """Sessions inside one outer transaction that is rolled back afterwards:
    their commits only release savepoints."""
    with rolled_back(engine) as sessions:
        yield sessions


@pytest.fixture
def db_session(maker) -> Iterator[Session]:
    with maker() as session:
        yield session


@pytest.fixture
def seeded_session(db_session) -> Session:
    load_seeds(db_session)
    db_session.flush()
    return db_session


@pytest.fixture
def runner(tmp_path, monkeypatch) -> CliRunner:
    """A CLI runner whose default database lives in a temporary folder."""
    monkeypatch.setenv("WYTHOFF_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("WYTHOFF_DATABASE_URL", raising=False)
    return CliRunner()
