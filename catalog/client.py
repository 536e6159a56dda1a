"""A client for notebooks: ``Catalog(base_url)`` over the read API::

    cat = Catalog("http://127.0.0.1:8000")
    cat.p_positions("W000004", 10_000)[:3]   # array([[0, 0], [1, 3], [2, 6]])

Only the standard library and numpy; ``positions_frame`` needs pandas.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any

import numpy as np


class CatalogError(Exception):
    """The API answered with an error; the message is its ``error`` text."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"{status}: {message}")
        self.status = status


class Catalog:
    """The catalog at ``base_url`` (e.g. ``http://127.0.0.1:8000``)."""

    def __init__(self, base_url: str, page_size: int = 100_000, timeout: float = 300):
        self.base_url = base_url.rstrip("/")
        self.page_size = page_size
        self.timeout = timeout

    def _get(self, path: str, **params: Any) -> Any:
        query = urllib.parse.urlencode(
            {k: v for k, v in params.items() if v is not None}
        )
        url = f"{self.base_url}{path}" + (f"?{query}" if query else "")
        try:
            with urllib.request.urlopen(url, timeout=self.timeout) as response:
                return json.load(response)
        except urllib.error.HTTPError as exc:
            try:
                message = json.load(exc)["error"]
            except (ValueError, KeyError):
                message = exc.reason
            raise CatalogError(exc.code, message) from None

    def entry(self, wid: str) -> dict[str, Any]:
        """The entry document (what ``wythoff show`` prints)."""
        return self._get(f"/api/v1/entries/{wid}")

    def entries(self, keyword: str | None = None) -> Iterator[dict[str, Any]]:
        """Every entry, following the cursor."""
        cursor = None
        while True:
            page = self._get("/api/v1/entries", keyword=keyword, cursor=cursor)
            yield from page["entries"]
            cursor = page["next"]
            if cursor is None:
                return

    def p_positions(self, wid: str, n: int) -> np.ndarray:
        """Every P-position with x, y < n, shape (k, 2), all pages fetched."""
        parts = []
        start = (0, 0)
        while True:
            page = self._get(
                f"/api/v1/entries/{wid}/p-positions",
                n=n,
                start=start[0],
                start_y=start[1],
                limit=self.page_size,
            )
            parts.append(np.asarray(page["positions"], dtype=np.int64).reshape(-1, 2))
            if page["next"] is None:
                break
            query = urllib.parse.parse_qs(urllib.parse.urlparse(page["next"]).query)
            start = (int(query["start"][0]), int(query["start_y"][0]))
        return np.concatenate(parts)

    def is_p(self, wid: str, x: int, y: int) -> dict[str, Any]:
        return self._get(f"/api/v1/entries/{wid}/positions/{x}/{y}")

    def search(self, terms: str | list[int]) -> list[dict[str, Any]]:
        """Entries whose sequences contain ``terms`` (or match words)."""
        if not isinstance(terms, str):
            terms = ",".join(str(t) for t in terms)
        return self._get("/api/v1/search", q=terms)["results"]

    def positions_frame(self, wid: str, n: int):
        """The P-positions as a pandas DataFrame with columns x and y."""
        try:
            import pandas as pd
        except ImportError:
            raise ImportError(
                "positions_frame needs pandas: pip install pandas"
            ) from None
        return pd.DataFrame(self.p_positions(wid, n), columns=["x", "y"])
