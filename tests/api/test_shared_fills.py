"""Identical fills asked at once are shared (catalog.store.fill): sixteen
concurrent requests for a new entry compute once and all answer 200, with
one compute slot and a quota room for one computation. Real concurrent
HTTP requests against ``wythoff serve`` and gunicorn, in processes of their
own, on SQLite and PostgreSQL."""

import os
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from contextlib import contextmanager

import pytest

from tests.api.shared import (
    LIMIT,
    N,
    add_game,
    assert_shared,
    estimate,
    fetch_all,
    join,
)
from tests.api.test_gate import redis_url  # noqa: F401  (a fixture)


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def started(command, env, port):
    """Run ``command`` until it answers on ``port``; yields its base URL."""
    server = subprocess.Popen(command, env={**os.environ, **env})
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    try:
        while True:
            try:
                with urllib.request.urlopen(
                    f"{base}/api/v1/entries/W000001", timeout=5
                ):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"{command[2]} did not start") from None
                time.sleep(0.2)
        yield base
    finally:
        server.terminate()
        server.wait(60)


def server_env(tmp_path, **more):
    """One compute slot of the server's own (as on 2 cores), and a quota
    room for one computation of the game's, not two. The budget is 10 s,
    not 2: the estimate is the same (about 1 s), but the time a request may
    take, its own computation or a wait for another's, is 5 budgets, and
    this fill took over 10 s beside the whole suite (a load of about 16 on
    2 cores)."""
    return {
        "WYTHOFF_INLINE_SECONDS": "10",
        "WYTHOFF_COMPUTE_SLOTS": "1",
        "WYTHOFF_COMPUTE_SLOTS_DIR": str(tmp_path / "slots"),
        "WYTHOFF_QUOTA_SECONDS": f"{1.5 * estimate():.2f}",
        "WYTHOFF_QUOTA_NAMESPACE": f"test-{uuid.uuid4().hex}",
        **more,
    }


#: A server's start (migrating, loading the kernels, in 4 gunicorn
#: workers at once) took over a minute beside the whole suite on 2 cores.
SLOW_START = pytest.mark.timeout(360)


@pytest.mark.long
@SLOW_START
def test_identical_requests_to_wythoff_serve_share_one_fill(seeded_url, tmp_path):
    wid = add_game(seeded_url)
    port = free_port()
    command = [sys.executable, "-m", "catalog.cli", "serve", "--db", seeded_url]
    env = server_env(tmp_path)
    with started([*command, "--port", str(port)], env, port) as base:
        url = f"{base}/api/v1/entries/{wid}/p-positions?n={N}&limit={LIMIT}"
        threads, answers = fetch_all(url)
        join(threads)
    assert_shared(answers, seeded_url, wid)


@pytest.mark.long
@SLOW_START
def test_identical_requests_to_gunicorn_share_one_fill(
    seeded_url,
    tmp_path,
    redis_url,  # noqa: F811
):
    wid = add_game(seeded_url)
    port = free_port()
    # --timeout: the README's rule (tests/api/test_bounded.py) for a budget
    # of 10 s (server_env): 2 x (a wait of 5 budgets + 5 budgets + 5 s).
    command = [sys.executable, "-m", "gunicorn", "-w", "4", "--timeout", "210"]
    command += ["-b", f"127.0.0.1:{port}", "catalog.api:create_app()"]
    env = server_env(
        tmp_path,
        WYTHOFF_DATABASE_URL=seeded_url,
        WYTHOFF_QUOTA_STORAGE=redis_url,
    )
    with started(command, env, port) as base:
        url = f"{base}/api/v1/entries/{wid}/p-positions?n={N}&limit={LIMIT}"
        threads, answers = fetch_all(url)
        join(threads)
    assert_shared(answers, seeded_url, wid)
