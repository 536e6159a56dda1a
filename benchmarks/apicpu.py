"""CPU per request of the read API in this process, without a server.

``benchmarks/api.py --mix --profile`` runs this on each catalog of the mix:
the app of ``create_app()`` is called as a WSGI callable (as gunicorn's
worker calls it, minus the socket) on environs built beforehand, over a
warm-up mix and then the measured one; the CPU time of this process
(``time.process_time``) is divided by the requests, in all and by kind. It
is the app's own share of a served request: a server adds its parsing and
the socket (the baseline's cost), the load client its own, and PostgreSQL
its backend's CPU, not counted here. ``--cprofile FILE`` also writes a
cProfile of a second pass to FILE.<database> (``python -m pstats``).
"""

from __future__ import annotations

import cProfile
import time
from collections import defaultdict
from typing import Any

from werkzeug.test import EnvironBuilder

from catalog.api import create_app


def _environ(path: str) -> dict[str, Any]:
    builder = EnvironBuilder(path=path, base_url="http://127.0.0.1:8000")
    try:
        return builder.get_environ()
    finally:
        builder.close()


def _call(app: Any, environ: dict[str, Any]) -> str:
    """One request, its body read in full; the status line."""
    status: list[str] = []

    def start_response(line: str, _headers: Any, _exc: Any = None) -> None:
        status.append(line)

    body = app(dict(environ), start_response)
    try:
        for _ in body:
            pass
    finally:
        close = getattr(body, "close", None)
        if close is not None:
            close()
    return status[0]


def cpu_per_request(
    url: str,
    requests: list[tuple[str, str]],
    warm: list[tuple[str, str]],
    profile: str | None = None,
    config: dict[str, Any] | None = None,
) -> tuple[float, dict[str, float]]:
    """CPU ms per request over ``requests`` after ``warm``, in all and by
    label; raises if any answer is not 200."""
    app = create_app({"DATABASE_URL": url, **(config or {})})
    try:
        for _, path in warm:
            _call(app, _environ(path))
        prepared = [(label, _environ(path)) for label, path in requests]
        spent: dict[str, float] = defaultdict(float)
        counts: dict[str, int] = defaultdict(int)
        bad = []
        begin = time.process_time()
        for label, environ in prepared:
            start = time.process_time()
            status = _call(app, environ)
            spent[label] += time.process_time() - start
            counts[label] += 1
            if not status.startswith("200"):
                bad.append(f"{environ['PATH_INFO']}: {status}")
        total = time.process_time() - begin
        if bad:
            raise SystemExit(f"{len(bad)} requests failed: {'; '.join(bad[:3])}")
        if profile:
            profiler = cProfile.Profile()
            profiler.enable()
            for _, environ in prepared:
                _call(app, environ)
            profiler.disable()
            profiler.dump_stats(profile)
    finally:
        app.extensions["catalog"].dispose()
    by_label = {k: 1000 * spent[k] / counts[k] for k in sorted(spent)}
    return 1000 * total / len(prepared), by_label


def report(
    label: str,
    url: str,
    requests: list[tuple[str, str]],
    warm: list[tuple[str, str]],
    args: Any,
) -> None:
    profile = f"{args.cprofile}.{label}" if args.cprofile else None
    config = {"RESPONSE_CACHE_BYTES": 0} if args.no_cache else None
    total, by_label = cpu_per_request(url, requests, warm, profile, config)
    print(f"  in-process CPU: {total:.2f} ms per request ({len(requests)} requests)")
    for kind, ms in by_label.items():
        print(f"    {kind:10} {ms:6.2f} ms")
    if profile:
        print(f"  cProfile of a second pass: {profile}")
