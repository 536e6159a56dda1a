"""An empty catalog at the schema's head, for the store tests that write;
family sets with narrower ranges, loaded once per module."""

from __future__ import annotations

import pytest

from catalog import service
from catalog.config import Settings
from catalog.families import load_families
from tests.conftest import BACKENDS, new_database_url
from tests.databases import migrated
from tests.store.narrowed import small_families


@pytest.fixture(params=BACKENDS)
def migrated_url(request, tmp_path) -> str:
    """An empty database of each backend at the schema's head, for one test:
    a copy of one migrated per session (a store opened on it has no
    migration to run)."""
    return new_database_url(request.param, request, tmp_path, migrated)


@pytest.fixture(scope="module")
def family_sets(tmp_path_factory):
    """Family sets by their ranges, loaded once per module: their members
    are expanded once, not once per store (a store only reads them)."""
    folder = tmp_path_factory.mktemp("families")
    made = {}

    def get(**ranges):
        key = tuple(sorted(ranges.items()))
        if key not in made:
            made[key] = (
                small_families(folder / str(len(made)), **ranges)
                if ranges
                else load_families()
            )
        return made[key]

    return get


@pytest.fixture
def store(seeded_url):
    """The service's store on a seeded catalog of each backend."""
    store = service.Store(Settings.load(seeded_url))
    yield store
    store.dispose()
