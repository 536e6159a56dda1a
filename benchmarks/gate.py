"""A public server under heavy clients: a reader's latency, and the quota.

Run: ``make bench-gate`` (or ``python benchmarks/gate.py``); needs Redis
(127.0.0.1:6379, or ``--redis URL``) and gunicorn (``.[server]``).

A catalog is seeded into a temporary SQLite file and served by gunicorn as
the deployment docs say (4 sync workers, the quota in Redis, ``127.0.0.1``
a trusted proxy so that each simulated client can name itself in
``X-Forwarded-For``). Then:

1. **Alone**: one reader fetches ``/api/v1/entries/W000001`` in a loop.
2. **Under load**: the same reader beside ``--heavy`` clients (32), each
   its own address, looping on the heaviest requests the API allows: Grundy
   tables near the budget (a new n each time, so the cache cannot answer),
   fills near the budget (a new bound each time), and identify's search on
   random data (it runs to its time limit). First each heavy client waits
   as ``Retry-After`` says after a 429, as the notebook client does. Goals:
   the reader's p99 <= 50 ms, no 5xx for anyone, heavy clients answered
   429 (or 202) past their quota and the compute slots. Then each sends
   its next request at once, ignoring ``Retry-After``: a flood of requests,
   which no application server on 2 cores absorbs (each refusal costs
   about what a read costs); its figures are reported, and the deployment
   docs stop such clients at the proxy (a request rate per address).
3. **One client, two ways of counting**: one client loops on Grundy tables
   (a new n each time) for ``--quota-seconds``; the estimated seconds it is
   granted per minute are summed, once with the quota in Redis and once
   counted per process. Goal: with Redis, at most the quota a minute (plus
   one request) however its connections land on the 4 workers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

import numpy as np
from api import gunicorn

from catalog import service
from catalog.compute import cost, grundy
from catalog.config import Settings
from catalog.errors import CatalogError
from catalog.service.positions import estimate
from catalog.service.store import entry_game

READ = "/api/v1/entries/W000001"
QUOTA = 30.0
BUDGET = 2.0


async def request(
    port: int, method: str, path: str, client: str, body: bytes = b""
) -> tuple[int, dict[str, str]]:
    """One HTTP/1.1 request on its own connection: status and headers."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"X-Forwarded-For: {client}\r\nConnection: close\r\n"
        )
        if body:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        writer.write(head.encode() + b"\r\n" + body)
        await writer.drain()
        data = await reader.read()
    finally:
        writer.close()
    lines = data.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1]) if lines[0].startswith("HTTP/") else 0
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers


