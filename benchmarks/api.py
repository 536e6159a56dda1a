"""Throughput of the read API: a stored 1000-position page under load.

Run: ``make bench-api`` (or ``python benchmarks/api.py``); needs gunicorn
(``pip install '.[server]'``) and wrk (``apt-get install wrk``). It seeds a
catalog in a temporary SQLite file, stores Maharaja Nim up to n = 20000,
starts gunicorn with 2 workers on loopback and runs wrk against one page.
Goals: >= 500 requests/s, p99 latency < 50 ms, no errors. Exit 1 if missed.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from catalog import service
from catalog.config import Settings

PAGE = "/api/v1/entries/W000004/p-positions?n=20000&start=5000&limit=1000"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(url: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                response.read()
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the server did not answer {url}")


def millis(text: str) -> float:
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", text).groups()
    return float(value) * {"us": 1e-3, "ms": 1.0, "s": 1e3}[unit]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="disable the rendered-page cache: every request reads the store",
    )
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed: apt-get install wrk")
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'catalog.sqlite3'}"
        store = service.Store(Settings(url))
        service.seed(store)
        service.compute(store, "W000004", 20_000)
        store.dispose()
        port = free_port()
        env = {**os.environ, "WYTHOFF_DATABASE_URL": url}
        if args.no_cache:
            env["WYTHOFF_RESPONSE_CACHE_BYTES"] = "0"
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "-w",
                "2",
                "-b",
                f"127.0.0.1:{port}",
                "--log-level",
                "warning",
                "catalog.api:create_app()",
            ],
            env=env,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            wait_for(base + PAGE)
            out = subprocess.run(
                [
                    "wrk",
                    "-t2",
                    f"-c{args.connections}",
                    f"-d{args.seconds}s",
                    "--latency",
                    base + PAGE,
                ],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(out)
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99 = millis(re.search(r"99%\s+(\S+)", out).group(1))
    errors = re.search(r"(Non-2xx or 3xx responses|Socket errors):.*", out)
    failures = []
    for ok, text in [
        (rate >= 500, f"{rate:.0f} requests/s (goal >= 500)"),
        (p99 < 50, f"p99 {p99:.1f} ms (goal < 50 ms)"),
        (errors is None, "no errors" if errors is None else errors.group(0)),
    ]:
        print(("  ok   " if ok else "  MISS ") + text)
        if not ok:
            failures.append(text)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
