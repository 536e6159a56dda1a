"""Database faults seen through the API: a JSON 503 with ``Retry-After``,
a read retried once on a fresh connection, and no stale cached page."""

from __future__ import annotations

import json
import time

import pytest
from sqlalchemy import event, text

from catalog import p_positions, service
from catalog.api import create_app
from catalog.store.seed import seed_dir
from tests.api.conftest import make_app
from tests.cli.test_db_faults import closed_port, corrupted
from tests.conftest import new_database_url
from tests.databases import seeded

WYTHOFF_URL = "/api/v1/entries/W000001/p-positions?n=60"


@pytest.mark.parametrize(
    "build",
    [
        pytest.param(
            lambda t: f"postgresql+psycopg://postgres:pw@127.0.0.1:{closed_port()}/x",
            id="closed port",
        ),
        pytest.param(corrupted, id="corrupted file"),
        pytest.param(
            lambda t: f"sqlite:///file:{t}/none.sqlite3?mode=ro&uri=true",
            id="missing read-only file",
        ),
    ],
)
def test_an_unavailable_database_is_a_json_503(tmp_path, build):
    app = create_app({"DATABASE_URL": build(tmp_path), "MIGRATE": False})
    response = app.test_client().get("/api/v1/entries/W000001")
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "10"
    error = response.get_json()["error"]
    assert error.startswith("database ") and "\n" not in error
    assert "pw@" not in error


def test_a_read_only_database_answers_reads_and_503_for_writes(request, tmp_path):
    new_database_url("sqlite", request, tmp_path, seeded)  # a seeded catalog
    path = tmp_path / "catalog.sqlite3"
    app = create_app(
        {"DATABASE_URL": f"sqlite:///file:{path}?mode=ro&uri=true", "MIGRATE": True}
    )
    client = app.test_client()
    assert client.get("/api/v1/entries/W000004").status_code == 200
    response = client.get("/api/v1/entries/W000004/p-positions?n=500")  # computes
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "10"
    assert "read-only" in response.get_json()["error"]


# --- terminated connections (PostgreSQL) ----------------------------------


@pytest.fixture
def pg_app(request, tmp_path):
    app = make_app(new_database_url("postgresql", request, tmp_path, seeded), False)
    yield app
    app.extensions["catalog"].dispose()


def terminate(admin, pid: int | None = None, database: str | None = None) -> int:
    """Terminate one backend (or every backend of ``database``) and wait
    until it is gone; the number terminated."""
    with admin.connect() as conn:
        if pid is None:
            pids = conn.scalars(
                text(
                    "SELECT pid FROM pg_stat_activity WHERE datname = :d"
                    " AND pid <> pg_backend_pid()"
                ),
                {"d": database},
            ).all()
        else:
            pids = [pid]
        for p in pids:
            conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": p})
        for _ in range(500):  # until the server has let them go
            alive = conn.scalar(
                text("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(:p)"),
                {"p": list(pids)},
            )
            if not alive:
                break
            time.sleep(0.01)
        return len(pids)


def terminate_before(app, admin, starts: tuple[str, ...]) -> list[int]:
    """Once, just before the app sends a statement starting with ``starts``,
    terminate the backend that is about to run it. Returns the pids killed."""
    engine = app.extensions["catalog"].engine
    killed: list[int] = []

    def hook(conn, _cursor, statement, *_args):
        if not killed and statement.lstrip().upper().startswith(starts):
            killed.append(conn.connection.dbapi_connection.info.backend_pid)
            terminate(admin, killed[0])

    event.listen(engine, "before_cursor_execute", hook)
    return killed


@pytest.mark.postgres
def test_connections_terminated_between_requests(pg_app, postgres_admin):
    client = pg_app.test_client()
    first = client.get(WYTHOFF_URL)
    database = pg_app.extensions["catalog"].engine.url.database
    assert terminate(postgres_admin, database=database) >= 1
    again = client.get("/api/v1/entries/W000001/p-positions?n=61")  # not cached
    assert (first.status_code, again.status_code) == (200, 200)
    assert (
        again.get_json()["positions"]
        == p_positions({"rays": [[1, 0], [0, 1], [1, 1]]}, 61).tolist()
    )


@pytest.mark.postgres
def test_a_read_whose_connection_is_terminated_is_retried(pg_app, postgres_admin):
    client = pg_app.test_client()
    expected = client.get("/api/v1/entries/W000002").get_json()
    killed = terminate_before(pg_app, postgres_admin, ("SELECT",))
    response = client.get("/api/v1/entries/W000002")
    assert len(killed) == 1  # the request lost its connection once
    assert response.status_code == 200
    assert response.get_json() == expected


@pytest.mark.postgres
def test_a_write_whose_connection_is_terminated_is_a_503(pg_app, postgres_admin):
    client = pg_app.test_client()
    url = "/api/v1/entries/W000004/p-positions?n=5000"  # computes: writes
    killed = terminate_before(pg_app, postgres_admin, ("INSERT", "UPDATE"))
    response = client.get(url)
    assert len(killed) == 1
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "10"
    error = response.get_json()["error"]
    assert "connection lost" in error and "\n" not in error
    # The next request gets a fresh connection and the whole answer.
    again = client.get(url)
    assert again.status_code == 200
    maharaja = json.loads((seed_dir() / "W000004.json").read_text())["definition"]
    assert again.get_json()["positions"] == p_positions(maharaja, 5000).tolist()


# --- the page cache follows edits -----------------------------------------


def test_a_cached_page_is_not_served_after_a_seed_edits_the_entry(fresh_app, tmp_path):
    client = fresh_app.test_client()
    before = client.get(WYTHOFF_URL)
    assert before.status_code == 200
    folder = tmp_path / "seeds"
    folder.mkdir()
    seed = json.loads((seed_dir() / "W000001.json").read_text())
    seed["definition"]["moves"] = [[8, 13], [13, 8]]  # (8,13) is no longer P
    (folder / "W000001.json").write_text(json.dumps(seed))
    report = service.seed(fresh_app.extensions["catalog"], folder)
    assert report["updated"] == ["W000001"]
    after = client.get(WYTHOFF_URL)
    assert after.status_code == 200
    assert after.get_json()["positions"] == p_positions(seed["definition"], 60).tolist()
    assert after.get_json() != before.get_json()
