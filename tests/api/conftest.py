"""A seeded app per backend, and a live HTTP server around an app."""

import tempfile
import threading

import pytest
from werkzeug.serving import make_server

from catalog import service
from catalog.api import create_app
from tests.conftest import BACKENDS, new_database_url
from tests.databases import seeded

#: The gate (catalog.api.gate) stays on, with room for any test's work: a
#: quota no test spends, and slots of the app's own (not the host's, which
#: the test processes beside it would share).
LIMITS = {
    "INLINE_SECONDS": 2,
    "TESTING": True,
    "QUOTA_SECONDS": 100_000,
    "COMPUTE_SLOTS": 32,
}


def make_app(url, seed=True, **config):
    config.setdefault("COMPUTE_SLOTS_DIR", tempfile.mkdtemp(prefix="slots-"))
    app = create_app({"DATABASE_URL": url, **LIMITS, **config})
    if seed:
        service.seed(app.extensions["catalog"])
    return app


@pytest.fixture(scope="module", params=BACKENDS)
def app(request, tmp_path_factory):
    """A seeded catalog, shared by a module's tests (they only read)."""
    folder = tmp_path_factory.mktemp("api")
    app = make_app(new_database_url(request.param, request, folder, seeded), False)
    yield app
    app.extensions["catalog"].dispose()


@pytest.fixture
def client(app):
    return app.test_client()


#: How often a server's loop looks for ``stop()``: socketserver's default,
#: 0.5 s, was half a second of every test that starts a server.
POLL_SECONDS = 0.01


def serve(app, **options):
    """Run ``app`` on a free loopback port (``options`` go to werkzeug's
    ``make_server``); return (base URL, stop)."""
    server = make_server("127.0.0.1", 0, app, **({"threaded": True} | options))
    thread = threading.Thread(
        target=server.serve_forever, args=(POLL_SECONDS,), daemon=True
    )
    thread.start()

    def stop():
        server.shutdown()
        thread.join()

    return f"http://127.0.0.1:{server.server_port}", stop


@pytest.fixture
def fresh_app(seeded_url):
    """A seeded catalog of its own, for tests that write."""
    app = make_app(seeded_url, False, INLINE_SECONDS=10)
    yield app
    app.extensions["catalog"].dispose()
