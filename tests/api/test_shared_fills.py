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
    deadline = time.monotonic() + 90
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
    room for one computation of the game's, not two."""
    return {
        "WYTHOFF_COMPUTE_SLOTS": "1",
        "WYTHOFF_COMPUTE_SLOTS_DIR": str(tmp_path / "slots"),
        "WYTHOFF_QUOTA_SECONDS": f"{1.5 * estimate():.2f}",
        "WYTHOFF_QUOTA_NAMESPACE": f"test-{uuid.uuid4().hex}",
        **more,
    }


@pytest.mark.long
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
def test_identical_requests_to_gunicorn_share_one_fill(
    seeded_url,
    tmp_path,
    redis_url,  # noqa: F811
):
    wid = add_game(seeded_url)
    port = free_port()
    command = [sys.executable, "-m", "gunicorn", "-w", "4", "--timeout", "60"]
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
