"""Answers computed once: :mod:`catalog.store.results` for the services.

A service whose answer depends on its question alone (a Grundy table,
extensions, identify's games) asks :func:`cached` with the question and a
function that computes the answer; the same question later costs one read,
and is not charged to the client's quota (nothing is computed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from catalog.service.store import Store
from catalog.store import results


def cached(
    store: Store,
    kind: str,
    question: Any,
    compute: Callable[[], bytes],
    entry_id: int | None = None,
    keep: Callable[[bytes], bool] = lambda answer: True,
) -> bytes:
    """The stored answer to ``question``, else ``compute()``, kept when
    ``keep`` says the answer is final (an unfinished search is not)."""
    key = results.digest(kind, question)
    with store.reading() as connection:
        found = results.get(connection, kind, key)
    if found is not None:
        return found
    answer = compute()
    if keep(answer):
        limit = store.settings.result_cache_bytes
        results.put(store.sessions, kind, key, answer, entry_id, limit)
    return answer
