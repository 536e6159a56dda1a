"""Fixtures: every store test runs on SQLite and on the PostgreSQL server.

PostgreSQL comes from ``WYTHOFF_TEST_POSTGRES_URL`` (default: the local server,
database ``test``); each run creates and drops databases of its own. When the
server is missing the PostgreSQL tests are skipped with the reason, except
under ``CI=true``, where that fails the run.
"""

from __future__ import annotations

import compileall
import faulthandler
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


#: Seconds a test may outlive its time limit before the watchdog ends its
#: process: pytest-timeout's signal stops a test that runs Python (a wait, a
#: sleep, a loop), but not one inside a compiled kernel, which holds the GIL
#: and never returns to the interpreter; faulthandler's watchdog thread
#: needs neither, dumps every thread's stack and exits, and the test fails as
#: its worker's crash (pytest-xdist starts a new worker and goes on).
WATCHDOG_GRACE = 30


def _time_limit(item: pytest.Item) -> float:
    marker = item.get_closest_marker("timeout")
    if marker is not None and marker.args:
        return float(marker.args[0])
    return float(item.config.getini("timeout") or 0)


def _stall_file(item: pytest.Item):
    """Where the watchdog writes: the terminal's stderr as it was before
    pytest captured it (its saved descriptor, duplicated once), else a file in
    the run's temporary folder."""
    if _STALL_FILE:
        return _STALL_FILE[0]
    capture = item.config.pluginmanager.getplugin("capturemanager")
    capturing = getattr(capture, "_global_capturing", None)
    saved = getattr(getattr(capturing, "err", None), "targetfd_save", None)
    if isinstance(saved, int):
        _STALL_FILE.append(os.fdopen(os.dup(saved), "w"))
    else:
        folder = item.config._tmp_path_factory.getbasetemp()  # type: ignore[attr-defined]
        _STALL_FILE.append(open(folder / "stalled-tests.txt", "a"))  # noqa: SIM115
    return _STALL_FILE[0]


#: The watchdog's file, opened once a process (faulthandler keeps only its
#: descriptor, which must stay open).
_STALL_FILE: list = []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item):
    limit = _time_limit(item)
    if limit <= 0:
        yield
        return
    faulthandler.dump_traceback_later(
        limit + WATCHDOG_GRACE, exit=True, file=_stall_file(item)
    )
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


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
        from tests.kernels import warm

        warm()


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
