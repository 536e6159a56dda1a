"""The cache of pure results: answers that depend on their question alone.

A Grundy table, the extensions of an entry, identify's games: each is a fact
of its definition (or data) and its bound, as a P-position is, so once
computed it is kept in the ``results`` table and the same question costs
one indexed read. The table is a cache, never the only copy: its rows go,
oldest first, once their bodies pass the configured bytes, and writing one
is best effort (a locked or read-only database skips it).

A question is its kind and a JSON document (the definition's key and the
bound, or identify's cells); its row is found by the SHA-256 of both.
"""

from __future__ import annotations

import hashlib
import json
import logging
import zlib
from typing import Any

from sqlalchemy import Connection, delete, func, select, tuple_
from sqlalchemy.orm import Session, sessionmaker

from catalog.errors import Busy, DatabaseUnavailable
from catalog.store.db import dialect_insert, writing
from catalog.store.tables import results, utcnow

log = logging.getLogger(__name__)

#: zlib's level: a Grundy table of 10^6 values compresses in milliseconds.
LEVEL = 1


def digest(kind: str, question: Any) -> str:
    """The key of a question: SHA-256 of its canonical JSON."""
    text = json.dumps([kind, question], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def get(connection: Connection, kind: str, key: str) -> bytes | None:
    """The stored answer, or None."""
    body = connection.execute(
        select(results.c.body).where(results.c.kind == kind, results.c.digest == key)
    ).scalar()
    return None if body is None else zlib.decompress(body)


def put(
    maker: sessionmaker[Session],
    kind: str,
    key: str,
    answer: bytes,
    entry_id: int | None,
    max_bytes: int,
) -> bool:
    """Keep ``answer`` (True), dropping the oldest answers past
    ``max_bytes``; False when it is not kept: too large (over an eighth of
    the cache), or the database cannot take the write now."""
    body = zlib.compress(answer, LEVEL)
    if max_bytes <= 0 or len(body) > max_bytes // 8:
        return False
    try:
        with writing(maker) as session:
            insert = dialect_insert(session)
            session.execute(
                insert(results)
                .values(
                    kind=kind,
                    digest=key,
                    entry_id=entry_id,
                    body=body,
                    bytes=len(body),
                    created_at=utcnow(),
                )
                .on_conflict_do_nothing()
            )
            _trim(session, max_bytes)
    except (Busy, DatabaseUnavailable) as exc:
        log.info("result not cached (%s): %s", type(exc).__name__, exc)
        return False
    return True


def _trim(session: Session, max_bytes: int) -> None:
    """Delete the oldest answers until the rest fit in ``max_bytes``."""
    total = session.scalar(select(func.coalesce(func.sum(results.c.bytes), 0))) or 0
    if total <= max_bytes:
        return
    oldest = session.execute(
        select(results.c.kind, results.c.digest, results.c.bytes).order_by(
            results.c.created_at
        )
    )
    doomed = []
    for kind, key, size in oldest:
        doomed.append((kind, key))
        total -= size
        if total <= max_bytes:
            break
    oldest.close()
    session.execute(
        delete(results).where(tuple_(results.c.kind, results.c.digest).in_(doomed))
    )
