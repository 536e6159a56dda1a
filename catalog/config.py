"""Settings: where the catalog's database is, and how much work one request may do.

Built once, from ``--db``, ``WYTHOFF_DATABASE_URL`` or the default SQLite file
in the user's data directory, and passed down; nothing reads the environment
at import time.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ENV_URL = "WYTHOFF_DATABASE_URL"
ENV_DATA_DIR = "WYTHOFF_DATA_DIR"
ENV_CHUNK = "WYTHOFF_CHUNK_COLUMNS"
ENV_RESULT_CACHE = "WYTHOFF_RESULT_CACHE_BYTES"

#: The work budget of one API request, in the engine's expected seconds
#: (:mod:`catalog.compute.cost`); ``WYTHOFF_INLINE_SECONDS`` overrides it.
#: A request over it gets a 422 naming the budget and the estimate.
INLINE_SECONDS = 2.0
#: Most seconds a request waits for another process computing the same
#: entry before it answers 503 with ``Retry-After``
#: (``WYTHOFF_CLAIM_WAIT_SECONDS``); for one computing at least the
#: request's n, at least ``OVERRUN`` budgets (what the request's own
#: computation could take).
CLAIM_WAIT_SECONDS = 5.0
#: A request's computation stops (keeping its chunks, answering 503) after
#: this many times the budget: the estimate is checked, not trusted.
OVERRUN = 5


def default_sqlite_url(environ: Mapping[str, str] | None = None) -> str:
    """The embedded catalog: ``catalog.sqlite3`` in the user's data directory.

    ``WYTHOFF_DATA_DIR`` overrides the directory (tests and sandboxes use it).
    """
    environ = os.environ if environ is None else environ
    folder = environ.get(ENV_DATA_DIR)
    if not folder:
        # Imported here: platformdirs loads tempfile, shutil and random,
        # which ``wythoff --help`` never needs.
        import platformdirs

        folder = platformdirs.user_data_dir("wythoff-catalog")
    return f"sqlite:///{Path(folder) / 'catalog.sqlite3'}"


@dataclass(frozen=True)
class Settings:
    """Everything the catalog needs to know about its surroundings."""

    database_url: str
    #: Largest ``n`` a single store/compute request may reach.
    max_compute_n: int = 10_000_000
    #: Columns per stored chunk of P-positions.
    chunk_columns: int = 65_536
    #: Bytes of compressed answers the cache of pure results keeps
    #: (:mod:`catalog.store.results`; 0: none; ``WYTHOFF_RESULT_CACHE_BYTES``).
    result_cache_bytes: int = 256 * 2**20

    @classmethod
    def load(
        cls,
        database_url: str | None = None,
        environ: Mapping[str, str] | None = None,
        **overrides: Any,
    ) -> Settings:
        environ = os.environ if environ is None else environ
        url = database_url or environ.get(ENV_URL) or default_sqlite_url(environ)
        if ENV_CHUNK in environ and "chunk_columns" not in overrides:
            overrides["chunk_columns"] = int(environ[ENV_CHUNK])
        if ENV_RESULT_CACHE in environ and "result_cache_bytes" not in overrides:
            overrides["result_cache_bytes"] = int(environ[ENV_RESULT_CACHE])
        return cls(database_url=url, **overrides)
