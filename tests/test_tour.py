"""The tour notebook (docs/tour.ipynb) runs, cell by cell, against a real
server, as a reader would run it: it never rots."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from catalog import service
from tests.api.conftest import make_app, serve
from tests.conftest import new_database_url
from tests.databases import seeded

TOUR = Path(__file__).resolve().parent.parent / "docs" / "tour.ipynb"


@pytest.fixture
def server(request, tmp_path):
    app = make_app(new_database_url("sqlite", request, tmp_path, seeded), False)
    store = app.extensions["catalog"]
    service.seed_families(store, ["box"])
    service.compute(store, "W000001", 100)  # as wythoff seed would have
    base, stop = serve(app)
    yield base
    stop()
    app.extensions["catalog"].dispose()


def test_the_tour_runs_against_a_live_server(server, monkeypatch, tmp_path):
    monkeypatch.setenv("WYTHOFF_TOUR_URL", server)
    notebook = nbformat.read(TOUR, as_version=4)
    NotebookClient(
        notebook,
        timeout=100,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    ).execute()
    outputs = [
        "".join(o.get("data", {}).get("text/plain", "") for o in cell.outputs)
        for cell in notebook.cells
        if cell.cell_type == "code"
    ]
    assert outputs[0] == f"Catalog({server!r})"
    assert "Maharaja Nim" in outputs[1] and "deviations" in outputs[1]
    assert outputs[3].startswith("('N', True)")
    assert outputs[5].count("box.") == 5  # the first five members, no more
    assert "W000001" in outputs[6]
    errors = [
        o
        for cell in notebook.cells
        for o in cell.get("outputs", [])
        if o.get("output_type") == "error"
    ]
    assert errors == []
