"""A seeded app per backend for the page tests (they only read)."""

import pytest

from tests.api.conftest import make_app
from tests.conftest import BACKENDS, new_database_url


@pytest.fixture(scope="module", params=BACKENDS)
def app(request, tmp_path_factory):
    url = new_database_url(request.param, request, tmp_path_factory.mktemp("pages"))
    app = make_app(url)
    yield app
    app.extensions["catalog"].dispose()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def fresh_app(fresh_url):
    """A seeded catalog of its own, for tests that add entries."""
    app = make_app(fresh_url)
    yield app
    app.extensions["catalog"].dispose()
