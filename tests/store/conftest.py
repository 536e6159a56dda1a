"""An empty catalog at the schema's head, for the store tests that write."""

from __future__ import annotations

import pytest

from tests.conftest import BACKENDS, new_database_url
from tests.databases import migrated


@pytest.fixture(params=BACKENDS)
def migrated_url(request, tmp_path) -> str:
    """An empty database of each backend at the schema's head, for one test:
    a copy of one migrated per session (a store opened on it has no
    migration to run)."""
    return new_database_url(request.param, request, tmp_path, migrated)
