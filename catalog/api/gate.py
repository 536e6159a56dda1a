"""Who may compute, and when: a quota of work per client, and compute slots.

Reads of what is stored are never gated. A request that must compute
(a fill, a Grundy table, the P-positions behind extensions, identify's
search) passes :class:`Gate` first, with its estimate from
:mod:`catalog.compute.cost`:

1. **A compute slot.** At most ``COMPUTE_SLOTS`` computations run at once on
   a host, whatever the number of gunicorn workers (a lock file each, under
   ``COMPUTE_SLOTS_DIR``: the kernel releases a dead process's lock). With
   every slot in use the request is not kept waiting in the worker that
   reads need: a fill is queued (``202``) when the server has a queue, and
   anything else answers ``429`` with ``Retry-After``. A request that only
   waits for another's fill reaching its ``n`` (the same work) does not
   pass the gate at all: no slot, no quota (:mod:`catalog.store.fill`).
2. **The client's quota**: at most ``QUOTA_SECONDS`` seconds of estimated
   work per minute (a sliding window), counted by the ``limits`` library in
   a store shared by every API process and host (``QUOTA_STORAGE``, e.g.
   ``redis://127.0.0.1:6379/0``), or per process without one. Past it:
   ``429`` with ``Retry-After`` (when the window will have room) and a
   message naming the quota. When the shared store goes away the server
   counts per process (logged once) and tries the store again a little
   later; a quota store is never a reason to fail a request.

A client is its API key (``X-API-Key``) when the key is one of
``API_KEYS``, else its address: the peer's, or, when the peer is one of
``TRUSTED_PROXIES``, the first address of ``X-Forwarded-For`` (read from the
right) that is not a trusted proxy. A client that forges the header without
a trusted proxy in front gains nothing: the header is not read.

Why ``limits`` and not Flask-Limiter: the cost of a request is known only
deep inside it (after its entry is read and its work estimated), not in a
decorator before it runs; ``limits`` is the library Flask-Limiter counts
with, and its sliding-window counter takes a cost per hit. The slots are
lock files of our own: a semaphore of the host that dies with its holder
and needs no server.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import os
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

from flask import has_request_context, request
from limits import RateLimitItemPerMinute
from limits.storage import (
    MemoryStorage,
    SlidingWindowCounterSupport,
    Storage,
    storage_from_string,
)
from limits.strategies import SlidingWindowCounterRateLimiter

from catalog.errors import BadInput, Throttled
from catalog.store.fill import OverBudget

log = logging.getLogger(__name__)

#: Seconds of estimated work a client may spend per minute: a notebook user
#: computing now and then never meets it (a request's budget is 2 s), while
#: one client looping on computations gets half a core at most.
QUOTA_SECONDS = 30.0
#: The quota is counted in hundredths of a second.
UNITS = 100
#: Seconds before the server tries a quota store that failed again.
STORE_RETRY_SECONDS = 30.0
#: Seconds the quota store may take to answer before it counts as gone.
STORE_TIMEOUT = 0.25


def default_slots() -> int:
    """Half the host's cores, at least one: the rest serve reads."""
    return max(1, (os.cpu_count() or 2) // 2)


# -- the client ---------------------------------------------------------------

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(text: str | Sequence[str] | None, name: str) -> list[Network]:
    """``TRUSTED_PROXIES``: addresses or networks, comma-separated or a list."""
    items = text.split(",") if isinstance(text, str) else list(text or ())
    networks = []
    for item in (i.strip() for i in items):
        if not item:
            continue
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise BadInput(f"{name}: {item!r} is not an address or a network") from None
    return networks


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def client_address(
    peer: str | None, forwarded: str | None, trusted: Sequence[Network]
) -> str:
    """The client's address: ``peer``, unless it is a trusted proxy; then the
    rightmost address of ``X-Forwarded-For`` that is not one (each proxy
    appends the address it was reached from, so only the part appended by
    trusted proxies can be believed)."""
    peer = peer or "unknown"

    def is_trusted(address: str) -> bool:
        ip = _address(address)
        return ip is not None and any(ip in net for net in trusted)

    if not trusted or not is_trusted(peer):
        return peer
    client = peer
    for hop in reversed((forwarded or "").split(",")):
        if _address(hop) is None:
            break  # not an address: nothing further left can be believed
        client = hop.strip()
        if not is_trusted(client):
            break
    return client


def client_key(api_keys: frozenset[str], trusted: Sequence[Network]) -> str:
    """The name the current request's client is counted under."""
    key = request.headers.get("X-API-Key")
    if key and key in api_keys:
        return "key:" + hashlib.sha256(key.encode()).hexdigest()[:16]
    peer = request.environ.get("REMOTE_ADDR")
    return "ip:" + client_address(peer, request.headers.get("X-Forwarded-For"), trusted)


# -- the quota ----------------------------------------------------------------


class Quota:
    """Seconds of estimated work per client per minute, in a ``limits`` store."""

    def __init__(
        self, seconds: float, storage: str | None, namespace: str = "wythoff"
    ) -> None:
        self.seconds = seconds
        self.namespace = namespace
        self.item = RateLimitItemPerMinute(max(1, round(seconds * UNITS)))
        self.url = storage
        self._local = SlidingWindowCounterRateLimiter(MemoryStorage())
        self._shared: SlidingWindowCounterRateLimiter | None = None
        self._failed_at: float | None = None
        self._lock = threading.Lock()
        if storage:
            self._shared = SlidingWindowCounterRateLimiter(_storage(storage))

    def _limiter(self) -> SlidingWindowCounterRateLimiter:
        """The shared store's limiter, or the process's own while it is gone."""
        with self._lock:
            if self._shared is None:
                return self._local
            if self._failed_at is not None:
                if time.monotonic() - self._failed_at < STORE_RETRY_SECONDS:
                    return self._local
            return self._shared

    def _failed(self, exc: Exception) -> None:
        with self._lock:
            first = self._failed_at is None
            self._failed_at = time.monotonic()
        if first:
            log.warning(
                "the quota store %s failed (%s: %s): counting per process until "
                "it answers again",
                _redacted(self.url),
                type(exc).__name__,
                exc,
            )

    def _recovered(self, limiter: SlidingWindowCounterRateLimiter) -> None:
        if limiter is self._shared and self._failed_at is not None:
            with self._lock:
                self._failed_at = None
            log.warning("the quota store %s answers again", _redacted(self.url))

    def _run(self, action: Any) -> Any:
        limiter = self._limiter()
        if limiter is self._local:
            return action(limiter)
        try:
            result = action(limiter)
        except Exception as exc:  # any failure of the store: count locally
            self._failed(exc)
            return action(self._local)
        self._recovered(limiter)
        return result

    def _cost(self, seconds: float) -> int:
        # At most the whole quota, so that work the budget allows is never
        # refused for good; at least one unit, so that nothing is free.
        return min(self.item.amount, max(1, math.ceil(seconds * UNITS)))

    def charge(self, client: str, seconds: float) -> None:
        """Count ``seconds`` of work for ``client``, or :class:`Throttled`
        (nothing counted) when they do not fit in its quota."""
        cost = self._cost(seconds)
        ids = (self.namespace, client)
        if not self._run(lambda limiter: limiter.hit(self.item, *ids, cost=cost)):
            self._refuse(client, cost)

    def check(self, client: str, seconds: float) -> None:
        """:class:`Throttled` unless ``seconds`` fit in ``client``'s quota now."""
        cost = self._cost(seconds)
        ids = (self.namespace, client)
        if not self._run(lambda limiter: limiter.test(self.item, *ids, cost=cost)):
            self._refuse(client, cost)

    def spend(self, client: str, seconds: float) -> None:
        """Count work already done: as much of ``seconds`` as fits."""
        cost = self._cost(seconds)

        def hit(limiter: SlidingWindowCounterRateLimiter) -> None:
            ids = (self.namespace, client)
            if not limiter.hit(self.item, *ids, cost=cost):
                left = limiter.get_window_stats(self.item, *ids).remaining
                if left > 0:
                    limiter.hit(self.item, *ids, cost=left)

        self._run(hit)

    def _refuse(self, client: str, cost: int) -> None:
        wait = self._run(lambda limiter: self._wait(limiter, client, cost))
        raise Throttled(
            f"this request needs about {cost / UNITS:.2f} s of computation and "
            f"the quota of a client is {self.seconds:g} s of computation a "
            f"minute (WYTHOFF_QUOTA_SECONDS), spent; reading what is stored is "
            f"not counted. Try again in {wait} s",
            retry_after=wait,
        )

    def _wait(
        self, limiter: SlidingWindowCounterRateLimiter, client: str, cost: int
    ) -> int:
        """Whole seconds until ``cost`` units fit in the sliding window: the
        previous minute's count weighs less as the current one goes on."""
        storage = cast(SlidingWindowCounterSupport, limiter.storage)
        window = self.item.get_expiry()
        previous, previous_left, current, current_left = storage.get_sliding_window(
            self.item.key_for(self.namespace, client), window
        )
        # The previous minute's count weighs in until the current one ends
        # (its counter lives on for one more minute as the previous one).
        end = previous_left if previous else current_left % window
        room = self.item.amount - cost
        for t in range(1, 2 * window + 1):
            if t < end:
                weight = previous * (end - t) / window + current
            else:  # the current minute has become the previous one
                weight = current * max(0.0, window - (t - end)) / window
            if weight <= room:
                return t
        return 2 * window


def _storage(url: str) -> Storage:
    options = {}
    if url.startswith(("redis://", "rediss://", "redis+unix://")):
        options = {
            "socket_timeout": STORE_TIMEOUT,
            "socket_connect_timeout": STORE_TIMEOUT,
        }
    try:
        storage = storage_from_string(url, **options)
    except Exception as exc:  # limits' ConfigurationError, a driver missing
        raise BadInput(f"QUOTA_STORAGE: {_redacted(url)}: {exc}") from None
    if not isinstance(storage, Storage):  # an asyncio storage ("async+…")
        raise BadInput(f"QUOTA_STORAGE: {_redacted(url)} is not a storage for threads")
    return storage


def _redacted(url: str | None) -> str:
    """The store's URL without a password."""
    if not url or "@" not in url:
        return str(url)
    scheme, _, rest = url.partition("://")
    return f"{scheme}://…@{rest.rpartition('@')[2]}"


# -- the compute slots --------------------------------------------------------


class Slots:
    """At most ``count`` computations at once on this host: a lock file each
    (``fcntl.flock``, released by the kernel when its holder dies); a
    semaphore of the process where there is no ``fcntl``."""

    def __init__(self, count: int, folder: str | os.PathLike[str] | None) -> None:
        self.count = count
        self.folder = Path(folder) if folder else default_slots_dir()
        self.folder.mkdir(parents=True, exist_ok=True)
        self._semaphore = threading.BoundedSemaphore(count)

    @contextmanager
    def take(self) -> Iterator[bool]:
        """Hold a free slot (yields True), or yield False at once when none is."""
        try:
            import fcntl
        except ImportError:  # not POSIX: this process's own slots
            if not self._semaphore.acquire(blocking=False):
                yield False
                return
            try:
                yield True
            finally:
                self._semaphore.release()
            return
        for i in range(self.count):
            fd = os.open(self.folder / f"slot-{i}.lock", os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            try:
                yield True
            finally:
                os.close(fd)  # closing the file releases its lock
            return
        yield False


def default_slots_dir() -> Path:
    """The slots of every catalog server of this user on this host."""
    uid = os.getuid() if hasattr(os, "getuid") else 0
    return Path(tempfile.gettempdir()) / f"wythoff-compute-slots-{uid}"


# -- the gate -----------------------------------------------------------------


class Gate:
    """:attr:`catalog.store.limits.Limits.gate` of the server (see the module)."""

    def __init__(self, config: Any) -> None:
        seconds = float(config["QUOTA_SECONDS"])
        self.quota = (
            Quota(seconds, config["QUOTA_STORAGE"], config["QUOTA_NAMESPACE"])
            if seconds > 0
            else None
        )
        count = config["COMPUTE_SLOTS"]
        count = default_slots() if count is None else int(count)
        self.slots = Slots(count, config["COMPUTE_SLOTS_DIR"]) if count > 0 else None
        self.queue = bool(config["QUEUE"])
        self.budget = float(config["INLINE_SECONDS"])
        keys = config["API_KEYS"]
        keys = keys.split(",") if isinstance(keys, str) else list(keys or ())
        self.api_keys = frozenset(k.strip() for k in keys if k.strip())
        self.trusted = parse_networks(config["TRUSTED_PROXIES"], "TRUSTED_PROXIES")

    @contextmanager
    def __call__(
        self,
        seconds: float,
        *,
        measured: bool = False,
        fill: tuple[int, int] | None = None,
    ) -> Iterator[None]:
        if not has_request_context():  # work of the app outside a request
            yield
            return
        client = client_key(self.api_keys, self.trusted)
        with self._slot(seconds, fill):
            if self.quota is None:
                yield
                return
            if not measured:
                self.quota.charge(client, seconds)
                yield
                return
            self.quota.check(client, seconds)
            started = time.monotonic()
            try:
                yield
            finally:
                self.quota.spend(client, time.monotonic() - started)

    @contextmanager
    def _slot(self, seconds: float, fill: tuple[int, int] | None) -> Iterator[None]:
        if self.slots is None:
            yield
            return
        with self.slots.take() as free:
            if not free:
                self._busy(seconds, fill)
            yield

    def _busy(self, seconds: float, fill: tuple[int, int] | None) -> None:
        retry = max(1, math.ceil(self.budget))
        if fill is not None and self.queue:
            # The workers compute it: 202 with the job (catalog.api.jobs).
            raise OverBudget(
                f"every compute slot of this server is in use "
                f"({self.slots.count if self.slots else 0} at once); the fill is "
                "queued",
                fill[0],
                fill[1],
                seconds,
            )
        raise Throttled(
            f"every compute slot of this server is in use "
            f"({self.slots.count if self.slots else 0} at once, "
            f"WYTHOFF_COMPUTE_SLOTS); reading what is stored is not affected. "
            f"Try again in {retry} s",
            retry_after=retry,
        )
