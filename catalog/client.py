"""A client for notebooks: ``Catalog(base_url)`` over the read API::

    cat = Catalog("http://127.0.0.1:8000")
    cat.p_positions("W000004", 10_000)[:3]   # array([[0, 0], [1, 3], [2, 6]])
    cat.search([1, 3, 4, 6])                  # every matching entry, all pages
    cat.table_frame("maharaja", "deviations") # a family's invariant (pandas)
    cat.plot("maharaja.1.2", 200)             # matplotlib

One method per route, each returning plain Python or numpy data and
following the API's pages to the end. Only the standard library and numpy:
the client installs on its own (``pip install ./client``, the
``wythoff-client`` distribution of this repository) or with the catalog;
the frames need pandas and ``plot`` matplotlib. It reads no environment
variable and sets none.

**Windows, not prefixes.** ``p_positions(wid, n)`` is every P-position
(x, y) with x < n *and* y < n: the window of the papers' pictures. It is
not the first n pairs (a_k, b_k): a pair with a_k < n but b_k >= n lies
outside the window (for Wythoff's Nim b_k is about 1.618 a_k), so the
window n holds about 1.24 n positions of the upper and lower halves
together, not n of each. The sequences (``sequence(wid, "a")``) are the
pairs' own terms.

**Integers only.** Coordinates and bounds are Python or numpy integers; a
float (``1e30``) is refused with a clear error instead of silently turning
into 1000000000000000019884624838656.

Every failure raises :class:`CatalogError`: an error the API answered
(``status`` is its HTTP status, the message its ``error`` text) or a server
that could not be reached or answered something that is not the API
(``status`` 503); with the whole catalog installed it is also a
:class:`catalog.errors.CatalogError`. A request that the server queued
(``202 Accepted``, with workers), or asked to come back later (``429`` past
the client's quota of computation or with the server's compute in use,
``503`` while it is busy), is waited for as its ``Retry-After`` says, up to
``timeout`` seconds in all, and then answered as usual; past ``timeout``
the last answer's error is raised.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from numbers import Integral
from typing import Any

import numpy as np

try:  # the whole catalog is installed: one except clause catches both
    from catalog.errors import CatalogError as _Base
except ImportError:  # the client alone (wythoff-client)
    _Base = Exception  # type: ignore[assignment,misc]

#: The API's largest search page and deepest offset, and its largest page of
#: entries (catalog.inputs; a test checks that they agree).
MAX_SEARCH_LIMIT = 1000
MAX_SEARCH_OFFSET = 10_000
MAX_LIST_LIMIT = 1000


class CatalogError(_Base):  # type: ignore[valid-type,misc]
    """The API answered with an error, or could not be reached."""

    status: int

    def __init__(
        self, status: int, message: str, retry_after: int | None = None
    ) -> None:
        super().__init__(f"{status}: {message}")
        self.status = status
        self.retry_after = retry_after


def integer(value: Any, name: str) -> int:
    """``value`` as an int: Python's or numpy's integers, nothing else (a
    float has lost its last digits past 2**53 already)."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        kind = type(value).__name__
        raise TypeError(
            f"{name}: an integer is needed, not {kind} {value!r}"
            + (" (write it as an int: 10**30, not 1e30)" if kind == "float" else "")
        )
    return int(value)


#: The statuses that ask to come back later (with ``Retry-After``).
RETRIED = (429, 503)


