"""Closed-loop HTTP load: ``connections`` clients, each sending its next
request as soon as the previous answer has been read in full (what wrk does).

Used by ``benchmarks/api.py`` when wrk is not installed (:func:`wrk` runs
wrk when it is). Each request opens its own connection (gunicorn's sync
workers close after every answer), and its latency runs from the connect to
the last byte of the answer, so it counts the wait for a free worker. The
client runs in one asyncio loop in its own process; on a small machine it
takes a share of the CPU from the server, as wrk would.
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np


@dataclass
class Result:
    seconds: float
    latencies_ms: np.ndarray
    statuses: Counter[int]
    errors: list[str] = field(default_factory=list)
    #: Requests that got no answer (refused, reset).
    lost: int = 0
    #: Latencies by label (the kind of request), for the breakdown.
    by_label: dict[str, list[float]] = field(default_factory=dict)

    @property
    def requests(self) -> int:
        return len(self.latencies_ms)

    @property
    def rate(self) -> float:
        return self.requests / self.seconds

    def percentile(self, q: float) -> float:
        return float(np.percentile(self.latencies_ms, q))

    @property
    def failures(self) -> int:
        bad = sum(n for status, n in self.statuses.items() if status >= 400)
        return bad + self.lost


async def _get(host: str, port: int, path: str) -> tuple[int, bytes]:
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n"
            "Connection: close\r\n\r\n".encode()
        )
        await writer.drain()
        data = await reader.read()
    finally:
        writer.close()
    status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else 0
    return status, data


async def _run(
    host: str,
    port: int,
    requests: list[tuple[str, str]],
    seconds: float,
    connections: int,
) -> Result:
    latencies: list[float] = []
    by_label: dict[str, list[float]] = {}
    statuses: Counter[int] = Counter()
    errors: list[str] = []
    lost = 0
    # Client i takes requests i, i + connections, ...: every client walks the
    # same fixed sequence, so a run is repeatable.
    stop = time.perf_counter() + seconds

    async def client(index: int) -> None:
        nonlocal lost
        position = index
        while time.perf_counter() < stop:
            label, path = requests[position % len(requests)]
            position += connections
            begin = time.perf_counter()
            try:
                status, _ = await _get(host, port, path)
            except OSError as exc:
                lost += 1
                if len(errors) < 20:
                    errors.append(f"{path}: {exc}")
                continue
            elapsed = (time.perf_counter() - begin) * 1000
            statuses[status] += 1
            if status >= 400 and len(errors) < 20:
                errors.append(f"{path}: HTTP {status}")
            latencies.append(elapsed)
            by_label.setdefault(label, []).append(elapsed)

    begin = time.perf_counter()
    await asyncio.gather(*(client(i) for i in range(connections)))
    spent = time.perf_counter() - begin
    return Result(spent, np.array(latencies), statuses, errors, lost, by_label)


def run(
    host: str,
    port: int,
    requests: list[tuple[str, str]],
    seconds: float,
    connections: int = 16,
) -> Result:
    """Send ``requests`` ((label, path) pairs, in turn) for ``seconds``."""
    return asyncio.run(_run(host, port, requests, seconds, connections))


def millis(text: str) -> float:
    found = re.fullmatch(r"([\d.]+)(us|ms|s)", text)
    assert found is not None, text
    value, unit = found.groups()
    return float(value) * {"us": 1e-3, "ms": 1.0, "s": 1e3}[unit]


def wrk(host: str, port: int, paths: list[str], seconds: int, connections: int):
    """wrk over ``paths`` in turn (a Lua script): requests/s, p99 ms, errors."""
    with tempfile.TemporaryDirectory() as folder:
        listing = Path(folder) / "paths.txt"
        listing.write_text("".join(p + "\n" for p in paths))
        script = Path(folder) / "paths.lua"
        script.write_text(
            "local paths = {}\n"
            f'for line in io.lines("{listing}") do paths[#paths + 1] = line end\n'
            "local i = 0\n"
            "request = function()\n"
            "  i = i % #paths + 1\n"
            '  return wrk.format("GET", paths[i])\n'
            "end\n"
        )
        out = subprocess.run(
            [
                "wrk",
                "-t2",
                f"-c{connections}",
                f"-d{seconds}s",
                "--latency",
                "-s",
                str(script),
                f"http://{host}:{port}",
            ],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    print(out)
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p99 = millis(re.search(r"99%\s+(\S+)", out).group(1))  # type: ignore[union-attr]
    errors = re.search(r"(Non-2xx or 3xx responses|Socket errors):.*", out)
    return rate, p99, errors.group(0) if errors else None


def hello(environ: dict, start_response) -> list[bytes]:  # type: ignore[type-arg]
    """The least a WSGI app can do: the server's and the client's own cost,
    the ceiling the catalog's app is measured against."""
    body = b'{"hello": "world"}'
    start_response(
        "200 OK",
        [("Content-Type", "application/json"), ("Content-Length", str(len(body)))],
    )
    return [body]
