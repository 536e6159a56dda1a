"""Entries: show and list; the invariants stored with each entry; seeding,
verifying and reindexing the whole catalog.

:func:`show` reads what is stored with one plain connection and Core
statements; the ORM (:mod:`catalog.store.repository`) and the compute
layer's invariants load only when something is written or computed.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.exc import DBAPIError, IntegrityError

from catalog.compute.modes import column_mode
from catalog.compute.sequences import MAX_TERMS
from catalog.errors import BadInput, Busy, DatabaseUnavailable
from catalog.games.definition import (
    Definition,
)
from catalog.service.store import Store, entry_number, idempotent, stored_game
from catalog.store import labels as labelled
from catalog.store.db import Reader, writing
from catalog.store.derived import read_bitstrings, read_sequences, xref_ids
from catalog.store.ids import UnknownEntry, format_id
from catalog.store.tables import entries, extents
from catalog.store.tables import invariants as stored_invariants

Progress = Callable[[int], None]
log = logging.getLogger(__name__)


def entry_document(
    session: Reader,
    entry: Any,
    theory: dict[str, Any],
    definition: dict[str, Any],
    game: Definition,
) -> dict[str, Any]:
    """What ``wythoff show`` prints and ``/api/v1/entries/{id}`` returns.

    ``entry`` is a row with the entry's columns (``id``, ``name``, …) and
    the extent's (``x_bound``, ``y_bound``, ``count``, ``engine``: None
    without one), as :func:`show` reads them in one query; ``definition``
    and ``game`` (its canonical form) are the entry's. Four more statements:
    the heads of the sequences, the bit-strings, the labels and the
    cross-references.
    """
    x_bound, y_bound, count, engine = (
        entry.x_bound,
        entry.y_bound,
        entry.count,
        entry.engine,
    )
    offset = theory.get("offset")
    defects = theory.get("defects")
    saturation = theory.get("saturation")
    dictionary = theory.get("dictionary")
    sequences = read_sequences(session, entry.id, head=20)
    bitstrings = read_bitstrings(session, entry.id)
    labels = labelled.labels_of(session, entry.id)
    primary = labels[0] if labels else None
    doc: dict[str, Any] = {
        "id": format_id(entry.id),
        "name": entry.name,
        "label": primary.label if primary else None,
        "family": (
            {"name": primary.family, "parameters": primary.parameters}
            if primary
            else None
        ),
        "labels": [row.label for row in labels],
        "definition": definition,
        "description": entry.description,
        "keywords": entry.keywords,
        "references": entry.references,
        "provenance": entry.provenance,
        "source": entry.source,
        "offset": offset["value"] if offset else None,
        "defects": defects["value"] if defects else None,
        "saturation_column": saturation["value"]["column"] if saturation else None,
        "xrefs": [format_id(i) for i in xref_ids(session, entry.id)],
        "computed": {
            "mode": "columns" if column_mode(game) else "box",
            "x_bound": x_bound if x_bound is not None else 0,
            "y_bound": y_bound,
            "count": count if count is not None else 0,
            "engine": engine,
        },
        "sequences": {
            name: {
                "offset": s["offset"],
                "length": s["length"],
                "capped": s["length"] >= MAX_TERMS,
                "description": s["description"],
                "first_terms": s["terms"][:20].tolist(),
            }
            for name, s in sequences.items()
        },
        "created": _utc(entry.created_at),
        "updated": _utc(entry.updated_at),
    }
    if dictionary is not None:
        doc["dictionary"] = dictionary["value"]
    doc["invariants"] = theory
    for row in bitstrings:
        if row.kind == "upper-lower":
            doc["bitstring"] = {
                "start": row.start,
                "length": row.length,
                "bits": row.bits[:200],
            }
    return doc


def _utc(moment: datetime) -> str:
    # SQLite hands back naive datetimes; every stored time is UTC.
    return moment.replace(tzinfo=moment.tzinfo or UTC).isoformat()


def seed(store: Store, path: Path | None = None) -> dict[str, list[str]]:
    """Load the seed files; the seeds that are family members get their
    labels (``maharaja.1.2`` names W000004 from the start)."""
    # Imported here: the families' machinery serves seeding, not reading.
    from catalog.service.listings import label_seeds
    from catalog.store.seed import load_seeds

    def work() -> dict[str, list[str]]:
        with store.sessions.begin() as session:
            report = load_seeds(session, path)
            label_seeds(session, store.families)
            return report

    # Another process seeding at once may commit the same rows first.
    return idempotent(work)


#: Entries :func:`compute_many` writes in one transaction.
BATCH_ENTRIES = 64


def compute_many(
    store: Store,
    ids: list[str],
    n: int,
    progress: Callable[[int], None] | None = None,
) -> None:
    """Compute each entry up to ``n`` with its invariants (seeding), in
    batches of :data:`BATCH_ENTRIES` entries, each one transaction
    (:func:`catalog.service.store.batch`): an interruption loses the batch
    under way, never half an entry, and running again completes it.

    The invariants depend on the definition alone (about half the work of an
    entry at n = 10^4): on a machine with more than one core they are
    computed in helper processes, a batch ahead, while this process fills.
    """
    from catalog.service.positions import filled
    from catalog.service.store import batch
    from catalog.store import search

    written = 0  # entries since the index's last vacuum (PostgreSQL)
    with _Invariants(store) as ahead:
        batches = [
            ids[first : first + BATCH_ENTRIES]
            for first in range(0, len(ids), BATCH_ENTRIES)
        ]
        for k, wids in enumerate(batches):
            if k == 0:
                ahead.submit(wids)
            if k + 1 < len(batches):
                ahead.submit(batches[k + 1])
            with batch(store) as inside:
                for wid in wids:
                    number = filled(inside, wid, n)
                    entry_invariants(inside, number, ahead.take(number))
                    if progress is not None:
                        progress(1)
            written += len(wids)
            if written >= search.VACUUM_ENTRIES or k + 1 == len(batches):
                search.vacuum(store.engine)
                written = 0


def _forget_connections(store: Store) -> None:
    """In a forked helper: drop the pooled connections of the parent
    without closing them (they are the parent's)."""
    if "engine" in store.__dict__:
        store.engine.dispose(close=False)


class _Invariants:
    """Invariants computed ahead in helper processes (none on one core):
    ``submit`` the entries of a batch, ``take`` an entry's ``(key, data)``
    (None when it was not computed ahead or its computation failed; the
    caller then computes it, and meets the same error)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.pending: dict[int, Any] = {}
        self.pool: Any = None
        workers = (os.cpu_count() or 1) - 1
        if workers > 0 and "fork" in multiprocessing.get_all_start_methods():
            from concurrent.futures import ProcessPoolExecutor

            # Forked (a fresh interpreter would import the caller's main
            # module again, and numba's kernels): the children compute only,
            # and leave the connections they inherit alone (SQLAlchemy's
            # recipe for a fork; they end by os._exit, closing nothing).
            self.pool = ProcessPoolExecutor(
                workers,
                mp_context=multiprocessing.get_context("fork"),
                initializer=_forget_connections,
                initargs=(store,),
            )

    def __enter__(self) -> _Invariants:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)

    def submit(self, wids: list[str]) -> None:
        if self.pool is None:
            return
        from catalog.compute import invariants
        from catalog.store import repository as repo

        with self.store.sessions() as session:
            for wid in wids:
                number = entry_number(self.store, wid)
                entry = repo.get_entry(session, number)
                if repo.read_invariants(session, number, invariants.VERSION):
                    continue  # stored already
                future = self.pool.submit(invariants.compute, entry.definition)
                self.pending[number] = (entry.key, future)

    def take(self, number: int) -> tuple[str, dict[str, Any]] | None:
        found = self.pending.pop(number, None)
        if found is None:
            return None
        key, future = found
        try:
            return key, future.result()
        except Exception:  # noqa: BLE001 - the caller computes it again
            return None


#: The columns of an entry and its extent that :func:`entry_document` shows.
_SHOWN = (
    entries.c.id,
    entries.c.name,
    entries.c.description,
    entries.c.keywords,
    entries.c.references,
    entries.c.provenance,
    entries.c.source,
    entries.c.created_at,
    entries.c.updated_at,
    extents.c.x_bound,
    extents.c.y_bound,
    extents.c.count,
    extents.c.engine,
)
#: The entry's row, its extent, its key (for the definition, from the
#: process's cache) and its stored invariants: one statement, built once.
_DOCUMENT = (
    select(
        *_SHOWN, entries.c.key, stored_invariants.c.version, stored_invariants.c.data
    )
    .outerjoin(extents, extents.c.entry_id == entries.c.id)
    .outerjoin(stored_invariants, stored_invariants.c.entry_id == entries.c.id)
    .where(entries.c.id == bindparam("number"))
)


def show(store: Store, wid: str) -> dict[str, Any]:
    """The entry's document, read in one transaction: its row with the
    extent, the definition from the process's cache (:class:`Games`), the
    stored invariants (computed first when missing), sequences, labels and
    cross-references."""
    number = entry_number(store, wid)
    for _attempt in range(2):
        with store.reading() as connection:
            row = connection.execute(_DOCUMENT, {"number": number}).first()
            if row is None:
                raise UnknownEntry(f"no entry {format_id(number)}")
            if row.version is not None and row.version >= _version():
                definition, game = stored_game(store, connection, number, row.key)
                return entry_document(connection, row, row.data, definition, game)
        entry_invariants(store, number)
    data = entry_invariants(store, number)  # not storable (a read-only role)
    with store.reading() as connection:
        row = connection.execute(_DOCUMENT, {"number": number}).one()
        definition, game = stored_game(store, connection, number, row.key)
        return entry_document(connection, row, data, definition, game)


def _version() -> int:
    """The compute layer's version of the invariants' recipes: a stored row
    of an older one is recomputed."""
    from catalog.compute import invariants

    return invariants.VERSION


def entry_invariants(
    store: Store, number: int, ahead: tuple[str, dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The entry's invariants, computed and stored on first use (they depend
    on the definition only, so every later read is a lookup). ``ahead``:
    ``(key, invariants)`` computed elsewhere for the definition of that key
    (:func:`compute_many`), used if the entry still has it.

    The computation runs outside any transaction; the write checks that the
    definition is still the one computed for, and computes again if an edit
    came in between. A database that refuses the write (a read-only role)
    still gets the answer, just not cached.
    """
    from catalog.compute import invariants
    from catalog.store import repository as repo

    for _attempt in range(3):
        with store.sessions() as session:
            key = _key(session, number)
            found = repo.read_invariants(session, number, invariants.VERSION)
            if found is None and (ahead is None or ahead[0] != key):
                entry = repo.get_entry(session, number)
                definition, key = entry.definition, entry.key
        if found is not None:
            return found
        if ahead is not None and ahead[0] == key:
            data = ahead[1]
        else:
            data = invariants.compute(definition)
        try:
            with writing(store.sessions) as session:
                if _key(session, number) != key:
                    continue  # the definition changed meanwhile
                repo.store_invariants(session, number, invariants.VERSION, data)
        except IntegrityError:
            pass  # the entry was removed meanwhile (the rows are upserts)
        except (DBAPIError, DatabaseUnavailable) as exc:
            log.warning("invariants of %s not stored: %s", format_id(number), exc)
        return data
    raise Busy(f"{format_id(number)}: its definition keeps changing; try again")


def _key(session: Any, number: int) -> str:
    """The key of the entry's definition (one light read: no ORM object)."""
    key = session.scalar(select(entries.c.key).where(entries.c.id == number))
    if key is None:
        raise UnknownEntry(f"no entry {format_id(number)}")
    return str(key)


def verify(store: Store, wids: list[str] | tuple[str, ...] = ()) -> dict[str, Any]:
    """Recompute and check stored entries (all of them when ``wids`` is empty);
    ``ok`` is false when any check failed. Reads only."""
    from catalog import verify as checking  # its imports serve only verify

    numbers = [entry_number(store, w) for w in wids] or None
    with store.sessions() as session:
        reports = checking.verify_entries(session, numbers)
    return {
        "ok": all(r.ok for r in reports),
        "entries": [r.to_json() for r in reports],
    }


def copy_catalog(
    store: Store, to: str, progress: Callable[[int], None] | None = None
) -> dict[str, Any]:
    """The whole catalog into the database at ``to`` (:mod:`catalog.store.copy`):
    resumable, idempotent, checked; a target holding another catalog is
    refused before anything is written."""
    import time

    from catalog.config import Settings
    from catalog.store import copy as copying
    from catalog.store.db import safe_url

    source = store.engine
    target = Store(Settings.load(to))
    try:
        if safe_url(target.engine.url) == safe_url(source.url):
            raise BadInput(f"--to: {safe_url(source.url)} is the catalog itself")
        started = time.monotonic()
        report = copying.copy(source, target.engine, progress)
        seconds = time.monotonic() - started
    finally:
        target.dispose()
    return {
        "from": safe_url(source.url),
        "to": safe_url(to),
        "rows": report.rows,
        "copied": report.copied,
        "chunks_checked": report.chunks_checked,
        "chunk_bytes": report.bytes,
        "seconds": round(seconds, 3),
    }


def reindex(store: Store) -> dict[str, Any]:
    from catalog.store import repository as repo

    with writing(store.sessions) as session:
        return {"reindexed": repo.reindex(session)}