class Catalog:
    """The catalog at ``base_url`` (e.g. ``http://127.0.0.1:8000``).

    ``timeout`` bounds each call in seconds, waiting for queued work and
    ``Retry-After`` included; ``page_size`` is the number of positions or
    terms asked for a page; ``api_key`` (sent as ``X-API-Key``) names this
    client to a server that gave it one, for its own quota.
    """

    def __init__(
        self,
        base_url: str,
        page_size: int = 100_000,
        timeout: float = 300,
        api_key: str | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.page_size = page_size
        self.timeout = timeout
        self.api_key = api_key

    def __repr__(self) -> str:
        return f"Catalog({self.base_url!r})"

    # -- HTTP ------------------------------------------------------------

    def _url(self, path: str, params: dict[str, Any] | None = None) -> str:
        query = urllib.parse.urlencode(
            [
                (k, item)
                for k, v in (params or {}).items()
                if v is not None
                for item in (v if isinstance(v, list | tuple) else [v])
            ]
        )
        return f"{self.base_url}{path}" + (f"?{query}" if query else "")

    def _fetch(
        self,
        path: str,
        params: dict[str, Any] | None = None,
        data: bytes | None = None,
    ) -> bytes:
        url = self._url(path, params)
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            try:
                status, headers, body = self._open(url, max(left, 0.001), data)
            except CatalogError as exc:
                # Come back later (a quota, a busy server): wait as it says.
                if exc.status not in RETRIED or exc.retry_after is None:
                    raise
                if time.monotonic() + exc.retry_after > deadline:
                    raise
                time.sleep(exc.retry_after)
                continue
            if status != 202:
                return body
            # Queued for a worker: wait as the server says, then ask again.
            wait = _seconds(headers.get("Retry-After")) or 1.0
            if time.monotonic() + wait > deadline:
                raise CatalogError(
                    503,
                    f"{url} is still being computed after {self.timeout:g} s "
                    f"(job: {headers.get('Location', 'unknown')})",
                    retry_after=int(wait),
                )
            time.sleep(wait)

    def _open(
        self, url: str, timeout: float, data: bytes | None = None
    ) -> tuple[int, Any, bytes]:
        headers = {"X-API-Key": self.api_key} if self.api_key else {}
        if data is not None:
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(url, data=data, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as exc:
            try:
                message = json.loads(exc.read())["error"]
            except (ValueError, KeyError, TypeError):
                message = str(exc.reason)
            retry = _seconds(exc.headers.get("Retry-After"))
            raise CatalogError(
                exc.code, message, None if retry is None else int(retry)
            ) from None
        except OSError as exc:  # URLError, refused, reset, timed out
            reason = getattr(exc, "reason", exc)
            raise CatalogError(503, f"cannot reach {url}: {reason}") from None

    def _get(self, path: str, _data: bytes | None = None, **params: Any) -> Any:
        body = self._fetch(path, params, _data)
        try:
            return json.loads(body)
        except ValueError:
            raise CatalogError(
                503, f"{self._url(path, params)} did not answer JSON"
            ) from None

    def _text(self, path: str, **params: Any) -> str:
        return self._fetch(path, params).decode()

    @staticmethod
    def _part(value: Any) -> str:
        """A path segment (an ID, a label, a name), escaped."""
        return urllib.parse.quote(str(value), safe="")

    # -- entries ---------------------------------------------------------

    def entry(self, wid: str) -> dict[str, Any]:
        """The entry document (what ``wythoff show`` prints); ``wid`` is an
        ID or a family member's label."""
        return self._get(f"/api/v1/entries/{self._part(wid)}")

    def entries(
        self,
        keyword: str | None = None,
        q: str | None = None,
        family: str | None = None,
        where: str | list[str] | None = None,
        sort: str | None = None,
        limit: int | None = None,
    ) -> Iterator[dict[str, Any]]:
        """Every entry matching the filters (as ``wythoff list``), following
        the cursor; ``q`` matches words of the name. ``limit`` stops after
        that many entries, asking the server for no more than those."""
        if limit is not None:
            limit = integer(limit, "limit")
            if limit < 0:
                raise ValueError(f"limit: must be at least 0, not {limit}")
        cursor, left = None, limit
        while left is None or left > 0:
            want = MAX_LIST_LIMIT if left is None else min(left, MAX_LIST_LIMIT)
            page = self._get(
                "/api/v1/entries",
                keyword=keyword,
                q=q,
                family=family,
                where=where,
                sort=sort,
                cursor=cursor,
                limit=want,
            )
            yield from page["entries"][:want]
            if left is not None:
                left -= len(page["entries"][:want])
            cursor = page["next"]
            if cursor is None:
                return

    def families(self) -> list[dict[str, Any]]:
        """The families of variants (``wythoff families``)."""
        return self._get("/api/v1/families")["families"]

    def table(
        self, family: str, invariant: str, fix: list[str] | None = None
    ) -> dict[str, Any]:
        """An invariant over a family's two free parameters (``wythoff
        table``), or over one (a row for each stored member, one column)."""
        return self._get(
            f"/api/v1/families/{self._part(family)}/table",
            invariant=invariant,
            fix=fix,
        )

    def job(self, job_id: int) -> dict[str, Any]:
        """One job of the queue (with workers)."""
        return self._get(f"/api/v1/jobs/{self._part(job_id)}")

    # -- positions ---------------------------------------------------------

    def p_positions(self, wid: str, n: int) -> np.ndarray:
        """Every P-position with x < n and y < n (the window, not the first n
        pairs), shape (k, 2), sorted by x then y, all pages fetched."""
        n = integer(n, "n")
        parts = []
        start = (0, 0)
        while True:
            page = self._get(
                f"/api/v1/entries/{self._part(wid)}/p-positions",
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

    def is_p(self, wid: str, x: int, y: int) -> bool:
        """``True`` when (x, y) is a P-position, ``False`` when it is an
        N-position (any size of pile: give Python ints, 10**300 is fine;
        floats are refused). :meth:`position` has the whole answer, with a
        winning move."""
        return self.position(wid, x, y)["outcome"] == "P"

    def position(self, wid: str, x: int, y: int) -> dict[str, Any]:
        """The whole answer about (x, y) (what ``wythoff is-p`` prints):
        ``outcome`` ``"P"`` or ``"N"``, and ``move_to`` a winning move from
        an N-position (None from a P-position)."""
        x, y = integer(x, "x"), integer(y, "y")
        return self._get(f"/api/v1/entries/{self._part(wid)}/positions/{x}/{y}")

    def grundy(self, wid: str, n: int) -> np.ndarray:
        """Sprague–Grundy values ``g[x, y]`` for x, y < n, shape (n, n)."""
        n = integer(n, "n")
        doc = self._get(f"/api/v1/entries/{self._part(wid)}/grundy", n=n)
        return np.asarray(doc["grundy"], dtype=np.int64).reshape(n, n)

    def adjoinable(self, i: int, j: int) -> dict[str, Any]:
        """Can (i, j) and (j, i) be added to Wythoff's Nim keeping its
        P-positions?"""
        i, j = integer(i, "i"), integer(j, "j")
        return self._get(f"/api/v1/adjoinable/{i}/{j}")

    # -- sequences ---------------------------------------------------------

    def identify(
        self,
        positions: Any,
        n: int | None = None,
        symmetric: bool = False,
        limit: int = 5,
    ) -> dict[str, Any]:
        """Which games have exactly these P-positions (pairs, or a (k, 2)
        array) in the window x, y < n (default: one more than the largest
        coordinate): the stored entries, the maximal game, the smallest rule
        sets and altered games (what ``wythoff identify`` prints)."""
        array = np.asarray(positions)
        if array.size and array.dtype.kind not in "iu":
            raise CatalogError(400, "positions: pairs of integers, not floats")
        pairs = [[int(x), int(y)] for x, y in array.reshape(-1, 2).tolist()]
        # n and limit may be numpy integers (json cannot write them).
        body = {"positions": pairs, "symmetric": bool(symmetric), "limit": int(limit)}
        if n is not None:
            body["n"] = int(n)
        return self._get("/api/v1/identify", json.dumps(body).encode())

    def extensions(self, wid: str, n: int) -> dict[str, Any]:
        """What can be adjoined to the entry's rules, and what dropped, without
        changing its P-positions (what ``wythoff extensions`` prints)."""
        n = integer(n, "n")
        return self._get(f"/api/v1/entries/{self._part(wid)}/extensions", n=n)

    def sequence(self, wid: str, name: str) -> np.ndarray:
        """Every stored term of a derived sequence (``y``, ``a``, ``b``,
        ``b-a``, ``bits``), all pages fetched."""
        parts, start = [], 0
        while True:
            page = self._get(
                f"/api/v1/entries/{self._part(wid)}/sequences/{self._part(name)}",
                start=start,
                limit=self.page_size,
            )
            parts.append(np.asarray(page["terms"], dtype=np.int64))
            if page["next"] is None:
                return np.concatenate(parts)
            start = page["next"]

    def bitstring(self, wid: str) -> dict[str, Any]:
        """The upper/lower bit-string of a one-P-per-column game."""
        return self._get(f"/api/v1/entries/{self._part(wid)}/bitstring")

    def export(self, wid: str, fmt: str = "oeis", n: int = 1000) -> str:
        """The entry in the OEIS internal format (``oeis``) or as a b-file."""
        n = integer(n, "n")
        return self._text(f"/api/v1/entries/{self._part(wid)}/export", format=fmt, n=n)

    def search(self, terms: str | list[int], limit: int | None = None) -> list[Any]:
        """Entries whose sequences contain ``terms`` consecutively (or that
        match ``id:``, ``keyword:`` or words), every page followed; at most
        ``limit`` results when given."""
        if not isinstance(terms, str):
            terms = ",".join(str(integer(t, "terms")) for t in terms)
        found: list[Any] = []
        offset: int | None = 0
        page_size = min(self.page_size, MAX_SEARCH_LIMIT)
        while offset is not None and (limit is None or len(found) < limit):
            if offset > MAX_SEARCH_OFFSET:
                break  # the deepest page the API serves
            want = page_size if limit is None else min(page_size, limit - len(found))
            page = self._get("/api/v1/search", q=terms, offset=offset, limit=want)
            found += page["results"]
            offset = page["next"]
        return found

    # -- pictures ----------------------------------------------------------

    def positions_frame(self, wid: str, n: int) -> Any:
        """The P-positions as a pandas DataFrame with columns x and y."""
        return _pandas("positions_frame").DataFrame(
            self.p_positions(wid, n), columns=["x", "y"]
        )

    def table_frame(
        self, family: str, invariant: str, fix: list[str] | None = None
    ) -> Any:
        """:meth:`table` as a pandas DataFrame: rows and columns named by the
        family's two free parameters, a cell None where the catalog holds no
        such member (or it has no value)."""
        pd = _pandas("table_frame")
        doc = self.table(family, invariant, fix)
        rows, columns = doc["rows"], doc["columns"]
        frame = pd.DataFrame(
            doc["cells"],
            index=pd.Index(rows["values"], name=rows["name"]),
            columns=pd.Index(columns["values"], name=columns["name"]),
        )
        frame.attrs.update(family=doc["family"], invariant=doc["invariant"])
        return frame

    def entries_frame(self, **filters: Any) -> Any:
        """:meth:`entries` (the same filters and ``limit``) as a pandas
        DataFrame, one row an entry indexed by ID: label, name, and a column
        per invariant shown."""
        pd = _pandas("entries_frame")
        rows = []
        for entry in self.entries(**filters):
            values = entry.get("values") or {}
            rows.append(
                {
                    "id": entry["id"],
                    "label": entry.get("label"),
                    "name": entry["name"],
                    **values,
                }
            )
        return pd.DataFrame(
            rows, columns=None if rows else ["id", "label", "name"]
        ).set_index("id")

    def plot(self, wid: str, n: int, ax: Any = None) -> Any:
        """Draw the P-positions with x, y < n (the papers' pictures: x to the
        right, y up, one dot a position) on ``ax`` or a new figure; returns
        the axes."""
        try:
            import matplotlib.pyplot as plt
        except ImportError:
            raise ImportError("plot needs matplotlib: pip install matplotlib") from None
        found = self.p_positions(wid, n)
        if ax is None:
            _, ax = plt.subplots(figsize=(6, 6))
        size = max(0.5, min(12.0, 4000.0 / max(n, 1)))
        ax.scatter(found[:, 0], found[:, 1], s=size, marker="s", linewidths=0)
        ax.set_xlim(-0.5, n - 0.5)
        ax.set_ylim(-0.5, n - 0.5)
        ax.set_aspect("equal")
        ax.set_xlabel("x")
        ax.set_ylabel("y")
        entry = self.entry(wid)
        ax.set_title(f"{entry['id']} {entry['name']}: P-positions, x, y < {n}")
        return ax


def _seconds(value: str | None) -> float | None:
    """A ``Retry-After`` header's seconds (None when absent or a date)."""
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


def _pandas(method: str) -> Any:
    try:
        import pandas
    except ImportError:
        raise ImportError(f"{method} needs pandas: pip install pandas") from None
    return pandas
