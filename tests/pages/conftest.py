"""A seeded app per backend for the page tests (they only read)."""

import pytest

from tests.api.conftest import make_app
from tests.conftest import BACKENDS, new_database_url
from tests.databases import seeded


@pytest.fixture(scope="module", params=BACKENDS)
def app(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp("pages")
    app = make_app(new_database_url(request.param, request, folder, seeded), False)
    yield app
    app.extensions["catalog"].dispose()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def fresh_app(seeded_url):
    """A seeded catalog of its own, for tests that add entries."""
    app = make_app(seeded_url, False)
    yield app
    app.extensions["catalog"].dispose()
