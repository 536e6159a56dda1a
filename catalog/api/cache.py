"""Rendered answers for stored results, kept in the worker's memory.

Stored results change only when their entry does (a bound's P-positions are
facts of one definition), so the body of a page, once rendered, is served
again as long as the entry's stored version is the one it was rendered for:
callers put that version (:func:`catalog.service.entry_version`) in the key.
Bounded by total bytes, least recently used first out.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import NamedTuple


class Rendered(NamedTuple):
    body: bytes
    mimetype: str
    link: str | None


class ResponseCache:
    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._items: OrderedDict[Hashable, Rendered] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Rendered | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: Hashable, value: Rendered) -> None:
        if len(value.body) > self.max_bytes // 8:
            return  # one huge page would push out everything else
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._size -= len(old.body)
            self._items[key] = value
            self._size += len(value.body)
            while self._size > self.max_bytes:
                _, dropped = self._items.popitem(last=False)
                self._size -= len(dropped.body)
