"""``wythoff verify``: a clean seeded catalog passes, and each kind of damage
is caught by its own check, on both databases."""

from __future__ import annotations

import json

import numpy as np
import pytest
from sqlalchemy import select, update

from catalog import service
from catalog.cli.main import cli
from catalog.config import Settings
from catalog.store import repository as repo
from catalog.store.models import Invariants, PositionChunk
from tests.conftest import BACKENDS, new_database_url


def computed(url):
    """The seeds, five of them computed to 300 with their invariants."""
    store = service.Store(Settings.load(url))
    service.seed(store)
    for wid in ("W000001", "W000004", "W000016", "W000017", "W000022"):
        service.compute(store, wid, 300)
        service.show(store, wid)  # stores the invariants
    store.dispose()


@pytest.fixture(params=BACKENDS)
def catalog_url(request, tmp_path):
    """A copy of the catalog ``computed`` built once per session."""
    return new_database_url(request.param, request, tmp_path, computed)


@pytest.fixture
def store(catalog_url):
    store = service.Store(Settings.load(catalog_url))
    yield store
    store.dispose()


def checks(store, wid):
    (entry,) = service.verify(store, [wid])["entries"]
    return entry["checks"]


def test_a_clean_catalog_passes(store, runner, catalog_url):
    result = runner.invoke(cli, ["verify", "--json", "--db", catalog_url])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["ok"] and len(doc["entries"]) == 26
    by_id = {e["id"]: e for e in doc["entries"]}
    assert by_id["W000001"]["checks"] == {
        "chunks": "ok",
        "recomputed": "ok",
        "reference": "ok",
        "independent": "ok",
        "symmetric": "ok",
        "invariants": "ok",
    }
    assert by_id["W000017"]["checks"]["symmetric"].startswith("skipped")
    assert by_id["W000017"]["checks"]["independent"] == "ok"
    assert by_id["W000022"]["checks"]["independent"].startswith("skipped")
    assert by_id["W000003"]["checks"]["recomputed"] == "skipped: nothing stored"


def replace_positions(store, number, change):
    """Rewrite the first chunk with ``change(positions)``, valid checksum."""
    with store.sessions.begin() as session:
        chunk = session.scalars(
            select(PositionChunk)
            .where(PositionChunk.entry_id == number)
            .order_by(PositionChunk.x0)
        ).first()
        positions = repo.read_positions(session, number, chunk.x0, chunk.x1)
        repo.write_chunk(
            session, number, chunk.x0, chunk.x1, chunk.y_bound, change(positions)
        )


def test_wrong_positions_fail_recomputed_reference_and_independence(
    store, runner, catalog_url
):
    def add_one(positions):  # (1, 1): on the diagonal of (0, 0)
        out = np.concatenate([positions, [[1, 1]]])
        return out[np.lexsort((out[:, 1], out[:, 0]))]

    replace_positions(store, 1, add_one)
    found = checks(store, "W000001")
    assert found["recomputed"].startswith("failed: in [0, 300) x [0, 485), 1 differ")
    assert "[1, 1] (only stored)" in found["reference"]
    assert found["independent"] == (
        "failed: (1, 2) can move along the ray (0, 1) to a P-position"
    )
    assert found["symmetric"] == "ok" and found["chunks"] == "ok"
    result = runner.invoke(cli, ["verify", "W000001", "W000004", "--db", catalog_url])
    assert result.exit_code == 1
    assert "W000001  FAILED" in result.stdout and "W000004  ok" in result.stdout
    assert result.stdout.rstrip().endswith("some checks FAILED")


def test_a_missing_mirror_image_fails_symmetry(store):
    def drop(positions):
        return positions[~((positions[:, 0] == 3) & (positions[:, 1] == 1))]

    replace_positions(store, 4, drop)  # Maharaja Nim loses (3, 1), keeps (1, 3)
    found = checks(store, "W000004")
    assert found["symmetric"].startswith("failed: in the mirror of [0, 300)²")
    assert "missing from the store" in found["recomputed"]


def test_corrupt_chunk_bytes_fail_the_checksum(store):
    with store.sessions.begin() as session:
        session.execute(
            update(PositionChunk)
            .where(PositionChunk.entry_id == 16)
            .values(checksum="0" * 64)
        )
    assert checks(store, "W000016") == {"chunks": checks(store, "W000016")["chunks"]}
    assert checks(store, "W000016")["chunks"].startswith("failed")


def test_tampered_invariants_fail(store):
    with store.sessions.begin() as session:
        row = session.get(Invariants, 17)
        data = json.loads(json.dumps(row.data))
        data["defects"]["value"] = 49
        row.data = data
    assert checks(store, "W000017")["invariants"] == "failed: differ in defects"
    assert checks(store, "W000016")["invariants"] == "ok"
