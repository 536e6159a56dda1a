"""Against a real HTTP server: 16 concurrent requests, and the client."""

import json
import threading
import urllib.request

import numpy as np
import pytest
from sqlalchemy import func, select

from catalog import p_positions
from catalog.client import Catalog, CatalogError
from catalog.store.job_model import Job
from catalog.store.models import PositionChunk
from catalog.store.seed import read_seed, seed_dir
from tests.api.conftest import serve

MAHARAJA = read_seed(seed_dir() / "W000004.json")["definition"]


#: The concurrent requests ask for the last columns only: each waits for the
#: whole computation to 120000, and its answer is small (16 answers of all
#: 91671 positions were most of the test's time); one reads them all after.
TAIL = 119_000


def test_sixteen_concurrent_requests_compute_once(fresh_app):
    base, stop = serve(fresh_app)
    page = f"{base}/api/v1/entries/W000004/p-positions?n=120000&limit=100000"
    url = f"{page}&start={TAIL}"
    bodies, errors = [None] * 16, []
    barrier = threading.Barrier(16)

    def fetch(i):
        try:
            barrier.wait()
            with urllib.request.urlopen(url, timeout=120) as response:
                bodies[i] = response.read()
        except Exception as exc:  # noqa: BLE001  (collected and asserted below)
            errors.append(repr(exc))

    threads = [threading.Thread(target=fetch, args=(i,)) for i in range(16)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        with urllib.request.urlopen(page, timeout=120) as response:
            whole = json.loads(response.read())
    finally:
        stop()
    assert errors == []
    assert len(set(bodies)) == 1
    body = json.loads(bodies[0])
    expected = p_positions(MAHARAJA, 120000)
    assert body["next"] is None
    assert body["positions"] == expected[expected[:, 0] >= TAIL].tolist()
    assert len(body["positions"]) > 100
    assert whole["next"] is None
    assert np.array_equal(np.array(whole["positions"], dtype=np.int64), expected)
    store = fresh_app.extensions["catalog"]
    with store.sessions() as session:
        jobs = session.scalars(select(Job).where(Job.entry_id == 4)).all()
        assert [(j.state, j.target) for j in jobs] == [("done", 120000)]
        chunks = session.scalar(
            select(func.count())
            .select_from(PositionChunk)
            .where(PositionChunk.entry_id == 4)
        )
        width = store.settings.chunk_columns
        assert chunks == -(-120000 // width)


@pytest.fixture(scope="module")
def live(app):
    base, stop = serve(app)
    yield Catalog(base, page_size=500)
    stop()


def test_client_fetches_every_page(live):
    found = live.p_positions("W000004", 4000)
    assert isinstance(found, np.ndarray) and found.dtype == np.int64
    assert np.array_equal(found, p_positions(MAHARAJA, 4000))


def test_client_entry_entries_is_p(live):
    assert live.entry("W000001")["name"] == "Wythoff's Nim"
    assert [e["id"] for e in live.entries()][:3] == ["W000001", "W000002", "W000003"]
    assert live.is_p("W000001", 3, 5) is True
    with pytest.raises(CatalogError, match="404: no entry W999999"):
        live.entry("W999999")


def test_client_search_finds_computed_terms(live):
    live.p_positions("W000004", 200)
    column = p_positions(MAHARAJA, 200)
    middle = column[(column[:, 0] >= 40) & (column[:, 0] < 48)][:, 1].tolist()
    results = live.search(middle)
    hits = [(r["id"], r["sequence"], r["index"]) for r in results]
    assert ("W000004", "y", 40) in hits


def test_client_data_frame(live):
    try:
        import pandas  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="pip install pandas"):
            live.positions_frame("W000004", 50)
    else:
        frame = live.positions_frame("W000004", 50)
        assert list(frame.columns) == ["x", "y"]
        assert frame.to_numpy().tolist() == p_positions(MAHARAJA, 50).tolist()