class Work:
    """The heavy requests: each call draws a new one (label, method, path,
    body, estimated seconds)."""

    def __init__(self, url: str, seed: int) -> None:
        self.random = random.Random(seed)
        store = service.Store(Settings.load(url))
        self.grundy: list[tuple[str, int, int, object]] = []
        self.fills: list[tuple[str, int]] = []
        try:
            for number in range(1, 26):
                wid = f"W{number:06d}"
                _, game = entry_game(store, wid)
                if not game.altered:
                    try:
                        grundy.check(game)
                        top = max(
                            n
                            for n in range(100, 3000, 50)
                            if cost.grundy_seconds(game, n) <= 0.9 * BUDGET
                        )
                    except (ValueError, CatalogError):
                        top = 0
                    if top >= 300:
                        self.grundy.append((wid, top // 2, top, game))
                n = 1000
                while n < 10**7 and estimate(store, wid, 2 * n) < BUDGET:
                    n *= 2
                if estimate(store, wid, n) > 0.2:
                    self.fills.append((wid, n))
        finally:
            store.dispose()
        self.used: set[tuple[str, int]] = set()

    def grundy_request(self) -> tuple[str, str, str, bytes, float]:
        wid, low, high, game = self.random.choice(self.grundy)
        while True:
            n = self.random.randint(low, high)
            if (wid, n) not in self.used:
                self.used.add((wid, n))
                break
        seconds = cost.grundy_seconds(game, n)  # type: ignore[arg-type]
        return "grundy", "GET", f"/api/v1/entries/{wid}/grundy?n={n}", b"", seconds

    def draw(self) -> tuple[str, str, str, bytes, float]:
        kind = self.random.choice(["grundy", "fill", "identify"])
        if kind == "grundy" or (kind == "fill" and not self.fills):
            return self.grundy_request()
        if kind == "fill":
            wid, top = self.random.choice(self.fills)
            n = self.random.randint(top // 2, top)
            path = f"/api/v1/entries/{wid}/p-positions?n={n}&limit=1"
            return "fill", "GET", path, b"", 0.0
        n = self.random.randint(60, 120)
        cells = [
            [x, y]
            for x in range(n)
            for y in range(n)
            if (x, y) == (0, 0) or self.random.random() < 0.08
        ]
        body = json.dumps({"positions": cells, "n": n}).encode()
        return "identify", "POST", "/api/v1/identify", body, 0.0


async def load(
    port: int, work: Work | None, heavy: int, seconds: float, obey: bool
) -> tuple[list[float], Counter[tuple[str, int]]]:
    """The reader's latencies (ms) and every answer's (label, status)."""
    stop = time.perf_counter() + seconds
    statuses: Counter[tuple[str, int]] = Counter()
    reads: list[float] = []

    async def reader() -> None:
        while time.perf_counter() < stop:
            begin = time.perf_counter()
            status, _ = await request(port, "GET", READ, "192.0.2.1")
            reads.append((time.perf_counter() - begin) * 1000)
            statuses["read", status] += 1
            await asyncio.sleep(0.01)

    async def client(index: int) -> None:
        address = f"198.51.{index // 250}.{index % 250 + 1}"
        assert work is not None
        while time.perf_counter() < stop:
            label, method, path, body, _ = work.draw()
            try:
                status, headers = await request(port, method, path, address, body)
            except OSError:
                status, headers = 0, {}
            statuses[label, status] += 1
            if obey and status in (429, 503) and "retry-after" in headers:
                await asyncio.sleep(min(float(headers["retry-after"]), 60))

    await asyncio.gather(reader(), *(client(i) for i in range(heavy)))
    return reads, statuses


async def one_client(port: int, work: Work, seconds: float) -> float:
    """Estimated seconds granted to one client looping on Grundy tables."""
    stop = time.perf_counter() + seconds
    granted = 0.0
    while time.perf_counter() < stop:
        _, method, path, body, estimate = work.grundy_request()
        status, headers = await request(port, method, path, "203.0.113.77", body)
        if status == 200:
            granted += estimate
        elif status == 429:
            await asyncio.sleep(0.2)
    return granted


def show(reads: list[float], statuses: Counter[tuple[str, int]]) -> tuple[float, int]:
    p50, p99 = np.percentile(reads, 50), np.percentile(reads, 99)
    print(f"    reader: {len(reads)} reads, p50 {p50:.1f} ms, p99 {p99:.1f} ms")
    for label in sorted({label for label, _ in statuses}):
        counts = {s: c for (lab, s), c in sorted(statuses.items()) if lab == label}
        print(f"    {label:9} " + ", ".join(f"{s}: {c}" for s, c in counts.items()))
    fives = sum(c for (_, s), c in statuses.items() if s >= 500 or s == 0)
    return float(p99), fives


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--heavy", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--quota-seconds", type=float, default=90)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--workers", type=int, default=4)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'catalog.sqlite3'}"
        store = service.Store(Settings.load(url))
        service.seed(store)
        service.compute(store, "W000001", 2000)
        store.dispose()
        work = Work(url, seed=7)
        print(
            f"heavy requests: Grundy tables of {len(work.grundy)} entries, fills "
            f"of {len(work.fills)}, identify on random data (n = 60..120)"
        )
        env = {
            **os.environ,
            "WYTHOFF_DATABASE_URL": url,
            "WYTHOFF_QUOTA_STORAGE": args.redis,
            "WYTHOFF_QUOTA_NAMESPACE": f"bench-{uuid.uuid4().hex}",
            "WYTHOFF_TRUSTED_PROXIES": "127.0.0.1",
            "WYTHOFF_COMPUTE_SLOTS_DIR": str(Path(folder) / "slots"),
        }
        checks = []
        with gunicorn("catalog.api:create_app()", env, args.workers, READ) as (
            _,
            port,
        ):
            print("1. the reader alone (10 s)")
            reads, statuses = asyncio.run(load(port, None, 0, 10, False))
            show(reads, statuses)
            for obey in (True, False):
                how = "waiting Retry-After" if obey else "ignoring Retry-After"
                print(
                    f"2. beside {args.heavy} heavy clients {how} ({args.seconds:g} s)"
                )
                reads, statuses = asyncio.run(
                    load(port, work, args.heavy, args.seconds, obey)
                )
                p99, fives = show(reads, statuses)
                refused = sum(c for (_, s), c in statuses.items() if s in (429, 202))
                checks += [
                    (fives == 0, f"{how}: {fives} answers 5xx or lost"),
                    (refused > 0, f"{how}: {refused} heavy answers 429 or 202"),
                ]
                if obey:  # the goal; a flood of requests is the proxy's to stop
                    checks.append((p99 <= 50, f"{how}: reader p99 {p99:.1f} <= 50 ms"))
                else:
                    print(f"    (reported, not a goal: reader p99 {p99:.1f} ms)")
            print(f"3. one client on Grundy tables, quota in Redis ({QUOTA:g} s/min)")
            granted = asyncio.run(one_client(port, work, args.quota_seconds))
            rate = granted / args.quota_seconds * 60
            print(f"    granted {granted:.1f} s of estimated work: {rate:.1f} s/min")
            checks.append(
                (rate <= QUOTA * 1.1 + BUDGET, f"{rate:.1f} s/min <= quota {QUOTA:g}")
            )
        env.pop("WYTHOFF_QUOTA_STORAGE")
        with gunicorn("catalog.api:create_app()", env, args.workers, READ) as (
            _,
            port,
        ):
            print("   the same, counted per process (no quota store)")
            granted = asyncio.run(one_client(port, work, args.quota_seconds))
            rate = granted / args.quota_seconds * 60
            print(f"    granted {granted:.1f} s of estimated work: {rate:.1f} s/min")
    for ok, line in checks:
        print(("  ok   " if ok else "  MISS ") + line)
    return 0 if all(ok for ok, _ in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
